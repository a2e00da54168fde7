"""The library's public functions called with arguments of the wrong type: a TypeError or an
InputError that says what was expected, raised at the call, before any work. Before, a deal
code given where a Layout goes, a rule set's name where a Rules goes or a number where a
move goes met an AttributeError deep inside; a fair seed of -1 was taken as seed 1 (and
recorded as -1), 2.5 or text as a hash of it."""

from __future__ import annotations

import re
import numpy as np
import pytest

import golfsolve.fair as fair
from golfsolve.errors import InputError
from golfsolve.grid.bots import make_bot
from golfsolve.grid.engine import Hole, play_match
from golfsolve.grid.rules import parse_rules
from golfsolve.grid.tournament import simulate
from golfsolve.solitaire.deals import parse_pysol_range
from golfsolve.solitaire.engine import Game, replay
from golfsolve.solitaire.layout import layout_from_code, layout_from_pysol, make_layout, parse_layout_text
from golfsolve.solitaire.rules import CLASSIC, EASY, get_rules
from golfsolve.solitaire.solver import Solver
import pandas as pd

from golfsolve.fair import PlayerSettings
from golfsolve.solitaire.dealcode import format_code

from hostile_helpers import library_refusal

CODE = "GO1-E-AAAAAAB"
COLS = [[5 * c + r for r in range(5)] for c in range(7)]  # cards 0..34 on the table


@pytest.fixture(scope="module")
def solver():
    return Solver()


@pytest.fixture(scope="module")
def lay():
    return layout_from_code(CODE)


# (call, the error's type, words of its message); ``lay`` is deal 1, ``s`` a shared solver
SOLITAIRE = [
    (lambda lay, s: layout_from_code(1), TypeError, "a deal code must be text"),
    (lambda lay, s: layout_from_code(None), TypeError, "a deal code must be text"),
    (lambda lay, s: layout_from_code(CODE, "classic"), TypeError, "rules must be a Rules or None"),
    (lambda lay, s: layout_from_pysol("1"), InputError, "a PySol deal number must be a whole number, not '1'"),
    (lambda lay, s: layout_from_pysol(True), InputError, "a PySol deal number must be a whole number"),  # was: deal 1
    (lambda lay, s: get_rules(None), TypeError, "a rule set must be named by text"),
    (lambda lay, s: Game(CODE), TypeError, "layout must be a Layout, e.g. layout_from_code("),
    (lambda lay, s: Game(lay, "classic"), TypeError, "rules must be a Rules or None, e.g. get_rules('classic')"),
    (lambda lay, s: Game(lay).play(1), TypeError, "a move must be text"),
    (lambda lay, s: Game(lay).tap(1.5, 1), InputError, "a column is a whole number 1..7, not 1.5"),
    (lambda lay, s: Game(lay).tap(2, "4"), InputError, "a row is a whole number 1..5, not '4'"),
    (lambda lay, s: s.solve(CODE), TypeError, "layout must be a Layout"),
    (lambda lay, s: s.solve(lay, "classic"), TypeError, "rules must be a Rules or None"),
    # was: taken as cards (0.5 as card 0; a discard of 60 said "missing cards: TH")
    (lambda lay, s: make_layout([[99]] + COLS[1:], 35, list(range(36, 52))), InputError,
     "column 1 row 1: 99 is not a card id (0 to 53; parse_card('AS') gives one)"),
    (lambda lay, s: make_layout([[0.5]] + COLS[1:], 35, list(range(36, 52))), InputError, "column 1 row 1: 0.5 is"),
    (lambda lay, s: make_layout(COLS, 60, list(range(36, 52))), InputError, "the discard: 60 is not a card id"),
    (lambda lay, s: make_layout(COLS, 35, [-1]), InputError, "stock position 1: -1 is not a card id"),
    # was: AttributeError ("'str' object has no attribute 'jokers'", "... no attribute 'strip'")
    (lambda lay, s: lay.with_rules("classic"), TypeError, "rules must be a Rules, e.g. get_rules('classic')"),
    (lambda lay, s: parse_layout_text(None), TypeError, "a layout's text must be text"),
    (lambda lay, s: parse_pysol_range(None), TypeError, "a PySol range must be text"),
    (lambda lay, s: replay(lay, None), TypeError, "moves must be a list of moves"),
    (lambda lay, s: s.solve(lay, verdict_only="no"), TypeError, "verdict_only must be True or False"),  # was: True
]

FAIR = [
    (lambda lay, s: fair.odds(CODE, solver=s), TypeError, "layout must be a Layout"),
    (lambda lay, s: fair.odds(lay, "classic", samples=2, games=0, solver=s), TypeError, "rules must be a Rules"),
    (lambda lay, s: fair.odds(lay, samples=2, games=0, solver="fast"), TypeError, "solver must be a Solver or None"),
    (lambda lay, s: fair.fair_hint(CODE, solver=s), TypeError, "layout must be a Layout"),
    (lambda lay, s: fair.fair_hint(lay, "easy", solver=s), TypeError, "rules must be a Rules"),
    (lambda lay, s: fair.rate(CODE, solver=s), TypeError, "layout must be a Layout"),
    (lambda lay, s: fair.pick("easy", "easy", 1, solver=s), TypeError, "rules must be a Rules, e.g. get_rules("),
    (lambda lay, s: fair.pick(EASY, "easy", 1, start=CODE, solver=s), InputError, "the start deal must be from 0"),
    (lambda lay, s: fair.player_view(CODE), TypeError, "layout must be a Layout"),
    (lambda lay, s: fair.player_view(lay, "1 d"), TypeError, "game must be a Game"),
    # was: a game of the full deal with the deal's partial layout: the view kept the real stock, the fair hint peeked
    (lambda lay, s: fair.player_view(lay.forget_stock(1), Game(lay)), InputError, "the game was not started from"),
    (lambda lay, s: fair.fair_hint_for_player(lay.forget_stock(1), Game(lay), solver=s), InputError,
     "the game was not started from this layout"),
    (lambda lay, s: fair.play(CODE, solver=s), TypeError, "layout must be a Layout"),
    # was: a played card written as text matched no card id, and stayed among the stock's possible cards
    (lambda lay, s: fair.odds(lay, samples=2, games=0, played=["AS"], solver=s), InputError,
     "played cards are card ids 0 to 53 (parse_card('AS') gives one), not 'AS'"),
    (lambda lay, s: fair.fair_hint(lay, played=[99], solver=s), InputError, "played cards are card ids 0 to 53"),
    (lambda lay, s: fair.play(lay, played=[1.5], solver=s), InputError, "played cards are card ids 0 to 53"),
    (lambda lay, s: fair.stock_orders(lay.forget_stock(0), EASY, 0, 0), InputError, "n must be from 1 to 1,000,000"),
    (lambda lay, s: fair.stock_orders(lay.forget_stock(0), EASY, 2.5, 0), InputError, "n must be a whole number"),
]

#: every fair answer's seed, as --seed takes it: a whole number from 0 to 2**64 - 1
SEEDED = [
    lambda lay, s, seed: fair.odds(lay, samples=2, games=0, seed=seed, solver=s),
    lambda lay, s, seed: fair.fair_hint(lay, seed=seed, solver=s, player="fast"),
    lambda lay, s, seed: fair.rate(lay, games=1, seed=seed, solver=s),
    lambda lay, s, seed: fair.pick(CLASSIC, "easy", 1, games=1, max_deals=1, seed=seed, solver=s),
]
#: a fair game's seed may also be text (fair-stats named each game's seed "0-easy-17" before its
#: games were seeded by the run's seed alone)
PLAY = lambda lay, s, seed: fair.play(lay, seed=seed, solver=s, player="fast")  # noqa: E731
BAD_SEEDS = [(-1, "seed must be from 0 to 18,446,744,073,709,551,615, not -1"), (2**64, "seed must be from 0 to"),
             (1.5, "seed must be a whole number"), (True, "seed must be a whole number"),
             ("7", "seed must be a whole number")]

GRID_RULES = parse_rules("default", players=2)

GRID = [
    (lambda: parse_rules(5), TypeError, "a grid rule set must be named by text"),
    (lambda: make_bot(None), TypeError, "a bot must be named by text"),
    (lambda: make_bot("mc", samples=2.5), InputError, "Monte Carlo samples must be a whole number, not 2.5"),
    (lambda: make_bot("mc", samples="5"), InputError, "Monte Carlo samples must be a whole number, not '5'"),
    (lambda: make_bot("greedy", 7), TypeError, "rng must be a numpy Generator"),  # was: failed at its first decision
    (lambda: simulate("default", ["random", "greedy"], 1, 0), TypeError, "rules must be a GridRules"),
    # was: "13 bots for 2 players", a bot per character
    (lambda: simulate(GRID_RULES, "random,greedy", 1, 0), TypeError, "bots must be a list of bot names"),
    (lambda: play_match("default", [make_bot("random"), make_bot("random")]), TypeError, "rules must be a GridRules"),
    (lambda: play_match(GRID_RULES, ["random", "greedy"]), TypeError, "every player must be a bot"),
    (lambda: play_match(GRID_RULES, [make_bot("random"), make_bot("random")], 3), TypeError, "rng must be a numpy"),
    (lambda: Hole(GRID_RULES, [make_bot("random"), make_bot("random")], np.random.default_rng(0),
                  deck=list(range(100, 152))), InputError, "a stacked deck holds card ids 0 to 53, not 100"),
    (lambda: Hole(GRID_RULES, [make_bot("random"), make_bot("random")], np.random.default_rng(0),
                  deck=[0.5] * 52), InputError, "a stacked deck holds card ids 0 to 53, not 0.5"),
]


@pytest.mark.parametrize("call, error, words", SOLITAIRE + FAIR)
def test_solitaire_and_fair_calls_with_wrong_types_say_what_was_expected(call, error, words, lay, solver):
    with pytest.raises(error, match="^" + re.escape(words)):
        call(lay, solver)


@pytest.mark.parametrize("call, seed, words", [(c, seed, words) for c in SEEDED for seed, words in BAD_SEEDS]
                         + [(PLAY, seed, words) for seed, words in BAD_SEEDS if not isinstance(seed, str)])
def test_fair_seeds_are_checked_as_the_seed_option_is(call, seed, words, lay, solver):
    with pytest.raises(InputError, match="^" + re.escape(words)):
        call(lay, solver, seed)


def test_a_fair_game_still_takes_a_text_seed_as_fair_stats_names_its_games(lay, solver):
    a = fair.play(lay, seed="0-easy-1", solver=solver, player="fast")
    b = fair.play(lay, seed="0-easy-1", solver=solver, player="fast")
    assert a.moves == b.moves


@pytest.mark.parametrize("call, error, words", GRID)
def test_grid_calls_with_wrong_types_say_what_was_expected(call, error, words):
    with pytest.raises(error, match="^" + re.escape(words)):
        call()


# -- the runs' specs and the batch functions -----------------------------------------------

def _specs():
    from golfsolve.stats.census import CensusSpec
    from golfsolve.stats.fairstats import FairSpec
    from golfsolve.stats.gridruns import GridSpec
    from golfsolve.stats.gridstudy import StudySpec

    two = parse_rules("default", players=2)
    return [
        (lambda: CensusSpec(0, 2.0), InputError, "count must be a whole number, not 2.0"),
        (lambda: CensusSpec(0, float("nan")), InputError, "count must be a whole number, not nan"),
        (lambda: CensusSpec("0", 2), InputError, "start must be a whole number, not '0'"),
        (lambda: CensusSpec(0, 2, "easy"), TypeError, "rules must be a list of names"),  # was: rule set 'e'
        (lambda: FairSpec(0, 1, ("easy",), seed=1.5), InputError, "seed must be a whole number, not 1.5"),
        (lambda: FairSpec(0, 1.0, ("easy",)), InputError, "count must be a whole number, not 1.0"),
        (lambda: FairSpec(0, 1, "easy"), TypeError, "rules must be a list of names"),
        (lambda: GridSpec("default", ("random", "greedy"), 2), TypeError, "rules must be a GridRules"),
        (lambda: GridSpec(two, "random,greedy", 2), TypeError, "bots must be a list of names"),
        (lambda: GridSpec(two, ("random", "greedy"), 2.5), InputError, "matches must be a whole number, not 2.5"),
        (lambda: StudySpec(sets="base"), TypeError, "sets must be a list of names"),
        (lambda: StudySpec(matches=True), InputError, "matches must be a whole number, not True"),
    ]


@pytest.mark.parametrize("case", range(12))
def test_a_run_spec_of_the_wrong_types_is_refused_when_made(case):
    """Was: a count of 2.0 made a run folder whose manifest golfsolve then refused to read
    ("field count: Input should be a valid integer"); rules "easy" were rule sets 'e', 'a',
    's', 'y', refused only after the manifest was written."""
    call, error, words = _specs()[case]
    with pytest.raises(error, match="^" + re.escape(words)):
        call()


def test_run_specs_take_numpy_integers_and_lists_and_write_plain_json(tmp_path):
    import json

    from golfsolve.stats.census import CensusSpec, run_census
    from golfsolve.stats.fairstats import FairSpec

    spec = CensusSpec(np.int64(3), np.int64(2), ["easy"], np.int64(1))
    assert (type(spec.start), type(spec.count), spec.rules) == (int, int, ("easy",))
    assert FairSpec(0, 1, ["easy"], player="fast").player == fair.PRESETS["fast"]
    run_census(tmp_path / "run", spec, jobs=1)
    m = json.loads((tmp_path / "run" / "_manifest.json").read_text())
    assert (m["start"], m["count"], m["rules"]) == (3, 2, ["easy"])


def test_the_runs_and_batches_refuse_a_wrong_argument_before_any_work(tmp_path, solver):
    from golfsolve.solitaire.deals import DealBatch, solve_many
    from golfsolve.stats.census import run_census
    from golfsolve.stats.fairstats import run_fair_stats

    with pytest.raises(TypeError, match="^a golfsolve stats run's spec must be a CensusSpec, not str"):
        run_census(tmp_path / "a", "easy")
    with pytest.raises(TypeError, match="^a golfsolve fair-stats run's spec must be a FairSpec"):
        run_fair_stats(tmp_path / "b", {"count": 1})
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(TypeError, match=r"^codes must be a list, e\.g\. \['GO1-E-AAAAAAB'\], not str"):
        DealBatch.build(CODE)
    with pytest.raises(TypeError, match="^a PySol range must be text"):
        DealBatch.build(pysol=[1])
    with pytest.raises(TypeError, match="^rules must be a Rules or None"):
        DealBatch.build([CODE], rules="classic")
    with pytest.raises(TypeError, match="^each deal must be a Layout"):
        list(solve_many([CODE], solver))


@pytest.mark.parametrize("settings, words", [
    ({"samples": 2.5}, "samples must be a whole number, not 2.5"),  # was: a TypeError deep in the sampling
    ({"samples": 10**9}, "samples must be from 1 to 1,000,000"),  # was: the memory filled
    ({"exact_states": 2**70, "compiled_exact": True}, "exact_states must be from 1 to 1,000,000"),  # was: NumPy's error
    ({"race_z": float("nan")}, "race_z must be a number from 0 up, not nan"),  # was: taken
    ({"compiled_exact": "no"}, "compiled_exact must be True or False, not 'no'"),  # was: taken as true
    ({"race_batch": 0}, "race_batch must be from 1 to 1,000,000, not 0"),
])
def test_player_settings_are_checked_as_the_options_counts_are(settings, words):
    with pytest.raises(InputError, match="^" + re.escape(words)):
        fair.PlayerSettings(**settings)


def test_replay_takes_moves_as_text_as_the_command_does(lay):
    # was: one move per character, so "1 1 d 5" was refused at its first space
    game, results = replay(lay, "1 1 d 5")
    assert [r.move for r in results] == ["1", "1", "d", "5"]
    listed, _ = replay(lay, ["1", "1", "d", "5"])
    assert (game.moves, game.score, game.removed) == (listed.moves, listed.score, listed.removed)


def test_grid_rules_take_numpy_numbers_and_write_a_manifest_that_reads_back(tmp_path):
    from golfsolve.grid.rules import GridRules
    from golfsolve.stats.gridruns import GRID, GridSpec, run_grid_simulate

    # was: the NumPy integers kept, and json could not write the manifest ("Object of type int64
    # is not JSON serializable"); jokers=1 was written as 1, which the manifest check then refused
    rules = parse_rules("default", players=np.int64(2), holes=np.int64(1))
    assert type(rules.players) is int and type(rules.holes) is int
    assert GridRules(players=2, jokers=np.bool_(True)).jokers is True and GridRules(players=2, jokers=1).jokers is True
    out = tmp_path / "run"
    run_grid_simulate(out, GridSpec(GridRules(players=np.int64(2), holes=1, jokers=1), ("greedy", "random"), 1),
                      progress=False)
    assert GRID.read(out).rules == GridRules(players=2, holes=1, jokers=True)


def test_player_settings_keep_plain_numbers_so_a_fair_stats_manifest_can_be_written():
    import json

    from golfsolve.fair.settings import PlayerSettings, player_settings
    from golfsolve.stats.fairstats import FairSpec

    # was: NumPy integers kept, and json.dumps of the run's key failed ("int64 is not JSON serializable")
    p = PlayerSettings(samples=np.int64(8), extra=np.int64(8), race_z=np.float64(1.5), exact_unknown=np.int32(6),
                       compiled_exact=True, carry=True, by_rank=True)
    assert type(p.samples) is int and type(p.exact_unknown) is int and type(p.race_z) is float
    assert p == player_settings("fast") and p.preset == "fast"
    json.dumps(FairSpec(np.int64(0), np.int64(2), ("easy",), player=p, seed=np.int64(1)).run_key().to_json())


def test_lists_given_as_sets_are_refused_not_read_in_hash_order():
    """was: rule sets (stats, fair-stats), bots (grid runs) and moves (replay) given as a set
    were taken in the set's order, which for text changes from process to process: the same
    call made runs of other keys and rows, seated other bots, or played other moves."""
    from golfsolve.grid.rules import parse_rules
    from golfsolve.stats import CensusSpec, solve_deals
    from golfsolve.stats.fairstats import FairSpec
    from golfsolve.stats.gridruns import GridSpec

    with pytest.raises(TypeError, match="rules must be a list of names"):
        CensusSpec(0, 5, {"easy", "classic"})
    with pytest.raises(TypeError, match="rules must be a list of names"):
        FairSpec(0, 5, frozenset({"easy", "classic"}))
    with pytest.raises(TypeError, match="bots must be a list of names"):
        GridSpec(parse_rules("default", players=2), {"mc", "greedy"}, 1)
    with pytest.raises(TypeError, match="rules must be a list of names"):
        solve_deals([0], {"easy", "classic"})
    with pytest.raises(TypeError, match="moves must be a list of moves"):
        replay(layout_from_code("GO1-E-AAAAAAB"), {"d", "5"})
    # lists, tuples and NumPy arrays keep their order, as plain text names
    spec = CensusSpec(0, 5, np.array(["classic", "easy"]))
    assert spec.rules == ("classic", "easy") and all(type(r) is str for r in spec.rules)


@pytest.mark.parametrize("call, error, words", [
    # was: "'NoneType' object is not iterable", and the text 'fast' as "unknown player setting 'a'"
    (lambda: PlayerSettings.from_dict(None), TypeError, "from_dict takes the dict as_dict"),
    (lambda: PlayerSettings.from_dict("fast"), TypeError, "from_dict takes the dict as_dict"),
    # was: "unhashable type: 'list'"
    (lambda: format_code(5, ["E"]), InputError, "rule letter must be E, C or N"),
])
def test_wrong_types_are_named_not_met_as_pythons_own_errors(call, error, words):
    with pytest.raises(error, match=words):
        call()


@pytest.mark.parametrize("progress", ["yes", 0, 1.0])
def test_a_progress_switch_is_true_false_or_none(progress):
    """was: ``odds(..., progress="yes")`` (or "no", which Python reads as true) was taken as a wish"""
    from golfsolve.fair import odds
    from golfsolve.solitaire.layout import layout_from_number

    with pytest.raises(TypeError, match="progress must be True, False or None"):
        odds(layout_from_number(1), samples=2, games=0, progress=progress)


DEAL = "GO1-E-AAAAAAB"


def test_a_refusal_quoting_a_pandas_value_is_one_line():
    """was: a pandas Series given as a count was quoted as its repr, one line per row:
    "samples must be a whole number, not 0    1" then "1    2" and "dtype: int64" on lines of
    their own (odds, rate, pick, Layout, Game.tap, wilson and 40 more; parse_card's and play_answer's
    TypeError too)."""
    from golfsolve.cards import make_card
    from golfsolve.fair import odds
    from golfsolve.intervals import wilson

    s = pd.Series([1, 2])
    library_refusal(lambda: odds(layout_from_code(DEAL), samples=s), "samples", "dtype: int64")
    library_refusal(lambda: make_card(s, 0), "rank")
    library_refusal(lambda: wilson(s, 10), "successes")
    from golfsolve.cards import parse_card
    from golfsolve.solitaire.answers import play_answer

    library_refusal(lambda: parse_card(s), "a card must be text", kinds=TypeError)  # a TypeError quotes it on one line too
    library_refusal(lambda: play_answer(layout_from_code(DEAL), tap=s), "tap", kinds=TypeError)
    assert str(InputError("a\n  b\r\nc")) == "a b c"


def test_a_numpy_array_where_one_number_goes_is_refused_by_name():
    """was: an array of numbers met a comparison and failed as "The truth value of an array with
    more than one element is ambiguous" (a bare ValueError naming nothing the caller gave), in
    make_card, deck, deal_deck, Layout's deal number and discard, forget_stock, Game.tap,
    layout_from_pysol, pick's start, app_score, wilson, Rules' king_takes and a tournament's seating."""
    from golfsolve.cards import deck, make_card
    from golfsolve.fair import pick
    from golfsolve.grid.tournament import seating
    from golfsolve.intervals import wilson
    from golfsolve.solitaire.dealcode import deal_deck
    from golfsolve.solitaire.engine import Game
    from golfsolve.solitaire.layout import Layout, layout_from_pysol
    from golfsolve.solitaire.rules import Rules
    from golfsolve.solitaire.solver import app_score

    a = np.array([1, 2])
    lay = layout_from_code(DEAL)
    for call in (lambda: make_card(a, 0), lambda: deck(a), lambda: deal_deck(1, a),
                 lambda: Layout(lay.columns, lay.discard, lay.stock, deal_number=a),
                 lambda: lay.forget_stock(a), lambda: Game(lay).tap(a, 1), lambda: layout_from_pysol(a),
                 lambda: pick(EASY, "easy", 1, start=a), lambda: app_score(a), lambda: wilson(1, a),
                 lambda: Rules("x", king_takes=a), lambda: seating(3, 1, 0, scheme=a)):
        library_refusal(call)
    # one NumPy number is still a number; 32 removed: 320 - 3 * 10 (SPEC.md, Scoring)
    assert app_score(np.int64(3)) == app_score(3) == 320 - 30


def test_a_numpy_bool_is_a_switch_under_numpy_2():
    """was: flag() knew NumPy's bool by the name 'bool_', which NumPy 2 renamed 'bool': pick(...,
    winnable=np.True_) was refused as 'winnable must be True or False, not bool np.True_'"""
    from golfsolve.inputs import flag

    assert flag(np.True_, "winnable") is True and flag(np.False_, "winnable") is False
    with pytest.raises(TypeError, match="winnable must be True or False"):
        flag(np.int64(1), "winnable")


def _callbacks(tmp_path):
    import numpy as np

    from golfsolve.fair import pick
    from golfsolve.grid.bots import make_bot
    from golfsolve.grid.engine import play_match
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.tournament import simulate
    from golfsolve.solitaire.rules import EASY
    from golfsolve.stats.census import CensusSpec, run_census

    grid = parse_rules("default", players=2, holes=1)
    return {
        "on_deal": lambda v: pick(EASY, "easy", 1, games=1, on_deal=v),
        "on_hole": lambda v: play_match(grid, [make_bot("random"), make_bot("random")], np.random.default_rng(0),
                                        on_hole=v),
        "progress": lambda v: simulate(grid, ["random", "random"], 1, 0, progress=v),
        "on_chunk": lambda v: run_census(tmp_path / "run", CensusSpec(0, 1, ("easy",)), jobs=1, progress=False,
                                         on_chunk=v),
    }


@pytest.mark.parametrize("name", ["on_deal", "on_hole", "progress", "on_chunk"])
@pytest.mark.parametrize("value", [5, True])
def test_a_library_callback_that_is_no_function_is_named_at_the_call(tmp_path, name, value):
    """was: TypeError "'int' object is not callable" after the first deal, hole, match or
    chunk was done (run_census had written its folder by then); simulate(progress=True), a
    switch everywhere else, failed the same way"""
    with pytest.raises(TypeError, match=f"^{name} must be a function"):
        _callbacks(tmp_path)[name](value)
    assert not (tmp_path / "run").exists()
