"""The compiled core of the exact fair value: expectimax over ranks with an open-addressing memo.

Pure numba functions over numpy arrays, compiled with the solver's kernels (:mod:`.native`:
a command that plays the fair player's endgame then loads them without numba's start-up,
about 0.8 s of CPU); the Python-facing API is the fair player's
(``golfsolve.fair.exact.CompiledExpectimax``), and the recurrence is the one of its
``fair_value`` (same move order, same sums), so the two give the same numbers.

A state is the column heights ``lens`` over fixed column arrays ``cols`` (ranks; a game only
ever shortens its columns, so one array serves every decision of a game), the discard's top
rank, the stock position ``si`` over a fixed stock array (a rank, or -1 where the card is
unknown) and ``pool``: how many cards of each rank may still fill the unknown places. The
top matters only through the set of columns whose free card it takes (a remove replaces
it, a draw covers it), so the memo keys that set instead of the rank, which merges states
of equal value. A key packs into one int64 (pool in base 5, the joker in base 3, heights
in base 6, the freed columns in 7 bits, cards left in base 32: under 2**62). The memo is
a linear-probing hash table of ``keys`` (-1 empty) and ``vals``; ``meta`` holds ``[stored, limit, aborted]``: past
``limit`` stored states the search stops and reports ``aborted``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .. import jitcache  # noqa: F401  (kernel caches keyed on every kernel source: before any njit)
from .packing import EXPECTIMAX_STOCK, MAX_HEIGHT, N_CARD_RANKS, N_COLS

N_POOL = N_CARD_RANKS  # ranks 0..12 and the joker
MAX_COLS = N_COLS
MAX_STOCK = EXPECTIMAX_STOCK
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


MAX_DEPTH = 96  # removes (at most 35) plus draws (at most 31), with room to spare
# frame stages
_REMOVES, _CHANCE, _KNOWN = 0, 1, 2


@nb.njit(cache=True)
def _value(cols, lens, table, top, stock, si, pool, ptotal, fits, any_time, keys, vals, meta, draw_now):
    # the recursion of fair_value on an explicit stack of frames (numba's cache does not
    # reload self-recursive functions correctly: the loaded code crashes): a frame is a state (or with ``draw_now`` the root's chance node)
    # whose children are being valued one at a time; lens and pool are changed in place
    # on the way down and restored on the way up
    f_key = np.zeros(MAX_DEPTH, np.int64)
    f_best = np.zeros(MAX_DEPTH, np.float64)
    f_acc = np.zeros(MAX_DEPTH, np.float64)
    f_stage = np.zeros(MAX_DEPTH, np.int64)
    f_i = np.zeros(MAX_DEPTH, np.int64)
    f_frees = np.zeros(MAX_DEPTH, np.int64)
    f_table = np.zeros(MAX_DEPTH, np.int64)
    f_si = np.zeros(MAX_DEPTH, np.int64)
    f_ptotal = np.zeros(MAX_DEPTH, np.int64)
    f_draw = np.zeros(MAX_DEPTH, np.bool_)
    n_slots = stock.shape[0]
    d = -1
    # the child to enter next
    c_table, c_top, c_si, c_ptotal, c_draw = table, top, si, ptotal, draw_now
    entering = True
    v = 0.0
    while True:
        if entering:
            entering = False
            have = False
            if c_table == 0:
                v = 1.0
                have = True
            elif c_draw:
                d += 1
                f_table[d], f_si[d], f_ptotal[d], f_draw[d] = c_table, c_si, c_ptotal, True
                f_best[d], f_frees[d], f_stage[d], f_i[d] = 0.0, 0, _REMOVES, lens.shape[0]
            else:
                frees = 0
                for i in range(lens.shape[0]):
                    if lens[i] > 0 and fits[c_top, cols[i, lens[i] - 1]]:
                        frees |= 1 << i
                k = _pack(lens, frees, n_slots - c_si, pool)
                s = _slot(keys, k)
                if keys[s] == k:
                    v = vals[s]
                    have = True
                elif meta[0] >= meta[1]:
                    meta[2] = 1
                    # undo what the frames changed, so the caller's arrays are as given
                    while d >= 0:
                        if f_stage[d] == _REMOVES and 0 <= f_i[d] < lens.shape[0]:
                            lens[f_i[d]] += 1
                        elif f_stage[d] == _CHANCE:
                            pool[f_i[d]] += 1
                        d -= 1
                    return 0.0
                else:
                    d += 1
                    f_key[d], f_table[d], f_si[d], f_ptotal[d], f_draw[d] = k, c_table, c_si, c_ptotal, False
                    f_best[d], f_frees[d], f_stage[d], f_i[d] = 0.0, frees, _REMOVES, -1
        else:
            have = True  # v holds the value of frame d's current child
        if have:
            if d < 0:
                return v
            st = f_stage[d]
            if st == _REMOVES:
                lens[f_i[d]] += 1
                if v > f_best[d]:
                    f_best[d] = v
            elif st == _CHANCE:
                r = f_i[d]
                pool[r] += 1
                f_acc[d] += pool[r] * v
            else:
                f_acc[d] = v
        # advance frame d: enter its next child, or finish it
        finished = False
        st = f_stage[d]
        if st == _REMOVES:
            nxt = -1
            if f_best[d] < 1.0:
                for i in range(f_i[d] + 1, lens.shape[0]):
                    if f_frees[d] & (1 << i):
                        nxt = i
                        break
            if nxt >= 0:
                f_i[d] = nxt
                lens[nxt] -= 1
                c_table, c_top, c_si, c_ptotal, c_draw = f_table[d] - 1, cols[nxt, lens[nxt]], f_si[d], f_ptotal[d], False
                entering = True
            elif f_best[d] < 1.0 and f_si[d] < n_slots and (f_draw[d] or any_time or f_frees[d] == 0):
                f_i[d] = lens.shape[0]
                f_acc[d] = 0.0
                if stock[f_si[d]] >= 0:
                    f_stage[d] = _KNOWN
                    c_table, c_top, c_si, c_ptotal, c_draw = f_table[d], stock[f_si[d]], f_si[d] + 1, f_ptotal[d], False
                    entering = True
                else:
                    f_stage[d] = _CHANCE
                    f_i[d] = -1
            else:
                finished = True
                if f_draw[d]:
                    f_best[d] = 0.0  # no stock left to draw
        if not entering and not finished:
            st = f_stage[d]
            if st == _CHANCE:
                nxt = -1
                for r in range(f_i[d] + 1, N_POOL):
                    if pool[r]:
                        nxt = r
                        break
                if nxt >= 0:
                    f_i[d] = nxt
                    pool[nxt] -= 1
                    c_table, c_top, c_si, c_ptotal, c_draw = f_table[d], nxt, f_si[d] + 1, f_ptotal[d] - 1, False
                    entering = True
                else:
                    dv = f_acc[d] / f_ptotal[d]
                    if f_draw[d] or dv > f_best[d]:
                        f_best[d] = dv
                    finished = True
            elif st == _KNOWN:
                dv = f_acc[d]
                if f_draw[d] or dv > f_best[d]:
                    f_best[d] = dv
                finished = True
        if finished:
            v = f_best[d]
            if not f_draw[d]:
                s = _slot(keys, f_key[d])
                keys[s] = f_key[d]
                vals[s] = v
                meta[0] += 1
            d -= 1
            if d < 0:
                return v
            # deliver v to the parent on the next pass


@nb.njit(cache=True)
def state_value(cols, lens, table, top, stock, si, pool, ptotal, fits, any_time, keys, vals, meta):
    """The win chance of the best fair player from this state (0.0 and ``meta[2] = 1`` if aborted)."""
    return _value(cols, lens, table, top, stock, si, pool, ptotal, fits, any_time, keys, vals, meta, False)


@nb.njit(cache=True)
def draw_value(cols, lens, table, stock, si, pool, ptotal, fits, any_time, keys, vals, meta):
    """The value of drawing the next stock card now: its known rank, or the average over the pool."""
    return _value(cols, lens, table, 0, stock, si, pool, ptotal, fits, any_time, keys, vals, meta, True)


__all__ = ["state_value", "draw_value", "N_POOL", "MAX_COLS", "MAX_HEIGHT", "MAX_STOCK", "EMPTY_KEY"]
