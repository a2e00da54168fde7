"""Round 74's hostile sweep of ``golfsolve report``: what a careless or hostile user met that
the other report tests did not reach. Each test names what happened before its fix ("was: ...")."""

from __future__ import annotations

import os

from run_helpers import made_here


def test_the_fair_table_of_a_run_still_being_played_does_not_tell_to_resume_it(tmp_path):
    """was: '**The run is unfinished**: 1 of its 2 games ... are played; 'golfsolve fair-stats
    --out DIR --resume' finishes it' while the run was still playing, whose --resume is refused."""
    from golfsolve.stats.fairstats import load_fair_section
    from golfsolve.stats.runlock import lock_folder

    out = tmp_path / "fair"
    made_here("fair-stats", "--count", "2", "--rules", "easy", "--player", "fast", "--chunk-size", "1", "--jobs", "1",
              "--out", str(out), "-q")
    (out / "chunk-0000000001.parquet").unlink()
    assert "--resume' finishes it" in load_fair_section(out)["intro"]  # stopped: resuming finishes it
    fd = lock_folder(out)  # as the run still playing holds it
    try:
        intro = load_fair_section(out)["intro"]
    finally:
        os.close(fd)
    assert "another golfsolve command is playing it now" in intro and "--resume" not in intro


def test_a_report_without_matplotlib_says_what_to_install_and_writes_no_folder(finished, tmp_path, run_cli,
                                                                                 monkeypatch):
    """was: 'internal error: ImportError: No module named 'matplotlib'' (exit 1) at the first
    plot, its report folder left behind empty; the numbers alone (--json) still need none."""
    import sys

    from run_helpers import finished_grid_run

    grid = finished_grid_run(tmp_path / "grid")
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as where it is not installed
    for args in (["report", str(finished)], ["grid", "report", str(grid)]):
        out = tmp_path / f"rep-{args[0]}"
        r = run_cli([*args, "--out", str(out)])
        assert r.exit_code == 1 and r.stdout == "", r.stderr
        assert r.stderr.startswith("golfsolve: cannot go on: the package matplotlib") and "pip install matplotlib" \
            in r.stderr and "internal error" not in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
        assert not out.exists()
        assert run_cli([*args, "--json"]).exit_code == 0
