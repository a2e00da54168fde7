"""Fit the grid heuristic's parameters (``policy.DEFAULT_HP``) by self-play with CMA-ES.

    pip install -e '.[fit]'
    python benchmarks/fit_grid_policy.py --generations 30 --holes 16000 --seed 5

One seat plays a candidate setting, the other seats today's heuristic
(``policy.DEFAULT_HP``), on fresh decks every generation (every candidate of a generation
on the same decks, so they are ranked on equal cards). The objective is the candidate's
mean strokes per hole minus its table-mates' mean (negative: the candidate plays better).
The compiled tables (``search.simulate_holes_h``) play a hole in about 15 µs, so a
generation of 10 candidates at 16,000 holes costs a few seconds of CPU. The result is
re-checked on decks no generation used, paired, with a 95% interval over holes; whether
a fitted setting is adopted is decided by a paired tournament of the bots themselves
(docs/grid.md), not by this number.
"""

from __future__ import annotations

import argparse
from time import process_time as clock

import numpy as np

from golfsolve.grid import policy as P
from golfsolve.grid import search as S
from golfsolve.grid.bots import kernel_tables
from golfsolve.grid.rules import parse_rules

#: The parameters fitted (the knock margin only matters with knocking rules).
NAMES = ["take", "close", "knock", "swap", "prog"]


def table_score(hp: np.ndarray, rules, decks: np.ndarray, seed: int) -> tuple[float, float]:
    """(mean, standard error) over holes of ``hp``'s strokes minus its table-mates' mean,
    ``hp`` at seat 0 and today's heuristic elsewhere; the first player rotates."""
    prm, kt, vt = kernel_tables(rules)
    n = rules.players
    hps = np.tile(P.DEFAULT_HP, (n, 1))
    hps[0] = hp
    firsts = np.arange(decks.shape[0], dtype=np.int64) % n
    scores, _info = S.simulate_holes_h(decks, firsts, prm, hps, kt, vt, seed)
    d = scores[:, 0] - scores[:, 1:].mean(axis=1)
    return float(d.mean()), float(d.std(ddof=1) / np.sqrt(len(d)))


def deal(rules, m: int, rng: np.random.Generator) -> np.ndarray:
    cards = np.array(rules.deck_cards(), dtype=np.int64)
    return np.array([rng.permutation(cards) for _ in range(m)], dtype=np.int64)


def to_hp(x: np.ndarray, fitted: list[int]) -> np.ndarray:
    hp = P.DEFAULT_HP.copy()
    for j, k in enumerate(fitted):
        hp[k] = int(round(100 * x[j]))
    return hp


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="default")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--grid", type=int, default=6)
    ap.add_argument("--generations", type=int, default=30)
    ap.add_argument("--popsize", type=int, default=10)
    ap.add_argument("--holes", type=int, default=16000, help="holes per candidate per generation")
    ap.add_argument("--check-holes", type=int, default=100000, help="holes for the final paired check")
    ap.add_argument("--sigma", type=float, default=1.5, help="initial step, strokes")
    ap.add_argument("--seed", type=int, default=5)
    a = ap.parse_args()
    try:
        import cma  # after parsing: --help needs no fitting extra
    except ImportError:
        raise SystemExit("fit_grid_policy.py: this needs the fitting extra: pip install -e '.[fit]'") from None
    rules = parse_rules(a.rules, players=a.players, grid=a.grid)
    fitted = [P.H_TAKE, P.H_CLOSE, P.H_SWAP, P.H_PROG]
    if rules.knock != "off":
        fitted.insert(2, P.H_KNOCK)
    rng = np.random.default_rng(a.seed)
    x0 = [P.DEFAULT_HP[k] / 100 for k in fitted]
    es = cma.CMAEvolutionStrategy(x0, a.sigma, {"popsize": a.popsize, "seed": a.seed, "verbose": -9})
    t0 = clock()
    for gen in range(a.generations):
        decks = deal(rules, a.holes, rng)
        xs = es.ask()
        seed = int(rng.integers(2**31 - 1))
        fs = [table_score(to_hp(np.asarray(x), fitted), rules, decks, seed)[0] for x in xs]
        es.tell(xs, fs)
        mean_hp = to_hp(es.mean, fitted)
        print(f"gen {gen:3d}  best {min(fs):+.3f}  mean setting {dict(zip([NAMES[k] for k in fitted], mean_hp[fitted].tolist()))}"
              f"  CPU {clock() - t0:.0f} s", flush=True)
    hp = to_hp(es.mean, fitted)
    decks = deal(rules, a.check_holes, np.random.default_rng(a.seed + 10_000))
    m, se = table_score(hp, rules, decks, a.seed + 1)
    print(f"fitted hp = {hp.tolist()} (today's {P.DEFAULT_HP.tolist()}); {rules.describe()}")
    print(f"fitted - today's, {a.check_holes} fresh holes: {m:+.3f} [{m - 1.96 * se:+.3f}, {m + 1.96 * se:+.3f}]"
          f" strokes per hole; CPU {clock() - t0:.0f} s")


if __name__ == "__main__":
    main()
