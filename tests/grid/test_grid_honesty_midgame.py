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
from golfsolve.grid.state import HoleState

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

    def choose_draw(self, view):
        tview = self._twin().observation(self.seat)
        assert tview == view
        other = copy.deepcopy(self.bot)
        choice = self.bot.choose_draw(view)
        assert other.choose_draw(tview) == choice, (self.name, view)
        self.probes["draw"] += 1
        self.probes["recycled"] += self.hole.state.recycled
        self.probes["ending"] += view.ending
        return choice

    def choose_place(self, view):
        tview = self._twin().observation(self.seat)
        assert tview == view
        other = copy.deepcopy(self.bot)
        act = self.bot.choose_place(view)
        assert other.choose_place(tview) == act, (self.name, view)
        self.probes["place"] += 1
        return act


@pytest.mark.parametrize("spec, players, grid, stock", [("default", 3, 6, None), ("danish+knock10", 2, 4, None),
                                                        ("default+putt", 2, 9, 4)])
def test_bots_decide_alike_on_twin_tables_mid_hole(spec, players, grid, stock):
    """``stock``: deal from a short deck with this many stock cards, so the stock is refilled
    from the discard pile early and often."""
    rules = parse_rules(spec, players=players, grid=grid, holes=1)
    totals = {"draw": 0, "place": 0, "recycled": 0, "ending": 0, "differed": 0}
    seeds = np.random.SeedSequence(7).spawn(len(BOTS))
    for k, name in enumerate(BOTS):
        rng = np.random.default_rng(k)
        seats = [Auditor(make_bot(name if p == 0 else "greedy", np.random.default_rng(seeds[k].spawn(1)[0])), p, rng)
                 for p in range(players)]
        deck = None
        if stock is not None:
            deck = [int(c) for c in np.random.default_rng(k).permutation(rules.deck_cards())]
            deck = deck[:players * grid + 1 + stock]
        hole = Hole(rules, seats, np.random.default_rng(k), deck=deck, first=k % players)
        for s in seats:
            s.hole = hole
        hole.play()
        for key in totals:
            totals[key] += seats[0].probes[key]
    assert totals["draw"] > 10 and totals["place"] > 10 and totals["ending"] > 0
    assert totals["differed"] > (totals["draw"] + totals["place"]) // 2  # the twins really hid other cards
    if stock is not None:
        assert totals["recycled"] > 10
