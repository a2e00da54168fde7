"""Grid Golf's library and options given what they do not take: hole states, scoring, actions,
seatings, the OpenSpiel game, bot names and counts, tallies. Each is refused at the call with a
message naming it; what they take (NumPy numbers among them) is still taken."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest
from hostile_helpers import library_refusal, one_line_error
from run_helpers import one_hole_grid_rules

from golfsolve.errors import InputError
from golfsolve.grid.rules import PRESETS, GridRules, parse_rules
from golfsolve.solitaire.rules import EASY


@pytest.mark.parametrize("kw, error, words", [
    ({"block": -1}, InputError, "block must be from 1"),
    ({"block": 0}, InputError, "block must be from 1"),
    ({"block": 2.5}, InputError, "block must be a whole number"),
    ({"matches": "2"}, InputError, "--matches must be a whole number, not '2'"),
    ({"matches": float("nan")}, InputError, "--matches must be a whole number, not nan"),
    ({"first_match": float("nan")}, InputError, "first_match must be a whole number"),
    ({"rules": "default"}, TypeError, "rules must be a GridRules"),
    ({"bots": None}, TypeError, "bots must be a list of bot names"),
    ({"bots": (b for b in ["random", "greedy"])}, TypeError, "bots must be a list of bot names"),
])
def test_simulate_tally_checks_its_arguments_as_simulate_does(kw, error, words):
    """simulate_tally(rules, bots, 2, 0, block=-1) answered a tally of no match at all, as if
    two had been asked and none played; matches="2" failed as "'<' not supported between
    instances of 'str' and 'int'", block=0 as "range() arg 3 must not be zero", rules by name
    as "'str' object has no attribute 'holes'" (simulate names each of these)"""
    from golfsolve.grid.tournament import simulate_tally

    args = {"rules": one_hole_grid_rules(), "bots": ["random", "greedy"], "matches": 2, "seed": 0, **kw}
    with pytest.raises(error, match="^" + re.escape(words)):
        simulate_tally(**args)


def test_simulate_tally_still_takes_numpy_counts_and_plays_every_match():
    from golfsolve.grid.tournament import simulate, simulate_tally

    t = simulate_tally(one_hole_grid_rules(), ["Random", "greedy"], np.int64(3), np.uint64(4), block=np.int64(2))
    assert t.matches == 3 and t.bots == ["random", "greedy"]
    assert t.bot_summary().equals(simulate(one_hole_grid_rules(), ["random", "greedy"], 3, 4).tally().bot_summary())


def test_a_paired_difference_takes_the_bot_names_as_simulate_took_them():
    """simulate(rules, ['Random', 'Greedy'], ...) played and listed 'random' and 'greedy', and
    then paired_difference(t, 'Random', 'Greedy') said "bots 'Random' and 'Greedy' did not both
    play", false of two bots that played every match; a name that is no text was "unhashable
    type: 'list'" """
    from golfsolve.grid.tournament import paired_difference, simulate

    t = simulate(one_hole_grid_rules(), ["Random", "Greedy"], 3, 0)
    got = paired_difference(t, "Random", " GREEDY ")
    assert (got["a"], got["b"]) == ("random", "greedy") and got == paired_difference(t, "random", "greedy")
    with pytest.raises(InputError, match="^a paired difference compares two bots, not 'random' with itself"):
        paired_difference(t, "Random", "random")
    with pytest.raises(InputError, match="^bots 'random' and 'mc' did not both play"):
        paired_difference(t, "random", "MC")
    with pytest.raises(TypeError, match="^a bot must be named by text"):
        paired_difference(t, ["random"], "greedy")


@pytest.mark.parametrize("call, error, words", [
    ("bot_summary(None)", TypeError, "t must be a Tournament"),
    ("neighbour_effect('RUN')", TypeError, "t must be a Tournament"),
    ("entry_difference(None, 0, 1)", TypeError, "t must be a Tournament"),
    ("paired_difference(None, 'random', 'greedy')", TypeError, "t must be a Tournament"),
    ("rate_bots(None)", TypeError, "t must be a Tournament"),
    ("report_data(None)", TypeError, "t must be a Tournament or Tally"),
    ("report_data(t, 5)", TypeError, "command must be the command line the report shows"),
    ("render_markdown(None)", TypeError, "t must be a Tournament or Tally"),
    ("summary_text(report_data(t), None)", TypeError, "rules must be the tournament's GridRules"),
    ("summary_text(None, t.rules)", TypeError, "data must be report_data(t)'s numbers"),
])
def test_the_tournament_statistics_name_what_is_no_tournament(call, error, words):
    """bot_summary(None), rate_bots(None), report_data(None) and render_markdown(None) failed as
    "'NoneType' object has no attribute 'tally'", neighbour_effect of a run folder's path as "'str'
    object has no attribute 'tally'", summary_text(data, None) as "has no attribute 'describe'",
    and report_data(t, 5) put the number 5 where the report shows its command"""
    from golfsolve.grid.tournament import (  # noqa: F401
        bot_summary,
        entry_difference,
        neighbour_effect,
        paired_difference,
        rate_bots,
        simulate,
    )
    from golfsolve.stats.gridreport import render_markdown, report_data, summary_text  # noqa: F401

    t = simulate(one_hole_grid_rules(), ["random", "greedy"], 2, 0)  # noqa: F841
    with pytest.raises(error, match="^" + re.escape(words)):
        eval(call)


@pytest.mark.parametrize("cards, error, words", [
    ([1, 2, 3, 4, 5], InputError, "a grid of 4 slots under these rules, not 5"),
    ([1, 2, 3], InputError, "a grid of 4 slots under these rules, not 3"),
    ([1, 2, 3, 99], InputError, "slot 4 of the grid: 99 is not a card id (0 to 53) or None"),
    ([52, None, 2, 3], InputError, "slot 1 of the grid holds a joker, but rules 'default' deal none"),
    ("abcd", TypeError, "cards must be a list of card ids (None face down)"),
])
def test_what_a_grid_shows_is_asked_of_a_grid_of_the_rules(cards, error, words):
    """face_up_points([1, 2, 3, 4, 5], rules of a 4-card grid) answered 10, the points of the first
    four cards, and grid_rows drew those four; card 99 (no card) was scored as 3 points and a
    joker scored under rules without jokers; three cards failed as "list index out of range"
    (grid_score names each of these)"""
    from golfsolve.grid.scoring import face_up_points
    from golfsolve.grid.view import grid_rows

    for call in (face_up_points, grid_rows):
        with pytest.raises(error, match="^" + re.escape(words)):
            call(cards, one_hole_grid_rules())
    assert face_up_points([np.int64(1), None, 2, 3], one_hole_grid_rules()) == 5
    assert len(grid_rows([1, None, 2, 3], one_hole_grid_rules())) == 2


@pytest.mark.parametrize("spec", ["spiel-ismcts:1", "spiel-ismcts:0"])
def test_spiel_ismcts_needs_two_simulations(run_cli, spec):
    # was: 'internal error: AssertionError' from OpenSpiel after the kernels compiled: its
    # search spends the first simulation expanding the root and has no visit to choose by
    from golfsolve.grid.botnames import bot_entry

    with pytest.raises(InputError, match=r"simulation count in 'spiel-ismcts:[01]' must be at least 2"):
        bot_entry(spec)
    with pytest.raises(InputError, match="must be from 2 to 1,000,000"):  # a count of 50 digits names the least too
        bot_entry("spiel-ismcts:" + "9" * 50)
    for args in (["grid", "simulate", "--bots", f"{spec},random", "--matches", "1", "--holes", "1", "-q"],
                 ["grid", "study", "--out", "never-made", "--sets", "base", "--strong", spec, "-q"]):
        r = run_cli(args)
        assert r.exit_code == 2 and r.stdout == "", r.stderr
        assert len(r.stderr.splitlines()) == 1 and "must be at least 2" in r.stderr, r.stderr


def test_spiel_ismcts_made_in_the_library_needs_two_simulations():
    pytest.importorskip("pyspiel")
    from golfsolve.grid.spiel import SpielISMCTSBot

    with pytest.raises(InputError, match="at least 2"):
        SpielISMCTSBot(simulations=1)


def test_a_bot_count_is_written_one_way():
    # was: 'mc:03' and 'mc:3' were two bots: a match between them reported 'mc:3 - mc:03' as a
    # comparison, and --extend of an mc:03 run with --bots mc:3 was refused as other bots
    from golfsolve.grid.botnames import split_bots
    from golfsolve.grid.bots import make_bot

    assert split_bots("MC:003, ismcts: 0300 ,greedy") == ["mc:3", "ismcts:300", "greedy"]
    assert make_bot("mc:03").name == "mc:3"


def _grid_rules():
    from golfsolve.grid.rules import parse_rules

    return parse_rules("default", players=2)


def _hole_state(**kw):
    from golfsolve.grid.state import HoleState

    return HoleState(_grid_rules(), **kw)


# HoleState, the documented steppable hole (docs/grid.md), and the referee's Hole.
# was: apply(1.5) dealt card 1 and apply("3") card 3; first=1.5 failed later as "list indices
# must be integers"; totals of the wrong length or text were shown to the bots as they were;
# max_turns=-5 ended the hole after one turn as a turn limit; view(5) of a 2-seat hole
# answered; HoleState("default") was an AttributeError; on_event=5 failed at the first event
GRID_STATE_CALLS = [
    (lambda: _hole_state().apply(1.5), InputError, "an action is a whole number (a card id at a chance node), not 1.5"),
    (lambda: _hole_state().apply("3"), InputError, "an action is a whole number"),
    (lambda: _hole_state().apply(True), InputError, "an action is a whole number"),
    (lambda: _hole_state(first=1.5), InputError, "first must be a whole number (the seat that moves first), not 1.5"),
    (lambda: _hole_state(totals=[1, 2, 3]), InputError, "totals must be 2 whole numbers, one a player, not [1, 2, 3]"),
    (lambda: _hole_state(totals="ab"), InputError, "totals must be 2 whole numbers"),
    (lambda: _hole_state(max_turns=-5), InputError, "max_turns must be from 1 to"),
    (lambda: _hole_state(rng=3), TypeError, "rng must be a numpy Generator"),
    (lambda: _hole_state().view(5), InputError, "a seat is a whole number from 0 to 1, not 5"),
    (lambda: _hole_state().observation(-1), InputError, "a seat is a whole number from 0 to 1, not -1"),
]


@pytest.mark.parametrize("call, error, words", GRID_STATE_CALLS)
def test_a_hole_state_refuses_what_is_no_action_seat_or_setting(call, error, words):
    with pytest.raises(error, match="^" + re.escape(words)):
        call()


def test_a_hole_state_of_rules_by_name_or_an_event_sink_that_is_no_function_is_refused():
    from golfsolve.grid.bots import make_bot
    from golfsolve.grid.engine import Hole
    from golfsolve.grid.state import HoleState

    with pytest.raises(TypeError, match="^rules must be a GridRules, e.g. parse_rules"):
        HoleState("default")
    with pytest.raises(TypeError, match="^on_event must be a function of one event"):
        Hole(_grid_rules(), [make_bot("random"), make_bot("random")], np.random.default_rng(0), on_event=5)


def test_a_hole_state_takes_numpy_actions_seats_and_totals_as_the_doc_example_does():
    s = _hole_state(first=np.int64(3), totals=np.array([4, 5]), rng=np.random.default_rng(1))
    assert s.first == 1 and s.totals == (4, 5) and all(type(t) is int for t in s.totals)
    rng = np.random.default_rng(2)
    while s.is_chance_node():
        cards, odds = zip(*s.chance_outcomes())
        s.apply(rng.choice(cards, p=odds))  # a NumPy integer
    assert s.observation(np.int64(1)).me == 1


def test_tournament_comparisons_say_what_is_wrong_with_the_pair_asked_for():
    # was: a bot compared with itself "did not both play", and entry 1.5 was a KeyError
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.tournament import entry_difference, paired_difference, simulate

    t = simulate(parse_rules("default", players=2, holes=1), ["random", "greedy"], 2, 0)
    with pytest.raises(InputError, match="^a paired difference compares two bots, not 'random' with itself"):
        paired_difference(t, "random", "random")
    with pytest.raises(InputError, match="^bots 'random' and 'mc' did not both play"):
        paired_difference(t, "random", "mc")
    with pytest.raises(InputError, match="^entries must be two different numbers from 0 to 1, not 0 and 1.5"):
        entry_difference(t, 0, 1.5)
    assert entry_difference(t, np.int64(1), 0)["bot_a"] == "greedy"


def test_a_stacked_grid_deck_holds_jokers_only_under_rules_that_deal_them():
    # was: dealt and scored as -2 under rules without jokers, as the solitaire layouts were
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.state import HoleState

    deck = [52] + list(range(51))
    with pytest.raises(InputError, match="^a stacked deck holds a joker, but rules 'default' deal none"):
        HoleState(parse_rules("default", players=2), deck=deck)
    assert HoleState(parse_rules("default+jokers", players=2), deck=deck).next_card() == 52


def test_a_stacked_grid_deck_holds_no_card_more_often_than_the_rules_decks_do():
    """was: a deck of 52 copies of the Ace of Clubs was dealt and played out under one deck"""
    import numpy as np

    from golfsolve.errors import InputError
    from golfsolve.grid.bots import make_bot
    from golfsolve.grid.engine import Hole
    from golfsolve.grid.rules import parse_rules

    one = parse_rules("default", players=2)
    seats = [make_bot("random"), make_bot("random")]
    with pytest.raises(InputError, match=r"^a stacked deck holds AC 52 times, but rules 'default' deal it once$"):
        Hole(one, seats, np.random.default_rng(0), deck=[0] * 52)
    deck = list(range(52))
    deck[5] = 7
    with pytest.raises(InputError, match=r"^a stacked deck holds 8C 2 times, but rules 'default' deal it once$"):
        Hole(one, seats, np.random.default_rng(0), deck=deck)
    # two decks deal each card twice; a short stacked deck of distinct cards is still taken
    two = parse_rules("default", players=6)
    Hole(two, [make_bot("random") for _ in range(6)], np.random.default_rng(0), deck=list(range(52)) * 2)
    Hole(one, seats, np.random.default_rng(0), deck=list(range(20)))


@pytest.mark.parametrize("call, error, words", [
    # was: 0 (six "cards" 99 alike cancel), a Python TypeError for a face-down slot, -2 for a
    # joker under rules that deal none, a knocker past the table taken without a word
    (lambda s, r: s.grid_score([99] * 6, r), InputError, "slot 1 of the grid: 99 is not a card id (0 to 53)"),
    (lambda s, r: s.grid_score([0, 1, 2, None, 4, 5], r), InputError,
     "slot 4 of the grid is face down (None); grid_score scores a grid with every card turned"),
    (lambda s, r: s.grid_score([52, 1, 2, 3, 4, 5], r), InputError,
     "slot 1 of the grid holds a joker, but rules 'default' deal none"),
    (lambda s, r: s.grid_score([0.0, 1, 2, 3, 4, 5], r), InputError, "slot 1 of the grid: 0.0 is not a card id"),
    (lambda s, r: s.grid_score("AC 2C 3C 4C 5C 6C", r), TypeError, "cards must be a list of card ids"),
    (lambda s, r: s.hole_strokes([list(range(6)), list(range(6, 12))], r, knocker=2), InputError,
     "knocker must be a seat from 0 to 1, or None; not 2"),
    (lambda s, r: s.hole_strokes([list(range(6))], r), InputError, "hole_strokes takes 2 grids, one a player, not 1"),
])
def test_grid_scoring_refuses_what_is_no_grid(call, error, words):
    import re

    from golfsolve.errors import InputError as _  # noqa: F401
    from golfsolve.grid import scoring
    from golfsolve.grid.rules import parse_rules

    with pytest.raises(error, match="^" + re.escape(words)):
        call(scoring, parse_rules("default", players=2))


def test_grid_scoring_takes_numpy_cards_and_jokers_its_rules_deal():
    import numpy as np

    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.scoring import grid_score, hole_strokes

    r = parse_rules("default+jokers", players=2)
    assert grid_score(np.array([52, 1, 2, 3, 4, 53]), r) == grid_score([52, 1, 2, 3, 4, 53], r)
    assert hole_strokes([[0] * 6, list(range(6))], parse_rules("default+knock10", players=2), knocker=1)[1][1] >= 0


@pytest.mark.parametrize("params, words", [
    ({"players": 3.7}, "players must be a whole number, not 3.7"),  # was: 3 players
    ({"openers": True}, "openers must be a whole number, not True"),  # was: 1 opener
    ({"players": "3"}, "players must be a whole number, not '3'"),
    ({"rules": None}, "rules must be a grid rule spec such as 'default+putt', not None"),  # was: "unknown grid rule 'none'"
])
def test_the_openspiel_game_takes_its_parameters_as_the_rules_do(params, words):
    pytest.importorskip("pyspiel")
    import re

    from golfsolve.grid.spiel import GridGolfGame

    with pytest.raises(InputError, match="^" + re.escape(words)):
        GridGolfGame(params)


@pytest.mark.parametrize("kind, slot, words", [
    ("banana", -1, "no action kind 'banana' (kinds: swap, flip, pass, stock, discard, knock, open, done)"),
    ("swap", 6, "slot 6 is outside 0..5 on a 6-card grid"),  # was: 6, the code of "flip 0"
    ("open", -1, "slot -1 is outside 0..5 on a 6-card grid"),  # was: the code of "knock"
])
def test_a_grid_action_is_encoded_only_when_it_is_one(kind, slot, words):
    """was: any unknown kind encoded as 'done', and a slot past the grid as another action"""
    import re

    from golfsolve.grid.state import decode, encode

    with pytest.raises(ValueError, match="^" + re.escape(words)):
        encode(kind, slot, 6)
    assert all(encode(*decode(a, 6), 6) == a for a in range(23))


@pytest.mark.parametrize("args, words", [
    ((0, 0, 0), "n must be from 2 to 6, not 0"),  # was: ZeroDivisionError
    ((3, -1, 0), "match must be from 0 to"),  # was: taken, as match 5's seating
    ((3, 0, -1), "seed must be from 0 to"),
    ((3, 0.5, 0), "match must be a whole number, not 0.5"),
])
def test_a_tournament_seating_is_asked_of_a_table_a_match_and_a_seed(args, words):
    import re

    from golfsolve.grid.tournament import seating

    with pytest.raises(InputError, match="^" + re.escape(words)):
        seating(*args)


def test_a_grid_simulation_refuses_a_sample_count_no_bot_takes():
    """was: ``simulate(..., ['greedy', 'random'], samples=5)`` was taken and the count used by
    no bot, where ``grid simulate --mc-samples 5 --bots greedy,random`` is refused"""
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.tournament import simulate

    rules = parse_rules("default", players=2, holes=1)
    with pytest.raises(InputError, match="the bots greedy,random include none"):
        simulate(rules, ["greedy", "random"], 1, 0, samples=5)
    # an mc bot named without a count takes it; the same bot named with its own count does not
    assert simulate(rules, ["mc", "random"], 1, 0, samples=2).samples == 2
    with pytest.raises(InputError, match="include none"):
        simulate(rules, ["mc:3", "random"], 1, 0, samples=2)


def test_grid_scoring_refuses_solitaire_rules_and_a_grid_of_the_wrong_size():
    """was: grid_score, hole_strokes, knock_penalty, needed_cards and view.legal_draws given a
    solitaire Rules (or None) failed as "'Rules' object has no attribute 'grid'" (or 'players',
    'knock'); grid_score of 2 cards under 4-card rules raised a bare ValueError; encode of an
    unknown kind or a slot off the grid a bare ValueError too."""
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.scoring import grid_score, hole_strokes, knock_penalty
    from golfsolve.grid.state import encode, needed_cards
    from golfsolve.grid.view import legal_draws

    for call in (lambda: grid_score([1, 2, 3, 4], EASY), lambda: hole_strokes([[1, 2, 3, 4]] * 2, EASY),
                 lambda: knock_penalty(5, [3], EASY), lambda: needed_cards(EASY),
                 lambda: legal_draws(EASY, True, False), lambda: needed_cards(None)):
        library_refusal(call, "rules must be a GridRules", kinds=TypeError)
    rules = parse_rules("danish", players=2, grid=4)
    library_refusal(lambda: grid_score([1, 2], rules), "4 cards, not 2", kinds=InputError)
    library_refusal(lambda: encode("swap", 7, 4), "slot 7", kinds=InputError)
    library_refusal(lambda: encode(np.array(["swap"]), 1, 4), "kind", kinds=InputError)
    library_refusal(lambda: legal_draws(rules, np.array([1, 2]), False), "has_discard")
    assert needed_cards(rules) == 9 and encode("swap", 1, 4) == 1


@pytest.mark.parametrize("make, words", [
    (lambda b: b.GreedyMCBot(samples=2**63), "samples"),
    (lambda b: b.MCBot(samples=2.5), "samples"),
    (lambda b: b.MCBot(samples=math.nan), "samples"),
    (lambda b: b.MCBot(samples=5, horizon=-1), "horizon"),
    (lambda b: b.MCBot(samples=5, horizon=2**64), "horizon"),
    (lambda b: b.ISMCTSBot(iterations=2.5), "iterations"),
    (lambda b: b.ISMCTSBot(iterations=20, c_ucb=math.nan), "c_ucb"),
    (lambda b: b.ISMCTSBot(iterations=20, c_ucb=-5), "c_ucb"),
    (lambda b: b.RandomBot(rng=7), "rng"),
    (lambda b: b.GreedyBot(name=5), "name"),
])
def test_a_bot_refuses_settings_its_kernel_cannot_play(make, words):
    """was: the bots' constructors took any value: GreedyMCBot(samples=2**63) wrapped round in the
    compiled search to a search of no samples and played a match as if it had searched; samples 2.5
    or NaN, a negative horizon, c_ucb NaN or -5 played by some other rule; MCBot(horizon=2**64)
    failed mid-match as a numba TypingError; RandomBot(rng=7) at its first decision."""
    from golfsolve.grid import bots

    library_refusal(lambda: make(bots), words)


def test_a_paired_bot_refuses_play_outs_its_kernel_cannot_count():
    """was: PairedBot(playouts=2**63) or 2.5 was taken, to wrap round or be truncated in the kernel."""
    from golfsolve.grid.paired import PairedBot

    library_refusal(lambda: PairedBot(playouts=2**63), "play-outs")
    library_refusal(lambda: PairedBot(playouts=2.5), "play-outs")


@pytest.mark.parametrize("call, words", [
    (lambda: __import__("golfsolve.grid.state", fromlist=["x"]).decode(1, 5), "4, 6, 8 or 9 cards, not 5"),
    (lambda: __import__("golfsolve.grid.state", fromlist=["x"]).decode(2.5, 6), "whole number, not 2.5"),
    (lambda: __import__("golfsolve.grid.state", fromlist=["x"]).decode("1", 6), "whole number, not '1'"),
    (lambda: __import__("golfsolve.grid.state", fromlist=["x"]).encode("swap", 1, 5), "4, 6, 8 or 9 cards, not 5"),
    (lambda: __import__("golfsolve.grid.state", fromlist=["x"]).num_actions(7), "4, 6, 8 or 9 cards, not 7"),
    (lambda: __import__("golfsolve.grid.state", fromlist=["x"]).action_name(0, 0), "4, 6, 8 or 9 cards, not 0"),
    (lambda: __import__("golfsolve.grid.tournament", fromlist=["x"]).cyclic_orders(0), "n must be from 1 to 6"),
    (lambda: __import__("golfsolve.grid.tournament", fromlist=["x"]).cyclic_orders(20), "n must be from 1 to 6"),
])
def test_grid_actions_and_seatings_are_asked_of_a_real_grid_and_table(call, words):
    """was: decode(1, 5) was 'swap 1' on a 5-card grid, decode(2.5, 6) 'swap 2', decode('1', 6)
    a TypeError about '<='; encode and num_actions took any grid size; cyclic_orders(0) gave
    one order of one entry, and cyclic_orders(20) ran for ever (19! orders)"""
    with pytest.raises(InputError, match=words):
        call()


@pytest.mark.parametrize("params, error, words", [
    ({"player": 3}, InputError, "unknown parameter 'player'"),
    ({"holes": 3}, InputError, "unknown parameter 'holes'"),
    ([("players", 3)], TypeError, "params must be a dict"),
])
def test_the_openspiel_game_refuses_a_parameter_it_does_not_take(params, error, words):
    """was: GridGolfGame({"player": 3}) seated the default four players under a game string
    'python_golfsolve_grid(player=3)', and {"holes": 3} was dropped (pyspiel.load_game
    refuses both); a list of pairs failed inside dict()"""
    spiel = pytest.importorskip("golfsolve.grid.spiel")
    with pytest.raises(error, match=words):
        spiel.GridGolfGame(params)
    assert spiel.GridGolfGame({"players": 3}).num_players() == 3


#: the fields ``danish`` sets, as a table written before ``openers_exact`` existed holds them
_OLD_DANISH = {k: v for k, v in PRESETS["danish"].items() if k != "openers_exact"}


def test_a_table_with_no_openers_has_one_spec_that_parses_back():
    """was: ``GridRules`` with 0 openers kept ``openers_exact`` either way, so the same game was
    two tables (danish --openers 0 true, the same table recorded before the field false), and
    ``spec()`` named one of them ``danish+openers-up-to`` (or ``default+openers-exact``), which
    ``parse_rules(spec())`` refused: "grid rule 'openers-up-to' changes nothing with 0 openers"."""
    for grid in (4, 6, 8, 9):
        for players in (2, 5, 6):
            for base in ({}, _OLD_DANISH):
                for exact in (False, True):
                    r = GridRules(**base, players=players, grid=grid, openers=0, openers_exact=exact)
                    assert not r.openers_exact and "openers_exact" not in r.to_dict()
                    assert parse_rules(r.spec(), players=players, grid=grid, openers=0, holes=r.holes) == r
                    assert GridRules(**r.to_dict()) == r
                    assert r.spec() == ("danish" if base else "default")
    assert parse_rules("danish", openers=0) == GridRules(**_OLD_DANISH, openers=0)


def test_the_openspiel_game_of_a_table_with_no_openers_loads_back():
    """was: the game made from an old danish table with 0 openers was named
    ``...rules=danish+openers-up-to`` and ``pyspiel.load_game`` of its own string refused it."""
    pyspiel = pytest.importorskip("pyspiel")
    from golfsolve.grid.spiel import GridGolfGame

    for rules in (GridRules(**_OLD_DANISH, players=2, openers=0), GridRules(players=3, openers=0, openers_exact=True)):
        game = GridGolfGame(rules=rules)
        assert "openers-" not in str(game)
        assert pyspiel.load_game(str(game)).rules == rules


@pytest.mark.parametrize("call", ["seating_orders", "cyclic_orders"])
def test_the_seating_orders_refuse_a_list_in_one_line(call):
    """was: ``seating_orders([6])`` (and ``cyclic_orders([3])``) failed in their cache as
    "TypeError: unhashable type: 'list'", naming neither the argument nor what it should be."""
    from golfsolve.grid import tournament

    for bad in ([6], {"n": 6}):
        with pytest.raises(InputError, match="n must be a whole number"):
            getattr(tournament, call)(bad)
    assert len(tournament.seating_orders(6)) == 10 and len(tournament.cyclic_orders(4)) == 6


def _grid_hole():
    import numpy as np

    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.state import HoleState

    return HoleState(parse_rules("danish", players=2, grid=4), rng=np.random.default_rng(1))


@pytest.mark.parametrize("call, error, words", [
    # was: IndexError 'list index out of range'
    (lambda s: s.hidden_count(5), "InputError", "a seat is a whole number from 0 to 1, not 5"),
    # was: seat 1's slots (Python's index from the end), with no word
    (lambda s: s.hidden_slots(-1), "InputError", "a seat is a whole number from 0 to 1, not -1"),
    # was: AttributeError "'int' object has no attribute 'shuffle'"
    (lambda s: s.resample(0, 5), "TypeError", "rng must be a numpy Generator"),
    # was: ValueError 'operands could not be broadcast together with shapes (54,) (100,)'
    (lambda s: s.view(0, drawn=99), "InputError", "drawn must be a card id these rules deal, or None; not 99"),
    (lambda s: s.view(0, drawn=-1), "InputError", "drawn must be a card id these rules deal, or None; not -1"),
])
def test_a_hole_state_names_a_seat_a_card_or_a_generator_that_is_none(call, error, words):
    """The hole state's public methods check a seat as view and observation do."""
    import re

    with pytest.raises(Exception, match="^" + re.escape(words)) as e:
        call(_grid_hole())
    assert type(e.value).__name__ == error


def test_a_hole_state_still_takes_numpy_seats_and_cards():
    import numpy as np

    s = _grid_hole()
    assert s.hidden_count(np.int64(1)) == 4 and s.hidden_slots(np.int64(0)) == [0, 1, 2, 3]
    assert s.view(0, drawn=np.int64(5)).drawn == 5
    s.resample(1, np.random.default_rng(0))


@pytest.mark.parametrize("decks", [5, "abc", b"ab"])
def test_play_match_names_decks_that_are_no_list_of_decks(decks):
    """was: TypeError "object of type 'int' has no len()" at the first hole, and the text 'abc'
    read as three decks ('a stacked deck holds card ids 0 to 53, not 'a'')"""
    import numpy as np

    from golfsolve.grid.bots import make_bot
    from golfsolve.grid.engine import play_match
    from golfsolve.grid.rules import parse_rules

    with pytest.raises(TypeError, match="^decks must be a list of stacked decks, one a hole"):
        play_match(parse_rules("default", players=2, holes=1), [make_bot("random"), make_bot("random")],
                   np.random.default_rng(0), decks=decks)


def test_the_library_writes_bot_names_one_way_as_the_command_does():
    """was: simulate(rules, ['Random', ' random '], ...) counted two bots, 'Random' and
    ' random ', each with its own line in the summary; the command reads them as one"""
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.tournament import bot_summary, simulate, simulate_tally
    from golfsolve.stats.gridruns import GridSpec

    rules = parse_rules("default", players=2, holes=1)
    t = simulate(rules, ["Random", " random "], 1, 0)
    assert t.bots == ["random", "random"]
    assert list(bot_summary(t)["bot"]) == ["random"]
    assert simulate_tally(rules, ["Random", " random "], 1, 0).bots == ["random", "random"]
    assert GridSpec(rules, ("MC:05", "Greedy"), 1).bots == ("mc:5", "greedy")


@pytest.mark.parametrize("bots, samples, words", [
    (["mc", "mc:100"], None, "the bots 'mc' and 'mc:100' are one bot: the Monte Carlo sample count of 'mc' is 100 "
                             "unless its name gives one; name it one way (mc,mc) to seat it twice"),
    (["mc:5", "mc"], 5, "the bots 'mc:5' and 'mc' are one bot: the Monte Carlo sample count of 'mc' is 5, the "
                        "Monte Carlo samples given"),
    (["ismcts:1000", "random", "ismcts"], None, "the bots 'ismcts:1000' and 'ismcts' are one bot"),
])
def test_one_bot_under_two_names_is_refused_in_the_library(bots, samples, words, tmp_path):
    """was: counted as two bots, with a 'difference' between a bot and itself in the summary
    (mc - mc:5: -4.50 [-7.44, -1.56])"""
    from golfsolve.errors import InputError
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.tournament import simulate
    from golfsolve.stats.gridruns import GridSpec, run_grid_simulate

    rules = parse_rules("default", players=len(bots), holes=1)
    with pytest.raises(InputError, match="^" + words.replace("(", r"\(").replace(")", r"\)")):
        simulate(rules, bots, 1, 0, samples)
    with pytest.raises(InputError, match="are one bot"):
        run_grid_simulate(tmp_path / "run", GridSpec(rules, tuple(bots), 1, samples=samples), progress=False)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("args, words", [
    (["--bots", "mc,mc:100"], "the bots 'mc' and 'mc:100' are one bot"),
    (["--bots", "mc,MC:5", "--mc-samples", "5"], "the bots 'mc' and 'mc:5' are one bot"),
    (["--bots", "heuristic,ismcts,ismcts:1000", "--out", "RUN"], "the bots 'ismcts' and 'ismcts:1000' are one bot"),
])
def test_grid_simulate_refuses_one_bot_under_two_names(run_cli, tmp_path, args, words):
    args = [str(tmp_path / "run") if a == "RUN" else a for a in args]
    line = one_line_error(run_cli(["grid", "simulate", "--matches", "1", "--holes", "1", "-q", *args]))
    assert words in line, line
    assert not (tmp_path / "run").exists()


def test_one_bot_seated_twice_or_two_counts_are_still_played(run_cli):
    from golfsolve.grid.botnames import check_distinct_bots

    check_distinct_bots(["mc", "mc"])  # not refused: one name twice seats one bot twice
    check_distinct_bots(["mc", "mc:5", "mc-greedy:100"])  # mc-greedy is another bot than mc
    check_distinct_bots(["mc", "mc:100"], samples=5)  # mc plays 5 samples here
    r = run_cli(["grid", "simulate", "--matches", "1", "--holes", "1", "-q", "--bots", "random,Random,greedy", "--json"])
    assert r.exit_code == 0, r.stderr
    # was: only the exit code checked; now the three seats were played, random's two as one bot
    out = json.loads(r.stdout)
    assert out["meta"]["bots"] == ["random", "random", "greedy"]
    assert {b["bot"]: (b["seats"], b["holes"]) for b in out["bots"]} == {"random": (2, 2), "greedy": (1, 1)}


def test_the_bot_registrys_default_counts_are_the_bots_own():
    """check_distinct_bots knows each bot's default count without importing the bots (the
    command checks --bots before numba loads); each must be the one the bot plays with"""
    import inspect

    from golfsolve.grid.botnames import BOTS

    for kind in ("mc", "mc-greedy", "ismcts", "paired-rel"):
        entry = BOTS[kind]
        default = inspect.signature(entry.resolve()).parameters[entry.count].default
        assert entry.default == default, kind
    spiel = pytest.importorskip("golfsolve.grid.spiel", exc_type=ImportError)
    assert BOTS["spiel-ismcts"].default == spiel.DEFAULT_SIMULATIONS
