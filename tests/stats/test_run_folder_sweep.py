"""Round 76's hostile sweep of the run folders: what a hostile user met that the other
run-folder tests (test_run_folder_guards.py, test_damaged_run_folders.py) did not reach.
Each test names what happened before its fix ("was: ...")."""

from __future__ import annotations

import json
import os

import pytest
from run_helpers import CommandForks, finished_grid_run

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs FIFOs and locks")


@pytest.fixture(scope="module")
def golfsolve():
    """``golfsolve ARGS`` in a new process (a hang ends it by SIGALRM after ``timeout`` s)."""
    forks = CommandForks()
    yield forks.completed
    forks.close()


def one_line(r, *words: str) -> None:
    """Exit 2, one ``golfsolve:`` line on stderr holding every word."""
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith("golfsolve: "), (r.returncode, r.stderr)
    for w in words:
        assert w in lines[0], lines[0]


def test_a_lock_file_that_is_a_fifo_is_refused_and_never_waited_on(golfsolve, run, tmp_path):
    """was: 'grid report' waited for ever on a FIFO named .golfsolve.lock (opened to see whether
    a command holds it), and 'stats --resume' took the FIFO as its lock, then failed to write
    its pid there: 'cannot go on: Invalid argument: 3 of 3 chunks are saved in DIR; run the
    same command with --resume to finish' (exit 1), a --resume that could never finish."""
    grid = finished_grid_run(tmp_path / "grid")
    for folder in (run, grid):
        (folder / ".golfsolve.lock").unlink(missing_ok=True)
        os.mkfifo(folder / ".golfsolve.lock")
    r = golfsolve("grid", "report", str(grid), "--json", timeout=60)
    assert r.returncode == 0 and json.loads(r.stdout)["being_written"] is False, (r.returncode, r.stderr)
    one_line(golfsolve("stats", "--out", str(run), "--resume", "-q", timeout=60),
             f"cannot lock {run / '.golfsolve.lock'}: it is not a file; remove it")
    one_line(golfsolve("grid", "simulate", "--out", str(grid), "--resume", "-q", timeout=60), "it is not a file")


def test_resume_removes_only_the_temporary_files_golfsolve_left(golfsolve, run):
    """was: every hidden '.*.tmp' in the run folder was removed by the next command (a user's
    '.notes.tmp' too), and a folder under such a name stopped every --resume with 'cannot go
    on: Is a directory writing DIR/.x.tmp ...; run the same command with --resume to finish'
    (exit 1)."""
    (run / ".notes.tmp").write_text("mine")
    (run / ".chunk-0000000002.parquet.123.tmp").mkdir()
    left = run / ".chunk-0000000002.parquet.999.tmp"  # a chunk half written by a killed run
    left.write_bytes(b"PAR1 half")
    r = golfsolve("stats", "--out", str(run), "--resume", "-q")
    assert r.returncode == 0, r.stderr
    assert not left.exists() and (run / ".notes.tmp").read_text() == "mine"
    assert (run / ".chunk-0000000002.parquet.123.tmp").is_dir()


def test_a_fair_run_whose_player_was_edited_in_the_manifest_is_named_as_edited(golfsolve, tmp_path):
    """was: '--resume: the run was played with player.samples = 9, the fast player has 8', naming
    the edited value as what the run was played with (its chunks were played with 8)."""
    from run_helpers import made_here

    from run_helpers import as_played_with

    out = tmp_path / "fair"
    made_here("fair-stats", "--count", "2", "--rules", "classic", "--player", "fast", "--chunk-size", "1",
              "--jobs", "1", "--out", str(out), "-q")
    # was: '...; start a new run in another --out' where --player fast, the run's own, goes on
    one_line(golfsolve("fair-stats", "--out", str(out), "--resume", "--player", "strong", "-q"),
             "the run was played with player.samples = 8, the strong player has 16; give --player fast (the run's) "
             "or leave it out")
    as_played_with(out, "race_z", 2.0)  # a fast preset changed since: no --player plays as the run did
    one_line(golfsolve("fair-stats", "--out", str(out), "--resume", "-q"),
             "the run was played with player.race_z = 2.0, the fast player has 1.5; start a new run in another --out")
    as_played_with(out, "race_z", 1.5)
    mp = out / "_manifest.json"
    m = json.loads(mp.read_text())
    m["params"]["player"]["samples"] = 9
    mp.write_text(json.dumps(m))
    for extra in ([], ["--player", "fast"]):
        one_line(golfsolve("fair-stats", "--out", str(out), "--resume", "-q", *extra),
                 "was made with player.samples 8 where the manifest now has 9", "the manifest was edited")


def test_a_difficulty_run_whose_rating_player_changed_since_says_to_start_a_new_run(run_cli, tmp_path, monkeypatch):
    """was: '--resume: DIR holds a different run (...); this command differs in
    difficulty_player.samples 8 (here 9); repeat the run's options, use --extend to add deals
    or rule sets, ...': no option sets the rating player, so every command the advice led to
    was refused again. And a rating player edited in the manifest was named as the run's."""
    import dataclasses

    from golfsolve.fair import PRESETS
    from golfsolve.stats import census
    from hostile_helpers import one_line_exit_2
    from run_helpers import made_here

    out = tmp_path / "rated"
    made_here("stats", "--count", "1", "--rules", "classic", "--difficulty", "--difficulty-games", "1", "--jobs", "1",
              "--out", str(out), "-q")
    with monkeypatch.context() as m:  # this golfsolve's fast preset is not the one the run was rated with
        m.setattr(census, "difficulty_player", lambda: dataclasses.replace(PRESETS["fast"], samples=9))
        for extra in (["--resume"], ["--extend", "--count", "2"]):
            one_line_exit_2(run_cli(["stats", "--out", str(out), *extra, "-q"]),
                            f"{extra[0]}: the run rated its deals with difficulty_player.samples = 8",
                            "start a new run in another --out")
    mp = out / "_manifest.json"
    m = json.loads(mp.read_text())
    m["params"]["difficulty_player"]["samples"] = 9
    mp.write_text(json.dumps(m))
    one_line_exit_2(run_cli(["stats", "--out", str(out), "--resume", "-q"]),
                    "was made with difficulty_player.samples 8 where the manifest now has 9", "the manifest was edited")


def test_a_report_folder_that_cannot_be_written_is_refused_before_the_run_is_read(run_cli, run, tmp_path, monkeypatch):
    """was: the whole run read first, then '--out FILE exists and is not a directory' (4 s for a
    stats run of a million chunks, 6 s for a grid run of a million matches)."""
    from golfsolve.stats import census, gridruns
    from hostile_helpers import one_line_exit_2

    read = []
    monkeypatch.setattr(census, "load_results", lambda *a, **k: read.append(a))
    monkeypatch.setattr(gridruns, "load_tournament", lambda *a, **k: read.append(a))
    grid = finished_grid_run(tmp_path / "grid")
    (tmp_path / "file").write_text("")
    for folder in (run, grid):
        (folder / "_report").write_text("")
    for command in (["report", str(run)], ["grid", "report", str(grid)]):
        one_line_exit_2(run_cli([*command, "--out", str(tmp_path / "file")]), "--out", "is not a directory")
        one_line_exit_2(run_cli(command), "the default --out", "is not a directory")
        one_line_exit_2(run_cli([*command, "--out", str(run)]), "holds a golfsolve run, not a report")
    assert read == []
