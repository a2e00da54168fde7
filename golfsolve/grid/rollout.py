"""Compiled (numba) kernels: the greedy policy, hole play-outs and Monte Carlo evaluation.

Small pure functions over numpy arrays, nothing else; :mod:`.bots` and
:mod:`.tournament` wrap them. The turn procedure mirrors :class:`.engine.Hole` step for step
and the policy mirrors :class:`.bots.GreedyBot` (integer arithmetic in hundredths so both
make the same choices); ``tests/grid/test_grid_rollout.py`` checks that they agree.

Layouts:

* ``grid[p, slot]`` card ids, ``up[p, slot]`` face-up flags (row-major slots);
* ``stock[:st[S_SL]]`` with the next card last; ``disc[:st[S_DL]]`` with the top last;
* ``st``: the scalar state (indices ``S_*``); ``prm``: the rules (indices ``P_*``);
* ``key_tab[card]`` cancel keys, ``val100[card]`` card values in hundredths.

Randomness (stock recycling, sampling) uses numba's generator, seeded by each entry point,
so every call is reproducible.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# prm indices
(P_N, P_G, P_ROWS, P_COLS, P_ROWC, P_ANY, P_H, P_PUTT, P_NOFL, P_KNOCK, P_CAP, P_TAKE, P_KMARGIN,
 P_OPENERS, P_PAIR, P_TURN) = range(16)
N_PRM = 16
# st indices
S_SL, S_DL, S_CUR, S_ENDS, S_KNOCKER, S_CLOSER, S_STALL, S_TURN, S_REASON, S_RECYCLES = range(10)
N_ST = 10
# end reasons (0 = still playing), in the order of engine.END_REASONS
R_RUNNING, R_CLOSED, R_KNOCKED, R_STALLED, R_EXHAUSTED, R_TURN_LIMIT = range(6)
# actions: draw-stage candidates, then placements
A_STOCK, A_DISCARD_SWAP, A_KNOCK, A_SWAP, A_FLIP, A_PASS = range(6)

HIDDEN_KEY = -1000
BIG = 1 << 40


@njit(cache=True)
def _line(keys, canc, start, step, length, pairwise):
    """One column or row: all cancel if all keys are equal; with ``pairwise`` each card
    whose key occurs twice or more in the line cancels (as ``scoring._line_cancels``)."""
    if pairwise:
        for a in range(length):
            i = start + a * step
            for b in range(length):
                if b != a and keys[start + b * step] == keys[i]:
                    canc[i] = True
                    break
    else:
        k = keys[start]
        for a in range(1, length):
            if keys[start + a * step] != k:
                return
        for a in range(length):
            canc[start + a * step] = True


@njit(cache=True)
def cancel_slots(keys, canc, rows, cols, rowc, anyw, pairwise):
    """Mark in ``canc`` the slots that cancel (columns; rows if ``rowc``; pairs anywhere if
    ``anyw``; within a line pairwise if ``pairwise``), as ``scoring.cancel_mask``."""
    g = rows * cols
    for i in range(g):
        canc[i] = False
    for c in range(cols):
        _line(keys, canc, c, cols, rows, pairwise)
    if rowc:
        for r in range(rows):
            _line(keys, canc, r * cols, 1, cols, pairwise)
    if anyw:
        _line(keys, canc, 0, 1, g, True)


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
    cancel_slots(keys, canc, prm[P_ROWS], prm[P_COLS], prm[P_ROWC] != 0, prm[P_ANY] != 0, prm[P_PAIR] != 0)
    s = 0
    for i in range(g):
        if not canc[i]:
            s += vals[i]
    return s


@njit(cache=True)
def exact_score(grid, p, prm, key_tab, val100, keys, vals, canc):
    """Player p's strokes with every card turned."""
    g = prm[P_G]
    for i in range(g):
        c = grid[p, i]
        keys[i] = key_tab[c]
        vals[i] = val100[c]
    cancel_slots(keys, canc, prm[P_ROWS], prm[P_COLS], prm[P_ROWC] != 0, prm[P_ANY] != 0, prm[P_PAIR] != 0)
    s = 0
    for i in range(g):
        if not canc[i]:
            s += vals[i]
    return s // 100


@njit(cache=True)
def _hidden(up, p, g):
    h = 0
    for i in range(g):
        if not up[p, i]:
            h += 1
    return h


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
    nh = 0
    first_h = -1
    for i in range(g):
        if not up[p, i]:
            nh += 1
            if first_h < 0:
                first_h = i
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
    if _hidden(up, p, prm[P_G]) > 1:
        return False
    now = estimate(grid, up, p, -1, 0, prm, key_tab, val100, keys, vals, canc)
    opp = _opp_min(grid, up, p, prm, key_tab, val100, keys, vals, canc)
    return now + prm[P_KMARGIN] <= opp


@njit(cache=True)
def refill(stock, disc, st):
    """Shuffle the discard pile, all but its top card, into the empty stock; with nothing
    to recycle the hole ends."""
    dl = st[S_DL]
    if dl <= 1:
        st[S_REASON] = R_EXHAUSTED
        return
    m = dl - 1
    for i in range(m):
        stock[i] = disc[i]
    # Fisher-Yates by hand: shuffling a slice in place is not portable across numba versions.
    for i in range(m - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        t = stock[i]
        stock[i] = stock[j]
        stock[j] = t
    disc[0] = disc[dl - 1]
    st[S_DL] = 1
    st[S_SL] = m
    st[S_RECYCLES] += 1


@njit(cache=True)
def end_turn(grid, up, stock, disc, st, p, hidden_before, knocked, prm):
    """Closing, last lap, stall rule, recycling, turn limit: as ``engine.Hole._end_turn``."""
    n = prm[P_N]
    ha = _hidden(up, p, prm[P_G])
    if knocked:
        st[S_KNOCKER] = p
        st[S_ENDS] = n - 1
    elif st[S_ENDS] >= 0:
        st[S_ENDS] -= 1
    elif ha == 0:
        st[S_CLOSER] = p
        st[S_ENDS] = n - 1
    else:
        if hidden_before == 1 and ha == 1:
            st[S_STALL] += 1
        else:
            st[S_STALL] = 0
        if st[S_STALL] >= 2 * n:
            st[S_REASON] = R_STALLED
    st[S_TURN] += 1
    if st[S_REASON] == R_RUNNING and st[S_ENDS] == 0:
        st[S_REASON] = R_KNOCKED if st[S_KNOCKER] >= 0 else R_CLOSED
    if st[S_REASON] == R_RUNNING and st[S_SL] == 0:
        refill(stock, disc, st)
    if st[S_REASON] == R_RUNNING and st[S_TURN] >= prm[P_CAP]:
        st[S_REASON] = R_TURN_LIMIT
    st[S_CUR] = (p + 1) % n


@njit(cache=True)
def apply_place(grid, up, disc, st, p, card, kind, slot):
    """Put the drawn card: swap it into ``slot``, or throw it away (turning ``slot`` on a flip)."""
    if kind == A_SWAP:
        old = grid[p, slot]
        grid[p, slot] = card
        up[p, slot] = True
        disc[st[S_DL]] = old
    else:
        disc[st[S_DL]] = card
        if kind == A_FLIP:
            up[p, slot] = True
    st[S_DL] += 1


@njit(cache=True)
def policy_turn(grid, up, stock, disc, st, prm, key_tab, val100, keys, vals, canc):
    """One greedy turn for the player to move."""
    p = st[S_CUR]
    ending = st[S_ENDS] >= 0
    hb = _hidden(up, p, prm[P_G])
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
def final_scores(grid, st, prm, key_tab, val100, keys, vals, canc, out):
    """Strokes of every player into ``out``, with the knock penalty."""
    n = prm[P_N]
    for q in range(n):
        out[q] = exact_score(grid, q, prm, key_tab, val100, keys, vals, canc)
    k = st[S_KNOCKER]
    if k >= 0 and prm[P_KNOCK] != 0:
        ok = True
        for q in range(n):
            if q != k and out[q] <= out[k]:
                ok = False
        if not ok:
            if prm[P_KNOCK] == 2:
                if out[k] > 0:
                    out[k] = 2 * out[k]
            else:
                out[k] += 10


@njit(cache=True)
def simulate_holes(decks, firsts, prm, key_tab, val100, seed):
    """Play whole holes with the greedy policy at every seat.

    ``decks[h]`` is dealt like the engine deals (grids in blocks, discard, stock in draw
    order); greedy openers are the first ``P_OPENERS`` slots, one per column first.
    Returns strokes ``(m, n)`` and per hole: end reason, turns, recycles.
    """
    np.random.seed(seed)
    m = decks.shape[0]
    L = decks.shape[1]
    n = prm[P_N]
    g = prm[P_G]
    scores = np.zeros((m, n), np.int64)
    info = np.zeros((m, 3), np.int64)
    grid = np.zeros((n, g), np.int64)
    up = np.zeros((n, g), np.bool_)
    stock = np.zeros(L, np.int64)
    disc = np.zeros(L, np.int64)
    st = np.zeros(N_ST, np.int64)
    keys = np.zeros(g, np.int64)
    vals = np.zeros(g, np.int64)
    canc = np.zeros(g, np.bool_)
    out = np.zeros(n, np.int64)
    for h in range(m):
        for p in range(n):
            for i in range(g):
                grid[p, i] = decks[h, p * g + i]
                up[p, i] = i < prm[P_OPENERS]
        disc[0] = decks[h, n * g]
        rest = L - n * g - 1
        for i in range(rest):
            stock[i] = decks[h, L - 1 - i]
        st[:] = 0
        st[S_SL] = rest
        st[S_DL] = 1
        st[S_CUR] = firsts[h] % n
        st[S_ENDS] = -1
        st[S_KNOCKER] = -1
        st[S_CLOSER] = -1
        if rest == 0:
            refill(stock, disc, st)
        play_out(grid, up, stock, disc, st, prm, key_tab, val100, keys, vals, canc)
        final_scores(grid, st, prm, key_tab, val100, keys, vals, canc, out)
        for q in range(n):
            scores[h, q] = out[q]
        info[h, 0] = st[S_REASON]
        info[h, 1] = st[S_TURN]
        info[h, 2] = st[S_RECYCLES]
    return scores, info


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
    n = prm[P_N]
    g = prm[P_G]
    cap = disc0.shape[0]
    nc = cand_kind.shape[0]
    totals = np.zeros(nc, np.float64)
    wgrid = np.zeros((n, g), np.int64)
    grid = np.zeros((n, g), np.int64)
    up = np.zeros((n, g), np.bool_)
    wstock = np.zeros(cap, np.int64)
    stock = np.zeros(cap, np.int64)
    disc = np.zeros(cap, np.int64)
    st = np.zeros(N_ST, np.int64)
    keys = np.zeros(g, np.int64)
    vals = np.zeros(g, np.int64)
    canc = np.zeros(g, np.bool_)
    out = np.zeros(n, np.int64)
    perm = pool.copy()
    npool = perm.shape[0]
    nknown = known.shape[0]
    for _ in range(n_samples):
        for i in range(npool - 1, 0, -1):
            j = np.random.randint(0, i + 1)
            t = perm[i]
            perm[i] = perm[j]
            perm[j] = t
        k = 0
        for p in range(n):
            for i in range(g):
                if up0[p, i]:
                    wgrid[p, i] = grid0[p, i]
                else:
                    wgrid[p, i] = perm[k]
                    k += 1
        s = 0
        for i in range(k, npool):
            wstock[s] = perm[i]
            s += 1
        for i in range(nknown):
            wstock[s] = known[i]
            s += 1
        # The leftover pool is already random; the recycled part needs its own shuffle.
        for i in range(s - 1, 0, -1):
            j = np.random.randint(0, i + 1)
            t = wstock[i]
            wstock[i] = wstock[j]
            wstock[j] = t
        for c in range(nc):
            grid[:, :] = wgrid
            up[:, :] = up0
            stock[:stock_len] = wstock[:stock_len]
            disc[:] = disc0
            st[:] = st0
            hb = _hidden(up, me, g)
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
