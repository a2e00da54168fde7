"""Compiled searches with the heuristic policy: whole-hole play, flat Monte Carlo, ISMCTS.

* :func:`simulate_holes_h` plays dealt holes with the heuristic at every seat.
* :func:`h_mc_evaluate` is flat Monte Carlo: every candidate action played out in the
  same sampled worlds (the heuristic plays the rest of the hole).
* :func:`ismcts` is information-set Monte Carlo tree search (single observer): each
  iteration deals one world consistent with the searcher's view (a determinization), walks
  the tree of the searcher's own decisions this turn - the draw, then, for a stock draw,
  the placement in the information set "drew a card of this cancel key" - choosing by UCB
  over the statistics of those information sets, and plays the rest out with the
  heuristic. Statistics are shared across all determinizations of the same information
  set; the hidden cards are never looked at except as sampled.

Worlds are dealt from ``pool`` (the cards the view calls unseen) into the face-down slots
and the stock, with ``known`` recycled cards shuffled into the stock too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .jit import kernel
from .layout import (A_DISCARD_SWAP, A_FLIP, A_KNOCK, A_PASS, A_STOCK, A_SWAP, P_G, P_N, S_DL, S_ENDS, S_REASON,
                     S_SL, S_TURN, deal_hole, end_turn, final_scores, hidden_count, exact_score, record_hole,
                     world_arrays, R_RUNNING)
from .layout import deal_world as _deal_world
from .policy import (KEY_OFF, N_KEYS, N_PUB, U_N, U_SUM, h_place, h_play_out, h_play_out_seats, h_stock_card,
                     place_and_end, see)


@njit(cache=True)
def scratch_arrays(prm):
    """A play-out's work arrays, sized for the grid: allocated once per decision, reused by every play-out."""
    g = prm[P_G]
    return (np.zeros(g, np.int64), np.zeros(g, np.bool_), np.zeros(g, np.bool_), np.zeros(g, np.int64),
            np.zeros(g, np.bool_), np.zeros(2 * g + 1, np.float64), np.zeros(g, np.int64))


@njit(cache=True)
def world_and_pool(prm, cap):
    """:func:`.layout.world_arrays` with the unseen pool's summary (``ucnt``, ``pub``)
    before the final scores."""
    wgrid, grid, up, stock, disc, st, out = world_arrays(prm, cap)
    return wgrid, grid, up, stock, disc, st, np.zeros(N_KEYS, np.int64), np.zeros(N_PUB, np.int64), out


@kernel
def pool_counts(cards, key_tab, val100, ucnt, pub):
    """Fill the unseen-pool summary from a list of unseen cards."""
    ucnt[:] = 0
    pub[:] = 0
    pub[U_N] = cards.shape[0]
    for c in cards:
        ucnt[key_tab[c] + KEY_OFF] += 1
        pub[U_SUM] += val100[c]


@njit(cache=True)
def simulate_holes_h(decks, firsts, prm, hps, key_tab, val100, seed):
    """Play dealt holes with the heuristic at every seat, seat ``p`` with the parameters
    ``hps[p]`` (openers: the first slots, one per column first, as the bot turns them).
    Decks are dealt as the referee deals them. Returns strokes ``(m, n)`` and per hole:
    end reason, turns, recycles. ``benchmarks/fit_grid_policy.py`` seats one setting
    against another here."""
    np.random.seed(seed)
    m = decks.shape[0]
    L = decks.shape[1]
    n = prm[P_N]
    g = prm[P_G]
    scores = np.zeros((m, n), np.int64)
    info = np.zeros((m, 3), np.int64)
    _, grid, up, stock, disc, st, ucnt, pub, out = world_and_pool(prm, L)
    sc, sk, sx, keys, canc, gains, vals = scratch_arrays(prm)
    for h in range(m):
        deal_hole(decks[h], firsts[h], prm, grid, up, stock, disc, st)
        pool_counts(decks[h], key_tab, val100, ucnt, pub)
        for p in range(n):
            for i in range(g):
                if up[p, i]:
                    see(grid[p, i], key_tab, val100, ucnt, pub)
        see(disc[0], key_tab, val100, ucnt, pub)
        h_play_out_seats(grid, up, stock, disc, st, prm, hps, key_tab, val100, ucnt, pub, sc, sk, sx, keys, canc, gains)
        final_scores(grid, st, prm, key_tab, val100, keys, vals, canc, out)
        record_hole(st, out, h, scores, info)
    return scores, info


@kernel
def play_candidate(grid, up, stock, disc, st, me, kind, slot, drawn, prm, hp, key_tab, val100, ucnt, pub,
         sc, sk, sx, keys, canc, gains):
    """Play the searcher's candidate action; returns the card drawn from the stock (or -1)."""
    hb = hidden_count(up, me, prm[P_G])
    ending = st[S_ENDS] >= 0
    if kind == A_KNOCK:
        end_turn(grid, up, stock, disc, st, me, hb, True, prm)
        return -1
    got = -1
    if kind == A_STOCK:
        card = h_stock_card(stock, st, key_tab, val100, ucnt, pub)
        got = card
        pk, ps, _g = h_place(grid, up, me, card, False, ending, prm, hp, key_tab, val100, ucnt, pub,
                             sc, sk, sx, keys, canc, gains)
    elif kind == A_DISCARD_SWAP:
        st[S_DL] -= 1
        card = disc[st[S_DL]]
        pk = A_SWAP
        ps = slot
    else:
        card = drawn
        pk = kind
        ps = slot
    place_and_end(grid, up, stock, disc, st, me, card, pk, ps, hb, prm, key_tab, val100, ucnt, pub)
    return got


@njit(cache=True)
def h_mc_evaluate(grid0, up0, disc0, st0, pool, known, ucnt0, pub0, me, drawn, cand_kind, cand_slot,
                  n_samples, seed, prm, hp, key_tab, val100, horizon):
    """Flat Monte Carlo: mean strokes for ``me`` after each candidate action over
    ``n_samples`` worlds, every candidate in the same worlds; the heuristic plays the rest.
    ``drawn < 0`` is the draw stage (A_STOCK, A_DISCARD_SWAP, A_KNOCK), else placements.
    ``horizon > 0`` cuts each play-out after that many turns (see :func:`searcher_strokes`)."""
    np.random.seed(seed)
    cap = disc0.shape[0]
    nc = cand_kind.shape[0]
    totals = np.zeros(nc, np.float64)
    wgrid, grid, up, stock, disc, st, ucnt, pub, out = world_and_pool(prm, cap)
    wstock = np.zeros(cap, np.int64)
    sc, sk, sx, keys, canc, gains, vals = scratch_arrays(prm)
    perm = pool.copy()
    sl = st0[S_SL]
    dl = st0[S_DL]
    stop = st0[S_TURN] + horizon if horizon > 0 else 1 << 40
    for _ in range(n_samples):
        _deal_world(grid0, up0, pool, known, sl, perm, wgrid, wstock)
        for c in range(nc):
            grid[:, :] = wgrid
            up[:, :] = up0
            stock[:sl] = wstock[:sl]
            disc[:dl] = disc0[:dl]
            st[:] = st0
            ucnt[:] = ucnt0
            pub[:] = pub0
            play_candidate(grid, up, stock, disc, st, me, cand_kind[c], cand_slot[c], drawn, prm, hp, key_tab, val100,
                 ucnt, pub, sc, sk, sx, keys, canc, gains)
            h_play_out(grid, up, stock, disc, st, prm, hp, key_tab, val100, ucnt, pub, sc, sk, sx, keys, canc, gains,
                       stop)
            totals[c] += searcher_strokes(grid, st, me, prm, key_tab, val100, keys, vals, canc, out)
    for c in range(nc):
        totals[c] /= n_samples
    return totals


@kernel
def searcher_strokes(grid, st, me, prm, key_tab, val100, keys, vals, canc, out):
    """The searcher's strokes at the end of a play-out: the hole's score if it ended, else
    (a play-out cut at its horizon) the world's cards of the searcher's grid as they lie."""
    if st[S_REASON] != R_RUNNING:
        final_scores(grid, st, prm, key_tab, val100, keys, vals, canc, out)
        return out[me]
    return exact_score(grid, me, prm, key_tab, val100, keys, vals, canc)


@kernel
def _ucb_pick(n_arr, w_arr, legal, total, c_ucb, default):
    """The legal action with the lowest mean strokes minus the exploration bonus.

    ``default`` (the heuristic's choice, or -1) is tried first, and untried actions are
    valued at its mean (first-play urgency) rather than forced in one by one, so a node's
    value is not dragged down by trying every poor action before the good one.
    """
    if default >= 0 and n_arr[default] == 0:
        return default
    fpu = 0.0
    if default >= 0:
        fpu = w_arr[default] / n_arr[default]
    best = -1
    best_v = 1e18
    lt = np.log(total + 1.0)
    for a in range(n_arr.shape[0]):
        if not legal[a]:
            continue
        if n_arr[a] == 0:
            if default < 0:
                return a
            v = fpu - c_ucb * np.sqrt(lt)
        else:
            v = w_arr[a] / n_arr[a] - c_ucb * np.sqrt(lt / n_arr[a])
        if v < best_v:
            best_v = v
            best = a
    return best


#: Exploration below a stock draw, relative to the root's: the root must keep trying every
#: draw, but each exploratory placement under "stock" also lowers that draw's mean.
PLACE_C = 0.3


@kernel
def tree_place(grid, up, stock, disc, st, me, prm, hp, key_tab, val100, ucnt, pub, sc, sk, sx, keys, canc, gains,
                kn, pn, pw, place_legal, c_place):
    """The searcher's stock draw, placed by the placement tree: UCB (exploration ``c_place``)
    over the statistics ``kn``/``pn``/``pw`` of the information set "drew a card of this
    cancel key", the heuristic's placement tried first.
    Placement ``b`` is a swap into slot ``b < g``, a turn of slot ``b - g`` (``b < 2g``) or
    a throw away (``2g``); ``place_legal`` allows them (public facts only). Returns the key's
    index and the placement, for the caller to back the play-out's value up into."""
    g = prm[P_G]
    hb = hidden_count(up, me, g)
    card = h_stock_card(stock, st, key_tab, val100, ucnt, pub)
    kidx = key_tab[card] + KEY_OFF
    hk, hs, _g = h_place(grid, up, me, card, False, st[S_ENDS] >= 0, prm, hp, key_tab, val100, ucnt, pub,
                         sc, sk, sx, keys, canc, gains)
    dflt = hs if hk == A_SWAP else (g + hs if hk == A_FLIP else 2 * g)
    pa = _ucb_pick(pn[kidx], pw[kidx], place_legal, kn[kidx], c_place, dflt)
    if pa < g:
        pk, ps = A_SWAP, pa
    elif pa < 2 * g:
        pk, ps = A_FLIP, pa - g
    else:
        pk, ps = A_PASS, -1
    place_and_end(grid, up, stock, disc, st, me, card, pk, ps, hb, prm, key_tab, val100, ucnt, pub)
    return kidx, pa


@kernel
def best_mean(n_arr, w_arr):
    """The lowest mean ``w_arr[b] / n_arr[b]`` over the tried placements ``b`` (``1e18`` if
    none was tried): what a drawn key is worth under the max backup."""
    bk = 1e18
    for b in range(n_arr.shape[0]):
        if n_arr[b] > 0 and w_arr[b] / n_arr[b] < bk:
            bk = w_arr[b] / n_arr[b]
    return bk


@njit(cache=True)
def ismcts(grid0, up0, disc0, st0, pool, known, ucnt0, pub0, me, drawn, cand_kind, cand_slot, place_legal,
           iterations, c_ucb, seed, prm, hp, key_tab, val100, horizon):
    """Single-observer ISMCTS over the searcher's own turn; returns (visits, total strokes)
    per root candidate (for a stock draw, the total backs up each drawn card's best
    placement).

    Root candidates are ``cand_kind``/``cand_slot`` (as :func:`h_mc_evaluate`). Below an
    ``A_STOCK`` root action the information set is the drawn card's cancel key; there the
    placements are swap into slot ``0..g-1``, turn slot ``0..g-1`` (index ``g + slot``) or
    throw away (index ``2g``), where ``place_legal`` allows them (public facts only).
    """
    np.random.seed(seed)
    g = prm[P_G]
    cap = disc0.shape[0]
    nc = cand_kind.shape[0]
    rn = np.zeros(nc, np.float64)
    rw = np.zeros(nc, np.float64)
    na = 2 * g + 1
    kn = np.zeros(N_KEYS, np.float64)
    pn = np.zeros((N_KEYS, na), np.float64)
    pw = np.zeros((N_KEYS, na), np.float64)
    root_legal = np.ones(nc, np.bool_)
    best_k = np.zeros(N_KEYS, np.float64)
    stock_sum = 0.0
    wgrid, grid, up, stock, disc, st, ucnt, pub, out = world_and_pool(prm, cap)
    sc, sk, sx, keys, canc, gains, vals = scratch_arrays(prm)
    perm = pool.copy()
    sl = st0[S_SL]
    dl = st0[S_DL]
    stop = st0[S_TURN] + horizon if horizon > 0 else 1 << 40
    for it in range(iterations):
        _deal_world(grid0, up0, pool, known, sl, perm, wgrid, stock)
        grid[:, :] = wgrid
        up[:, :] = up0
        disc[:dl] = disc0[:dl]
        st[:] = st0
        ucnt[:] = ucnt0
        pub[:] = pub0
        a = _ucb_pick(rn, rw, root_legal, it, c_ucb, -1)
        kind = cand_kind[a]
        kidx = -1
        pa = -1
        if kind == A_STOCK:
            kidx, pa = tree_place(grid, up, stock, disc, st, me, prm, hp, key_tab, val100, ucnt, pub, sc, sk, sx, keys,
                                   canc, gains, kn, pn, pw, place_legal, c_ucb * PLACE_C)
        else:
            play_candidate(grid, up, stock, disc, st, me, kind, cand_slot[a], drawn, prm, hp, key_tab, val100,
                 ucnt, pub, sc, sk, sx, keys, canc, gains)
        h_play_out(grid, up, stock, disc, st, prm, hp, key_tab, val100, ucnt, pub, sc, sk, sx, keys, canc, gains, stop)
        r = searcher_strokes(grid, st, me, prm, key_tab, val100, keys, vals, canc, out)
        rn[a] += 1
        rw[a] += r
        if kidx >= 0:
            kn[kidx] += 1
            pn[kidx, pa] += 1
            pw[kidx, pa] += r
            # The stock draw is worth what its best placement is worth for each card drawn,
            # not the mean over the placements being tried (max backup): the sum over cards
            # of visits times the best placement's mean.
            bk = best_mean(pn[kidx], pw[kidx])
            stock_sum += kn[kidx] * bk - (kn[kidx] - 1) * best_k[kidx]
            best_k[kidx] = bk
            rw[a] = stock_sum
    return rn, rw


@njit(cache=True)
def play_out_scores(grid, up, stock, disc, st, ucnt, pub, prm, hp, key_tab, val100, seed):
    """Play a fully dealt position (every card known, ``stock`` in draw order) to the end
    of the hole with the heuristic at every seat; returns every player's strokes."""
    np.random.seed(seed)
    n = prm[P_N]
    sc, sk, sx, keys, canc, gains, vals = scratch_arrays(prm)
    out = np.zeros(n, np.int64)
    h_play_out(grid, up, stock, disc, st, prm, hp, key_tab, val100, ucnt, pub, sc, sk, sx, keys, canc, gains)
    final_scores(grid, st, prm, key_tab, val100, keys, vals, canc, out)
    return out
