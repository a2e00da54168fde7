"""The stats notebook runs top to bottom on a small stats directory and draws its plots."""

from __future__ import annotations

from pathlib import Path

import pytest

from golfsolve.stats.census import CensusSpec, run_census

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "stats.ipynb"


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
