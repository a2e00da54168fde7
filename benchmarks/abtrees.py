"""Two golfsolve source trees side by side, for the A/B benchmarks (census_ab.py, solver_ab.py).

Each tree gets one long-lived worker process (the benchmark script itself with ``--worker``,
importing that tree's golfsolve), so compiling and start-up stay out of the figures. Work
goes out in turns, one request line to each worker in an order that alternates from turn
to turn, so that a change in the machine's load falls on both alike.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterable, Iterator


def start(script: Path, tree: Path) -> subprocess.Popen:
    """A worker running ``script --worker`` on ``tree``'s golfsolve; it answers 'ready' first."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    p = subprocess.Popen([sys.executable, str(script), "--worker"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, env=env, cwd=tree)
    if p.stdout.readline().strip() != "ready":
        sys.exit(f"the worker for {tree} did not start")
    return p


def turns(procs: dict[str, subprocess.Popen], requests: Iterable[str]) -> Iterator[dict[str, dict]]:
    """Each request sent to ``procs['base']`` and ``procs['this']`` in alternating order;
    yields both JSON answers of each turn. The workers are closed at the end."""
    for i, line in enumerate(requests):
        got = {}
        for k in (["base", "this"] if i % 2 == 0 else ["this", "base"]):
            procs[k].stdin.write(line + "\n")
            procs[k].stdin.flush()
            got[k] = json.loads(procs[k].stdout.readline())
        yield got
    for p in procs.values():
        p.stdin.close()
        p.wait()


def differences(got: dict[str, dict]) -> int:
    """How many of a turn's answers differ between the trees (each one printed)."""
    n = 0
    for x, y in zip(got["base"]["answers"], got["this"]["answers"]):
        if x != y:
            n += 1
            print("differs:", x, y)
    return n
