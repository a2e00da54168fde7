"""Outside-style grid Golf heuristics: opponents the project's bots must beat.

They are written the way simple open-source Golf bots play, from the player's view only,
and are deliberately not tuned against ``heuristic``. Importing this module registers
them with :func:`golfsolve.grid.bots.register_bot` as ``out-mean``, ``out-threshold`` and
``out-pairs`` so tournaments can seat them.
"""

from __future__ import annotations

from typing import Optional

from golfsolve.grid.bots import Bot, register_bot
from golfsolve.grid.view import DISCARD, FLIP, PASS, STOCK, SWAP, Placement, PlayerView


def _value(view: PlayerView, card: int) -> int:
    return view.rules.card_value(card)


def _unseen_mean(view: PlayerView) -> float:
    total = sum(view.unseen)
    if total == 0:
        return 0.0
    return sum(n * view.rules.card_value(c) for c, n in enumerate(view.unseen)) / total


def _column_partners(view: PlayerView, slot: int) -> list[Optional[int]]:
    r = view.rules
    c = slot % r.cols
    return [view.my_grid[row * r.cols + c] for row in range(r.rows) if row * r.cols + c != slot]


def _slot_gain(view: PlayerView, card: int, slot: int, mean: float) -> float:
    """Value of the slot now minus after placing ``card``: unknowns count the unseen mean,
    and a card equal to a face-up column partner counts 0 along with it."""
    r = view.rules
    old = view.my_grid[slot]
    partners = _column_partners(view, slot)
    key = r.cancel_key(card)
    matched = [p for p in partners if p is not None and r.cancel_key(p) == key]
    old_v = mean if old is None else _value(view, old)
    if old is not None and any(p is not None and r.cancel_key(p) == r.cancel_key(old) for p in partners):
        old_v = -sum(_value(view, p) for p in partners if p is not None and r.cancel_key(p) == r.cancel_key(old))
    new_v = _value(view, card)
    if matched:
        new_v = -sum(_value(view, p) for p in matched)
    return old_v - new_v


class MeanUnseenBot(Bot):
    """Values unknown cards at the mean of the unseen cards; takes the discard if its best
    placement beats what an average card would gain; closes whenever it can."""

    kind = "out-mean"

    def choose_openers(self, view, count):
        return list(range(count))

    def _best(self, view: PlayerView, card: int) -> tuple[int, float]:
        mean = _unseen_mean(view)
        gains = [(_slot_gain(view, card, i, mean), i) for i in range(view.rules.grid)]
        g, i = max(gains)
        return i, g

    def choose_draw(self, view):
        if view.top is None:
            return STOCK
        mean = _unseen_mean(view)
        _, g = self._best(view, view.top)
        avg = max([(_value(view, c) - mean) for c in view.my_grid if c is not None] + [0.0])
        return DISCARD if g > avg else STOCK

    def choose_place(self, view) -> Placement:
        slot, g = self._best(view, view.drawn)
        legal = view.legal_placements()
        if view.source == DISCARD or g > 0:
            return (SWAP, slot)
        flips = [a for a in legal if a[0] == FLIP]
        if flips:
            return flips[0]
        return (PASS, -1) if (PASS, -1) in legal else (SWAP, slot)


class ThresholdBot(Bot):
    """Takes a discard of value 4 or less or one that pairs a face-up card; replaces its
    highest face-up card with anything lower, puts cards of 5 or less on a face-down slot,
    and otherwise turns a card."""

    kind = "out-threshold"

    def choose_openers(self, view, count):
        return list(range(count))

    def _pair_slot(self, view: PlayerView, card: int) -> Optional[int]:
        """A slot whose column shows a card of the same key (not holding one itself)."""
        r = view.rules
        key = r.cancel_key(card)
        for i in range(r.grid):
            own = view.my_grid[i]
            if own is not None and r.cancel_key(own) == key:
                continue
            if any(p is not None and r.cancel_key(p) == key for p in _column_partners(view, i)):
                return i
        return None

    def choose_draw(self, view):
        top = view.top
        if top is None:
            return STOCK
        if _value(view, top) <= 4 or self._pair_slot(view, top) is not None:
            return DISCARD
        return STOCK

    def choose_place(self, view) -> Placement:
        card = view.drawn
        v = _value(view, card)
        pair = self._pair_slot(view, card)
        if pair is not None:
            return (SWAP, pair)
        up = [(_value(view, c), i) for i, c in enumerate(view.my_grid) if c is not None]
        if up:
            hv, hi = max(up)
            if v < hv:
                return (SWAP, hi)
        hidden = view.hidden_slots
        if hidden and v <= 5:
            return (SWAP, hidden[0])
        legal = view.legal_placements()
        flips = [a for a in legal if a[0] == FLIP]
        if flips:
            return flips[0]
        if (PASS, -1) in legal:
            return (PASS, -1)
        return (SWAP, hidden[0] if hidden else max(up)[1])


class PairHunterBot(MeanUnseenBot):
    """Like ``out-mean``, but it holds its last face-down card while any opponent shows a
    lower visible total, and takes any discard that completes a column pair."""

    kind = "out-pairs"

    def choose_draw(self, view):
        top = view.top
        if top is not None:
            r = view.rules
            for i in range(r.grid):
                if view.my_grid[i] is None or r.cancel_key(view.my_grid[i]) != r.cancel_key(top):
                    if any(p is not None and r.cancel_key(p) == r.cancel_key(top) and _value(view, top) > 0
                           for p in _column_partners(view, i)):
                        return DISCARD
        return super().choose_draw(view)

    def choose_place(self, view) -> Placement:
        slot, g = self._best(view, view.drawn)
        hidden = view.hidden_slots
        mean = _unseen_mean(view)
        if len(hidden) == 1 and not view.ending:
            mine = sum(_value(view, c) for c in view.my_grid if c is not None)
            others = min(sum(_value(view, c) if c is not None else mean for c in gr)
                         for q, gr in enumerate(view.grids) if q != view.me)
            if mine > others:
                ups = [(_slot_gain(view, view.drawn, i, mean), i) for i in range(view.rules.grid)
                       if view.my_grid[i] is not None]
                legal = view.legal_placements()
                if ups and max(ups)[0] > 0:
                    return (SWAP, max(ups)[1])
                if view.source == STOCK and (PASS, -1) in legal:
                    return (PASS, -1)
        return super().choose_place(view)


for _cls in (MeanUnseenBot, ThresholdBot, PairHunterBot):
    register_bot(_cls.kind, lambda rng, name, _c=_cls: _c(rng, name=name))
