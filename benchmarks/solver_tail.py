"""The solver's slowest deals found so far, away from the measured ranges: CPU and states per deal.

    nice -n 10 python benchmarks/solver_tail.py                       # this tree alone
    git archive main | tar -x -C /tmp/golfsolve-main
    nice -n 10 python benchmarks/solver_tail.py /tmp/golfsolve-main   # against another tree

The deals are the heaviest of round 48's sweep, by states (200,000 full answers: 3,000 random
GO1 deals from the whole code space under each of the 60 rule sets the switches make, 1,000 PySol
deals numbered in the millions and billions under the 20 without jokers; then 20,000 more GO1
deals under the six wrap-and-neighbours rule sets), with the heaviest PySol deal and the heaviest
draw-when-stuck solve. All but one are lost by one or two cards under an empty start or jokers:
the search for a win has to rule out every line, and the lower bound, which cannot see that the
last card is cut off, prunes little there (without it GO1-E-UKVPYCT expands 1.8 M states instead
of 1.1 M). Why the one won deal (1.5 M states) searches so long was not looked into. Each is
solved on its own (``Solver.solve_packed``, verdict and fewest cards left) after the kernels are
loaded; ``--repeat`` solves each that many times and keeps the least CPU. With a base tree, one worker per tree, deal by deal in
alternating order (abtrees.py); the answers must agree, else the script exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from abtrees import THIS, differences, start, turns

#: (rule set, deal): a GO1 code (its letter does not change the cards) or ``pysol N``
TAIL = [
    ("easy+king-neighbours+jokers2+empty", "GO1-E-NMWPQAL"),  # won, 0 left, 1,519,851 states, 169 ms
    ("easy+king-queen+empty", "GO1-E-UKVPYCT"),  # lost, 1 left, 1,121,132 states, 118 ms
    ("easy+nowrap+king-queen+jokers1+empty", "GO1-E-WOXZMMC"),  # lost, 2 left, 1,009,359 states, 111 ms
    ("easy+nowrap+king-queen+jokers2+empty", "GO1-E-PGFPRCF"),  # lost, 1 left, 928,734 states, 102 ms
    ("easy+king-neighbours+jokers2", "GO1-E-NMWPQAL"),  # lost, 1 left, 916,822 states, 105 ms
    ("easy+nowrap+king-nothing+jokers1+empty", "GO1-E-WOXZMMC"),  # lost, 2 left, 789,123 states, 87 ms
    ("easy+king-queen+empty", "GO1-E-ZTKFBXF"),  # lost, 1 left, 780,754 states, 86 ms
    ("easy+king-neighbours+jokers2+empty", "GO1-E-YUFIICQ"),  # lost, 1 left, 760,069 states, 87 ms
    ("easy+king-nothing+jokers2", "GO1-E-UKPTLRD"),  # lost, 1 left, 745,667 states, 90 ms
    ("easy+nowrap+king-nothing+jokers2+empty", "GO1-E-PGFPRCF"),  # lost, 1 left, 732,072 states, 84 ms
    ("easy+king-neighbours+empty", "GO1-E-DUCFHHO"),  # lost, 1 left, 686,619 states, 69 ms
    ("easy+king-nothing+empty", "GO1-E-UKVPYCT"),  # lost, 1 left, 673,692 states, 75 ms
    ("easy+king-neighbours+jokers1+empty", "GO1-E-PZEDTLA"),  # lost, 1 left, 651,821 states, 72 ms
    ("easy+nowrap+king-queen+jokers2+empty", "GO1-E-FMAKYOP"),  # lost, 1 left, 646,261 states, 77 ms
    ("easy+king-queen+empty", "pysol 6340319"),  # lost, 2 left, 492,539 states, 53 ms
    ("easy+king-nothing+stuck+jokers2+empty", "GO1-E-UZZUISO"),  # won, 0 left, 226,667 states, 22 ms
]


def _packed(rules_name: str, deal: str):
    from golfsolve.solitaire.layout import layout_from_code, layout_from_pysol
    from golfsolve.solitaire.rules import get_rules
    from golfsolve.solitaire.solver import pack

    rules = get_rules(rules_name)
    lay = layout_from_pysol(int(deal.split()[1]), rules) if deal.startswith("pysol") else layout_from_code(deal, rules)
    return pack(lay), rules


def _solve(solver, rules_name: str, deal: str, repeat: int) -> dict:
    p, rules = _packed(rules_name, deal)
    cpu = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        sol = solver.solve_packed(p, rules)
        cpu = min(cpu, time.process_time() - t)
    return {"cpu": cpu, "states": sol.nodes, "answers": [[rules_name, deal, sol.outcome, sol.best_left]]}


def worker(repeat: int) -> None:
    """Solve the deals whose indices come on stdin, one JSON line each."""
    from golfsolve.solitaire.solver import Solver
    from golfsolve.stats import census

    census._warm(["easy", "classic", "strict"])
    solver = Solver()
    _solve(solver, *TAIL[-1], 1)  # the level search's kernel too
    print("ready", flush=True)
    for line in sys.stdin:
        print(json.dumps(_solve(solver, *TAIL[int(line)], repeat)), flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", nargs="?", help="a golfsolve source tree to compare against")
    ap.add_argument("--repeat", type=int, default=3, help="solves per deal, the least CPU kept (default 3)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.repeat < 1:
        ap.error("--repeat must be at least 1")
    if a.worker:
        worker(a.repeat)
        return 0
    script = Path(__file__).resolve()
    if a.base and not (Path(a.base) / "golfsolve").is_dir():
        ap.error("give the base version's source tree (a directory holding golfsolve/)")
    if not a.base:
        sys.path.insert(0, str(THIS))
        from golfsolve.solitaire.solver import Solver
        from golfsolve.stats import census

        census._warm(["easy", "classic", "strict"])
        solver = Solver()
        _solve(solver, *TAIL[-1], 1)
        print("| rules | deal | answer | states | CPU ms |")
        print("|---|---|---|---:|---:|")
        total = 0.0
        for name, deal in TAIL:
            got = _solve(solver, name, deal, a.repeat)
            total += got["cpu"]
            _, _, outcome, left = got["answers"][0]
            print(f"| {name} | {deal} | {outcome}, {left} left | {got['states']:,} | {1000 * got['cpu']:.1f} |")
        print(f"total CPU {total:.3f} s over {len(TAIL)} deals")
        return 0
    extra = ["--repeat", str(a.repeat)]
    procs = {"base": start(script, Path(a.base).resolve(), extra), "this": start(script, THIS, extra)}
    diffs = 0
    cpu = {"base": 0.0, "this": 0.0}
    print("| rules | deal | base states | this states | base / this CPU |")
    print("|---|---|---:|---:|---:|")
    for (name, deal), got in zip(TAIL, turns(procs, (str(i) for i in range(len(TAIL))))):
        diffs += differences(got)
        for k in cpu:
            cpu[k] += got[k]["cpu"]
        print(f"| {name} | {deal} | {got['base']['states']:,} | {got['this']['states']:,} "
              f"| {got['base']['cpu'] / got['this']['cpu']:.3f} |")
    print(f"total CPU base {cpu['base']:.3f} s, this tree {cpu['this']:.3f} s: {cpu['base'] / cpu['this']:.3f}x; "
          f"{diffs} answers differ")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
