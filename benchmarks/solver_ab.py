"""Full answers under two versions of golfsolve, side by side: CPU time, states, and whether they agree.

    git archive main | tar -x -C /tmp/golfsolve-main        # the version to compare against
    nice -n 5 python benchmarks/solver_ab.py /tmp/golfsolve-main --start 50000 --count 400 --rules classic,dead-king

Starts one long-lived worker process per version (each imports golfsolve from its own
tree and loads its kernels before anything is timed), then hands both the same chunks of
deals in turn, the order alternating from chunk to chunk. Each solves every deal of the
chunk on its own under each rule set (``Solver.solve_packed``, verdict and fewest cards
left, no answers handed between rule sets: see census_ab.py for the census's way) and
reports the CPU time of the solves (``time.process_time``) and the states expanded. The
ratio is base over this tree: above 1, this tree is faster. Every verdict and fewest cards
left must agree; any difference is printed and the script exits 1.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from abtrees import chunk_arguments, chunk_turns, differences


def worker() -> None:
    """Solve the chunks named on stdin, one JSON line of CPU times, states and answers each."""
    from golfsolve.solitaire.rules import get_rules
    from golfsolve.solitaire.solver import pack_number
    from golfsolve.stats import census

    census._warm(["easy", "classic", "strict"])
    solver = census._solver()
    print("ready", flush=True)
    for line in sys.stdin:
        first, count, names = line.split()
        out: dict = {"cpu": {}, "states": {}, "answers": []}
        for name in names.split(","):
            rules = get_rules(name)
            packed = [pack_number(n, rules) for n in range(int(first), int(first) + int(count))]
            t = time.process_time()
            sols = [solver.solve_packed(p, rules) for p in packed]
            out["cpu"][name] = time.process_time() - t
            out["states"][name] = sum(s.nodes for s in sols)
            out["answers"] += [[name, int(first) + i, s.outcome, s.best_left] for i, s in enumerate(sols)]
        print(json.dumps(out), flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = chunk_arguments(__doc__, start=50000, count=400, chunk=25)
    ap.add_argument("--rules", default="classic,dead-king", help="comma-separated rule sets (default classic,dead-king)")
    a = ap.parse_args(argv)
    if a.worker:
        worker()
        return 0
    if a.start < 0 or a.count < 1 or a.chunk < 1:
        ap.error("--start must be at least 0, --count and --chunk at least 1")
    from golfsolve.errors import InputError
    from golfsolve.solitaire.rules import get_rules

    names = [r.strip() for r in a.rules.split(",")]
    try:
        for name in names:
            get_rules(name)
    except (InputError, ValueError) as e:
        ap.error(f"--rules: {e}")
    cpu = {k: dict.fromkeys(names, 0.0) for k in ("base", "this")}
    states = {k: dict.fromkeys(names, 0) for k in ("base", "this")}
    diffs = 0
    for got in chunk_turns(ap, a, Path(__file__).resolve(), lambda first, count: f"{first} {count} {','.join(names)}"):
        for k in cpu:
            for r in names:
                cpu[k][r] += got[k]["cpu"][r]
                states[k][r] += got[k]["states"][r]
        diffs += differences(got)
    print(f"deals {a.start}..{a.start + a.count - 1}, full answers, {a.chunk} deals a turn: {diffs} answers differ")
    print("| rules | base CPU s | this tree CPU s | base / this | base states | this tree states |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in names:
        print(f"| {r} | {cpu['base'][r]:.3f} | {cpu['this'][r]:.3f} | {cpu['base'][r] / cpu['this'][r]:.3f} "
              f"| {states['base'][r]:,} | {states['this'][r]:,} |")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
