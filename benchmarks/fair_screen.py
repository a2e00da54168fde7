"""Screen a variant of the search fair player against the search player's recorded games.

    nice -n 10 python benchmarks/fair_screen.py --rules easy --start 0 --count 300 \
        --base /work/scratch/fair-results/paired-easy.csv --player '{"race_budget": 64}' --out results/screen.csv
    python benchmarks/fair_screen.py --summary results/screen.csv [more.csv ...] [--old-csv results/old-easy.csv]

The search player is deterministic per deal and seed (``f"0-{rules}-{n}"``, as
``fair_paired.py`` plays it), so only the variant is played here, with the same seeds,
and compared deal by deal with the base CSV's ``search_won`` column (paired difference,
normal interval on the per-deal differences). ``--player`` is a JSON object of keyword
arguments for :func:`~golfsolve.solitaire.fairplayer.play_search`. One CSV row per deal,
appended as it finishes: a rerun resumes.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from golfsolve.intervals import mean_ci, wilson
from golfsolve.solitaire.fairplayer import play_search
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import Solver

from fair_paired import _append, _rows  # the same resumable CSV writer (this folder is on sys.path)

FIELDS = ["rules", "deal", "clairvoyant_won", "base_won", "new_won", "base_cpu", "new_cpu", "solves", "player"]


def run(rules_name: str, start: int, count: int, base: str, player: str, out: str) -> None:
    rules = get_rules(rules_name)
    letter = "C" if rules_name == "classic" else "E"
    kw = json.loads(player)
    solver = Solver()
    base_rows = {int(r["deal"]): r for r in _rows(base) if r["rules"] == rules_name}

    def play(n: int) -> dict:
        b = base_rows[n]
        lay = layout_from_number(n, rules, letter)
        t0 = time.process_time()
        g = play_search(lay, rules, seed=f"0-{rules_name}-{n}", solver=solver, **kw)
        cpu = time.process_time() - t0
        assert int(g.clairvoyant_won) == int(b["clairvoyant_won"]), n
        return {"rules": rules_name, "deal": n, "clairvoyant_won": int(g.clairvoyant_won),
                "base_won": b["search_won"], "new_won": int(g.won), "base_cpu": b["search_cpu"],
                "new_cpu": round(cpu, 3), "solves": g.solves, "player": player}

    _append(out, FIELDS, [n for n in range(start, start + count) if n in base_rows], play)


def _paired(label: str, new: np.ndarray, other: np.ndarray) -> str:
    d = new - other
    m, lo, hi = mean_ci(d)
    return (f"{label} {int(other.sum())}  paired {100 * m:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]  "
            f"only new {int((d > 0).sum())}, only {label} {int((d < 0).sum())}")


def summary(paths: list[str], old_csv: str | None = None) -> None:
    """Print the new player's rate, paired against the base (and today's player from ``old_csv``)."""
    rows = [r for path in paths for r in _rows(path)]
    old = {(r["rules"], int(r["deal"])): int(r["old_won"]) for r in _rows(old_csv)} if old_csv else {}
    for name in sorted({r["rules"] for r in rows}):
        rs = sorted((r for r in rows if r["rules"] == name), key=lambda r: int(r["deal"]))
        n = len(rs)
        new = np.array([int(r["new_won"]) for r in rs])
        p, plo, phi = wilson(int(new.sum()), n)
        print(f"{name}: {n} deals ({rs[0]['deal']}..{rs[-1]['deal']}), player {rs[0]['player']}")
        print(f"  new {int(new.sum())} ({100 * p:.1f}% [{100 * plo:.1f}, {100 * phi:.1f}])")
        print("  " + _paired("base", new, np.array([int(r["base_won"]) for r in rs])))
        if old:
            print("  " + _paired("today's", new, np.array([old[(name, int(r["deal"]))] for r in rs])))
        cw = np.array([int(r["clairvoyant_won"]) for r in rs])
        c, clo, chi = wilson(int(cw.sum()), n)
        g, glo, ghi = wilson(int((cw - new).sum()), n)
        print(f"  clairvoyant {100 * c:.1f}% [{100 * clo:.1f}, {100 * chi:.1f}]  "
              f"gap new to clairvoyant {100 * g:.1f}% [{100 * glo:.1f}, {100 * ghi:.1f}]")
        print(f"  CPU s per deal: new {np.mean([float(r['new_cpu']) for r in rs]):.3f}, "
              f"base {np.mean([float(r['base_cpu']) for r in rs]):.3f} (base measured in its own run)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="easy")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--base", help="a fair_paired.py CSV with the search player's games (search_won)")
    ap.add_argument("--player", default="{}", help="play_search keyword arguments, as JSON")
    ap.add_argument("--out", default="results/screen.csv")
    ap.add_argument("--summary", metavar="CSV", nargs="+", help="only summarise these CSVs (rows pooled)")
    ap.add_argument("--old-csv", help="also pair with today's player: a fair_paired.py --old-only CSV")
    a = ap.parse_args()
    if a.summary:
        summary(a.summary, a.old_csv)
        return
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    run(a.rules, a.start, a.count, a.base, a.player, a.out)
    summary([a.out], a.old_csv)


if __name__ == "__main__":
    main()
