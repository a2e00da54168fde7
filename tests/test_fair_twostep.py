"""Two fair steps (twostep.TwoStep): closer to the exact fair value than one blind draw, and honest."""

from __future__ import annotations

import random
from itertools import permutations

import pytest

from golfsolve.cards import rank_of
from golfsolve.solitaire.expectimax import fair_value
from golfsolve.solitaire.fair import unknown_pool
from golfsolve.solitaire.fairplayer import SearchPlayer, play_search
from golfsolve.solitaire.infoset import ChainValues, predraw_states
from golfsolve.solitaire.layout import Layout, layout_from_number
from golfsolve.solitaire.rules import CLASSIC, EASY
from golfsolve.solitaire.solver import Solver
from golfsolve.solitaire.twostep import TwoStep, next_rank_draws
from tests.test_fair import ENDGAME, endgame  # Easy, deal 111 down to 8 table and 6 stock cards


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


def test_next_rank_draws_are_the_rank_shares_of_the_unseen_cards():
    view = layout_from_number(3, EASY).forget_stock(0)
    draws = next_rank_draws(view, EASY, ())
    _, pool = unknown_pool(view, EASY, ())
    assert sum(p for p, _, _ in draws) == pytest.approx(1.0)
    for p, card, rest in draws:
        assert card in pool and card not in rest and len(rest) == len(pool) - 1
    # one entry per rank, with the share of the pool's cards of that rank
    ranks = [rank_of(card) for _, card, _ in draws]
    assert len(set(ranks)) == len(ranks)
    for p, card, _ in draws:
        assert p == pytest.approx(sum(rank_of(c) == rank_of(card) for c in pool) / len(pool))
    known = Layout(view.columns, view.discard, (pool[0],) + view.stock[1:], view.rules)
    assert [(p, c) for p, c, _ in next_rank_draws(known, EASY, ())] == [(1.0, pool[0])]


def test_two_step_value_lies_between_the_fair_and_the_one_step_value(solver):
    """Exact over every order: fair value <= two-step value <= one-step (blind-draw) value for each
    pre-draw state of a small endgame, and the two-step value is strictly closer somewhere."""
    lay, played = endgame(ENDGAME)
    stock = set(lay.stock)
    view = lay.forget_stock(0)
    states = predraw_states(view, EASY)
    assert len(states) > 3
    _, pool = unknown_pool(view, EASY, played)
    orders = list(permutations(pool))
    cv = ChainValues(view, EASY, states, solver)
    cv.extend(orders)
    two = TwoStep(view, EASY, played, solver, random.Random(0), per_rank=10**6)
    assert all(len(o) == 120 for o in two.orders)  # 5! continuations per rank: exact
    gap_one = gap_two = 0.0
    for s in states:
        if s.table == 0:
            continue
        at = Layout(s.columns, s.discard, view.stock, view.rules)
        gone = [c for c in at.unseen_cards(0) if c not in stock]
        fair = dict(fair_value(at, EASY, gone).moves)["d"]
        one = sum(cv.won(i, s) for i in range(len(orders))) / len(orders)
        v = two.value(s)
        assert fair - 1e-9 <= v <= one + 1e-9, (s.chain, fair, v, one)
        gap_one += one - fair
        gap_two += v - fair
    assert gap_two < gap_one - 1e-9


@pytest.mark.parametrize("rules, number, margin", [(EASY, 2, -1), (EASY, 2, 1), (CLASSIC, 4, 2)])
def test_deep_player_lines_agree_until_a_hidden_card_differs(rules, number, margin, solver, monkeypatch):
    """Two real stocks equal in their first k cards: the deep player's lines agree until the
    k+1th draw, and the two-step valuation was used on the way."""
    from tests.test_fair_honesty import _draws_before, reshuffled

    calls = []
    deep_ties = SearchPlayer._deep_ties

    def counted(self, view, gone, tied):
        calls.append(len(tied))
        return deep_ties(self, view, gone, tied)

    monkeypatch.setattr(SearchPlayer, "_deep_ties", counted)
    a = layout_from_number(number, rules)
    keep = 3
    b = reshuffled(a, keep, 1)
    ga = play_search(a, rules, 4, 2, 5, solver, referee=False, deep=3, deep_top=3, deep_unknown=1,
                     deep_margin=margin)
    gb = play_search(b, rules, 4, 2, 5, solver, referee=False, deep=3, deep_top=3, deep_unknown=1,
                     deep_margin=margin)
    assert calls  # ties were broken by two fair steps
    n = min(_draws_before(ga.moves, keep), _draws_before(gb.moves, keep))
    assert n > keep
    assert ga.moves[:n] == gb.moves[:n]

