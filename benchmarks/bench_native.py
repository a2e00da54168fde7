"""The solver's ahead-of-time kernels against numba's JIT ones: speed and answers, in one process.

    python benchmarks/bench_native.py                          # deals 50,000..50,599, Easy, Classic, Strict
    python benchmarks/bench_native.py --start 200000 --count 3000

Both kernel sets run in this process (the ahead-of-time module from the cache, built first
if it is missing; numba's JIT kernels from numba's cache), 50 deals at a time in turn, the
set that goes first alternating; each deal is solved under every rule set as the census
solves it (``Solver.solve_given`` in nesting order). CPU time (``time.process_time``) of
the solves only; every answer (outcome, cards left, moves, states) must be the same.
Prints the load average: quote figures from an idle machine.
"""

from __future__ import annotations

import argparse
import os
import time

from golfsolve.solitaire import compiling, kernel, native
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import Solver, ensure_kernels, nesting_order, pack_number


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--start", type=int, default=50_000)
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--block", type=int, default=50)
    ap.add_argument("--rules", default="easy,classic,strict")
    opts = ap.parse_args()

    ensure_kernels()  # builds the module if the cache lacks it
    aot = native.load()
    if aot is None:
        raise SystemExit(f"no ahead-of-time kernels: {native.failure() or 'turned off (GOLFSOLVE_NATIVE=0)'}")
    sets = {"ahead of time": {n: getattr(aot, n) for n in native.EXPORTS},
            "numba JIT": {n: getattr(kernel, n) for n in native.EXPORTS}}
    rule_sets = [get_rules(r) for r in opts.rules.split(",")]
    order = nesting_order(rule_sets)
    solver = Solver()

    def run(first: int, count: int) -> list:
        out = []
        for n in range(first, first + count):
            done = []
            for i in order:
                r = rule_sets[i]
                s = solver.solve_given(pack_number(n, r), r, done)
                done.append(s)
                out.append((n, r.name, s.outcome, s.best_left, s.moves, s.nodes))
        return out

    for fns in sets.values():  # warm: every kernel called once
        compiling._functions.update(fns)
        run(opts.start, 2)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    cpu = {name: 0.0 for name in sets}
    differ = 0
    for b, first in enumerate(range(opts.start, opts.start + opts.count, opts.block)):
        count = min(opts.block, opts.start + opts.count - first)
        answers = {}
        names = list(sets) if b % 2 == 0 else list(sets)[::-1]
        for name in names:
            compiling._functions.update(sets[name])
            t = time.process_time()
            answers[name] = run(first, count)
            cpu[name] += time.process_time() - t
        differ += sum(a != j for a, j in zip(*answers.values()))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    a, j = cpu["ahead of time"], cpu["numba JIT"]
    print(f"\ndeals {opts.start:,}..{opts.start + opts.count - 1:,} under {opts.rules}, {opts.block} at a time, "
          f"interleaved\n")
    print("| kernels | CPU s of the solves |")
    print("|---|---:|")
    print(f"| numba JIT | {j:.2f} |")
    print(f"| ahead of time | {a:.2f} |")
    print(f"\nratio JIT / ahead of time: {j / a:.3f}x; answers that differ: {differ}")


if __name__ == "__main__":
    main()
