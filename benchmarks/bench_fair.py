"""CPU time of `hint --fair` and `odds` at their defaults, beside today's implementation.

    python benchmarks/bench_fair.py [--deals 5] [--baseline d71dfa9]

The baseline is the code at a git commit (by default the last one before issue 10's
work), exported to a temporary directory with `git archive` and run in a subprocess,
item by item interleaved with the current code, so both see the same machine load.
Each item is a fresh process: "search" is the CPU time of the library call alone (after
one warm-up solve), "command" the CPU time of the whole `python -m golfsolve ...` run
including start-up. Items: the fair hint on the opening of GO1 Easy and Classic deals
(stock order forgotten) and `odds` on the seed 000 example (tests/data/seed000_start.txt).
Today's defaults: hint 200 orders, odds 1,000 orders (clairvoyant only); the new ones:
hint 40 orders, odds 200 orders and 6 fair-player games.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED000 = ROOT / "tests" / "data" / "seed000_start.txt"


def worker(kind: str, arg: str, rules_name: str) -> None:
    """Run one item in this process and print its search CPU seconds as JSON."""
    from golfsolve.solitaire.layout import layout_from_number, read_layout_file
    from golfsolve.solitaire.rules import get_rules
    from golfsolve.solitaire.solver import Solver

    try:
        from golfsolve.fair import api  # the current code
    except ImportError:
        try:
            from golfsolve.solitaire import fairvalue as api  # a baseline of round 2
        except ImportError:
            from golfsolve.solitaire import fair as api  # the baseline of round 1
    rules = get_rules(rules_name)
    solver = Solver()
    lay = layout_from_number(int(arg), rules) if kind == "hint" else read_layout_file(arg)
    solver.solve(layout_from_number(0, rules), rules)  # load the compiled kernel before timing
    t0 = time.process_time()
    if kind == "hint":
        api.fair_hint(lay.forget_stock(0), rules, solver=solver)
    else:
        api.odds(lay, rules, solver=solver)
    print(json.dumps({"search": time.process_time() - t0}))


def child_cpu(cmd: list[str], env: dict) -> tuple[float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=5, help="openings per rule set for the hint")
    ap.add_argument("--baseline", default="d71dfa9", help="git commit of today's implementation")
    ap.add_argument("--worker", nargs=3, metavar=("KIND", "ARG", "RULES"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(*a.worker)
        return
    with tempfile.TemporaryDirectory() as old:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", a.baseline, "golfsolve"], capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
        trees = {"today": old, "new": str(ROOT)}
        items = [("hint", str(n), r) for r in ("easy", "classic") for n in range(a.deals)]
        items += [("odds", str(SEED000), r) for r in ("easy", "classic")]
        totals: dict[tuple[str, str, str], list[float]] = {}
        print(f"{'item':28} {'today search':>12} {'new search':>10} {'ratio':>6} {'new command':>11}")
        for kind, arg, rules in items:
            row = {}
            for name, tree in trees.items():  # interleaved: the same item on both trees back to back
                env = {**os.environ, "PYTHONPATH": tree}
                _, out = child_cpu([sys.executable, __file__, "--worker", kind, arg, rules], env)
                row[name] = json.loads(out)["search"]
                totals.setdefault((kind, rules, name), []).append(row[name])
            env = {**os.environ, "PYTHONPATH": str(ROOT)}
            cmd = ([sys.executable, "-m", "golfsolve", "hint", f"GO1-{rules[0].upper()}-" + _letters(int(arg)),
                    "--fair", "--json"] if kind == "hint" else
                   [sys.executable, "-m", "golfsolve", "odds", "--layout", arg, "--rules", rules, "--json"])
            whole, _ = child_cpu(cmd, env)
            totals.setdefault((kind, rules, "command"), []).append(whole)
            label = f"{kind} {rules} " + (f"deal {arg}" if kind == "hint" else "seed000")
            print(f"{label:28} {row['today']:11.2f}s {row['new']:9.2f}s {row['today'] / row['new']:5.1f}x "
                  f"{whole:10.2f}s", flush=True)
        print("\nmeans (CPU seconds):")
        for kind in ("hint", "odds"):
            for rules in ("easy", "classic"):
                t, n, c = (totals[(kind, rules, k)] for k in ("today", "new", "command"))
                print(f"  {kind} {rules:8} today {sum(t) / len(t):.2f}  new {sum(n) / len(n):.2f}  "
                      f"({sum(t) / sum(n):.1f}x less)  whole new command {sum(c) / len(c):.2f}")


def _letters(n: int) -> str:
    from golfsolve.solitaire.dealcode import format_code

    return format_code(n, "E").split("-")[-1]


if __name__ == "__main__":
    main()
