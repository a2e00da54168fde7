"""CPU per deal of a ``--spread`` run's deals against the deal ranges of scale_sample.py, interleaved.

    nice -n 5 python benchmarks/bench_spread.py --count 20000 --every 20 --ranges 20 --per-range 50

Takes every ``--every``-th deal of ``golfsolve stats --count COUNT --spread`` and the first
``--per-range`` deals of each of scale_sample.py's ``--ranges`` ranges, and solves them in
one process one deal at a time, alternating between the two sets (Easy, Classic and Strict
with the census's ``solve_deals``, CPU time of the solves), so that both see the same
machine. Prints CPU ms per deal and the wins of each set.
"""

from __future__ import annotations

import argparse
import os
import sys

from golfsolve.solitaire.dealcode import N_DEALS
from golfsolve.stats import census
from golfsolve.stats.census import CensusSpec, spread_stride

RULES = ["easy", "classic", "strict"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=20000, help="the --spread run's deal count")
    ap.add_argument("--every", type=int, default=20, help="take every N-th deal of that run")
    ap.add_argument("--ranges", type=int, default=20)
    ap.add_argument("--per-range", type=int, default=50)
    a = ap.parse_args(argv)
    census._warm(RULES)
    spec = CensusSpec(0, a.count, stride=spread_stride(a.count))
    spread = [spec.deal(i) for i in range(0, a.count, a.every)]
    step = N_DEALS // a.ranges
    # the ranges' first deals exactly as scale_sample.py picks them
    ranges = [i * step + 7919 * (i + 1) + j for i in range(a.ranges) for j in range(a.per_range)]
    n = min(len(spread), len(ranges))
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {n} deals of each set, "
          f"spread stride {spec.stride:,}")
    cpu = {"spread": 0.0, "ranges": 0.0}
    won = {name: dict.fromkeys(RULES, 0) for name in cpu}
    for a_deal, b_deal in zip(spread[:n], ranges[:n]):
        for name, d in (("spread", a_deal), ("ranges", b_deal)):
            df = census.solve_deals([d], RULES)
            cpu[name] += float(df["cpu_seconds"].sum())
            for r, w in zip(df["rules"], df["winnable"]):
                won[name][r] += bool(w)
    print(f"load after: {os.getloadavg()[0]:.2f}")
    for name in cpu:
        print(f"{name}: {1000 * cpu[name] / n:.3f} CPU ms per deal (three rule sets); won "
              + ", ".join(f"{r} {won[name][r]}" for r in RULES))
    print(f"spread / ranges: {cpu['spread'] / cpu['ranges']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
