"""Grid simulate and study run folders: extended, resumed, continued with other options, edited by
hand, of older layouts; their CSV exports."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from hostile_helpers import one_line_error
from run_helpers import (
    as_before_setting,
    finished_grid_run,
    made_here,
    one_hole_grid_rules,
)

from golfsolve.errors import InputError
from golfsolve.grid.rules import GridRules
from golfsolve.grid.tournament import simulate


def _edit_bots(run, bots: str) -> None:
    mf = run / "_manifest.json"
    m = json.loads(mf.read_text())
    m["params"]["bots"] = bots
    m["complete"] = False
    mf.write_text(json.dumps(m))


@pytest.fixture(scope="module")
def grid_run(tmp_path_factory):
    from golfsolve.grid.rules import GridRules as _R  # noqa: F401 - the kernels load once per module
    from golfsolve.stats.gridruns import GridSpec, run_grid_simulate

    out = tmp_path_factory.mktemp("r15") / "run"
    run_grid_simulate(out, GridSpec(GridRules(players=3, holes=2), ("greedy", "random", "greedy"), 4, 5,
                                    chunk_size=2), command="golfsolve grid simulate")
    return out


def test_resume_on_a_manifest_whose_bots_were_respaced_says_it_was_edited(grid_run, tmp_path, run_cli):
    """A user (or their editor) wrote the run's manifest back with 'greedy, random,greedy' and ran
    `grid simulate --out DIR --resume`, giving no --bots: the answer was 'this command differs in
    bots greedy, random,greedy (here greedy,random,greedy)', a difference the user never made
    (the command took the run's own bots). Now it says the manifest was edited and what
    golfsolve wrote there."""
    import shutil

    run = tmp_path / "run"
    shutil.copytree(grid_run, run)
    _edit_bots(run, "greedy, random,greedy")
    r = run_cli(["grid", "simulate", "--out", str(run), "--resume", "-q"])
    assert r.exit_code == 2, r
    assert "differs in" not in r.stderr and "was edited by hand" in r.stderr, r.stderr
    assert '"greedy, random,greedy" (golfsolve writes "greedy,random,greedy")' in r.stderr, r.stderr


def test_resume_on_a_manifest_whose_bots_were_changed_names_the_chunks_bots(grid_run, tmp_path, run_cli):
    """The manifest's bots edited to 'mc:100,random,greedy' after the chunks were played with
    greedy, then `grid simulate --bots greedy,random,greedy --out DIR --resume` (the bots the run
    was made with): it said the command 'differs in bots mc:100,random,greedy (here
    greedy,random,greedy)', as if the user had changed the bots. Now it says the chunks were
    made with greedy,random,greedy where the manifest now has mc:100: the manifest was edited."""
    import shutil

    run = tmp_path / "run"
    shutil.copytree(grid_run, run)
    _edit_bots(run, "mc:100,random,greedy")
    r = run_cli(["grid", "simulate", "--bots", "greedy,random,greedy", "--holes", "2", "--out", str(run),
                 "--resume", "-q"])
    assert r.exit_code == 2, r
    assert "differs in" not in r.stderr, r.stderr
    assert ("was made with bots greedy,random,greedy where the manifest now has mc:100,random,greedy: "
            "the manifest was edited") in r.stderr, r.stderr


@pytest.fixture(scope="module")
def mc_run(tmp_path_factory):
    """A finished two-match run of mc (with --mc-samples 2) and random."""
    from golfsolve.cli.main import main

    out = tmp_path_factory.mktemp("r30") / "run"
    with pytest.raises(SystemExit) as e:
        main(["grid", "simulate", "--bots", "mc,random", "--mc-samples", "2", "--holes", "1", "--matches", "2",
              "--out", str(out), "-q"])
    assert e.value.code in (0, None)
    return out


@pytest.mark.parametrize("flag, bots", [("--extend", "mc:2,random"), ("--resume", "greedy,random")])
def test_continuing_an_mc_run_with_other_bots_names_the_bots(mc_run, run_cli, flag, bots):
    """was: "golfsolve: samples sets the sample count of mc and mc-greedy bots named without one
    ..., and the bots mc:2,random include none; leave samples out or add such a bot": the
    run's --mc-samples, which this command did not give, was blamed under a name no option
    has, and could not be left out."""
    r = run_cli(["grid", "simulate", "--out", str(mc_run), flag, "--matches", "3", "--bots", bots, "-q"])
    line = one_line_error(r)
    assert f"{flag}: " in line and "the bots mc,random with --mc-samples 2" in line and bots in line
    assert "leave samples out" not in line


def test_continuing_a_run_at_another_player_count_names_the_run_s_bots(mc_run, run_cli):
    """was: "golfsolve: 2 bots for 3 players", naming neither the run's bots nor that the
    run, not this command, brings them."""
    r = run_cli(["grid", "simulate", "--out", str(mc_run), "--extend", "--matches", "3", "--players", "3", "-q"])
    line = one_line_error(r)
    assert "its own bots, mc,random: 2 players, not 3" in line


def test_export_csv_refuses_the_folder_of_another_tournament(tmp_path):
    """export_csv(t, DIR) wrote t's _holes.csv and _matches.csv into the run folder of another
    tournament (other bots, or the same bots over fewer matches) without a word: the folder's
    exports then described matches it never played, and a later --resume kept them; into a folder
    not made yet it failed as FileNotFoundError on a temporary file's name"""
    import shutil

    from golfsolve.grid.tournament import simulate
    from golfsolve.stats.gridruns import export_csv, load_tournament

    run = finished_grid_run(tmp_path / "run")
    for t, says in [(simulate(one_hole_grid_rules(), ["greedy", "heuristic"], 3, 0), "3 matches of greedy,heuristic"),
                    (simulate(one_hole_grid_rules(), ["random", "greedy"], 2, 0), "2 matches of random,greedy")]:
        with pytest.raises(InputError, match=f"^{run} holds another tournament \\(3 matches of random,greedy, seed 0: "
                                             f".*\\), not this one of {says}"):
            export_csv(t, run)
        assert not list(run.glob("_*.csv"))
    # the run's own tournament goes beside its chunks, as the command writes it
    own = load_tournament(run)
    assert [p.name for p in export_csv(own, run)] == ["_holes.csv", "_matches.csv"]
    # a new folder is made; a file where the folder goes is named
    assert (tmp_path / "new" / "deeper" / "_matches.csv") in export_csv(own, tmp_path / "new" / "deeper")
    with pytest.raises(InputError, match="exists and is not a directory"):
        export_csv(own, run / "_holes.csv")
    with pytest.raises(TypeError, match="^out must be a directory's path"):
        export_csv(own, 3)
    shutil.rmtree(tmp_path / "new")


def test_extending_a_run_with_csv_exports_refreshes_them(run_cli, tmp_path):
    # was: --extend (or --resume) without --format csv left _matches.csv and _holes.csv as they
    # were: an export of 2 matches beside a run of 3, which nothing said
    import pandas as pd

    out = str(tmp_path / "run")
    base = ["grid", "simulate", "--bots", "random,random", "--holes", "1", "--seed", "3", "--out", out, "-q"]
    assert run_cli(base + ["--matches", "2", "--format", "csv"]).exit_code == 0
    assert len(pd.read_csv(tmp_path / "run" / "_matches.csv")) == 2 * 2  # a row per player
    r = run_cli(["grid", "simulate", "--out", out, "--extend", "--matches", "3", "-q"])
    assert r.exit_code == 0, r.stderr
    matches, holes = pd.read_csv(tmp_path / "run" / "_matches.csv"), pd.read_csv(tmp_path / "run" / "_holes.csv")
    assert len(matches) == 3 * 2 and len(holes) == 3 * 2
    assert len(pd.read_parquet(out)) == len(holes)


def test_a_grid_run_of_many_chunks_describes_its_table_once(monkeypatch, tmp_path):
    # was: 'grid simulate --matches 1000000 --chunk-size 1' spent a minute and 1.3 GB before its
    # first match, writing the table out as a dict once per chunk (a million dicts)
    from golfsolve.grid.rules import GridRules
    from golfsolve.stats.gridruns import GRID, run_grid_simulate

    calls = []
    to_dict = GridRules.to_dict
    monkeypatch.setattr(GridRules, "to_dict", lambda self: calls.append(1) or to_dict(self))
    rules, bots = GRID.table(None, None, None, None, 1, None, "random,random")
    spec = GRID.complete({"rules": rules, "bots": bots, "matches": 12, "seed": 0, "samples": None,
                          "chunk_size": 1}, jobs=1)
    run_grid_simulate(tmp_path / "run", spec, progress=False)
    assert len(calls) < 12, len(calls)


@pytest.mark.parametrize("again", [["--rules", "default"], ["--players", "2"], ["--openers", "2"]])
def test_extend_keeps_the_table_options_not_given_again(run_cli, tmp_path, again):
    # was: refused, "differs in table.holes 1 (here 9)", for a user who had given --rules default
    # again and no --holes at all: one table option given made the others the defaults, not the run's
    import pandas as pd

    out = str(tmp_path / "run")
    r = run_cli(["grid", "simulate", "--bots", "random,random", "--holes", "1", "--grid", "4", "--matches", "2",
                 "--out", out, "-q"])
    assert r.exit_code == 0, r.stderr
    r = run_cli(["grid", "simulate", "--out", out, "--extend", "--matches", "3", "-q", *again])
    assert r.exit_code == 0, r.stderr
    df = pd.read_parquet(out)
    assert df["match"].nunique() == 3 and df["hole"].nunique() == 1


def _old_danish_run(out, openers: int):
    """A two-player danish run as golfsolve wrote it before ``openers_exact`` existed."""
    made_here("grid", "simulate", "--rules", "danish", "--openers", str(openers), "--bots", "random,random",
              "--holes", "1", "--matches", "2", "--jobs", "1", "--out", str(out), "-q")
    if "openers_exact" in json.loads((out / "_manifest.json").read_text())["params"]["table"]:
        as_before_setting(out, "openers_exact", key="table", chunks=True)
    return out


def test_an_old_danish_run_with_no_openers_goes_on_when_its_table_is_named(run_cli, tmp_path):
    """was: extending it while repeating any table option (``--players 2``) was refused with
    "grid rule 'openers-up-to' changes nothing with 0 openers" (the run's own rules were read
    back through ``danish+openers-up-to``), ``--rules danish --openers 0`` was refused as
    another table (``table.openers_exact``), and the run's command and report named it
    ``danish+openers-up-to``, a spec golfsolve refuses with ``--openers 0``."""
    out = _old_danish_run(tmp_path / "run", 0)
    r = run_cli(["grid", "simulate", "--out", str(out), "--extend", "--matches", "3", "--players", "2", "-q"])
    assert r.exit_code == 0, r.stderr
    r = run_cli(["grid", "simulate", "--out", str(out), "--extend", "--matches", "4", "--rules", "danish",
                 "--openers", "0", "-q"])
    assert r.exit_code == 0, r.stderr
    data = json.loads(run_cli(["grid", "report", str(out), "--json"]).stdout)
    assert data["meta"]["rules_spec"] == "danish" and data["meta"]["matches"] == 4
    commands = [i["command"] for i in json.loads((out / "_manifest.json").read_text())["invocations"]]
    assert all("openers-up-to" not in c for c in commands), commands
    # a new danish run with 0 openers is that same table: the same key as the old run's
    made_here("grid", "simulate", "--rules", "danish", "--openers", "0", "--bots", "random,random",
              "--holes", "1", "--matches", "2", "--jobs", "1", "--out", str(tmp_path / "new"), "-q")
    assert json.loads((tmp_path / "new" / "_manifest.json").read_text())["params"]["table"] == \
        json.loads((out / "_manifest.json").read_text())["params"]["table"]
    # with two openers the old run let a player stop early: still another table than danish's
    two = _old_danish_run(tmp_path / "two", 2)
    r = run_cli(["grid", "simulate", "--out", str(two), "--extend", "--matches", "3", "--rules", "danish", "-q"])
    assert r.exit_code == 2 and "openers_exact" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = run_cli(["grid", "simulate", "--out", str(two), "--extend", "--matches", "3", "--players", "2", "-q"])
    assert r.exit_code == 0, r.stderr
    assert json.loads(run_cli(["grid", "report", str(two), "--json"]).stdout)["meta"]["rules_spec"] == \
        "danish+openers-up-to"


def test_a_grid_run_whose_manifest_lost_its_seating_is_called_edited_not_a_rotation_run(run_cli, tmp_path):
    """was: ``--extend`` on a run whose manifest had ``params.seating`` deleted by hand said it
    "was made with the 'rotation' seating", which it never was; its chunks record the scheme
    they were played with, and now say the manifest was edited, as ``grid report`` does."""
    out = tmp_path / "run"
    args = ["grid", "simulate", "--players", "2", "--bots", "greedy,random", "--holes", "1", "-q", "--out", str(out)]
    assert run_cli(args + ["--matches", "2"]).exit_code == 0
    path = out / "_manifest.json"
    m = json.loads(path.read_text())
    del m["params"]["seating"]
    path.write_text(json.dumps(m))
    r = run_cli(["grid", "simulate", "--out", str(out), "--extend", "--matches", "3", "-q"])
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "the manifest was edited" in r.stderr and "rotation" not in r.stderr


def _old_layout_run(out):
    """A run folder of the first layout (holes.parquet, matches.parquet, meta.json), which
    recorded no seating: its bots were seated by rotation."""
    t = simulate(GridRules(players=2, holes=1), ["greedy", "random"], 2, 0, scheme="rotation")
    out.mkdir()
    t.holes.drop(columns=["before", "before_bot"]).to_parquet(out / "holes.parquet")
    t.matches.to_parquet(out / "matches.parquet")
    (out / "meta.json").write_text(json.dumps({"rules": {"players": 2, "holes": 1}, "bots": ["greedy", "random"],
                                               "seed": 0}))


def test_grid_report_of_a_rotation_seated_run_warns_on_the_terminal(run_cli, tmp_path):
    """grid.md's table of older run folders: a rotation-seated run is "read, with a warning".
    was: only report.md and report.html said so; the summary `grid report` prints, all a user
    at the terminal reads, gave the strokes and differences without a word of the confound."""
    out = tmp_path / "old"
    _old_layout_run(out)
    r = run_cli(["grid", "report", str(out), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.stderr
    warning = [line for line in r.stdout.splitlines() if line.startswith("warning: ")]
    assert len(warning) == 1 and "same neighbour" in warning[0] and "confounded" in warning[0]
    assert "confounded" in (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    # --json prints the numbers only, the seating among them
    data = json.loads(run_cli(["grid", "report", str(out), "--json"]).stdout)
    assert data["meta"]["seating"] == "rotation"


def test_grid_report_of_a_cyclic_run_has_no_warning(run_cli, tmp_path):
    """The warning names the old scheme only: a run of this version is seated evenly."""
    out = tmp_path / "run"
    r = run_cli(["grid", "simulate", "--bots", "greedy,random", "--holes", "1", "--matches", "2", "--out", str(out), "-q"])
    assert r.exit_code == 0, r.stderr
    r = run_cli(["grid", "report", str(out)])
    assert r.exit_code == 0 and "warning" not in r.stdout
    assert set(pd.read_parquet(out)["before_bot"]) == {"greedy", "random"}


def test_a_study_whose_manifest_was_edited_counts_its_matches_in_the_right_number(run_cli, tmp_path):
    """was: 'a study of 2 tables of 1 matches covers matches 0..1, not 0..2'"""
    import json

    out = tmp_path / "study"
    r = run_cli(["grid", "study", "--out", str(out), "--sets", "base", "--matches", "1", "--strong", "greedy", "-q"])
    assert r.exit_code == 0, r.stderr
    m = json.loads((out / "_manifest.json").read_text())
    m["count"] = 3
    (out / "_manifest.json").write_text(json.dumps(m))
    line = one_line_error(run_cli(["grid", "report", str(out), "--json"]))
    # the blocks, which still cover matches 0..1, are checked against the count first
    assert "the blocks do not cover matches 0..2" in line and "1 matches" not in line, line


def test_grid_simulate_resumed_with_other_matches_names_matches_not_count(run_cli, tmp_path):
    """was: '--resume: DIR holds a different run (...); this command differs in count 2 (here 3)',
    the run key's internal name for what the user gave as --matches"""
    out = tmp_path / "run"
    base = ["grid", "simulate", "--out", str(out), "--bots", "greedy,random", "--holes", "1", "-q"]
    assert run_cli([*base, "--matches", "2"]).exit_code == 0
    r = run_cli([*base, "--matches", "3", "--resume"])
    assert r.exit_code == 2 and r.stdout == "", r.stderr
    assert "; this command differs in matches 2 (here 3); repeat the run's options" in r.stderr, r.stderr
    assert "count" not in r.stderr


@pytest.mark.parametrize("again, differs", [
    (["--matches", "2"], "matches 1 (here 2)"),
    (["--sets", "base,putt"], "sets base (here base,putt)"),
    (["--matches", "2", "--seed", "3"], "matches 1 (here 2), seed 0 (here 3)"),
])
def test_grid_study_resumed_with_other_options_names_only_the_options(run_cli, tmp_path, again, differs):
    """was: 'this command differs in count 2 (here 4), matches 1 (here 2)': the study's matches
    in all, which follow from --matches and --sets, under the run key's internal name"""
    out = tmp_path / "study"
    base = ["grid", "study", "--out", str(out), "--strong", "greedy", "-q"]
    assert run_cli([*base, "--sets", "base", "--matches", "1"]).exit_code == 0
    r = run_cli([*base, "--resume", *again])
    assert r.exit_code == 2 and r.stdout == "", r.stderr
    assert f"; this command differs in {differs}; repeat the run's options" in r.stderr, r.stderr
    assert "count" not in r.stderr
