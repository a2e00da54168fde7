"""One fair player, two checkouts of the code: the same games, move for move, and the CPU ratio.

    git worktree add /tmp/ref main      # the reference: the code before a change
    python benchmarks/fair_ab.py --ref /tmp/ref --rules easy,classic --start 20 --count 20 --player strong

Each checkout runs in its own worker process (:mod:`abtrees`; its own numba cache, warmed up
by a solve and a short game before any timing); the script sends the deals to both in turn,
which one first alternating deal by deal, and each worker times its game in CPU seconds
(``time.process_time``). Prints, per rule set, how many games had the same moves, the CPU
of both and the ratio this checkout / reference, and the solves and wins of each. A change
meant to keep the moves must show every game the same.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from abtrees import start, turns

HERE = Path(__file__).resolve().parent.parent


def worker() -> None:
    """Play the deals read from stdin (``rules deal player``), one JSON line per game."""
    from golfsolve.fair import play
    from golfsolve.solitaire.layout import layout_from_number
    from golfsolve.solitaire.rules import code_letter, get_rules
    from golfsolve.solitaire.solver import Solver

    solver = Solver()
    r0 = get_rules("easy")
    solver.solve(layout_from_number(0, r0, code_letter(r0)), r0)
    play(layout_from_number(1, r0, code_letter(r0)), r0, "fast", "warm", solver)
    print("ready", flush=True)
    for line in sys.stdin:
        rules_name, n, player = line.split()
        rules = get_rules(rules_name)
        lay = layout_from_number(int(n), rules, code_letter(rules))
        t0 = time.process_time()
        g = play(lay, rules, player, f"0-{rules_name}-{n}", solver)
        print(json.dumps({"cpu": time.process_time() - t0, "won": g.won, "moves": " ".join(g.moves),
                          "solves": g.solves}), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", help="the reference checkout (a git worktree of the code before); required")
    ap.add_argument("--rules", default="easy,classic")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--player", default="strong", help="a preset name")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        return worker()
    if not a.ref:
        ap.error("the following arguments are required: --ref")
    names = a.rules.split(",")
    procs = {"base": start(Path(__file__).resolve(), Path(a.ref).resolve()), "this": start(Path(__file__).resolve(), HERE)}
    deals = range(a.start, a.start + a.count)
    requests = (f"{rules} {n} {a.player}" for rules in names for n in deals)
    for i, res in enumerate(turns(procs, requests)):
        if i % a.count == 0:
            cpu = {"base": 0.0, "this": 0.0}
            wins = {"base": 0, "this": 0}
            solves = {"base": 0, "this": 0}
            same = 0
        for k, r in res.items():
            cpu[k] += r["cpu"]
            wins[k] += r["won"]
            solves[k] += r["solves"]
        same += res["base"]["moves"] == res["this"]["moves"]
        if i % a.count == a.count - 1:
            print(f"{names[i // a.count]} deals {a.start}..{a.start + a.count - 1}, {a.player}: same moves {same} of "
                  f"{a.count}; CPU this {cpu['this']:.2f} s, ref {cpu['base']:.2f} s ({cpu['this'] / cpu['base']:.3f}x); "
                  f"solves {solves['this']} / {solves['base']}; wins {wins['this']} / {wins['base']}", flush=True)


if __name__ == "__main__":
    main()
