"""One fair player, two checkouts of the code: the same games, move for move, and the CPU ratio.

    git worktree add /tmp/ref main      # the reference: the code before a change
    python benchmarks/fair_ab.py --ref /tmp/ref --rules easy,classic --start 20 --count 20 --player strong

Each checkout runs in its own worker process (its own numba cache, warmed up by a solve and
a short game before any timing); the script sends the deals to both in turn, which one
first alternating deal by deal, and each worker times its game in CPU seconds
(``time.process_time``). Prints, per rule set, how many games had the same moves, the CPU
of both and the ratio this checkout / reference, and the solves and wins of each. A change
meant to keep the moves must show every game the same.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

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
    print(json.dumps({"ready": True}), flush=True)
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
    ap.add_argument("--ref", required=True, help="the reference checkout (a git worktree of the code before)")
    ap.add_argument("--rules", default="easy,classic")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--player", default="strong", help="a preset name")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        return worker()

    def spawn(root: str) -> subprocess.Popen:
        env = dict(os.environ, PYTHONPATH=root)
        p = subprocess.Popen([sys.executable, __file__, "--ref", root, "--worker"], cwd=root, env=env,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        p.stdout.readline()
        return p

    workers = {"ref": spawn(str(Path(a.ref).resolve())), "this": spawn(str(HERE))}
    for rules in a.rules.split(","):
        cpu = {"ref": 0.0, "this": 0.0}
        wins = {"ref": 0, "this": 0}
        solves = {"ref": 0, "this": 0}
        same = 0
        for n in range(a.start, a.start + a.count):
            res = {}
            for k in (("ref", "this") if n % 2 == 0 else ("this", "ref")):
                workers[k].stdin.write(f"{rules} {n} {a.player}\n")
                workers[k].stdin.flush()
                res[k] = json.loads(workers[k].stdout.readline())
            for k, r in res.items():
                cpu[k] += r["cpu"]
                wins[k] += r["won"]
                solves[k] += r["solves"]
            same += res["ref"]["moves"] == res["this"]["moves"]
        print(f"{rules} deals {a.start}..{a.start + a.count - 1}, {a.player}: same moves {same} of {a.count}; "
              f"CPU this {cpu['this']:.2f} s, ref {cpu['ref']:.2f} s ({cpu['this'] / cpu['ref']:.3f}x); "
              f"solves {solves['this']} / {solves['ref']}; wins {wins['this']} / {wins['ref']}", flush=True)
    for p in workers.values():
        p.stdin.close()
        p.wait()


if __name__ == "__main__":
    main()
