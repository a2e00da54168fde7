"""Bad input is refused before anything heavy loads: every command checks its arguments with
light modules (names of bots, rules and presets as plain data, the run folder's path checks)
and only then imports numba, pandas, matplotlib or pydantic. How fast that is lives in
``benchmarks/bench_errors.py``; this checks what a refusal imports, and that it is one line
with exit code 2, for every case of that benchmark."""

from __future__ import annotations

import json
import subprocess
import sys
from hostile_helpers import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_errors import CASES  # noqa: E402

#: what no refusal may load (numpy may: deal codes and grid rules are parsed with it)
HEAVY = ("numba", "llvmlite", "pandas", "pyarrow", "matplotlib", "pydantic", "dask", "scipy", "golfsolve.grid.bots")

# every case in one process, one after another (a process per case would cost a second each):
# the heavy modules loaded so far are noted after each, so the first case to load one is named
_RUN = """
import contextlib, io, json, sys
from golfsolve.cli.main import main
out = []
for args in json.loads(sys.argv[1]):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            main(args)
            code = 0
        except SystemExit as e:
            code = e.code
    out.append({"args": args, "code": code, "err": err.getvalue(),
                "heavy": sorted(m for m in json.loads(sys.argv[2]) if m in sys.modules)})
print(json.dumps(out))
"""


def test_every_bad_input_case_is_one_line_exit_2_and_loads_nothing_heavy(tmp_path):
    (tmp_path / "afile").write_text("not a folder\n")
    proc = subprocess.run([sys.executable, "-c", _RUN, json.dumps([args for _, args in CASES]), json.dumps(HEAVY)],
                          cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = json.loads(proc.stdout)
    assert len(results) == len(CASES) > 30
    for r in results:
        cmd = "golfsolve " + " ".join(r["args"])
        assert r["code"] == 2, (cmd, r)
        assert r["err"].startswith("golfsolve: ") and r["err"].count("\n") == 1, (cmd, r["err"])
        assert r["heavy"] == [], f"{cmd} loaded {r['heavy']} before refusing"



def test_report_checks_the_manifest_before_it_loads_the_fair_player(tmp_path):
    """A broken manifest is refused before ``golfsolve.stats.fairstats`` (the fair player's
    modules) or pandas load (was: fairstats loaded first, on every report)."""
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "_manifest.json").write_text("{")
    cases = [["report", "broken"], ["report", "broken", "--fair", "broken"]]
    heavy = HEAVY + ("golfsolve.stats.fairstats", "golfsolve.fair.player")
    proc = subprocess.run([sys.executable, "-c", _RUN, json.dumps(cases), json.dumps(heavy)],
                          cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for r in json.loads(proc.stdout):
        assert r["code"] == 2 and "broken/_manifest.json" in r["err"] and r["heavy"] == [], r
