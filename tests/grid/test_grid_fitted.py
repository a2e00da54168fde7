"""The fitted heuristic (``heuristic-fit``): the compiled heuristic with other parameters,
seat by seat in the compiled tables the fitting uses, and reachable by name."""

from __future__ import annotations

import numpy as np
import pytest

from golfsolve.grid import policy as P
from golfsolve.grid import search as S
from golfsolve.grid.bots import HeuristicBot, kernel_tables, make_bot
from golfsolve.grid.engine import Hole
from golfsolve.grid.fitted import FittedHeuristicBot
from golfsolve.grid.rules import GridRules, parse_rules


def test_heuristic_fit_is_registered_with_the_fitted_parameters():
    bot = make_bot("heuristic-fit")
    assert isinstance(bot, FittedHeuristicBot) and bot.name == "heuristic-fit"
    assert list(bot.hp) == list(P.FITTED_HP) != list(P.DEFAULT_HP)
    assert list(make_bot("heuristic").hp) == list(P.DEFAULT_HP)


@pytest.mark.parametrize("rules", [GridRules(), parse_rules("danish", players=3)])
def test_each_seat_plays_its_own_parameters_in_the_compiled_tables(rules):
    """``simulate_holes_h`` with the fitted row at seat 0 and today's elsewhere plays the
    holes the referee plays with ``heuristic-fit`` at seat 0 and ``heuristic`` elsewhere
    (where neither recycled the stock, since their shuffles differ); all-fitted and
    all-today's tables differ from it, so the rows are really read per seat."""
    rng = np.random.default_rng(8)
    m = 30
    n = rules.players
    decks = np.array([rng.permutation(rules.deck_cards()) for _ in range(m)], dtype=np.int64)
    firsts = np.arange(m) % n
    prm, kt, vt = kernel_tables(rules)
    hps = np.tile(P.DEFAULT_HP, (n, 1))
    hps[0] = P.FITTED_HP
    scores, info = S.simulate_holes_h(decks, firsts, prm, hps, kt, vt, 1)
    compared = 0
    for h in range(m):
        bots = [make_bot("heuristic-fit")] + [HeuristicBot() for _ in range(n - 1)]
        res = Hole(rules, bots, np.random.default_rng(h), deck=list(decks[h]), first=int(firsts[h])).play()
        if res.recycles == 0 and info[h, 2] == 0:
            assert list(scores[h]) == res.strokes, f"hole {h}"
            assert info[h, 1] == res.turns
            compared += 1
    assert compared >= m // 2
    for same in (P.DEFAULT_HP, P.FITTED_HP):
        other, _ = S.simulate_holes_h(decks, firsts, prm, np.tile(same, (n, 1)), kt, vt, 1)
        assert not np.array_equal(other, scores)
