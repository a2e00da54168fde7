"""The packed Golf solitaire state that the compiled kernels work on: its layout and constants.

Every number the kernels (:mod:`.kernel`, :mod:`.bounds`) agree on lives here, as
black-hole-solve keeps one state header, with the arrays the Python side hands them (the
rank graph of :func:`rank_links`, the work tables of :func:`new_tables`); the small
compiled helpers that read and write the packed forms are :mod:`.packops`'s. Nothing
here searches and nothing here needs numba: the solver's Python side imports this module
without numba's start-up (:mod:`.native`).

Cards. The kernels see ranks only (suits never matter in Golf solitaire): a *rank code*
is 0..12 (Ace..King, :data:`N_PLAIN`) or 13 (:data:`JOKER`), so a card takes one of
:data:`N_CARD_RANKS` = 14 codes; the discard adds 14 (:data:`EMPTY`, nothing on it),
:data:`N_TOPS` = 15 codes, the rows of :meth:`.rules.Rules.fits_table`.
(:data:`golfsolve.cards.N_RANKS` is 13: the ranks of one suit.)

Table. Seven columns of at most five cards, covered card first (``cols`` (7, 5) int8);
a state's table is its seven heights, packed as the base-6 number
``sum(h[c] * 6**c)``: :func:`.packops.heights_index`, :data:`N_HEIGHT_INDEX` = 6**7 values.

Discard. The search keeps the top only as the *canonical top* (0..14, or :data:`STUCK`
when it frees no column): a key is ``heights_index * N_TOP + canonical top``,
:data:`N_KEYS` keys, one bit each in a "seen" bitmap (:func:`.packops.test_and_set`,
:func:`.packops.clear_bit`).

Dominance slots (the hunt): per height vector :data:`SLOTS` uint16 entries
``(freed columns << SLOT_STOCK_BITS) | stock position`` (:func:`.packops.slot`), EMPTY_SLOT when unused.
The hunt reads a height vector's entries as one uint64 *row*, slot j at bits ``16 * j``
(:func:`.packops.row_dominates`, :func:`.packops.row_insert`; :data:`EMPTY_ROW` when all are unused).

Counts per rank (the bound): 4 bits a rank code, Ace at bit 0, the joker's field at bit
52 (:func:`.packops.rank_unit`); a pile's counts are one int64, a remove subtracts one unit.
0..4 table plus 0..4 stock cards plus the top fit 4 bits.

Moves: 0..6 remove the free card of that column, :data:`DRAW` (7) draw one card; a line
is at most :data:`MAX_PATH` moves.
"""

from __future__ import annotations

import numpy as np

from ..cards import JOKER_RANK
from ..cards import N_RANKS as _RANKS_PER_SUIT
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
EMPTY_ROW = 0xFFFF_FFFF_FFFF_FFFF  # SLOTS (4) EMPTY_SLOT entries, read as one uint64

# -- the exact expectimax (:mod:`.expectimax`) --------------------------------------------
EXPECTIMAX_STOCK = 31  # stock places it can hold: its key packs the cards left in base 32

# -- counts per rank --------------------------------------------------------------------
FIELD = 4
PLAIN_BITS = FIELD * N_PLAIN
PLAIN_MASK = (1 << PLAIN_BITS) - 1
RANKS_MASK = (1 << N_PLAIN) - 1
#: One in every plain rank's field.
NIBBLES = 0x1111111111111


# -- what the Python side hands the kernels ------------------------------------------------
def rank_links(fits: np.ndarray) -> np.ndarray:
    """The rank graph of a rule set as the kernels read it.

    ``links[p] = (fits[p, p - 1], fits[p, p + 1])`` for p in Ace..King, ranks taken
    round the circle (the Ace's lower neighbour is the King, the King's upper one the
    Ace), so the King–Ace links of wrapping rules are ``links[0, 0]`` and ``links[12, 1]``.
    Raises ValueError when the rules link ranks in another way (the dynamic program
    assumes neighbours) or when jokers and the empty discard do not fit everything.
    """
    links = np.zeros((N_PLAIN, 2), dtype=np.int64)
    for p in range(N_PLAIN):
        for q in range(N_PLAIN):
            if not fits[p, q]:
                continue
            if q == (p - 1) % N_PLAIN:
                links[p, 0] = 1
            elif q == (p + 1) % N_PLAIN:
                links[p, 1] = 1
            else:
                raise ValueError(f"rank {q} on rank {p} is not a neighbour link")
    for q in range(JOKER + 1):
        if not (fits[JOKER, q] and fits[q, JOKER] and fits[EMPTY, q]):
            raise ValueError("jokers and the empty discard must fit everything")
    return links


def new_tables(capacity: int = N_KEYS) -> tuple:
    """Work tables for :func:`.kernel.hunt` and :func:`.kernel.search`; reuse them across solves.

    ``capacity`` bounds the states one exhaustive search may record (about 14 bytes each).
    """
    seen = np.zeros(N_KEYS // 8 + 1, dtype=np.uint8)
    hseen = np.zeros(N_HEIGHT_INDEX // 8 + 1, dtype=np.uint8)
    keys = np.zeros(capacity, dtype=np.int32)
    parents = np.zeros(capacity, dtype=np.int32)
    moves = np.zeros(capacity, dtype=np.int8)
    levels = np.zeros(capacity, dtype=np.int8)
    hlist = np.zeros(min(capacity, N_HEIGHT_INDEX), dtype=np.int32)
    hmask = np.zeros(min(capacity, N_HEIGHT_INDEX), dtype=np.int32)
    stack = np.zeros(capacity, dtype=np.int32)
    dom = np.full((N_HEIGHT_INDEX, SLOTS), EMPTY_SLOT, dtype=np.uint16)
    touched = np.zeros(N_HEIGHT_INDEX, dtype=np.int32)
    return seen, hseen, keys, parents, moves, levels, hlist, hmask, stack, dom, touched
