"""Fair-stats runs: started, resumed and extended, also from runs made before a player setting existed,
and the command each records."""

from __future__ import annotations

import pytest


def test_resuming_a_fair_run_made_before_a_player_setting_existed_says_what_the_run_played_with(run_cli, tmp_path):
    """A fast-player run made before ``carry`` existed records no ``carry``; its player did not
    carry orders. was: '--resume: the run was played with player.carry = None', a value no
    player has"""
    from run_helpers import as_before_setting

    out = tmp_path / "f"
    r = run_cli(["fair-stats", "--count", "1", "--rules", "classic", "--player", "fast", "--jobs", "1",
                 "--out", str(out), "-q"])
    assert r.exit_code == 0, r.stderr
    as_before_setting(out, "carry", chunks=True)
    for flag in ("--resume", "--extend"):
        r = run_cli(["fair-stats", "--out", str(out), flag, "--count", "2", "-q"])
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert "player.carry = False" in r.stderr and "None" not in r.stderr and "older golfsolve" in r.stderr, \
            r.stderr


def test_a_fair_run_whose_games_an_older_golfsolve_recorded_otherwise_is_not_continued(run_cli, tmp_path):
    """A run made before a lost game's moves were cut back to the move that lost it (its
    lost_at and lost_on_draw named the last move before the referee's check) records no
    ``lost_at``; continued, it would mix the two in one table. was: continued (before the
    marker), then "differs in lost_at ...; repeat the run's options", which no option helps"""
    from run_helpers import as_before_setting

    out = tmp_path / "f"
    r = run_cli(["fair-stats", "--count", "2", "--chunk-size", "1", "--rules", "classic", "--player", "fast",
                 "--jobs", "1", "--out", str(out), "-q"])
    assert r.exit_code == 0, r.stderr
    as_before_setting(out, "lost_at", key=None, chunks=True)
    (out / "chunk-0000000001.parquet").unlink()
    for flag in ("--resume", "--extend"):
        r = run_cli(["fair-stats", "--out", str(out), flag, "--count", "3", "-q"])
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert f"{flag}: " in r.stderr and "an older golfsolve made" in r.stderr and "(lost_at)" in r.stderr, r.stderr
        assert "repeat the run's options" not in r.stderr
    assert sorted(p.name for p in out.glob("chunk-*")) == ["chunk-0000000000.parquet"]  # nothing written


def test_a_fair_run_started_by_code_records_a_command_that_runs(run_cli, tmp_path):
    """was: 'golfsolve fair-stats --start GO1-E-AAAAAAB --start-number 1 ...' in the manifest
    and _fair.md's "Command:", which fails as given ('give --start CODE or --start-number N,
    not both'); stats records the start once"""
    import json
    import shlex

    out = tmp_path / "f"
    r = run_cli(["fair-stats", "--start", "GO1-C-AAAAAAB", "--count", "1", "--rules", "classic", "--player", "fast",
                 "-j", "1", "--out", str(out), "-q"])
    assert r.exit_code == 0, r.stderr
    command = json.loads((out / "_manifest.json").read_text())["command"]
    assert "--start-number 1" in command and "--start " not in command, command
    assert command in (out / "_fair.md").read_text(encoding="utf-8")
    args = shlex.split(command)[1:]
    args[args.index("--out") + 1] = str(tmp_path / "again")
    r = run_cli(args)
    assert r.exit_code == 0, r.stderr


@pytest.mark.parametrize("kind", ["fair-stats", "stats"])
def test_a_run_made_before_a_player_setting_existed_resumes_when_its_player_is_the_same(run_cli, tmp_path, kind):
    """A fast-player run made before ``hopeless`` existed (its player had 0, the fast preset's
    value) records none. was: '--resume: ... differs in player.hopeless (here 0, the run has
    none)', and the same for --extend and a --difficulty census, though nothing differs"""
    run = tmp_path / "run"
    if kind == "fair-stats":
        args = ["fair-stats", "--count", "2", "--rules", "classic", "--player", "fast"]
        key, again = "player", ["fair-stats", "--out", str(run)]
    else:
        args = ["stats", "--count", "2", "--rules", "classic", "--difficulty", "--difficulty-games", "1"]
        key, again = "difficulty_player", ["stats", "--out", str(run), "-j", "1"]
    r = run_cli([*args, "--chunk-size", "1", "-j", "1", "--out", str(run), "-q"])
    assert r.exit_code == 0, r.stderr
    from run_helpers import as_before_setting

    as_before_setting(run, "hopeless", key, chunks=True)
    (run / "chunk-0000000001.parquet").unlink()
    r = run_cli([*again, "--resume", "-q"])
    assert r.exit_code == 0 and (run / "chunk-0000000001.parquet").is_file(), r.stderr
    r = run_cli([*again, "--extend", "--count", "3", "-q"])
    assert r.exit_code == 0 and len(list(run.glob("chunk-*.parquet"))) == 3, r.stderr
    # the old chunks and the new ones are read as one run
    if kind == "fair-stats":
        other = str(tmp_path / "other")
        assert run_cli(["stats", "--count", "1", "--rules", "classic", "-j", "1", "--out", other, "-q"]).exit_code == 0
        r = run_cli(["report", other, "--fair", str(run), "--json"])
    else:
        r = run_cli(["report", str(run), "--json"])
    assert r.exit_code == 0, r.stderr
