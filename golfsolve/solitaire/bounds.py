"""Exact lower bounds on the cards that must stay on the table (compiled, pure functions).

The rank-supply relaxation. From any position, every future remove puts a table card of
rank q on a discard top of a rank p that takes it (``fits[p, q]``). That top is the
current top (only if some free card fits it now: otherwise the next move is a draw and
covers it), an undrawn stock card, or a table card removed earlier; and each card is
the top under at most one remove (once covered it never comes back). Forget the column
order, the stock order and which card goes first: what is left is a flow problem over
ranks, with ``B[p]`` base cards (stock and live top) and ``T[q]`` table cards per rank,

    max sum x[q]  s.t.  x[q] <= T[q],  x[q] <= sum_p f[p, q],  sum_q f[p, q] <= B[p] + x[p],

whose optimum bounds the cards any real line can remove. Its LP dual, for any 0/1
choice ``a[q]`` ("rank q is short of bases") with ``b[p] = OR of a[q] over q with
fits[p, q]``, is

    U(a) = sum_p (B[p] + T[p]) * b[p] + sum_q T[q] * (1 - a[q])

and weak duality makes every ``U(a)`` an upper bound on the cards removable, so
``n_left - min_a U(a)`` is a lower bound on the cards left. Parity (no wrap) is the
choice "a = even ranks": then ``U = 2 * odd + odd bases``, i.e. ``left >= even - odd -
odd bases``. The minimum over ``a`` is a dynamic program along the ranks Ace..King:
``b[p]`` depends only on ``a[p - 1]`` and ``a[p + 1]`` (and the King–Ace link when
wrapping, see :func:`removable_bound`). Jokers fit everything both ways: with any ``a``
set, a joker is a base for every rank, so ``b[joker] = 1`` and a joker on the table costs
``2`` (removable, and a base); an empty discard is a base for anything, like a joker that
cannot be removed.

The kernels pass the counts packed into integers (``T``: table cards per rank, ``S``:
undrawn stock cards per rank, 4 bits a rank; :func:`packed_raw_bound`), which made the
program about a quarter cheaper than reading count arrays (numba also counted references
to every array passed in); :func:`raw_bound` takes arrays, for tests and callers outside.
The packing and the rank codes are :mod:`.packing`'s.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from .packing import (EMPTY, FIELD, JOKER, N_BASE, N_COLS, N_PLAIN, NIBBLES, PLAIN_BITS, PLAIN_MASK,  # noqa: F401
                      RANKS_MASK, rank_links)
from .packops import pack_counts, popcount, rank_unit

INF = 1 << 40  # a cost no choice reaches


# The kernels keep the counts packed (packops.rank_unit): a state's counts are one
# integer, a remove subtracts one unit, and the program reads no memory.


@nb.njit(cache=True)
def link_masks(links):
    """The rank graph of :func:`rank_links` as two 13-bit masks: bit p of ``lo`` says rank
    p takes p - 1, of ``hi`` that it takes p + 1 (round the circle)."""
    lo = 0
    hi = 0
    for p in range(N_PLAIN):
        lo |= np.int64(links[p, 0]) << p
        hi |= np.int64(links[p, 1]) << p
    return lo, hi


@nb.njit(cache=True, inline="always")
def _linked_half(tp, wp, n, p, step):
    """:func:`_half_path` when every rank walked takes both neighbours: then ``wl = wh
    = w``, and each step is four additions and four minima."""
    d00 = 0
    d01 = 0
    d10 = INF
    d11 = INF
    for _ in range(n):
        t = (tp >> (FIELD * p)) & 15
        w = (wp >> (FIELD * p)) & 15
        n00 = t + min(d00, d10 + w)
        n01 = t + w + min(d00, d10)
        n10 = min(d01, d11 + w)
        n11 = w + min(d01, d11)
        d00 = n00
        d01 = n01
        d10 = n10
        d11 = n11
        p += step
    return d00, d01, d10, d11


@nb.njit(cache=True, inline="always")
def _half_path(tp, wp, prev, nxt, n, p, step):
    """The program's states after finishing ``n`` ranks from rank ``p`` on in steps of
    ``step`` (-1: downwards, which is the same program on the reversed ranks), with
    ``a = 0`` just before the first (so that link costs nothing): ``d_xy``, the least
    cost of the ranks finished, a[last finished] = x, a[next] = y. ``wp``: the base plus
    table cards of each rank (its ``b`` weight); ``prev``, ``nxt``: bit q says rank q
    takes the rank before it, after it, in the order walked."""
    d00 = 0
    d01 = 0
    d10 = INF
    d11 = INF
    for _ in range(n):
        t = (tp >> (FIELD * p)) & 15
        w = (wp >> (FIELD * p)) & 15
        wl = w if (prev >> p) & 1 else 0
        wh = w if (nxt >> p) & 1 else 0
        wlh = max(wl, wh)
        # finish rank p by choosing the next a: a[p] = 0 costs t, b[p] costs w
        n00 = min(d00 + t, d10 + t + wl)
        n10 = min(d01, d11 + wl)
        n01 = min(d00 + t + wh, d10 + t + wlh)
        n11 = min(d01 + wh, d11 + wlh)
        d00 = n00
        d01 = n01
        d10 = n10
        d11 = n11
        p += step
    return d00, d01, d10, d11


@nb.njit(cache=True, inline="always")
def _dual_path_halves(tp, wp, lo, hi, m):
    """min over ``a`` of the ranks' part of U(a) along the first ``m`` packed ranks, with
    ``a = 0`` just outside both ends (so those links cost nothing).

    A dynamic program along the ranks, computed from both ends at once: the two halves
    are independent chains of minima, which the processor runs side by side (a state
    waits for the program's latency, not its work); they meet at the middle rank ``j``,
    whose ``b`` sees ``a[j - 1]`` and ``a[j + 1]``. Per call of the whole bound in a chain
    of dependent calls here, against one pass from Ace to King: Classic 31 -> 21 ns,
    Easy 40 -> 24 ns (with the cut rank's test), Strict 31 -> 28 ns."""
    j = (m - 1) // 2
    # f_xy: ranks before j done, a[j - 1] = x, a[j] = y; g_xy: ranks after j, a[j + 1] = x
    inner = (1 << (m - 1)) - 1
    if (lo >> 1) & inner == inner and hi & inner == inner:  # every link along the path
        f00, f01, f10, f11 = _linked_half(tp, wp, j, 0, 1)
        g00, g01, g10, g11 = _linked_half(tp, wp, m - 1 - j, m - 1, -1)
    else:
        f00, f01, f10, f11 = _half_path(tp, wp, lo, hi, j, 0, 1)
        g00, g01, g10, g11 = _half_path(tp, wp, hi, lo, m - 1 - j, m - 1, -1)
    t = (tp >> (FIELD * j)) & 15
    w = (wp >> (FIELD * j)) & 15
    wl = w if (lo >> j) & 1 else 0
    wh = w if (hi >> j) & 1 else 0
    wlh = max(wl, wh)
    y0 = t + min(min(f00 + g00, f10 + g00 + wl), min(f00 + g10 + wh, f10 + g10 + wlh))
    y1 = min(min(f01 + g01, f11 + g01 + wl), min(f01 + g11 + wh, f11 + g11 + wlh))
    return min(y0, y1)


@nb.njit(cache=True, inline="always")
def packed_removable_bound(tp, wp, lo, hi):
    """An upper bound on the table cards removable: min over ``a`` of the Ace..King part
    of U(a) (see the module doc). ``tp``: packed table counts, ``wp``: packed bases plus
    table counts, Ace..King only; ``lo``, ``hi``: :func:`link_masks`.

    Without wrap this is the exact minimum, one pass along Ace..King. With the King–Ace
    link the ranks form a circle; it is cut at the rank k with the least ``B + 2 T``,
    fixing ``a[k] = 0`` and ``b[k] = 1`` (a feasible, not always optimal, dual: the
    bound stays valid and is exact whenever some rank has no cards left at all).
    """
    if (lo & 1) == 0 and (hi >> (N_PLAIN - 1)) & 1 == 0:
        return _dual_path_halves(tp, wp, lo, hi, N_PLAIN)
    # k: the first rank with the least c = B + 2T, found a value at a time (usually 0 or
    # 1) with the zero-field test on the packed sums: the fields hold at most 8, no carries
    x = tp + wp
    ck = 0
    while True:
        y = x ^ (ck * NIBBLES)
        z = (y - NIBBLES) & ~y & (NIBBLES << 3)
        if z:
            break
        ck += 1
    # the lowest flagged field is the lowest field equal to ck (a borrow only flags above it)
    k = trailing_zeros(z) >> 2
    # rotate the circle so that it starts just after k (and ends just before it)
    j = k + 1 if k + 1 < N_PLAIN else 0
    if j:
        tp = ((tp >> (FIELD * j)) | (tp << (FIELD * (N_PLAIN - j)))) & PLAIN_MASK
        wp = ((wp >> (FIELD * j)) | (wp << (FIELD * (N_PLAIN - j)))) & PLAIN_MASK
        lo = ((lo >> j) | (lo << (N_PLAIN - j))) & RANKS_MASK
        hi = ((hi >> j) | (hi << (N_PLAIN - j))) & RANKS_MASK
    return ck + _dual_path_halves(tp, wp, lo, hi, N_PLAIN - 1)


@nb.njit(cache=True)
def packed_raw_bound(tp, sp, top, n_left, lo, hi):
    """``n_left`` minus the removable bound: a lower bound on the cards left when
    positive, meaningless (but still what the search's shortcut adds to) when not.

    ``tp`` table cards per rank and ``sp`` undrawn stock cards per rank, packed
    (:func:`pack_counts`); ``top`` the discard's rank (14: empty) when some free card
    fits it, else -1 (it will be covered by a draw before anything goes on it);
    ``n_left`` the table cards; ``lo``, ``hi``: :func:`link_masks`.

    How far one move can raise it (the search skips the program when even that stays
    below what would prune): a remove lowers ``n_left`` by 1 and ``U(a)`` by at most 3
    (its card leaves the table: ``T`` term 1 and ``b`` term 1; the old top stops being
    a base: 1) and by at most 2 when the card, now the top, is live (its ``b`` term
    comes back), so it rises by at most 2, or 1 with a live new top; a draw to the
    ``k``-th next stock card lowers ``U(a)`` by at most ``k``: the ``k - 1`` cards
    passed over and the old top (when it was live) stop being bases, the drawn card
    moves from the stock to the top.

    A called function, not inlined: the searches run as fast either way, and each inlined
    copy of the program cost seconds of compiling (docs/performance.md).
    """
    wp = (tp + sp) & PLAIN_MASK
    if 0 <= top < N_PLAIN:
        wp += rank_unit(top)
    u = packed_removable_bound(tp & PLAIN_MASK, wp, lo, hi) + (sp >> PLAIN_BITS) + 2 * (tp >> PLAIN_BITS)
    if top >= JOKER:
        u += 1  # a joker or an empty discard takes any first card
    return n_left - u


@nb.njit(cache=True)
def removable_bound(T, S, s, top, links):
    """:func:`packed_removable_bound` of count arrays: ``T`` table cards per rank,
    ``S[s]`` undrawn stock cards per rank, plus one base of rank ``top`` (-1: none)."""
    lo, hi = link_masks(links)
    tp = pack_counts(T) & PLAIN_MASK
    wp = (tp + pack_counts(S[s])) & PLAIN_MASK
    if 0 <= top < N_PLAIN:
        wp += rank_unit(top)
    return packed_removable_bound(tp, wp, lo, hi)


@nb.njit(cache=True)
def raw_bound(T, S, s, top, n_left, links):
    """:func:`packed_raw_bound` of count arrays (``T`` index 13 jokers, ``S[s]`` the
    undrawn stock after ``s`` draws, ``links`` from :func:`rank_links`)."""
    lo, hi = link_masks(links)
    return packed_raw_bound(pack_counts(T), pack_counts(S[s]), top, n_left, lo, hi)


@nb.njit(cache=True)
def cards_left_bound(T, S, s, top, n_left, links):
    """A lower bound on the cards a line from this position can leave on the table
    (arguments as for :func:`raw_bound`)."""
    return max(0, raw_bound(T, S, s, top, n_left, links))

#: How much :func:`packed_raw_bound` can rise with one remove whose card is a live top (one
#: more when it is not; see there).
REMOVE_RISE = 1



# -- blocking -------------------------------------------------------------------------
# A table card can only be removed onto a top of a rank that takes it, and that top is a
# base (stock card, live top) or a card removed before it: so only ranks reachable from
# the bases through ranks that still have removable table cards can ever be removed. A
# card of any other rank is dead, and so is every card it covers in its column (it is
# never uncovered). Cards that are dead or covered by a dead card can neither go nor be a
# base, so they count as left, and the rank-supply bound applies to the rest; losing
# them may kill more ranks, so repeat until nothing changes. Jokers reach everything.


@nb.njit(cache=True, inline="always")
def _reach(bases, table, up, down, wrap_ak, wrap_ka):
    """Ranks of ``table`` (bit mask) reachable from ``bases`` along the rank links."""
    reach = 0
    src = bases
    while True:
        nb_ = ((src & up) << 1) | ((src & down) >> 1)
        if wrap_ak and src & 1:
            nb_ |= 1 << (N_PLAIN - 1)
        if wrap_ka and (src >> (N_PLAIN - 1)) & 1:
            nb_ |= 1
        new = nb_ & table & ~reach
        if new == 0:
            return reach
        reach |= new
        src = bases | reach


@nb.njit(cache=True)
def blocked_bound(cols, h, T, S, s, top, n_left, links, T2):
    """:func:`raw_bound` with blocking: the cards that are dead or under a dead card
    count as left, the bound applies to the others (``T2`` is scratch, 16 entries)."""
    if T[JOKER] or S[s, JOKER] or top >= JOKER:
        return raw_bound(T, S, s, top, n_left, links)
    up = 0
    down = 0
    bases = 0
    table = 0
    for p in range(N_PLAIN):
        up |= links[p, 1] << p
        down |= links[p, 0] << p
        if S[s, p]:
            bases |= 1 << p
        if T[p]:
            table |= 1 << p
    up &= ~(1 << (N_PLAIN - 1))
    down &= ~1
    if top >= 0:
        bases |= 1 << top
    blocked = 0
    dead = 0
    while True:
        more = table & ~_reach(bases, table, up, down, links[0, 0], links[N_PLAIN - 1, 1])
        if more == 0:
            break
        dead |= more
        for q in range(T2.shape[0]):
            T2[q] = T[q]
        blocked = 0
        for c in range(cols.shape[0]):
            i = h[c] - 1
            while i >= 0 and not (dead >> cols[c, i]) & 1:
                i -= 1
            for k in range(i + 1):
                T2[cols[c, k]] -= 1
            blocked += i + 1
        now = 0
        for p in range(N_PLAIN):
            if T2[p]:
                now |= 1 << p
        if now == table:
            break
        table = now
    if blocked == 0:
        return raw_bound(T, S, s, top, n_left, links)
    return blocked + raw_bound(T2, S, s, top, n_left - blocked, links)


# -- blocking card by card (the hunt's test near the cut) ------------------------------
# A table card goes only after every card above it, onto a top of a rank that takes it:
# an undrawn stock card, the live top (a top no free card fits is covered by a draw first),
# or a table card that went before it, so one that can go and is not under it. Every card
# a line removes is in the least set of cards closed under that rule (by induction along
# the line), so the cards outside it stay on the table: they count as left, and the
# program bounds the rest (they are neither removed nor a base). It holds blocking by
# rank (a rank no base reaches, :func:`blocked_bound`) and more: a card over the only
# cards that could take it. The cards that can go form a top segment of each column, so
# when the card just below a column's segment is tested, every card that can go in its
# own column is above it: it can go exactly when some base or some card in the segments
# has a rank that takes it. The fixpoint therefore needs only which ranks are taken, and
# runs on all the columns at once with bit masks of the card positions.


@nb.njit(cache=True)
def nibble_links(lo, hi):
    """The rank links of :func:`link_masks` in the packed counts' layout (bit ``FIELD * p``
    per rank p), the King-Ace links left out: the ranks that take the rank above, below."""
    up = 0
    down = 0
    for p in range(N_PLAIN):
        if (hi >> p) & 1 and p < N_PLAIN - 1:
            up |= np.int64(1) << (FIELD * p)
        if (lo >> p) & 1 and p > 0:
            down |= np.int64(1) << (FIELD * p)
    return up, down


@nb.njit(cache=True)
def wrap_links(lo, hi):
    """The King-Ace links of :func:`link_masks` in the packed counts' layout: the King's
    field when the King takes the Ace, the Ace's when the Ace takes the King."""
    wup = np.int64(1) << (FIELD * (N_PLAIN - 1)) if (hi >> (N_PLAIN - 1)) & 1 else np.int64(0)
    wdown = np.int64(1) if lo & 1 else np.int64(0)
    return wup, wdown


@nb.njit(cache=True, inline="always")
def _takes(avail, up, down, wup, wdown):
    """The ranks that go on some rank of ``avail`` (bits ``FIELD * q``)."""
    return (((avail & up) << FIELD) | ((avail & down) >> FIELD) | ((avail & wup) >> (FIELD * (N_PLAIN - 1)))
            | ((avail & wdown) << (FIELD * (N_PLAIN - 1))))


#: A table card's bit in the position masks: column c, index i from the bottom at bit
#: ``LANE * c + LANE_LOW + i``; the LANE_LOW bits below each column's cards are always
#: clear, so shifting a column's bits down by up to 4 never reaches the column below.
LANE = 9
LANE_LOW = 4


@nb.njit(cache=True, inline="always")
def card_bit(c, i):
    """The bit of the card at index ``i`` (from the bottom) of column ``c`` in a position mask."""
    return np.int64(1) << (LANE * c + LANE_LOW + i)


@nb.njit(cache=True)
def card_tables(cols, links):
    """Per deal, for :func:`card_blocked_bound`: ``at[q]``, the positions of the cards of
    rank q (a position mask, see :data:`LANE`); ``takers[q]``, the positions of the cards
    of the ranks that take rank q; ``unit_at[b]``, the packed unit of the card at bit b."""
    at = np.zeros(N_BASE, dtype=np.int64)
    takers = np.zeros(N_BASE, dtype=np.int64)
    unit_at = np.zeros(64, dtype=np.int64)
    for c in range(cols.shape[0]):
        for i in range(cols.shape[1]):
            r = np.int64(cols[c, i])
            if 0 <= r <= JOKER:
                at[r] |= card_bit(c, i)
                unit_at[LANE * c + LANE_LOW + i] = rank_unit(r)
    for q in range(N_PLAIN):
        below = (q + N_PLAIN - 1) % N_PLAIN
        above = (q + 1) % N_PLAIN
        if links[below, 1]:
            takers[q] |= at[below]
        if links[above, 0]:
            takers[q] |= at[above]
    return at, takers, unit_at


@nb.njit(cache=True)
def present_mask(h):
    """The position mask of the cards on a table of heights ``h``."""
    x = np.int64(0)
    for c in range(h.shape[0]):
        x |= ((np.int64(1) << h[c]) - 1) << (LANE * c + LANE_LOW)
    return x


@nb.njit(cache=True, inline="always")
def card_blocked_bound(at, takers, unit_at, pres, tp, sp, top, n_left, lo, hi, up, down, wup, wdown, lb, need):
    """:func:`packed_raw_bound` with blocking card by card: the cards that can never go
    (see above) count as left, the bound applies to the rest; ``lb`` (the plain bound of
    the same position) when nothing is blocked. ``at``, ``takers``, ``unit_at``:
    :func:`card_tables`; ``pres``: the position mask of the table's cards
    (:func:`present_mask`); ``up``, ``down``: :func:`nibble_links`, ``wup``, ``wdown``:
    :func:`wrap_links`. Nothing is blocked with a joker or an empty discard about.
    Without the wrap never below ``lb``: fewer table cards only lower every dual's U(a)
    (with it the program's cut rank may move, so it can be, rarely; both are bounds).

    The fixpoint on all the columns at once: the ranks not yet known to be taken (at
    first: by no base) make their cards and every card under them stopped; a rank with a
    card of a rank that takes it among the cards not stopped is taken; until no rank is.
    """
    if (tp >> PLAIN_BITS) or (sp >> PLAIN_BITS) or top >= JOKER:
        return lb
    y = sp & PLAIN_MASK
    avail = (y | (y >> 1) | (y >> 2)) & NIBBLES
    if top >= 0:
        avail |= np.int64(1) << (FIELD * top)
    return blocked_by_card(at, takers, unit_at, pres, tp, sp, top, n_left, lo, hi,
                           _takes(avail, up, down, wup, wdown), lb, need)


@nb.njit(cache=True)
def base_takes(spk, up, down, wup, wdown):
    """Per deal, for :func:`blocked_by_card`: ``stock_takes[s]``, the ranks (bits ``FIELD * q``)
    that go on some undrawn stock card after ``s`` draws (every rank with a joker among
    them); ``top_takes[t & 15]``, those that go on a live top of rank code ``t`` (every
    rank for a joker or an empty discard, none for -1, no live top)."""
    stock_takes = np.zeros(spk.shape[0], dtype=np.int64)
    for s in range(spk.shape[0]):
        y = spk[s] & PLAIN_MASK
        avail = (y | (y >> 1) | (y >> 2)) & NIBBLES
        stock_takes[s] = NIBBLES if spk[s] >> PLAIN_BITS else _takes(avail, up, down, wup, wdown)
    top_takes = np.zeros(16, dtype=np.int64)
    for t in range(15):
        top_takes[t] = NIBBLES if t >= JOKER else _takes(np.int64(1) << (FIELD * t), up, down, wup, wdown)
    return stock_takes, top_takes


@nb.njit(cache=True, inline="always")
def blocked_by_card(at, takers, unit_at, pres, tp, sp, top, n_left, lo, hi, taken, lb, need):
    """:func:`card_blocked_bound` with the ranks the bases take given (``taken``: every
    rank when a joker or an empty discard is among them, :func:`base_takes`)."""
    if tp >> PLAIN_BITS:
        return lb
    x = tp & PLAIN_MASK
    table = (x | (x >> 1) | (x >> 2)) & NIBBLES  # a field holds at most 4
    waiting = table & ~taken
    if waiting == 0:
        return lb  # every table card can go on a base
    bad = np.int64(0)
    x = waiting
    while x:
        bad |= at[trailing_zeros(x) >> 2]
        x &= x - 1
    bad &= pres
    stop = bad | (bad >> 1)
    stop |= (stop >> 2) | (bad >> 4)
    stop &= pres
    while True:
        # a rank found taken frees its cards at once for the ranks after it in the sweep
        x = waiting
        swept = waiting
        while x:
            bit = x & -x
            x ^= bit
            q = trailing_zeros(bit) >> 2
            if takers[q] & pres & ~stop:
                waiting ^= bit
                bad &= ~at[q]
                stop = bad | (bad >> 1)
                stop |= (stop >> 2) | (bad >> 4)
                stop &= pres
        if waiting == swept or stop == 0:
            break
    if stop == 0:
        return lb
    blocked = popcount(stop)
    if blocked >= need:
        return blocked  # the blocked cards alone reach what is asked: no program
    units = np.int64(0)
    x = stop
    while x:
        units += unit_at[trailing_zeros(x)]
        x &= x - 1
    return blocked + packed_raw_bound(tp - units, sp, top, n_left - blocked, lo, hi)
