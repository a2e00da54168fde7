"""The compiled core of the solver: depth-first search over packed Golf states.

Pure numba functions over numpy arrays; no Python objects inside. The Python-facing
API (layouts, rules, results) is :mod:`golfsolve.solitaire.solver`.

A state is the seven column heights, the stock position ``s`` (cards drawn) and the
rank on the discard (0..12, 13 joker, 14 empty). Suits never matter, so the kernel sees
ranks only. States are indexed by ``key = heights_index * 15 + top`` where
``heights_index`` is the base-6 number of the heights (6**7 = 279,936 values); the
``seen`` table holds, per key, a bitmask of the stock positions already expanded.

Why stock positions are searched in increasing order: with draw-any-time rules the
state ``(h, s', top)`` dominates ``(h, s, top)`` for ``s' < s`` (it can make the same
removes, and where the other line draws it can draw on to the same stock card). A
plain depth-first search cannot use this safely, because the dominating state's own
draws pass through the state it would prune. So the search runs level by level in
``s``: all states with ``s`` cards drawn (the closure under removes, depth first) before
any state with ``s + 1``. Then the first time a ``(heights, top)`` pair is reached is at
its smallest ``s``, every later arrival is dominated, and one bit per pair is all the
memory the pruning needs: 6**7 * 15 bits = 525 KB, which stays in cache. Draws are made
per height vector, not per state: once heights ``h`` are reached at some ``s'``, the
player can draw on to any later stock card, so level ``s + 1`` is seeded with
``(h, stock card s)`` for every ``h`` reached so far (even when the state that reached
``h`` was itself pruned as dominated, its dominator reached ``h`` no later).

With draw-only-when-stuck there is no dominance; the bits then mean "seen at this
level" and are cleared level by level.

Each expanded state is one record (key, parent, move), so the move list to the best
state is read back through the parents.
"""

from __future__ import annotations

import numba as nb
import numpy as np

N_COLS = 7
N_TOP = 15
JOKER = 13
N_HEIGHT_INDEX = 6**7
N_KEYS = N_HEIGHT_INDEX * N_TOP
DRAW = N_COLS  # move code of a draw; 0..6 remove from that column
MAX_PATH = 64  # 35 removes + at most 18 draws

#: kernel outcome codes
LOST, WON, UNKNOWN = 0, 1, 2

_POW6 = np.array([6**c for c in range(N_COLS)], dtype=np.int64)


def new_tables(capacity: int = N_KEYS) -> tuple:
    """Work tables for :func:`search`: seen bitmaps and the state records.

    ``capacity`` bounds the states one search may expand (every (heights, top) pair
    fits under draw-any-time rules); about 14 bytes each.
    """
    seen = np.zeros(N_KEYS // 8 + 1, dtype=np.uint8)
    hseen = np.zeros(N_HEIGHT_INDEX // 8 + 1, dtype=np.uint8)
    keys = np.zeros(capacity, dtype=np.int32)
    parents = np.zeros(capacity, dtype=np.int32)
    moves = np.zeros(capacity, dtype=np.int8)
    levels = np.zeros(capacity, dtype=np.int8)
    hlist = np.zeros(min(capacity, N_HEIGHT_INDEX), dtype=np.int32)
    return seen, hseen, keys, parents, moves, levels, hlist


@nb.njit(cache=True, inline="always")
def _test_and_set(seen, key):
    byte = key >> 3
    bit = np.uint8(1) << np.uint8(key & 7)
    old = seen[byte]
    if old & bit:
        return True
    seen[byte] = old | bit
    return False


@nb.njit(cache=True)
def search(cols, h0, stock, s0, top0, fits, draw_any_time, node_limit,
           seen, hseen, keys, parents, moves, levels, hlist, path):
    """Exhaustive search from one position, stock level by stock level.

    Arguments: ``cols`` (7, 5) int8 ranks, covered card first; ``h0`` (7,) heights;
    ``stock`` (n,) int8 ranks in drawing order; ``s0`` cards already drawn; ``top0`` rank
    on the discard (14 = empty); ``fits`` (15, 14) bool; ``draw_any_time``;
    ``node_limit`` (0 = the tables' capacity); the work tables from :func:`new_tables`
    (the bitmaps are left all-zero); ``path`` (>= MAX_PATH,) int8
    receives the best line: 0..6 remove from that column, 7 draw.

    Returns ``(outcome, best_left, path_len, nodes)``: outcome LOST, WON or UNKNOWN (the
    node limit was hit; best_left is then only the best found so far).
    """
    n_stock = stock.shape[0]
    cap = keys.shape[0]
    if node_limit <= 0 or node_limit > cap:
        node_limit = cap
    h = np.empty(N_COLS, dtype=np.int64)
    stack = np.empty(cap, dtype=np.int32)

    root_idx = 0
    best_left = 0
    for c in range(N_COLS):
        root_idx += h0[c] * _POW6[c]
        best_left += h0[c]
    key = root_idx * N_TOP + top0
    _test_and_set(seen, key)
    keys[0] = key
    parents[0] = -1
    moves[0] = -1
    levels[0] = s0
    n = 1
    n_h = 0  # distinct height vectors reached, in hlist
    best = 0
    outcome = WON if best_left == 0 else LOST
    lo = 0  # first record of the current level
    s = s0
    while outcome == LOST:
        # 1. closure of the level under removes, depth first from its seeds
        sp = 0
        for i in range(n - 1, lo - 1, -1):
            stack[sp] = i
            sp += 1
        while sp > 0 and outcome == LOST:
            sp -= 1
            i = stack[sp]
            k = keys[i]
            top = k % N_TOP
            idx = k // N_TOP
            rest = idx
            n_left = 0
            for c in range(N_COLS):
                h[c] = rest % 6
                rest //= 6
                n_left += h[c]
            if n_left < best_left:
                best_left = n_left
                best = i
                if n_left == 0:
                    outcome = WON
                    break
            for c in range(N_COLS - 1, -1, -1):
                hc = h[c]
                if hc == 0:
                    continue
                r = cols[c, hc - 1]
                if not fits[top, r]:
                    continue
                ck = (idx - _POW6[c]) * N_TOP + r
                if _test_and_set(seen, ck):
                    continue
                if n >= node_limit:
                    outcome = UNKNOWN
                    break
                keys[n] = ck
                parents[n] = i
                moves[n] = c
                levels[n] = s
                stack[sp] = n
                sp += 1
                n += 1
        if outcome != LOST or s >= n_stock:
            break
        # 2. draws into level s + 1
        hi = n
        r = stock[s]
        if draw_any_time:
            # every height vector reached so far may draw on to stock card s
            for i in range(lo, hi):
                hk = keys[i] // N_TOP
                if not _test_and_set(hseen, hk):
                    hlist[n_h] = i
                    n_h += 1
            for j in range(n_h):
                i = hlist[j]
                ck = (keys[i] // N_TOP) * N_TOP + r
                if _test_and_set(seen, ck):
                    continue
                if n >= node_limit:
                    outcome = UNKNOWN
                    break
                keys[n] = ck
                parents[n] = i
                moves[n] = DRAW
                levels[n] = s + 1
                n += 1
        else:
            # no dominance across levels: forget this level's pairs, draw only when stuck
            for i in range(lo, hi):
                k = keys[i]
                seen[k >> 3] &= ~(np.uint8(1) << np.uint8(k & 7))
            for i in range(lo, hi):
                k = keys[i]
                idx = k // N_TOP
                top = k % N_TOP
                rest = idx
                stuck = True
                for c in range(N_COLS):
                    hc = rest % 6
                    rest //= 6
                    if hc > 0 and fits[top, cols[c, hc - 1]]:
                        stuck = False
                        break
                if not stuck:
                    continue
                ck = idx * N_TOP + r
                if _test_and_set(seen, ck):
                    continue
                if n >= node_limit:
                    outcome = UNKNOWN
                    break
                keys[n] = ck
                parents[n] = i
                moves[n] = DRAW
                levels[n] = s + 1
                n += 1
        lo = hi
        s += 1
        if lo == n and not draw_any_time:
            break  # nobody was stuck, so nobody could draw

    # clear the bits this search set
    start = 0 if draw_any_time else lo
    for i in range(start, n):
        seen[keys[i] >> 3] = 0
    for j in range(n_h):
        hseen[(keys[hlist[j]] // N_TOP) >> 3] = 0
    # read the best line back through the parents; a draw edge may stand for several draws
    length = 0
    i = best
    while parents[i] >= 0:
        length += levels[i] - levels[parents[i]] if moves[i] == DRAW else 1
        i = parents[i]
    i = best
    j = length
    while parents[i] >= 0:
        if moves[i] == DRAW:
            for _ in range(levels[i] - levels[parents[i]]):
                j -= 1
                path[j] = DRAW
        else:
            j -= 1
            path[j] = moves[i]
        i = parents[i]
    return outcome, best_left, length, n


@nb.njit(cache=True)
def probe(cols, h0, stock, s0, top0, fits, draw_any_time, node_limit, seen, keys, path):
    """A quick depth-first hunt for a win, removes before draws, up to ``node_limit`` states.

    It prunes on (heights, top) alone, ignoring the stock position, which can miss wins:
    it only ever answers "won" (with the line in ``path``) or "not found". Winnable deals
    usually fall to it long before the exact search would finish a stock level.

    Returns ``(found, path_len, nodes)``; ``seen`` is left all-zero.
    """
    n_stock = stock.shape[0]
    st_key = np.empty(MAX_PATH + 1, dtype=np.int64)
    st_s = np.empty(MAX_PATH + 1, dtype=np.int64)
    st_next = np.empty(MAX_PATH + 1, dtype=np.int64)
    h = np.empty(N_COLS, dtype=np.int64)
    idx = 0
    n_left = 0
    for c in range(N_COLS):
        idx += h0[c] * _POW6[c]
        n_left += h0[c]
    key = idx * N_TOP + top0
    _test_and_set(seen, key)
    keys[0] = key
    nodes = 1
    st_key[0] = key
    st_s[0] = s0
    st_next[0] = 0
    depth = 0
    found = n_left == 0
    while depth >= 0 and not found and nodes < node_limit:
        m = st_next[depth]
        if m > DRAW:
            depth -= 1
            continue
        st_next[depth] = m + 1
        k = st_key[depth]
        top = k % N_TOP
        idx = k // N_TOP
        s = st_s[depth]
        if m < DRAW:
            hc = (idx // _POW6[m]) % 6
            if hc == 0 or not fits[top, cols[m, hc - 1]]:
                continue
            ck = (idx - _POW6[m]) * N_TOP + cols[m, hc - 1]
            ns = s
        else:
            if s >= n_stock:
                continue
            if not draw_any_time:
                rest = idx
                for c in range(N_COLS):
                    hc = rest % 6
                    rest //= 6
                    if hc > 0 and fits[top, cols[c, hc - 1]]:
                        s = -1  # a remove is possible: no draw under the strict rule
                        break
                if s < 0:
                    continue
            ck = idx * N_TOP + stock[s]
            ns = s + 1
        if _test_and_set(seen, ck):
            continue
        keys[nodes] = ck
        nodes += 1
        path[depth] = m
        depth += 1
        st_key[depth] = ck
        st_s[depth] = ns
        st_next[depth] = 0
        if ck // N_TOP == 0:
            found = True
    for i in range(nodes):
        seen[keys[i] >> 3] = 0
    return found, depth if found else 0, nodes
