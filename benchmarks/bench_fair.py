"""Time the fair-play pieces: odds per sample, a fair hint, a fair-player game.

    python benchmarks/bench_fair.py [--deals 10]

Prints solves and seconds so sample counts for `golfsolve fair-stats` can be chosen:
a fair game costs about (decisions x sampled orders x candidate moves) solves.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from golfsolve.solitaire.fair import fair_hint, odds, play_fair
from golfsolve.solitaire.layout import layout_from_number, read_layout_file
from golfsolve.solitaire.rules import CLASSIC, EASY
from golfsolve.solitaire.solver import Solver


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--first-samples", type=int, default=6)
    args = ap.parse_args()
    solver = Solver()
    start = read_layout_file(Path(__file__).parent.parent / "tests" / "data" / "seed000_start.txt")
    for rules in (EASY, CLASSIC):
        res = odds(start, rules, samples=200, solver=solver)
        print(f"{rules.name:8} odds seed000: {1000 * res.seconds / res.samples:.2f} ms per sample")
        lay = layout_from_number(1, rules).forget_stock(0)
        h = fair_hint(lay, rules, samples=100, solver=solver)
        print(f"{rules.name:8} fair hint GO1 deal 1, 100 orders: {h.solves} solves, {h.seconds:.2f} s")
        t0 = time.perf_counter()
        games = [play_fair(layout_from_number(n, rules), rules, args.samples, n, solver, args.first_samples)
                 for n in range(args.deals)]
        dt = time.perf_counter() - t0
        print(f"{rules.name:8} fair player, {args.deals} deals: {dt / args.deals:.2f} s per deal, "
              f"{sum(g.solves for g in games) / args.deals:.0f} solves per deal, "
              f"{sum(g.won for g in games)} won of {sum(g.clairvoyant_won for g in games)} winnable")


if __name__ == "__main__":
    main()
