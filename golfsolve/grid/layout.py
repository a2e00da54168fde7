"""The compiled kernels' state layout and turn procedure: the fast copy of :mod:`.state`.

Every compiled kernel (the greedy bot's :mod:`.greedy`, the heuristic's :mod:`.policy`, the
searches of :mod:`.search`) plays holes on these arrays, with these small pure functions:

* ``grid[p, slot]`` card ids, ``up[p, slot]`` face-up flags (row-major slots);
* ``stock[:st[S_SL]]`` with the next card last; ``disc[:st[S_DL]]`` with the top last;
* ``st``: the scalar state (indices ``S_*``); ``prm``: the rules (indices ``P_*``, filled by
  :func:`.bots.kernel_tables`);
* ``key_tab[card]`` cancel keys, ``val100[card]`` card values in hundredths.

:func:`end_turn` (closing, the last lap, the stall rule, refilling, the turn limit),
:func:`refill` and :func:`apply_place` repeat :class:`.state.HoleState`'s turn procedure
step for step, and :func:`final_scores` its scoring; ``tests/grid/test_grid_state.py``
checks them against the state action by action under every rule switch. The refill's
shuffle uses numba's generator, seeded by each entry point, so every call is reproducible.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .jit import kernel

# prm indices
(P_N, P_G, P_ROWS, P_COLS, P_ROWC, P_ANY, P_H, P_PUTT, P_NOFL, P_KNOCK, P_CAP, P_TAKE, P_KMARGIN,
 P_OPENERS, P_PAIR, P_TURN) = range(16)
N_PRM = 16
# st indices
S_SL, S_DL, S_CUR, S_ENDS, S_KNOCKER, S_CLOSER, S_STALL, S_TURN, S_REASON, S_RECYCLES = range(10)
N_ST = 10
# end reasons (0 = still playing), in the order of state.END_REASONS
R_RUNNING, R_CLOSED, R_KNOCKED, R_STALLED, R_EXHAUSTED, R_TURN_LIMIT = range(6)
# actions: draw-stage candidates, then placements
A_STOCK, A_DISCARD_SWAP, A_KNOCK, A_SWAP, A_FLIP, A_PASS = range(6)



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
def exact_score(grid, p, prm, key_tab, val100, keys, vals, canc):
    """Player p's strokes with every card turned."""
    g = prm[P_G]
    for i in range(g):
        c = grid[p, i]
        keys[i] = key_tab[c]
        vals[i] = val100[c]
    return standing_total(keys, vals, canc, prm) // 100


@njit(cache=True)
def standing_total(keys, vals, canc, prm):
    """The sum of ``vals`` over the slots whose ``keys`` do not cancel under ``prm``'s rules
    (``canc`` is scratch): a grid's score in hundredths."""
    cancel_slots(keys, canc, prm[P_ROWS], prm[P_COLS], prm[P_ROWC] != 0, prm[P_ANY] != 0, prm[P_PAIR] != 0)
    s = 0
    for i in range(prm[P_G]):
        if not canc[i]:
            s += vals[i]
    return s


@njit(cache=True)
def hidden_count(up, p, g):
    """How many of player p's cards are face down."""
    h = 0
    for i in range(g):
        if not up[p, i]:
            h += 1
    return h


@njit(cache=True)
def first_hidden(up, p, g):
    """Player p's first face-down slot, -1 when every card is face up."""
    for i in range(g):
        if not up[p, i]:
            return i
    return -1


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
def deal_hole(deck, first, prm, grid, up, stock, disc, st):
    """Start a hole from ``deck`` dealt as the referee deals it (grids in blocks of a seat's
    slots, then the discard, then the stock, its next card last), seat ``first % n`` to
    move; the openers are each grid's first ``P_OPENERS`` slots, face up."""
    n = prm[P_N]
    g = prm[P_G]
    L = deck.shape[0]
    for p in range(n):
        for i in range(g):
            grid[p, i] = deck[p * g + i]
            up[p, i] = i < prm[P_OPENERS]
    disc[0] = deck[n * g]
    rest = L - n * g - 1
    for i in range(rest):
        stock[i] = deck[L - 1 - i]
    st[:] = 0
    st[S_SL] = rest
    st[S_DL] = 1
    st[S_CUR] = first % n
    st[S_ENDS] = -1
    st[S_KNOCKER] = -1
    st[S_CLOSER] = -1
    if rest == 0:
        refill(stock, disc, st)


@njit(cache=True)
def record_hole(st, out, h, scores, info):
    """Row ``h`` of a table of dealt holes: each seat's strokes (``out``, as :func:`final_scores`
    leaves them) and how the hole ended (end reason, turns, recycles)."""
    for q in range(out.shape[0]):
        scores[h, q] = out[q]
    info[h, 0] = st[S_REASON]
    info[h, 1] = st[S_TURN]
    info[h, 2] = st[S_RECYCLES]


@njit(cache=True)
def end_turn(grid, up, stock, disc, st, p, hidden_before, knocked, prm):
    """Closing, last lap, stall rule, recycling, turn limit: as ``state.HoleState._end_turn``."""
    n = prm[P_N]
    ha = hidden_count(up, p, prm[P_G])
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
def world_arrays(prm, cap):
    """The arrays a searcher plays one sampled world in: the dealt grids, their copy for
    each play-out, face-up flags, stock and discard (``cap`` cards each), state and final
    scores."""
    n = prm[P_N]
    g = prm[P_G]
    return (np.zeros((n, g), np.int64), np.zeros((n, g), np.int64), np.zeros((n, g), np.bool_),
            np.zeros(cap, np.int64), np.zeros(cap, np.int64), np.zeros(N_ST, np.int64), np.zeros(n, np.int64))


@kernel
def deal_world(grid0, up0, pool, known, stock_len, perm, wgrid, wstock):
    """One determinization (a world a searcher cannot tell from its view): shuffle the unseen
    ``pool`` into the face-down slots of ``grid0``/``up0`` (into ``wgrid``) and, with the
    ``known`` recycled cards, into the stock ``wstock``; ``perm`` is the pool's scratch copy."""
    npool = perm.shape[0]
    for i in range(npool - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        t = perm[i]
        perm[i] = perm[j]
        perm[j] = t
    k = 0
    n, g = grid0.shape
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
    for i in range(known.shape[0]):
        wstock[s] = known[i]
        s += 1
    # The leftover pool is already random; the recycled part needs its own shuffle.
    for i in range(s - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        t = wstock[i]
        wstock[i] = wstock[j]
        wstock[j] = t
