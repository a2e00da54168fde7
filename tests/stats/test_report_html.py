"""The HTML reports as documents a person opens (in a browser, on a phone, on paper, with a screen
reader), checked in headless Chromium."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from browser_helpers import chromium  # noqa: F401 (a fixture)
from run_helpers import finished_stats_run, made_here


def test_the_html_shows_code_as_code_as_the_markdown_does(tmp_path):
    """Was: the HTML reports printed the Markdown's backticks (the fair-play section's command,
    the grid report's rule spec, the study's specs) as text; they are code, as in the Markdown."""
    from golfsolve.stats.report import blocks_html, blocks_markdown

    blocks = [("p", "Command: `golfsolve fair-stats --count 2`. **Bold** stays bold."),
              ("table", ["set", "spec"], [["putt", "`default+putt`"]])]
    html = blocks_html(blocks, tmp_path, "t")
    assert "`" not in html
    assert "<code>golfsolve fair-stats --count 2</code>" in html and "<td><code>default+putt</code></td>" in html
    assert "<strong>Bold</strong>" in html
    assert "`default+putt`" in blocks_markdown(blocks)


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("r50")
    stats = finished_stats_run(base / "stats")
    made_here("report", str(stats))
    grid = base / "grid"
    made_here("grid", "simulate", "--players", "3", "--bots", "greedy,random,heuristic", "--holes", "1",
              "--matches", "3", "--rules", "default+putt", "--out", str(grid), "-q")
    made_here("grid", "report", str(grid))
    return {"stats": stats / "_report", "grid": grid / "_report"}


def _pages(reports) -> list[tuple[str, str]]:
    return [(kind, (d / "report.html").read_text(encoding="utf-8")) for kind, d in reports.items()]


def test_page_content_is_in_a_main_landmark(reports):
    """was: the body held the headings, tables and figures bare (axe: landmark-one-main, and
    'region' on every block), so a screen reader's landmark list offered nothing to jump to."""
    for kind, page in _pages(reports):
        assert page.count("<main>") == 1 and page.count("</main>") == 1, kind
        body = page.split("<body>", 1)[1].split("</body>", 1)[0].strip()
        assert body.startswith("<main>") and body.endswith("</main>"), kind


def test_page_declares_a_phone_viewport(reports):
    """was: no viewport meta, so a phone laid the page out 980 px wide and shrank it to a
    third of its size."""
    for kind, page in _pages(reports):
        assert re.search(r'<meta name="viewport" content="width=device-width, initial-scale=1">', page), kind


def test_every_table_has_a_caption_and_header_cells(reports):
    """was: tables had no caption (a screen reader's table list read "table, table, ...") and
    no header cell scoped to its column, nor any row header (the rule set or bot a row is of)."""
    for kind, page in _pages(reports):
        tables = re.findall(r"<table>(.*?)</table>", page, re.S)
        assert tables, kind
        for t in tables:
            caption = re.match(r"<caption>([^<]+)</caption>", t)
            assert caption and caption.group(1).strip(), (kind, t[:80])
            assert '<th scope="col">' in t and "<th>" not in t, (kind, caption.group(1))
            for row in re.findall(r"<tbody>(.*?)</tbody>", t, re.S)[0].split("</tr>")[:-1]:
                assert row.startswith('<tr><th scope="row">'), (kind, row[:80])
    # the tables under the report's title are named for what they hold, not the title again
    assert "<caption>The run&#x27;s rule sets</caption>" in dict(_pages(reports))["stats"]
    assert "<caption>Strokes and wins per bot</caption>" in dict(_pages(reports))["grid"]


def test_every_scroll_box_is_reachable_by_keyboard(reports):
    """was: the command's box scrolled (overflow-x: auto) but could not take focus, so a
    keyboard could not scroll a long command into view (axe: scrollable-region-focusable)."""
    for kind, page in _pages(reports):
        pres = re.findall(r"<pre[^>]*>", page)
        assert pres and all('tabindex="0"' in p and "aria-label=" in p for p in pres), (kind, pres)
        boxes = re.findall(r'<div class="wide"[^>]*>', page)
        assert len(boxes) == page.count("<table>"), kind
        assert all('tabindex="0"' in b and 'role="region"' in b and "aria-label=" in b for b in boxes), kind


def test_figure_text_says_deals_rules_and_how_made(reports):
    """was: each figure's alt text and caption were its title alone ("Solve time per deal"):
    of which deals, under which rules and by what was only drawn in the PNG's footer, which a
    screen reader, a search of the page and a copy of the text do not read."""
    for kind, d in reports.items():
        page = (d / "report.html").read_text(encoding="utf-8")
        md = (d / "report.md").read_text(encoding="utf-8")
        figures = re.findall(r'<img alt="([^"]*)"[^>]*><figcaption>([^<]*)</figcaption>', page)
        assert figures and len(figures) == page.count("<img"), kind
        want = ["6 deals", "rules: easy, classic"] if kind == "stats" else ["3 matches", "rules default+putt"]
        for alt, caption in figures:
            for w in want:
                assert w in alt and w in caption, (kind, w, caption)
            assert 'made by the command under &quot;Made by&quot; above' in caption, caption
        md_alts = re.findall(r"!\[([^\]]*)\]\(", md)
        assert md_alts and all(all(w in a for w in want) for a in md_alts), (kind, md_alts)
        assert md.count('made by the command under "Made by" above') == len(md_alts), kind


def test_grid_figures_name_their_rules():
    """was: a grid figure's footer named matches, holes, bots and seed but not the rules, so a
    plot of a 'default+putt' run read as one of the default table once saved alone."""
    from golfsolve.stats.gridreport import footer

    data = {"meta": {"matches": 2, "bots": ["greedy", "random"], "seed": 0, "seating": "balanced",
                     "rules_spec": "default+knock10"}, "holes_played": 18, "command": "golfsolve grid simulate"}
    assert "rules default+knock10" in footer(data).splitlines()[0]


def test_grid_first_table_labels_its_intervals(reports):
    """was: the grid report's first table headed its interval columns "strokes per hole",
    "strokes per match" and "win rate", where every later table says "[95%]"."""
    md = (reports["grid"] / "report.md").read_text(encoding="utf-8")
    assert "| strokes per hole [95%] | strokes per match [95%] | win rate [95% Wilson] |" in md


def _open(chromium, html: Path, **context):
    # offline: the report must show everything from the file alone
    ctx = chromium.new_context(offline=True, **context)
    page = ctx.new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if not r.url.startswith(("file:", "data:")) else None)
    page.goto(html.as_uri())
    assert not asked, asked
    assert page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
    return ctx, page


def test_phone_width_scrolls_tables_not_the_page(chromium, reports):
    """was: on a 375 px phone the widest table pushed the whole page sideways (the stats
    report's page was 598 px wide, the grid report's 484 px): no box of its own to scroll."""
    for kind, d in reports.items():
        # a 375 px window (the viewport meta, tested above, makes a phone's layout this wide)
        ctx, page = _open(chromium, d / "report.html", viewport={"width": 375, "height": 800})
        try:
            assert page.evaluate("document.documentElement.scrollWidth") <= 375, kind
        finally:
            ctx.close()


def test_printed_command_is_not_cut_off(chromium, reports):
    """was: printed, the command's box kept its scroll bar's width, and a command longer than the
    page was cut off at its edge (paper cannot scroll)."""
    for kind, d in reports.items():
        ctx, page = _open(chromium, d / "report.html", viewport={"width": 500, "height": 800})
        try:
            page.emulate_media(media="print")
            cut = page.evaluate("[...document.querySelectorAll('pre')].map(e => e.scrollWidth - e.clientWidth)")
            assert cut and all(c <= 0 for c in cut), (kind, cut)
        finally:
            ctx.close()
