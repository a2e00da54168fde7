"""The search fair player's budgeted race and its compiled exact endgame.

The compiled expectimax must give the numbers of the pure-Python one (same positions, same
move values), keep them when its memo is reused across the decisions of a game, and stop at
its state cap. The race and the compiled endgame are fair play: two real stocks equal in
their first cards get the same choices until a hidden card differs.
"""

from __future__ import annotations

import random

import pytest

from golfsolve.errors import InputError
from golfsolve.solitaire.engine import Game
from golfsolve.fair.exact import CompiledExpectimax, TooLargeError, fair_value
from golfsolve.fair.infoset import ChainValues, predraw_states
from golfsolve.fair.orders import sample_stocks
from golfsolve.fair.player import Player, PlayerSettings, play
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import CLASSIC, EASY, STRICT
from golfsolve.solitaire.solver import Solver
from fair_helpers import AGREE, DIFFER, ENDGAME, endgame
from test_fair_honesty import _draws_before, reshuffled


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


def views_along_a_line(number: int, rules, letter: str, solver: Solver, stock_left: int):
    """Views (stock forgotten, played cards known) along the solver's winning line from
    ``stock_left`` stock cards on: the positions a fair player meets late in a game."""
    lay = layout_from_number(number, rules, letter)
    sol = solver.solve(lay, rules)
    game = Game(lay, rules)
    out = []
    for m in sol.moves if sol.outcome == "won" else []:
        lay_now = game.to_layout()
        if len(lay_now.stock) <= stock_left and lay_now.tableau_count:
            out.append((lay_now.forget_stock(0), tuple(game.pile[:-1])))
        assert game.play(m).ok
    return out


@pytest.mark.parametrize("text,rules", [(ENDGAME, EASY), (DIFFER, CLASSIC), (AGREE, CLASSIC), (ENDGAME, CLASSIC)])
def test_compiled_expectimax_equals_the_python_one_on_the_test_endgames(text, rules):
    lay, played = endgame(text)
    pos = lay.forget_stock(0)
    want = fair_value(pos, rules, played)
    got = CompiledExpectimax(rules, capacity=1 << 16).fair_value(pos, played, max_states=20_000)
    assert got.value == want.value and got.moves == want.moves
    # the known stock too (every card seen, nothing hidden): both then play the one order
    n = len(lay.stock)
    assert CompiledExpectimax(rules, 1 << 16).fair_value(lay, played, 20_000, seen=n).moves == fair_value(
        lay, rules, played, seen=n).moves


@pytest.mark.parametrize("rules,letter", [(EASY, "E"), (CLASSIC, "C")])
def test_compiled_expectimax_equals_the_python_one_along_games_with_its_memo_kept(rules, letter, solver):
    """Positions with up to 5 unknown stock cards along winning lines of several deals, valued
    by one compiled object per game (its memo reused) and afresh by the Python one."""
    compared = 0
    for number in range(6):
        cx = CompiledExpectimax(rules, capacity=1 << 18)
        for view, gone in views_along_a_line(number, rules, letter, solver, 5):
            want = fair_value(view, rules, gone)
            got = cx.fair_value(view, gone, max_states=100_000)
            assert [m for m, _ in got.moves] == [m for m, _ in want.moves]
            assert [v for _, v in got.moves] == pytest.approx([v for _, v in want.moves], abs=1e-12)
            assert got.value == pytest.approx(want.value, abs=1e-12)
            compared += 1
    assert compared >= 10


def test_compiled_expectimax_stops_at_its_state_cap_and_starts_afresh():
    lay, played = endgame(ENDGAME)
    pos = lay.forget_stock(0)
    cx = CompiledExpectimax(EASY, capacity=1 << 16)
    with pytest.raises(TooLargeError):
        cx.fair_value(pos, played, max_states=5)
    cx.clear()
    assert (cx.keys == -1).all()  # the states the capped try stored are gone
    assert cx.fair_value(pos, played, max_states=20_000).value == pytest.approx(2 / 3)
    assert cx.stored > 0
    cx.clear()
    cx.clear()  # nothing stored since: no table written again, and it stays empty
    assert cx.stored == 0 and (cx.keys == -1).all()
    assert cx.fair_value(pos, played, max_states=20_000).states > 0  # valued afresh, from no stale key
    # a position that is not a continuation of the memo's game is valued afresh, not from stale keys
    other, played2 = endgame(DIFFER)
    cx2 = CompiledExpectimax(CLASSIC, capacity=1 << 16)
    first = cx2.fair_value(other.forget_stock(0), played2, 20_000)
    assert cx2.fair_value(other.forget_stock(0), played2, 20_000).states == 0  # all memoised
    again = cx2.fair_value(endgame(AGREE)[0].forget_stock(0), endgame(AGREE)[1], 20_000)
    assert first.value == 1.0 and again.value == fair_value(endgame(AGREE)[0].forget_stock(0), CLASSIC,
                                                            endgame(AGREE)[1]).value


@pytest.mark.parametrize("rules", [EASY, STRICT])
def test_top_gives_the_first_tables_with_exact_totals(rules, solver):
    """The branch and bound over tables ranks as counting every state on every order would."""
    view = layout_from_number(3, rules, "E").forget_stock(0)
    states = predraw_states(view, rules)
    reps = list({s.key[0]: s for s in sorted(states, key=lambda s: (s.table, s.chain), reverse=True)}.values())
    stocks = sample_stocks(view, random.Random(1), 10, rules)
    full = ChainValues(view, rules, states, solver)
    full.extend(stocks)
    count = {s: sum(full.won(i, s) for i in range(10)) for s in reps}
    base = {s.key[0]: len(s.chain) % 3 for s in reps}  # totals carried in from earlier orders
    for k in (1, 2, 4):
        want = sorted(reps, key=lambda s: (-count[s] - base[s.key[0]], s.table, s.chain))[:k]
        cv = ChainValues(view, rules, states, solver)
        cv.extend(stocks[:3])
        cv.extend(stocks[3:], (), root=False)
        got = cv.top(reps, range(10), k, base)
        assert [s for s, _ in got] == want
        assert [n for _, n in got] == [count[s] + base[s.key[0]] for s in want]
        cv2 = ChainValues(view, rules, states, solver)
        cv2.extend(stocks, ())
        assert [s for s, _ in cv2.top(reps, range(10), k, base, totals=False)] == want


@pytest.mark.parametrize("number", [1, 3, 7])
def test_race_picks_a_contender_and_values_it_on_more_orders(number, solver):
    """The raced choice is within the slack of the best on the first orders, and when more than
    one table was near the best, the race used more orders than the first ones."""
    view = layout_from_number(number, EASY, "E").forget_stock(0)
    player = Player(EASY, PlayerSettings(samples=8, race_budget=24, race_batch=8, race_slack=1), 2, solver)
    best, cv = player.choose(view, ())
    states = predraw_states(view, EASY)
    first = {s: sum(cv.won(i, s) for i in range(8)) for s in states}
    top = max(first.values())
    assert first[best] >= top - 1
    near_tables = {s.key[0] for s, n in first.items() if n >= top - 1}
    assert (len(cv.stocks) > 8) == (len(near_tables) > 1 and any(cv.root_won[:8]))
    assert len(cv.stocks) <= 24


def test_race_knobs_are_checked():
    with pytest.raises(InputError, match=r"^race_batch must be from 1 to 1,000,000, not 0$"):  # was: any InputError
        PlayerSettings(race_budget=32, race_batch=0)


@pytest.mark.parametrize("knobs", [{"race_budget": 12, "race_batch": 4},
                                   {"compiled_exact": True, "exact_unknown": 8, "exact_states": 200_000}])
def test_race_and_compiled_endgame_choose_the_same_until_a_hidden_card_differs(knobs, solver):
    a = layout_from_number(2, EASY)
    keep = 9 if knobs.get("compiled_exact") else 3  # the compiled endgame starts with 8 unknown cards
    b = reshuffled(a, keep, 1)
    ga = play(a, EASY, PlayerSettings(4, 2, **knobs), 5, solver, referee=False)
    gb = play(b, EASY, PlayerSettings(4, 2, **knobs), 5, solver, referee=False)
    n = min(_draws_before(ga.moves, keep), _draws_before(gb.moves, keep))
    assert n > keep
    assert ga.moves[:n] == gb.moves[:n]
    assert ga.moves != gb.moves or ga.won == gb.won


def test_compiled_endgame_plays_the_python_endgame_moves(solver):
    """With the same threshold and a cap neither reaches, both exact endgames play the same game."""
    for number in (0, 4):
        lay = layout_from_number(number, EASY, "E")
        py = play(lay, EASY, PlayerSettings(4, 2, exact_states=10**6), 3, solver, referee=False)
        nb = play(lay, EASY, PlayerSettings(4, 2, exact_states=10**6, compiled_exact=True), 3, solver, referee=False)
        assert py.moves == nb.moves and py.won == nb.won
