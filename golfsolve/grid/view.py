"""What one player may see, and the actions open to them.

A bot is handed a :class:`PlayerView` and nothing else. It is built from public facts
only: face-up cards on every grid, the discard pile, the stock's size, and the card the
player has just drawn. Face-down cards, including the player's own, are ``None``; the
view holds no reference to the engine, so a bot cannot reach them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .rules import GridRules

# Draw choices.
STOCK, DISCARD, KNOCK = "stock", "discard", "knock"
# Placements: ("swap", slot), ("flip", slot) = throw the drawn card away and turn slot,
# ("pass", -1) = throw it away and turn nothing (final putt, or the no-flip option).
SWAP, FLIP, PASS = "swap", "flip", "pass"
Placement = tuple[str, int]


@dataclass(frozen=True)
class PlayerView:
    """One player's knowledge at a decision. Tuples only, so a bot cannot change the game.

    * ``grids[p][slot]``: the card if face up, else ``None`` (row-major).
    * ``discard``: the pile, bottom first; its last card is the top.
    * ``unseen[card]``: copies of each card id no one has seen (they are face down or in
      the stock); ``stock_known[card]``: copies known to be in the stock because the
      discard pile was shuffled into it.
    * ``drawn``/``source``: the card in hand and where it came from (placement stage).
    * ``ending``: the hole is in its last lap (someone closed or knocked).
    """

    me: int
    rules: GridRules
    grids: tuple[tuple[Optional[int], ...], ...]
    discard: tuple[int, ...]
    stock_size: int
    unseen: tuple[int, ...]
    stock_known: tuple[int, ...]
    drawn: Optional[int]
    source: Optional[str]
    turn: int
    first: int
    ending: bool
    closer: Optional[int]
    knocker: Optional[int]
    stall: int
    turns_left: int
    totals: tuple[int, ...]

    @property
    def my_grid(self) -> tuple[Optional[int], ...]:
        """The deciding player's own grid (None where a card is still face down)."""
        return self.grids[self.me]

    @property
    def hidden_slots(self) -> list[int]:
        """My face-down slots."""
        return [i for i, c in enumerate(self.my_grid) if c is None]

    @property
    def top(self) -> Optional[int]:
        """The discard pile's top card, or None when it is empty."""
        return self.discard[-1] if self.discard else None

    def legal_draws(self) -> list[str]:
        """Draw choices open now: stock, discard (if a card is there), knock (by option)."""
        out = [STOCK]
        if self.discard:
            out.append(DISCARD)
        if self.rules.knock != "off" and not self.ending:
            out.append(KNOCK)
        return out

    def can_pass(self) -> bool:
        """Whether the drawn stock card may be thrown away with nothing turned."""
        if self.source != STOCK:
            return False
        hidden = len(self.hidden_slots)
        return self.rules.discard_without_flip or (self.rules.final_putt and hidden == 1)

    def legal_placements(self) -> list[Placement]:
        """Every placement open for the drawn card."""
        out: list[Placement] = [(SWAP, i) for i in range(self.rules.grid)]
        if self.source == STOCK:
            if self.rules.throw_and_turn:
                out += [(FLIP, i) for i in self.hidden_slots]
            if self.can_pass():
                out.append((PASS, -1))
        return out
