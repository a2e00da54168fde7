"""Hostile-user sweep, round 6: the seams between newer features (finished games, partial
layouts, run folders). Each test is a bug a user met; fast, no test solves more than a few deals."""

from __future__ import annotations

import pytest

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


def test_resuming_a_fair_run_made_before_a_player_setting_existed_says_what_the_run_played_with(run_cli, tmp_path):
    """A fast-player run made before ``carry`` existed records no ``carry``; its player did not
    carry orders. was: '--resume: the run was played with player.carry = None', a value no
    player has"""
    from run_helpers import as_before_setting

    out = tmp_path / "f"
    r = run_cli(["fair-stats", "--count", "1", "--rules", "classic", "--player", "fast", "--jobs", "1",
                 "--out", str(out), "-q"])
    assert r.exit_code == 0, r.stderr
    as_before_setting(out, "carry")
    for flag in ("--resume", "--extend"):
        r = run_cli(["fair-stats", "--out", str(out), flag, "--count", "2", "-q"])
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert "player.carry = False" in r.stderr and "None" not in r.stderr and "older golfsolve" in r.stderr, \
            r.stderr


@pytest.mark.parametrize("endpoint, flag", [("hint", "fair"), ("solve", "verdict_only")])
def test_a_flag_sent_as_json_null_is_400_not_read_as_false(client, endpoint, flag):
    """was: {"fair": null} answered the peeking hint (null read as false), where "?fair" and
    fair="" are refused: a flag without its value is not a default"""
    r = client.post(f"/api/{endpoint}", json={"code": "GO1-E-AAAAAAB", flag: None})
    assert r.status_code == 400 and f"{flag} must be true or false, not null" in r.json()["error"], r.text
    # a JSON number is named as one, not as the text '1' (which is taken)
    r = client.post(f"/api/{endpoint}", json={"code": "GO1-E-AAAAAAB", flag: 1})
    assert r.status_code == 400 and f"{flag} must be true or false, not the number 1" in r.json()["error"], r.text


def _made(run_cli, *args: str) -> None:
    r = run_cli([*args, "-q"])
    assert r.exit_code == 0, r.stderr


@pytest.mark.parametrize("kind", ["fair-stats", "grid-simulate"])
def test_a_folder_where_a_runs_side_file_goes_is_refused_by_name_before_any_work(kind, run_cli, tmp_path):
    """The run's own text files (fair-stats' _fair.md, grid simulate's CSV exports) written over
    a directory of that name. was: the missing chunks played, then 'cannot go on: Is a directory
    (DIR/._fair.md.1234.tmp)', exit 1, naming a temporary file"""
    out = tmp_path / "run"
    if kind == "fair-stats":
        _made(run_cli, "fair-stats", "--count", "2", "--rules", "classic", "--player", "fast", "--jobs", "1",
              "--chunk-size", "1", "--out", str(out))
        side, again = out / "_fair.md", ["fair-stats", "--out", str(out), "--resume", "-q"]
    else:
        _made(run_cli, "grid", "simulate", "--players", "2", "--bots", "random,random", "--holes", "1",
              "--matches", "2", "--chunk-size", "1", "--format", "csv", "--out", str(out))
        side, again = out / "_holes.csv", ["grid", "simulate", "--out", str(out), "--resume", "-q"]
    side.unlink()
    side.mkdir()
    chunk = sorted(out.glob("chunk-*.parquet"))[-1]
    chunk.unlink()
    r = run_cli(again)
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert str(side) in r.stderr and ".tmp" not in r.stderr and "directory" in r.stderr, r.stderr
    assert not chunk.exists()  # refused before the missing chunk was played again
    side.rmdir()
    r = run_cli(again)
    assert r.exit_code == 0 and side.is_file() and chunk.is_file(), r.stderr
