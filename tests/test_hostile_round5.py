"""Hostile-user sweep, round 5: each test is a bug a user met, fixed where every caller
passes. Fast: no test here solves more than a few deals."""

from __future__ import annotations

import json

import pytest

from golfsolve.solitaire.answers import peeking_hint
from golfsolve.solitaire.engine import Game, replay
from golfsolve.solitaire.hint import rank_moves
from golfsolve.solitaire.layout import layout_from_code
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import Solver


@pytest.mark.parametrize("code, rules", [("GO1-C-AAAAAAZ", "classic"), ("GO1-E-AAAAAAZ", "easy"),
                                         ("GO1-E-AAAAAAB", "strict"), ("GO1-E-AAAAAAB", "dead-king"),
                                         ("GO1-E-AAAAAAJ", "strict+empty")])
def test_a_lost_deals_best_play_replays_to_the_locked_game_it_scores(code, rules):
    """was: the line stopped where the fewest cards were left, with stock still to draw:
    'best play: 5 cards left, app score 250' and its 45 moves replayed to 'playing, score
    300' (the web page's stepper ended there too); the draws left are part of the play the
    app score is for"""
    r = get_rules(rules)
    lay = layout_from_code(code, r)
    sol = Solver().solve(lay, r)
    assert sol.outcome == "lost"
    game, results = replay(lay, sol.moves, r)
    assert all(x.ok for x in results)
    assert (game.status, game.traditional_score(), game.score) == ("locked", sol.best_left, sol.app_score)


def test_solve_prints_a_lost_line_to_the_end_of_the_game(run_cli):
    r = run_cli(["solve", "GO1-C-AAAAAAZ", "--json"])
    got = json.loads(r.stdout)
    out = run_cli(["replay", "GO1-C-AAAAAAZ", got["moves"]])
    assert out.exit_code == 0
    assert out.stdout.rstrip().splitlines()[-1].startswith(
        f"result: locked, score {got['best_app_score']}, {got['best_cards_left']} cards left")


@pytest.mark.parametrize("call, words", [
    (lambda lay, g: rank_moves(lay), "game must be a Game"),
    (lambda lay, g: rank_moves(g, "solver"), "solver must be a Solver or None"),
    (lambda lay, g: peeking_hint(lay), "game must be a Game"),
])
def test_the_hint_library_names_a_layout_given_for_a_game(call, words):
    """was: AttributeError "'Layout' object has no attribute 'legal_moves'" (and "'str' object
    has no attribute 'solve'"), from inside the hint"""
    lay = layout_from_code("GO1-E-AAAAAAB")
    with pytest.raises(TypeError, match=words):
        call(lay, Game(lay))
