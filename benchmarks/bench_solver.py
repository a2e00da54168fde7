"""Solver throughput on PySol FC's Golf deals against black-hole-solve's published figures.

    python benchmarks/bench_solver.py                 # deals 1..3996, all three rule sets
    python benchmarks/bench_solver.py --count 500     # a quicker look

The boards are PySol's own (dealt by pysol-cards, as the reference's were), so verdicts
and state counts compare deal for deal. Boards are dealt before the clock starts; the
timing is single-core CPU time of the solve alone. black-hole-solve (C) cannot be run
here, so its throughput comes from shared/reference/README.md (same kind of machine,
single core); the script prints our figures, the reference's, and their ratio, and
checks every verdict (and the most cards removable, where the reference gives it).
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from pathlib import Path

from golfsolve.intervals import wilson
from golfsolve.solitaire.layout import layout_from_pysol
from golfsolve.solitaire.rules import PRESETS
from golfsolve.solitaire.solver import Solver, pack

HERE = Path(__file__).resolve().parent
REF_CSV = HERE.parent.parent / "shared" / "reference" / "pysol-golf-black-hole-solver.csv"
#: deals/s, single core, from shared/reference/README.md
REF_DEALS_PER_S = {"no-card-on-king": 7.1, "queen-on-king": 6.1, "wrap": 17.7}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("--count", type=int, default=3996)
    ap.add_argument("--rules", default="no-card-on-king,queen-on-king,wrap")
    ap.add_argument("--reference", type=Path, default=REF_CSV)
    args = ap.parse_args()

    ref = {}
    if args.reference.exists():
        with open(args.reference, newline="") as f:
            ref = {(int(r["pysol_deal"]), r["rules"]): r for r in csv.DictReader(f)}
    else:
        print(f"note: {args.reference} not found; verdicts are not checked", file=sys.stderr)

    deals = list(range(args.start, args.start + args.count))
    print(f"dealing {len(deals)} PySol boards ...", file=sys.stderr)
    packed = {d: pack(layout_from_pysol(d)) for d in deals}
    solver = Solver()
    solver.solve_packed(packed[deals[0]], PRESETS["wrap"])  # compile / load the kernel first

    print(f"PySol Golf deals {deals[0]}..{deals[-1]} (n = {len(deals)}), single core, CPU time of the solve")
    print(f"{'rules':<16} {'win rate [95% CI]':<24} {'deals/s':>8} {'ref':>6} {'ratio':>7} "
          f"{'median ms':>9} {'mean ms':>8} {'max ms':>8} {'states/lost deal':>17} {'ref':>9} {'errors':>6}")
    total_errors = 0
    for name in args.rules.split(","):
        rules = PRESETS[name]
        times, lost_states, ref_states = [], [], []
        wins = errors = 0
        for d in deals:
            t0 = time.process_time()
            sol = solver.solve_packed(packed[d], rules)
            times.append(time.process_time() - t0)
            wins += sol.outcome == "won"
            r = ref.get((d, name))
            if r is not None:
                if (r["winnable"] == "yes") != (sol.outcome == "won"):
                    errors += 1
                    print(f"  MISMATCH deal {d} {name}: ours {sol.outcome}, reference {r['winnable']}")
                elif r["max_tableau_cards_removed"] and 35 - sol.best_left != int(r["max_tableau_cards_removed"]):
                    errors += 1
                    print(f"  MISMATCH deal {d} {name}: ours removes {35 - sol.best_left}, "
                          f"reference {r['max_tableau_cards_removed']}")
                if r["reachable_states_if_unwinnable"]:
                    ref_states.append(int(r["reachable_states_if_unwinnable"]))
                    lost_states.append(sol.nodes)
        total = sum(times)
        rate = len(deals) / total
        _, lo, hi = wilson(wins, len(deals))
        ci = f"{100 * wins / len(deals):.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]"
        ms = sorted(t * 1000 for t in times)
        mean_states = statistics.mean(lost_states) if lost_states else float("nan")
        mean_ref = statistics.mean(ref_states) if ref_states else float("nan")
        print(f"{name:<16} {ci:<24} {rate:>8.1f} {REF_DEALS_PER_S[name]:>6.1f} {rate / REF_DEALS_PER_S[name]:>6.1f}x "
              f"{statistics.median(ms):>9.2f} {statistics.mean(ms):>8.2f} {ms[-1]:>8.1f} "
              f"{mean_states:>17,.0f} {mean_ref:>9,.0f} {errors:>6}")
        total_errors += errors
    print("ref = black-hole-solve 1.14.0 on the same deals (shared/reference); ratio = our deals/s over its deals/s")
    return 1 if total_errors else 0


if __name__ == "__main__":
    sys.exit(main())
