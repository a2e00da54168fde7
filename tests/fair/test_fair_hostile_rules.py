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
