"""Round 66: README.md, docs/stats.md and docs/serve.md checked against the tool. Where a page
said what a user would rightly expect and the tool did otherwise, the tool is fixed here; the
docs' own checks (tests/test_docs_claims.py) keep the classes of claim true.
"""

from __future__ import annotations

import pandas as pd

from hostile_helpers import one_line_exit_2


def _difficulty_run(run_cli, out, games: int = 1):
    r = run_cli(["stats", "--count", "2", "--rules", "classic", "--difficulty", "--difficulty-games", str(games),
                 "--out", str(out), "--jobs", "1", "-q"])
    assert r.exit_code == 0, r.stderr
    return out


def test_resume_with_difficulty_keeps_the_runs_games(run_cli, tmp_path):
    """stats.md: "`golfsolve stats --out DIR --resume` alone takes everything else from the
    manifest; options you do give must match it", and the games count "is recorded in the
    manifest, so --resume and --extend keep it".
    was: a run made with --difficulty-games 1, resumed or extended with `--difficulty` (which
    it has), was refused: "differs in difficulty_games 1 (here 8)", a count the user never gave."""
    out = _difficulty_run(run_cli, tmp_path / "run")
    (out / "chunk-0000000001.parquet").unlink()
    r = run_cli(["stats", "--out", str(out), "--resume", "--difficulty", "-q"])
    assert r.exit_code == 0, r.stderr
    r = run_cli(["stats", "--out", str(out), "--extend", "--count", "3", "--difficulty", "-q"])
    assert r.exit_code == 0, r.stderr
    df = pd.read_parquet(out)
    assert sorted(df["deal"]) == [0, 1, 2] and df["difficulty"].notna().all()
    assert '"difficulty_games": 1' in (out / "_manifest.json").read_text(encoding="utf-8")


def test_resume_naming_the_runs_games_alone_is_taken(run_cli, tmp_path):
    """Giving the run's own --difficulty-games again is an option that matches the run.
    was: `--resume --difficulty-games 1` on a run made with it exited 2, "--difficulty-games
    needs --difficulty", though the run has it; another count is still refused as a different run."""
    out = _difficulty_run(run_cli, tmp_path / "run")
    r = run_cli(["stats", "--out", str(out), "--resume", "--difficulty-games", "1"])
    assert r.exit_code == 0, r.stderr
    assert "nothing to do" in r.stdout
    one_line_exit_2(run_cli(["stats", "--out", str(out), "--resume", "--difficulty-games", "2"]),
                    "differs in difficulty_games 1 (here 2)")
    # a new run still needs the flag, and a run without difficulty columns still refuses them
    one_line_exit_2(run_cli(["stats", "--out", str(tmp_path / "new"), "--count", "1", "--difficulty-games", "2"]),
                    "--difficulty-games needs --difficulty")
    plain = tmp_path / "plain"
    assert run_cli(["stats", "--count", "1", "--rules", "classic", "--out", str(plain), "-q"]).exit_code == 0
    one_line_exit_2(run_cli(["stats", "--out", str(plain), "--resume", "--difficulty"]), "the run has none")


def test_a_manifest_whose_start_was_edited_is_named_as_edited(run_cli, tmp_path):
    """stats.md: "a manifest edited by hand afterwards is refused by --resume and by the reports
    (exit 2, naming the setting)".
    was: with the start (or the chunk size) edited, the run's own first chunk was refused as a
    stray, "chunk-0000000000.parquet does not belong to this run ...; move it out of the folder",
    naming no setting and advising to move a chunk that belongs to the run."""
    out = tmp_path / "run"
    assert run_cli(["stats", "--count", "2", "--rules", "easy", "--out", str(out), "--jobs", "1", "-q"]).exit_code == 0
    manifest = out / "_manifest.json"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('"start": 0,', '"start": 5,'), encoding="utf-8")
    for args in (["report", str(out)], ["stats", "--out", str(out), "--resume"]):
        one_line_exit_2(run_cli(args), "was made with start 0 where the manifest now has 5", "the manifest was edited")
    # a file that is no chunk of the run is still a stray
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('"start": 5,', '"start": 0,'), encoding="utf-8")
    (out / "chunk-0000000001-x.parquet").write_bytes((out / "chunk-0000000001.parquet").read_bytes())
    one_line_exit_2(run_cli(["report", str(out)]), "does not belong to this run", "move it out")


def test_a_new_run_asked_for_in_a_folder_that_holds_one_says_so_first(run_cli, tmp_path):
    """was: `golfsolve stats --out DIR` with no --count, on DIR holding a run, answered "--count N
    is required"; given --count, the same command then said the folder holds a run and to add
    --resume: the user was sent to fix what did not matter first."""
    out = tmp_path / "run"
    assert run_cli(["stats", "--count", "2", "--rules", "easy", "--out", str(out), "--jobs", "1", "-q"]).exit_code == 0
    for extra in ([], ["--count", "3"]):
        one_line_exit_2(run_cli(["stats", "--out", str(out), *extra]), "already holds a run (deals 0..1, rules easy",
                        "add --resume")
