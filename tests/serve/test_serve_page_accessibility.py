"""The page of ``golfsolve serve`` for every person, in headless Chromium: a screen reader's words,
live regions, focus, contrast, narrow windows, less motion, forced colours, no script."""

from __future__ import annotations

import re

from test_serve_browser import _deal, _text
from test_serve_page_interaction import _settled, _solution_shown, CODE, WON

from browser_helpers import chromium, page, page_url  # noqa: F401 (fixtures)


SUIT = re.compile("[♣♦♥♠]")


# a colour's contrast with another as WCAG 2 reckons it; `color` and the opacities of the
# element and its ancestors blended over `bg` (an "rgb(...)" string, or a CSS colour variable)
CONTRAST = """([sel, bg]) => {
  const rgb = (s) => s.match(/[\\d.]+/g).map(Number);
  const lum = (c) => { const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const el = document.querySelector(sel);
  let a = 1;
  for (let e = el; e && e !== document.getElementById("table"); e = e.parentElement) a *= Number(getComputedStyle(e).opacity);
  const fg = rgb(getComputedStyle(el).color), under = rgb(bg.startsWith("--")
    ? getComputedStyle(document.documentElement).getPropertyValue(bg).trim().replace(/^#(..)(..)(..)$/,
        (_, r, g, b) => `rgb(${parseInt(r, 16)}, ${parseInt(g, 16)}, ${parseInt(b, 16)})`) : bg);
  a *= fg.length > 3 ? fg[3] : 1;
  const seen = fg.slice(0, 3).map((v, k) => a * v + (1 - a) * under[k]);
  const [hi, lo] = [lum(seen), lum(under)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}"""


def _names(snapshot: str) -> list[str]:
    """The names and live text a screen reader says: `role "name"` and `status: text`."""
    return re.findall(r'(?:button|img|group) "([^"]*)"', snapshot) + re.findall(r"status: \"?(.*?)\"?$", snapshot, re.M)


def _live_changes(pg, do) -> list[str]:
    """The live regions (aria-live, or a role that is one) whose content changed while ``do()``
    ran and the page settled: a screen reader reads each of them out."""
    pg.evaluate("""() => {
      window.__live = new Set();
      const region = (n) => (n.nodeType === 1 ? n : n.parentElement)?.closest("[aria-live], [role=status], [role=alert], [role=log]");
      window.__obs = new MutationObserver((ms) => ms.forEach((m) => {
        const r = region(m.target) || [...m.addedNodes].map(region).find(Boolean);
        if (r) window.__live.add(r.id || r.className || r.tagName);
      }));
      window.__obs.observe(document.body, { subtree: true, childList: true, characterData: true });
    }""")
    do()
    _settled(pg)
    return pg.evaluate("() => { window.__obs.disconnect(); return [...window.__live].sort(); }")


def test_a_deal_won_from_the_keyboard_alone_is_read_out_in_words(page):
    """Was: a screen reader heard "Q♣ from column 1 onto the discard." ("Q black club suit"),
    cards named "K♣, column 1, row 4 (free)" with nothing of which free cards can be played (the
    green ring only), the discard unnamed (a label on a div with no role is not read: "Q ♣ ♣"),
    an undo as "Undid: J♦ went back." with no word of where or of the discard left, and a
    column cleared as "1". The whole deal is played here with the keys alone (1-7, D, U)."""
    from playwright.sync_api import expect

    pg = page
    _deal(pg, CODE)
    pg.evaluate("document.activeElement.blur()")
    read: dict[str, str] = {}
    for n, move in enumerate(WON.split(), 1):
        pg.keyboard.press(move)
        expect(pg.locator("#moves")).to_have_text(str(n))
        read.setdefault("d" if move == "d" else "column", pg.locator("#table").aria_snapshot())
    read["won"] = pg.locator("#table").aria_snapshot()
    pg.keyboard.press("u")
    expect(pg.locator("#message")).to_have_text(re.compile("^Undid"))
    read["undo"] = pg.locator("#table").aria_snapshot()

    for kind, snap in read.items():
        assert not [n for n in _names(snap) if SUIT.search(n)], (kind, snap)
    assert "status: Queen of clubs from column 1 onto the discard." in read["column"]
    assert 'img "Discard pile: Queen of clubs"' in read["column"]
    assert 'button "King of clubs, column 1, row 4 (free, playable)"' in read["column"]
    assert 'button "4 of spades, column 2, row 5 (free)"' in read["column"]  # free, not playable on the Queen
    assert re.search(r"status: Drew \w+ of \w+\.", read["d"]) and 'img "Discard pile: ' in read["d"]
    assert "status: You won! Score 350" in read["won"] and 'group "Column 1, empty"' in read["won"]
    assert re.search(r'status: "?Undid: Jack of diamonds went back to column 7; the discard is 10 of clubs\.', read["undo"]), read["undo"]


def test_a_move_a_step_and_a_refusal_are_each_announced_once(page):
    """Was: three live regions on the table: a move was read out by the message, then by the
    score board (score, moves and cards left, all polite-live) and by the discard; a step of the
    solution also by the step counter ("Step 3 of 47") under its message. The message is the
    one live region now; polite, so the solution's Play does not cut each step short."""
    pg = page
    with _solution_shown(pg):
        assert _live_changes(pg, lambda: pg.keyboard.press("ArrowRight")) == ["message"]
        assert _live_changes(pg, lambda: pg.keyboard.press("d")) == ["message"]
        assert _live_changes(pg, lambda: pg.keyboard.press("u")) == ["message"]
        assert _live_changes(pg, lambda: pg.keyboard.press("4")) == ["message"]  # refused: said once too
        assert pg.get_attribute("#message", "aria-live") in (None, "polite")


def test_the_stepper_and_the_solution_are_named_in_words(page):
    """Was: the stepper's buttons were named by their arrows, "◀" and "▶" (read as "black
    left-pointing triangle"; their title, the words, is only a description), Play kept its name
    once it paused, and the solution's moves read "1", "1", "5", "d" with the next one marked by
    its colour alone."""
    from playwright.sync_api import expect

    pg = page
    with _solution_shown(pg):
        for name in ("To the start", "One step back", "Play the solution", "One step forward", "To the end"):
            expect(pg.get_by_role("button", name=name, exact=True)).to_have_count(1)
        pg.keyboard.press("ArrowRight")
        expect(pg.locator("#step-info")).to_have_text(re.compile("^Step 1 of"))
        snap = pg.locator("#solution-moves").aria_snapshot()
        assert "- listitem: column 1" in snap and "- listitem: draw" in snap, snap
        assert pg.locator("#solution-moves li[aria-current=step]").count() == 1
        assert pg.locator("#solution-moves li").nth(1).get_attribute("aria-current") == "step"
        pg.keyboard.press("p")
        expect(pg.get_by_role("button", name="Pause the solution", exact=True)).to_have_count(1)
        pg.keyboard.press("p")
        expect(pg.get_by_role("button", name="Play the solution", exact=True)).to_have_count(1)


def test_the_focus_ring_shows_on_the_light_panels(page):
    """Was: the one focus ring, yellow (#ffd84d), stood 4.5:1 on the felt but 1.3:1 on the
    panels' near-white: Tab onto Hint, Odds or the stepper showed no visible change."""
    pg = page
    pg.focus("#odds-button")
    pg.keyboard.press("Shift+Tab")  # by the keyboard: the ring is :focus-visible's
    assert pg.evaluate("document.activeElement.id") == "hint-button"
    ring = pg.evaluate("getComputedStyle(document.activeElement).outlineColor")
    ratio = pg.evaluate(CONTRAST.replace("getComputedStyle(el).color", f"'{ring}'"),
                        ["#hint-button", pg.evaluate("getComputedStyle(document.getElementById('hint-panel')).backgroundColor")])
    assert ratio >= 3, ratio  # WCAG 1.4.11: 3:1 for what is not text
    pg.evaluate("document.activeElement.blur()")


def test_the_small_text_on_the_felt_stands_4_5_to_1(page):
    """Was: the column numbers (12px, white at 70%) stood 3.9:1 on the felt and the score
    board's words (white at 75%) 4.3:1, under the 4.5:1 of normal text (axe could not measure
    them on the felt's gradient: its lightest colour is the one reckoned here)."""
    pg = page
    for sel in (".col-num", "#scoreboard .k", ".pile-label"):
        ratio = pg.evaluate(CONTRAST, [sel, "--felt"])
        assert ratio >= 4.5, (sel, ratio)
    assert pg.evaluate(CONTRAST, [".card.face.red .corner", "rgb(240, 240, 240)"]) >= 4.5  # red on a covered card


def test_narrow_windows_and_a_phone_show_everything_without_scrolling_sideways(page):
    """Was: from 981 to 1031 px wide the page kept its two columns (a 600 px table beside
    360 px of panels) and scrolled sideways, the panels cut off at the right. At 1000 px, at a
    200% zoom of 1280 px (640 px) and on phones (375 and 320 px) everything is in the window
    and the free cards can be tapped (24 px at least: WCAG 2.5.8)."""
    pg = page
    _deal(pg, CODE)
    try:
        for width, height in ((1000, 700), (640, 450), (375, 667), (320, 568)):
            pg.set_viewport_size({"width": width, "height": height})
            got = pg.evaluate("""() => ({
              wide: document.documentElement.scrollWidth,
              out: [...document.querySelectorAll("button, input, select, .panel, #table, h1, h2")]
                .filter((e) => { const r = e.getBoundingClientRect(); return r.width && (r.left < 0 || r.right > innerWidth + 0.5); })
                .map((e) => e.id || e.className),
              small: [...document.querySelectorAll(".card.free, #stock")]
                .filter((e) => { const r = e.getBoundingClientRect(); return r.width < 24 || r.height < 24; }).length,
            })""")
            assert got == {"wide": width, "out": [], "small": 0}, (width, got)
    finally:
        pg.set_viewport_size({"width": 1280, "height": 900})


def test_less_motion_asked_for_slows_play_and_stills_the_cards(page):
    """Was: with prefers-reduced-motion the solution's Play still changed the table every
    0.6 s and a free card under the pointer still jumped up 3 px; now it steps every 2 s and
    the card stays put."""
    pg = page
    pg.evaluate("""() => { window.__delays = []; const set = window.setInterval;
      window.setInterval = (f, d, ...a) => { window.__delays.push(d); return set(f, d, ...a); }; }""")
    try:
        pg.emulate_media(reduced_motion="reduce")
        with _solution_shown(pg):
            pg.keyboard.press("p")
            pg.keyboard.press("p")
            assert pg.evaluate("window.__delays") == [2000]
            pg.hover("#columns .column:nth-child(2) .card.free")
            assert pg.eval_on_selector("#columns .column:nth-child(2) .card.free", "e => getComputedStyle(e).transform") == "none"
        pg.emulate_media(reduced_motion="no-preference")
        assert pg.evaluate("playDelay()") == 600
    finally:
        pg.emulate_media(reduced_motion="no-preference")
        pg.evaluate("document.activeElement.blur()")


def test_a_forced_colours_mode_keeps_the_marks_of_the_playable_and_hinted_cards(page):
    """Was: the cards that can be played (a green ring) and the hinted one (a yellow glow) were
    marked by box shadows alone, which a forced-colours (high-contrast) mode drops: nothing on
    the table said which card went on the discard. Outlines in the system's colours stay."""
    from playwright.sync_api import expect

    pg = page
    _deal(pg, CODE)
    try:
        pg.emulate_media(forced_colors="active")
        fits = "#columns .card.fits"
        assert pg.locator(fits).count() >= 1
        # expect() asks again until it holds: the table may be drawn anew meanwhile (the deal's
        # answer arriving), and a card read as it is replaced has no style at all
        expect(pg.locator(fits).first).to_have_css("outline-style", "solid")
        expect(pg.locator("#columns .card.free:not(.fits)").first).to_have_css("outline-style", "none")
        # as a hint marks its card; marked again until it holds, in one step with the check: a
        # table drawn anew between the mark and a later look (the deal's answer arriving) has
        # no hinted card, and a mark made once could be lost that way
        pg.wait_for_function("""() => {
            markHint('1');
            const h = document.querySelectorAll('.card.hinted');
            return h.length === 1 && getComputedStyle(h[0]).outlineStyle === 'dashed';
        }""", timeout=10_000)
    finally:
        pg.emulate_media(forced_colors="none")
        pg.evaluate("clearHint()")


def test_the_page_whose_script_did_not_load_says_what_to_do(page, page_url):
    """Was: with app.js not loaded (the server gone between the page and its script, a proxy
    or a blocker refusing it, JavaScript off) the page showed an empty table and a Deal button
    that only reloaded it, and said nothing. It says that the script did not load and what to
    do, and without JavaScript, that the page needs it."""
    pg = page.context.browser.new_page()
    try:
        pg.route("**/static/app.js", lambda route: route.abort())
        pg.goto(page_url + "/#" + CODE)
        said = _text(pg, "#message")
        assert "script did not load" in said and "golfsolve serve" in said and "reload" in said, said
        assert pg.locator("noscript").count() == 1
        assert "needs JavaScript" in pg.eval_on_selector("noscript", "n => n.textContent")
    finally:
        pg.close()
