"""The small compiled helpers that read and write the packed forms of :mod:`.packing`.

Inlined into the kernels (:mod:`.kernel`, :mod:`.bounds`); the layout they read and
every constant are :mod:`.packing`'s.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .. import jitcache  # noqa: F401  (kernel caches keyed on every kernel source: before any njit)
from .packing import FIELD, HEIGHT_BASE, HEIGHT_PLACE, JOKER, N_COLS, SLOT_STOCK_BITS


@nb.njit(cache=True, inline="always")
def rank_unit(r):
    """One card of rank code ``r`` in a packed count."""
    return np.int64(1) << (FIELD * r)


@nb.njit(cache=True)
def pack_counts(C) -> int:
    """Counts per rank code (Ace..King, joker) as one integer, 4 bits each."""
    x = 0
    for q in range(JOKER + 1):
        x += np.int64(C[q]) << (FIELD * q)
    return x


@nb.njit(cache=True)
def stock_counts(stock):
    """``spk[s]``: the stock cards not yet drawn after s draws, per rank, packed."""
    n_stock = stock.shape[0]
    spk = np.zeros(n_stock + 1, dtype=np.int64)
    for s in range(n_stock - 1, -1, -1):
        spk[s] = spk[s + 1] + rank_unit(stock[s])
    return spk


@nb.njit(cache=True)
def column_counts(cols):
    """``colp[c, hc]``: the first hc cards of column c per rank, packed; a state's table
    is the sum over its columns (:func:`table_counts`)."""
    colp = np.zeros((N_COLS, HEIGHT_BASE), dtype=np.int64)
    for c in range(N_COLS):
        for hc in range(1, HEIGHT_BASE):
            colp[c, hc] = colp[c, hc - 1] + rank_unit(cols[c, hc - 1])
    return colp


@nb.njit(cache=True, inline="always")
def table_counts(colp, h):
    """The packed counts of the table with heights ``h``."""
    tp = 0
    for c in range(N_COLS):
        tp += colp[c, h[c]]
    return tp


@nb.njit(cache=True)
def accept_masks(cols, fits):
    """``acc[c, hc]``: bit t set when the free card of column c at height hc fits top t."""
    acc = np.zeros((N_COLS, HEIGHT_BASE), dtype=np.int64)
    for c in range(N_COLS):
        for hc in range(1, HEIGHT_BASE):
            r = cols[c, hc - 1]
            m = 0
            for t in range(fits.shape[0]):
                if fits[t, r]:
                    m |= 1 << t
            acc[c, hc] = m
    return acc


@nb.njit(cache=True, inline="always")
def heights_index(h):
    """The base-6 number of the heights ``h``."""
    idx = 0
    for c in range(N_COLS):
        idx += h[c] * HEIGHT_PLACE[c]
    return idx


@nb.njit(cache=True, inline="always")
def decode_heights(idx, h):
    """Write the heights of index ``idx`` into ``h``; return the cards on the table."""
    left = 0
    for c in range(N_COLS):
        h[c] = idx % HEIGHT_BASE
        idx //= HEIGHT_BASE
        left += h[c]
    return left


@nb.njit(cache=True, inline="always")
def test_and_set(bits, key):
    """Set bit ``key`` of the bitmap; return whether it was set already."""
    byte = key >> 3
    bit = np.uint8(1) << np.uint8(key & 7)
    old = bits[byte]
    if old & bit:
        return True
    bits[byte] = old | bit
    return False


@nb.njit(cache=True, inline="always")
def clear_bit(bits, key):
    """Clear bit ``key`` of the bitmap."""
    bits[key >> 3] &= ~(np.uint8(1) << np.uint8(key & 7))


@nb.njit(cache=True, inline="always")
def slot(freed, s):
    """The dominance entry of a state that frees columns ``freed`` after ``s`` draws."""
    return np.uint16((freed << SLOT_STOCK_BITS) | s)


@nb.njit(cache=True, inline="always")
def slot_freed(e):
    """The freed columns of a dominance entry."""
    return np.int64(e >> SLOT_STOCK_BITS)


@nb.njit(cache=True, inline="always")
def slot_stock(e):
    """The stock position of a dominance entry."""
    return np.int64(e & ((1 << SLOT_STOCK_BITS) - 1))
