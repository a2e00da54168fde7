"""Hostile sweep, round 49: the fair answers on positions nobody measured.

`odds`, `hint --fair` and `rate` at their defaults on 92 seeded positions
(`benchmarks/bench_fair_positions.py`: random openings under five rule sets, mid-game
positions near the end and with a nearly full stock, layouts with an unknown stock, finished
games; docs/performance.md). What they found is below.
"""

from __future__ import annotations

import importlib

import pytest

from golfsolve.fair import odds
from golfsolve.fair.exact import fair_value
from golfsolve.fair.view import player_view
from golfsolve.solitaire.engine import Game
from golfsolve.solitaire.layout import layout_from_code

# a random game of the benchmark's (position m30) stopped with 2 stock cards left and 24 on the
# table: few enough unknown cards for odds' exact fair chance, a state cap's worth of work
CODE, MOVES = "GO1-E-BWTEINJ", "5 6 d 6 d d 4 4 1 4 d d 7 5 d d d 1 d d"


def _endgame():
    lay = layout_from_code(CODE)
    game = Game(lay)
    for m in MOVES.split():
        game.play(m)
    view, played = player_view(lay, game)
    return view, played, game


def test_the_exact_fair_chance_is_not_the_python_search(monkeypatch):
    """was: odds took the exact fair chance of a position with at most 6 unknown stock cards by
    the pure-Python expectimax: about 1 s of CPU on such an endgame (and as much again where it
    gave up at its 200,000-state cap and the games decided), against about 0.05 s by the
    compiled kernel the fair player's endgame already used, with the same numbers"""
    view, played, game = _endgame()
    expected = fair_value(view, game.rules, played, seen=len(view.stock))  # the recurrence's own numbers

    def python_search(*args, **kwargs):
        raise AssertionError("odds ran the Python expectimax")

    # the module, not the package's odds(), which has its name
    monkeypatch.setattr(importlib.import_module("golfsolve.fair.odds"), "fair_value", python_search)
    res = odds(view, game.rules, samples=4, played=played, seen=len(view.stock))
    assert res.fair_exact and res.fair_games == 0
    assert res.fair_chance == expected.value


@pytest.mark.parametrize("cap", [1000, 5000])
def test_an_exact_try_given_up_counts_in_the_work(cap):
    """was: the states of an exact fair chance given up at its cap were in no budget: `work`
    (what the budget counts) left them out, so the work no longer said what the answer cost"""
    view, played, game = _endgame()
    base = odds(view, game.rules, samples=4, games=0, played=played, seen=len(view.stock), exact_states=1)
    res = odds(view, game.rules, samples=4, games=0, played=played, seen=len(view.stock), exact_states=cap)
    assert not res.fair_exact and res.fair_chance is None  # given up both times: no games asked for
    assert res.work - base.work == cap - 1
