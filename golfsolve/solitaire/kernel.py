"""The compiled core of the solver: searches over packed Golf solitaire states.

Pure numba functions over numpy arrays; no Python objects inside. The Python-facing
API (layouts, rules, results) is :mod:`golfsolve.solitaire.solver`.

A state is the seven column heights ``h``, the stock position ``s`` (cards drawn) and
the rank on the discard (0..12, 13 joker, 14 empty); the packed forms and every constant
are :mod:`.packing`'s. Suits never matter, so the kernels see ranks only, and neither
does the top card beyond *which free cards fit it*: a remove
puts the removed card on top and a draw ignores the top, so two tops that free the same
columns are the same state, and a top that frees nothing is the single state "must draw".

Dominance. With draw-any-time rules, state ``(h, s', F')`` (``F'``: the columns its top
frees) can do everything ``(h, s, F)`` can when ``s' <= s`` and ``F' ⊇ F``: the same
removes, and where the other line draws it draws on to the same stock card. The two
searches use this in ways that stay sound:

* :func:`hunt` (draw-any-time rules) searches depth first, where wins are found fast. A
  draw is one move "draw until stock card t is on the discard" (only the first card of
  each rank beyond ``s`` is worth it, and only one that frees a column), so a dominating
  state never has to pass through the state it pruned; and a state entered by a draw
  makes no draws of its own, since its parent's draws dominate them. Per height vector
  a row of four ``(F, s)`` entries (2.2 MB in all) records what was expanded; a state is
  pruned when a recorded entry dominates it, and entries it dominates are dropped. So no
  state on the search's path ever prunes one below it, and every entry of a state the
  search has left stays true whatever it does next: it restarts from the root now and
  then (ties broken another way), keeping them.
* :func:`search` runs level by level in ``s`` (the closure under removes of every state
  with ``s`` cards drawn, before any state with ``s + 1``), keyed by
  ``heights_index * 16 + canonical top`` (``heights_index``: the base-6 number of the
  heights, 6**7 = 279,936 values; top 15, ``STUCK``, frees nothing). The first arrival
  at a key is then at its smallest ``s``, so one bit per key is all the pruning needs
  (560 KB). Draws are made per height vector: once ``h`` is reached, level ``s + 1`` is
  seeded with ``(h, stock card s)``. Every expanded state is a record (key, parent,
  move, level), and the best line is read back through the parents. With
  draw-only-when-stuck rules there is no stock dominance: the bits are cleared level by
  level and the draw is the single forced step to ``s + 1``. The solver uses it for
  those rules, and the tests use it as an independent check on :func:`hunt`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from . import bounds, packing
from .huntsteps import after_remove, draw_jumps, fit_mask, frees, next_draw, put_back, tallest_from
from .expectimax import draw_value, state_value  # noqa: F401  (the fair player's exact endgame: native.EXPORTS)
from .orderhunt import order_verdicts  # noqa: F401  (compiled with the solver's kernels: native.EXPORTS)
from .packing import (DRAW, EMPTY_SLOT, HEIGHT_PLACE, LOST, MAX_PATH, N_CARD_RANKS, N_COLS, N_HEIGHT_INDEX,  # noqa: F401
                      N_KEYS, N_TOP, NO_CUT, SLOTS, STUCK, UNKNOWN, WON)
from .packops import (accept_masks, clear_bit, column_counts, decode_heights, heights_index, rank_unit,  # noqa: F401
                      prefetch, row_dominates, row_drop, row_insert, slot, stock_counts,
                      table_counts,
                      test_and_set)

EMPTY_ROW = np.uint64(packing.EMPTY_ROW)
#: A row whose one entry prunes nothing (its stock position, 31, is past every real one).
HELD_ROW = np.uint64(packing.EMPTY_ROW ^ 0xFFFF | ((1 << packing.SLOT_STOCK_BITS) - 1))


# -- steps both searches take (inlined: each is a few instructions on the hot path) -------
@nb.njit(cache=True, inline="always")
def _prunes(lb, best_left, cut):
    """Does a lower bound of ``lb`` cards left rule a state out? Yes when no line through it
    can beat the best line known (``best_left``) or the cut (only lines below it matter)."""
    return lb >= best_left or lb >= cut


@nb.njit(cache=True, inline="always")
def _canonical_top(acc, h, t):
    """The smallest top that lets the same columns remove as ``t`` does (STUCK: none).

    A state's moves depend on its top only through which free cards fit it (a remove
    puts that card on top; a draw ignores the top), so tops that free the same columns
    are one state.
    """
    same = (1 << 15) - 1
    fits_any = False
    for c in range(N_COLS):
        ac = acc[c, h[c]]
        if (ac >> t) & 1:
            same &= ac
            fits_any = True
        else:
            same &= ~ac
    if not fits_any:
        return STUCK
    for u in range(t + 1):
        if (same >> u) & 1:
            return u
    return t


# -- the hunt's steps ----------------------------------------------------------------------
@nb.njit(cache=True)
def _jumps_to_draws(line, n, path):
    """Write the hunt's line (``line[:n]``: 0..6 a remove, ``N_COLS + t`` draw on to stock
    position t) into ``path`` with every draw spelled out; return its length."""
    length = 0
    s = 0
    for k in range(n):
        mv = line[k]
        if mv < N_COLS:
            path[length] = mv
            length += 1
        else:
            t = mv - N_COLS
            for _ in range(t - s):
                path[length] = DRAW
                length += 1
            s = t
    return length


@nb.njit(cache=True, error_model="numpy")
def hunt(cols, h0, stock, top0, fits, node_limit, dom, touched, path, links, bounded, cut, best0, floor, kept,
         restart):
    """Depth-first search with stock jumps and dominance (draw-any-time rules only).

    Exact when it finishes within ``node_limit`` expanded states (0: no limit): outcome
    WON or LOST with the fewest cards left. Otherwise UNKNOWN, with the best line found.
    ``dom`` (heights index, SLOTS) uint16 must be all EMPTY_SLOT and is left so;
    ``touched`` (heights index,) int32 is scratch. ``path`` receives the best line: 0..6
    remove from that column, 7 draw one card.

    With ``bounded``, a state whose lower bound (:mod:`.bounds`, rank graph ``links``)
    is at least the best cards-left found so far, or at least ``cut``, is not expanded:
    no line through it can beat what is known (``cut = 1``: only a win matters, so a
    LOST answer's cards-left is then just the best line met). ``best0``: cards-left of a
    line already known (from an earlier pass); only better lines are searched for, and
    when none exists the answer is ``best0`` with an empty path. ``floor``: cards-left
    no line can beat (known from elsewhere); the search stops when it reaches it.

    ``kept`` (one int64): 0 clears ``dom`` on the way out as above; 1 leaves the entries
    in it (rows that held entries before the call are then not listed), with the rows
    written to listed in ``touched[:kept[0]]`` (see :func:`take_rows`).

    ``restart`` (0: never): after that many expanded states, then twice as many each time,
    the search goes back to its root and breaks ties between the tallest columns another
    way, keeping the entries of the states it has left (see the restart below): a search
    whose first moves led into a large subtree with nothing better in it gets out early
    (the heavy tail of won deals: 18–22% fewer states on them, measured on Easy, Classic
    and nothing on King). The answer is the same, the line and the states counted may differ.

    Returns ``(outcome, best_left, path_len, nodes)``; nodes counts expansions.
    """
    if node_limit <= 0:
        node_limit = np.int64(0x7FFFFFFFFFFFFFFF)  # no limit: one compare per state either way
    # restarts: after ``restart`` states, then twice as many each time (none: 0)
    budget = restart if restart > 0 else np.int64(0x7FFFFFFFFFFFFFFF)
    stop = min(node_limit, budget)
    first = 0  # ties between the tallest columns go to the first from this one on
    acc = accept_masks(cols, fits)
    rows = dom.reshape(dom.shape[0] * SLOTS).view(np.uint64)  # dom's rows, each as one integer (.packing)
    colp = column_counts(cols)  # table cards per rank for the bound, packed
    spk = stock_counts(stock)  # undrawn stock cards per rank, packed
    lo, hi = bounds.link_masks(links)
    up, down = bounds.nibble_links(lo, hi)
    wup, wdown = bounds.wrap_links(lo, hi)
    at, takers, unit_at = bounds.card_tables(cols, links)  # the card blocking test's masks
    stock_takes, top_takes = bounds.base_takes(spk, up, down, wup, wdown)
    jumps, n_jumps = draw_jumps(stock)
    # one height vector and its accept masks, changed in place and restored on the way back
    h = np.empty(N_COLS, dtype=np.int64)
    av = np.empty(N_COLS, dtype=np.int64)
    for c in range(N_COLS):
        h[c] = h0[c]
        av[c] = acc[c, h0[c]]
    # the path's frames, one per depth
    ss = np.empty(MAX_PATH + 1, dtype=np.int64)  # cards drawn
    fmask = np.empty(MAX_PATH + 1, dtype=np.int64)  # tops that would free some column
    fcols = np.empty(MAX_PATH + 1, dtype=np.int64)  # columns the state's top frees
    hidx = np.empty(MAX_PATH + 1, dtype=np.int64)  # heights index
    untried = np.empty(MAX_PATH + 1, dtype=np.int64)  # removable columns not yet tried
    nxt = np.empty(MAX_PATH + 1, dtype=np.int64)  # next draw to try
    n_draws = np.empty(MAX_PATH + 1, dtype=np.int64)  # draws worth trying
    moves = np.empty(MAX_PATH + 1, dtype=np.int64)  # the move made from this depth
    # lbu[d]: an upper bound on the raw bound of the state at depth d (exact where it
    # was computed): a child whose lbu cannot reach the pruning threshold needs no
    # program run (see bounds.packed_raw_bound for how far one move can raise it)
    lbu = np.empty(MAX_PATH + 1, dtype=np.int64)
    best_moves = np.empty(MAX_PATH + 1, dtype=np.int64)

    idx = heights_index(h)
    pres = bounds.present_mask(h)  # the table's cards as a position mask (bounds.card_bit)
    n_left = 0
    for c in range(N_COLS):
        n_left += h[c]
    tp = table_counts(colp, h)
    f = frees(av, top0)
    ss[0] = 0
    fmask[0] = fit_mask(acc, h)
    hidx[0] = idx
    untried[0] = f
    fcols[0] = f
    nxt[0] = 0
    n_draws[0] = n_jumps[0]
    dom[idx, 0] = slot(f, 0)  # the table starts empty
    touched[0] = idx
    n_touched = 1
    nodes = 1
    best_left = n_left
    best_len = 0
    if best0 < best_left:
        best_left = best0
    outcome = WON if n_left == 0 else LOST
    lbu[0] = bounds.packed_raw_bound(tp, spk[0], np.int64(top0 if f else -1), n_left, lo, hi)
    if bounded and outcome == LOST:
        if _prunes(lbu[0], best_left, cut):
            untried[0] = 0
            n_draws[0] = 0
        # no line leaves fewer cards than the root's bound: a line that reaches it is best
        floor = max(floor, lbu[0])
    depth = 0
    done = best_left <= floor
    while outcome == LOST and not done:
        s = ss[depth]
        if untried[depth]:
            m = tallest_from(untried[depth], h, first)
            untried[depth] &= ~(1 << m)
            r = np.int64(cols[m, h[m] - 1])
            ns = s
            nid = hidx[depth] - HEIGHT_PLACE[m]
            am = acc[m, h[m] - 1]
            f, fm = after_remove(av, m, am, r)
        else:
            j, ns, r, f = next_draw(jumps, s, nxt[depth], n_draws[depth], stock, fmask[depth], fcols[depth], av)
            nxt[depth] = j
            if ns < 0:
                if depth == 0:
                    break
                # back to the parent: undo the remove that led here
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
        # Dominance: a recorded entry of these heights that dominates this state prunes it;
        # else the state is recorded, dropping the entries it dominates (a full row forgets
        # its last entry: that only costs a re-expansion later). This comes before the
        # bound: about 40% of the states that reach here are dominated, and the look-up
        # costs less than the bound's program (1.3x in all). A state recorded here and then
        # cut by the bound keeps its entry, which stays sound: whatever it dominates can
        # leave no fewer cards than it can, so no fewer than its bound, and the threshold
        # only falls. The row is one integer, its four entries tested at once (a test per
        # entry branched where the processor could not predict it: 1.1x); the helpers take
        # the row, not ``dom`` (taking ``dom`` cost a tenth of the hunt's time,
        # docs/experiments.md).
        row = rows[nid]
        if row_dominates(row, f, ns):
            continue
        rows[nid] = row_insert(row, f, ns)
        if row == EMPTY_ROW:
            touched[n_touched] = nid
            n_touched += 1
        if m < N_COLS:
            lb = lbu[depth] + (bounds.REMOVE_RISE if f else bounds.REMOVE_RISE + 1)
        else:
            lb = lbu[depth] + ns - s - 1 + (1 if fcols[depth] else 0)
        if bounded and _prunes(lb, best_left, cut):
            # the program on the child's table, live top and cards left
            if m < N_COLS:
                ctp, ctop, cleft = tp - rank_unit(r), (r if f else -1), n_left - 1
            else:
                ctp, ctop, cleft = tp, r, n_left
            lb = bounds.packed_raw_bound(ctp, spk[ns], np.int64(ctop), cleft, lo, hi)
            if m == N_COLS:
                if _prunes(lb, best_left, cut):
                    # The drawn card is a live top, so this bound's bases are exactly
                    # the stock from ns - 1 on: it is the bound of this position, top
                    # left out, after ns - 1 draws, and that only grows with the
                    # draws (fewer bases: a higher program value, more dead cards, and
                    # a card more counted as blocked lowers the program's part by at
                    # most one). Every later draw from here is pruned too.
                    nxt[depth] = n_draws[depth]
                    continue
            if _prunes(lb, best_left, cut):
                continue
            # Blocking card by card: a card that can never go (every card above it must go
            # first, onto a base or a card that went before it) counts as left, with the
            # program on the rest (bounds.card_blocked_bound): 30% fewer states than
            # blocking by rank, which it replaced. Run only where the program ran (the
            # state is near the cut: everywhere cost more than it saved), with the wrap
            # too; a fixpoint on bit masks of the card positions, where a loop over the
            # columns cost more than it saved (docs/experiments.md).
            cpres = pres & ~bounds.card_bit(m, h[m] - 1) if m < N_COLS else pres
            taken = stock_takes[ns] | top_takes[ctop & 15]
            if _prunes(bounds.blocked_by_card(at, takers, unit_at, cpres, ctp, spk[ns], np.int64(ctop), cleft,
                                              lo, hi, taken, lb, min(best_left, cut)), best_left, cut):
                if m == N_COLS:
                    nxt[depth] = n_draws[depth]  # as with the program: it only grows with the draws
                continue
        if nodes >= stop:
            if nodes >= node_limit:  # never more than node_limit states (0 was made the largest int64 above)
                outcome = UNKNOWN
                break
            # Restart from the root with ties broken another way, keeping what is proven: every
            # state recorded and left (expanded to the end, or cut) can do no better than the
            # threshold then, and so than any later one (it only falls), and a state that an
            # entry prunes is one its recorded state dominates (a state on the path dominates
            # none of the states below it: they have fewer cards, or it drew to them and they
            # free a column it does not), so that holds whatever order the search takes; only
            # the states on the path, and this child, are not left yet, and their entries go.
            # A search for a win that took a wrong first move (a lost subtree of 10^5 states
            # before the win, the heavy tail of won deals) gets out of it early.
            # (a row left empty holds an entry that prunes nothing instead, so that a later
            # entry does not list it in ``touched`` again)
            for d in range(depth + 2):
                x, e = (hidx[d], slot(fcols[d], ss[d])) if d <= depth else (nid, slot(f, ns))
                row = row_drop(rows[x], e)
                rows[x] = row if row != EMPTY_ROW else HELD_ROW
            for d in range(depth - 1, -1, -1):
                pm = moves[d]
                if pm < N_COLS:
                    tp += rank_unit(put_back(cols, acc, h, av, pm))
                    pres |= bounds.card_bit(pm, h[pm] - 1)
                    n_left += 1
            depth = 0
            untried[0] = fcols[0]
            nxt[0] = 0
            rows[hidx[0]] = row_insert(rows[hidx[0]], fcols[0], 0)
            first = (first + 3) % N_COLS
            budget *= 2
            stop = min(node_limit, nodes + budget)
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
            # a state entered by a draw makes no draws of its own: its parent's draws
            # reach every stock card its draws would, with fewer cards drawn
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
        depth = d1
        # the rows its removes will look up, fetched now: each is a cache miss in the
        # 2.2 MB table, and fetched together the misses overlap
        for c in range(N_COLS):
            if (f >> c) & 1:
                prefetch(rows, nid - HEIGHT_PLACE[c])
        if n_left < best_left:
            best_left = n_left
            best_len = d1
            for k in range(d1):
                best_moves[k] = moves[k]
            if best_left == 0:
                outcome = WON
            done = best_left <= floor
    if kept[0]:
        kept[0] = n_touched
    else:
        for k in range(n_touched):
            rows[touched[k]] = EMPTY_ROW
    return outcome, best_left, _jumps_to_draws(best_moves, best_len, path), nodes


@nb.njit(cache=True)
def load_rows(dom, rows, vals):
    """Write dominance rows ``vals[k]`` at ``rows[k]`` (entries kept by :func:`take_rows`)."""
    for k in range(rows.shape[0]):
        for j in range(SLOTS):
            dom[rows[k], j] = vals[k, j]


@nb.njit(cache=True)
def take_rows(dom, rows_a, rows_b, n_b, keep):
    """The non-empty rows among ``rows_a`` and ``rows_b[:n_b]`` with their entries (none
    unless ``keep``), and ``dom`` cleared there (all EMPTY_SLOT again)."""
    n = rows_a.shape[0] + n_b
    rows = np.empty(n, dtype=np.int64)
    vals = np.empty((n, SLOTS), dtype=np.uint16)
    k = 0
    for t in range(n):
        r = rows_a[t] if t < rows_a.shape[0] else rows_b[t - rows_a.shape[0]]
        if not keep:
            for j in range(SLOTS):
                dom[r, j] = EMPTY_SLOT
            continue
        used = False
        for j in range(SLOTS):
            if dom[r, j] != EMPTY_SLOT:
                used = True
        if used:
            rows[k] = r
            for j in range(SLOTS):
                vals[k, j] = dom[r, j]
                dom[r, j] = EMPTY_SLOT
            k += 1
    return rows[:k].copy(), vals[:k].copy()


@nb.njit(cache=True)
def line_wins(cols, h0, stock, top0, fits, draw_any_time, codes):
    """Is ``codes`` (0..6 remove from that column, 7 draw, anything else illegal) a
    legal line that clears the table? Arguments as for :func:`search`."""
    h = np.empty(N_COLS, dtype=np.int64)
    for c in range(N_COLS):
        h[c] = h0[c]
    top = top0
    s = 0
    for mv in codes:
        if mv == DRAW:
            if s >= stock.shape[0]:
                return False
            if not draw_any_time:
                for c in range(N_COLS):
                    if h[c] and fits[top, cols[c, h[c] - 1]]:
                        return False
            top = stock[s]
            s += 1
        elif 0 <= mv < N_COLS:
            if h[mv] == 0 or not fits[top, cols[mv, h[mv] - 1]]:
                return False
            h[mv] -= 1
            top = cols[mv, h[mv]]
        else:
            return False
    for c in range(N_COLS):
        if h[c]:
            return False
    return True


# -- the level search's steps ------------------------------------------------------------
@nb.njit(cache=True, inline="always")
def _record(keys, parents, moves, levels, n, key, parent, move, level):
    keys[n] = key
    parents[n] = parent
    moves[n] = move
    levels[n] = level


@nb.njit(cache=True, inline="always")
def _fit_mask_after_remove(acc, h, a, c):
    """:func:`fit_mask` once column ``c`` (of heights ``h``, accept masks ``a``) loses its
    free card."""
    fm = acc[c, h[c] - 1]
    for c2 in range(N_COLS):
        if c2 != c:
            fm |= a[c2]
    return fm


@nb.njit(cache=True)
def _read_line(parents, moves, levels, best, path):
    """Write the line to record ``best``, read back through the parents, into ``path`` (a
    draw edge may stand for several draws); return its length."""
    length = 0
    i = best
    while parents[i] >= 0:
        length += levels[i] - levels[parents[i]] if moves[i] == DRAW else 1
        i = parents[i]
    i = best
    j = length
    while parents[i] >= 0:
        if moves[i] == DRAW:
            for _ in range(levels[i] - levels[parents[i]]):
                j -= 1
                path[j] = DRAW
        else:
            j -= 1
            path[j] = moves[i]
        i = parents[i]
    return length


@nb.njit(cache=True, error_model="numpy")
def search(cols, h0, stock, top0, fits, draw_any_time, node_limit,
           seen, hseen, keys, parents, moves, levels, hlist, hmask, stack, path,
           links, bounded, cut, best0, floor):
    """Exhaustive search, stock level by stock level.

    Arguments: ``cols`` (7, 5) int8 ranks, covered card first; ``h0`` (7,) heights;
    ``stock`` (n,) int8 ranks in drawing order; ``top0`` rank on the discard (14 =
    empty); ``fits`` (15, 14) bool; ``draw_any_time``; ``node_limit`` (0 = the tables'
    capacity); the work tables from :func:`.packing.new_tables` (bitmaps are left all-zero);
    ``path`` (>= MAX_PATH,) receives the best line: 0..6 remove from that column, 7 draw.

    ``links``, ``bounded``, ``cut``, ``best0``, ``floor`` as for :func:`hunt`. A state
    whose bound prunes it is not recorded (its seen bit is cleared again): the bound
    only grows with the stock drawn and ``best_left`` only falls, so a later arrival
    at the same key is pruned too.

    Returns ``(outcome, best_left, path_len, nodes)``: outcome LOST, WON or UNKNOWN (the
    node limit was hit; best_left is then only the best found so far).
    """
    n_stock = stock.shape[0]
    cap = keys.shape[0]
    colp = column_counts(cols)
    spk = stock_counts(stock)
    link_lo, link_hi = bounds.link_masks(links)
    if node_limit <= 0 or node_limit > cap:
        node_limit = cap
    acc = accept_masks(cols, fits)
    a = np.empty(N_COLS, dtype=np.int64)
    h = np.empty(N_COLS, dtype=np.int64)
    n_root = 0
    for c in range(N_COLS):
        h[c] = h0[c]
        n_root += h0[c]
    key = heights_index(h) * N_TOP + _canonical_top(acc, h, top0)
    test_and_set(seen, key)
    _record(keys, parents, moves, levels, 0, key, -1, -1, 0)
    n = 1
    n_h = 0  # distinct height vectors reached, in hlist (with their accept masks)
    best = 0
    best_left = n_root
    outcome = np.int64(WON if best_left == 0 else LOST)  # np.int64 here and below: numba.pycc types bare constants as literals that do not unify
    if best0 < best_left:
        best_left = best0
        best = -1  # no line better than best0 found yet
    done = best_left <= floor
    if bounded and outcome == LOST and not done:
        lb = bounds.packed_raw_bound(table_counts(colp, h), spk[0], np.int64(top0 if key % N_TOP != STUCK else -1),
                                     n_root, link_lo, link_hi)
        done = _prunes(lb, best_left, cut)
        floor = max(floor, lb)  # no line leaves fewer cards than the root's bound
    lo = 0  # first record of the current level
    s = 0
    while outcome == LOST and not done:
        # 1. closure of the level under removes, depth first from its seeds
        sp = 0
        for i in range(n - 1, lo - 1, -1):
            stack[sp] = i
            sp += 1
        while sp > 0 and outcome == LOST and not done:
            sp -= 1
            i = stack[sp]
            k = keys[i]
            top = k % N_TOP
            idx = k // N_TOP
            left = decode_heights(idx, h)
            if left < best_left:
                best_left = left
                best = i
                if left == 0:
                    outcome = np.int64(WON)
                    break
                if left <= floor:
                    done = True
                    break
            if top == STUCK:
                continue
            for c in range(N_COLS):
                a[c] = acc[c, h[c]]
            tp = table_counts(colp, h) if bounded else 0
            for c in range(N_COLS - 1, -1, -1):
                if not (a[c] >> top) & 1:
                    continue
                r = cols[c, h[c] - 1]
                t = np.int64(STUCK)  # the removed card is the top: it may free nothing
                if (_fit_mask_after_remove(acc, h, a, c) >> r) & 1:
                    h[c] -= 1
                    t = _canonical_top(acc, h, r)
                    h[c] += 1
                ck = (idx - HEIGHT_PLACE[c]) * N_TOP + t
                if test_and_set(seen, ck):
                    continue
                if bounded:
                    lb = bounds.packed_raw_bound(tp - rank_unit(r), spk[s], np.int64(r if t != STUCK else -1),
                                                 left - 1, link_lo, link_hi)
                    if _prunes(lb, best_left, cut):
                        clear_bit(seen, ck)
                        continue
                if n >= node_limit:
                    clear_bit(seen, ck)  # not recorded, so not cleared below: left set, the
                    outcome = np.int64(UNKNOWN)  # solver's next search would take the state as seen
                    break
                _record(keys, parents, moves, levels, n, ck, i, c, s)
                stack[sp] = n
                sp += 1
                n += 1
        if outcome != LOST or done or s >= n_stock:
            break
        # 2. draws into level s + 1
        hi = n
        r = stock[s]
        if draw_any_time:
            # every height vector reached so far may draw on to stock card s; a draw
            # that fits nothing adds nothing (its heights already draw on from here)
            for i in range(lo, hi):
                hk = keys[i] // N_TOP
                if not test_and_set(hseen, hk):
                    decode_heights(hk, h)
                    hlist[n_h] = i
                    hmask[n_h] = fit_mask(acc, h)
                    n_h += 1
            n_from = 0
            for j in range(n_h):
                if (hmask[j] >> r) & 1:
                    stack[n_from] = hlist[j]
                    n_from += 1
        else:
            # no dominance across levels: forget this level's keys; only a stuck state draws
            n_from = 0
            for i in range(lo, hi):
                k = keys[i]
                clear_bit(seen, k)
                if k % N_TOP == STUCK:
                    stack[n_from] = i
                    n_from += 1
        for j in range(n_from):
            i = stack[j]
            hk = keys[i] // N_TOP
            left = decode_heights(hk, h)
            t = _canonical_top(acc, h, r)
            ck = hk * N_TOP + t
            if test_and_set(seen, ck):
                continue
            if bounded:
                lb = bounds.packed_raw_bound(table_counts(colp, h), spk[s + 1], np.int64(r if t != STUCK else -1),
                                             left, link_lo, link_hi)
                if _prunes(lb, best_left, cut):
                    clear_bit(seen, ck)
                    continue
            if n >= node_limit:
                clear_bit(seen, ck)  # as above
                outcome = np.int64(UNKNOWN)
                break
            _record(keys, parents, moves, levels, n, ck, i, DRAW, s + 1)
            n += 1
        lo = hi
        s += 1
        if lo == n and not draw_any_time:
            break  # nobody was stuck, so nobody could draw

    # clear the bits this search set
    for i in range(0 if draw_any_time else lo, n):
        seen[keys[i] >> 3] = 0
    for j in range(n_h):
        hseen[(keys[hlist[j]] // N_TOP) >> 3] = 0
    if best < 0:
        return outcome, best_left, 0, n
    return outcome, best_left, _read_line(parents, moves, levels, best, path), n
