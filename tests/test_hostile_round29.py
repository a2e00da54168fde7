"""Hostile sweep, round 29: the public Python library as a data scientist in a notebook uses
it: NumPy and pandas values for arguments, results compared, hashed, pickled and written as
JSON, one Solver shared between threads, a decisions table reused across calls, and lists
given as sets. Each test is a flaw found that way, with a line "was: ..." saying what
happened before its fix.
"""

from __future__ import annotations

import json
import pickle
import threading

import numpy as np
import pytest

from golfsolve.errors import InputError
from golfsolve.fair import PRESETS, PlayerSettings, pick, play
from golfsolve.solitaire.dealcode import format_code
from golfsolve.solitaire.engine import replay
from golfsolve.solitaire.layout import layout_from_code, layout_from_number
from golfsolve.solitaire.rules import CLASSIC, EASY
from golfsolve.solitaire.solver import Solver, line_wins, pack


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


def test_two_solves_or_games_of_one_question_are_equal_answers(solver):
    """was: Solution and FairGame compared their wall-clock seconds, so the same solve done
    twice, or the same fair game with the same seed, was unequal (OddsResult and FairHint
    already left the clock out)."""
    lay = layout_from_code("GO1-C-AAAAAAC")
    a, b = solver.solve(lay), Solver().solve(lay)
    assert a == b and hash(a) == hash(b) and pickle.loads(pickle.dumps(a)) == a
    g, h = play(lay, player="fast", seed=3, solver=solver), play(lay, player="fast", seed=3, solver=Solver())
    assert g == h and hash(g) == hash(h) and pickle.loads(pickle.dumps(g)) == g


def test_one_solver_shared_by_two_threads_gives_each_solve_its_own_answer():
    """was: two threads solving with one Solver wrote into each other's work tables and path,
    and answers came back with another deal's move line (about one in five, without a word)."""
    lays = [layout_from_number(n, CLASSIC, "C") for n in range(40)]
    ref = [Solver().solve(lay) for lay in lays]
    shared = Solver()
    wrong: list = []

    def work() -> None:
        for lay, want in zip(lays, ref):
            if shared.solve(lay) != want:
                wrong.append(lay.name)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong, wrong[:5]


def test_a_solver_pickles_as_its_settings():
    """was: pickling a Solver (a process pool's argument) wrote its 70 MB of scratch tables;
    now its settings, and the copy solves alike."""
    s = Solver(bounds=False, capacity=1000)
    data = pickle.dumps(s)
    copy = pickle.loads(data)
    assert len(data) < 1000 and (copy.bounds, copy.level_search) == (False, False)
    lay = layout_from_code("GO1-C-AAAAAAC")
    assert copy.solve(lay) == s.solve(lay)


def test_a_decisions_table_reused_under_other_rules_gives_their_own_game(solver):
    """was: play(decisions=d) looked decisions up by position and random state only, so a table
    filled by a game under Easy gave its moves to the same deal played under Classic: an
    AssertionError ('7', 'Must be one rank higher or lower') on deal 0, other games silently
    another game than a fresh table gives."""
    lay = layout_from_number(0, EASY)
    shared: dict = {}
    play(lay, EASY, "fast", 0, solver, decisions=shared)
    assert play(lay, CLASSIC, "fast", 0, solver, decisions=shared) == play(lay, CLASSIC, "fast", 0, solver)
    custom = PlayerSettings(samples=4, extra=0)
    assert play(lay, EASY, custom, 0, solver, decisions=shared) == play(lay, EASY, custom, 0, solver)


def test_pick_from_a_numpy_start_writes_its_answer_as_json(solver):
    """was: pick(start=np.int64(0)) kept the NumPy integer, and its answer's as_json() failed
    with "Object of type int64 is not JSON serializable"."""
    res = pick(EASY, "easy", 1, start=np.int64(0), games=4, max_deals=1, solver=solver)
    assert type(res.start) is int and json.loads(json.dumps(res.as_json()))["start"] == 0


def test_line_wins_reads_a_solutions_json_line_and_names_what_is_no_move(solver):
    """was: the text of a winning line, as a Solution's as_json() gives it ('d d 5 ...'), was
    read one character a move, its spaces too, and answered False; a list of numbers failed
    as "sequence item 0: expected str instance", None as "can only join an iterable"."""
    lay = layout_from_code("GO1-C-AAAAAAC")
    sol = solver.solve(lay)
    assert sol.outcome == "won"
    assert line_wins(pack(lay), CLASSIC, sol.as_json()["moves"]) is True
    assert line_wins(pack(lay), CLASSIC, list(sol.moves)) is True
    with pytest.raises(TypeError, match="each move must be a move word"):
        line_wins(pack(lay), CLASSIC, [1, 2])
    with pytest.raises(TypeError, match="moves must be a list of moves"):
        line_wins(pack(lay), CLASSIC, None)


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


def test_census_spec_takes_fields_in_any_case_as_solve_deals_does():
    """was: CensusSpec(fields='WINNABLE') was refused while solve_deals(fields='WINNABLE')
    took it."""
    from golfsolve.stats import CensusSpec

    assert CensusSpec(0, 5, ("easy",), fields=" WINNABLE").fields == "winnable"
    with pytest.raises(InputError, match="--fields must be one of"):
        CensusSpec(0, 5, ("easy",), fields="bogus")


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


def test_default_chunk_size_names_a_count_that_is_no_number():
    """was: default_chunk_size(None, 2) failed as "unsupported operand type(s) for /"."""
    from golfsolve.stats import default_chunk_size

    with pytest.raises(InputError, match="count must be a whole number"):
        default_chunk_size(None, 2)
    assert default_chunk_size(np.int64(100), np.int64(2)) == 5
    # the settings round trip through JSON is unchanged
    strong = PRESETS["strong"]
    assert PlayerSettings.from_dict(json.loads(json.dumps(strong.as_dict()))) == strong


def test_run_census_takes_its_engine_in_any_case(tmp_path):
    """was: engine="LOCAL" was refused as an unknown engine, where fields, rules and presets take any case."""
    from golfsolve.stats.census import CensusSpec, read_manifest, run_census

    res = run_census(tmp_path / "run", CensusSpec(0, 4, ("easy",), 4), engine=" LOCAL ", jobs=1, progress=False)
    assert res.complete and read_manifest(tmp_path / "run")["invocations"][-1]["engine"] == "local"
