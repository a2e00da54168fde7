"""The library's run functions (run_census, run_fair_stats, run_grid_simulate, run_study, the reports
and readers) given what their commands refuse: refused before any folder is made; what they take
recorded as the command records it."""

from __future__ import annotations

import json

import numpy as np
import pytest
from run_helpers import finished_grid_run, one_hole_grid_rules

from golfsolve.errors import InputError
from golfsolve.fair import PRESETS, PlayerSettings


def test_a_library_grid_run_refuses_samples_no_bot_takes_before_making_its_folder(tmp_path):
    """run_grid_simulate(out, GridSpec(rules, ('random', 'greedy'), 2, samples=5)) wrote the
    folder and its manifest, then the first chunk refused the samples: a run folder of a run that
    can never be played was left behind (the command refuses --mc-samples without an mc bot at
    once)"""
    from golfsolve.stats.gridruns import GridSpec, run_grid_simulate

    out = tmp_path / "run"
    with pytest.raises(InputError, match="^samples sets the sample count of mc and mc-greedy bots .* include none"):
        run_grid_simulate(out, GridSpec(one_hole_grid_rules(), ("random", "greedy"), 2, samples=5), progress=False)
    assert not out.exists()


@pytest.mark.parametrize("kind", ["simulate", "study"])
@pytest.mark.parametrize("spec", [None, "random,greedy"])
def test_a_library_grid_run_names_a_spec_that_is_none(kind, spec, tmp_path):
    """run_grid_simulate(out, None) failed as "'NoneType' object has no attribute 'seating'" and
    run_study(out, None) as "'NoneType' object has no attribute 'items'", where the solitaire runs
    say "a golfsolve stats run's spec must be a CensusSpec" """
    from golfsolve.stats.gridruns import run_grid_simulate
    from golfsolve.stats.gridstudy import run_study

    run, name = (run_grid_simulate, "GridSpec") if kind == "simulate" else (run_study, "StudySpec")
    with pytest.raises(TypeError, match=f"^a golfsolve grid {kind} run's spec must be a {name}, not "):
        run(tmp_path / "run", spec)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("switch", ["no", "False", 0.0])
def test_reading_an_unfinished_run_takes_allow_incomplete_as_true_or_false(switch, tmp_path):
    """load_results(DIR, allow_incomplete="no") and load_fair_results(DIR, allow_incomplete="no")
    read an unfinished run as if it were whole: "no" is a true value to Python, so the refusal the
    caller asked for never came"""
    from golfsolve.stats.census import load_results
    from golfsolve.stats.fairstats import load_fair_results
    from golfsolve.stats.gridruns import GRID

    run = finished_grid_run(tmp_path / "run")
    (run / "chunk-0000000002.parquet").unlink()
    for load in (load_results, load_fair_results, lambda out, allow_incomplete: GRID.load(out, allow_incomplete)):
        with pytest.raises(TypeError, match="^allow_incomplete must be True or False"):
            load(run, allow_incomplete=switch)
    with pytest.raises(InputError, match="only 2 of 3 chunks are done"):
        GRID.load(run, allow_incomplete=np.False_)
    assert len(GRID.load(run, allow_incomplete=True)[2]) == 2


@pytest.mark.parametrize("call", ["load_results(5)", "load_fair_results(5)", "load_tournament(0)", "load_study(5)",
                                  "is_study(5)", "compare_fair_runs(5, 6)", "run_status(3)", "read_manifest(None)"])
def test_the_run_readers_name_a_folder_that_is_no_path(call):
    """load_results(5), load_tournament(0), compare_fair_runs(5, 6) and the others failed as
    "expected str, bytes or os.PathLike object, not int", naming no argument (run_census(5, ...)
    says "out must be a directory's path")"""
    from golfsolve.stats.census import load_results, read_manifest, run_status  # noqa: F401
    from golfsolve.stats.fairstats import compare_fair_runs, load_fair_results  # noqa: F401
    from golfsolve.stats.gridruns import load_tournament  # noqa: F401
    from golfsolve.stats.gridstudy import is_study, load_study  # noqa: F401

    with pytest.raises(TypeError, match="^out must be a directory's path, e.g. 'runs/easy' or a Path, not "):
        eval(call)


def test_a_library_study_writes_its_option_sets_as_the_command_does(tmp_path, run_cli):
    """run_study(DIR, StudySpec(sets=('Holes-1',), ...)) recorded and reported a set named
    'Holes-1' (' putt ' kept its spaces), so 'grid study --out DIR --resume --sets holes-1' was
    refused as another study ("differs in sets Holes-1 (here holes-1)"); a set that was None
    failed as "'NoneType' object has no attribute 'strip'" """
    from golfsolve.stats.gridstudy import StudySpec, option_rules, run_study

    spec = StudySpec(sets=("Holes-1",), strong="Greedy", matches=1, chunk_size=1)
    assert spec.sets == ("holes-1",) and StudySpec(sets=(" PUTT ",), strong="greedy").sets == ("putt",)
    run_study(tmp_path / "study", spec, progress=False)
    r = run_cli(["grid", "study", "--out", str(tmp_path / "study"), "--resume", "--sets", "holes-1", "--strong",
                 "greedy", "--matches", "1", "--json"])
    assert r.exit_code == 0, r.stderr
    assert '"sets": [\n    "holes-1"\n  ]' in r.stdout
    for call in (lambda: StudySpec(sets=(None,)), lambda: option_rules(None)):
        with pytest.raises(TypeError, match="^an option set must be named by text"):
            call()


@pytest.mark.parametrize("kind", ["simulate", "study", "census"])
def test_a_library_run_takes_a_numpy_worker_count_and_records_it(kind, tmp_path):
    """run_grid_simulate(DIR, spec, jobs=np.int64(1)) (a count computed with NumPy) played every
    match, then failed as "Object of type int64 is not JSON serializable" writing the manifest:
    the run was left marked unfinished with no record of the work (run_study and run_census the
    same), though check_jobs had taken the count"""
    import json

    from golfsolve.stats.census import CensusSpec, run_census
    from golfsolve.stats.gridruns import GridSpec, run_grid_simulate
    from golfsolve.stats.gridstudy import StudySpec, run_study

    out = tmp_path / "run"
    if kind == "simulate":
        run_grid_simulate(out, GridSpec(one_hole_grid_rules(), ("random", "greedy"), 2, chunk_size=1), jobs=np.int64(1),
                          progress=False)
    elif kind == "study":
        run_study(out, StudySpec(sets=("holes-1",), strong="greedy", matches=1, chunk_size=1), jobs=np.int64(1),
                  progress=False)
    else:
        run_census(out, CensusSpec(0, 1, ("easy",), chunk_size=1), jobs=np.uint8(1), progress=False)
    m = json.loads((out / "_manifest.json").read_text())
    assert m["complete"] is True and len(m["invocations"]) == 1 and m["invocations"][0]["status"] == "complete"


def test_census_spec_takes_fields_in_any_case_as_solve_deals_does():
    """was: CensusSpec(fields='WINNABLE') was refused while solve_deals(fields='WINNABLE')
    took it."""
    from golfsolve.stats import CensusSpec

    assert CensusSpec(0, 5, ("easy",), fields=" WINNABLE").fields == "winnable"
    with pytest.raises(InputError, match="--fields must be one of"):
        CensusSpec(0, 5, ("easy",), fields="bogus")


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


def _runs(tmp_path):
    from golfsolve.grid.rules import GridRules
    from golfsolve.stats.census import CensusSpec, run_census
    from golfsolve.stats.fairstats import FairSpec, run_fair_stats
    from golfsolve.stats.gridruns import GridSpec, run_grid_simulate
    from golfsolve.stats.gridstudy import StudySpec, run_study

    return {"stats": lambda **kw: run_census(tmp_path / "c", CensusSpec(0, 2, ("easy",)), progress=False, **kw),
            "fair": lambda **kw: run_fair_stats(tmp_path / "f", FairSpec(0, 2, ("easy",)), progress=False, **kw),
            "grid": lambda **kw: run_grid_simulate(tmp_path / "g", GridSpec(GridRules(players=2, grid=6),
                                                                            ("heuristic", "random"), 2),
                                                   progress=False, **kw),
            "study": lambda **kw: run_study(tmp_path / "s", StudySpec(), progress=False, **kw)}


@pytest.mark.parametrize("kind, kw, error, words", [
    ("stats", {"resume": True, "extend": True}, InputError, "give --resume or --extend, not both"),
    ("fair", {"resume": True, "extend": True}, InputError, "give --resume or --extend, not both"),
    ("grid", {"resume": True, "extend": True}, InputError, "give --resume or --extend, not both"),
    ("stats", {"resume": "no"}, TypeError, "resume must be True or False"),
    ("grid", {"extend": "no"}, TypeError, "extend must be True or False"),
    ("study", {"resume": 1}, TypeError, "resume must be True or False"),
    ("stats", {"jobs": 0}, InputError, "--jobs must be at least 1, not 0"),
    ("fair", {"jobs": 257}, InputError, "--jobs must be from 1 to 256, not 257"),
    ("grid", {"jobs": 2.5}, InputError, "--jobs must be a whole number, not 2.5"),
    ("study", {"jobs": "2"}, InputError, "--jobs must be a whole number"),
])
def test_a_library_run_refuses_what_its_command_refuses_before_making_its_folder(tmp_path, kind, kw, error, words):
    """was: run_census(resume=True, extend=True) and resume="no" were taken (the commands
    refuse --resume --extend), jobs=0 ran on every core, jobs=2.5 or 257 made the run folder
    and then failed in the process pool, jobs="2" was a TypeError about '<'"""
    with pytest.raises(error, match=words):
        _runs(tmp_path)[kind](**kw)
    assert list(tmp_path.iterdir()) == []


def _stats_helpers():
    from golfsolve.stats.census import parse_rules_list
    from golfsolve.stats.gridruns import export_csv
    from golfsolve.stats.gridstudy import parse_sets
    from golfsolve.stats.report import mcnemar

    return parse_rules_list, parse_sets, export_csv, mcnemar


@pytest.mark.parametrize("call, error, words", [
    # was: AttributeError "'int' object has no attribute 'strip'"
    (lambda h, tmp: h[1](5), TypeError, "sets must be the option sets' names as text"),
    # was: TypeError 'can only join an iterable'
    (lambda h, tmp: h[0](None), TypeError, "rules must be rule set names"),
    (lambda h, tmp: h[0](5), TypeError, "rules must be rule set names"),
    # was: TypeError 'sequence item 1: expected str instance, int found'
    (lambda h, tmp: h[0](["easy", 5]), TypeError, "each rule set must be named by text"),
    # was: AttributeError "'NoneType' object has no attribute 'holes'"
    (lambda h, tmp: h[2](None, tmp), TypeError, "t must be a Tournament"),
    # was: ValueError 'max() arg is an empty sequence', and 1.5 "'float' object cannot be interpreted as an integer"
    (lambda h, tmp: h[3](-1, 2), Exception, "b must be from 0 to"),
    (lambda h, tmp: h[3](1.5, 2), Exception, "b must be a whole number, not 1.5"),
    (lambda h, tmp: h[3](1, float("nan")), Exception, "c must be a whole number, not nan"),
])
def test_the_stats_helpers_name_an_argument_that_is_none_of_theirs(tmp_path, call, error, words):
    import re

    from golfsolve.errors import InputError

    with pytest.raises(error, match="^" + re.escape(words)) as e:
        call(_stats_helpers(), tmp_path)
    assert isinstance(e.value, (InputError, TypeError))
    assert not list(tmp_path.iterdir())


def test_the_stats_helpers_still_take_what_they_took():
    import numpy as np

    parse_rules_list, parse_sets, _, mcnemar = _stats_helpers()
    assert parse_rules_list(("easy", "classic")) == parse_rules_list("easy,classic") == ("easy", "classic")
    assert parse_sets(None) is None and parse_sets("Base,putt") == ("base", "putt")
    assert mcnemar(np.int64(10), 0) == mcnemar(10, 0)


def _library_runs(out):
    from golfsolve.grid.rules import parse_rules
    from golfsolve.stats.census import CensusSpec, run_census
    from golfsolve.stats.fairstats import FairSpec, run_fair_stats
    from golfsolve.stats.gridruns import GridSpec, run_grid_simulate

    grid = GridSpec(parse_rules("default", players=2, holes=1), ("random", "random"), 1)
    return {
        "stats": lambda **kw: run_census(out, CensusSpec(0, 1, ("easy",)), jobs=1, **kw),
        "fair-stats": lambda **kw: run_fair_stats(out, FairSpec(0, 1, ("classic",), player="fast"), **kw),
        "grid": lambda **kw: run_grid_simulate(out, grid, **kw),
    }


@pytest.mark.parametrize("kind", ["stats", "fair-stats", "grid"])
@pytest.mark.parametrize("kw, words", [
    # was: the new run folder made, then the refusal; a second call: 'already holds a run'
    ({"progress": "no"}, "progress must be True, False or None"),
    # was: taken, and a manifest written that every later command refused: 'field command:
    # Input should be a valid string; repair or remove the file'
    ({"command": 5}, "command must be the command line the manifest records"),
])
def test_a_library_run_checks_progress_and_command_before_making_its_folder(tmp_path, kind, kw, words):
    out = tmp_path / "run"
    with pytest.raises(TypeError, match="^" + words):
        _library_runs(out)[kind](**kw)
    assert not out.exists()


def test_a_library_run_takes_a_numpy_bool_for_progress(tmp_path):
    """was: np.False_ refused under NumPy 2 ('progress must be True, False or None ..., not
    bool False'), where every switch of the library takes it"""
    import numpy as np

    assert _library_runs(tmp_path / "run")["stats"](progress=np.False_).complete


def _grid_report_call(tmp_path, **kw):
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.tournament import simulate
    from golfsolve.stats.gridreport import write_report

    t = kw.pop("t", None) or simulate(parse_rules("default", players=2, holes=1), ["random", "random"], 1, 0)
    return write_report(t, tmp_path / "rep", **kw)


@pytest.mark.parametrize("kw, error, words", [
    # was: AttributeError "'NoneType' object has no attribute 'tally'", after making the folder
    ({"t": 5}, TypeError, "t must be a Tournament or Tally"),
    # was: AttributeError "'int' object has no attribute 'splitlines'", after making the folder
    ({"command": 5}, TypeError, "command must be the command line the report shows"),
    # was: taken
    ({"planned": -1}, Exception, "planned must be from 1 to"),
    # was: "'int' object is not callable" after the first plot
    ({"drawn": 5}, TypeError, "drawn must be a function"),
])
def test_the_grid_report_checks_its_arguments_before_making_its_folder(tmp_path, kw, error, words):
    with pytest.raises(error, match="^" + words):
        _grid_report_call(tmp_path, **kw)
    assert not (tmp_path / "rep").exists()


@pytest.mark.parametrize("kw, words", [
    ({"df": 5}, "df must be the run's table"),  # was: AttributeError "'int' object has no attribute 'empty'"
    ({"drawn": 5}, "drawn must be a function"),  # was: "'int' object is not callable", after making the folder
])
def test_the_stats_report_checks_its_arguments_before_making_its_folder(run_cli, tmp_path, kw, words):
    from golfsolve.stats.report import write_report

    run = tmp_path / "run"
    assert run_cli(["stats", "--count", "1", "--rules", "easy", "-j", "1", "--out", str(run), "-q"]).exit_code == 0
    with pytest.raises(TypeError, match="^" + words):
        write_report(run, tmp_path / "rep", **kw)
    assert not (tmp_path / "rep").exists()


@pytest.mark.parametrize("kind", ["stats", "fair-stats", "grid"])
@pytest.mark.parametrize("out", [0, 5, b"run"])
def test_a_library_run_takes_a_folders_path_not_a_file_descriptor(tmp_path, kind, out):
    """was: run_census(5, ...) 'InputError: --out '5': Bad file descriptor' (os.stat(5) looks
    up file descriptor 5), and run_census(0, ...) a TypeError from deep in pathlib"""
    with pytest.raises(TypeError, match="^out must be a directory's path"):
        _library_runs(out)[kind]()
