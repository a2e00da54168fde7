"""The exact fair and clairvoyant values and the compiled expectimax behind them: their arguments,
their tables and their work counted."""

from __future__ import annotations

import importlib
import re

import pytest

from golfsolve.errors import InputError
from golfsolve.fair import odds
from golfsolve.fair.exact import fair_value
from golfsolve.fair.view import player_view
from golfsolve.solitaire.engine import Game
from golfsolve.solitaire.layout import layout_from_code, layout_from_number
from golfsolve.solitaire.rules import get_rules

CODE = "GO1-E-AAAAAAB"


def _endgame_of_307_states():
    import golfsolve.fair as fair
    from golfsolve.solitaire.engine import Game

    lay = layout_from_code(CODE)
    game = Game(lay)
    for m in "1 1 5 d 4 3 6 2 d 2 7 d 5 3 1 4 d d 7 3 7 2 4 4 1 1 4 2 6 3 d 5 6 5 d 7 6 3 6 d d".split():
        assert game.play(m).ok
    return fair.player_view(lay, game)  # 3 table cards, 7 unknown stock cards: 307 states


@pytest.mark.parametrize("capacity, words", [
    (0, "capacity must be a power of two from 2 to"),  # was: a segmentation fault at the first value
    (1000, "capacity must be a power of two from 2 to 4,294,967,296, not 1000"),  # was: slots it never probed
    (-1, "capacity must be a power of two"),  # was: NumPy's "negative dimensions"
    (2.0, "capacity must be a power of two"),
])
def test_the_compiled_expectimax_takes_a_table_it_can_hash_into(capacity, words):
    from golfsolve.fair.exact import CompiledExpectimax
    from golfsolve.solitaire.rules import EASY

    with pytest.raises(InputError, match="^" + re.escape(words)):
        CompiledExpectimax(EASY, capacity=capacity)
    with pytest.raises(TypeError, match="^rules must be a Rules"):
        CompiledExpectimax("easy")


def test_the_compiled_expectimax_stops_at_its_tables_size_instead_of_hanging():
    # was: a table of 64 slots asked for up to 2,000,000 new states filled up and the search
    # probed it for a free slot for ever (a hang); now it stops at half its slots, as it
    # stops at max_states, with TooLargeError
    from golfsolve.fair.exact import CompiledExpectimax, TooLargeError
    from golfsolve.solitaire.rules import EASY

    view, played = _endgame_of_307_states()
    small = CompiledExpectimax(EASY, capacity=64)
    with pytest.raises(TooLargeError, match="^more than 32 states: too large for the exact fair value "
                                            r"\(a table of 64 slots holds 32\)"):
        small.fair_value(view, played)
    with pytest.raises(InputError, match="^max_states must be from 1 to"):
        small.fair_value(view, played, max_states=-1)
    big = CompiledExpectimax(EASY, capacity=1 << 12)
    assert big.fair_value(view, played).value == 1.0 and big.stored <= 1 << 11


def test_the_exact_values_check_their_arguments():
    # was: rules by name an AttributeError; max_states=-1 or 2.5 "more than -1 states: too large"
    from golfsolve.fair.exact import clairvoyant_value, fair_value
    from golfsolve.solitaire.rules import EASY

    view, played = _endgame_of_307_states()
    with pytest.raises(TypeError, match="^rules must be a Rules or None"):
        fair_value(view, "easy", played)
    with pytest.raises(TypeError, match="^rules must be a Rules or None"):
        clairvoyant_value(view, "easy", played)
    with pytest.raises(InputError, match="^max_states must be a whole number, not 2.5"):
        fair_value(view, EASY, played, max_states=2.5)
    with pytest.raises(InputError, match="^max_orders must be from 1 to"):
        clairvoyant_value(view, EASY, played, max_orders=-1)
    with pytest.raises(TypeError, match="^solver must be a Solver or None"):
        clairvoyant_value(view, EASY, played, solver="fast")
    assert fair_value(view, EASY, played).value == 1.0


def test_an_exact_fair_value_asked_of_a_whole_deal_says_what_it_is_for():
    """was: since a deal code's order is forgotten (above), ``fair_value`` of a whole deal
    searched its 16 unknown cards up to the state cap (about 20 s at the default) and said
    only "too large"; it now says how many cards were unknown and where to look instead."""
    from golfsolve.fair.exact import TooLargeError, fair_value

    with pytest.raises(TooLargeError, match=r"\(16 unknown stock cards: it is for endgames, .*golfsolve\.fair\.odds"):
        fair_value(layout_from_number(3, get_rules("classic"), "C"), max_states=2000)


# a random game of the benchmark's (position m30) stopped with 2 stock cards left and 24 on the
# table: few enough unknown cards for odds' exact fair chance, a state cap's worth of work
ENDGAME_CODE, MOVES = "GO1-E-BWTEINJ", "5 6 d 6 d d 4 4 1 4 d d 7 5 d d d 1 d d"


def _endgame():
    lay = layout_from_code(ENDGAME_CODE)
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
