"""The compiled core of the solver: depth-first search over packed Golf states.

Pure numba functions over numpy arrays; no Python objects inside. The Python-facing
API (layouts, rules, results) is :mod:`golfsolve.solitaire.solver`.

A state is the seven column heights, the stock position ``s`` (cards drawn) and the
rank on the discard (0..12, 13 joker, 14 empty). Suits never matter, so the kernel sees
ranks only. States are indexed by ``key = heights_index * 15 + top`` where
``heights_index`` is the base-6 number of the heights (6**7 = 279,936 values); the
``seen`` table holds, per key, a bitmask of the stock positions already expanded.

Why stock positions are a bitmask and not just a flag: with draw-any-time rules the
state ``(h, s', top)`` dominates ``(h, s, top)`` for ``s' < s``: it can make the same
removes, and where the other line draws it can draw further to the same stock card.
For that argument to hold inside a depth-first search, drawing is one move "draw up to
stock card t" (a jump to ``(h, t, rank of card t)``), not a chain of single draws;
otherwise the dominating state's own draw chain would run through the very state it
pruned. Only the first card of each rank beyond ``s`` is worth jumping to (a later card
of the same rank is dominated). A state is pruned when any ``s' <= s`` was already
expanded for its key; a state with a *smaller* ``s`` than the one recorded is expanded
again. With draw-only-when-stuck there is no dominance: the draw is the single forced
step to ``s + 1`` and only the exact ``s`` prunes.

The search also bounds: it tracks the most cards removed so far and skips a state
whose optimistic bound (cards still removable, counting a card as lost when no card of
a neighbouring rank can ever again be on the discard while it is free) cannot beat it.
That makes "winnable?" and "how many cards at best?" one search.
"""

from __future__ import annotations

import numba as nb
import numpy as np

N_COLS = 7
MAX_HEIGHT = 5
N_TOP = 15
EMPTY_TOP = 14
JOKER = 13
N_HEIGHT_INDEX = 6**7
N_KEYS = N_HEIGHT_INDEX * N_TOP
MAX_DEPTH = 64  # 35 removes + at most 18 draws

#: path code of "draw until t cards are drawn" is DRAW_TO + t
DRAW_TO = 8

#: kernel outcome codes
LOST, WON, UNKNOWN = 0, 1, 2

_POW6 = np.array([6**c for c in range(N_COLS)], dtype=np.int64)


def new_tables() -> tuple[np.ndarray, np.ndarray]:
    """The work tables one search needs (about 17 MB + 34 MB); reuse them across solves."""
    seen = np.zeros(N_KEYS, dtype=np.uint32)
    touched = np.zeros(N_KEYS, dtype=np.int32)
    return seen, touched


@nb.njit(cache=True)
def _upper_bound(cols, h, stock, s, top, fits, n_ranks_left):
    """Cards still removable at most: per column, the cards below its lowest dead card.

    A card is dead when no card that fits under it can ever be on the discard while
    the card is free: such a card must be the current top, a stock card not yet drawn,
    a card in another column, or the card directly below it in its own column.
    ``n_ranks_left[r]`` counts rank ``r`` among undrawn stock and tableau cards.
    """
    total = 0
    for c in range(N_COLS):
        hc = h[c]
        ok = hc
        # walk from the free card up; the first dead card blocks everything above it
        for i in range(hc - 1, -1, -1):
            r = cols[c, i]
            alive = False
            if i == hc - 1 and fits[top, r]:
                alive = True
            else:
                for q in range(JOKER + 1):
                    if fits[q, r]:
                        cnt = n_ranks_left[q]
                        # of this column's own cards only the one directly below
                        # can be on the discard when card i is freed
                        for k in range(hc):
                            if k != i + 1 and cols[c, k] == q:
                                cnt -= 1
                        if cnt > 0:
                            alive = True
                            break
            if not alive:
                ok = hc - 1 - i
                break
        total += ok
    return total


@nb.njit(cache=True)
def search(cols, h0, stock, s0, top0, fits, draw_any_time, node_limit, seen, touched, path):
    """Exhaustive depth-first search from one position.

    Arguments: ``cols`` (7, 5) int8 ranks, covered card first; ``h0`` (7,) heights;
    ``stock`` (n,) int8 ranks in drawing order; ``s0`` cards already drawn; ``top0`` rank
    on the discard; ``fits`` (15, 14) bool; ``draw_any_time``; ``node_limit`` (0 = none);
    ``seen``/``touched`` from :func:`new_tables` (left all-zero on return); ``path``
    (>= 64,) int8 receives the best line: 0..6 remove from that column, ``DRAW_TO + t``
    draw until ``t`` stock cards have been drawn.

    Returns ``(outcome, best_left, path_len, nodes)``: outcome LOST, WON or UNKNOWN (the
    node limit was hit; best_left is then only the best line found so far).
    """
    n_stock = stock.shape[0]
    # prev_same[k]: the last stock position before k holding the same rank, or -1;
    # a jump to t is worth making from s only if stock card t-1 is its rank's first after s
    prev_same = np.full(n_stock, -1, dtype=np.int64)
    for k in range(n_stock):
        for j in range(k - 1, -1, -1):
            if stock[j] == stock[k]:
                prev_same[k] = j
                break
    hs = np.empty((MAX_DEPTH + 1, N_COLS), dtype=np.int8)
    ss = np.empty(MAX_DEPTH + 1, dtype=np.int64)
    tops = np.empty(MAX_DEPTH + 1, dtype=np.int64)
    hidx = np.empty(MAX_DEPTH + 1, dtype=np.int64)
    nxt = np.empty(MAX_DEPTH + 1, dtype=np.int64)
    can_rm = np.empty(MAX_DEPTH + 1, dtype=np.bool_)
    moves = np.empty(MAX_DEPTH + 1, dtype=np.int8)
    # rank counts among undrawn stock and tableau cards, kept incrementally for the bound
    left = np.zeros(JOKER + 1, dtype=np.int64)
    for c in range(N_COLS):
        for i in range(h0[c]):
            left[cols[c, i]] += 1
    for k in range(s0, n_stock):
        left[stock[k]] += 1

    idx = 0
    tab = 0
    for c in range(N_COLS):
        hs[0, c] = h0[c]
        idx += h0[c] * _POW6[c]
        tab += h0[c]
    ss[0] = s0
    tops[0] = top0
    hidx[0] = idx
    nxt[0] = 0
    key = idx * N_TOP + top0
    seen[key] |= np.uint32(1) << np.uint32(s0)
    touched[0] = key
    n_touched = 1
    cr = False
    for c in range(N_COLS):
        if h0[c] > 0 and fits[top0, cols[c, h0[c] - 1]]:
            cr = True
    can_rm[0] = cr

    best_left = tab
    best_len = 0
    nodes = 1
    outcome = WON if tab == 0 else LOST
    depth = 0
    last_move = N_COLS + n_stock - s0  # highest move code at the root, recomputed per depth
    while depth >= 0 and outcome == LOST:
        m = nxt[depth]
        s = ss[depth]
        last_move = N_COLS + n_stock - s - 1
        if m > last_move:
            # leaving this state: give back the cards the move into it used up
            if depth > 0:
                pm = moves[depth - 1]
                if pm < N_COLS:
                    left[cols[pm, hs[depth, pm]]] += 1
                else:
                    for k in range(ss[depth - 1], s):
                        left[stock[k]] += 1
            depth -= 1
            continue
        nxt[depth] = m + 1
        top = tops[depth]
        if m < N_COLS:
            hc = hs[depth, m]
            if hc == 0:
                continue
            r = cols[m, hc - 1]
            if not fits[top, r]:
                continue
            ntop = r
            ns = s
            nidx = hidx[depth] - _POW6[m]
        else:
            ns = s + 1 + (m - N_COLS)  # draw until ns cards are drawn
            if draw_any_time:
                if prev_same[ns - 1] >= s:
                    continue
            else:
                if can_rm[depth] or ns != s + 1:
                    nxt[depth] = last_move + 1
                    continue
            ntop = stock[ns - 1]
            nidx = hidx[depth]
        key = nidx * N_TOP + ntop
        mask = seen[key]
        if draw_any_time:
            if mask & ((np.uint32(2) << np.uint32(ns)) - np.uint32(1)):
                continue
        else:
            if mask & (np.uint32(1) << np.uint32(ns)):
                continue
        if mask == 0:
            touched[n_touched] = key
            n_touched += 1
        seen[key] = mask | (np.uint32(1) << np.uint32(ns))
        nodes += 1
        # enter the child
        d1 = depth + 1
        moves[depth] = m
        for c in range(N_COLS):
            hs[d1, c] = hs[depth, c]
        if m < N_COLS:
            hs[d1, m] -= 1
            left[ntop] -= 1
        else:
            for k in range(s, ns):
                left[stock[k]] -= 1
        ss[d1] = ns
        tops[d1] = ntop
        hidx[d1] = nidx
        nxt[d1] = 0
        n_left = 0
        cr = False
        for c in range(N_COLS):
            hc = hs[d1, c]
            n_left += hc
            if hc > 0 and fits[ntop, cols[c, hc - 1]]:
                cr = True
        can_rm[d1] = cr
        depth = d1
        if n_left < best_left:
            best_left = n_left
            best_len = depth
            for k in range(depth):
                pk = moves[k]
                path[k] = pk if pk < N_COLS else DRAW_TO + ss[k + 1]
            if n_left == 0:
                outcome = WON
                break
        if node_limit > 0 and nodes >= node_limit:
            outcome = UNKNOWN
            break
        # bound: can this state still beat the best line found?
        if tab - n_left + _upper_bound(cols, hs[d1], stock, ns, ntop, fits, left) <= tab - best_left:
            nxt[d1] = N_COLS + n_stock  # past every move: leave at once
    for k in range(n_touched):
        seen[touched[k]] = 0
    return outcome, best_left, best_len, nodes
