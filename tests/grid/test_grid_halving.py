"""The halving search and the fitted heuristic: what the search returns, that its rounds
drop candidates, that its choices are sound in clear positions, and that the fitted
heuristic is the compiled policy with other parameters."""

from __future__ import annotations

import numpy as np
import pytest

from golfsolve.errors import InputError
from golfsolve.grid import policy as P
from golfsolve.grid import search as S
from golfsolve.grid.bots import HeuristicBot, _draw_candidates, make_bot, view_arrays
from golfsolve.grid.engine import Hole
from golfsolve.grid.fitted import FittedHeuristicBot
from golfsolve.grid.halving import HalvingBot, halving
from golfsolve.grid.rules import GridRules

from grid_helpers import ScriptBot, stack


def _position(discard: str):
    """P0 shows JC 5D (hidden 6H 7S 8C 9D), P1 shows 4C 4D; ``discard`` on the pile."""
    rules = GridRules(players=2, grid=6)
    deck = stack(rules, ["JC 5D 6H 7S 8C 9D", "4C 4D 3H 3S 5C 6C"], discard, "KH")
    hole = Hole(rules, [ScriptBot("p0"), ScriptBot("p1")], np.random.default_rng(0), deck=deck).state
    for p in (0, 1):
        hole.up[p][0] = hole.up[p][1] = True
    return hole


def _search(view, bot, playouts, seed=5):
    kinds, slots = _draw_candidates(view)
    grid0, up0, disc0, st0, pool, known, ucnt, pub = view_arrays(view, bot.tables(view.rules))
    prm, kt, vt = bot.tables(view.rules)
    hps = np.tile(P.DEFAULT_HP, (view.rules.players, 1))
    return kinds, slots, (grid0, up0, disc0, st0, pool, known, ucnt, pub, view.me, -1, np.array(kinds, np.int64),
                          np.array(slots, np.int64), playouts, seed, prm, hps, kt, vt, 0)


def test_halving_with_two_candidates_is_flat_monte_carlo_over_common_worlds():
    """One round, two candidates: the same worlds and play-outs as ``mc`` gives, value for value."""
    view = _position("JH").view(0)
    bot = HalvingBot()
    kinds, slots, args = _search(view, bot, 80)
    two = slice(0, 2)  # stock, and the discard into slot 0
    args = args[:10] + (args[10][two], args[11][two]) + args[12:]
    means = halving(*args)
    (g0, u0, d0, s0, pool, known, ucnt, pub, me, drawn, ck, cs, _n, seed, prm, hps, kt, vt, hz) = args
    flat = S.h_mc_evaluate(g0, u0, d0, s0, pool, known, ucnt, pub, me, drawn, ck, cs, 40, seed, prm, hps[0], kt,
                           vt, hz)
    assert np.allclose(means, flat)


def test_halving_rounds_keep_half_the_candidates_each_time():
    """Seven draw candidates: three rounds (7 -> 4 -> 2), so exactly two have a mean; the
    dropped ones are infinite, and the best survivor's mean is the lowest."""
    view = _position("JH").view(0)
    kinds, slots, args = _search(view, HalvingBot(), 700)
    means = halving(*args)
    assert len(kinds) == 7
    assert np.isfinite(means).sum() == 2
    assert np.isinf(means).sum() == 5


def test_halving_takes_the_jack_under_its_jack_and_leaves_a_useless_card():
    bot = HalvingBot(np.random.default_rng(1), playouts=300)
    hole = _position("JH")
    assert bot.choose_draw(hole.view(0)) == "discard"
    card = hole.discard.pop()
    assert bot.choose_place(hole.view(0, drawn=card, source="discard")) == ("swap", 3)  # under the jack
    assert HalvingBot(np.random.default_rng(1), playouts=300).choose_draw(_position("QH").view(0)) == "stock"


def test_halving_is_reproducible_and_registered():
    view = _position("7D").view(0)
    a = make_bot("halving:200", np.random.default_rng(9))
    b = make_bot("halving:200", np.random.default_rng(9))
    assert isinstance(a, HalvingBot) and a.playouts == 200
    assert make_bot("halving").playouts == 1000
    assert a.choose_draw(view) == b.choose_draw(view)
    with pytest.raises(InputError, match="at least 1"):
        make_bot("halving:0")


def test_fitted_heuristic_is_the_heuristic_with_the_fitted_parameters():
    """Same compiled policy, other parameters: a bot given FITTED_HP by hand decides alike."""
    bot = make_bot("heuristic-fit")
    assert isinstance(bot, FittedHeuristicBot) and list(bot.hp) == list(P.FITTED_HP)
    by_hand = HeuristicBot()
    by_hand.hp = P.FITTED_HP.copy()
    rules = GridRules(players=4, grid=6)
    rng = np.random.default_rng(3)
    for h in range(4):
        deck = [int(c) for c in rng.permutation(rules.deck_cards())]
        a = Hole(rules, [make_bot("heuristic-fit") for _ in range(4)], np.random.default_rng(h), deck=deck).play()
        b = Hole(rules, [by_hand for _ in range(4)], np.random.default_rng(h), deck=deck).play()
        assert a.strokes == b.strokes and a.turns == b.turns
