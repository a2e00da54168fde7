"""Hostile-user sweep, round 13: each test is a flaw a user met from outside, on the Golf
solitaire side (the solver's library, deal streams, the fair answers, stats runs and their
reports), each fixed with a test that fails without its fix. Fast: the deals solved here are
a handful, the fair answers few samples and games."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from golfsolve.errors import InputError

#: GO1-C-AAAAAAZ is lost under Classic whatever is played (its fewest cards left is 5)
LOST = "GO1-C-AAAAAAZ"


# ---------------------------------------------------------------------------
# the fair answers
# ---------------------------------------------------------------------------
def test_the_fair_answers_keep_a_whole_stock_the_player_turned_and_put_back():
    """odds GO1-C-AAAAAAZ --moves "d (16 times) u (16 times)" (every stock card turned and put
    back by undo) said "fair chance 6% [1, 19] ... unknown stock cards: 16", and hint --fair
    valued its moves over 64 sampled orders: the player has seen the whole stock (with one draw
    fewer it answered an exact 0%), and the deal is lost whatever is played"""
    from golfsolve.fair import fair_hint_for_player, odds_for_player
    from golfsolve.solitaire.hint import position_after
    from golfsolve.solitaire.layout import layout_from_code

    lay = layout_from_code(LOST)
    moves = " ".join(["d"] * 16 + ["u"] * 16)
    res = odds_for_player(lay, samples=20, games=3, moves=moves)
    assert (res.unknown, res.fair_chance, res.fair_exact, res.chance) == (0, 0.0, True, 0.0), res
    hint = fair_hint_for_player(lay, position_after(lay, moves.split()), player="fast")
    assert hint.all_orders and all(m.chance == 0.0 for m in hint.ranked), hint


def test_a_fair_answer_names_seen_stock_cards_its_layout_does_not_hold():
    from golfsolve.fair import fair_hint, odds
    from golfsolve.solitaire.layout import layout_from_code

    lay = layout_from_code(LOST)
    for call in (lambda: odds(lay, samples=5, games=1, seen=17), lambda: fair_hint(lay, seen=-1),
                 lambda: odds(lay, samples=5, games=1, seen=2.5)):
        with pytest.raises(InputError, match="^seen must be"):
            call()
