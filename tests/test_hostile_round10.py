"""Hostile-user sweep, round 10: each test is a flaw a user met from outside (the commands and
the public library, mostly the fair-play API). Fast: no test here solves more than a few deals."""

from __future__ import annotations

import numpy as np
import pytest

from golfsolve.errors import InputError
from hostile_helpers import one_line_error as _one_line_error


# ---------------------------------------------------------------------------
# the fair-play library
# ---------------------------------------------------------------------------
def _view():
    from golfsolve.fair import player_view
    from golfsolve.solitaire.layout import layout_from_code

    return player_view(layout_from_code("GO1-E-AAAAAAB"))[0]


@pytest.mark.parametrize("args, error, words", [
    (("GO1-E-AAAAAAB",), TypeError, "view must be a Layout"),
    ((None,), TypeError, "view must be a Layout"),
    (("view", None), TypeError, "gone must be a list of card ids"),
    (("view", "AS"), TypeError, "gone must be a list of card ids"),
    (("view", [99]), InputError, "gone cards are card ids 0 to 53"),
    (("view", [-1]), InputError, "gone cards are card ids 0 to 53"),
    (("view", [1.5]), InputError, "gone cards are card ids 0 to 53"),
    (("view", "first table card"), InputError, "is listed as gone but the view shows it"),
])
def test_by_rank_names_an_argument_that_is_no_view_or_no_gone_cards(args, error, words):
    """by_rank("GO1-E-AAAAAAB") failed as "'str' object has no attribute 'columns'", and gone cards
    -1 or 99 (or a card the table shows) were named by rank without a word, as a King or a Queen"""
    from golfsolve.fair.view import by_rank

    view = _view()
    args = tuple(view if a == "view" else a for a in args)
    if args[1:] == ("first table card",):
        args = (view, [view.columns[0][0]])
    with pytest.raises(error, match=words):
        by_rank(*args)


def test_by_rank_still_takes_numpy_cards_and_is_the_same_applied_twice():
    from golfsolve.fair.view import by_rank

    view = _view()
    gone = [c for c in range(52) if c not in {x for col in view.columns for x in col} | {view.discard}][:2]
    once = by_rank(view, [np.int64(c) for c in gone])
    assert once == by_rank(view, gone)
    assert by_rank(*once) == once


@pytest.mark.parametrize("where", ["discard", "table", "stock"])
def test_the_fair_player_names_a_played_card_its_layout_holds_before_any_work(where, monkeypatch):
    """play(layout, played=[layout.discard]) failed as "IndexError: index 64 is out of bounds" in
    its first decision, and a table or stock card listed as played as "the stock has 16 unknown
    cards but only 15 cards are unseen", after the referee had solved the deal"""
    from golfsolve.cards import card_str
    from golfsolve.fair import play
    from golfsolve.solitaire.layout import layout_from_code
    from golfsolve.solitaire.solver import Solver

    lay = layout_from_code("GO1-E-AAAAAAB")
    card = {"discard": lay.discard, "table": lay.columns[3][0], "stock": lay.stock[-1]}[where]

    def no_solve(*a, **k):
        raise AssertionError("solved before the arguments were checked")

    monkeypatch.setattr(Solver, "solve", no_solve)
    with pytest.raises(InputError, match=f"^card {card_str(card)} is listed as played but the layout holds it$"):
        play(lay, player="fast", played=[card])


def test_the_fair_player_still_plays_a_game_in_progress_with_its_played_cards():
    from golfsolve.fair import play
    from golfsolve.solitaire.engine import Game
    from golfsolve.solitaire.layout import layout_from_code

    game = Game(layout_from_code("GO1-E-AAAAAAB"))
    for m in "1 1 d 4".split():
        assert game.play(m).ok
    assert len(game.pile) > 2
    g = play(game.to_layout(), player="fast", played=[np.int64(c) for c in game.pile[:-1]], seed=1)
    assert g.won in (True, False)


def test_player_settings_take_numpy_numbers_and_bools_as_plain_ones():
    """PlayerSettings(race_z=np.float32(1.5)) was refused as "race_z must be a number from 0 up,
    not np.float32(1.5)" and by_rank=np.bool_(True) as "must be True or False", while its counts
    took NumPy integers and play() took a NumPy bool for its switches"""
    import dataclasses
    import json

    from golfsolve.fair import PRESETS, PlayerSettings

    fast = PRESETS["fast"]
    s = PlayerSettings(**{**dataclasses.asdict(fast), "race_z": np.float32(fast.race_z), "samples": np.int64(fast.samples),
                          "by_rank": np.bool_(fast.by_rank), "carry": np.bool_(fast.carry),
                          "compiled_exact": np.bool_(fast.compiled_exact)})
    assert s == fast and s.preset == "fast"
    assert type(s.race_z) is float and type(s.by_rank) is bool
    json.dumps(s.as_dict())
    assert type(PlayerSettings(race_z=np.int64(2)).race_z) is int
    for bad in ("no", None, 1):
        with pytest.raises(InputError, match="^by_rank must be True or False"):
            PlayerSettings(by_rank=bad)
    for bad in (np.bool_(True), "1.5", float("nan"), -1.0):
        with pytest.raises(InputError, match="^race_z must be a number from 0 up"):
            PlayerSettings(race_z=bad)


def test_the_fair_hint_for_a_player_names_a_game_that_is_none():
    """fair_hint_for_player(layout, None) failed as "'NoneType' object has no attribute 'rules'"
    (player_view takes None for the start, the hint then asked None for its rules)"""
    from golfsolve.fair import fair_hint_for_player
    from golfsolve.solitaire.layout import layout_from_code

    with pytest.raises(TypeError, match="^game must be a Game started from the layout"):
        fair_hint_for_player(layout_from_code("GO1-E-AAAAAAB"), None, player="fast")


@pytest.mark.parametrize("moves, error, words", [
    (None, TypeError, "^moves must be a list of move words"),
    ([1], TypeError, "^each move must be a move word"),
    (["1", "1"], InputError, "^the moves do not lead from the layout to the game's position"),
    ([], InputError, "^the moves do not lead from the layout to the game's position"),
])
def test_the_fair_hints_answer_refuses_moves_that_are_not_the_games(moves, error, words):
    """fair_hint_answer(layout, None, game) failed as "can only join an iterable", [1] as "sequence
    item 0: expected str instance", and moves that were not the game's were reported in the
    answer as the moves played, above a hint for another position"""
    from golfsolve.fair import fair_hint_answer
    from golfsolve.solitaire.engine import Game
    from golfsolve.solitaire.layout import layout_from_code

    lay = layout_from_code("GO1-E-AAAAAAB")
    game = Game(lay)
    assert game.play("d").ok
    with pytest.raises(error, match=words):
        fair_hint_answer(lay, moves, game, player="fast")


def test_the_fair_hints_answer_still_reports_the_games_moves():
    from golfsolve.fair import fair_hint_answer
    from golfsolve.solitaire.hint import position_after
    from golfsolve.solitaire.layout import layout_from_code

    lay = layout_from_code("GO1-E-AAAAAAB")
    game = position_after(lay, ["d", "4", "u"])
    assert fair_hint_answer(lay, ["d", "4", "u"], game, player="fast")["moves_played"] == "d 4 u"
    assert fair_hint_answer(lay, "d4u", game, player="fast")["moves_played"] == "d 4 u"


@pytest.mark.parametrize("rules, joker, words", [
    ("easy", 52, "^card JK is listed as played but rules 'easy' deal no jokers$"),
    ("easy+jokers1", 53, "^card JK2 is listed as played but rules 'easy\\+jokers1' deal 1 joker$"),
])
def test_a_played_joker_the_rules_do_not_deal_is_named(rules, joker, words):
    """odds(view, played=[52]) under Easy (no jokers) answered as if the joker had not been listed"""
    from golfsolve.fair import fair_hint, odds, play, player_view, stock_orders
    from golfsolve.solitaire.layout import layout_from_code
    from golfsolve.solitaire.rules import get_rules

    lay = layout_from_code("GO1-E-AAAAAAB", get_rules(rules))
    view = player_view(lay)[0]
    with pytest.raises(InputError, match=words):
        odds(view, samples=3, games=1, played=[joker])
    with pytest.raises(InputError, match=words):
        stock_orders(view, None, 3, 0, [joker])
    with pytest.raises(InputError, match=words):
        fair_hint(view, played=[joker], player="fast")
    with pytest.raises(InputError, match=words):
        play(lay, player="fast", played=[joker])


# ---------------------------------------------------------------------------
# replay and play
# ---------------------------------------------------------------------------
def test_a_bad_move_is_named_as_it_was_typed(run_cli):
    """golfsolve replay --pysol 1 GO1-E-AAAAAAB d said "bad move 'g' in 'GO1-E-AAAAAAB'": a
    lower-case g the user never typed"""
    r = run_cli(["replay", "--pysol", "1", "d", "Gx"])
    assert _one_line_error(r) == ("golfsolve: bad move 'G' in 'Gx' (moves are d = draw, "
                                  "1-7 = remove from that column, u = undo)")
    # a deal code there is a second deal, not a move (round 31)
    r = run_cli(["replay", "--pysol", "1", "GO1-E-AAAAAAB", "d"])
    assert _one_line_error(r) == "golfsolve: give exactly one of a deal code, --layout FILE or --pysol N"
    from golfsolve.solitaire.engine import parse_moves

    assert parse_moves("D 5 U") == ["d", "5", "u"]
    with pytest.raises(InputError, match="^bad move 'İ' in 'dİ'"):
        parse_moves("dİ")


def test_the_fair_player_takes_its_winning_line_as_text_and_names_one_that_is_none():
    """play(layout, winnable=True, won_line="1 1 5 d ...") refused a real winning line as "won_line
    must be a winning line of the real deal" (its text was made one move per character, blanks
    too), and won_line=None failed as "'NoneType' object is not iterable" """
    from golfsolve.fair import play
    from golfsolve.solitaire.layout import layout_from_code
    from golfsolve.solitaire.solver import Solver

    lay = layout_from_code("GO1-E-AAAAAAB")
    line = Solver().solve(lay, lay.rules).moves
    as_text = play(lay, player="fast", winnable=True, won_line=" ".join(line))
    as_list = play(lay, player="fast", winnable=True, won_line=line)
    assert (as_text.won, as_text.moves) == (as_list.won, as_list.moves)
    with pytest.raises(TypeError, match="^won_line must be the winning line's moves"):
        play(lay, player="fast", winnable=True, won_line=None)


@pytest.mark.parametrize("answer", ["odds", "fair_hint"])
def test_odds_and_the_fair_hint_name_a_played_card_in_the_stock_they_were_given(answer):
    """odds(layout_from_code(...), played=[a stock card]) said "the stock has 16 unknown cards but
    only 15 cards are unseen": the stock order was forgotten before the played cards were checked"""
    from golfsolve.cards import card_str
    from golfsolve.fair import fair_hint, odds
    from golfsolve.solitaire.layout import layout_from_code

    lay = layout_from_code("GO1-E-AAAAAAB")
    card = lay.stock[3]
    with pytest.raises(InputError, match=f"^card {card_str(card)} is listed as played but the layout holds it$"):
        if answer == "odds":
            odds(lay, samples=3, games=1, played=[card])
        else:
            fair_hint(lay, played=[card], player="fast")


def test_the_fair_hints_render_takes_show_all_as_true_or_false():
    """FairHint.render(show_all="no") showed every move's plan: "no" is true to Python (the other
    renders' switches were checked in round 8)"""
    from golfsolve.fair import fair_hint
    from golfsolve.solitaire.layout import layout_from_code

    hint = fair_hint(layout_from_code("GO1-E-AAAAAAB"), player="fast")
    with pytest.raises(TypeError, match="^show_all must be True or False, not str 'no'"):
        hint.render("no")
    assert hint.render(np.bool_(True)) == hint.render(True) != hint.render(False)
