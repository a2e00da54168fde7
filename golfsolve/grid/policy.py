"""The heuristic policy as compiled kernels, and fast play-outs and Monte Carlo with it.

The heuristic values a face-down card at the mean of the cards no one has seen yet (the
public unseen pool, kept up to date as cards are revealed), credits a face-down card with
its chance of matching the known cards of its column (seed 003's pairwise rule included),
takes the discard only when it beats what an average stock card would do, turns cards to
move toward closing, closes or knocks only when its grid is no worse than the best
opponent's visible estimate, and in the last lap just lowers its own score.

:class:`.bots.HeuristicBot` calls these same kernels on arrays built from its
:class:`~.view.PlayerView`, so the bot and the rollout policy are one implementation.

Layouts follow :mod:`.layout` (``grid``, ``up``, ``stock``, ``disc``, ``st``, ``prm``)
plus the public unseen pool: ``ucnt[key + KEY_OFF]`` copies per cancel key and
``pub[U_N]`` cards, ``pub[U_SUM]`` their total value in hundredths, ``pub[U_KNOWN]`` = 1
once the stock is made of recycled (known) cards. Speed comes from evaluating a swap by
re-scoring only the column it changes (when only columns cancel) and from looking at the
opponents only when a move could end the hole.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel

from .layout import (A_DISCARD_SWAP, A_FLIP, A_KNOCK, A_PASS, A_STOCK, A_SWAP, P_ANY, P_COLS, P_G, P_KNOCK,
                     P_N, P_NOFL, P_PAIR, P_PUTT, P_ROWC, P_ROWS, P_TURN, R_RUNNING, S_CUR, S_DL, S_ENDS,
                     S_REASON, S_RECYCLES, S_SL, S_TURN, apply_place, cancel_slots, end_turn, first_hidden,
                     hidden_count)

KEY_OFF = 2      # cancel keys run from -2 (a value) up to 13 (the joker's rank)
N_KEYS = 20
U_N, U_SUM, U_KNOWN = range(3)
N_PUB = 3
NO_KEY = -1000   # a card that matches nothing (face down, or the "average card")

# Heuristic parameters (hundredths of a stroke), in ``hp``.
H_TAKE, H_CLOSE, H_KNOCK, H_SWAP, H_PROG = range(5)
N_HP = 5
#: Take the discard when it beats an average stock card by this much; close when the
#: estimate is this much below the best opponent (negative: close a little behind); knock
#: this far ahead; swap a stock card in when it beats the alternative by this much; count
#: a turned face-down card as worth this much progress.
DEFAULT_HP = np.array([50, -100, 400, 1, 400], np.int64)
#: The same parameters fitted by self-play with CMA-ES against ``DEFAULT_HP`` (four players,
#: six cards, default rules; the knock margin, unused there, left as it was):
#: ``python benchmarks/fit_grid_policy.py --generations 30 --holes 16000 --seed 5``. The bot
#: ``heuristic-fit`` plays them; the searches' play-outs keep ``DEFAULT_HP`` (docs/grid.md).
FITTED_HP = np.array([272, 79, 400, 110, 382], np.int64)


@kernel
def _mean_unseen(pub):
    if pub[U_N] <= 0:
        return 0.0
    return pub[U_SUM] / pub[U_N]


@kernel
def _line_est(cards, known, slots, m, pairwise, key_tab, val100, ucnt, pub, hmean, canc_known):
    """Estimated strokes of one line (a column) from its ``m`` slots.

    Known cards score unless they cancel; a face-down card scores the unseen mean, less
    its chance of completing a match with the known cards times what that match saves.
    ``canc_known`` is scratch for which known slots cancel already.
    """
    s = 0.0
    for a in range(m):
        canc_known[a] = False
    if pairwise:
        for a in range(m):
            if known[a]:
                for b in range(m):
                    if b != a and known[b] and key_tab[cards[b]] == key_tab[cards[a]]:
                        canc_known[a] = True
                        break
    else:
        all_known = True
        for a in range(m):
            if not known[a]:
                all_known = False
        if all_known:
            k = key_tab[cards[0]]
            same = True
            for a in range(1, m):
                if key_tab[cards[a]] != k:
                    same = False
            if same:
                return 0.0
    n_hidden = 0
    for a in range(m):
        if known[a]:
            if not canc_known[a]:
                s += val100[cards[a]]
        else:
            n_hidden += 1
    if n_hidden == 0:
        return s
    u = pub[U_N]
    s += n_hidden * hmean
    if u <= 0:
        return s
    if pairwise:
        # Each face-down card may pair with a known card of the line: it then scores 0,
        # and so does its partner if that was not cancelled yet.
        for a in range(m):
            if known[a]:
                dup = False
                for b in range(a):
                    if known[b] and key_tab[cards[b]] == key_tab[cards[a]]:
                        dup = True
                        break
                if dup:
                    continue
                k = key_tab[cards[a]]
                pk = ucnt[k + KEY_OFF] / u
                v = val100[cards[a]]
                save = v if canc_known[a] else 2.0 * v
                s -= n_hidden * pk * save
    elif n_hidden == 1:
        k = NO_KEY
        same = True
        for a in range(m):
            if known[a]:
                if k == NO_KEY:
                    k = key_tab[cards[a]]
                elif key_tab[cards[a]] != k:
                    same = False
        if same and k != NO_KEY:
            pk = ucnt[k + KEY_OFF] / u
            v = 0.0
            for a in range(m):
                if known[a]:
                    v = val100[cards[a]]
            s -= pk * m * v
    return s


@kernel
def grid_est(grid, up, p, slot, card, prm, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys, canc):
    """Player ``p``'s estimated strokes (hundredths, float), with ``card`` face up in ``slot``
    when ``slot >= 0``.

    Columns are scored by :func:`_line_est`. When rows or matches anywhere cancel too, the
    known cards are first cancelled with the full rules (face-down cards match nothing)
    and the face-down cards are then valued at the unseen mean.
    """
    g = prm[P_G]
    rows = prm[P_ROWS]
    cols = prm[P_COLS]
    hmean = _mean_unseen(pub)
    if prm[P_ROWC] != 0 or prm[P_ANY] != 0:
        s = 0.0
        for i in range(g):
            if i == slot:
                keys[i] = key_tab[card]
            elif up[p, i]:
                keys[i] = key_tab[grid[p, i]]
            else:
                keys[i] = NO_KEY - i
        cancel_slots(keys, canc, rows, cols, prm[P_ROWC] != 0, prm[P_ANY] != 0, prm[P_PAIR] != 0)
        for i in range(g):
            if not canc[i]:
                if i == slot:
                    s += val100[card]
                elif up[p, i]:
                    s += val100[grid[p, i]]
                else:
                    s += hmean
        return s
    s = 0.0
    for c in range(cols):
        s += col_est(grid, up, p, c, slot, card, prm, key_tab, val100, ucnt, pub, hmean, scr_c, scr_k, scr_x)
    return s


@kernel(inline="always")
def col_est(grid, up, p, c, slot, card, prm, key_tab, val100, ucnt, pub, hmean, scr_c, scr_k, scr_x):
    """Estimated strokes of column ``c`` of player ``p`` (``card`` in ``slot`` if it is there)."""
    rows = prm[P_ROWS]
    cols = prm[P_COLS]
    if rows == 2:
        # The common two-row grids, written out: the general loop gives the same values.
        i0 = c
        i1 = cols + c
        k0 = i0 == slot or up[p, i0]
        k1 = i1 == slot or up[p, i1]
        c0 = card if i0 == slot else grid[p, i0]
        c1 = card if i1 == slot else grid[p, i1]
        if k0 and k1:
            if key_tab[c0] == key_tab[c1]:
                return 0.0
            return float(val100[c0] + val100[c1])
        if not k0 and not k1:
            return 2.0 * hmean
        kc = c0 if k0 else c1
        v = val100[kc]
        u = pub[U_N]
        if u <= 0:
            return v + hmean
        return v + hmean - 2.0 * v * ucnt[key_tab[kc] + KEY_OFF] / u
    for r in range(rows):
        i = r * cols + c
        if i == slot:
            scr_c[r] = card
            scr_k[r] = True
        else:
            scr_c[r] = grid[p, i]
            scr_k[r] = up[p, i]
    return _line_est(scr_c, scr_k, 0, rows, prm[P_PAIR] != 0, key_tab, val100, ucnt, pub, hmean, scr_x)


@kernel
def _local(prm):
    return prm[P_ROWC] == 0 and prm[P_ANY] == 0


@kernel
def opp_min_est(grid, up, p, prm, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys, canc):
    """The lowest estimate among ``p``'s opponents."""
    m = 1e18
    for q in range(prm[P_N]):
        if q != p:
            e = grid_est(grid, up, q, -1, 0, prm, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys, canc)
            if e < m:
                m = e
    return m


@kernel
def h_place(grid, up, p, card, from_discard, ending, prm, hp, key_tab, val100, ucnt, pub,
            scr_c, scr_k, scr_x, keys, canc, gains):
    """The heuristic's placement of ``card`` (``card < 0``: an average unseen card, for
    comparing): (kind, slot, score in hundredths: the estimated gain, plus ``hp[H_PROG]``
    for turning a face-down card).

    ``gains[i]`` receives the estimated gain of swapping into slot ``i`` (``gains`` holds
    ``grid + cols`` floats; the tail is scratch).
    """
    g = prm[P_G]
    cols = prm[P_COLS]
    nh = hidden_count(up, p, g)
    first_h = first_hidden(up, p, g)
    hmean = _mean_unseen(pub)
    if card < 0:
        # An average card matches nothing: a slot's own value becomes the mean.
        best = -1e18
        bi = -1
        for i in range(g):
            gi = val100[grid[p, i]] - hmean if up[p, i] else (0.0 if ending else float(hp[H_PROG]))
            gains[i] = gi
            if gi > best:
                best = gi
                bi = i
        return A_SWAP, bi, best
    if _local(prm):
        now = 0.0
        for c in range(cols):  # gains[g + c]: the column's estimate now
            gains[g + c] = col_est(grid, up, p, c, -1, 0, prm, key_tab, val100, ucnt, pub, hmean, scr_c, scr_k, scr_x)
            now += gains[g + c]
        for i in range(g):
            c = i % cols
            gains[i] = gains[g + c] - col_est(grid, up, p, c, i, card, prm, key_tab, val100, ucnt, pub, hmean,
                                              scr_c, scr_k, scr_x)
    else:
        now = grid_est(grid, up, p, -1, 0, prm, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys, canc)
        for i in range(g):
            gains[i] = now - grid_est(grid, up, p, i, card, prm, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x,
                                      keys, canc)
    # A swap into my last face-down card closes the hole: allowed only when not behind.
    opp = 1e18
    if nh == 1 and not ending:
        opp = opp_min_est(grid, up, p, prm, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys, canc)
    # Turning a face-down card is progress toward closing: worth hp[H_PROG] outside the
    # last lap, where every card is turned anyway.
    prog = 0.0 if ending else float(hp[H_PROG])
    best_i = -1
    best = -1e18
    any_i = -1
    any_best = -1e18
    for i in range(g):
        sc = gains[i] + (0.0 if up[p, i] else prog)
        if sc > any_best:
            any_best = sc
            any_i = i
        if nh == 1 and not ending and not up[p, i] and now - gains[i] > opp - hp[H_CLOSE]:
            continue
        if sc > best:
            best = sc
            best_i = i
    if from_discard:
        if best_i >= 0:
            return A_SWAP, best_i, best
        return A_SWAP, any_i, any_best
    can_flip = prm[P_TURN] != 0 and first_h >= 0 and (nh > 1 or ending or now <= opp - hp[H_CLOSE])
    can_pass = prm[P_NOFL] != 0 or (prm[P_PUTT] != 0 and nh == 1)
    alt = prog if can_flip else (0.0 if can_pass else -1e18)
    if best_i >= 0 and best >= alt + hp[H_SWAP]:
        return A_SWAP, best_i, best
    if ending and can_pass:
        return A_PASS, -1, 0.0
    if can_flip:
        # Prefer a column with no card showing, which keeps its pairing chances open.
        for i in range(g):
            if not up[p, i]:
                c = i % cols
                lone = True
                for r in range(prm[P_ROWS]):
                    j = r * cols + c
                    if j != i and up[p, j]:
                        lone = False
                if lone:
                    return A_FLIP, i, prog
        return A_FLIP, first_h, prog
    if can_pass:
        return A_PASS, -1, 0.0
    if best_i >= 0:
        return A_SWAP, best_i, best
    if prm[P_TURN] != 0 and first_h >= 0:
        return A_FLIP, first_h, 0.0
    return A_SWAP, any_i, any_best


@kernel
def h_knock(grid, up, p, ending, prm, hp, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys, canc):
    """Knock with at most one card face down and an estimate ``hp[H_KNOCK]`` below everyone."""
    if prm[P_KNOCK] == 0 or ending:
        return False
    if hidden_count(up, p, prm[P_G]) > 1:
        return False
    now = grid_est(grid, up, p, -1, 0, prm, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys, canc)
    opp = opp_min_est(grid, up, p, prm, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys, canc)
    return now + hp[H_KNOCK] <= opp


@kernel
def h_draw(grid, up, disc, st, p, prm, hp, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys, canc, gains):
    """The heuristic's draw: (A_KNOCK | A_STOCK | A_DISCARD_SWAP, slot for the discard)."""
    ending = st[S_ENDS] >= 0
    if h_knock(grid, up, p, ending, prm, hp, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys, canc):
        return A_KNOCK, -1
    if st[S_DL] <= 0:
        return A_STOCK, -1
    top = disc[st[S_DL] - 1]
    k, s, gain = h_place(grid, up, p, top, True, ending, prm, hp, key_tab, val100, ucnt, pub,
                         scr_c, scr_k, scr_x, keys, canc, gains)
    _k, _s, avg = h_place(grid, up, p, -1, True, ending, prm, hp, key_tab, val100, ucnt, pub,
                          scr_c, scr_k, scr_x, keys, canc, gains)
    if gain > 0 and gain >= avg + hp[H_TAKE]:
        return A_DISCARD_SWAP, s
    return A_STOCK, -1


@kernel
def see(card, key_tab, val100, ucnt, pub):
    """A card leaves the public unseen pool."""
    ucnt[key_tab[card] + KEY_OFF] -= 1
    pub[U_N] -= 1
    pub[U_SUM] -= val100[card]


@kernel
def h_turn(grid, up, stock, disc, st, prm, hp, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys, canc, gains):
    """One heuristic turn for the player to move, keeping the unseen pool current."""
    p = st[S_CUR]
    g = prm[P_G]
    ending = st[S_ENDS] >= 0
    hb = 0
    for i in range(g):
        if not up[p, i]:
            hb += 1
    kind, slot = h_draw(grid, up, disc, st, p, prm, hp, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys, canc,
                        gains)
    if kind == A_KNOCK:
        end_turn(grid, up, stock, disc, st, p, hb, True, prm)
        return
    if kind == A_DISCARD_SWAP:
        st[S_DL] -= 1
        card = disc[st[S_DL]]
        pk = A_SWAP
    else:
        card = h_stock_card(stock, st, key_tab, val100, ucnt, pub)
        pk, slot, _g = h_place(grid, up, p, card, False, ending, prm, hp, key_tab, val100, ucnt, pub,
                               scr_c, scr_k, scr_x, keys, canc, gains)
    place_and_end(grid, up, stock, disc, st, p, card, pk, slot, hb, prm, key_tab, val100, ucnt, pub)


@kernel
def h_stock_card(stock, st, key_tab, val100, ucnt, pub):
    """Draw the next stock card; an unknown one leaves the unseen pool."""
    st[S_SL] -= 1
    card = stock[st[S_SL]]
    if pub[U_KNOWN] == 0 and st[S_RECYCLES] == 0:
        see(card, key_tab, val100, ucnt, pub)
    return card


@kernel
def place_and_end(grid, up, stock, disc, st, p, card, kind, slot, hb, prm, key_tab, val100, ucnt, pub):
    """Apply a placement (a turned card leaves the unseen pool) and end the turn."""
    if kind == A_FLIP or (kind == A_SWAP and not up[p, slot]):
        # A turned card, or a face-down card swapped out onto the discard, is now seen.
        see(grid[p, slot], key_tab, val100, ucnt, pub)
    apply_place(grid, up, disc, st, p, card, kind, slot)
    end_turn(grid, up, stock, disc, st, p, hb, False, prm)


@kernel
def h_play_out(grid, up, stock, disc, st, prm, hp, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys, canc, gains,
               stop_turn=1 << 40):
    """Heuristic turns until the hole ends (or turn ``stop_turn`` is reached)."""
    while st[S_REASON] == R_RUNNING and st[S_TURN] < stop_turn:
        h_turn(grid, up, stock, disc, st, prm, hp, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys, canc, gains)


@kernel
def h_play_out_seats(grid, up, stock, disc, st, prm, hps, key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys, canc,
                     gains, stop_turn=1 << 40):
    """As :func:`h_play_out`, each seat ``p`` playing with its own parameters ``hps[p]``."""
    while st[S_REASON] == R_RUNNING and st[S_TURN] < stop_turn:
        h_turn(grid, up, stock, disc, st, prm, hps[st[S_CUR]], key_tab, val100, ucnt, pub, scr_c, scr_k, scr_x, keys,
               canc, gains)
