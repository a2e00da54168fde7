"""The greedy bot's compiled kernels: its policy, play-outs and Monte Carlo with it.

The policy mirrors :class:`.bots.GreedyBot` (integer arithmetic in hundredths so both make
the same choices) and plays on the arrays of :mod:`.layout`, whose turn procedure it calls.
``mc-greedy`` (:class:`.bots.GreedyMCBot`) evaluates candidates with :func:`mc_evaluate`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .layout import (A_DISCARD_SWAP, A_FLIP, A_KNOCK, A_PASS, A_STOCK, A_SWAP, P_G, P_H, P_KMARGIN,
                     P_KNOCK, P_N, P_NOFL, P_PUTT, P_TAKE, P_TURN, R_RUNNING, S_DL, S_CUR, S_ENDS, S_REASON, S_SL,
                     apply_place, deal_world, end_turn, final_scores, first_hidden, hidden_count, standing_total, world_arrays)

HIDDEN_KEY = -1000
BIG = 1 << 40


@njit(cache=True)
def estimate(grid, up, p, slot, card, prm, key_tab, val100, keys, vals, canc):
    """Player p's estimated strokes in hundredths, with ``card`` face up in ``slot`` if
    ``slot >= 0``; face-down cards count ``prm[P_H]`` and match nothing."""
    g = prm[P_G]
    for i in range(g):
        if i == slot:
            keys[i] = key_tab[card]
            vals[i] = val100[card]
        elif up[p, i]:
            c = grid[p, i]
            keys[i] = key_tab[c]
            vals[i] = val100[c]
        else:
            keys[i] = HIDDEN_KEY - i
            vals[i] = prm[P_H]
    return standing_total(keys, vals, canc, prm)


@njit(cache=True)
def _opp_min(grid, up, p, prm, key_tab, val100, keys, vals, canc):
    m = BIG
    for q in range(prm[P_N]):
        if q != p:
            e = estimate(grid, up, q, -1, 0, prm, key_tab, val100, keys, vals, canc)
            if e < m:
                m = e
    return m


@njit(cache=True)
def place_choice(grid, up, p, card, from_discard, ending, prm, key_tab, val100, keys, vals, canc):
    """The greedy placement of ``card``: (kind, slot, gain in hundredths).

    Swap into the slot that lowers the estimate most; a stock card that helps nowhere is
    thrown away and the first face-down card turned. A move that would close the hole is
    made only when the player's estimate is no worse than every opponent's; otherwise the
    hole is kept open (final putt, or a swap into a face-up slot).
    """
    g = prm[P_G]
    nh = hidden_count(up, p, g)
    first_h = first_hidden(up, p, g)
    now = estimate(grid, up, p, -1, 0, prm, key_tab, val100, keys, vals, canc)
    opp = _opp_min(grid, up, p, prm, key_tab, val100, keys, vals, canc)
    best_i = -1
    best_gain = -BIG
    any_i = -1
    any_gain = -BIG
    for i in range(g):
        after = estimate(grid, up, p, i, card, prm, key_tab, val100, keys, vals, canc)
        gain = now - after
        if gain > any_gain:
            any_gain = gain
            any_i = i
        closes = (not ending) and (not up[p, i]) and nh == 1
        if closes and after > opp:
            continue
        if gain > best_gain:
            best_gain = gain
            best_i = i
    if from_discard:
        if best_i >= 0:
            return A_SWAP, best_i, best_gain
        return A_SWAP, any_i, any_gain
    if best_i >= 0 and best_gain > 0:
        return A_SWAP, best_i, best_gain
    flip_closes = (not ending) and nh == 1
    can_flip = prm[P_TURN] != 0
    if can_flip and first_h >= 0 and ((not flip_closes) or now <= opp):
        return A_FLIP, first_h, 0
    if prm[P_NOFL] != 0 or (prm[P_PUTT] != 0 and nh == 1):
        return A_PASS, -1, 0
    if best_i >= 0:
        return A_SWAP, best_i, best_gain
    if can_flip and first_h >= 0:
        return A_FLIP, first_h, 0
    return A_SWAP, any_i, any_gain


@njit(cache=True)
def should_knock(grid, up, p, ending, prm, key_tab, val100, keys, vals, canc):
    """Greedy knocks with at most one card face down and an estimate ``P_KMARGIN`` below everyone."""
    if prm[P_KNOCK] == 0 or ending:
        return False
    if hidden_count(up, p, prm[P_G]) > 1:
        return False
    now = estimate(grid, up, p, -1, 0, prm, key_tab, val100, keys, vals, canc)
    opp = _opp_min(grid, up, p, prm, key_tab, val100, keys, vals, canc)
    return now + prm[P_KMARGIN] <= opp


@njit(cache=True)
def policy_turn(grid, up, stock, disc, st, prm, key_tab, val100, keys, vals, canc):
    """One greedy turn for the player to move."""
    p = st[S_CUR]
    ending = st[S_ENDS] >= 0
    hb = hidden_count(up, p, prm[P_G])
    if should_knock(grid, up, p, ending, prm, key_tab, val100, keys, vals, canc):
        end_turn(grid, up, stock, disc, st, p, hb, True, prm)
        return
    top = disc[st[S_DL] - 1]
    kind, slot, gain = place_choice(grid, up, p, top, True, ending, prm, key_tab, val100, keys, vals, canc)
    if gain >= prm[P_TAKE]:
        st[S_DL] -= 1
        card = top
    else:
        st[S_SL] -= 1
        card = stock[st[S_SL]]
        kind, slot, gain = place_choice(grid, up, p, card, False, ending, prm, key_tab, val100, keys, vals, canc)
    apply_place(grid, up, disc, st, p, card, kind, slot)
    end_turn(grid, up, stock, disc, st, p, hb, False, prm)


@njit(cache=True)
def play_out(grid, up, stock, disc, st, prm, key_tab, val100, keys, vals, canc):
    """Greedy turns until the hole ends."""
    while st[S_REASON] == R_RUNNING:
        policy_turn(grid, up, stock, disc, st, prm, key_tab, val100, keys, vals, canc)


@njit(cache=True)
def mc_evaluate(grid0, up0, disc0, st0, pool, known, stock_len, me, drawn, cand_kind, cand_slot,
                n_samples, seed, prm, key_tab, val100):
    """Mean strokes for ``me`` after each candidate action, over ``n_samples`` worlds.

    A world deals the ``pool`` (cards no one has seen) into the face-down slots of
    ``grid0``/``up0`` and, with the ``known`` recycled cards, into a shuffled stock of
    ``stock_len`` cards. Every candidate is played out in the same worlds (common random
    numbers), the rest of the hole by the greedy policy. ``drawn < 0`` means the draw
    stage (candidates ``A_STOCK``, ``A_DISCARD_SWAP``, ``A_KNOCK``); otherwise ``drawn``
    is in hand and the candidates are placements.
    """
    np.random.seed(seed)
    g = prm[P_G]
    cap = disc0.shape[0]
    nc = cand_kind.shape[0]
    totals = np.zeros(nc, np.float64)
    wgrid, grid, up, stock, disc, st, out = world_arrays(prm, cap)
    wstock = np.zeros(cap, np.int64)
    keys = np.zeros(g, np.int64)
    vals = np.zeros(g, np.int64)
    canc = np.zeros(g, np.bool_)
    perm = pool.copy()
    for _ in range(n_samples):
        deal_world(grid0, up0, pool, known, stock_len, perm, wgrid, wstock)
        for c in range(nc):
            grid[:, :] = wgrid
            up[:, :] = up0
            stock[:stock_len] = wstock[:stock_len]
            disc[:] = disc0
            st[:] = st0
            hb = hidden_count(up, me, g)
            ending = st[S_ENDS] >= 0
            kind = cand_kind[c]
            if kind == A_KNOCK:
                end_turn(grid, up, stock, disc, st, me, hb, True, prm)
            else:
                if kind == A_STOCK:
                    st[S_SL] -= 1
                    card = stock[st[S_SL]]
                    pk, ps, _g = place_choice(grid, up, me, card, False, ending, prm, key_tab, val100, keys, vals, canc)
                elif kind == A_DISCARD_SWAP:
                    st[S_DL] -= 1
                    card = disc[st[S_DL]]
                    pk = A_SWAP
                    ps = cand_slot[c]
                else:
                    card = drawn
                    pk = kind
                    ps = cand_slot[c]
                apply_place(grid, up, disc, st, me, card, pk, ps)
                end_turn(grid, up, stock, disc, st, me, hb, False, prm)
            play_out(grid, up, stock, disc, st, prm, key_tab, val100, keys, vals, canc)
            final_scores(grid, st, prm, key_tab, val100, keys, vals, canc, out)
            totals[c] += out[me]
    for c in range(nc):
        totals[c] /= n_samples
    return totals
