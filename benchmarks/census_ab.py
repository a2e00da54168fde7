"""The census's CPU time under two versions of golfsolve, side by side, and whether they agree.

    git archive main | tar -x -C /tmp/golfsolve-main        # the version to compare against
    nice -n 10 python benchmarks/census_ab.py /tmp/golfsolve-main --count 2000
    nice -n 10 python benchmarks/census_ab.py /tmp/golfsolve-main --count 2000 --fields winnable

Starts one long-lived worker process per version (each imports golfsolve from its own
tree and loads its kernels before anything is timed), then hands both the same chunks of
deals in turn, the order alternating from chunk to chunk, and has each solve them with
``golfsolve.stats.census.solve_chunk`` (Easy, Classic and Strict, as ``golfsolve stats``
does). It sums each rule set's ``cpu_seconds`` (the solves' CPU time, as bench_stats.py
projects from) and prints the ratio, base over this tree: above 1, this tree is faster.
Every row's verdict and fewest cards left must agree; any difference is printed and
the script exits 1.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from abtrees import chunk_arguments, chunk_turns, differences
RULES = ["easy", "classic", "strict"]


def worker() -> None:
    """Solve the chunks named on stdin, one JSON line of CPU times and answers each."""
    import pandas as pd

    from golfsolve.stats import census

    census._warm(RULES)
    print("ready", flush=True)
    for line in sys.stdin:
        first, count, fields = line.split()
        df = census.solve_chunk(int(first), int(count), RULES, fields)
        answers = [[int(d), r, bool(w), None if b is pd.NA else int(b)]
                   for d, r, w, b in zip(df["deal"], df["rules"], df["winnable"], df["best_left"].astype(object))]
        cpu = {r: float(sub["cpu_seconds"].sum()) for r, sub in df.groupby("rules")}
        print(json.dumps({"cpu": cpu, "answers": answers}), flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = chunk_arguments(__doc__, start=0, count=2000, chunk=50)
    ap.add_argument("--fields", choices=["all", "winnable"], default="all")
    a = ap.parse_args(argv)
    if a.worker:
        worker()
        return 0
    cpu: dict[str, dict[str, float]] = {k: {r: 0.0 for r in RULES} for k in ("base", "this")}
    diffs = 0
    for got in chunk_turns(ap, a, Path(__file__).resolve(), lambda first, count: f"{first} {count} {a.fields}"):
        for k in cpu:
            for r, v in got[k]["cpu"].items():
                cpu[k][r] += v
        diffs += differences(got)
    print(f"deals {a.start}..{a.start + a.count - 1}, {', '.join(RULES)}, fields {a.fields}, "
          f"{a.chunk} deals a turn: {diffs} answers differ")
    print("| rules | base CPU s | this tree CPU s | base / this |")
    print("|---|---:|---:|---:|")
    for r in RULES + ["all"]:
        b = sum(cpu["base"].values()) if r == "all" else cpu["base"][r]
        t = sum(cpu["this"].values()) if r == "all" else cpu["this"][r]
        print(f"| {r} | {b:.3f} | {t:.3f} | {b / t:.3f} |")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
