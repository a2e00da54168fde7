"""The stats notebook runs top to bottom on a small stats directory and draws its plots."""

from __future__ import annotations

import re

import pytest

from golfsolve.stats.census import CensusSpec, run_census
from hostile_helpers import ROOT

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = ROOT / "notebooks" / "stats.ipynb"


def test_notebook_executes_and_shows_the_main_plots(tmp_path, monkeypatch):
    run = tmp_path / "run"
    run_census(run, CensusSpec(0, 30, ("easy", "classic", "strict"), 10), jobs=1, progress=False,
               command="golfsolve stats --count 30 --out run")
    monkeypatch.setenv("GOLFSOLVE_STATS_DIR", str(run))  # the kernel inherits the environment
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if o.output_type == "display_data" and "image/png" in o.get("data", {})]
    # win rate, cards left, app score, 9-deal match, solve time: the report's five figures
    assert len(images) == 5
    text = "\n".join(o.get("text", "") if o.output_type == "stream" else o.get("data", {}).get("text/plain", "")
                     for o in outputs)
    assert "30 deals (0..29), rules easy, classic, strict" in text
    assert "golfsolve stats --count 30 --out run" in text


def test_notebook_runs_on_one_rule_set_every_kth_deal_and_on_a_verdict_only_run(tmp_path):
    """was: a run of one rule set stopped at the paired cell (IndexError); a --stride run's
    9-deal matches were cut by deal number (no match, then "boolean value of NA is
    ambiguous"); a --fields winnable run's matches summed its unknown cards left as 0 (7
    matches, mean 0.0, all at par), where the report says they are not known. Both runs in
    one kernel: the notebook's cells, then again after pointing it at the second run."""
    from golfsolve.stats.report import report_data

    one, verdicts = tmp_path / "one", tmp_path / "verdicts"
    run_census(one, CensusSpec(5, 27, ("easy",), 9, stride=7), jobs=1, progress=False,
               command="golfsolve stats --start-number 5 --count 27 --stride 7 --rules easy --out one")
    run_census(verdicts, CensusSpec(0, 18, ("easy", "strict"), 9, fields="winnable"), jobs=1, progress=False,
               command="golfsolve stats --count 18 --rules easy,strict --fields winnable --out verdicts")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    point = nbformat.v4.new_code_cell(f"import os\nos.environ['GOLFSOLVE_STATS_DIR'] = {str(verdicts)!r}\n"
                                      "print('--- second run')")
    both = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(f"import os\nos.environ['GOLFSOLVE_STATS_DIR']"
                                                                     f" = {str(one)!r}"), *code, point,
                                           *[nbformat.v4.new_code_cell(c.source) for c in code]],
                                    metadata=nb.metadata)
    nbclient.NotebookClient(both, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in both.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "\n".join(o.get("text", "") if o.output_type == "stream" else o.get("data", {}).get("text/plain", "")
                     for o in outputs)
    first, second = text.split("--- second run")
    assert "one rule set: no pair to compare" in first
    nine = report_data(one)["nine_deal_match"]["easy"]
    assert nine["matches"] == 3  # 27 deals 7 apart: three matches, as the report counts them
    assert re.search(rf"easy +{nine['matches']:.1f} +{nine['mean']:.1f} +100.0", first), first
    assert "cards left and app score not known (a --fields winnable run) for: easy, strict" in second
    assert not re.search(r"(easy|strict) +\d+\.0 +0\.0 +100\.0", second), second  # no 9-deal match of unknowns
