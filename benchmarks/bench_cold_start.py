"""The README's first line on a cold numba cache: wall time, CPU time and the first output.

    python benchmarks/bench_cold_start.py                          # this tree, once
    python benchmarks/bench_cold_start.py --reference /tmp/before --runs 2   # against another tree, alternating

Runs ``golfsolve stats --start GO1-E-AAAAAAA --count 2000 --out DIR && golfsolve report DIR``
(the README's first line after ``pip install``) as ``python -m golfsolve`` with the tree
first on ``PYTHONPATH``, from an empty folder, with ``NUMBA_CACHE_DIR`` pointing at a new
empty folder each time, so every kernel is compiled (or not) as on a fresh install. For each
run it reports the wall time, the CPU time of everything it started (user + system of the
children, worker processes included, from ``getrusage``), and the moment the first byte
reached stdout or stderr. With ``--reference`` the trees take turns, the first alternating
from run to run. The machine's load is printed: quote figures from a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import selectors
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TREE = Path(__file__).resolve().parent.parent
README_LINE = [["stats", "--start", "GO1-E-AAAAAAA", "--count", "2000", "--out", "{out}"], ["report", "{out}"]]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_cold(tree: Path, count: int) -> dict:
    """One cold run of the README line under ``tree``: wall, CPU, first output (seconds)."""
    with tempfile.TemporaryDirectory(prefix="golfsolve-cold-") as tmp:
        work = Path(tmp)
        cache = work / "numba-cache"
        cache.mkdir()
        env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(cache))
        out = str(work / "stats-run")
        cpu0 = _children_cpu()
        t0 = time.perf_counter()
        first = None
        for args in README_LINE:
            argv = [a.format(out=out) for a in args]
            if argv[0] == "stats":
                argv[argv.index("--count") + 1] = str(count)
            p = subprocess.Popen([sys.executable, "-m", "golfsolve", *argv], cwd=work, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            sel = selectors.DefaultSelector()
            sel.register(p.stdout, selectors.EVENT_READ)
            sel.register(p.stderr, selectors.EVENT_READ)
            open_streams = 2
            while open_streams:
                for key, _ in sel.select():
                    data = os.read(key.fileobj.fileno(), 65536)
                    if not data:
                        sel.unregister(key.fileobj)
                        open_streams -= 1
                    elif first is None:
                        first = time.perf_counter() - t0
            if p.wait() != 0:
                sys.exit(f"{' '.join(argv)} failed under {tree}")
        return {"wall": time.perf_counter() - t0, "cpu": _children_cpu() - cpu0, "first": first}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", type=Path, help="another golfsolve source tree to run in turn")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--count", type=int, default=2000, help="deals (the README's line: 2000)")
    a = ap.parse_args(argv)
    trees = {"this tree": TREE}
    if a.reference:
        if not (a.reference / "golfsolve").is_dir():
            ap.error("--reference must be a directory holding golfsolve/")
        trees["reference"] = a.reference.resolve()
    print(f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}; "
          f"{os.cpu_count()} cores; {a.count} deals")
    names = list(trees)
    results: dict[str, list[dict]] = {n: [] for n in names}
    for i in range(a.runs):
        for n in (names if i % 2 == 0 else names[::-1]):
            r = run_cold(trees[n], a.count)
            results[n].append(r)
            print(f"run {i + 1} {n}: wall {r['wall']:.1f} s, CPU {r['cpu']:.1f} s, first output at {r['first']:.1f} s",
                  flush=True)
    print(f"load after: {os.getloadavg()[0]:.2f}")
    print("| tree | wall s | CPU s (children included) | first output s |")
    print("|---|---:|---:|---:|")
    for n in names:
        rs = results[n]
        med = {k: sorted(r[k] for r in rs)[len(rs) // 2] for k in ("wall", "cpu", "first")}
        print(f"| {n} | {med['wall']:.1f} | {med['cpu']:.1f} | {med['first']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
