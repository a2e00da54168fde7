"""What the run-folder tests (test_run_hostile.py, test_run_fuzz.py) start from."""

from __future__ import annotations

from pathlib import Path

import pytest


def made_here(*args: str) -> None:
    """Run ``golfsolve ARGS`` in this process: for a run folder the tests start from, not a
    command under test (a new process costs about 2 s of CPU for imports and kernels)."""
    from golfsolve.cli.main import main

    with pytest.raises(SystemExit) as e:
        main(list(args))
    assert e.value.code == 0


def finished_stats_run(out: Path) -> Path:
    """A finished stats run in ``out``: deals 0..5 under easy and classic, chunks of 2 deals."""
    made_here("stats", "--count", "6", "--rules", "easy,classic", "--chunk-size", "2", "--jobs", "1", "--out", str(out),
              "-q")
    return out
