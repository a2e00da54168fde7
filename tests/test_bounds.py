"""The solver's lower bounds against the true best cards-left of a slow, obvious search."""

from __future__ import annotations

import random

import numpy as np
import pytest

from golfsolve.solitaire import bounds
from golfsolve.solitaire.rules import PRESETS, get_rules
from golfsolve.solitaire.solver import cards_left_bound

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
    for _ in range(15):
        T = np.array([rng.randint(0, 3) for _ in range(13)] + [0, 0, 0], dtype=np.int64)
        S = np.array([rng.randint(0, 2) for _ in range(13)] + [0, 0, 0], dtype=np.int64)
        top = rng.randint(-1, 12)
        W = T[:13] + S[:13] + np.array([p == top for p in range(13)])
        best = min(
            sum(int(W[p]) * any(fits[p, q] and (a >> q) & 1 for q in range(13)) + int(T[p]) * (1 - ((a >> p) & 1))
                for p in range(13))
            for a in range(1 << 13))
        got = bounds.removable_bound(T, S[None, :], 0, top, links)
        if PRESETS[name].wrap:
            assert got >= best
        else:
            assert got == best


@pytest.mark.parametrize("spec", ["classic", "dead-king", "strict", "classic+jokers1", "dead-king+empty"])
def test_packed_blocking_between_the_plain_bound_and_the_true_best(spec):
    """The hunt's blocking test (bounds.dead_ranks, bounds.blocked_raw_bound, one round on
    packed counts) is never below the plain bound nor above the array form, which repeats
    rounds, and so never above the true best; and it is stronger often enough to matter."""
    from golfsolve.solitaire import packing
    from golfsolve.solitaire.packops import pack_counts
    from golfsolve.solitaire.solver import _links, pack

    rules = get_rules(spec)
    links = _links(rules)
    lo, hi = bounds.link_masks(links)
    up, down = bounds.nibble_links(lo, hi)
    assert not bounds.wraps(lo, hi)
    fits = rules.fits_table()
    rng = random.Random(f"packed blocking {spec}")
    stronger = 0
    for _ in range(300):
        lay = random_small_layout(rng, rules)
        p = pack(lay)
        h = p.heights.astype(np.int64)
        T = np.zeros(packing.N_BASE, dtype=np.int64)
        S = np.zeros((1, packing.N_BASE), dtype=np.int64)
        for c in range(7):
            for i in range(h[c]):
                T[p.cols[c, i]] += 1
        for r in p.stock:
            S[0, r] += 1
        live = any(h[c] and fits[p.top, p.cols[c, h[c] - 1]] for c in range(7))
        top = p.top if live else -1
        n_left = int(h.sum())
        tp, sp = pack_counts(T), pack_counts(S[0])
        plain = bounds.packed_raw_bound(tp, sp, top, n_left, lo, hi)
        dead = bounds.dead_ranks(tp, sp, top, up, down)
        got = bounds.blocked_raw_bound(p.cols, h, 7, dead, tp, sp, top, n_left, lo, hi) if dead else plain
        rounds = bounds.blocked_bound(p.cols, h, T, S, 0, top, n_left, links, np.zeros(packing.N_BASE, dtype=np.int64))
        assert plain <= got <= rounds, lay.to_text()
        assert max(0, got) <= brute_force_best_left(lay, rules), lay.to_text()
        stronger += max(0, got) > max(0, plain)
    if not rules.empty_start:  # an empty discard takes anything: no rank is dead
        assert stronger >= 20
