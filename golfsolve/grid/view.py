"""What one player may see, and the actions open to them.

A bot is handed a :class:`PlayerView` and nothing else. It is built from public facts
only: face-up cards on every grid, the discard pile, the stock's size, and the card the
player has just drawn. Face-down cards, including the player's own, are ``None``; the
view holds no reference to the engine, so a bot cannot reach them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from ..cards import card_str
from ..inputs import flag
from ..text import pad
from .rules import GridRules, grid_rules_arg
from .scoring import face_up_points, grid_cancelled, shown_grid

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
      discard pile was shuffled into it (while another seat places a card it drew blind
      from that stock, the card in its hand is one of these: which one, only it knows).
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
        return legal_draws(self.rules, bool(self.discard), self.ending)

    def can_pass(self) -> bool:
        """Whether the drawn stock card may be thrown away with nothing turned."""
        return can_pass(self.rules, self.source, len(self.hidden_slots))

    def legal_placements(self) -> list[Placement]:
        """Every placement open for the drawn card."""
        return legal_placements(self.rules, self.source, self.hidden_slots)

    def render(self, names: Sequence[str], symbols: bool = True) -> str:
        """The table as this player sees it, as text: every grid drawn as a grid (face-down
        cards as ??, slots numbered from 1, cancelling cards marked '='), what each shows,
        the discard top and the stock; ``names`` are the seats', this player's starred."""
        # too few names would fail as an IndexError, text 'ab' pass as the names 'a' and 'b', symbols="no" count as true
        if not (isinstance(names, (list, tuple)) and len(names) == len(self.grids)
                and all(isinstance(n, str) for n in names)):
            raise TypeError(f"names must be a list of {len(self.grids)} seat names, one a grid, not "
                            f"{type(names).__name__} {repr(names)[:40]}")
        symbols = flag(symbols, "symbols")
        rules = self.rules
        out = []
        tags = [f"{name}{' *' if p == self.me else ''}" for p, name in enumerate(names)]
        width = max(14, 1 + max(map(len, tags)))  # a long bot name keeps a space before the grid
        for p, gr in enumerate(self.grids):
            rows = grid_rows(gr, rules, symbols, numbered=True)
            for r, line in enumerate(rows):
                extra = f"   shows {face_up_points(gr, rules)}" if r == 0 else ""
                out.append(f"{tags[p] if r == 0 else '':<{width}}{line}{extra}")
        top = card_text(self.top, symbols) if self.discard else "--"
        out.append(f"discard: {top}   stock: {self.stock_size} cards" + ("   (last lap)" if self.ending else "")
                   + "   (= cancels)")
        return "\n".join(out)


def card_text(card: Optional[int], symbols: bool = True) -> str:
    """A card as a table shows it (``10♠``, or ``TS`` without symbols); ``??`` face down (None)."""
    return "??" if card is None else card_str(card, symbols)


def grid_rows(cards: Sequence[Optional[int]], rules: GridRules, symbols: bool = True,
              numbered: bool = False) -> list[str]:
    """A grid (row-major, None face down) as rows of text cells, slots numbered from 1 when
    ``numbered``; a face-up card that cancels is marked with '='."""
    cards = shown_grid(cards, rules)
    canc = grid_cancelled(cards, rules)
    rows = []
    for r in range(rules.rows):
        cells = []
        for c in range(rules.cols):
            i = r * rules.cols + c
            cell = f"{pad(card_text(cards[i], symbols), 3)}{'=' if canc[i] and cards[i] is not None else ' '}"
            cells.append(f"[{i + 1}] {cell}" if numbered else cell)
        rows.append("  ".join(cells))
    return rows


# The rules of what may be done, once: the view's methods above and the hole state
# (:mod:`.state`) both ask these.

def legal_draws(rules: GridRules, has_discard: bool, ending: bool) -> list[str]:
    """Draw choices: the stock, the discard if a card is there, knock (by option, not in the last lap)."""
    grid_rules_arg(rules)
    has_discard, ending = flag(has_discard, "has_discard"), flag(ending, "ending")
    out = [STOCK]
    if has_discard:
        out.append(DISCARD)
    if rules.knock != "off" and not ending:
        out.append(KNOCK)
    return out


def can_pass(rules: GridRules, source: Optional[str], hidden: int) -> bool:
    """Whether a card drawn from ``source`` may be thrown away with nothing turned, with
    ``hidden`` cards still face down: a stock card, with the no-flip option or the final putt."""
    if source != STOCK:
        return False
    return rules.discard_without_flip or (rules.final_putt and hidden == 1)


def legal_placements(rules: GridRules, source: Optional[str], hidden_slots: list[int]) -> list[Placement]:
    """Placements of a card drawn from ``source``: swap into any slot; a stock card may also
    be thrown away turning a face-down slot (by option) or, by :func:`can_pass`, nothing."""
    out: list[Placement] = [(SWAP, i) for i in range(rules.grid)]
    if source == STOCK:
        if rules.throw_and_turn:
            out += [(FLIP, i) for i in hidden_slots]
        if can_pass(rules, source, len(hidden_slots)):
            out.append((PASS, -1))
    return out
