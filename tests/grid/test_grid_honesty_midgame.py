"""Information honesty mid-hole: at every decision of real games, a twin table whose hidden
cards (face-down cards and the stock order; after a recycle, the stock order only, since its
contents came off the public discard pile) are shuffled shows the same view and gets the
same decision from a copy of the bot.

tests/grid/test_grid_heuristic.py checks this at the start of a hole; these probes follow
games into the middle and the end of holes: after swaps and flips, in the last lap after a
close or a knock, and after the stock was refilled from the discard pile.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from golfsolve.grid.bots import make_bot
from golfsolve.grid.engine import Hole
from golfsolve.grid.rules import parse_rules
from golfsolve.grid.state import DONE, OPEN, DRAW, HoleState, encode, open_slot
from hostile_helpers import random_step

# spiel-ismcts is checked at the start of a hole (test_grid_heuristic.py); its OpenSpiel
# objects cannot be deep-copied, which this probe needs to ask the same bot twice
BOTS = ["random", "greedy", "heuristic", "mc:6", "mc-greedy:4", "ismcts:30", "paired-rel:30", "heuristic-fit"]


class Auditor:
    """Plays ``bot``; before each decision asks a copy of it the same question on a twin table."""

    def __init__(self, bot, seat: int, rng: np.random.Generator) -> None:
        self.bot, self.seat, self.rng = bot, seat, rng
        self.name = bot.name
        self.hole: Hole | None = None
        self.probes = {"draw": 0, "place": 0, "recycled": 0, "ending": 0, "differed": 0}

    def _twin(self) -> HoleState:
        """The hole with every card this seat has not seen dealt anew: before a recycle the
        stock and every face-down card are one unseen pool; after one, the stock's contents
        are public and only the face-down cards (and the stock's order) are hidden."""
        h = self.hole.state
        twin = h.resample(self.seat, self.rng)
        self.probes["differed"] += twin.grid != h.grid or twin.stock != h.stock
        return twin

    def choose_openers(self, view, count):
        return self.bot.choose_openers(view, count)

    def _alike(self, choose: str, view):
        """The bot's answer to ``view`` (its method ``choose``), which a copy of it gives the twin's view too."""
        tview = self._twin().observation(self.seat)
        assert tview == view
        other = copy.deepcopy(self.bot)
        answer = getattr(self.bot, choose)(view)
        assert getattr(other, choose)(tview) == answer, (self.name, view)
        return answer

    def choose_draw(self, view):
        choice = self._alike("choose_draw", view)
        self.probes["draw"] += 1
        self.probes["recycled"] += self.hole.state.recycled
        self.probes["ending"] += view.ending
        return choice

    def choose_place(self, view):
        act = self._alike("choose_place", view)
        self.probes["place"] += 1
        return act


def _audited_hole(rules, name: str, k: int, rng: np.random.Generator, bot_rng, deck=None) -> dict[str, int]:
    """Seat 0's probes over one hole of ``name`` against greedy seats, every seat an
    :class:`Auditor` drawing its twins from ``rng``; ``bot_rng()`` makes each bot's generator."""
    seats = [Auditor(make_bot(name if p == 0 else "greedy", bot_rng()), p, rng) for p in range(rules.players)]
    hole = Hole(rules, seats, np.random.default_rng(k), deck=deck, first=k % rules.players)
    for s in seats:
        s.hole = hole
    hole.play()
    return seats[0].probes


@pytest.mark.parametrize("spec, players, grid, stock", [("default", 3, 6, None), ("danish", 2, 4, None),
                                                        ("default+putt", 2, 9, 4),
                                                        # the options with their own code paths: jokers, pairs,
                                                        # rows, anywhere, by value, two decks, no flip
                                                        ("default+no-flip+jokers+pairs+rows+twos-plus", 6, 6, None),
                                                        ("danish+knock-double+anywhere",
                                                         5, 8, None)])
def test_bots_decide_alike_on_twin_tables_mid_hole(spec, players, grid, stock):
    """``stock``: deal from a short deck with this many stock cards, so the stock is refilled
    from the discard pile early and often."""
    rules = parse_rules(spec, players=players, grid=grid, holes=1)
    totals = {"draw": 0, "place": 0, "recycled": 0, "ending": 0, "differed": 0}
    seeds = np.random.SeedSequence(7).spawn(len(BOTS))
    for k, name in enumerate(BOTS):
        deck = None
        if stock is not None:
            deck = [int(c) for c in np.random.default_rng(k).permutation(rules.deck_cards())]
            deck = deck[:players * grid + 1 + stock]
        probes = _audited_hole(rules, name, k, np.random.default_rng(k),
                               lambda: np.random.default_rng(seeds[k].spawn(1)[0]), deck)
        for key in totals:
            totals[key] += probes[key]
    assert totals["draw"] > 10 and totals["place"] > 10 and totals["ending"] > 0
    assert totals["differed"] > (totals["draw"] + totals["place"]) // 2  # the twins really hid other cards
    if stock is not None:
        assert totals["recycled"] > 10


# -- lockstep: two holes, two sets of bots, no copying ----------------------------------------

LOCKSTEP_BOTS = ["random", "mc:6", "ismcts:30", "paired-rel:30"]
try:
    import pyspiel  # noqa: F401

    LOCKSTEP_BOTS.append("spiel-ismcts:20")  # cannot be deep-copied, so the Auditor above cannot ask it
except ImportError:
    pass


def _lockstep(bot: str, spec: str, players: int, grid: int, seed: int, face_down: bool = False) -> int:
    """Deal two holes whose decks differ only deep in the stock (``face_down``: and in the grid
    slots no opener turns) and seat the same bots, seeded alike, at both; play them side by
    side, every seat asked in both holes (openers included), while every view is the same.
    Returns the decisions compared; fails at the first that differs."""
    rules = parse_rules(spec, players=players, grid=grid, holes=1)
    rng = np.random.default_rng(seed)
    deck = [int(c) for c in rng.permutation(rules.deck_cards())]
    deep = players * grid + 1 + 4  # past the discard and the first few stock cards
    hidden = list(range(deep, len(deck)))
    if face_down:  # every bot here turns its first slots as openers: the others stay face down a while
        hidden += [p * grid + i for p in range(players) for i in range(rules.openers, grid)]
    twin = list(deck)
    for k, c in zip(hidden, rng.permutation([deck[k] for k in hidden])):
        twin[k] = int(c)
    assert twin != deck
    holes = []
    for d in (deck, twin):
        kids = np.random.SeedSequence(seed).spawn(players)  # each hole's bots seeded alike
        bots = [make_bot(bot if p == 0 else "greedy", np.random.default_rng(k)) for p, k in enumerate(kids)]
        holes.append(Hole(rules, bots, np.random.default_rng(seed), deck=d, first=seed % players))
    a, b = holes
    compared = 0
    while not a.state.is_terminal():
        sa, sb = a.state, b.state
        if sa.is_chance_node():
            sa.apply(sa.next_card())
            sb.apply(sb.next_card())
            continue
        p = sa.cur
        va, vb = sa.observation(p), sb.observation(p)
        if va != vb:  # a card that differs was turned: from here a player may tell them apart
            break
        if sa.phase == OPEN:
            x = list(a.players[p].choose_openers(va, rules.openers))
            assert list(b.players[p].choose_openers(vb, rules.openers)) == x, (bot, spec, seed, "openers")
            acts = [open_slot(int(k), rules.grid) for k in x] + ([encode(DONE, -1, rules.grid)]
                                                                 if len(x) < rules.openers else [])
        elif sa.phase == DRAW:
            x = a.players[p].choose_draw(va)
            assert b.players[p].choose_draw(vb) == x, (bot, spec, seed, compared)
            acts = [encode(x, -1, rules.grid)]
        else:
            x = tuple(a.players[p].choose_place(va))
            assert tuple(b.players[p].choose_place(vb)) == x, (bot, spec, seed, compared)
            acts = [encode(x[0], x[1], rules.grid)]
        for act in acts:
            sa.apply(act)
            sb.apply(act)
        compared += 1
    return compared


@pytest.mark.parametrize("bot", LOCKSTEP_BOTS)
def test_bots_with_a_memory_decide_alike_in_twin_holes_played_side_by_side(bot):
    """Bots keep what they saw between decisions (a search tree, a generator): the same bots
    seeded alike, at two holes that differ only in stock cards not yet drawn, decide alike at
    every seat until a differing card is drawn, openers and later turns alike."""
    compared = [_lockstep(bot, spec, players, grid, seed)
                for spec, players, grid in (("default", 3, 6), ("danish", 2, 4)) for seed in range(2)]
    assert sum(compared) > 20, compared  # the holes went on well past the openers


# -- a seat that is not placing: the card in another player's hand -------------------------------

def _holding(source: str, deck: list[int], rules) -> HoleState:
    """The hole dealt from ``deck``, the first seat holding the card it drew from ``source``."""
    from golfsolve.grid.state import PLACE

    s = HoleState(rules, deck=deck, first=0)
    while s.phase != DRAW:
        s.apply(s.next_card() if s.is_chance_node() else s.legal_actions()[0])
    s.apply(encode(source, -1, rules.grid))
    if s.is_chance_node():
        s.apply(s.next_card())
    assert s.phase == PLACE and s.cur == 0
    return s


@pytest.mark.parametrize("source", ["stock", "discard"])
def test_resampling_for_a_seat_that_is_not_placing_keeps_only_what_it_saw(source):
    """While seat 0 holds a drawn card, seat 1 sees a stock card's back (its face is hidden
    from it) or the discard's card being taken (public). Twins that differ in the hidden
    cards, the drawn stock card included, look the same to seat 1, and resampling seat 1's
    hidden cards with one generator must deal them alike: nothing of the real hidden card
    may survive (was: the real stock card stayed in seat 0's hand, and a second copy of it
    went into the stock, so the resampled hole did not even look the same to seat 1)."""
    rules = parse_rules("default", players=3, grid=6, holes=1)
    deck = [int(c) for c in np.random.default_rng(3).permutation(rules.deck_cards())]
    first_stock = 3 * 6 + 1
    twin = list(deck)
    # another card drawn by seat 0 (a stock card seat 1 never sees), and other face-down cards
    twin[first_stock], twin[first_stock + 5] = twin[first_stock + 5], twin[first_stock]
    twin[10], twin[first_stock + 9] = twin[first_stock + 9], twin[10]  # seat 1, slot 4: face down
    a, b = _holding(source, deck, rules), _holding(source, twin, rules)
    assert a.grid != b.grid
    seat = 1
    va, vb = a.observation(seat), b.observation(seat)
    assert va == vb
    for s, v in ((a, va), (b, vb)):
        assert sum(v.unseen) == sum(s.hidden_count(q) for q in range(3)) + len(s.stock) + (source == "stock")
    ra, rb = a.resample(seat, np.random.default_rng(9)), b.resample(seat, np.random.default_rng(9))
    assert ra.observation(seat) == va and rb.observation(seat) == vb
    assert (ra.grid, ra.stock, ra.drawn, ra.discard) == (rb.grid, rb.stock, rb.drawn, rb.discard)
    for r in (ra, rb):  # every card once: the hand, the grids, the discard and the stock
        assert sorted(sum(r.grid, []) + r.stock + r.discard + [r.drawn]) == sorted(deck)
        assert r.observation(0).drawn == r.drawn and r.observation(0).source == source
    if source == "discard":
        assert ra.drawn == a.drawn  # a card taken from the discard was seen by everyone


@pytest.mark.parametrize("bot", [b for b in LOCKSTEP_BOTS if b != "random"])
def test_searchers_decide_alike_in_twin_holes_that_differ_in_face_down_cards(bot):
    """The same side by side, the twins differing in face-down cards too (not only in the
    stock): spiel-ismcts, which the copying audit above cannot ask, included. (A random bot
    may turn any slot as an opener, so it is left to the audit.)"""
    compared = [_lockstep(bot, spec, players, grid, seed, face_down=True)
                for spec, players, grid in (("default", 3, 6), ("danish", 2, 4)) for seed in range(5)]
    assert sum(compared) > 40, compared  # until a face-down card that differs is turned


@pytest.mark.parametrize("spec, players, grid", [("default", 3, 6), ("danish+knock-double+anywhere", 2, 4),
                                                 ("default+no-flip+jokers+pairs+rows+twos-plus", 5, 6)])
def test_resampling_any_seat_at_any_moment_depends_on_what_that_seat_sees_only(spec, players, grid):
    """At every point of random holes (openers, draws, a card in some seat's hand, recycled
    stocks) and for every seat, not only the one to move: resampling keeps the seat's view and
    every card, and a twin the seat cannot tell apart (itself a resample) resamples to the very
    same hole with the same generator. What a searcher deals is a function of its view alone."""
    from golfsolve.grid.state import DEAL

    def cards(s):
        return sorted(sum(s.grid, []) + s.stock + s.discard + ([s.drawn] if s.drawn is not None else []))

    def whole(s):
        return (s.grid, s.up, s.stock, s.discard, s.drawn, s.source)

    rules = parse_rules(spec, players=players, grid=grid, holes=1)
    checked = 0
    for seed in range(3):
        rng = np.random.default_rng(seed)
        s = HoleState(rules)
        while not s.is_terminal():
            if s.phase != DEAL:
                for p in range(players):
                    a = s.resample(p, np.random.default_rng(5))
                    assert a.observation(p) == s.observation(p) and cards(a) == cards(s), (spec, seed, s.phase, p)
                    twin = s.resample(p, np.random.default_rng(100 + seed))
                    assert whole(twin.resample(p, np.random.default_rng(5))) == whole(a), (spec, seed, s.phase, p)
                    checked += 1
            random_step(s, rng)
    assert checked > 50


# -- a card drawn from a recycled stock: the stock's contents are public, its order is not ------

def _recycled_draw(rules, seed: int) -> HoleState:
    """A hole played (stock draws, swapped into face-up slots so it never closes) until the
    stock has been refilled from the discard pile and a seat is about to draw from it."""
    from golfsolve.grid.state import PLACE, STOCK_DRAW

    s = HoleState(rules, rng=np.random.default_rng(seed))
    rng = np.random.default_rng(seed)
    while not (s.recycled and s.phase == STOCK_DRAW):
        if s.is_chance_node():
            outs = s.chance_outcomes()
            s.apply(outs[int(rng.integers(len(outs)))][0])
        elif s.phase == DRAW:
            s.apply(encode("stock", -1, rules.grid))
        elif s.phase == PLACE:
            s.apply(encode("swap", s.up[s.cur].index(True), rules.grid))
        else:
            s.apply(s.legal_actions()[0])
    return s


@pytest.mark.parametrize("spec, players, grid, openers, seed", [("default", 2, 4, 1, 0), ("default", 3, 6, 2, 1),
                                                                ("danish", 4, 4, 1, 2)])
def test_a_card_drawn_blind_from_a_recycled_stock_is_known_to_the_drawer_only(spec, players, grid, openers, seed):
    """After a recycle every seat knows what the stock holds, not in which order: the card a
    seat then draws from it is that seat's alone until it is placed. Twins in which the
    drawer drew different cards of that stock look the same to every other seat, and
    resampling for such a seat deals them the same hole (was: the view of every other seat
    showed the drawn card as seen and the stock's contents without it, so they could tell
    which card it was, and resampling kept it in the drawer's hand)."""
    rules = parse_rules(spec, players=players, grid=grid, holes=1, openers=openers)
    s = _recycled_draw(rules, seed)
    outs = [c for c, _ in s.chance_outcomes()]
    assert len(outs) > 2
    twins = []
    for card in (outs[0], outs[len(outs) // 2], outs[-1]):
        t = s.clone()
        t.apply(card)
        twins.append(t)
    drawer = twins[0].cur
    assert twins[0].observation(drawer) != twins[1].observation(drawer)  # the drawer sees its card
    for p in range(players):
        if p == drawer:
            continue
        views = [t.observation(p) for t in twins]
        assert views[1] == views[0] and views[2] == views[0], p
        assert views[0].drawn is None and sum(views[0].stock_known) == len(s.stock)  # the hand's card is one of them
        worlds = [t.resample(p, np.random.default_rng(5)) for t in twins]
        for w in worlds:
            assert w.observation(p) == views[0]
            assert sorted(w.stock + [w.drawn]) == sorted(s.stock)  # the hand and the stock: the recycled cards
        assert all((w.grid, w.stock, w.drawn) == (worlds[0].grid, worlds[0].stock, worlds[0].drawn) for w in worlds)
        hands = {t.resample(p, np.random.default_rng(k)).drawn for k in range(12)}
        assert len(hands) > 1  # any card of the recycled stock may be in the drawer's hand


def _audit_every_bot(rules, base: int) -> None:
    """The mid-hole audit of every bot kind with small searches, each at seat 0 against
    greedy seats, its hole dealt from seed ``base`` plus the bot's place in the list."""
    totals = {"draw": 0, "place": 0, "recycled": 0, "ending": 0, "differed": 0}
    for k, name in enumerate(["random", "greedy", "heuristic", "heuristic-fit", "mc:3", "mc-greedy:2",
                              "ismcts:12", "paired-rel:8"]):
        probes = _audited_hole(rules, name, k, np.random.default_rng(base + k), lambda: np.random.default_rng(k))
        for key in totals:
            totals[key] += probes[key]
    assert totals["draw"] > 10 and totals["place"] > 10 and totals["ending"] > 0
    assert totals["differed"] > (totals["draw"] + totals["place"]) // 2


@pytest.mark.parametrize("spec, players, grid, openers", [("default+no-nine-rows+sudden-death", 3, 9, 0),
                                                          ("default+no-turn+putt", 4, 4, 3),
                                                          ("default+rows+knock10", 2, 8, 1)])
def test_bots_decide_alike_on_twin_tables_with_other_openers_and_the_remaining_switches(spec, players, grid,
                                                                                         openers):
    """The mid-hole audit on the tables the one above leaves out: no openers, one, three;
    no nine-card rows, no turning a card after throwing one away, sudden death, rows with a
    knock; every bot kind with small searches, each at seat 0 against greedy seats."""
    _audit_every_bot(parse_rules(spec, players=players, grid=grid, holes=1, openers=openers), 50)


@pytest.mark.parametrize("spec, players, grid, openers", [("default+by-value+decks-by-players", 3, 9, 2),
                                                          ("default+openers-exact+by-value+putt", 2, 4, 1),
                                                          ("default+decks-by-players+knock10+rows", 4, 8, 3),
                                                          ("danish+rows", 3, 9, 2)])
def test_bots_decide_alike_on_twin_tables_under_the_switches_the_audits_leave_out(spec, players, grid, openers):
    """Probe (no leak found): the mid-hole audit of every bot kind, and the searchers side by
    side in twin holes that differ in face-down cards too, under the switches the probes above
    leave out: cancelling by value, two decks by the number of players, openers turned exactly,
    and the Danish rules (which have them all, with jokers, twos plus and a knock) with rows."""
    _audit_every_bot(parse_rules(spec, players=players, grid=grid, holes=1, openers=openers), 70)
    compared = [_lockstep(bot, spec, players, grid, seed, face_down=True)
                for bot in LOCKSTEP_BOTS if bot != "random" for seed in range(2)]
    assert sum(compared) > 30, compared
