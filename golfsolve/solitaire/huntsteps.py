"""The hunt's steps: small compiled helpers of the depth-first search with stock jumps.

Inlined into :func:`golfsolve.solitaire.kernel.hunt` and
:func:`golfsolve.solitaire.orderhunt.order_verdicts` (the fair player's search over one stock
order); the state they step and its packed forms are described in :mod:`.kernel` and
:mod:`.packing`. Each takes scalars or is one short step (docs/experiments.md: helpers that
take arrays and loop cost the hunt more).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .. import jitcache  # noqa: F401  (kernel caches keyed on every kernel source: before any njit)
from .packing import N_CARD_RANKS, N_COLS


@nb.njit(cache=True, inline="always")
def frees(av, r):
    """The columns whose free card (accept masks ``av``) fits top ``r``, as a bit mask."""
    f = 0
    for c in range(N_COLS):
        f |= ((av[c] >> r) & 1) << c
    return f


@nb.njit(cache=True, inline="always")
def fit_mask(acc, h):
    """Every top that some free card of heights ``h`` fits, as a bit mask."""
    fm = 0
    for c in range(N_COLS):
        fm |= acc[c, h[c]]
    return fm


@nb.njit(cache=True)
def draw_jumps(stock):
    """``jumps[s, :n_jumps[s]]``: the stock positions worth drawing to from ``s`` cards drawn,
    nearest first: the first card of each rank beyond ``s`` (a later one of the same rank
    is the same state with more cards drawn)."""
    n_stock = stock.shape[0]
    jumps = np.zeros((n_stock + 1, N_CARD_RANKS), dtype=np.int64)
    n_jumps = np.zeros(n_stock + 1, dtype=np.int64)
    for s in range(n_stock):
        taken = 0
        for t in range(s + 1, n_stock + 1):
            bit = 1 << stock[t - 1]
            if not taken & bit:
                taken |= bit
                jumps[s, n_jumps[s]] = t
                n_jumps[s] += 1
    return jumps, n_jumps


@nb.njit(cache=True, inline="always")
def tallest(candidates, h):
    """The tallest column among ``candidates`` (a bit mask): it has the most cards to uncover."""
    m = 0
    hb = -1
    for c in range(N_COLS):
        if (candidates >> c) & 1 and h[c] > hb:
            hb = h[c]
            m = c
    return m


@nb.njit(cache=True, inline="always")
def tallest_from(candidates, h, first):
    """:func:`tallest`, ties going to the first column from ``first`` on (round the table)."""
    m = 0
    hb = -1
    for k in range(N_COLS):
        c = k + first
        if c >= N_COLS:
            c -= N_COLS
        if (candidates >> c) & 1 and h[c] > hb:
            hb = h[c]
            m = c
    return m


@nb.njit(cache=True, inline="always")
def after_remove(av, m, am, r):
    """Column ``m``'s free card ``r`` removed (its accept mask becomes ``am``): the columns
    the new top frees, and every top some free card then fits."""
    f = 0
    fm = 0
    for c in range(N_COLS):
        a = am if c == m else av[c]
        fm |= a
        f |= ((a >> r) & 1) << c
    return f, fm


@nb.njit(cache=True, inline="always")
def next_draw(jumps, s, j, nd, stock, fm, fc, av):
    """The next draw worth trying from ``s`` cards drawn, from jump ``j`` of ``nd`` on.

    A draw to a card that fits nothing (``fm``: tops some free card fits) is dominated by
    this state, and one to a card that frees no column this state's top does not (``fc``)
    dominates nothing new; both are skipped in one tight loop. Returns ``(next j, stock
    position, rank drawn, columns it frees)``, the position -1 when none is left.
    """
    while j < nd:
        ns = jumps[s, j]
        r = stock[ns - 1]
        j += 1
        if (fm >> r) & 1:
            f = 0  # frees(av, r), written out: nested inlined helpers that take arrays cost
            for c in range(N_COLS):
                f |= ((av[c] >> r) & 1) << c
            if f & ~fc:
                return j, ns, np.int64(r), f
    return j, np.int64(-1), np.int64(0), np.int64(0)


@nb.njit(cache=True, inline="always")
def dominates(freed, s, freed2, s2):
    """Can a state that frees columns ``freed`` after ``s`` draws do everything one with
    ``freed2`` after ``s2`` can (same heights, draw-any-time)? The same removes and more,
    and where the other draws it draws on to the same stock card."""
    return (freed & freed2) == freed2 and s <= s2


@nb.njit(cache=True, inline="always")
def put_back(cols, acc, h, av, m):
    """Undo a remove from column ``m`` (heights ``h``, accept masks ``av``); return the
    rank of the card that went back."""
    h[m] += 1
    av[m] = acc[m, h[m]]
    return cols[m, h[m] - 1]
