"""Two golfsolve source trees side by side, for the A/B benchmarks (census_ab.py, solver_ab.py, fair_ab.py).

Each tree gets one long-lived worker process (the benchmark script itself with ``--worker``,
importing that tree's golfsolve), so compiling and start-up stay out of the figures. Work
goes out in turns, one request line to each worker in an order that alternates from turn
to turn, so that a change in the machine's load falls on both alike.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable, Iterable, Iterator

#: this tree: the one the scripts stand in
THIS = Path(__file__).resolve().parent.parent


def start(script: Path, tree: Path, extra: Iterable[str] = ()) -> subprocess.Popen:
    """A worker running ``script --worker`` (and ``extra``) on ``tree``'s golfsolve; it answers 'ready' first."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    p = subprocess.Popen([sys.executable, str(script), "--worker", *extra], stdin=subprocess.PIPE,
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


def chunk_arguments(doc: str, start: int, count: int, chunk: int) -> argparse.ArgumentParser:
    """The options of a script that hands both trees chunks of deals: the base tree, the
    deals (``--start``, ``--count``), deals per turn (``--chunk``), and the workers' ``--worker``."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("base", nargs="?", help="a golfsolve source tree to compare against")
    ap.add_argument("--start", type=int, default=start)
    ap.add_argument("--count", type=int, default=count)
    ap.add_argument("--chunk", type=int, default=chunk, help="deals per turn")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    return ap


def chunk_turns(ap: argparse.ArgumentParser, a: argparse.Namespace, script: Path,
                request: Callable[[int, int], str]) -> Iterator[dict[str, dict]]:
    """:func:`turns` over the chunks of ``a`` (:func:`chunk_arguments`), ``request(first, count)``
    the line of each, with a worker of ``script`` on the base tree and on this one."""
    if not a.base or not (Path(a.base) / "golfsolve").is_dir():
        ap.error("give the base version's source tree (a directory holding golfsolve/)")
    procs = {"base": start(script, Path(a.base).resolve()), "this": start(script, THIS)}
    firsts = range(a.start, a.start + a.count, a.chunk)
    return turns(procs, (request(first, min(a.chunk, a.start + a.count - first)) for first in firsts))
