"""How the fair answers show their chances: an exact chance short of certain is not 100%, a sampled one
above 0 not 0%, an interval of no width only when exact, the share of orders said to be of the
sample."""

from __future__ import annotations

import dataclasses
import re

import pytest

from golfsolve.fair import odds
from golfsolve.fair.api import FairHint, MoveChance
from golfsolve.fair.difficulty import Rating
from golfsolve.fair.settings import PRESETS
from golfsolve.solitaire.layout import layout_from_code, layout_from_number
from golfsolve.solitaire.rules import CLASSIC, EASY
from golfsolve.solitaire.solver import Solver
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


def test_an_exact_fair_chance_is_printed_when_no_sampled_order_was_won():
    """was: 'fair chance: 0%: no sampled stock order can be won at all, so no fair game was
    played' beside a --json fair chance of 0.033 (exact, by expectimax): 0 of the 20 sampled
    orders were winnable, 4 of all 120 are, and the text took the sample's word"""
    from itertools import permutations

    from golfsolve.fair import odds_for_player
    from golfsolve.solitaire.hint import position_after
    from golfsolve.solitaire.layout import Layout

    lay, moves = layout_from_code("GO1-E-AAAAAJB"), "d 1 d d 2 6 d d d d d d d d"
    res = odds_for_player(lay, samples=20, games=0, moves=moves, seed=1)  # a seed whose 20 orders win none
    # the share of the 5! orders of the real stock cards that can be won, each solved: the most
    # any play can win (was: 0.0333 with no source); here the exact fair value reaches it
    now = position_after(lay, moves.split(), lay.rules).to_layout()
    solver = Solver()
    winnable = sum(solver.solve(Layout(now.columns, now.discard, order, now.rules), now.rules,
                                verdict_only=True).outcome == "won" for order in permutations(now.stock))
    assert len(now.stock) == 5 and winnable == 4
    assert (res.wins, res.fair_exact) == (0, True) and res.fair_chance == pytest.approx(winnable / 120)
    text = res.render()
    assert "fair chance:        3.3%  (exact" in text and "no sampled stock order" not in text
    assert "at least 3.3% of the stock orders can be won" in text


# A position with one unknown stock card and one card unseen (the 7D the "?" must be), and one
# with one unknown stock card among 48 unseen: every stock order is played, so no interval.
ONE_ORDER = ("rules: easy\ndiscard: KS\nstock: ? QS QH QD 9D 3D 3S AC 4C 2H 8C TC 3H 2S 9H 7S\n1: 6H 6D JH KC QC\n"
             "2: 9C 9S 5H KH 4S\n3: 4D JC 7H TH 6C\n4: 8H 5D 4H TS 7C\n5: 8D KD 2C JS AS\n6: 5S 3C AD TD 5C\n"
             "7: JD 2D 6S 8S AH\n")


FEW_ORDERS = "rules: classic\ndiscard: 5C\nstock: ?\n1: 4C 3C\n2: 6C\n3:\n4:\n5:\n6:\n7:\n"


def test_a_fair_hint_over_every_stock_order_promises_no_interval(run_cli, tmp_path):
    """was: "each legal move's value and 95% interval, over all 1 possible stock orders:" above
    values printed, rightly, without one"""
    f = tmp_path / "pos.txt"
    f.write_text(ONE_ORDER, encoding="utf-8")
    r = run_cli(["hint", "--layout", str(f), "--fair", "--player", "fast"])
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines()[2] == "each legal move's value over the one possible stock order:", r.stdout


@pytest.mark.parametrize("text, words", [
    (ONE_ORDER, "clairvoyant chance: 100.0%  (exact: the one possible stock order can be won with the stock visible"),
    (FEW_ORDERS, "clairvoyant chance: 14.6%  (exact: 7 of all 48 possible stock orders can be won with the stock"),
], ids=["one-order", "48-orders"])
def test_an_exact_clairvoyant_chance_is_shown_without_an_interval(run_cli, tmp_path, text, words):
    """was: 'clairvoyant chance: 14.6% [14.6, 14.6]  (95% interval; 7 of all 48 possible stock
    orders (exact) can be won ...)', a confidence interval for a count of every order (rate
    shows its exact chances without one)"""
    f = tmp_path / "pos.txt"
    f.write_text(text, encoding="utf-8")
    r = run_cli(["odds", "--layout", str(f), "-q"])
    assert r.exit_code == 0, r.stderr
    flat = " ".join(r.stdout.split())
    assert " ".join(words.split()) in flat and "95% interval" not in flat, r.stdout
