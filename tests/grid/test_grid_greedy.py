"""The compiled kernels against plain Python: scoring, the greedy estimate, greedy Monte Carlo.

The compiled turn procedure and greedy play-outs are checked against the hole state action by
action in test_grid_state.py."""

from __future__ import annotations

import numpy as np
import pytest

from golfsolve.grid import greedy as G
from golfsolve.grid import layout as L
from golfsolve.grid.bots import GreedyMCBot, kernel_tables
from golfsolve.grid.rules import GridRules, parse_rules
from golfsolve.grid.scoring import estimate100, grid_score

from grid_helpers import opened, stack

RULESETS = [
    GridRules(),
    GridRules(players=3, grid=9),
    GridRules(players=2, grid=4, knock="plus10", final_putt=True),
    GridRules(players=5, grid=8, cancel="anywhere", cancel_by_value=True, discard_without_flip=True, jokers=True),
    GridRules(players=4, grid=6, cancel="rows", twos_plus=True, knock="double"),
    parse_rules("danish", players=3, grid=9),
    parse_rules("default+pairs+rows", players=4, grid=8),
    parse_rules("danish", players=4, grid=6),
]


def _scratch(g):
    return np.zeros(g, np.int64), np.zeros(g, np.int64), np.zeros(g, np.bool_)


@pytest.mark.parametrize("rules", RULESETS)
def test_kernel_scores_and_estimates_match_python(rules):
    rng = np.random.default_rng(7)
    prm, kt, vt = kernel_tables(rules)
    g = rules.grid
    keys, vals, canc = _scratch(g)
    cards = np.array(rules.deck_cards())
    # Few distinct ranks make cancels common, so every cancel path is exercised.
    low = cards[np.isin(cards % 13, [0, 1, 9, 10, 11]) | (cards >= 52)]  # also makes pairs in 3-tall columns
    for trial in range(300):
        pool = low if trial % 2 else cards
        grid = rng.choice(pool, size=(1, g)).astype(np.int64)
        up = rng.random((1, g)) < 0.6
        assert L.exact_score(grid, 0, prm, kt, vt, keys, vals, canc) == grid_score(list(grid[0]), rules)
        view_grid = [int(c) if u else None for c, u in zip(grid[0], up[0])]
        assert G.estimate(grid, up, 0, -1, 0, prm, kt, vt, keys, vals, canc) == \
            estimate100(view_grid, rules, int(prm[L.P_H]))


def _opening_view(discard: str):
    rules = GridRules(players=2, grid=6)
    deck = stack(rules, ["JC 5D 6H 7S 8C 9D", "4C 4D 3H 3S 5C 6C"], discard, "KH")
    return opened(rules, deck, [[0, 1], [0, 1]]).observation(0)


def test_mc_evaluate_is_reproducible_and_seed_dependent():
    view = _opening_view("QH")
    bot = GreedyMCBot(np.random.default_rng(1), samples=40)
    args = bot._arrays(view)
    grid0, up0, disc0, st0, pool, known, prm, kt, vt = args
    kinds = np.array([L.A_STOCK] + [L.A_DISCARD_SWAP] * 6, np.int64)
    slots = np.array([-1, 0, 1, 2, 3, 4, 5], np.int64)
    run = lambda seed: G.mc_evaluate(grid0, up0, disc0, st0, pool, known, view.stock_size, 0, -1,  # noqa: E731
                                     kinds, slots, 40, seed, prm, kt, vt)
    a, b, c = run(1), run(1), run(2)
    assert (a == b).all() and not (a == c).all()
    # Putting the queen on top of the face-down card under the jack is worse than leaving it.
    assert a[4] > a[0]


def test_mc_takes_the_jack_that_cancels_its_column():
    view = _opening_view("JH")  # JC is face up in slot 0 (column 0) above a face-down card
    bot = GreedyMCBot(np.random.default_rng(3), samples=60)
    assert bot.choose_draw(view) == "discard"
    assert bot._plan == (view.turn, 3)  # slot 3 is column 0's lower card
