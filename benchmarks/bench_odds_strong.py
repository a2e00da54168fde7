"""CPU per fair game of `odds --strong` beside `odds`' default player, interleaved game by game.

    python benchmarks/bench_odds_strong.py [--games 20] [--seed 0]

The fair games `odds` plays on the seed 000 example (tests/data/seed000_start.txt, stock
order unknown beyond 8S): the same stock orders and seeds as `odds`, each played by the
fast preset and by the strong one (:data:`golfsolve.fair.PRESETS`) in turn, which one goes first
alternating, in one process after a warm-up; CPU time of each game
(``time.process_time``). Prints wins and CPU seconds per game of each and the ratio.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from golfsolve.fair import play, stock_orders
from golfsolve.fair.orders import with_stock
from golfsolve.solitaire.layout import read_layout_file
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import Solver

SEED000 = Path(__file__).resolve().parent.parent / "tests" / "data" / "seed000_start.txt"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    lay = read_layout_file(SEED000)
    solver = Solver()
    players = {"default": "fast", "strong": "strong"}
    print(f"seed 000 opening, {a.games} fair games per rule set, seed {a.seed}, CPU seconds per game")
    print(f"{'rules':8} {'default wins':>12} {'strong wins':>11} {'default s':>9} {'strong s':>9} {'ratio':>6}")
    for name in ("easy", "classic"):
        rules = get_rules(name)
        stocks, _ = stock_orders(lay, rules, a.games, a.seed)
        for preset in players.values():  # warm-up: every kernel loaded before timing
            play(with_stock(lay, stocks[0]), rules, preset, "warm", solver)
        cpu = {p: 0.0 for p in players}
        wins = {p: 0 for p in players}
        for i, st in enumerate(stocks[: a.games]):
            order = list(players) if i % 2 == 0 else list(reversed(players))
            for p in order:
                t0 = time.process_time()
                g = play(with_stock(lay, st), rules, players[p], f"{a.seed}-{i}", solver)
                cpu[p] += time.process_time() - t0
                wins[p] += g.won
        n = min(a.games, len(stocks))
        print(f"{name:8} {wins['default']:>12} {wins['strong']:>11} {cpu['default'] / n:>9.3f} "
              f"{cpu['strong'] / n:>9.3f} {cpu['strong'] / cpu['default']:>5.2f}x")


if __name__ == "__main__":
    main()
