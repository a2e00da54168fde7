"""Two fair players paired on the same deals: win rates, the paired difference, CPU per game.

    nice -n 10 python benchmarks/fair_paired.py --rules easy --start 0 --count 200 --a strong --b fast \
        --out results/paired-easy.csv
    python benchmarks/fair_paired.py --summary results/paired-easy.csv

``--jobs N`` (``-j N``; ``--workers N`` the same, as on every command) plays N deals at a
time (each worker plays both players on its deal, so the pairing and the interleaving hold);
``--shuffle`` visits the range in a fixed random order. ``--seed S`` seeds every game of both
players S instead of 0 (as ``fair-stats --seed S`` does): another fixed strategy of each player.
One seed's figure moves by about a point with the player's own luck, so a variant that changes
many games is best compared over several seeds (a CSV per seed; ``--summary`` of them all also
prints the mean of the per-seed differences).

``--a`` and ``--b`` are preset names (golfsolve.fair.PRESETS) or PlayerSettings as JSON
(``'{"samples": 12, "race_budget": 48}'``: the fields not given keep their defaults). Each
deal is played by both players with the same real stock and seed (seed 0 for every game,
as fair-stats seeds its games; until 2026-12-03 the seed also named the deal number, which
fixes the hidden stock, and the figures in docs/fair.md were measured so), one after the other in the same process, which one goes first
alternating deal by deal, and timed in CPU seconds (``time.process_time``). One CSV row per
deal, appended as it finishes, so a stopped run resumes where it stopped. The summary
prints the win rates with 95% Wilson intervals, the paired difference (a minus b) with a
Student t interval on the per-deal differences, and the CPU ratio.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import multiprocessing
import os
import random
import time

import numpy as np

from golfsolve.fair import PlayerSettings, play, player_settings
from golfsolve.intervals import mean_ci, wilson
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import code_letter, get_rules
from golfsolve.solitaire.solver import Solver

FIELDS = ["rules", "deal", "clairvoyant_won", "a_won", "b_won", "a_cpu", "b_cpu", "a", "b", "seed"]


def settings_of(text: str) -> PlayerSettings:
    """A preset name or a JSON object of settings."""
    return PlayerSettings(**json.loads(text)) if text.lstrip().startswith("{") else player_settings(text)


def _rows(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


_SOLVER: Solver | None = None


def _init_worker(rules_name: str) -> None:
    global _SOLVER
    rules = get_rules(rules_name)
    _SOLVER = Solver()
    # the kernels (the solver's, the order search's, the exact endgame's) loaded before any timing
    play(layout_from_number(0, rules, code_letter(rules)), rules, "fast", "warm-up", _SOLVER, referee=False)


def _deal_row(job: tuple) -> dict:
    """Deal ``n`` played by both players, one after the other, who goes first alternating."""
    rules_name, n, a, b, seed = job
    rules = get_rules(rules_name)
    lay = layout_from_number(n, rules, code_letter(rules))
    players = {"a": settings_of(a), "b": settings_of(b)}
    row = {"rules": rules_name, "deal": n, "a": a, "b": b, "seed": seed}
    for k in (("a", "b") if n % 2 == 0 else ("b", "a")):
        t0 = time.process_time()
        g = play(lay, rules, players[k], seed, _SOLVER)
        row[f"{k}_cpu"] = round(time.process_time() - t0, 3)
        row[f"{k}_won"] = int(g.won)
        row["clairvoyant_won"] = int(g.clairvoyant_won)
    return row


def run(rules_name: str, start: int, count: int, out: str, a: str, b: str, workers: int = 1,
        shuffle: bool = False, seed: int = 0) -> None:
    """Play deals ``start..start+count-1`` with both players, appending one row per deal to
    ``out``; with ``shuffle`` in a fixed random order, so a run stopped early has played a
    uniform random subset of the range."""
    settings_of(a), settings_of(b)  # bad settings fail before any work
    old = _rows(out)
    if old and int(old[0].get("seed") or 0) != seed:
        raise SystemExit(f"{out} holds games seeded {old[0].get('seed') or 0}, not {seed}: give another --out")
    done = {(r["rules"], int(r["deal"])) for r in old}
    deals = list(range(start, start + count))
    if shuffle:
        random.Random(f"{start}-{count}").shuffle(deals)
    jobs = [(rules_name, n, a, b, seed) for n in deals if (rules_name, n) not in done]
    new_file = not os.path.exists(out)
    with open(out, "a", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        if new_file:
            w.writeheader()
        if workers == 1:
            _init_worker(rules_name)
            rows = map(_deal_row, jobs)
            pool = None
        else:
            pool = multiprocessing.Pool(workers, _init_worker, (rules_name,))
            rows = pool.imap_unordered(_deal_row, jobs)
        try:
            for row in rows:
                w.writerow(row)
                f.flush()
        finally:
            if pool is not None:
                pool.terminate()


def summary(paths: list[str]) -> None:
    """Print win rates, the paired difference and CPU per game of each rule set in ``paths``."""
    rows = [r for p in paths for r in _rows(p)]
    for name in sorted({r["rules"] for r in rows}):
        rs = [r for r in rows if r["rules"] == name]
        n = len(rs)
        deals = sorted(int(r["deal"]) for r in rs)

        def pct(k: int) -> str:
            p, lo, hi = wilson(k, n)
            return f"{100 * p:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}), {k} of {n}"

        wa = sum(int(r["a_won"]) for r in rs)
        wb = sum(int(r["b_won"]) for r in rs)
        c = sum(int(r["clairvoyant_won"]) for r in rs)
        d = np.array([int(r["a_won"]) - int(r["b_won"]) for r in rs], dtype=float)
        m, lo, hi = mean_ci(d)
        ca = np.mean([float(r["a_cpu"]) for r in rs])
        cb = np.mean([float(r["b_cpu"]) for r in rs])
        seeds = sorted({int(r.get("seed") or 0) for r in rs})
        deals = sorted(set(deals))
        span = f"{deals[0]}..{deals[-1]}" if deals[-1] - deals[0] + 1 == len(deals) else f"of {deals[0]}..{deals[-1]}"
        each = f" under each of seeds {','.join(map(str, seeds))}: {n} games" if len(seeds) > 1 else ""
        print(f"{name}: {len(deals)} deals ({span}){each}; a = {rs[0]['a']}, b = {rs[0]['b']}")
        print(f"  a            {pct(wa)}   {ca:.3f} s CPU per deal")
        print(f"  b            {pct(wb)}   {cb:.3f} s CPU per deal   (a/b CPU {ca / cb:.2f}x)")
        print(f"  clairvoyant  {pct(c)}   fair/clairvoyant: a {wa / max(c, 1):.3f}, b {wb / max(c, 1):.3f}")
        # every deal alike (the same wins, as two runs of one player give): no spread, no interval
        ci = "no interval: the same on every deal" if math.isnan(lo) else f"{100 * lo:+.1f} to {100 * hi:+.1f}"
        print(f"  paired difference a - b {100 * m:+.1f} points ({ci}); "
              f"won only by a {int((d > 0).sum())}, only by b {int((d < 0).sum())}")
        if len(seeds) > 1:
            # each seed a fixed strategy of each player: the mean of the per-seed differences,
            # its interval Student's t over the seeds (the deals are the same in each)
            per = [np.mean([int(r["a_won"]) - int(r["b_won"]) for r in rs if int(r.get("seed") or 0) == s])
                   for s in seeds]
            m, lo, hi = mean_ci(np.array(per))
            print(f"  over seeds {','.join(map(str, seeds))}: per-seed differences "
                  f"{', '.join(f'{100 * x:+.1f}' for x in per)}; mean {100 * m:+.1f} points "
                  f"({100 * lo:+.1f} to {100 * hi:+.1f})")
        if rs[0].get("same_moves") not in (None, ""):  # fair_round2.py's rows say whether the games were alike
            print(f"  the same moves in {sum(int(r['same_moves']) for r in rs)} of {n} games")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="easy")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--a", default="strong", help="player a: a preset name or PlayerSettings as JSON")
    ap.add_argument("--b", default="fast", help="player b: a preset name or PlayerSettings as JSON")
    ap.add_argument("--out", default="results/paired.csv")
    ap.add_argument("--jobs", "-j", "--workers", dest="jobs", type=int, default=1, metavar="N",
                    help="processes, each playing whole deals (both players)")
    ap.add_argument("--seed", type=int, default=0, help="every game's seed, both players (default 0)")
    ap.add_argument("--shuffle", action="store_true",
                    help="play the deals in a fixed random order: a run stopped early is a uniform random subset")
    ap.add_argument("--summary", metavar="CSV", nargs="+", help="only print the summary of finished CSVs")
    a = ap.parse_args()
    if a.summary:
        summary(a.summary)
        return
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    run(a.rules, a.start, a.count, a.out, a.a, a.b, a.jobs, a.shuffle, a.seed)
    summary([a.out])


if __name__ == "__main__":
    main()
