"""Round 53: the reports nobody had opened yet, read as a person reads them: a fair-stats run's
summary (``_fair.md``, and its section in ``report STATS --fair``), the report of a
``stats --fields winnable`` run (verdicts only), and the report of a run of one deal.

The runs are tiny and made once for the module: one deal under one rule set (won), six deals
verdicts-only under two, and a fair-stats run of one lost deal under one rule set, so the fair
player won nothing and no deal was winnable.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from run_helpers import made_here

from golfsolve.stats.report import FIGURES


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("r53")
    one, verdicts, fair = base / "one", base / "verdicts", base / "fair"
    made_here("stats", "--count", "1", "--rules", "classic", "--jobs", "1", "--out", str(one), "-q")
    made_here("stats", "--count", "6", "--rules", "easy,classic", "--chunk-size", "2", "--fields", "winnable",
              "--jobs", "1", "--out", str(verdicts), "-q")
    # deal 1 is lost under Classic: not played, so the fair player wins nothing of nothing winnable
    made_here("fair-stats", "--start-number", "1", "--count", "1", "--rules", "classic", "--jobs", "1",
              "--out", str(fair), "-q")
    made_here("report", str(one), "--fair", str(fair))
    made_here("report", str(verdicts))
    return {"one": one / "_report", "verdicts": verdicts / "_report", "fair": fair}


def _texts(runs) -> dict[str, str]:
    """The fair-play section as written alone and as joined to a report, Markdown and HTML."""
    return {"_fair.md": (runs["fair"] / "_fair.md").read_text(encoding="utf-8"),
            "report.md": (runs["one"] / "report.md").read_text(encoding="utf-8"),
            "report.html": (runs["one"] / "report.html").read_text(encoding="utf-8")}


def test_fair_table_labels_its_interval_columns(runs):
    """was: the fair-play table headed its interval columns "clairvoyant win rate", "fair player
    win rate", "gap (paired)" and "fair wins / winnable deals": only the paragraph above said
    "95% Wilson intervals throughout", where every other report's table says "[95% Wilson]"."""
    for name, text in _texts(runs).items():
        for col in ("clairvoyant win rate", "fair player win rate", "gap (paired)", "fair wins / winnable deals"):
            assert f"{col} [95% Wilson]" in text, (name, col)


def test_fair_over_winnable_is_explained_and_so_is_its_dash(runs):
    """was: the column "fair wins / winnable deals" (the fair player's wins over the clairvoyant
    ones) was explained nowhere, and with no deal winnable its cell was a bare en dash "–"."""
    for name, text in _texts(runs).items():
        assert ("Fair wins / winnable deals: of the deals the clairvoyant player wins, the share the fair player "
                "wins too (— where no deal is winnable)") in text, name
        assert "–" not in text.replace("deals 0–", ""), name  # the dash is the reports' own "—"
    assert "| classic | 1 (deal 1) | 0.0% [0.0, 79.3] | 0.0% [0.0, 79.3] | 0.0% [0.0, 79.3] | — | 0 of 0 | 1 |" \
        in _texts(runs)["_fair.md"]


def test_fair_summary_gives_its_rules_in_words(runs):
    """was: the summary named its rule set only ("classic"): a reader of _fair.md alone, or of the
    fair section of a report whose own run had other rules, had to look up what was played."""
    for name, text in _texts(runs).items():
        assert "Rules: classic: no wrap, Queen on King, draw any time." in text, name


def test_fair_table_of_one_deal_says_deal(runs):
    """was: a run of one deal read "1 (deals 1)"."""
    for name, text in _texts(runs).items():
        assert "1 (deal 1)" in text and "(deals 1)" not in text, name


def test_verdict_only_report_says_first_what_it_did_not_compute(runs):
    """was: a --fields winnable report opened like any other; only three sections further down
    did a line under a table of dashes say the cards left were not searched."""
    md = (runs["verdicts"] / "report.md").read_text(encoding="utf-8")
    first = md.split("Made by:")[0]
    assert "**Verdicts only**: the run was made with --fields winnable" in first
    assert "gives the win rates and solve times, but no cards left, app score or 9-deal match totals." in first


def test_verdict_only_report_draws_no_figure_and_no_table_of_what_it_lacks(runs):
    """was: three PNGs of empty axes with a note inside (cards left, app score, 9-deal match)
    and three tables whose every cell was "—": a page each of nothing."""
    rep = runs["verdicts"]
    md = (rep / "report.md").read_text(encoding="utf-8")
    page = (rep / "report.html").read_text(encoding="utf-8")
    assert sorted(p.name for p in rep.glob("*.png")) == ["solve_time.png", "win_rate.png"]
    for name in ("cards_left.png", "app_score.png", "nine_deal_match.png"):
        assert f"*{FIGURES[name]}: no figure, as the run computed verdicts only (--fields winnable).*" in md
        assert name not in md and name not in page
    assert not re.search(r"\| (easy|classic) \|( — \|){4,}", md), md
    assert page.count("<img") == 2 and page.count('<p class="nofig">') == 3


def test_one_deal_report_leaves_out_the_plots_of_a_spread(runs):
    """was: a run of one deal drew its cards left, app score and solve time as single bars (and
    its 9-deal match as an empty frame), each a page showing only what its table says."""
    rep = runs["one"]
    md = (rep / "report.md").read_text(encoding="utf-8")
    page = (rep / "report.html").read_text(encoding="utf-8")
    assert [p.name for p in rep.glob("*.png")] == ["win_rate.png"]
    for name in ("cards_left.png", "app_score.png", "solve_time.png"):
        assert (f"{FIGURES[name]}: no figure, as the run has 1 deal per rule set, which has no spread to draw "
                "(the table above gives its value).") in md
    assert page.count("<img") == 1 and page.count('<p class="nofig">') == 4
    body = page.split("<main>", 1)[1].split("</main>", 1)[0]
    assert 'class="nofig"' in body
    for text in (md, page, (runs["fair"] / "_fair.md").read_text(encoding="utf-8")):
        assert not re.search(r"\b(NaN|nan|None|inf)\b", text)


def test_median_won_lost_dash_says_what_it_is(runs):
    """was: the solve-time table's "median won / lost" read "0.053 / — ms" for a run that lost no
    deal, with no word of what the dash stood for."""
    md = (runs["one"] / "report.md").read_text(encoding="utf-8")
    assert re.search(r"\| [\d.]+ / — ms \|", md)
    assert 'In "median won / lost", — is a median of no deal: none was lost under classic.' in md
