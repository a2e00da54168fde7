"""Sequential halving over common worlds, playing for the table: the ``paired-rel`` bot.

At each decision the bot deals worlds consistent with its view (hidden cards only ever
sampled) and plays every surviving candidate out in the *same* worlds, so the luck of the
deal cancels out of their differences; the budget is spent in rounds that keep the better
half (sequential halving). Below the stock draw the drawn card's placement is chosen as
``ismcts`` chooses it (UCB over the information set "drew a card of this cancel key", the
heuristic's placement first) and the draw is worth each drawn key's best placement.

A play-out is worth the bot's strokes minus :data:`REL_WEIGHT` times the opponents' mean
strokes: Golf is won by the lowest total, so a move that costs the others more than it
costs the bot is worth making, and the term also takes out of the comparison much of the
luck all players share (a long hole lowers every score). Common worlds alone, or this
objective alone inside ``ismcts``, gained at best 0.16 and 0.23 strokes a hole against
``ismcts`` (intervals including 0); the two together 0.46 and 0.52 in two runs, at no more CPU (docs/grid.md,
docs/experiments.md).
"""

from __future__ import annotations

from typing import Optional

import numpy as np
from numba import njit

from ..inputs import whole_count
from .bots import Searcher, UCB_C
from .layout import A_STOCK, P_G, P_N, S_DL, S_SL, deal_world
from .policy import N_KEYS, h_play_out_seats
from .search import (PLACE_C, best_mean, play_candidate, scratch_arrays, searcher_strokes, tree_place,
                     world_and_pool)

#: Play-outs per decision (a little less CPU than ``ismcts`` at 1,000 iterations).
DEFAULT_PLAYOUTS = 1000
#: The weight of the opponents' mean strokes in a play-out's value.
REL_WEIGHT = 0.5


@njit(cache=True)
def paired(grid0, up0, disc0, st0, pool, known, ucnt0, pub0, me, drawn, cand_kind, cand_slot, place_legal,
           playouts, c_place, seed, prm, hps, key_tab, val100, rel):
    """Mean value of each candidate (``inf`` for those dropped in a round) after
    sequential halving with ``playouts`` play-outs over common worlds; a stock draw's
    value is the max backup of its placement tree. Seat ``p`` plays ``hps[p]``. A
    play-out's value is ``me``'s strokes minus ``rel`` times the opponents' mean strokes."""
    np.random.seed(seed)
    g = prm[P_G]
    nc = cand_kind.shape[0]
    hp = hps[me]
    sums = np.zeros(nc, np.float64)
    cnt = np.zeros(nc, np.float64)
    alive = np.ones(nc, np.bool_)
    n_alive = nc
    rounds = 1
    while (1 << rounds) < nc:
        rounds += 1
    na = 2 * g + 1
    kn = np.zeros(N_KEYS, np.float64)
    pn = np.zeros((N_KEYS, na), np.float64)
    pw = np.zeros((N_KEYS, na), np.float64)
    wgrid, grid, up, stock, disc, st, ucnt, pub, out = world_and_pool(prm, disc0.shape[0])
    wstock = np.zeros(disc0.shape[0], np.int64)
    sc, sk, sx, keys, canc, gains, vals = scratch_arrays(prm)
    perm = pool.copy()
    sl = st0[S_SL]
    dl = st0[S_DL]
    means = np.zeros(nc, np.float64)
    for r in range(rounds):
        worlds = max(1, playouts // (rounds * n_alive))
        for _ in range(worlds):
            deal_world(grid0, up0, pool, known, sl, perm, wgrid, wstock)
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
                kidx = -1
                pa = -1
                if cand_kind[c] == A_STOCK and drawn < 0:
                    kidx, pa = tree_place(grid, up, stock, disc, st, me, prm, hp, key_tab, val100, ucnt, pub, sc, sk,
                                           sx, keys, canc, gains, kn, pn, pw, place_legal, c_place)
                else:
                    play_candidate(grid, up, stock, disc, st, me, cand_kind[c], cand_slot[c], drawn, prm, hp, key_tab, val100,
                         ucnt, pub, sc, sk, sx, keys, canc, gains)
                h_play_out_seats(grid, up, stock, disc, st, prm, hps, key_tab, val100, ucnt, pub, sc, sk, sx, keys,
                                 canc, gains)
                res = searcher_strokes(grid, st, me, prm, key_tab, val100, keys, vals, canc, out)
                if rel != 0.0:
                    o = 0.0
                    for q in range(prm[P_N]):
                        if q != me:
                            o += out[q]
                    res -= rel * o / (prm[P_N] - 1)
                sums[c] += res
                cnt[c] += 1
                if kidx >= 0:
                    kn[kidx] += 1
                    pn[kidx, pa] += 1
                    pw[kidx, pa] += res
        for c in range(nc):
            if not alive[c]:
                means[c] = np.inf
            elif cand_kind[c] == A_STOCK and drawn < 0:
                # Each drawn key's best placement, weighted by how often it was drawn.
                tot = 0.0
                for k in range(N_KEYS):
                    if kn[k] > 0:
                        tot += kn[k] * best_mean(pn[k], pw[k])
                means[c] = tot / cnt[c]
            else:
                means[c] = sums[c] / cnt[c]
        if r == rounds - 1:
            break
        keep = (n_alive + 1) // 2
        order = np.argsort(means)
        for j in range(keep, nc):
            alive[order[j]] = False
        n_alive = keep
    return means


class PairedBot(Searcher):
    """Sequential halving over common sampled worlds (:func:`paired`) with ``playouts``
    heuristic play-outs per decision and ``ismcts``'s placement tree below a stock draw;
    the lowest mean value (own strokes less ``rel`` times the opponents' mean) among the
    last survivors is played."""

    kind = "paired-rel"
    fixed_settings = ("hp", "c_place")

    def __init__(self, rng: Optional[np.random.Generator] = None, name: Optional[str] = None,
                 playouts: int = DEFAULT_PLAYOUTS, rel: float = REL_WEIGHT) -> None:
        super().__init__(rng, name)
        self.playouts = whole_count(playouts, "paired-rel play-outs")  # 2**63 wrapped round in the kernel
        self.rel = rel
        self.c_place = UCB_C * PLACE_C

    def _best(self, view, kinds, slots, drawn) -> int:
        if len(kinds) == 1:
            return 0
        grid0, up0, disc0, st0, pool, known, ucnt, pub = self._arrays(view)
        prm, kt, vt = self.tables(view.rules)
        legal = self._place_mask(view, drawn)
        seed = int(self.rng.integers(2**31 - 1))
        self.decisions += 1
        means = paired(grid0, up0, disc0, st0, pool, known, ucnt, pub, view.me, drawn, np.array(kinds, np.int64),
                       np.array(slots, np.int64), legal, self.playouts, self.c_place, seed, prm,
                       np.tile(self.hp, (view.rules.players, 1)), kt, vt, self.rel)
        return int(np.argmin(means))
