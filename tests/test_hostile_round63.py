"""Round 63: the rewritten docs/fair.md and docs/grid.md checked against the tool. Where the
page said what a user would rightly expect and the tool did otherwise, the tool is fixed here;
the docs' own checks (tests/test_docs_claims.py) keep the tables true.
"""

from __future__ import annotations

import json

import pandas as pd

from golfsolve.grid.rules import GridRules
from golfsolve.grid.tournament import simulate


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
