"""Grid Golf strength: seeded tournaments with paired differences, outside heuristics included.

    python benchmarks/grid_strength.py --bots heuristic,out-mean,out-pairs,out-threshold --matches 250
    python benchmarks/grid_strength.py --bots ismcts,mc-greedy,greedy,greedy --matches 250

Seats the bots of ``--bots`` (any ``make_bot`` name, plus the outside-style heuristics of
``outside_bots.py``) at four-player six-card tables unless told otherwise, and prints
strokes per hole and the paired difference of the first bot against each other bot, with
95% intervals over matches (see docs/grid.md), and the CPU time.
"""

from __future__ import annotations

import argparse
import os
import sys
from time import process_time as clock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import outside_bots  # noqa: E402,F401  (registers out-mean, out-threshold, out-pairs)

from golfsolve.grid.rules import parse_rules  # noqa: E402
from golfsolve.grid.tournament import bot_summary, paired_difference, simulate  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bots", required=True)
    ap.add_argument("--matches", type=int, default=250)
    ap.add_argument("--holes", type=int, default=9)
    ap.add_argument("--grid", type=int, default=6)
    ap.add_argument("--rules", default="default")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--first-match", type=int, default=0, help="continue a run in parts (same seed stream)")
    a = ap.parse_args()
    bots = [b.strip() for b in a.bots.split(",")]
    rules = parse_rules(a.rules, players=len(bots), grid=a.grid, holes=a.holes)
    t0 = clock()
    t = simulate(rules, bots, a.matches, a.seed, first_match=a.first_match)
    spent = clock() - t0
    holes = t.holes[["match", "hole"]].drop_duplicates().shape[0]
    print(f"{a.matches} matches, {holes} holes: {rules.describe()}; seed {a.seed}; CPU {spent:.0f} s")
    for _, r in bot_summary(t).iterrows():
        print(f"  {r['bot']:<16} {r['strokes_per_hole']:6.2f} strokes/hole [{r['hole_lo']:.2f}, {r['hole_hi']:.2f}]"
              f"  wins {100 * r['win_rate']:5.1f}%")
    first = bots[0]
    for other in dict.fromkeys(bots[1:]):
        if other == first:
            continue
        d = paired_difference(t, first, other)
        print(f"  {first} - {other}: {d['diff']:+.2f} [{d['lo']:+.2f}, {d['hi']:+.2f}] over {d['matches']} matches")


if __name__ == "__main__":
    main()
