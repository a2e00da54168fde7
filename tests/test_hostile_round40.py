"""Hostile sweep round 40: the fair-play answers (``hint --fair``, ``odds``, ``rate``, ``pick``,
``fair-stats``) read as a careful person who knows some statistics reads them: text against
``--json``, numbers against the words round them, on openings, mid-game and endgame positions,
partial layouts, won and locked positions and jokers rule sets.

Where a flaw needs numbers a short run rarely meets (an exact chance of 0.9996, a player that won
199 of 200 games), the test takes a real answer and puts those numbers in it with
``dataclasses.replace``: the text is a function of them.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from golfsolve.fair import odds
from golfsolve.fair.api import FairHint, MoveChance
from golfsolve.fair.difficulty import PickResult, Rating
from golfsolve.fair.settings import PRESETS
from golfsolve.solitaire.dealcode import N_DEALS
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import CLASSIC, EASY
from golfsolve.text import estimate, interval

#: "100%" or "100.0%" anywhere, and a "0%"/"0.0%" that is a whole number (not "10%" or "0.5%")
_CERTAIN = re.compile(r"(?<![\d.])(100(\.0+)?|0(\.0+)?)%")


@pytest.fixture(scope="module")
def base():
    """A real, cheap sampled odds answer (Classic deal 1's opening) to put numbers into."""
    return odds(layout_from_number(1, CLASSIC, "C"), samples=20, games=3)


def test_an_exact_chance_short_of_certain_is_not_shown_as_100_percent(base):
    """was: an exact fair chance of 0.9996 (expectimax), and an exact clairvoyant share of 1,999
    of 2,000 orders, read "fair chance: 100.0%  (exact: ...)": a certainty they are not."""
    r = dataclasses.replace(base, fair_chance=0.9996, fair_low=0.9996, fair_high=0.9996, fair_games=0,
                            fair_wins=0, fair_exact=True, samples=2000, wins=1999, low=0.9995, high=0.9995,
                            exact=True)
    text = r.render()
    assert "fair chance:        99.96%" in text, text
    assert "clairvoyant chance: 99.95%" in text, text
    assert not _CERTAIN.search(text), text


def test_a_sampled_fair_chance_above_0_is_not_shown_as_0_percent(base):
    """was: a fair chance of 0.005 (1 of 200 orders winnable, that one game won) read
    "fair chance: 0% [0, 3]" above "on those it won 1 of 1 games (100%)", and a player that won
    199 of 200 games "(100%)"."""
    r = dataclasses.replace(base, samples=200, wins=1, low=0.0009, high=0.028, fair_chance=0.005, fair_low=0.0001,
                            fair_high=0.028, fair_games=1, fair_wins=1, fair_exact=False, stopped="all")
    head = r.render().splitlines()[1]
    assert head.startswith("fair chance:        0.5% [0, 3]"), head
    r = dataclasses.replace(base, samples=200, wins=200, low=0.981, high=1.0, fair_chance=0.995, fair_low=0.97,
                            fair_high=0.999, fair_games=200, fair_wins=199, fair_exact=False, stopped="games")
    text = " ".join(r.render().split())
    assert "fair chance: 99.5% [97, 100]" in text and "won 199 of 200 games (99.5%)" in text, text


def test_an_interval_of_no_width_only_when_exact(base):
    """was: with --samples 2000 and no winnable order the fair chance read "0% [0, 0] (95%
    interval)": an interval of no width, which only an exact answer has (its top was 0.19%)."""
    r = dataclasses.replace(base, samples=2000, wins=0, low=0.0, high=0.0019, fair_chance=0.0, fair_low=0.0,
                            fair_high=0.0019, fair_games=0, fair_wins=0, fair_exact=False, stopped=None)
    head = r.render().splitlines()[1]
    assert "[0, 0.2] (95% interval)" in head, head
    assert interval(0.0, 0.0004, ".1f", 100) == "[0.0, 0.04]"
    assert interval(0.9996, 1.0, ".1f", 100) == "[99.96, 100.0]"
    from golfsolve.text import percent  # new in this round

    # a -0.0 from a subtraction is no "-0%"
    assert estimate(-0.0, -0.0, 0.02, ".0f", percent=True) == "0% [0, 2]"
    assert percent(1.0) == "100.0" and percent(0.0, ".0f") == "0"


def test_the_share_of_orders_that_can_be_won_says_it_is_of_the_sample(base):
    """was: "30.0% of the orders can be won at all", said of 6 of 20 sampled orders as though of
    every order (and "100.0% of the orders" of 200 of 200 sampled ones, not a certainty)."""
    text = " ".join(base.render().split())
    assert not base.exact
    assert f"{100 * base.chance:.1f}% of the sampled orders can be won at all" in text, text


def test_an_exact_hint_value_short_of_certain_is_not_shown_as_100_percent():
    """was: ``hint --fair`` listed an exact expectimax value of 0.9996 as "100.0%"."""
    moves = (MoveChance("d", None, 0.9996, 0.9996, 0.9996, ("d",)), MoveChance("3", "AH", 0.5, 0.5, 0.5, ("3",)))
    h = FairHint("x", EASY, "exact", 0, True, 0, moves, ("d",), 0, PRESETS["strong"], 0.0)
    text = h.render()
    assert "   d    ?  99.96%" in text and "  50.0%" in text, text
    assert not _CERTAIN.search(text), text


def test_an_exact_rating_short_of_certain_is_not_shown_as_100_percent():
    """was: ``rate`` on a layout with 1 of 2,000 possible orders lost read "100.0% exact"."""
    r = Rating("x", EASY, True, 1999, 2000, "easy", PRESETS["fast"], exact=True)
    assert "99.95% exact (1999/2000, every stock order)" in r.render(), r.render()


def test_pick_closing_line_names_the_rules_and_the_last_deal_plainly():
    """was: "found 0 very-hard deals (easy, winnable) after examining 2 deals from deal
    8031810174 (the last deal there is)": the rule set read as a second label, and the first
    deal examined was called the last one there is."""
    start = N_DEALS - 2
    res = PickResult(EASY, "very-hard", True, 16, 0, start, 2, (), PRESETS["fast"])
    assert res.render() == (f"found 0 very-hard deals under easy rules (winnable only) after examining 2 deals from "
                            f"deal {start} to deal {N_DEALS - 1}, the last deal there is")
    res = PickResult(CLASSIC, "hard", False, 16, 0, 0, 3, (), PRESETS["fast"])
    assert res.render() == "found 0 hard deals under classic rules after examining 3 deals from deal 0"


def test_fair_report_says_what_lost_on_a_draw_counts():
    """was: the fair-stats table had a column "lost on a draw" with cells "1 of 1" and "0 of 0",
    and nothing said of what: the gap's deals (winnable, lost by the fair player)."""
    from golfsolve.stats.fairstats import FairSpec, fair_intro, fair_table

    rows = [{"rules": "classic", "deal": d, "clairvoyant_won": c, "fair_won": f, "lost_on_draw": o, "solves": 10}
            for d, c, f, o in ((0, True, True, False), (1, True, False, True), (2, False, False, False))]
    head, table = fair_table(rows)
    col = head.index("gap deals lost on a draw")
    assert table[0][col] == "1 of 1"
    spec = FairSpec(0, 3, ("classic",), 0, 1, PRESETS["fast"])
    assert "Gap deals lost on a draw: of the gap's deals" in fair_intro("golfsolve fair-stats", spec)


def test_a_fair_hint_where_no_move_can_win_says_so():
    """was: on a lost position (every move's exact value 0) ``hint --fair`` said "fair best move:
    3 (remove K♠ from column 3)" and nothing else above a list of 0.0%: as though the choice
    mattered."""
    zero = (MoveChance("3", "KS", 0.0, 0.0, 0.0, ("3",)), MoveChance("d", None, 0.0, 0.0, 0.0, ("d",)))
    h = FairHint("x", CLASSIC, "exact", 0, True, 0, zero, ("3",), 0, PRESETS["strong"], 0.0)
    assert h.render().splitlines()[2] == "no move can win, whatever the stock holds"
    sampled = tuple(dataclasses.replace(m, high=0.057, samples=64) for m in zero)
    h = dataclasses.replace(h, method="sampled", samples=64, all_orders=False, ranked=sampled)
    assert h.render().splitlines()[2] == "no move keeps a win on any of the 64 sampled stock orders"
    # a position some move can win says nothing of the kind
    h = dataclasses.replace(h, ranked=(dataclasses.replace(sampled[0], chance=0.1, high=0.2), sampled[1]))
    assert "no move" not in h.render()


def test_pick_shows_the_deals_it_examined_not_only_those_it_found(run_cli, monkeypatch):
    """was: pick's bar counted only the deals found, so a rare difficulty scanned for hours
    behind "0/1" with no sign that the scan went on (--max-deals is 100,000 by default)."""
    import golfsolve.progress

    said: list[str] = []

    class Bar:
        def __init__(self, *a, **k) -> None:
            pass

        def set_postfix_str(self, s, refresh=True) -> None:
            said.append(s)

        def update(self, n=1) -> None:
            pass

        def close(self) -> None:
            pass

    monkeypatch.setattr(golfsolve.progress, "progress_bar", Bar)
    r = run_cli(["pick", "--difficulty", "easy", "--rules", "strict", "--count", "1", "--max-deals", "3",
                 "--player", "fast"])
    assert r.exit_code == 1  # none found in 3 deals
    assert said == [f"{n} of at most 3 deals examined" for n in (1, 2, 3)]
