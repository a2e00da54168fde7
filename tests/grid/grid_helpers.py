"""Stacked decks and scripted players for hand-worked grid Golf holes."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

import numpy as np

from golfsolve.cards import parse_cards
from golfsolve.grid.rules import GridRules
from golfsolve.grid.state import DONE, OPEN, HoleState, encode, open_slot
from golfsolve.grid.view import PlayerView


def stack(rules: GridRules, grids: Sequence[str], discard: str, stock: str = "", fill: bool = True) -> list[int]:
    """A deck in deal order: each player's grid (row-major), the discard card, the stock in
    draw order, then (with ``fill``) the rest of the rules' deck(s) so the deck is complete."""
    order: list[int] = []
    for g in grids:
        order += parse_cards(g)
    order += parse_cards(discard)
    order += parse_cards(stock)
    if fill:
        left = Counter(rules.deck_cards())
        left.subtract(order)
        assert all(v >= 0 for v in left.values()), "stacked more copies than the deck holds"
        order += sorted(left.elements())
    return order


class ScriptBot:
    """Plays a fixed script: openers, then per turn a draw and (unless knocking) a placement.

    ``turns`` items: ``"knock"`` or ``(source, (kind, slot))``. Records every view it gets,
    and fails the test if asked for more turns than scripted.
    """

    def __init__(self, name: str, openers: Sequence[int] = (), turns: Sequence = ()) -> None:
        self.name = name
        self.openers = list(openers)
        self.turns = list(turns)
        self.views: list[PlayerView] = []
        self._pending = None

    def choose_openers(self, view: PlayerView, count: int):
        self.views.append(view)
        return self.openers

    def choose_draw(self, view: PlayerView) -> str:
        self.views.append(view)
        assert self.turns, f"{self.name} was given a turn the script does not expect"
        step = self.turns.pop(0)
        if step == "knock":
            return "knock"
        source, self._pending = step
        return source

    def choose_place(self, view: PlayerView):
        self.views.append(view)
        return self._pending


def opened(rules: GridRules, deck: Sequence[int], openers: Sequence[Sequence[int]], first: int = 0) -> HoleState:
    """A hole dealt from ``deck`` whose players (in opening order from ``first``) turned the
    slots ``openers[p]``: the first player's draw comes next."""
    s = HoleState(rules, deck=deck, first=first, rng=np.random.default_rng(0))
    while s.is_chance_node():
        s.apply(s.next_card())
    while s.phase == OPEN:
        p = s.cur
        for k in openers[p]:
            s.apply(open_slot(k, rules.grid))
        if len(openers[p]) < rules.openers:
            s.apply(encode(DONE, -1, rules.grid))
    return s
