"""The search fair player against today's fair player, paired on the same deals.

    nice -n 10 python benchmarks/fair_paired.py --rules easy --start 0 --count 400 --out results/paired-easy.csv
    python benchmarks/fair_paired.py --summary results/paired-easy.csv

Each deal is played by both players (same deal, same real stock; the seed names the deal),
and solved with its stock visible (the clairvoyant verdict). One CSV row per deal, appended
as it finishes, so a stopped run resumes where it stopped. The summary prints the win
rates with 95% Wilson intervals, the paired difference with a normal interval on the
per-deal differences, and CPU seconds per deal of each player.
"""

from __future__ import annotations

import argparse
import csv
import os
import time

import numpy as np

from golfsolve.intervals import mean_ci, wilson
from golfsolve.solitaire.fair import play_fair
from golfsolve.solitaire.fairplayer import play_search
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import Solver

FIELDS = ["rules", "deal", "clairvoyant_won", "search_won", "old_won", "search_cpu", "old_cpu"]


def run(rules_name: str, start: int, count: int, out: str, samples: int, extra: int, old_samples: int) -> None:
    rules = get_rules(rules_name)
    letter = "C" if rules_name == "classic" else "E"
    done = set()
    if os.path.exists(out):
        with open(out, newline="") as f:
            done = {int(r["deal"]) for r in csv.DictReader(f)}
    solver = Solver()
    new_file = not os.path.exists(out)
    with open(out, "a", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        if new_file:
            w.writeheader()
        for n in range(start, start + count):
            if n in done:
                continue
            lay = layout_from_number(n, rules, letter)
            seed = f"0-{rules_name}-{n}"
            t0 = time.process_time()
            g = play_search(lay, rules, samples, extra, seed, solver)
            t1 = time.process_time()
            o = play_fair(lay, rules, old_samples, seed, solver)
            t2 = time.process_time()
            w.writerow({"rules": rules_name, "deal": n, "clairvoyant_won": int(g.clairvoyant_won),
                        "search_won": int(g.won), "old_won": int(o.won),
                        "search_cpu": round(t1 - t0, 3), "old_cpu": round(t2 - t1, 3)})
            f.flush()


def summary(path: str) -> None:
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for name in sorted({r["rules"] for r in rows}):
        rs = [r for r in rows if r["rules"] == name]
        n = len(rs)
        deals = sorted(int(r["deal"]) for r in rs)

        def pct(k: int) -> str:
            p, lo, hi = wilson(k, n)
            return f"{100 * p:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}), {k} of {n}"

        s = sum(int(r["search_won"]) for r in rs)
        o = sum(int(r["old_won"]) for r in rs)
        c = sum(int(r["clairvoyant_won"]) for r in rs)
        d = np.array([int(r["search_won"]) - int(r["old_won"]) for r in rs])
        m, lo, hi = mean_ci(d)
        print(f"{name}: {n} deals ({deals[0]}..{deals[-1]})")
        print(f"  search player  {pct(s)}   {np.mean([float(r['search_cpu']) for r in rs]):.2f} s CPU per deal")
        print(f"  today's player {pct(o)}   {np.mean([float(r['old_cpu']) for r in rs]):.2f} s CPU per deal")
        print(f"  clairvoyant    {pct(c)}")
        print(f"  paired difference {100 * m:+.1f} points ({100 * lo:+.1f} to {100 * hi:+.1f}); "
              f"won only by search {int((d > 0).sum())}, only by today's {int((d < 0).sum())}")
        print(f"  search player's gap to clairvoyant {pct(c - s)}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="easy")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--samples", type=int, default=16, help="search player: orders per decision")
    ap.add_argument("--extra", type=int, default=16, help="search player: orders to race tied states on")
    ap.add_argument("--old-samples", type=int, default=16, help="today's player: orders per decision")
    ap.add_argument("--out", default="results/paired.csv")
    ap.add_argument("--summary", metavar="CSV", help="only print the summary of a finished CSV")
    a = ap.parse_args()
    if a.summary:
        summary(a.summary)
        return
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    run(a.rules, a.start, a.count, a.out, a.samples, a.extra, a.old_samples)
    summary(a.out)


if __name__ == "__main__":
    main()
