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
``b[p]`` depends only on ``a[p - 1]`` and ``a[p + 1]`` (plus the King–Ace link when
wrapping, handled by fixing ``a`` of Ace and King in up to four passes). Jokers fit
everything both ways: with any ``a`` set, a joker is a base for every rank, so
``b[joker] = 1`` and a joker on the table costs ``2`` (removable, and a base); an empty
discard is a base for anything, like a joker that cannot be removed.
"""

from __future__ import annotations

import numba as nb
import numpy as np

N_PLAIN = 13  # Ace..King
JOKER = 13
EMPTY = 14
N_BASE = 16  # rows of a base-count vector: ranks, joker, empty, padding
INF = 1 << 30


def rank_links(fits: np.ndarray) -> np.ndarray:
    """The rank graph of a rule set as the kernels read it.

    ``links[p] = (fits[p, p - 1], fits[p, p + 1])`` for p in Ace..King, and row 13 holds
    the two King–Ace links ``(fits[Ace, King], fits[King, Ace])``. Raises ValueError
    when the rules link ranks in another way (the dynamic program assumes neighbours).
    """
    links = np.zeros((N_PLAIN + 1, 2), dtype=np.int64)
    for p in range(N_PLAIN):
        for q in range(N_PLAIN):
            if not fits[p, q]:
                continue
            if q == p - 1:
                links[p, 0] = 1
            elif q == p + 1:
                links[p, 1] = 1
            elif (p, q) == (0, 12):
                links[N_PLAIN, 0] = 1
            elif (p, q) == (12, 0):
                links[N_PLAIN, 1] = 1
            else:
                raise ValueError(f"rank {q} on rank {p} is not a neighbour link")
    for q in range(JOKER + 1):
        if not (fits[JOKER, q] and fits[q if q < JOKER else JOKER, JOKER] and fits[EMPTY, q]):
            raise ValueError("jokers and the empty discard must fit everything")
    return links


@nb.njit(cache=True)
def _dual_pass(T, S, top, links, a0, a12):
    """min over ``a`` with a[Ace] = a0, a[King] = a12 (-1: free) of the ranks' part of U(a).

    ``B = S`` plus one card of rank ``top`` (-1: none).
    """
    lo_w = links[N_PLAIN, 0]  # Ace takes King
    hi_w = links[N_PLAIN, 1]  # King takes Ace
    # d[x][y]: best cost of ranks < p with a[p - 1] = x, a[p] = y, p = 0 at the start
    prev = a12 if a12 >= 0 else 0  # a[King] seen from the Ace (only matters when wrapping)
    d00 = INF
    d01 = INF
    d10 = INF
    d11 = INF
    if a0 != 1:
        if prev == 1:
            d10 = 0
        else:
            d00 = 0
    if a0 != 0:
        if prev == 1:
            d11 = 0
        else:
            d01 = 0
    for p in range(N_PLAIN - 1):
        lo = links[p, 0] if p > 0 else lo_w
        hi = links[p, 1]
        t = T[p]
        w = t + S[p] + (1 if p == top else 0)
        # finalize rank p choosing c = a[p + 1]
        n00 = INF
        n01 = INF
        n10 = INF
        n11 = INF
        allow0 = not (p + 1 == N_PLAIN - 1 and a12 == 1)
        allow1 = not (p + 1 == N_PLAIN - 1 and a12 == 0)
        # a[p] = 0: cost t plus w * b
        if allow0:
            n00 = min(d00 + t, d10 + t + (w if lo else 0))
            n10 = min(d01, d11 + (w if lo else 0))
        if allow1:
            n01 = min(d00 + t + (w if hi else 0), d10 + t + (w if (lo or hi) else 0))
            n11 = min(d01 + (w if hi else 0), d11 + (w if (lo or hi) else 0))
        d00 = n00
        d01 = n01
        d10 = n10
        d11 = n11
    # finalize the King, whose other neighbour is the Ace (a0) when wrapping
    lo = links[N_PLAIN - 1, 0]
    kw = hi_w and a0 == 1
    t = T[N_PLAIN - 1]
    w = t + S[N_PLAIN - 1] + (1 if top == N_PLAIN - 1 else 0)
    r = min(d00 + t + (w if kw else 0), d10 + t + (w if (lo or kw) else 0))
    r = min(r, d01 + (w if kw else 0))
    r = min(r, d11 + (w if (lo or kw) else 0))
    return r


@nb.njit(cache=True)
def removable_bound(T, S, top, links):
    """min over every ``a`` of the ranks Ace..King part of U(a) (see the module doc).

    Wrapping rules need four passes (Ace and King fixed), others one.
    """
    if links[N_PLAIN, 0] or links[N_PLAIN, 1]:
        best = INF
        for a0 in range(2):
            for a12 in range(2):
                r = _dual_pass(T, S, top, links, a0, a12)
                if r < best:
                    best = r
        return best
    return _dual_pass(T, S, top, links, -1, -1)


@nb.njit(cache=True)
def cards_left_bound(T, S, top, n_left, links):
    """A lower bound on the cards a line from this position can leave on the table.

    ``T`` table cards per rank (index 13 jokers), ``S`` undrawn stock cards per rank,
    ``top`` the discard's rank (14: empty) when some free card fits it, else -1 (it will
    be covered by a draw before anything goes on it). ``n_left`` = sum of ``T``.
    """
    u = removable_bound(T, S, top, links) + S[JOKER] + 2 * T[JOKER]
    if top >= JOKER:
        u += 1  # a joker or an empty discard takes any first card
    if u >= n_left:
        return 0
    return n_left - u
