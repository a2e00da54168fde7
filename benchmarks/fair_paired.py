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
import json
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
OLD_FIELDS = ["rules", "deal", "old_samples", "clairvoyant_won", "old_won", "old_cpu"]


def _rows(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _append(out: str, fields: list[str], deals, play) -> None:
    """Append ``play(n)``'s row for each deal not yet in ``out``, flushed one by one: a rerun resumes."""
    done = {int(r["deal"]) for r in _rows(out)}
    new_file = not os.path.exists(out)
    with open(out, "a", newline="") as f:
        w = csv.DictWriter(f, fields)
        if new_file:
            w.writeheader()
        for n in deals:
            if n not in done:
                w.writerow(play(n))
                f.flush()


def run_old(rules_name: str, start: int, count: int, out: str, old_samples: int) -> None:
    """Today's player alone (it does not change with the search player): rows to reuse with ``--old-csv``."""
    rules = get_rules(rules_name)
    letter = "C" if rules_name == "classic" else "E"
    solver = Solver()

    def play(n: int) -> dict:
        lay = layout_from_number(n, rules, letter)
        t0 = time.process_time()
        o = play_fair(lay, rules, old_samples, f"0-{rules_name}-{n}", solver)
        return {"rules": rules_name, "deal": n, "old_samples": old_samples,
                "clairvoyant_won": int(o.clairvoyant_won), "old_won": int(o.won),
                "old_cpu": round(time.process_time() - t0, 3)}

    _append(out, OLD_FIELDS, range(start, start + count), play)


def run(rules_name: str, start: int, count: int, out: str, samples: int, extra: int, old_samples: int,
        old_csv: str | None = None, knobs: dict | None = None) -> None:
    rules = get_rules(rules_name)
    letter = "C" if rules_name == "classic" else "E"
    solver = Solver()

    def play(n: int) -> dict:
        lay = layout_from_number(n, rules, letter)
        seed = f"0-{rules_name}-{n}"
        t0 = time.process_time()
        g = play_search(lay, rules, samples, extra, seed, solver, **(knobs or {}))
        t1 = time.process_time()
        if old_csv:
            old_won, old_cpu = "", ""  # today's player is in its own CSV (an --old-only run), joined by the summary
        else:
            o = play_fair(lay, rules, old_samples, seed, solver)
            old_won, old_cpu = int(o.won), round(time.process_time() - t1, 3)
        return {"rules": rules_name, "deal": n, "clairvoyant_won": int(g.clairvoyant_won),
                "search_won": int(g.won), "old_won": old_won,
                "search_cpu": round(t1 - t0, 3), "old_cpu": old_cpu}

    _append(out, FIELDS, range(start, start + count), play)


def summary(path: str, old_csv: str | None = None) -> None:
    rows = _rows(path)
    if old_csv:
        # today's player is deterministic per deal and seed: its rows come from the --old-only run
        old = {(r["rules"], r["deal"]): r for r in _rows(old_csv)}
        for r in rows:
            o = old.get((r["rules"], r["deal"]))
            if r["old_won"] == "" and o is not None:
                assert o["clairvoyant_won"] == r["clairvoyant_won"], (r["rules"], r["deal"])
                r["old_won"], r["old_cpu"] = o["old_won"], o["old_cpu"]
        missing = sum(1 for r in rows if r["old_won"] == "")
        if missing:
            print(f"({missing} deals not yet played by today's player are left out of the summary)")
        rows = [r for r in rows if r["old_won"] != ""]
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
    ap.add_argument("--old-only", action="store_true", help="play only today's player, rows for --old-csv")
    ap.add_argument("--old-csv", help="take today's player's results from this --old-only CSV (same deals and seeds) "
                                      "instead of playing it here")
    ap.add_argument("--knobs", default="{}", help="further SearchPlayer settings for the search player, as JSON "
                                                  "(e.g. fairplayer.STRONG_KNOBS)")
    ap.add_argument("--summary", metavar="CSV", help="only print the summary of a finished CSV")
    a = ap.parse_args()
    if a.summary:
        summary(a.summary, a.old_csv)
        return
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    if a.old_only:
        run_old(a.rules, a.start, a.count, a.out, a.old_samples)
        return
    run(a.rules, a.start, a.count, a.out, a.samples, a.extra, a.old_samples, a.old_csv, json.loads(a.knobs))
    summary(a.out, a.old_csv)


if __name__ == "__main__":
    main()
