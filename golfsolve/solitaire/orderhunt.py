"""The fair player's search: one stock order, the root and every pre-draw table after one draw, in one call.

Pure numba functions over numpy arrays, compiled with the solver's kernels
(:mod:`.native`); the Python side is :class:`golfsolve.fair.infoset.ChainValues`. For one
sampled stock order, :func:`order_verdicts` decides whether the root position is winnable
and, for each pre-draw table asked for (the root's columns with cards gone from their
tops), whether the position after that table and one draw is: the verdicts
:meth:`Solver.solve <golfsolve.solitaire.solver.Solver.solve>` gives one at a time
(draw-any-time rules), at a fraction of the work.

All those positions live in one state space: the root's columns, the order's stock and
``s`` cards drawn (a table after one draw is ``s = 1``). Each is decided by the hunt's
depth-first search (:func:`.kernel.hunt`: stock jumps, dominance rows, the cards-left bound
and blocking card by card, with only a win wanted), and what one search proves serves the next. Each height vector
has one row of ``2 * SLOTS`` entries (:func:`.packops.slot`): the first ``SLOTS`` as the
hunt's, the others wins, each half read and written as one integer as the hunt's row is
(:func:`.packops.row_dominates`).

* Lost entries (the hunt's) keep the states a search closed without a win: such a state is
  lost (its subtree was searched, or the bound ruled it out), and so is any state it
  dominates. A lost search closes all it recorded. A won one leaves the states on its
  winning path open, and a state it entered by a draw was closed without draws of its own
  (the hunt leaves them to its parent): when that parent is on the winning path, those
  draws were never all made. So a won search takes out its path and everything it
  recorded from the first such draw on (what it recorded before was closed before it, so
  does not rest on it); the rest stays.
* Win entries keep the states on winning paths: a state that dominates one is won, and the
  search that reaches it stops.

Both hold for the order, whichever table's search made them, so a call can hand them to the
next call on the same order and root (the fair player decides an order's tables in several
calls, only while they can still be among the best): that call starts from them.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from . import bounds
from .huntsteps import after_remove, draw_jumps, fit_mask, frees, next_draw, put_back, tallest
from .packing import EMPTY_ROW, HEIGHT_PLACE, MAX_PATH, N_COLS, SLOTS
from .packops import (accept_masks, column_counts, heights_index, prefetch, rank_unit, row_dominated, row_dominates,
                      row_drop, row_insert, row_insert_above, slot, stock_counts, table_counts)

EMPTY = np.uint64(EMPTY_ROW)


@nb.njit(cache=True)
def _settled(rows, idx, f, s):
    """1 when a win entry of row ``idx`` says the state (freed ``f``, ``s`` drawn) is won
    (it dominates the entry), 0 when a lost entry says it is lost (the entry dominates
    it), -1 when neither does."""
    if row_dominated(rows[2 * idx + 1], f, s):
        return 1
    if row_dominates(rows[2 * idx], f, s):
        return 0
    return -1


@nb.njit(cache=True)
def _add_win(rows, wtouched, cnt, idx, f, s):
    """Record the won state (``f``, ``s``) in row ``idx``'s win entries, dropping the ones it
    covers more (a win entry covers the states that dominate it); return nothing."""
    w = rows[2 * idx + 1]
    if row_dominated(w, f, s):
        return  # an entry covers every state this one does
    rows[2 * idx + 1] = row_insert_above(w, f, s)
    if w == EMPTY:
        wtouched[cnt[1]] = idx
        cnt[1] += 1


@nb.njit(cache=True, error_model="numpy")
def _search(cols, acc, colp, spk, lo, hi, cards, jumps, n_jumps, stock, h, av, idx, f, s0, top, n_left, rows,
            listed, touched, wtouched, cnt, log_rows, log_vals, frames):
    """The hunt from the state with heights ``h`` (accept masks ``av``, index ``idx``,
    ``n_left`` cards), ``s0`` drawn and top ``top`` (freeing ``f``), a win the only aim,
    on the shared rows (see :func:`order_verdicts`); ``cards`` (at, takers, unit_at,
    stock_takes, top_takes) for :func:`.bounds.blocked_by_card`; ``frames`` is scratch.
    Returns ``(won, nodes)``."""
    n_log = log_rows.shape[0]
    # the path's frames, as in the hunt, and where in the log each frame's entry and its
    # first draw's are
    ss, fmask, fcols, hidx, untried, nxt, n_draws, moves, lbu, at, first_draw = (
        frames[0], frames[1], frames[2], frames[3], frames[4], frames[5], frames[6], frames[7], frames[8],
        frames[9], frames[10])
    cat, takers, unit_at, stock_takes, top_takes = cards
    tp = table_counts(colp, h)
    pres = bounds.present_mask(h)  # the table's cards as a position mask (bounds.card_bit)
    lbu[0] = bounds.packed_raw_bound(tp, spk[s0], np.int64(top if f else -1), n_left, lo, hi)
    # recorded like every state the search meets, before its bound (see the hunt)
    rows[2 * idx] = row_insert(rows[2 * idx], f, s0)
    if not listed[idx]:
        listed[idx] = 1
        touched[cnt[0]] = idx
        cnt[0] += 1
    log_rows[0] = idx
    log_vals[0] = slot(f, s0)
    n_logged = 1
    t0 = np.int64(top if f else -1)
    if lbu[0] >= 1 or bounds.blocked_by_card(cat, takers, unit_at, pres, tp, spk[s0], t0, n_left, lo, hi,
                                             stock_takes[s0] | top_takes[t0 & 15], lbu[0], 1) >= 1:
        return False, 0
    ss[0] = s0
    fmask[0] = fit_mask(acc, h)
    hidx[0] = idx
    untried[0] = f
    fcols[0] = f
    nxt[0] = 0
    n_draws[0] = n_jumps[s0]
    at[0] = 0
    first_draw[0] = -1
    nodes = 1
    depth = 0
    won = False
    while True:
        s = ss[depth]
        if untried[depth]:
            m = tallest(untried[depth], h)
            untried[depth] &= ~(1 << m)
            r = np.int64(cols[m, h[m] - 1])
            ns = s
            nid = hidx[depth] - HEIGHT_PLACE[m]
            am = acc[m, h[m] - 1]
            f, fm = after_remove(av, m, am, r)
            if n_left == 1:
                won = True  # the last card goes
                break
        else:
            j, ns, r, f = next_draw(jumps, s, nxt[depth], n_draws[depth], stock, fmask[depth], fcols[depth], av)
            nxt[depth] = j
            if ns < 0:
                if depth == 0:
                    break
                depth -= 1
                pm = moves[depth]
                if pm < N_COLS:
                    tp += rank_unit(put_back(cols, acc, h, av, pm))
                    pres |= bounds.card_bit(pm, h[pm] - 1)
                    n_left += 1
                continue
            m = N_COLS
            nid = hidx[depth]
            fm = fmask[depth]
        # a state that dominates a known win is won: the search ends
        if row_dominated(rows[2 * nid + 1], f, ns):
            won = True
            break
        # dominance as in the hunt, the entry logged
        row = rows[2 * nid]
        if row_dominates(row, f, ns):
            continue
        rows[2 * nid] = row_insert(row, f, ns)
        e = slot(f, ns)
        if not listed[nid]:
            listed[nid] = 1
            touched[cnt[0]] = nid
            cnt[0] += 1
        here = n_logged
        if here < n_log:
            log_rows[here] = nid
            log_vals[here] = e
        n_logged += 1
        if m == N_COLS and first_draw[depth] < 0:
            first_draw[depth] = here
        if m < N_COLS:
            lb = lbu[depth] + (bounds.REMOVE_RISE if f else bounds.REMOVE_RISE + 1)
        else:
            lb = lbu[depth] + ns - s - 1 + (1 if fcols[depth] else 0)
        if lb >= 1:
            if m < N_COLS:
                ctp, ctop, cleft = tp - rank_unit(r), (r if f else -1), n_left - 1
            else:
                ctp, ctop, cleft = tp, r, n_left
            lb = bounds.packed_raw_bound(ctp, spk[ns], np.int64(ctop), cleft, lo, hi)
            if lb < 1:
                # blocking card by card, where the program ran and did not cut (see the hunt)
                cpres = pres & ~bounds.card_bit(m, h[m] - 1) if m < N_COLS else pres
                blocked = bounds.blocked_by_card(cat, takers, unit_at, cpres, ctp, spk[ns], np.int64(ctop), cleft, lo,
                                                 hi, stock_takes[ns] | top_takes[ctop & 15], lb, 1) >= 1
            else:
                blocked = True
            if blocked:
                if m == N_COLS:
                    nxt[depth] = n_draws[depth]  # every later draw is ruled out too (see the hunt)
                continue
        nodes += 1
        d1 = depth + 1
        if m < N_COLS:
            moves[depth] = m
            h[m] -= 1
            pres &= ~bounds.card_bit(m, h[m])
            av[m] = am
            n_left -= 1
            tp -= rank_unit(r)
            n_draws[d1] = n_jumps[ns]
        else:
            moves[depth] = N_COLS + ns
            n_draws[d1] = 0
        ss[d1] = ns
        lbu[d1] = lb
        fmask[d1] = fm
        hidx[d1] = nid
        untried[d1] = f
        fcols[d1] = f
        nxt[d1] = 0
        at[d1] = here
        first_draw[d1] = -1
        depth = d1
        for c in range(N_COLS):
            if (f >> c) & 1:
                prefetch(rows, 2 * (nid - HEIGHT_PLACE[c]))
    if won:
        # the path's states are won; of the rest, a draw closed while its parent was on the
        # path and everything after it are not proven lost (see the module's docstring)
        cut = n_logged
        for d in range(depth + 1):
            fd = first_draw[d]
            if fd >= 0 and (d == depth or fd != at[d + 1]) and fd < cut:
                cut = fd
        if n_logged > n_log:
            # the log overflowed: what it missed is not known, so no lost entry is kept
            for t in range(cnt[0]):
                rows[2 * touched[t]] = EMPTY
                listed[touched[t]] = 0
            cnt[0] = 0
        else:
            for t in range(cut, n_logged):
                rows[2 * log_rows[t]] = row_drop(rows[2 * log_rows[t]], log_vals[t])
        for d in range(depth + 1):
            rows[2 * hidx[d]] = row_drop(rows[2 * hidx[d]], slot(fcols[d], ss[d]))
            _add_win(rows, wtouched, cnt, hidx[d], fcols[d], ss[d])
    return won, nodes


@nb.njit(cache=True, inline="always")
def _hand_on(words, r, out_rows, out_words, n_out):
    """Row ``r``'s lost and win entries appended to what a call hands on; the new count."""
    out_rows[n_out] = r
    out_words[n_out, 0] = words[2 * r]
    out_words[n_out, 1] = words[2 * r + 1]
    return n_out + 1


@nb.njit(cache=True, error_model="numpy")
def order_verdicts(cols, h0, stock, top0, fits, links, tables, out, rows, listed, touched, wtouched, log_rows,
                   log_vals, with_root, kept_rows, kept_words, keep):
    """Is the root winnable, and each pre-draw table after one draw? All on one stock order.

    ``cols`` (7, 5) int8 ranks of the root's columns, covered card first; ``h0`` (7,) its
    heights; ``stock`` (n,) int8 ranks in drawing order; ``top0`` the discard's rank (14:
    empty); ``fits`` and ``links`` as for :func:`.kernel.hunt`; ``tables`` (k, 7) int8
    heights of pre-draw tables (each at most the root's). Writes ``out[k]`` (int8): 1 when
    the position with table ``tables[k]``, the stock's first card on the discard and the
    rest to draw is winnable, else 0 (all 0 when the root is lost: a remove cannot make a
    lost position winnable). ``rows`` (heights index, 2 * SLOTS) uint16 must be all
    EMPTY_SLOT and ``listed`` (heights index,) uint8 all 0; both are left so. ``touched``
    and ``wtouched`` (heights index,) int32, ``log_rows`` int32 and ``log_vals`` uint16
    (equal lengths of at least 1: the entries one search records, in order; a won search
    that recorded more keeps no lost entry) are scratch. Without ``with_root`` the root is
    not searched (a caller that knows it is won saves its search) and every table is.
    ``kept_rows`` (k,) int64 and ``kept_words`` (k, 2) uint64: what an earlier call on the
    same order and root proved (its lost and win entries by row), as this call returns them;
    both empty for a first call.

    Returns ``(root won, nodes, kept rows, kept words)``: 1 or 0 (-1 when not searched), the
    states expanded in all, and with ``keep`` the entries proved (the earlier ones included)
    for the next call on this order (else none).
    """
    acc = accept_masks(cols, fits)
    words = rows.reshape(rows.shape[0] * 2 * SLOTS).view(np.uint64)  # row i's lost entries at 2 i, its wins at 2 i + 1
    colp = column_counts(cols)
    spk = stock_counts(stock)
    lo, hi = bounds.link_masks(links)
    up, down = bounds.nibble_links(lo, hi)
    wup, wdown = bounds.wrap_links(lo, hi)
    cat, takers, unit_at = bounds.card_tables(cols, links)  # the card blocking test's masks
    # and the ranks the bases take, per stock position and per top, looked up (as the hunt)
    stock_takes, top_takes = bounds.base_takes(spk, up, down, wup, wdown)
    cards = (cat, takers, unit_at, stock_takes, top_takes)
    jumps, n_jumps = draw_jumps(stock)
    n_stock = stock.shape[0]
    h = np.empty(N_COLS, dtype=np.int64)
    av = np.empty(N_COLS, dtype=np.int64)
    frames = np.empty((11, MAX_PATH + 1), dtype=np.int64)
    cnt = np.zeros(2, dtype=np.int64)  # rows listed in touched, in wtouched
    # what earlier calls on this order proved, listed so that it is cleared at the end
    for t in range(kept_rows.shape[0]):
        r = kept_rows[t]
        words[2 * r] = kept_words[t, 0]
        words[2 * r + 1] = kept_words[t, 1]
        listed[r] = 1
        touched[cnt[0]] = r
        cnt[0] += 1
        if kept_words[t, 1] != EMPTY:
            wtouched[cnt[1]] = r
            cnt[1] += 1
    nodes = np.int64(0)
    root_won = np.int64(-1)
    for k in range(-1 if with_root else 0, tables.shape[0]):
        # k = -1: the root (nothing drawn, its own top); then each table after one draw
        if k >= 0:
            out[k] = 0
            if root_won == 0:
                continue
        n_left = 0
        for c in range(N_COLS):
            h[c] = h0[c] if k < 0 else tables[k, c]
            av[c] = acc[c, h[c]]
            n_left += h[c]
        won = n_left == 0
        if not won and (k < 0 or n_stock > 0):
            s0 = 0 if k < 0 else 1
            top = top0 if k < 0 else np.int64(stock[0])
            idx = heights_index(h)
            f = frees(av, top)
            known = _settled(words, idx, f, s0)
            if known >= 0:
                won = known == 1
            else:
                won, n = _search(cols, acc, colp, spk, lo, hi, cards, jumps, n_jumps, stock, h, av, idx, f, s0,
                                 top, n_left, words, listed, touched, wtouched, cnt, log_rows, log_vals, frames)
                nodes += n
        if k < 0:
            root_won = np.int64(1 if won else 0)
        else:
            out[k] = 1 if won else 0
    # the entries proved, for the next call on this order (with keep), and the rows cleared:
    # the lost entries are in the rows listed in touched, the wins in those listed in
    # wtouched (a row may be in both: taken with the first, its win half then already cleared)
    n_rows = cnt[0] + cnt[1] if keep else 0
    out_rows = np.empty(n_rows, dtype=np.int64)
    out_words = np.empty((n_rows, 2), dtype=np.uint64)
    n_out = 0
    for t in range(cnt[0]):
        r = touched[t]
        listed[r] = 0
        if keep and (words[2 * r] != EMPTY or words[2 * r + 1] != EMPTY):
            n_out = _hand_on(words, r, out_rows, out_words, n_out)
        words[2 * r] = EMPTY
        words[2 * r + 1] = EMPTY
    for t in range(cnt[1]):
        r = wtouched[t]
        if keep and words[2 * r + 1] != EMPTY:
            n_out = _hand_on(words, r, out_rows, out_words, n_out)
        words[2 * r + 1] = EMPTY
    return root_won, nodes, out_rows[:n_out].copy(), out_words[:n_out].copy()
