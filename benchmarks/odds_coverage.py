"""Does `odds`' fair-chance interval hold the chance it estimates? Its coverage on real openings.

    nice -n 10 python benchmarks/odds_coverage.py --deals GO1-C-AAAAAAB GO1-C-AAAAAAC GO1-E-AAAAAAA --runs 60
    python benchmarks/odds_coverage.py --summary    # the table again, from the files of an earlier run

For each opening (a deal code: its stock order forgotten, as `golfsolve odds CODE` takes it):

* **odds runs**: `odds` at its defaults with seeds 0..RUNS-1 (``odds_for_player``, the answer
  `golfsolve odds CODE --seed S --json` prints): the fair chance and its 95% interval.
* **reference**: what each run estimates. The fair player of `odds --seed S` is one fixed
  strategy, seeded S (its games share its decisions), so each seed has a chance of its own:
  the clairvoyant share of stock orders times that player's win rate on winnable ones. The
  reference plays each seed's player on ``--ref-games`` winnable orders of a stream of their
  own (text seeds ``reference-S-ROUND``: never odds' orders, nor the stream the player samples
  from), every order solved as `odds` solves them; the clairvoyant share is that of every
  order solved, odds' and the reference's (all uniform). Its standard error counts the
  seeds as clusters.

The table: the reference (the mean of the seeds' chances) and its standard error; the
seed-to-seed spread of the chances (their standard deviation, the reference's own error
taken out); how often the interval holds the mean of the seeds' chances; how often it holds
its own seed's chance, measured against that seed's reference with the interval widened by
the reference's own error (95% when the interval is right); the mean estimate, the mean
width and how many runs were wider than 20 points; the games; the CPU seconds of one run (in
this process, the kernels compiled: no start-up). Each run is a JSON line in
OUT/odds-CODE.jsonl and OUT/ref-CODE.jsonl, written as it finishes, so a stopped run resumes
where it stopped, and a later ``--ref-games`` adds reference games to the seeds that have
fewer. docs/fair.md ("`odds`, measured") gives the figures of one run.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np

from golfsolve.fair.odds import fair_games, odds_for_player
from golfsolve.fair.orders import stock_orders, with_stock
from golfsolve.fair.view import as_seen
from golfsolve.intervals import Z95
from golfsolve.solitaire.layout import layout_from_code
from golfsolve.solitaire.solver import Solver

DEALS = ["GO1-C-AAAAAAB", "GO1-C-AAAAAAC", "GO1-E-AAAAAAA"]


def odds_run(code: str, seed: int) -> dict:
    """`golfsolve odds CODE --seed SEED` at its defaults, as numbers."""
    t = time.process_time()
    r = odds_for_player(layout_from_code(code), seed=seed)
    return {"seed": seed, "wins": r.wins, "n": r.samples, "fw": r.fair_wins, "m": r.fair_games, "est": r.fair_chance,
            "lo": r.fair_low, "hi": r.fair_high, "stopped": r.stopped, "cpu": time.process_time() - t}


def reference_run(code: str, seed: int, games: int, solver: Solver, first_round: int = 0) -> dict:
    """Seed ``seed``'s fair player on the first ``games`` winnable orders of streams of their
    own: rounds of 200 orders (as odds draws them), text seeds ``reference-SEED-ROUND`` from
    ``first_round`` on, until there are enough."""
    t = time.process_time()
    layout = layout_from_code(code)
    view = as_seen(layout)
    winnable: list = []
    lines: list = []
    streams: list = []
    wins = n = 0
    while len(winnable) < games and len(streams) < 100:
        streams.append(f"reference-{seed}-{first_round + len(streams)}")
        stocks, every = stock_orders(view, layout.rules, 200, streams[-1])
        for st in stocks:
            sol = solver.solve(with_stock(view, st), layout.rules, verdict_only=True)
            n += 1
            if sol.outcome == "won":
                wins += 1
                winnable.append(st)
                lines.append(sol.moves)
        if every:  # every possible order drawn: another round is the same orders again
            break
    winnable, lines = winnable[:games], lines[:games]
    won = [w for w, _ in fair_games(view, layout.rules, winnable, seed, "fast", (), solver, winnable=True,
                                     lines=lines)]
    return {"seed": seed, "streams": streams, "wins": wins, "n": n, "fw": sum(won), "m": len(won),
            "cpu": time.process_time() - t}


def _read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def measure(code: str, runs: int, ref_games: int, out: Path) -> None:
    """The odds runs and the reference games not written yet, each run appended as it finishes."""
    solver = Solver()
    path = out / f"odds-{code}.jsonl"
    done = {r["seed"] for r in _read(path)}
    for seed in range(runs):
        if seed not in done:
            _append(path, odds_run(code, seed), f"{code} odds seed {seed}")
    path = out / f"ref-{code}.jsonl"
    have: dict[int, list] = {}
    for r in _read(path):
        have.setdefault(r["seed"], []).append(r)
    for seed in range(runs):
        games = sum(r["m"] for r in have.get(seed, []))
        if games < ref_games:
            rounds = sum(len(r.get("streams", ())) for r in have.get(seed, []))
            _append(path, reference_run(code, seed, ref_games - games, solver, rounds), f"{code} reference seed {seed}")


def _append(path: Path, r: dict, what: str) -> None:
    with path.open("a") as f:
        f.write(json.dumps(r) + "\n")
    print(f"{what}: {r['fw']}/{r['m']} games, {r['cpu']:.1f} s", flush=True)


def summary(code: str, out: Path) -> dict | None:
    """The coverage figures of one opening, from its files."""
    od = {r["seed"]: r for r in _read(out / f"odds-{code}.jsonl")}
    ref: dict[int, dict] = {}
    for r in _read(out / f"ref-{code}.jsonl"):  # a seed's reference runs pooled
        a = ref.setdefault(r["seed"], {"fw": 0, "m": 0, "wins": 0, "n": 0})
        for key in a:
            a[key] += r[key]
    seeds = sorted(s for s in set(od) & set(ref) if ref[s]["m"])
    if len(seeds) < 2:
        return None
    solved = [od[s] for s in seeds] + [ref[s] for s in seeds]
    share = sum(r["wins"] for r in solved) / sum(r["n"] for r in solved)
    rate = np.array([ref[s]["fw"] / ref[s]["m"] for s in seeds])
    games = np.array([ref[s]["m"] for s in seeds])
    chance = share * rate  # each seed's chance, from its reference games
    noise = share * np.sqrt(rate * (1 - rate) / games)  # each one's own sampling error
    mean = float(chance.mean())
    se = float(chance.std(ddof=1) / math.sqrt(len(seeds)))  # the seeds as clusters
    spread = math.sqrt(max(0.0, float(chance.var(ddof=1) - np.mean(noise ** 2))))
    est, lo, hi = (np.array([od[s][k] for s in seeds]) for k in ("est", "lo", "hi"))
    # the interval's own error on the side of the seed's reference, widened by the reference's
    side = np.where(chance > est, hi - est, est - lo) / Z95
    own = np.abs(est - chance) <= Z95 * np.sqrt(side ** 2 + noise ** 2)
    width = hi - lo
    return {"deal": code, "runs": len(seeds), "reference": mean, "se": se, "spread": spread,
            "ref_games": float(games.mean()), "covers_mean": float(np.mean((lo <= mean) & (mean <= hi))),
            "misses_low": int(np.sum(hi < mean)), "misses_high": int(np.sum(lo > mean)),
            "covers_own": float(np.mean(own)), "estimate": float(est.mean()), "width": float(width.mean()),
            "over_20": int(np.sum(width > 0.2 + 1e-9)), "games": float(np.mean([od[s]["m"] for s in seeds])),
            "cpu": float(np.mean([od[s]["cpu"] for s in seeds]))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", nargs="+", default=DEALS, metavar="CODE", help="deal codes (default: %(default)s)")
    ap.add_argument("--runs", type=int, default=60,
                    help="odds runs per opening, seeds 0..RUNS-1 (default: %(default)s)")
    ap.add_argument("--ref-games", type=int, default=80,
                    help="reference games per seed, on winnable orders of their own (default: %(default)s)")
    ap.add_argument("--out", default="results/odds-coverage", help="the directory of the runs' files")
    ap.add_argument("--summary", action="store_true", help="print the table from the files only, run nothing")
    a = ap.parse_args()
    if a.runs < 2 or a.ref_games < 1:
        ap.error("--runs must be at least 2 and --ref-games at least 1")
    out = Path(a.out)
    if not a.summary:
        out.mkdir(parents=True, exist_ok=True)
        for code in a.deals:
            measure(code, a.runs, a.ref_games, out)
    print(f"{'deal':14} {'runs':>4} {'reference':>15} {'seed sd':>7} {'covers mean':>16} {'covers own':>10} "
          f"{'mean est':>8} {'width':>5} {'>20':>3} {'games':>5} {'CPU s':>5}")
    for code in a.deals:
        s = summary(code, out)
        if s is None:
            print(f"{code:14} no runs in {out}")
            continue
        print(f"{code:14} {s['runs']:4} {100 * s['reference']:6.2f} ± {100 * s['se']:4.2f} {100 * s['spread']:7.1f} "
              f"{100 * s['covers_mean']:5.1f}% ({s['misses_low']:2}, {s['misses_high']:2}) "
              f"{100 * s['covers_own']:9.1f}% {100 * s['estimate']:8.2f} {100 * s['width']:5.1f} {s['over_20']:3} "
              f"{s['games']:5.1f} {s['cpu']:5.1f}")
    print("reference: the mean of the seeds' chances ± its standard error (points); seed sd: their spread; covers "
          "mean: how often the interval holds that mean (misses below, above); covers own: how often it holds its "
          "seed's own chance, the reference's error allowed for; CPU s: one odds run, start-up not counted")


if __name__ == "__main__":
    main()
