"""What the tests of several folders take from the fair player's: small endgames whose fair answers
are known (tests/fair/test_fair.py works them out; the fair sampling tests, the native kernels'
agreement test and docs/fair.md's worked example play them too), the seeded simulation of
odds' interval whose coverage tests/fair/test_fair_odds.py checks and docs/fair.md quotes, and
mid-game layouts with twins whose stocks hold other cards (the honesty probes of the library,
the command line and the server)."""

from __future__ import annotations

import random

from golfsolve.cards import N_STANDARD
from golfsolve.fair.odds import WORK_BUDGET, play_until
from golfsolve.intervals import product_interval, wilson
from golfsolve.solitaire.engine import Game
from golfsolve.solitaire.layout import Layout, layout_from_number, parse_layout_text
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import Solver


def endgame(text: str):
    """A mid-game layout whose stock cards are the only unseen ones: every other card is
    listed as played (it went to the discard pile earlier), as a player would know."""
    lay = parse_layout_text(text)
    stock = set(lay.stock)
    played = [c for c in lay.unseen_cards(0) if c not in stock]
    return lay, played


# Classic. With this stock, removing 3H (col 2), 5H (col 4) or 3C (col 5) all keep a win, and
# the clairvoyant hint ranks 3H first. Without the stock order only 5H wins for every order
# of the five stock cards; 3H and 3C win in 96 of the 120 orders.
DIFFER = """rules: classic
discard: 4H
stock: 4S TH 6D 4D 6C
1: 2D
2: 3H
3:
4: 8D 5H
5: 3S 3C
6:
7: 9S
"""

# Classic. 5H then 6S empties the table at once; a draw (KD or 2C) blocks 5H for good.
AGREE = """rules: classic
discard: 4C
stock: KD 2C
1: 6S 5H
2:
3:
4:
5:
6:
7:
"""


# Easy: deal 111 (GO1-E-AAAAAEH) after a winning line down to 8 table cards and 6 stock cards.
ENDGAME = """rules: easy
discard: JC
stock: 3S JH TD QD 5S JS
1: KH 9C
2:
3:
4: 7H QH QS
5: TS
6: 6S
7: 4C
"""


def _naive(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    # the first factor taken as exact: what ignoring the clairvoyant chance's own error gives
    return product_interval(k1, n1, k2, n2, exact1=True)


def _coverage(pc: float, q: float, reps: int, rng: random.Random, interval=product_interval) -> float:
    """How often odds' rule (200 clairvoyant samples, games on winnable orders until the
    interval is at most WIDTH wide or the budget is spent) ends with ``interval`` holding pc * q."""
    hits = 0
    for _ in range(reps):
        wins = sum(rng.random() < pc for _ in range(200))
        if wins == 0:
            hits += 0.0 <= pc * q <= wilson(0, 200)[2]
            continue
        # each synthetic game costs 1/60 of the budget: the budget stops the hardest cases at 60 games
        games = ((rng.random() < q, WORK_BUDGET // 60) for _ in range(wins))
        fw, m, _, _ = play_until(games, wins, 200)
        _, lo, hi = interval(wins, 200, fw, m)
        hits += lo <= pc * q <= hi
    return hits / reps


def simulated_coverage() -> tuple[dict, float]:
    """The seeded run docs/fair.md quotes: each cell's coverage over 300 simulated answers,
    and the coverage of the interval that takes the clairvoyant chance as exact at 0.5 x 0.9."""
    rng = random.Random(19)
    grid = [(pc, q) for pc in (0.3, 0.75, 0.97) for q in (0.05, 0.3, 0.5, 0.8)]
    cover = {cell: _coverage(*cell, reps=300, rng=rng) for cell in grid}
    return cover, _coverage(0.5, 0.9, reps=300, rng=rng, interval=_naive)


def mid_game(spec: str, number: int, moves: int) -> Layout:
    """Deal ``number`` under ``spec`` after the first ``moves`` moves of its winning line,
    written as a layout file would give it: the table, the discard's top and the real stock,
    the cards played under the top nowhere."""
    rules = get_rules(spec)
    real = layout_from_number(number, rules)
    game = Game(real, rules)
    for m in Solver().solve(real, rules).moves[:moves]:
        assert game.play(m).ok
    now = game.to_layout()
    return Layout(now.columns, now.discard, now.stock, rules)


def other_contents(lay: Layout, seed: int) -> Layout:
    """``lay`` with a stock of other cards from those it does not show, in another order (under
    jokers: a joker where ``lay``'s stock has none, or none where it has one)."""
    rules = lay.rules
    hidden = lay.forget_stock(0).unseen_cards(rules.jokers)  # the stock's cards and those played
    rng = random.Random(seed)
    while True:
        stock = rng.sample(hidden, len(lay.stock))
        jokers = [any(c >= N_STANDARD for c in s) for s in (stock, lay.stock)]
        if set(stock) != set(lay.stock) and (not rules.jokers or jokers[0] != jokers[1]):
            return Layout(lay.columns, lay.discard, tuple(stock), rules)
