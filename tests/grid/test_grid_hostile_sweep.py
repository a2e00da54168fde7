"""Round 74's hostile sweep of grid Golf: what a careless or hostile user met that the
other hostile tests (test_grid_hostile.py, test_grid_input.py) did not reach. Each test
names what happened before its fix ("was: ...")."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from run_helpers import finished_grid_run


def _unfinished(out: Path) -> Path:
    """A finished 3-match run of which the last chunk is lost: unfinished, 2 of 3 matches."""
    finished_grid_run(out)
    (out / "chunk-0000000002.parquet").unlink()
    return out


@pytest.fixture
def held(tmp_path):
    """An unfinished grid run whose folder another command holds (its lock taken here, as a
    run still playing holds it)."""
    from golfsolve.stats.runlock import lock_folder

    out = _unfinished(tmp_path / "run")
    fd = lock_folder(out)
    yield out
    os.close(fd)


def test_a_report_of_a_run_still_being_played_does_not_tell_to_resume_it(held, run_cli, tmp_path):
    """was: 'unfinished: 2 of 3 matches so far; the same command with --resume finishes it'
    (and so in report.md) while the run was still playing: the --resume it advised is refused
    ('is being written by another golfsolve command')."""
    r = run_cli(["grid", "report", str(held), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.stderr
    assert "another golfsolve command is playing it now" in r.stdout and "--resume" not in r.stdout
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "another golfsolve command is playing it now" in md and "with --resume finishes" not in md
    data = json.loads(run_cli(["grid", "report", str(held), "--json"]).stdout)
    assert data["being_written"] is True and data["planned_matches"] == 3


def test_a_report_of_a_run_stopped_for_good_still_tells_to_resume_it(tmp_path, run_cli):
    out = _unfinished(tmp_path / "run")
    r = run_cli(["grid", "report", str(out), "--json"])
    assert json.loads(r.stdout)["being_written"] is False
    r = run_cli(["grid", "report", str(out)])
    assert "the same command with --resume finishes it" in r.stdout


@pytest.mark.parametrize("command, option", [(["grid", "simulate", "--bots", "mc,random"], "--mc-samples"),
                                             (["stats", "--difficulty", "--count", "1"], "--difficulty-games")])
def test_a_count_option_says_its_whole_range_in_its_help_and_its_refusals(run_cli, tmp_path, command, option):
    """was: the help said '[x<=1000000]' (as if 0 and -5 were counts), and 0 was refused as
    'must be at least 1, not 0' but 2000000 as 'not in the range x<=1000000': one option, two
    ranges, unlike every other count option ('[1<=x<=1000000]')."""
    r = run_cli([command[0], *(command[1:2] if command[0] == "grid" else []), "--help"])
    # the option's own entry, not a mention of it in another's help
    assert "[1<=x<=1000000]" in r.stdout.split(f"\n  {option} ", 1)[1].split("\n  -", 1)[0]
    for n in ("0", "-5", "2000000"):
        r = run_cli([*command, option, n, "--out", str(tmp_path / "x")])
        assert r.exit_code == 2 and f"{n} is not in the range 1<=x<=1000000" in r.stderr, r.stderr


def test_the_terminal_summary_keeps_its_columns_for_long_bot_names(tmp_path, run_cli):
    """was: 'heuristic-fit' and 'mc-greedy:2' (past 10 characters) and an interval one digit
    shorter than the others pushed the rest of their lines out of the columns."""
    out = finished_grid_run(tmp_path / "run", bots=("heuristic-fit", "random"), matches=4)
    r = run_cli(["grid", "report", str(out), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.stderr
    text = r.stdout.splitlines()
    rows = [ln for ln in text if "strokes/hole" in ln]
    assert len(rows) == 2
    for word in ("strokes/hole", "/match", "wins"):
        assert len({ln.index(word) for ln in rows}) == 1, rows
    settings = text[text.index("bots' settings:") + 1:][:2]
    assert len({ln.index(ln.split()[1]) for ln in settings}) == 1, settings  # where each class name starts
