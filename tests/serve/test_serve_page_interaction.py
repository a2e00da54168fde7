"""The page of ``golfsolve serve`` as a person uses it, in headless Chromium: keys pressed while an
answer is on its way, odds and hints kept or called off, the address edited by hand, the server
gone."""

from __future__ import annotations

import contextlib
import re

import pytest
from test_serve_browser import _deal, _text

from browser_helpers import chromium, page, page_url  # noqa: F401 (fixtures)


CODE = "GO1-E-AAAAAAB"


# its solution (golfsolve solve GO1-E-AAAAAAB): the address of the won game
WON = "1 1 5 d 4 3 6 2 d 2 7 d 5 3 1 4 d d 7 3 7 2 4 4 1 1 4 2 6 3 d 5 6 5 d 7 6 3 6 d d d d 2 5 d 7"


@contextlib.contextmanager
def _own_page(page, page_url, address: str = "#" + CODE):
    """A page of its own, opened at ``address``: one whose requests fail on purpose logs them
    as console errors, which the shared page's fixture counts as faults."""
    from playwright.sync_api import expect

    pg = page.context.browser.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(page_url + "/" + address)
        expect(pg.locator("#message")).to_have_text(re.compile(r"^\S+ .*\.|^PySol"))
        yield pg
        assert errors == []  # no script error
    finally:
        pg.close()


def _held(pg, pattern: str) -> list:
    held: list = []
    pg.route(pattern, lambda route: held.append(route))
    return held


def _wait_for(pg, what, message: str) -> None:
    for _ in range(3000):
        if what():
            return
        pg.wait_for_timeout(10)
    pytest.fail(message)


def _settled(pg):
    """The game once every move, step and deal asked for has been answered."""
    return pg.evaluate("async () => { await acting; return [game.step, game.moves.join(' ')]; }")


@contextlib.contextmanager
def _solution_shown(pg):
    """``CODE`` dealt with "Don't peek" unticked, at step 0 of its solution, the focus on the
    page (so that keys play); the box ticked again after."""
    from playwright.sync_api import expect

    pg.uncheck("#fair")
    try:
        _deal(pg, CODE)
        expect(pg.locator("#step-info")).to_have_text(re.compile(r"^Step 0 of"))
        pg.evaluate("document.activeElement.blur()")
        yield
    finally:
        pg.check("#fair")


def test_a_key_pressed_while_a_new_deal_is_on_its_way_plays_on_the_new_deal(page, page_url):
    """Was: the page took the new deal as its own the moment Enter was pressed, with the old
    game's moves: a 'd' pressed before the deal's answer came sent {"pysol": "17", "moves":
    "d d", "action": "d"}, playing the old game's moves on the new deal (or refused as illegal
    there), and whichever answer came last was drawn. Moves and deals now go in turn."""
    from playwright.sync_api import expect

    with _own_page(page, page_url, f"#{CODE}?moves=d+d") as pg:
        expect(pg.locator("#stock-count")).to_have_text("14")
        held = _held(pg, "**/api/play")
        pg.fill("#deal-input", "17")
        pg.press("#deal-input", "Enter")
        pg.keyboard.press("d")
        _wait_for(pg, lambda: held, "the page asked nothing")
        pg.wait_for_timeout(300)
        assert len(held) == 1 and held[0].request.post_data_json == {"pysol": "17"}  # the draw waits its turn
        held.pop().continue_()
        _wait_for(pg, lambda: held, "the draw was never sent")
        assert held[0].request.post_data_json == {"pysol": "17", "moves": "", "action": "d"}
        held.pop().continue_()
        expect(pg.locator("#stock-count")).to_have_text("15")
        assert _text(pg, "#moves") == "1" and pg.url.endswith("#17?moves=d")
        pg.unroute("**/api/play")


def test_arrow_pressed_three_times_steps_three_times(page):
    """Was: each → worked out its step from the step on the table when it was pressed, so three
    presses before the first answer came all asked for step 1: the solution moved one step."""
    pg = page
    with _solution_shown(pg):
        held = _held(pg, "**/api/play")
        for _ in range(3):
            pg.keyboard.press("ArrowRight")
        for _ in range(6000):  # one answer at a time, in order, until the three are played
            if held:
                held.pop(0).continue_()
            elif _text(pg, "#moves") == "3":
                break
            pg.wait_for_timeout(10)
        pg.unroute("**/api/play")
        assert _settled(pg)[0] == 3
        assert _text(pg, "#step-info").startswith("Step 3 of") and _text(pg, "#moves") == "3"


def test_play_pressed_twice_at_the_end_can_still_be_paused(page):
    """Was: P at the solution's end first went back to its start and only then set its timer,
    so P pressed again before that answer came set a second timer: Pause stopped one, and the
    other went on playing the solution by itself, beyond the reach of any key."""
    from playwright.sync_api import expect

    pg = page
    with _solution_shown(pg):
        pg.keyboard.press("End")
        expect(pg.locator("#step-info")).to_have_text(re.compile("won!$"))
        held = _held(pg, "**/api/play")
        pg.keyboard.press("p")
        pg.keyboard.press("p")  # a second press, before the first step's answer came: a pause
        _wait_for(pg, lambda: held, "the page asked nothing")
        held.pop().continue_()
        pg.unroute("**/api/play")
        expect(pg.locator("#step-play")).to_have_text("▶ Play")
        step = _settled(pg)[0]
        pg.wait_for_timeout(1500)  # the solution's pace is a step each 600 ms
        assert _settled(pg)[0] == step and _text(pg, "#step-play") == "▶ Play"
        pg.keyboard.press("p")  # and it plays again, and pauses, as asked
        expect(pg.locator("#step-info")).to_have_text(re.compile(f"^Step {step + 1} of"))
        pg.keyboard.press("p")
        step = _settled(pg)[0]
        pg.wait_for_timeout(1500)
        assert _settled(pg)[0] == step


def test_ticking_dont_peek_takes_a_peeking_hint_off_the_page(page):
    """Was: a hint asked for with the box unticked ("Peeking at the stock, play Q♣ from column 1",
    every move "keeps a win") stayed on the page, its card marked, after "Don't peek at the
    stock" was ticked; and one still on its way when the box was ticked was shown when it came."""
    pg = page
    _deal(pg, CODE)
    pg.uncheck("#fair")
    pg.click("#hint-button")
    pg.wait_for_selector("#hint .best")
    assert _text(pg, "#hint .best").startswith("Peeking at the stock")
    pg.check("#fair")
    assert _text(pg, "#hint") == "" and pg.locator(".hinted").count() == 0

    pg.uncheck("#fair")
    held = _held(pg, "**/api/hint")
    try:
        pg.click("#hint-button")
        _wait_for(pg, lambda: held, "the page asked nothing")
        assert held[0].request.post_data_json["fair"] is False
        pg.check("#fair")
        move = {"move": "1", "card": "QC", "reason": "keeps a win"}
        held.pop().fulfill(json={"best": move, "ranked": [move]})
        pg.wait_for_timeout(300)
        assert "Peeking" not in _text(pg, "#hint") and pg.locator(".hinted").count() == 0
    finally:
        pg.unroute("**/api/hint")
    assert pg.is_checked("#fair")


def test_a_server_gone_is_said_in_one_clear_line(page, page_url):
    """Was: with the server stopped, a move, a hint or a deal said only the browser's words,
    "Failed to fetch"."""
    from playwright.sync_api import expect

    with _own_page(page, page_url) as pg:
        pg.route("**/api/**", lambda route: route.abort("connectionrefused"))
        pg.evaluate("document.activeElement.blur()")
        for press in (lambda: pg.keyboard.press("d"), lambda: pg.click("#hint-button"),
                      lambda: (pg.fill("#deal-input", "17"), pg.press("#deal-input", "Enter"))):
            pg.eval_on_selector("#message", "m => { m.textContent = ''; }")
            press()
            expect(pg.locator("#message")).to_have_text(
                "No answer from the server: is golfsolve serve still running? Reload the page once it is.")
        assert _text(pg, "#stock-count") == "16" and _text(pg, "#hint") == ""
        pg.unroute("**/api/**")


def test_the_odds_of_a_game_over_go_when_its_last_move_is_undone(page, page_url):
    """Was: "Odds from here" kept the last answer after a move: a won game's "The game is
    already over: You won! Score 350 / 100.0% (exact)" stayed on after U took the last move
    back and the game went on. A move clears the odds, as it clears the hint."""
    from playwright.sync_api import expect

    with _own_page(page, page_url, f"#{CODE}?moves=" + WON.replace(" ", "+")) as pg:
        assert pg.locator("body").get_attribute("data-status") == "won"
        pg.evaluate("document.activeElement.blur()")
        pg.keyboard.press("o")
        expect(pg.locator("#odds")).to_contain_text("The game is already over: You won! Score 350")
        pg.keyboard.press("u")
        expect(pg.locator("body")).to_have_attribute("data-status", "playing")
        assert _text(pg, "#odds") == ""


def test_odds_asked_again_are_asked_once_and_called_off_by_a_move(page, page_url):
    """Was: each press of O sent another odds request for the same position (seconds of the
    server's CPU each, queued behind one another, a later hint waiting behind them all), and a
    move left them running on the server for an answer the page would drop."""
    from playwright.sync_api import expect

    with _own_page(page, page_url) as pg:
        held = _held(pg, "**/api/odds")
        failed: list[str] = []
        pg.on("requestfailed", lambda r: failed.append(r.url) if "/api/odds" in r.url else None)
        pg.evaluate("document.activeElement.blur()")
        for _ in range(4):
            pg.keyboard.press("o")
        _wait_for(pg, lambda: held, "the page asked nothing")
        pg.wait_for_timeout(300)
        assert len(held) == 1
        pg.keyboard.press("d")  # the position changes: the question is called off
        expect(pg.locator("#stock-count")).to_have_text("15")
        _wait_for(pg, lambda: failed, "the odds request went on after the move")
        assert _text(pg, "#odds") == ""
        pg.keyboard.press("o")  # and the new position's odds are asked
        _wait_for(pg, lambda: len(held) == 2, "the page did not ask again")
        assert held[1].request.post_data_json["moves"] == "d"
        with contextlib.suppress(Exception):
            held[0].abort()
        held[1].fulfill(json={"clairvoyant": {"chance": 0.5, "ci95": [0.4, 0.6], "samples": 10},
                              "fair": {"chance": 0.25, "ci95": [0.2, 0.3], "games": 5}})
        expect(pg.locator("#odds dl")).to_contain_text("25.0%")
        pg.unroute("**/api/odds")


def test_an_address_edited_by_hand_and_back_deal_what_they_name(page, page_url):
    """Was: an address edited in the address bar (#17?rules=classic&moves=d), or Back to the
    one before, changed the address only: the table kept the game it had, under an address
    naming another, until the next move wrote the old game's address back."""
    from playwright.sync_api import expect

    with _own_page(page, page_url) as pg:
        pg.evaluate("location.hash = '#17?rules=classic&moves=d'")  # as typed in the address bar
        expect(pg.locator("#message")).to_have_text("PySol Golf #17 (classic), 1 move in. Click a free card or the stock.")
        assert pg.input_value("#deal-input") == "17" and pg.input_value("#rules") == "classic"
        assert _text(pg, "#stock-count") == "15"
        pg.go_back()
        expect(pg.locator("#message")).to_have_text(f"{CODE} (easy). Click a free card or the stock.")
        assert pg.input_value("#rules") == "" and _text(pg, "#stock-count") == "16"
        pg.go_forward()
        expect(pg.locator("#message")).to_have_text(re.compile(r"^PySol Golf #17 \(classic\), 1 move in"))
        pg.evaluate("document.activeElement.blur()")
        pg.keyboard.press("d")  # the page's own address changes are not dealt again
        expect(pg.locator("#stock-count")).to_have_text("14")
        pg.wait_for_timeout(300)
        assert _text(pg, "#moves") == "2" and pg.url.endswith("#17?rules=classic&moves=d+d")


def test_a_card_played_from_the_keyboard_keeps_the_focus_on_the_table(page):
    """Was: Tab to a free card and Enter played it, and the focus fell back to the top of the
    page with the card's column redrawn: each move by keyboard took Tab after Tab to reach the
    next card. It goes to the column's new free card (or the next column's, or the stock)."""
    from playwright.sync_api import expect

    pg = page
    _deal(pg, CODE)
    pg.focus("#columns .column:nth-child(1) .card.free")  # Q♣ on K♠: a remove
    pg.keyboard.press("Enter")
    expect(pg.locator("#moves")).to_have_text("1")
    label = pg.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label and re.search(r"column 1, row 4 \(free\b", label), label
    pg.keyboard.press("Enter")  # and the next Enter plays (or is refused) that card
    expect(pg.locator("#message")).to_have_text(re.compile(r"from column 1 onto the discard|Must be one rank"))

    # a card clicked with the mouse hands the focus to no card: Space still draws
    _deal(pg, CODE)
    pg.click("#columns .column:nth-child(1) .card.free")
    expect(pg.locator("#moves")).to_have_text("1")
    pg.keyboard.press(" ")
    expect(pg.locator("#stock-count")).to_have_text("15")
    assert _text(pg, "#moves") == "2"


def test_the_rules_list_plays_the_deal_under_the_rules_chosen(page, page_url):
    """Was: choosing Classic mid-game only named it in the list: the game went on under Easy
    (moves, hints and odds), the list saying Classic, until Deal was pressed. A choice deals
    the deal again under the rules chosen; one the deal cannot take (jokers for a PySol deal)
    is refused in one line and the list goes back to the rules of the game on the table."""
    from playwright.sync_api import expect

    with _own_page(page, page_url, "#17?moves=d") as pg:
        pg.select_option("#rules", "classic")
        expect(pg.locator("#message")).to_have_text("PySol Golf #17 (classic). Click a free card or the stock.")
        assert pg.url.endswith("#17?rules=classic") and _text(pg, "#moves") == "0"
        pg.select_option("#rules", "easy+jokers1")
        expect(pg.locator("#message")).to_have_text(re.compile(r"^PySol FC's Golf deals have no jokers"))
        assert pg.input_value("#rules") == "classic" and pg.url.endswith("#17?rules=classic")


def test_a_pysol_number_too_long_is_refused_as_the_command_refuses_it(page, page_url):
    """Was: a PySol number of more than 40 digits typed in the deal box (or sent to the API)
    was "pysol must be a whole number", which it is; --pysol says it is out of range. And one
    with 41 leading zeros was refused, where --pysol deals it."""
    import httpx
    from playwright.sync_api import expect

    r = httpx.post(page_url + "/api/deal", json={"pysol": "9" * 47})
    assert (r.status_code, r.json()) == (400, {"error": "PySol deal numbers are 1 to 18446744073709551615, "
                                                         "not a number of 47 digits"})
    assert httpx.post(page_url + "/api/deal", json={"pysol": "0" * 45 + "17"}).json()["deal"] == "PySol Golf #17"
    with _own_page(page, page_url) as pg:
        pg.fill("#deal-input", "9" * 47)
        pg.press("#deal-input", "Enter")
        expect(pg.locator("#message")).to_have_text(r.json()["error"])


def test_whole_numbers_with_many_leading_zeros_or_two_signs_are_read_or_refused_in_one_line():
    """Was: a number with more than 4,300 digits of leading zeros passed the digit count and
    failed in ``int()`` (Python counts leading zeros towards its limit) as a bare ValueError,
    and "+-5" passed the check (both signs stripped) and failed there too."""
    from golfsolve.errors import InputError
    from golfsolve.serve.app import layout_of

    assert layout_of({"pysol": "0" * 5000 + "17"}).name == "PySol Golf #17"
    with pytest.raises(InputError, match=r"^pysol must be a whole number, not '\+-5'$"):
        layout_of({"pysol": "+-5"})


def test_a_rule_set_an_address_named_and_the_server_refused_leaves_the_list(page, page_url):
    """Was: a link naming rules the server refuses (#17?rules=bogus) added "bogus" to the Rules
    list and left it chosen: every later Deal sent it again and was refused again, until the
    list was changed by hand. A refused rule set leaves the list; one the server takes stays."""
    from playwright.sync_api import expect

    pg = page.context.browser.new_page()
    try:
        pg.goto(page_url + "/#17?rules=bogus")
        expect(pg.locator("#message")).to_have_text(re.compile(r"^unknown rule set 'bogus'"))
        values = pg.eval_on_selector_all("#rules option", "os => os.map(o => o.value)")
        assert "bogus" not in values and pg.input_value("#rules") == ""
        pg.click("#deal-button")
        expect(pg.locator("#message")).to_have_text("PySol Golf #17 (easy). Click a free card or the stock.")

        pg.evaluate("location.hash = '#GO1-E-AAAAAAB?rules=wrap%2Bempty'")  # rules the list lacks
        expect(pg.locator("#message")).to_have_text(re.compile(r"^GO1-E-AAAAAAB \(wrap\+empty\)"))
        assert pg.input_value("#rules") == "wrap+empty"
    finally:
        pg.close()


def test_a_move_the_server_has_not_answered_shows_that_the_page_waits(page, page_url):
    """Was: a key pressed while the server was slow changed nothing on the page until the
    answer came: no sign that the move was on its way, so a person pressed it again (and the
    queue played it twice). Within a moment the table is marked busy and a line says the page
    waits for the server; the answer takes the sign down."""
    from playwright.sync_api import expect

    with _own_page(page, page_url) as pg:
        held = _held(pg, "**/api/play")
        pg.evaluate("document.activeElement.blur()")
        pg.keyboard.press("d")
        _wait_for(pg, lambda: held, "the draw was not sent")
        expect(pg.locator("#table")).to_have_attribute("aria-busy", "true")
        assert "waiting" in pg.evaluate("document.body.className")
        held.pop().continue_()
        expect(pg.locator("#stock-count")).to_have_text("15")
        pg.unroute("**/api/play")
        expect(pg.locator("#table")).not_to_have_attribute("aria-busy", "true")
        assert "waiting" not in pg.evaluate("document.body.className")
