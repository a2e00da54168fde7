"""A hostile user's sweep of the fair answers (odds, hint --fair, rate, pick, the fair player)
under the rule switches the other tests rarely reach: a strict or dead King, jokers, an empty
start, draw only when stuck, and their combinations."""

from __future__ import annotations

import pytest

from golfsolve.solitaire.engine import Game
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import MOVE_DRAW


@pytest.mark.parametrize("spec, number", [("easy+empty", 3), ("classic+jokers2", 4)])
def test_every_moves_plan_in_the_fair_hint_starts_with_that_move(spec, number):
    """was: under easy+empty (deal 3) the fair hint listed move 5 with "plan 1 1 5 5 7 ..." and
    under classic+jokers2 (deal 4) move 5 with "plan 3 2 7 ...": the plan of the state the move
    reaches was the first chain found to it, which another move starts"""
    from golfsolve.fair import fair_hint

    rules = get_rules(spec)
    lay = layout_from_number(number, rules)
    hint = fair_hint(lay, rules, player="fast")
    assert len(hint.ranked) > 2
    for m in hint.ranked:
        if m.move == MOVE_DRAW:
            continue
        assert m.plan[0] == m.move, (m.move, m.plan)
        game = Game(lay, rules)
        for step in m.plan:
            assert game.play(step).ok, (m.move, m.plan, step)


@pytest.mark.parametrize("answer", ["odds", "fair_hint"])
def test_seen_cards_a_partial_layout_does_not_name_are_refused(answer, monkeypatch):
    """was: odds(layout.forget_stock(2), seen=5) and fair_hint(..., seen=5) answered as if 2 cards
    had been seen, and seen=16 on a stock of "?" as if none had: the cards said to be seen were
    silently dropped. A layout that names them is still taken."""
    from golfsolve.errors import InputError
    from golfsolve.fair import fair_hint, odds
    from golfsolve.solitaire.layout import layout_from_code
    from golfsolve.solitaire.solver import Solver

    def no_solve(*a, **k):
        raise AssertionError("solved before the arguments were checked")

    call = {"odds": lambda lay, seen: odds(lay, samples=2, games=0, seen=seen),
            "fair_hint": lambda lay, seen: fair_hint(lay, seen=seen, player="fast")}[answer]
    lay = layout_from_code("GO1-E-AAAAAAB", get_rules("classic+jokers2"))
    with monkeypatch.context() as m:
        m.setattr(Solver, "solve", no_solve)
        for part, seen, named in ((lay.forget_stock(2), 5, 2), (lay.forget_stock(0), len(lay.stock), 0)):
            with pytest.raises(InputError, match=f"^seen {seen} is more than the {named} stock cards the layout names"):
                call(part, seen)
    call(lay.forget_stock(2), 2)
    call(lay, 5)
