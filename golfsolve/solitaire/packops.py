"""The small compiled helpers that read and write the packed forms of :mod:`.packing`.

Inlined into the kernels (:mod:`.kernel`, :mod:`.bounds`); the layout they read and
every constant are :mod:`.packing`'s.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.extending import intrinsic
from numba.cpython.unsafe.numbers import trailing_zeros

from .. import jitcache  # noqa: F401  (kernel caches keyed on every kernel source: before any njit)
from .packing import FIELD, HEIGHT_BASE, HEIGHT_PLACE, JOKER, N_COLS, SLOT_STOCK_BITS, SLOTS


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


# -- a dominance row as one integer: SLOTS (4) uint16 entries, slot j at bits 16 j ------------
_LANE = 0x0001000100010001  # one in every slot
_HIGH = 0x8000 * _LANE  # every slot's top bit
_STOCK = ((1 << SLOT_STOCK_BITS) - 1) * _LANE  # every slot's stock position
_GUARD = (1 << SLOT_STOCK_BITS) * _LANE  # the bit above every slot's stock position


@nb.njit(cache=True, inline="always")
def _zero_slots(x):
    """The top bit of every 16-bit slot of ``x`` that is 0 (exact: no carry between slots)."""
    low = np.uint64(0x7FFF * _LANE)
    return ~(((x & low) + low) | x) & np.uint64(_HIGH)


@nb.njit(cache=True, inline="always")
def _fill(top):
    """Every bit of each slot whose top bit is set in ``top``."""
    return (top >> np.uint64(15)) * np.uint64(0xFFFF)


@nb.njit(cache=True, inline="always")
def _dominating(row, freed, s):
    """The top bit of every slot of ``row`` whose entry dominates the state (``freed``, ``s``)."""
    q = np.uint64((freed << SLOT_STOCK_BITS) * _LANE)
    covers = _zero_slots(q & ~row)  # slots whose freed columns include ``freed``
    # 32 + s - s_j per slot: bit 5 set when s_j <= s
    earlier = ((np.uint64((s | (1 << SLOT_STOCK_BITS)) * _LANE) - (row & np.uint64(_STOCK)))
               & np.uint64(_GUARD)) << np.uint64(15 - SLOT_STOCK_BITS)
    return covers & earlier


@nb.njit(cache=True, inline="always")
def _dominated(row, freed, s):
    """The top bit of every slot of ``row`` whose entry the state (``freed``, ``s``) dominates
    (never an empty slot: its freed columns, 0x7FF, are more than there are columns)."""
    q = np.uint64((freed << SLOT_STOCK_BITS) * _LANE)
    within = _zero_slots(row & ~q & ~np.uint64(_STOCK))  # slots whose freed columns are within ``freed``
    later = ((((row & np.uint64(_STOCK)) | np.uint64(_GUARD)) - np.uint64(s * _LANE))
             & np.uint64(_GUARD)) << np.uint64(15 - SLOT_STOCK_BITS)  # s <= s_j
    return within & later


@nb.njit(cache=True, inline="always")
def _put(row, e):
    """``row`` with entry ``e`` in its first empty slot (the last slot when none is)."""
    empty = _zero_slots(~row)
    shift = np.uint64(trailing_zeros(empty) - 15) if empty else np.uint64(16 * (SLOTS - 1))
    return (row & ~(np.uint64(0xFFFF) << shift)) | (np.uint64(e) << shift)


@nb.njit(cache=True, inline="always")
def row_dominates(row, freed, s):
    """Does an entry of ``row`` dominate the state that frees ``freed`` after ``s`` draws
    (:func:`.huntsteps.dominates`, all four at once)? Empty slots never do (their stock
    position, 31, is past every real one)."""
    return _dominating(row, freed, s) != 0


@nb.njit(cache=True, inline="always")
def row_dominated(row, freed, s):
    """Does the state that frees ``freed`` after ``s`` draws dominate an entry of ``row``?"""
    return _dominated(row, freed, s) != 0


@nb.njit(cache=True, inline="always")
def row_insert(row, freed, s):
    """``row`` with the entries the state (``freed``, ``s``) dominates dropped and its own
    entry in the first empty slot (the last slot when none is)."""
    return _put(row | _fill(_dominated(row, freed, s)), slot(freed, s))


@nb.njit(cache=True, inline="always")
def row_insert_above(row, freed, s):
    """``row`` with the entries that dominate the state (``freed``, ``s``) dropped and its
    own entry in the first empty slot (the last slot when none is): :func:`row_insert` with
    dominance the other way, for rows whose entries stand for the states above them."""
    return _put(row | _fill(_dominating(row, freed, s)), slot(freed, s))


@nb.njit(cache=True, inline="always")
def row_drop(row, e):
    """``row`` with every slot that holds entry ``e`` emptied."""
    return row | _fill(_zero_slots(row ^ (np.uint64(e) * np.uint64(_LANE))))


@intrinsic
def prefetch(typingctx, table, i):
    """Ask the processor to fetch item ``i`` of a 1-D array into its caches, and go on
    (LLVM's prefetch: for reading, kept in every cache level)."""
    def codegen(context, builder, signature, args):
        tty = signature.args[0]
        ary = context.make_array(tty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, tty, ary, [args[1]])
        i8p = builder.bitcast(ptr, ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p.type, i32, i32, i32]),
                                            "llvm.prefetch.p0i8")
        builder.call(fn, [i8p, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()
    return types.void(table, i), codegen


@intrinsic
def popcount(typingctx, x):
    """The set bits of a 64-bit integer (LLVM's ``ctpop``: one instruction where the
    processor has it)."""
    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64]), "llvm.ctpop.i64")
        return builder.call(fn, [args[0]])
    return types.int64(types.int64), codegen
