"""Sequential halving over common worlds: the search bot ``halving``.

At each decision the bot deals worlds consistent with its view (the hidden cards are only
ever sampled, as in :mod:`.search`) and plays every candidate action out in the *same*
worlds with the heuristic, so the candidates are compared on equal cards (common random
numbers): the luck of the deal cancels out of their differences. The play-out budget is
spent in rounds (sequential halving, Karnin, Koren & Somekh 2013): each round shares its
part of the budget equally among the surviving candidates and keeps the better half by
mean strokes, so the last few candidates are compared over far more worlds than a flat
split (``mc``) gives them, and UCB's unpaired samples (``ismcts``) never do.
"""

from __future__ import annotations

from typing import Optional

import numpy as np
from numba import njit

from .bots import _Searcher, DEFAULT_HORIZON
from ..errors import InputError
from .policy import h_play_out_seats
from .rollout import P_N, S_DL, S_SL, S_TURN
from .search import _act, _deal_world, _outcome, _scratch, _world
from .view import PlayerView

#: Play-outs per decision of ``halving`` (about the CPU of ``ismcts`` at 1,000 iterations).
DEFAULT_PLAYOUTS = 1000


@njit(cache=True)
def halving(grid0, up0, disc0, st0, pool, known, ucnt0, pub0, me, drawn, cand_kind, cand_slot, playouts, seed,
            prm, hps, key_tab, val100, horizon):
    """Mean strokes of each candidate (``inf`` for those dropped in a round) after
    sequential halving with ``playouts`` play-outs in all; candidates as
    :func:`.search.h_mc_evaluate`, seat ``p`` playing the heuristic with ``hps[p]``."""
    np.random.seed(seed)
    nc = cand_kind.shape[0]
    sums = np.zeros(nc, np.float64)
    cnt = np.zeros(nc, np.float64)
    alive = np.ones(nc, np.bool_)
    n_alive = nc
    rounds = 1
    while (1 << rounds) < nc:
        rounds += 1
    wgrid, grid, up, stock, disc, st, ucnt, pub, out = _world(prm, disc0.shape[0])
    wstock = np.zeros(disc0.shape[0], np.int64)
    sc, sk, sx, keys, canc, gains, vals = _scratch(prm)
    perm = pool.copy()
    sl = st0[S_SL]
    dl = st0[S_DL]
    stop = st0[S_TURN] + horizon if horizon > 0 else 1 << 40
    means = np.zeros(nc, np.float64)
    for r in range(rounds):
        worlds = max(1, playouts // (rounds * n_alive))
        for _ in range(worlds):
            _deal_world(grid0, up0, pool, known, sl, perm, wgrid, wstock)
            for c in range(nc):
                if not alive[c]:
                    continue
                grid[:, :] = wgrid
                up[:, :] = up0
                stock[:sl] = wstock[:sl]
                disc[:dl] = disc0[:dl]
                st[:] = st0
                ucnt[:] = ucnt0
                pub[:] = pub0
                _act(grid, up, stock, disc, st, me, cand_kind[c], cand_slot[c], drawn, prm, hps[me], key_tab, val100,
                     ucnt, pub, sc, sk, sx, keys, canc, gains)
                h_play_out_seats(grid, up, stock, disc, st, prm, hps, key_tab, val100, ucnt, pub, sc, sk, sx, keys,
                                 canc, gains, stop)
                sums[c] += _outcome(grid, st, me, prm, key_tab, val100, keys, vals, canc, out)
                cnt[c] += 1
        for c in range(nc):
            means[c] = sums[c] / cnt[c] if alive[c] else np.inf
        if r == rounds - 1:
            break
        keep = (n_alive + 1) // 2
        order = np.argsort(means)
        for j in range(keep, nc):
            alive[order[j]] = False
        n_alive = keep
    return means


class HalvingBot(_Searcher):
    """Sequential halving over common sampled worlds (:func:`halving`) with ``playouts``
    heuristic play-outs per decision; the lowest mean strokes among the last survivors is
    played."""

    kind = "halving"

    def __init__(self, rng: Optional[np.random.Generator] = None, name: Optional[str] = None,
                 playouts: int = DEFAULT_PLAYOUTS, horizon: int = DEFAULT_HORIZON) -> None:
        super().__init__(rng, name)
        if playouts < 1:
            raise InputError(f"halving play-outs must be at least 1, not {playouts}")
        self.playouts = playouts
        self.horizon = horizon

    def seat_params(self, view: PlayerView) -> np.ndarray:
        """The heuristic parameters each seat plays with in the play-outs (one row per seat)."""
        return np.tile(self.hp, (view.rules.players, 1))

    def _best(self, view, kinds, slots, drawn) -> int:
        if len(kinds) == 1:
            return 0
        grid0, up0, disc0, st0, pool, known, ucnt, pub = self._arrays(view)
        prm, kt, vt = self.tables(view.rules)
        seed = int(self.rng.integers(2**31 - 1))
        self.decisions += 1
        means = halving(grid0, up0, disc0, st0, pool, known, ucnt, pub, view.me, drawn, np.array(kinds, np.int64),
                        np.array(slots, np.int64), self.playouts, seed, prm, self.seat_params(view), kt, vt,
                        self.horizon)
        return int(np.argmin(means))
