"""CPU per deal and Parquet bytes per deal on deal ranges spread over the whole GO1 code space.

    nice -n 10 python benchmarks/scale_sample.py --ranges 20 --per-range 250

Splits the 26**7 deal numbers into ``--ranges`` equal parts and solves ``--per-range``
consecutive deals at the start of each (offset by a fixed odd stride, so no range starts
on a round number), under Easy, Classic and Strict, with the census's own
``solve_chunk`` (one core, CPU time of the solves as the census records it). Each range's
table is written as a census chunk, to measure the Parquet bytes per deal. Prints one line
per range and the totals that docs/scale.md projects from.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from golfsolve.solitaire.dealcode import N_DEALS, format_code
from golfsolve.stats import census

RULES = ["easy", "classic", "strict"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranges", type=int, default=20)
    ap.add_argument("--per-range", type=int, default=250)
    a = ap.parse_args(argv)
    census._warm(RULES)
    step = N_DEALS // a.ranges
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {a.ranges} ranges of {a.per_range} deals")
    print("| first deal | code | Easy ms | Classic ms | Strict ms | all ms | Easy won | Classic won | Strict won |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    cpu = {r: 0.0 for r in RULES}
    won = {r: 0 for r in RULES}
    nbytes = 0
    deals = 0
    t0 = time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(a.ranges):
            first = i * step + 7919 * (i + 1)
            df = census.solve_chunk(first, a.per_range, RULES)
            path = census.write_chunk(Path(tmp), first, df)
            nbytes += path.stat().st_size
            deals += a.per_range
            per = {r: float(sub["cpu_seconds"].sum()) for r, sub in df.groupby("rules")}
            w = {r: int(sub["winnable"].sum()) for r, sub in df.groupby("rules")}
            for r in RULES:
                cpu[r] += per[r]
                won[r] += w[r]
            ms = [1000 * per[r] / a.per_range for r in RULES]
            print(f"| {first} | {format_code(first, 'E')} | {ms[0]:.2f} | {ms[1]:.2f} | {ms[2]:.2f} | {sum(ms):.2f} | "
                  + " | ".join(f"{100 * w[r] / a.per_range:.1f}%" for r in RULES) + " |", flush=True)
    total = sum(cpu.values())
    print(f"\nload after: {os.getloadavg()[0]:.2f}; {deals} deals, process CPU {time.process_time() - t0:.1f} s")
    print("CPU ms per deal: " + ", ".join(f"{r} {1000 * cpu[r] / deals:.3f}" for r in RULES)
          + f", all three {1000 * total / deals:.3f}")
    print("win rates: " + ", ".join(f"{r} {100 * won[r] / deals:.2f}%" for r in RULES))
    print(f"Parquet: {nbytes / deals:.1f} bytes per deal (3 rows), {nbytes / deals:.0f} MB per million deals "
          f"(chunks of {a.per_range} deals)")
    print(f"every GO1 code ({N_DEALS:,} deals): {total / deals * N_DEALS / 3600:,.0f} core-hours, "
          f"{nbytes / deals * N_DEALS / 1e12:.2f} TB of Parquet")
    return 0


if __name__ == "__main__":
    sys.exit(main())
