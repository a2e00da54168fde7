"""The packed Golf solitaire state that the compiled kernels work on: its layout and constants.

Every number the kernels (:mod:`.kernel`, :mod:`.bounds`) agree on lives here, with the
small compiled helpers that read and write the packed forms, as black-hole-solve keeps one
state header. Nothing here searches.

Cards. The kernels see ranks only (suits never matter in Golf solitaire): a *rank code*
is 0..12 (Ace..King, :data:`N_PLAIN`) or 13 (:data:`JOKER`), so a card takes one of
:data:`N_CARD_RANKS` = 14 codes; the discard adds 14 (:data:`EMPTY`, nothing on it),
:data:`N_TOPS` = 15 codes, the rows of :meth:`.rules.Rules.fits_table`.
(:data:`golfsolve.cards.N_RANKS` is 13: the ranks of one suit.)

Table. Seven columns of at most five cards, covered card first (``cols`` (7, 5) int8);
a state's table is its seven heights, packed as the base-6 number
``sum(h[c] * 6**c)``: :func:`heights_index`, :data:`N_HEIGHT_INDEX` = 6**7 values.

Discard. The search keeps the top only as the *canonical top* (0..14, or :data:`STUCK`
when it frees no column): a key is ``heights_index * N_TOP + canonical top``,
:data:`N_KEYS` keys, one bit each in a "seen" bitmap (:func:`test_and_set`,
:func:`clear_bit`).

Dominance slots (the hunt): per height vector :data:`SLOTS` uint16 entries
``(freed columns << SLOT_STOCK_BITS) | stock position`` (:func:`slot`), EMPTY_SLOT when unused.

Counts per rank (the bound): 4 bits a rank code, Ace at bit 0, the joker's field at bit
52 (:func:`rank_unit`); a pile's counts are one int64, a remove subtracts one unit.
0..4 table plus 0..4 stock cards plus the top fit 4 bits.

Moves: 0..6 remove the free card of that column, :data:`DRAW` (7) draw one card; a line
is at most :data:`MAX_PATH` moves.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..cards import JOKER_RANK
from ..cards import N_RANKS as _RANKS_PER_SUIT
from .. import jitcache  # noqa: F401  (kernel caches keyed on every kernel source: before any njit)
from .rules import EMPTY_TOP
from .rules import N_TOPS as _N_TOPS

# -- rank codes ----------------------------------------------------------------------
N_PLAIN = _RANKS_PER_SUIT  # 13: Ace..King
JOKER = JOKER_RANK  # 13
EMPTY = EMPTY_TOP  # 14: the discard's code when nothing is on it
N_CARD_RANKS = JOKER + 1  # 14 codes a card can carry: the 13 ranks and the joker
N_TOPS = _N_TOPS  # 15 codes a discard can carry: a card's or EMPTY
N_BASE = 16  # entries of a count-per-rank vector: rank codes, EMPTY, padding

# -- the table -----------------------------------------------------------------------
N_COLS = 7
MAX_HEIGHT = 5
HEIGHT_BASE = MAX_HEIGHT + 1  # a height is one base-6 digit
N_HEIGHT_INDEX = HEIGHT_BASE**N_COLS  # 279,936
#: ``HEIGHT_PLACE[c]``: what one card of column c is worth in a heights index.
HEIGHT_PLACE = np.array([HEIGHT_BASE**c for c in range(N_COLS)], dtype=np.int64)

# -- search keys -----------------------------------------------------------------------
N_TOP = 16  # canonical tops per height vector: 0..14 and STUCK
STUCK = 15  # the canonical top of a state whose top frees no column ("must draw")
N_KEYS = N_HEIGHT_INDEX * N_TOP

# -- moves and outcomes ------------------------------------------------------------------
DRAW = N_COLS  # move code of a draw; 0..6 remove from that column
MAX_PATH = 64  # 35 removes + at most 18 draws
NO_CUT = 99  # a cut or best-known value that prunes nothing
LOST, WON, UNKNOWN = 0, 1, 2  # kernel outcome codes

# -- dominance slots -------------------------------------------------------------------
SLOTS = 4  # entries kept per height vector by the hunt
SLOT_STOCK_BITS = 5  # stock positions 0..31 (at most 18 are used)
EMPTY_SLOT = 0xFFFF

# -- counts per rank --------------------------------------------------------------------
FIELD = 4
PLAIN_BITS = FIELD * N_PLAIN
PLAIN_MASK = (1 << PLAIN_BITS) - 1
RANKS_MASK = (1 << N_PLAIN) - 1
#: One in every plain rank's field.
NIBBLES = 0x1111111111111


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
