"""The fair answers (odds, hint --fair, rate, the fair player) given what they do not take: played
cards, stocks longer than the rules deal, switches, seeds and settings of the wrong kind. Each is
refused by name before any work; what they take is still taken."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hostile_helpers import library_refusal, one_line_error

from golfsolve.errors import InputError
from golfsolve.solitaire.layout import layout_from_code
from golfsolve.solitaire.rules import EASY


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


@pytest.mark.parametrize("played, told", [("d u", ""), ("", "d u"), ("d d u u", "d u")])
def test_the_fair_hints_answer_refuses_moves_that_saw_other_stock_cards_than_the_game(played, told):
    """was: with a game after "d u" and the moves "" (or "d u" for "d d u u"), which reach the same
    table, discard pile and stock, the answer reported the moves given as the moves played and
    named the next stock card on its draw's line ('d 6H'): a card those moves never turned. The
    cards a game turned and put back by undo are part of its position as its player sees it."""
    from golfsolve.fair import PlayerSettings, fair_hint_answer
    from golfsolve.solitaire.hint import position_after

    lay = layout_from_code("GO1-E-AAAAAAB")
    game = position_after(lay, played.split())
    with pytest.raises(InputError, match="^the moves do not lead from the layout to the game's position"):
        fair_hint_answer(lay, told, game, player=PlayerSettings(samples=2, extra=0))
    answer = fair_hint_answer(lay, played, game, player=PlayerSettings(samples=2, extra=0))
    draw = next(m for m in answer["ranked"] if m["move"] == "d")
    assert answer["moves_played"] == played and draw["card"] == ("6H" if played else None)


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


#: a game in progress (21 cards on the table, 14 removed onto the discard pile) as a user
#: writes it, the stock's length left to "..."
MID_GAME = """discard: 5C
stock: {stock}
1: 6C 5S QS
2: 2S KC 4S
3: TC AH 2D
4: 3D QH AS
5: JH 3C 7D
6: TH 4H 7H
7: 3S 7S 3H
"""


@pytest.mark.parametrize("command", [["odds", "--samples", "10", "--games", "1"], ["hint", "--fair"], ["deal"]])
def test_a_mid_game_stock_of_dots_is_refused_as_longer_than_any_stock(command, run_cli, tmp_path):
    """A game in progress written with "stock: ..." (README: "all cards not shown elsewhere")
    got a 30-card stock, the 14 cards under the discard's top counted as stock: odds said
    "fair chance 100% [42, 100] ... unknown stock cards: 30" and hint --fair valued its moves
    on orders of 30 cards, for a game no deal reaches (Easy deals 16 cards to the stock, and it only
    shrinks). Now the layout is refused, saying how to write the stock."""
    f = tmp_path / "mid.txt"
    f.write_text(MID_GAME.format(stock="..."))
    line = one_line_error(run_cli([*command, "--layout", str(f)]))
    assert "the stock has 30 cards, but rules 'easy' deal only 16 to the stock" in line, line
    assert "write one ? per card left in the stock" in line, line


def test_a_stock_longer_than_the_rules_deal_is_refused_by_the_library_too():
    """The library took the same positions: odds(Layout(..., stock of 17 unknown cards)),
    as every caller builds one, answered for them. Now every layout given rules (a Layout,
    make_layout, with_rules, and rules given to a call) is checked; jokers and an empty
    start deal longer stocks, and a cleared table is won whatever its stock."""
    from golfsolve.errors import InputError
    from golfsolve.fair import odds
    from golfsolve.solitaire.layout import (
        Layout,
        LayoutError,
        make_layout,
        parse_layout_text,
    )
    from golfsolve.solitaire.rules import EASY, get_rules

    mid = parse_layout_text(MID_GAME.format(stock="? " * 17))  # no rules yet: Easy when played
    with pytest.raises(InputError, match="the stock has 17 cards, but rules 'easy' deal only 16"):
        odds(mid, samples=5, games=1)
    with pytest.raises(LayoutError, match="the stock has 17 cards"):
        Layout(mid.columns, mid.discard, mid.stock, EASY)
    with pytest.raises(LayoutError, match="deal only 17 to the stock"):
        make_layout(mid.columns, mid.discard, mid.stock + (None,), get_rules("easy+jokers1"))
    for rules, n in ((EASY, 16), (get_rules("classic+jokers2"), 18), (get_rules("easy+empty"), 17)):
        assert len(make_layout(mid.columns, mid.discard, (None,) * n, rules).stock) == n
    cleared = parse_layout_text("discard: AC\nstock: ...\n" + "".join(f"{c}:\n" for c in range(1, 8)))
    assert odds(cleared, samples=5).fair_chance == 1.0  # won, whatever "..." stands for


def test_an_empty_discard_under_a_table_that_lost_cards_is_refused(run_cli, tmp_path):
    """"discard: -" with 14 cards gone from the table (a user who did not note the top card)
    was taken under Easy, which refuses an empty discard only on a full table ("add +empty"):
    odds answered "fair chance 0% [0, 16]", since nothing fits an empty discard under Easy,
    for a position no game reaches (every card removed goes onto the discard pile). Now it
    is refused; an empty-start rule set, whose empty discard takes any card, still takes it."""
    f = tmp_path / "mid.txt"
    f.write_text(MID_GAME.format(stock="? ? ? ? ?").replace("discard: 5C", "discard: -"))
    for rules in ("easy", "classic+jokers1"):
        line = one_line_error(run_cli(["odds", "--layout", str(f), "--rules", rules, "--samples", "5"]))
        assert "the discard is empty but 14 cards have left the table" in line, line
    r = run_cli(["odds", "--layout", str(f), "--rules", "easy+empty", "--samples", "5", "--games", "1"])
    assert r.exit_code == 0, r.stderr


CODE = "GO1-E-AAAAAAB"


@pytest.mark.parametrize("seed, words", [
    (-1, "seed must be from 0 to 18,446,744,073,709,551,615, not -1"),  # was: seed 1's orders
    (2.5, "seed must be a whole number, not 2.5"),  # was: a hash of 2.5
    (None, "seed must be a whole number, not None"),  # was: orders drawn from the clock, a new sample each call
    (True, "seed must be a whole number, not True"),
])
def test_stock_orders_takes_a_seed_as_every_fair_answer_does(seed, words):
    import golfsolve.fair as fair
    from golfsolve.solitaire.rules import EASY

    view = layout_from_code(CODE).forget_stock(0)
    with pytest.raises(InputError, match="^" + re.escape(words)):
        fair.stock_orders(view, EASY, 3, seed)


def test_stock_orders_still_takes_a_generator_a_whole_seed_or_a_text_seed():
    import random

    import golfsolve.fair as fair
    from golfsolve.solitaire.rules import EASY

    view = layout_from_code(CODE).forget_stock(0)
    a, every = fair.stock_orders(view, EASY, 3, np.uint64(7))
    assert not every and a == fair.stock_orders(view, EASY, 3, 7)[0] == fair.stock_orders(view, EASY, 3,
                                                                                               random.Random(7))[0]
    # was: the text seed compared with itself; now it is what random.Random of the text draws
    # (the same in every process: a str seed is hashed by SHA-512, not by the salted hash()), not seed 7's
    text = fair.stock_orders(view, EASY, 3, "0-easy-1")[0]
    assert text == fair.stock_orders(view, EASY, 3, random.Random("0-easy-1"))[0] and text != a


def test_a_card_listed_as_played_twice_is_named():
    # was: "the stock has 16 unknown cards but only 15 cards are unseen", which named neither the
    # card nor the list it came from
    import golfsolve.fair as fair

    L = layout_from_code(CODE)
    with pytest.raises(InputError, match="^card 6H is listed twice among the played cards"):
        fair.odds(L.forget_stock(0), samples=2, games=0, played=[L.stock[0], L.stock[0]])


@pytest.mark.parametrize("kw, words", [({"referee": "no"}, "referee must be True or False, not str 'no'"),
                                       ({"winnable": "no"}, "winnable must be True or False, not str 'no'")])
def test_a_fair_games_switches_are_true_or_false(kw, words):
    # was: any text taken as true: referee="no" kept the referee, winnable="no" skipped its solve
    import golfsolve.fair as fair

    with pytest.raises(TypeError, match="^" + re.escape(words)):
        fair.play(layout_from_code(CODE), player="fast", **kw)


@pytest.mark.parametrize("states, words", [("x", "exact_states must be a whole number, not 'x'"),
                                           (-1, "exact_states must be from 1 to"), (0, "exact_states must be from 1 to")])
def test_odds_checks_its_exact_state_budget_at_the_call(states, words):
    # was: taken, and wherever the exact value was tried, treated as too small: the answer
    # was sampled as if no exact value could be had
    import golfsolve.fair as fair

    with pytest.raises(InputError, match="^" + re.escape(words)):
        fair.odds(layout_from_code(CODE), samples=2, games=0, exact_states=states)


# The fair library's public functions called with near misses, as a programmer reading the
# docstrings might: (call, error, words). ``lay`` is deal 1, ``part`` it with its stock unknown
# after the first three cards.
def _fair_near_misses():
    import golfsolve.fair as fair
    from golfsolve.solitaire.layout import layout_from_code
    from golfsolve.solitaire.rules import EASY

    lay = layout_from_code("GO1-E-AAAAAAB")
    part = lay.forget_stock(3)
    return [
        # was: AttributeError "'str' object has no attribute 'jokers'"
        (lambda: fair.stock_orders(part, "easy", 3, 0), TypeError, "rules must be a Rules or None, e.g. get_rules("),
        (lambda: fair.unknown_pool(part, "classic"), TypeError, "rules must be a Rules or None"),
        (lambda: fair.unknown_pool("GO1-E-AAAAAAB"), TypeError, "layout must be a Layout"),
        # was: "'NoneType' object is not iterable", "'int' object is not iterable"
        (lambda: fair.odds(lay, samples=2, games=0, played=None), TypeError,
         "played must be a list of card ids, e.g. [parse_card('AS')], not NoneType None"),
        (lambda: fair.unknown_pool(part, EASY, 5), TypeError, "played must be a list of card ids"),
        # was: taken as True: "no" is a true value to Python
        (lambda: fair.pick(EASY, "easy", 1, winnable="no", games=1, max_deals=1), TypeError,
         "winnable must be True or False, not str 'no'"),
        # was: AttributeError "'list' object has no attribute 'get'" at the first decision
        (lambda: fair.play(lay, player="fast", decisions=[]), TypeError,
         "decisions must be a dict shared by games of one opening and seed, or None, not list"),
    ]


@pytest.mark.parametrize("case", range(7))
def test_the_fair_library_refuses_near_misses_at_the_call(case):
    call, error, words = _fair_near_misses()[case]
    with pytest.raises(error, match="^" + __import__("re").escape(words)):
        call()


DEAL = "GO1-E-AAAAAAB"


def test_the_fair_helpers_name_arguments_of_the_wrong_kind():
    """was: golfsolve.fair.view.legal_moves("GO1-E-AAAAAAB", EASY) failed as "'str' object has no
    attribute 'stock'", and fair_value(memo=[]) as "'list' object has no attribute 'get'"."""
    from golfsolve.fair.exact import fair_value
    from golfsolve.fair.view import legal_moves

    lay = layout_from_code(DEAL)
    library_refusal(lambda: legal_moves(DEAL, EASY), "layout must be a Layout")
    library_refusal(lambda: legal_moves(lay, "easy"), "rules must be a Rules")
    library_refusal(lambda: fair_value(lay, memo=[]), "memo")
    assert legal_moves(lay, EASY) == ["1", "5", "7", "d"]


@pytest.mark.parametrize("call", [
    lambda lay: __import__("golfsolve.fair", fromlist=["x"]).play(lay, None, "fast", 0, "solver"),
    lambda lay: list(__import__("golfsolve.fair.odds", fromlist=["x"]).fair_games(lay, None, [lay.stock],
                                                                                  solver="solver")),
])
def test_the_fair_player_names_a_solver_that_is_none(call):
    """was: AttributeError "'str' object has no attribute 'solve'" from inside the game, where
    odds, fair_hint, rate and pick name it at the call"""
    with pytest.raises(TypeError, match="solver must be a Solver or None"):
        call(layout_from_code("GO1-E-AAAAAAB"))


WON_PARTIAL = "rules: classic\ndiscard: 5C\nstock: ...\n1:\n2:\n3:\n4:\n5:\n6:\n7:\n"


def test_rate_refuses_a_partial_layout_by_name_before_rating_anything(run_cli, tmp_path):
    """was: GO1-E-AAAAAAB rated and printed, then 'rating needs the real stock: give a deal
    code or a full layout' with no file named, exit 2 after the work. (A cleared table is over
    whatever its stock, and rates as odds answers it: test_difficulty.)"""
    f = tmp_path / "partial.txt"
    f.write_text(WON_PARTIAL.replace("1:\n", "1: 9C\n").replace("stock: ...", "stock: ? ? ?"), encoding="utf-8")
    r = run_cli(["rate", "GO1-E-AAAAAAB", "--layout", str(f), "--games", "1"])
    assert r.exit_code == 2 and r.stdout == "", r.stdout
    assert "partial.txt" in r.stderr and "real stock" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    f.write_text(WON_PARTIAL, encoding="utf-8")
    r = run_cli(["rate", "GO1-E-AAAAAAB", "--layout", str(f), "--games", "1"])
    assert r.exit_code == 0 and "already over" in r.stdout.splitlines()[1], r.stdout
