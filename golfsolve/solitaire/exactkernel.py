"""The compiled core of the exact fair value: expectimax over ranks with an open-addressing memo.

Pure numba functions over numpy arrays; the Python-facing API is
:class:`golfsolve.solitaire.expectimax.CompiledExpectimax`, and the recurrence is the one of
:func:`golfsolve.solitaire.expectimax.fair_value` (same move order, same sums), so the two
give the same numbers.

A state is the column heights ``lens`` over fixed column arrays ``cols`` (ranks; a game only
ever shortens its columns, so one array serves every decision of a game), the discard's top
rank, the stock position ``si`` over a fixed stock array (a rank, or -1 where the card is
unknown) and ``pool``: how many cards of each rank may still fill the unknown places. The
top matters only through the set of columns whose free card it takes (a remove replaces
it, a draw covers it), so the memo keys that set instead of the rank, which merges states
of equal value. A key packs into one int64 (pool in base 5, the joker in base 3, heights
in base 6, the freed columns in 7 bits, cards left in base 32: under 2**62). The memo is a linear-probing hash table of
``keys`` (-1 empty) and ``vals``; ``meta`` holds ``[stored, limit, aborted]``: past
``limit`` stored states the search stops and reports ``aborted``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

N_POOL = 14  # ranks 0..12 and the joker
MAX_COLS = 7
MAX_HEIGHT = 5
MAX_STOCK = 31
EMPTY_KEY = -1


@nb.njit(cache=True, inline="always")
def _pack(lens, frees, left, pool):
    k = np.int64(0)
    for r in range(N_POOL - 1):
        k = k * 5 + pool[r]
    k = k * 3 + pool[N_POOL - 1]
    for c in range(lens.shape[0]):
        k = k * 6 + lens[c]
    return (k * 128 + frees) * 32 + left


@nb.njit(cache=True, inline="always")
def _slot(keys, k):
    mask = keys.shape[0] - 1
    h = (np.uint64(k) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(20)
    i = np.int64(h & np.uint64(mask))
    while keys[i] != EMPTY_KEY and keys[i] != k:
        i = (i + 1) & mask
    return i


# Not cached: numba's cache does not reload self-recursive functions correctly (the loaded
# code crashes), so these compile once per process (about a second).
@nb.njit(cache=False)
def _value(cols, lens, table, top, stock, si, pool, ptotal, fits, any_time, keys, vals, meta, draw_now):
    # one self-recursive function (numba does not resolve mutual recursion): with
    # ``draw_now`` it is the chance node "draw the next card", without the memo
    if table == 0:
        return 1.0
    left = stock.shape[0] - si
    best = 0.0
    removes = False
    k = np.int64(0)
    if not draw_now:
        # the top matters only through the columns whose free card it takes
        frees = 0
        for i in range(lens.shape[0]):
            if lens[i] > 0 and fits[top, cols[i, lens[i] - 1]]:
                frees |= 1 << i
        k = _pack(lens, frees, left, pool)
        s = _slot(keys, k)
        if keys[s] == k:
            return vals[s]
        if meta[0] >= meta[1]:
            meta[2] = 1
            return 0.0
        removes = frees != 0
        for i in range(lens.shape[0]):
            if frees & (1 << i):
                h = lens[i]
                lens[i] = h - 1
                v = _value(cols, lens, table - 1, cols[i, h - 1], stock, si, pool, ptotal, fits, any_time, keys, vals,
                           meta, False)
                lens[i] = h
                if meta[2]:
                    return 0.0
                if v > best:
                    best = v
                    if best >= 1.0:
                        break
    if best < 1.0 and left > 0 and (draw_now or any_time or not removes):
        nxt = stock[si]
        if nxt >= 0:
            v = _value(cols, lens, table, nxt, stock, si + 1, pool, ptotal, fits, any_time, keys, vals, meta, False)
        else:
            acc = 0.0
            for r in range(N_POOL):
                n = pool[r]
                if n:
                    pool[r] = n - 1
                    acc += n * _value(cols, lens, table, r, stock, si + 1, pool, ptotal - 1, fits, any_time,
                                      keys, vals, meta, False)
                    pool[r] = n
                    if meta[2]:
                        return 0.0
            v = acc / ptotal
        if meta[2]:
            return 0.0
        if draw_now:
            return v
        if v > best:
            best = v
    if draw_now:
        return 0.0  # no stock left to draw
    s = _slot(keys, k)  # the table was written to below: find the slot again
    keys[s] = k
    vals[s] = best
    meta[0] += 1
    return best


@nb.njit(cache=False)
def state_value(cols, lens, table, top, stock, si, pool, ptotal, fits, any_time, keys, vals, meta):
    """The win chance of the best fair player from this state (0.0 and ``meta[2] = 1`` if aborted)."""
    return _value(cols, lens, table, top, stock, si, pool, ptotal, fits, any_time, keys, vals, meta, False)


@nb.njit(cache=False)
def draw_value(cols, lens, table, stock, si, pool, ptotal, fits, any_time, keys, vals, meta):
    """The value of drawing the next stock card now: its known rank, or the average over the pool."""
    return _value(cols, lens, table, 0, stock, si, pool, ptotal, fits, any_time, keys, vals, meta, True)


__all__ = ["state_value", "draw_value", "N_POOL", "MAX_COLS", "MAX_HEIGHT", "MAX_STOCK", "EMPTY_KEY"]
