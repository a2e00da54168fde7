"""Hostile-user sweep, round 8: each test is a flaw a user met from outside (the commands and
the public library). Fast: no test here solves more than a few deals."""

from __future__ import annotations

import pytest
from hostile_helpers import one_line_error as _one_line_error, run_python as _python


@pytest.mark.parametrize("path", ["0", "1", "True", "b'deal.txt'"])
def test_read_layout_file_takes_a_path_not_a_file_descriptor(path):
    """was: read_layout_file(0) read all of stdin as a layout and closed it (open() takes a
    whole number as a file descriptor), then failed in pathlib ('expected str, bytes or
    os.PathLike object, not int'); read_layout_file(1) closed stdout"""
    r = _python("import sys\n"
                "from golfsolve.solitaire.layout import read_layout_file\n"
                f"try:\n    read_layout_file({path})\n"
                "except TypeError as e:\n    print('refused:', e)\n"
                "print('stdin still open:', not sys.stdin.closed and sys.stdin.read() == 'rules: easy\\n')\n",
                stdin=b"rules: easy\n")
    assert r.returncode == 0, r.stderr
    assert "refused: path must be a layout file's path" in r.stdout.decode(), r.stdout
    assert "stdin still open: True" in r.stdout.decode(), r.stdout


def test_read_layout_file_checks_its_rules_before_reading(tmp_path):
    from golfsolve.solitaire.layout import read_layout_file

    with pytest.raises(TypeError, match="^rules must be a Rules or None"):
        read_layout_file(tmp_path / "absent.txt", rules="classic")  # not "cannot read layout file"


@pytest.mark.parametrize("again, differs", [
    # was: 'start 0 (here 5), first_deal 5 (here none), stride 3 (here 1)': the run starts at 5
    (["--stride", "1", "--start-number", "5"], "stride 3 (here 1)"),
    # was: 'first_deal 5 (here 6)', a name the user never typed
    (["--stride", "3", "--start-number", "6"], "start 5 (here 6)"),
    # was: a dozen fields, 'difficulty_player.samples (here 8, the run has none), ...'
    (["--stride", "3", "--start-number", "5", "--difficulty"], "difficulty_games (here 8, the run has none)"),
])
def test_a_strided_stats_run_resumed_with_other_options_names_them_as_given(run_cli, tmp_path, again, differs):
    out = str(tmp_path / "run")
    r = run_cli(["stats", "--start-number", "5", "--stride", "3", "--count", "2", "--rules", "easy", "-j", "1",
                 "--out", out, "-q"])
    assert r.exit_code == 0, r.stderr
    line = _one_line_error(run_cli(["stats", "--out", out, "--resume", "--count", "2", *again]))
    assert f"; this command differs in {differs}; repeat the run's options" in line, line
    assert "first_deal" not in line and "difficulty_player" not in line


def test_extending_a_run_of_consecutive_deals_with_a_stride_names_only_the_stride(run_cli, tmp_path):
    """was: 'in first_deal (here 0, the run has none), stride (here 3, the run has 1)'"""
    out = str(tmp_path / "run")
    assert run_cli(["stats", "--count", "2", "--rules", "easy", "-j", "1", "--out", out, "-q"]).exit_code == 0
    line = _one_line_error(run_cli(["stats", "--out", out, "--extend", "--count", "4", "--stride", "3"]))
    assert " in stride (here 3, the run has 1); keep its start" in line, line


@pytest.mark.parametrize("kind", ["stats", "grid"])
def test_a_report_of_a_run_with_a_folder_for_a_chunk_says_to_move_it_out_first(run_cli, tmp_path, kind):
    """was: 'chunk DIR/chunk-....parquet is damaged: it is not a file; repair it with
    'golfsolve stats --out DIR --resume'', and that --resume then refused: 'is not a file, so
    the chunk cannot be written there; move it out of the folder'"""
    out = tmp_path / "run"
    if kind == "stats":
        made = ["stats", "--count", "2", "--chunk-size", "1", "--rules", "easy", "-j", "1", "--out", str(out), "-q"]
        report = ["report", str(out), "--json"]
    else:
        made = ["grid", "simulate", "--bots", "random,random", "--holes", "1", "--matches", "2", "--chunk-size", "1",
                "--out", str(out), "-q"]
        report = ["grid", "report", str(out), "--json"]
    assert run_cli(made).exit_code == 0
    chunk = sorted(out.glob("chunk-*.parquet"))[-1]
    chunk.unlink()
    chunk.mkdir()
    line = _one_line_error(run_cli(report))
    assert f"chunk {chunk} is not a file; move it out of the folder, then repair the run with " in line, line
    chunk.rmdir()  # as told: then the repair works
    import shlex

    resume = shlex.split(line.split("repair the run with ")[1])[0]
    assert run_cli(shlex.split(resume)[1:]).exit_code == 0 and chunk.is_file()


def test_a_strided_run_of_one_deal_says_one_deal(run_cli, tmp_path):
    """was: 'win rate: easy 100.0% (1 deals every 2nd from 5)', and '(1 deals, every 2nd
    from 5, ...)' in a refused --resume"""
    out = str(tmp_path / "run")
    r = run_cli(["stats", "--start-number", "5", "--stride", "2", "--count", "1", "--rules", "easy", "-j", "1",
                 "--out", out, "-q"])
    assert r.exit_code == 0 and "(1 deal every 2nd from 5)" in r.stdout, r.stdout
    line = _one_line_error(run_cli(["stats", "--out", out, "--resume", "--count", "1", "--stride", "3"]))
    assert "holds a different run (1 deal, every 2nd from 5, rules easy" in line, line


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


def test_pick_refuses_a_count_its_max_deals_cannot_reach_before_examining_a_deal(run_cli, monkeypatch):
    """was: the scan of every deal --max-deals allows, then 'fewer than --count 2: the scan
    stopped at --max-deals 1', exit 1: a question with no answer, known before any work"""
    from golfsolve.fair import difficulty

    def no_work(*args, **kwargs):
        raise AssertionError("a deal was examined")

    monkeypatch.setattr(difficulty, "_scan", no_work)
    line = _one_line_error(run_cli(["pick", "--difficulty", "easy", "--count", "3", "--max-deals", "2", "--games", "1",
                                    "-q"]))
    assert line == ("golfsolve: --count 3 is more than --max-deals 2: a scan of at most 2 deals cannot find 3; "
                    "raise --max-deals or lower --count"), line
    from golfsolve.errors import InputError
    from golfsolve.solitaire.rules import EASY

    with pytest.raises(InputError, match="^--count 2 is more than --max-deals 1"):
        difficulty.pick(EASY, "easy", 2, games=1, max_deals=1)


def test_solve_says_one_state_in_the_singular(run_cli):
    """was: 'searched 1 states in 0.0 ms' (a node limit of 1, or a cleared table)"""
    r = run_cli(["solve", "GO1-E-AAAAAAB", "--node-limit", "1"])
    assert r.exit_code == 1 and r.stdout.splitlines()[-1].startswith("searched 1 state in "), r.stdout
    r = run_cli(["solve", "GO1-E-AAAAAAB", "--node-limit", "2"])
    assert r.stdout.splitlines()[-1].startswith("searched 2 states in "), r.stdout


def test_a_study_whose_manifest_was_edited_counts_its_matches_in_the_right_number(run_cli, tmp_path):
    """was: 'a study of 2 tables of 1 matches covers matches 0..1, not 0..2'"""
    import json

    out = tmp_path / "study"
    r = run_cli(["grid", "study", "--out", str(out), "--sets", "base", "--matches", "1", "--strong", "greedy", "-q"])
    assert r.exit_code == 0, r.stderr
    m = json.loads((out / "_manifest.json").read_text())
    m["count"] = 3
    (out / "_manifest.json").write_text(json.dumps(m))
    line = _one_line_error(run_cli(["grid", "report", str(out), "--json"]))
    # since round 33 the blocks, which still cover matches 0..1, are checked against the count first
    assert "the blocks do not cover matches 0..2" in line and "1 matches" not in line, line


def _answers_calls():
    from golfsolve.solitaire.answers import deal_answer, play_answer, replay_answer, solve_answer
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


@pytest.mark.parametrize("kind", ["stats", "grid"])
def test_a_refused_default_report_folder_is_not_called_the_users_out(run_cli, tmp_path, kind):
    """was: 'golfsolve: --out DIR/_report exists and is not a directory; choose a directory'
    from 'golfsolve report DIR', which gave no --out"""
    out = tmp_path / "run"
    if kind == "stats":
        made = ["stats", "--count", "1", "--rules", "easy", "-j", "1", "--out", str(out), "-q"]
        report = ["report", str(out)]
    else:
        made = ["grid", "simulate", "--bots", "random,random", "--holes", "1", "--matches", "1", "--out", str(out),
                "-q"]
        report = ["grid", "report", str(out)]
    assert run_cli(made).exit_code == 0
    (out / "_report").write_text("mine")
    line = _one_line_error(run_cli(report))
    assert line == f"golfsolve: the default --out {out / '_report'} exists and is not a directory; choose a directory"
    # the same folder given as --out is named as the user's
    line = _one_line_error(run_cli([*report, "--out", str(out / "_report")]))
    assert line.startswith(f"golfsolve: --out {out / '_report'} exists"), line
