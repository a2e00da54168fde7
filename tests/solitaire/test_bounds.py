"""The solver's lower bounds against the true best cards-left of a slow, obvious search."""

from __future__ import annotations

import random

import numpy as np
import pytest

from golfsolve.solitaire import bounds
from golfsolve.solitaire.rules import PRESETS, get_rules
from golfsolve.solitaire.solver import cards_left_bound

from golfsolve.cards import JOKERS
from golfsolve.solitaire.layout import layout_from_code, make_layout

from test_solver import RANDOM_RULES, brute_force_best_left, random_small_layout


@pytest.mark.parametrize("spec", RANDOM_RULES + ["dead-king+jokers1", "easy+stuck", "dead-king+empty"])
def test_bound_never_exceeds_the_true_best(spec):
    rules = get_rules(spec)
    rng = random.Random(f"bound {spec}")
    positive = tight = stronger = 0
    for _ in range(300):
        lay = random_small_layout(rng, rules)
        b = cards_left_bound(lay, rules)
        blocked = cards_left_bound(lay, rules, blocking=True)
        best = brute_force_best_left(lay, rules)
        assert b <= best and blocked <= best, lay.to_text()
        positive += b > 0
        tight += b == best > 0
        stronger += blocked > b
    # a bound that is never positive would pass trivially
    assert positive >= 50 and tight >= 20
    if rules.jokers == 0 and not rules.empty_start:  # else every rank is reachable
        assert stronger >= 20


@pytest.mark.parametrize("name", ["easy", "classic", "dead-king"])
def test_dynamic_program_is_the_best_dual(name):
    """Without wrap the program finds the minimum over every 0/1 dual; with wrap it is
    a feasible dual, never below that minimum (checked by enumerating all 2**13)."""
    fits = PRESETS[name].fits_table()
    links = bounds.rank_links(fits)
    rng = random.Random(name)
    # every 0/1 dual at once: row a of ``bits`` is dual a (bit q: rank q is a base); the
    # cost of a is sum over p of W[p] * (some base q takes p: fits[p, q]) + T[p] * (p is
    # not a base), the sum the loops over a, p and q wrote out (numpy: 0.1 s, not 6-9 s)
    bits = (np.arange(1 << 13)[:, None] >> np.arange(13)) & 1
    covered = (bits @ np.asarray(fits[:13, :13], dtype=np.int64).T) > 0
    for _ in range(15):
        T = np.array([rng.randint(0, 3) for _ in range(13)] + [0, 0, 0], dtype=np.int64)
        S = np.array([rng.randint(0, 2) for _ in range(13)] + [0, 0, 0], dtype=np.int64)
        top = rng.randint(-1, 12)
        W = T[:13] + S[:13] + np.array([p == top for p in range(13)])
        best = int((covered @ W + (1 - bits) @ T[:13]).min())
        got = bounds.removable_bound(T, S[None, :], 0, top, links)
        if PRESETS[name].wrap:
            assert got >= best
        else:
            assert got == best


def _goable_cards(cols, h, stock, top, fits):
    """The card-by-card least fixpoint by its definition, slowly: a table card can go when
    every card above it can and some base takes it: an undrawn stock card, the live top,
    or a card that can go and is not under it. Returns the set of (column, index)."""
    go: set = set()
    while True:
        grown = False
        for c in range(7):
            for i in range(h[c] - 1, -1, -1):
                if (c, i) in go:
                    continue
                if not all((c, k) in go for k in range(i + 1, h[c])):
                    break
                q = cols[c][i]
                bases = list(stock) + ([top] if top >= 0 else [])
                bases += [cols[d][k] for (d, k) in go if d != c or k > i]
                if any(fits[b, q] for b in bases):
                    go.add((c, i))
                    grown = True
        if not grown:
            return go


def _random_tall_layout(rng, rules):
    """A layout with columns of up to five cards (too many for the brute force) and a short stock."""
    deck = list(range(52)) + list(JOKERS[: rules.jokers])
    rng.shuffle(deck)
    cols, k = [], 0
    for _ in range(7):
        hc = rng.randint(2, 5)
        cols.append(deck[k:k + hc])
        k += hc
    discard = None if rules.empty_start else deck[k]
    k += 0 if rules.empty_start else 1
    return make_layout(cols, discard, deck[k:k + rng.randint(0, 4)], rules)


@pytest.mark.parametrize("spec", ["easy", "classic", "dead-king", "strict", "classic+wrap", "easy+king-nothing",
                                  "easy+king-queen", "dead-king+stuck", "easy+stuck", "classic+jokers1",
                                  "easy+jokers2", "dead-king+empty", "easy+empty"])
def test_card_blocking_between_the_plain_bound_and_the_true_best(spec):
    """The hunt's card-by-card blocking test (bounds.card_blocked_bound, a fixpoint on bit
    masks) blocks exactly the cards the fixpoint's definition blocks, is never above the
    true best, and (without the wrap, where the program's cut rank may move) never below
    the plain bound nor blocking by rank; it is stronger than both often enough to matter."""
    from golfsolve.solitaire import packing
    from golfsolve.solitaire.packops import pack_counts
    from golfsolve.solitaire.solver import _links, pack

    rules = get_rules(spec)
    links = _links(rules)
    lo, hi = bounds.link_masks(links)
    up, down = bounds.nibble_links(lo, hi)
    wup, wdown = bounds.wrap_links(lo, hi)
    fits = rules.fits_table()
    rng = random.Random(f"card blocking {spec}")
    stronger = beyond_ranks = 0
    for n in range(800):
        # small layouts (n < 400) against the brute force, then full columns as dealt
        lay = random_small_layout(rng, rules) if n < 400 else _random_tall_layout(rng, rules)
        p = pack(lay)
        h = p.heights.astype(np.int64)
        m = 7
        if n % 2 and h.any():
            m = int(rng.choice([c for c in range(7) if h[c]]))  # the hunt's remove child: column m one lower
        hh = h.copy()
        if m < 7:
            hh[m] -= 1
        T = np.zeros(packing.N_BASE, dtype=np.int64)
        for c in range(7):
            for i in range(hh[c]):
                T[p.cols[c, i]] += 1
        S = np.zeros(packing.N_BASE, dtype=np.int64)
        for r in p.stock:
            S[r] += 1
        live = any(hh[c] and fits[p.top, p.cols[c, hh[c] - 1]] for c in range(7))
        top = p.top if live else -1
        n_left = int(hh.sum())
        tp, sp = pack_counts(T), pack_counts(S)
        plain = bounds.packed_raw_bound(tp, sp, top, n_left, lo, hi)
        got = bounds.card_blocked_bound(*bounds.card_tables(p.cols, links), bounds.present_mask(hh), tp, sp, top,
                                        n_left, lo, hi, up, down, wup, wdown, plain, 99)
        wrap = bool(lo & 1) or bool((hi >> 12) & 1)
        if not wrap:
            assert got >= plain, lay.to_text()
        cols = [[int(r) for r in p.cols[c, :hh[c]]] for c in range(7)]
        go = _goable_cards(cols, hh, [int(r) for r in p.stock], top, fits)
        blocked = n_left - len(go)
        wild = T[packing.JOKER] or S[packing.JOKER] or top >= packing.JOKER  # takes anything: nothing blocked
        if blocked and not wild:
            units = sum(1 << (4 * cols[c][i]) for c in range(7) for i in range(hh[c]) if (c, i) not in go)
            rest = bounds.packed_raw_bound(tp - units, sp, top, n_left - blocked, lo, hi)
            assert got == blocked + rest, lay.to_text()
        else:
            assert got == plain, lay.to_text()
        # blocking by rank, repeated until no rank is newly dead, blocks a subset
        rounds = bounds.blocked_bound(p.cols, hh, T, S[None, :], 0, top, n_left, links,
                                      np.zeros(packing.N_BASE, dtype=np.int64))
        if not wrap:
            assert got >= rounds, lay.to_text()
        beyond_ranks += got > rounds
        # the true best of this position (column m one lower, the top live or not)
        if n < 400:
            cut = lay if m == 7 else make_layout([lay.columns[c][:hh[c]] for c in range(7)], lay.discard, lay.stock,
                                                 rules)
            assert max(0, got) <= brute_force_best_left(cut, rules), lay.to_text()
        stronger += max(0, got) > max(0, plain)
    if rules.jokers == 0 and not rules.empty_start:  # else nothing is blocked
        assert stronger >= 20
        assert beyond_ranks >= 5


CODE = "GO1-E-AAAAAAB"


def test_the_cards_left_bound_checks_its_arguments_as_solve_does():
    from golfsolve.solitaire.rules import CLASSIC
    from golfsolve.solitaire.solver import cards_left_bound

    with pytest.raises(TypeError, match=r"^rules must be a Rules or None"):  # was: an AttributeError
        cards_left_bound(layout_from_code(CODE), "classic")
    with pytest.raises(TypeError, match=r"^layout must be a Layout"):
        cards_left_bound("GO1-E-AAAAAAB")
    with pytest.raises(TypeError, match=r"^blocking must be True or False"):
        cards_left_bound(layout_from_code(CODE), CLASSIC, blocking="no")
    assert 0 <= cards_left_bound(layout_from_code(CODE), CLASSIC, blocking=np.bool_(True)) <= 35
