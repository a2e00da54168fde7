"""A first run says it compiles, compiles once for a whole batch, and later runs say nothing.

The real commands in fresh processes, with ``NUMBA_CACHE_DIR`` at an empty folder.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from golfsolve.solitaire import compiling, native
from golfsolve.solitaire.rules import get_rules

NOTICE = re.compile(r"^compiling the solver's kernels once, about \d+ s; later runs start at once$")


def _golfsolve(args: list[str], cache, cwd) -> subprocess.CompletedProcess:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-m", "golfsolve", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)


def test_a_batch_compiles_once_in_the_parent_and_says_so_first(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    run = _golfsolve(["stats", "--start", "GO1-E-AAAAAAA", "--count", "4", "--jobs", "2", "--chunk-size", "2",
                      "--out", str(tmp_path / "run")], cache, tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    # said once, before anything else, though two workers solved (they found the kernels compiled)
    assert NOTICE.match(lines[0]), run.stderr
    assert sum(bool(NOTICE.match(x)) for x in lines) == 1
    assert "  1/" not in run.stderr  # the progress line is for a terminal only

    # every kernel a single solve needs is in the cache now: nothing to say
    solve = _golfsolve(["solve", "GO1-C-AAAAAAB", "--json"], cache, tmp_path)
    assert solve.returncode == 0 and solve.stderr == ""
    assert json.loads(solve.stdout)["outcome"] == "lost"


def test_kernels_are_only_the_ones_the_rules_need():
    assert compiling.kernels_for([get_rules("easy")]) == ("hunt",)
    assert compiling.kernels_for([get_rules("strict")]) == ("search",)
    assert compiling.kernels_for([get_rules("easy")], level_search=True) == ("search",)
    both = compiling.kernels_for([get_rules(r) for r in ("easy", "classic", "strict")], given=True)
    assert both == ("hunt", "search", "line_wins")


def test_the_notice_hears_of_compiling_before_it_starts_and_never_when_ready(monkeypatch):
    # numba's JIT path (the ahead-of-time module absent and not to be built); the native
    # path's notice is tests/test_native.py's
    heard = []

    class Recorder(compiling.Notice):
        def start(self, kernels, seconds):
            heard.append(("start", tuple(kernels), seconds > 0))

        def kernel(self, name, i, n):
            heard.append(("kernel", name, i, n))

        def done(self, seconds):
            heard.append(("done",))

    monkeypatch.setattr(compiling, "_ready", set())
    monkeypatch.setattr(compiling, "_functions", {})
    monkeypatch.setattr(native, "load", lambda: None)
    monkeypatch.setattr(native, "buildable", lambda: False)
    monkeypatch.setattr(compiling, "_cached", lambda name: name != "line_wins")  # as if only it were missing
    compiling.set_notice(Recorder())
    try:
        compiling.ensure_compiled(("hunt", "line_wins"))
        compiling.ensure_compiled(("hunt", "line_wins"))  # ready now: silent
    finally:
        compiling.set_notice(None)
    assert heard == [("start", ("line_wins",), True), ("kernel", "line_wins", 1, 1), ("done",)]
    from golfsolve.solitaire import kernel

    assert compiling.function("hunt") is kernel.hunt and compiling.function("take_rows") is kernel.take_rows
