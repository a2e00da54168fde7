"""The compiled turn procedure against the hole state, action by action, under every rule switch.

:class:`golfsolve.grid.state.HoleState` is the rules' turn procedure in Python; the kernels of
:mod:`golfsolve.grid.layout` (``end_turn``, ``refill``, ``apply_place``, ``final_scores``), and
the policies' turns built on them (``greedy.policy_turn``, ``policy.h_turn``), are its compiled
copy. Play-outs under random rule sets are played on both side by side:

* random play-outs apply the same random legal action to both, then compare;
* greedy and heuristic play-outs let the compiled policy play its whole turn, give the state
  the same decisions (from the policy's decision kernels, and on some holes from the bot
  itself, ``GreedyBot``/``HeuristicBot`` on the state's observation, which must agree), then
  compare.

Compared after every action (every turn for the policies): grids, face-up flags, the discard
pile, the stock, whose turn, the last lap, closer, knocker, stall count, turn, recycles and
the end reason; at the end, every player's strokes. Refilling the stock shuffles with each
side's own generator, so there the contents must agree and the state takes the kernel's order.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from golfsolve.grid import greedy as G
from golfsolve.grid import layout as L
from golfsolve.grid import policy as P
from golfsolve.grid.bots import GreedyBot, HeuristicBot, _h_scratch, kernel_tables, view_arrays
from golfsolve.grid.rules import CANCEL_MODES, GRID_SHAPES, KNOCK_MODES, GridRules
from golfsolve.grid.state import (DONE, DRAW, END_REASONS, OPEN, PLACE, HoleState, RuleViolation, action_name,
                                  decode, encode, needed_cards, open_slot)
from golfsolve.grid.view import DISCARD, FLIP, KNOCK, PASS, STOCK, SWAP

SWITCHES = ["final_putt", "twos_plus", "jokers", "cancel_by_value", "discard_without_flip", "decks_by_players",
            "pairwise", "nine_rows", "throw_and_turn"]
KIND = {L.A_SWAP: SWAP, L.A_FLIP: FLIP, L.A_PASS: PASS}


@njit(cache=True)
def _seed(seed):
    np.random.seed(seed)


def random_rules(rng: np.random.Generator) -> GridRules:
    """A rule set with every switch drawn at random."""
    grid = int(rng.choice(list(GRID_SHAPES)))
    return GridRules(players=int(rng.integers(2, 7)), grid=grid, openers=int(rng.integers(0, min(grid - 1, 3) + 1)),
                     knock=str(rng.choice(KNOCK_MODES)), cancel=str(rng.choice(CANCEL_MODES)),
                     **{s: bool(rng.random() < 0.5) for s in SWITCHES})


class Twin:
    """One hole held both ways: a HoleState and the kernels' arrays, dealt from one deck."""

    def __init__(self, rules: GridRules, rng: np.random.Generator, opener_choice) -> None:
        deck = [int(c) for c in rng.permutation(rules.deck_cards())]
        if rng.random() < 0.15:  # a short deck: the stock runs out early, refills and exhaustion
            deck = deck[:needed_cards(rules) + int(rng.integers(0, 8))]
        max_turns = int(rng.integers(3, 40)) if rng.random() < 0.1 else 1000
        self.rules = rules
        self.s = HoleState(rules, deck=deck, first=int(rng.integers(rules.players)),
                           rng=np.random.default_rng(int(rng.integers(2**31))), max_turns=max_turns)
        n, g = rules.players, rules.grid
        while self.s.is_chance_node():
            self.s.apply(self.s.next_card())
        while self.s.phase == OPEN:
            slots = opener_choice(self.s)
            for k in slots:
                self.s.apply(open_slot(k, g))
            if len(slots) < rules.openers:
                self.s.apply(encode(DONE, -1, g))
        self.prm, self.kt, self.vt = kernel_tables(rules, max_turns)
        cap = len(deck) + 2
        self.grid = np.array([deck[p * g:(p + 1) * g] for p in range(n)], np.int64)
        self.up = np.array(self.s.up, np.bool_)
        self.stock = np.zeros(cap, np.int64)
        rest = deck[n * g + 1:]
        self.stock[:len(rest)] = rest[::-1]
        self.disc = np.zeros(cap, np.int64)
        self.disc[0] = deck[n * g]
        self.st = np.zeros(L.N_ST, np.int64)
        self.st[L.S_SL], self.st[L.S_DL], self.st[L.S_CUR] = len(rest), 1, self.s.first
        self.st[L.S_ENDS] = self.st[L.S_KNOCKER] = self.st[L.S_CLOSER] = -1
        if len(rest) == 0:
            L.refill(self.stock, self.disc, self.st)
        self.keys, self.vals, self.canc = np.zeros(g, np.int64), np.zeros(g, np.int64), np.zeros(g, np.bool_)
        self.recycles = 0
        self.compare()

    def sync_refill(self) -> None:
        """After a refill both stocks hold the same cards in each side's own shuffle; the
        state goes on with the kernel's order (a stacked stock is the state's to draw from)."""
        if self.st[L.S_RECYCLES] > self.recycles:
            kernel = self.stock[:self.st[L.S_SL]].tolist()[::-1]
            assert sorted(kernel) == sorted(self.s.stock)
            self.s.stock[:] = kernel
            self.recycles = int(self.st[L.S_RECYCLES])

    def compare(self) -> None:
        s, st = self.s, self.st
        self.sync_refill()
        where = f"{self.rules} turn {s.turn}"
        assert self.grid.tolist() == s.grid, where
        assert self.disc[:st[L.S_DL]].tolist() == s.discard, where
        assert self.stock[:st[L.S_SL]].tolist()[::-1] == s.stock, where
        assert (st[L.S_ENDS], st[L.S_STALL], st[L.S_TURN], st[L.S_RECYCLES]) == \
            (s.ending_left, s.stall, s.turn, s.recycles), where
        assert st[L.S_KNOCKER] == (-1 if s.knocker is None else s.knocker), where
        assert st[L.S_CLOSER] == (-1 if s.closer is None else s.closer), where
        assert st[L.S_REASON] == (0 if s.reason is None else END_REASONS.index(s.reason) + 1), where
        if s.is_terminal():
            out = np.zeros(self.rules.players, np.int64)
            L.final_scores(self.grid, st, self.prm, self.kt, self.vt, self.keys, self.vals, self.canc, out)
            assert out.tolist() == s.returns(), where
        else:
            assert self.up.tolist() == s.up and st[L.S_CUR] == s.cur, where

    # -- the kernels' primitives, one action at a time (random play-outs) ------------------
    def step(self, action: int) -> None:
        s, st, g = self.s, self.st, self.rules.grid
        p = s.cur
        if s.phase == DRAW:
            self.hb = L.hidden_count(self.up, p, g)
        kind, slot = decode(action, g)
        s.apply(action)
        if kind == KNOCK:
            L.end_turn(self.grid, self.up, self.stock, self.disc, st, p, self.hb, True, self.prm)
        elif kind == STOCK:
            s.apply(s.next_card())
            st[L.S_SL] -= 1
            self.card = self.stock[st[L.S_SL]]
            assert s.drawn == self.card
        elif kind == DISCARD:
            st[L.S_DL] -= 1
            self.card = self.disc[st[L.S_DL]]
            assert s.drawn == self.card
        else:
            code = {SWAP: L.A_SWAP, FLIP: L.A_FLIP, PASS: L.A_PASS}[kind]
            L.apply_place(self.grid, self.up, self.disc, st, p, self.card, code, slot)
            L.end_turn(self.grid, self.up, self.stock, self.disc, st, p, self.hb, False, self.prm)
        self.compare()

    # -- a policy's whole turn: the state gets the same decisions ---------------------------
    def turn(self, draw: tuple[int, int], place, bot=None) -> None:
        """``draw``: (A_KNOCK | A_STOCK | A_DISCARD_SWAP, slot); ``place(card)`` -> (kind, slot)
        for a stock card. ``bot``, if given, must make the same decisions on the state's views."""
        s, g, p = self.s, self.rules.grid, self.s.cur
        kind, slot = draw
        if bot is not None:
            assert bot.choose_draw(s.observation(p)) == {L.A_KNOCK: KNOCK, L.A_DISCARD_SWAP: DISCARD,
                                                         L.A_STOCK: STOCK}[kind]
        if kind == L.A_KNOCK:
            s.apply(encode(KNOCK, -1, g))
            return
        if kind == L.A_DISCARD_SWAP:
            s.apply(encode(DISCARD, -1, g))
            placement = (SWAP, slot)
        else:
            s.apply(encode(STOCK, -1, g))
            s.apply(s.next_card())
            pk, ps = place(s.drawn)
            placement = (KIND[pk], ps)
        if bot is not None:
            assert bot.choose_place(s.observation(p)) == placement
        s.apply(encode(placement[0], placement[1], g))


def _random_openers(rng):
    def choose(s: HoleState):
        slots = [int(k) for k in rng.permutation(s.rules.grid)[:s.rules.openers]]
        return slots[:int(rng.integers(0, len(slots) + 1))] if rng.random() < 0.2 else slots  # sometimes fewer
    return choose


def _first_openers(s: HoleState):
    return list(range(s.rules.openers))


def random_playout(rng: np.random.Generator, seen: dict) -> None:
    tw = Twin(random_rules(rng), rng, _random_openers(rng))
    g = tw.rules.grid
    while not tw.s.is_terminal():
        legal = tw.s.legal_actions()
        knock = encode(KNOCK, -1, g)
        if knock in legal and rng.random() > 0.05:  # knock rarely, or holes end at once
            legal.remove(knock)
        tw.step(int(rng.choice(legal)))
    _tally(tw, seen)


def greedy_playout(rng: np.random.Generator, seen: dict, check_bot: bool) -> None:
    tw = Twin(random_rules(rng), rng, _first_openers)
    prm, kt, vt, keys, vals, canc = tw.prm, tw.kt, tw.vt, tw.keys, tw.vals, tw.canc
    bot = GreedyBot() if check_bot else None
    while not tw.s.is_terminal():
        p, ending = tw.s.cur, tw.s.ending_left >= 0
        if G.should_knock(tw.grid, tw.up, p, ending, prm, kt, vt, keys, vals, canc):
            draw = (L.A_KNOCK, -1)
        else:
            top = tw.disc[tw.st[L.S_DL] - 1]
            _k, slot, gain = G.place_choice(tw.grid, tw.up, p, top, True, ending, prm, kt, vt, keys, vals, canc)
            draw = (L.A_DISCARD_SWAP, slot) if gain >= prm[L.P_TAKE] else (L.A_STOCK, -1)

        def place(card):
            pk, ps, _g = G.place_choice(tw.grid, tw.up, p, card, False, ending, prm, kt, vt, keys, vals, canc)
            return pk, ps

        tw.turn(draw, place, bot)
        G.policy_turn(tw.grid, tw.up, tw.stock, tw.disc, tw.st, prm, kt, vt, keys, vals, canc)
        tw.compare()
    _tally(tw, seen)


def heuristic_playout(rng: np.random.Generator, seen: dict, check_bot: bool) -> None:
    tw = Twin(random_rules(rng), rng, _first_openers)
    prm, kt, vt, hp = tw.prm, tw.kt, tw.vt, P.DEFAULT_HP
    scr = _h_scratch(tw.rules.grid)
    *_, ucnt, pub = view_arrays(tw.s.observation(tw.s.cur), (prm, kt, vt))
    bot = HeuristicBot()
    while not tw.s.is_terminal():
        p, ending = tw.s.cur, tw.s.ending_left >= 0
        draw = P.h_draw(tw.grid, tw.up, tw.disc, tw.st, p, prm, hp, kt, vt, ucnt, pub, *scr)

        def place(card):
            u, b = ucnt.copy(), pub.copy()  # h_turn's pool once the card is drawn
            if b[P.U_KNOWN] == 0 and tw.st[L.S_RECYCLES] == 0:
                P.see(card, kt, vt, u, b)
            pk, ps, _g = P.h_place(tw.grid, tw.up, p, card, False, ending, prm, hp, kt, vt, u, b, *scr)
            return pk, ps

        # The bot takes the unseen pool from its view, the play-out keeps it up to date
        # itself: the two agree until a refill makes the stock's contents public.
        tw.turn(draw, place, bot if check_bot and tw.s.recycles == 0 else None)
        P.h_turn(tw.grid, tw.up, tw.stock, tw.disc, tw.st, prm, hp, kt, vt, ucnt, pub, *scr)
        tw.compare()
    _tally(tw, seen)


def _tally(tw: Twin, seen: dict) -> None:
    seen["reasons"].add(tw.s.reason)
    seen["recycles"] += tw.s.recycles
    seen["holes"] += 1
    for f in SWITCHES:
        seen["switches"].add((f, getattr(tw.rules, f)))
    seen["switches"] |= {("players", tw.rules.players), ("grid", tw.rules.grid), ("knock", tw.rules.knock),
                         ("cancel", tw.rules.cancel), ("openers", tw.rules.openers)}


def _run(randoms: int, greedies: int, heuristics: int, seed: int) -> dict:
    _seed(seed)
    rng = np.random.default_rng(seed)
    seen: dict = {"reasons": set(), "recycles": 0, "holes": 0, "switches": set()}
    for k in range(randoms):
        random_playout(rng, seen)
    for k in range(greedies):
        greedy_playout(rng, seen, check_bot=k % 10 == 0)
    for k in range(heuristics):
        heuristic_playout(rng, seen, check_bot=k % 10 == 0)
    return seen


def _check_coverage(seen: dict) -> None:
    assert seen["reasons"] == set(END_REASONS)
    assert seen["recycles"] > 0
    every = {(f, v) for f in SWITCHES for v in (False, True)} | {("players", n) for n in range(2, 7)} | \
        {("grid", g) for g in GRID_SHAPES} | {("knock", k) for k in KNOCK_MODES} | \
        {("cancel", c) for c in CANCEL_MODES} | {("openers", k) for k in range(4)}
    assert every <= seen["switches"]


def test_kernels_follow_the_state_action_by_action():
    """1,500 play-outs: 900 random, 150 greedy, 450 heuristic, random rule sets (every
    switch and end is seen; the benchmark below plays 100,000)."""
    seen = _run(900, 150, 450, seed=2026)
    assert seen["holes"] == 1_500
    _check_coverage(seen)


@pytest.mark.benchmark
def test_kernels_follow_the_state_on_many_more_playouts():
    seen = _run(60_000, 10_000, 30_000, seed=7)
    _check_coverage(seen)


def test_action_codes_round_trip_and_name_themselves():
    for g in GRID_SHAPES:
        names = set()
        for a in range(3 * g + 5):
            kind, slot = decode(a, g)
            assert encode(kind, slot, g) == a
            names.add(action_name(a, g))
        assert len(names) == 3 * g + 5
    assert [action_name(a, 4) for a in (0, 5, 8, 9, 10, 11, 13, 16)] == \
        ["swap 0", "flip 1", "pass", "stock", "discard", "knock", "open 1", "done"]


def test_state_refuses_what_the_rules_do_not_allow():
    rules = GridRules(players=2, grid=4, openers=1)
    s = HoleState(rules, rng=np.random.default_rng(0))
    with pytest.raises(RuleViolation):
        s.apply(60)  # no such card to deal
    while s.is_chance_node():
        s.apply(s.next_card())
    assert s.phase == OPEN and s.legal_actions() == [open_slot(k, 4) for k in range(4)] + [encode(DONE, -1, 4)]
    with pytest.raises(RuleViolation):
        s.apply(encode(STOCK, -1, 4))
    s.apply(open_slot(2, 4))
    s.apply(encode(DONE, -1, 4))
    assert s.phase == DRAW and s.current_player() == 0
    s.apply(encode(DISCARD, -1, 4))
    assert s.phase == PLACE and s.observation(0).drawn is not None and s.observation(1).drawn is None
    with pytest.raises(RuleViolation):
        s.apply(encode(FLIP, 0, 4))  # a card from the discard must be swapped in
