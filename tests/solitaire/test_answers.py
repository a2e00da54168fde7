"""The answers the solitaire commands print (solve, hint, replay) as the library gives them: arguments
of the wrong kind named, what they took still taken."""

from __future__ import annotations

import pytest
from hostile_helpers import library_refusal

from golfsolve.solitaire.answers import peeking_hint
from golfsolve.solitaire.engine import Game
from golfsolve.solitaire.hint import rank_moves
from golfsolve.solitaire.layout import layout_from_code
from golfsolve.solitaire.rules import CLASSIC

DEAL = "GO1-E-AAAAAAB"


def test_the_commands_answers_name_a_layout_or_solver_of_the_wrong_kind():
    """was: golfsolve.solitaire.answers.solve_layout("GO1-E-AAAAAAB") failed as "'str' object has no
    attribute 'rules'" (hint_position and peeking_hint_answer too), solver=5 as "'int' object has no
    attribute 'solve'", and solver=[] was put aside for a new Solver without a word; rules.code_letter
    of a rule set's name failed as "'str' object has no attribute 'meaning'"."""
    from golfsolve.solitaire.answers import (
        hint_position,
        peeking_hint_answer,
        solve_layout,
    )
    from golfsolve.solitaire.rules import code_letter

    lay = layout_from_code(DEAL)
    library_refusal(lambda: solve_layout(DEAL), "layout must be a Layout")
    library_refusal(lambda: hint_position(DEAL, []), "layout must be a Layout")
    library_refusal(lambda: peeking_hint_answer(None, "d"), "layout must be a Layout")
    for bad in (5, [], lay):
        library_refusal(lambda: solve_layout(lay, solver=bad), "solver must be a Solver or None")
    library_refusal(lambda: code_letter("classic"), "rules must be a Rules")
    assert code_letter(CLASSIC) == "C"


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


def test_replays_json_answer_takes_the_move_text_as_replay_does():
    """was: replay_answer(layout, "1 1 d") played one move a character and refused the first
    space ("unknown move ' '"), where engine.replay takes the same text"""
    from golfsolve.solitaire.answers import replay_answer

    lay = layout_from_code("GO1-E-AAAAAAB")
    _, by_text = replay_answer(lay, "1 1 d")
    _, by_list = replay_answer(lay, ["1", "1", "d"])
    assert by_text == by_list and by_text["moves_played"] == "1 1 d" and by_text["rejected"] == 0


def _answers_calls():
    from golfsolve.solitaire.answers import (
        deal_answer,
        play_answer,
        replay_answer,
        solve_answer,
    )
    from golfsolve.solitaire.layout import layout_from_code

    lay = layout_from_code("GO1-E-AAAAAAB")
    return lay, deal_answer, play_answer, replay_answer, solve_answer


@pytest.mark.parametrize("call, words", [
    # was: AttributeError "'str' object has no attribute 'rules'" / "... 'name'" / "... 'to_json'"
    (lambda lay, deal, play, replay, solve: play("GO1-E-AAAAAAB", "", "d"), "layout must be a Layout"),
    (lambda lay, deal, play, replay, solve: deal(None), "layout must be a Layout"),
    (lambda lay, deal, play, replay, solve: replay("GO1-E-AAAAAAB", "1"), "layout must be a Layout"),
    (lambda lay, deal, play, replay, solve: solve(lay, None), "solution must be a Solution"),
    # was: "Game.tap() takes 3 positional arguments but 4 were given", and "missing 1 required
    # positional argument: 'row'"
    (lambda lay, deal, play, replay, solve: play(lay, "", None, "1,5"), "tap must be (column, row)"),
    (lambda lay, deal, play, replay, solve: play(lay, "", None, (1,)), "tap must be (column, row)"),
    # was: "'int' object is not iterable"
    (lambda lay, deal, play, replay, solve: replay(lay, 5), "moves must be their text"),
    # was: taken, and read as True: the replay stopped at the first rejected move
    (lambda lay, deal, play, replay, solve: replay(lay, "1 1 1", stop_on_reject="no"),
     "stop_on_reject must be True or False"),
])
def test_the_answers_name_an_argument_that_is_none_of_theirs(call, words):
    import re

    with pytest.raises(TypeError, match="^" + re.escape(words)):
        call(*_answers_calls())


def test_the_answers_still_take_what_they_took():
    lay, deal, play, replay, _ = _answers_calls()
    assert play(lay, "", None, (1, 5))["move"] == "1" and play(lay, "", None, [1, 5])["ok"]
    assert replay(lay, ["1", "1"])[1]["moves_played"] == replay(lay, "1 1")[1]["moves_played"] == "1 1"
    assert deal(lay)["deal"] == "GO1-E-AAAAAAB"


def _renders():
    import numpy as np

    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.state import HoleState
    from golfsolve.solitaire.engine import Game, replay
    from golfsolve.solitaire.hint import game_over_message
    from golfsolve.solitaire.layout import layout_from_code

    lay = layout_from_code("GO1-E-AAAAAAB")
    view = HoleState(parse_rules("danish", players=2, grid=4), rng=np.random.default_rng(1)).view(0)
    return lay, Game(lay), view, replay, game_over_message


@pytest.mark.parametrize("call, words", [
    # was: taken as true: the replay stopped at the first rejected move
    (lambda lay, game, view, replay, over: replay(lay, "1 1 1", stop_on_reject="no"), "stop_on_reject must be True"),
    # was: the suit symbols drawn, "no" being true to Python
    (lambda lay, game, view, replay, over: game.render(symbols="no"), "symbols must be True or False"),
    (lambda lay, game, view, replay, over: lay.render(symbols="no"), "symbols must be True or False"),
    (lambda lay, game, view, replay, over: view.render(["you", "bot"], "no"), "symbols must be True or False"),
    # was: IndexError 'list index out of range'
    (lambda lay, game, view, replay, over: view.render(["you"]), "names must be a list of 2 seat names"),
    # was: the text 'ab' read as the names 'a' and 'b'
    (lambda lay, game, view, replay, over: view.render("ab"), "names must be a list of 2 seat names"),
    # was: AttributeError "'Layout' object has no attribute 'over'"
    (lambda lay, game, view, replay, over: over(lay), "game must be a Game"),
])
def test_renders_and_replays_refuse_a_switch_or_name_list_that_is_none(call, words):
    import re

    with pytest.raises(TypeError, match="^" + re.escape(words)):
        call(*_renders())


def test_renders_still_take_numpy_switches_and_tuples_of_names():
    import numpy as np

    lay, game, view, replay, over = _renders()
    assert game.render(np.False_) == game.render(False) and "TS" in lay.render(False)
    assert view.render(("you", "bot"), np.True_) == view.render(["you", "bot"])
    assert over(game) == "" and replay(lay, "1 1 1", stop_on_reject=True)[0].moves == 2
