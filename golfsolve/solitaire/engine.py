"""The Golf solitaire game engine: the referee every move list is checked against.

Plain Python, written to be read rather than to be fast. It decides legality only
through :meth:`Rules.fits` and :attr:`Rules.draw_any_time`, and it deliberately shares
no move-generation code with the solver (``kernel*.py``, ``solver.py``): a solver bug
must not be able to hide behind the same bug in its referee.

The game follows SPEC §2:

* **remove** the free card of a column onto the discard pile if it fits its top card;
* **draw** the next stock card onto the discard pile (under the strict rule only when
  no remove is possible);
* **won** when the tableau is empty, even with cards left in the stock;
* **locked** when the stock is empty and no free card fits: "No more possible moves",
  and the score loses 10 per card left on the table, never going below 0;
* **undo** takes back one of the last 100 actions, restoring the score from before
  the action (which lifts a lock penalty); the move counter never goes down.

Moves are strings: ``"d"`` draws, ``"1"`` .. ``"7"`` remove the free card of that
column, ``"u"`` undoes.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from ..cards import card_str, rank_of
from ..errors import MAX_EFFORT, InputError, clip
from ..inputs import expect, flag, is_whole_number, split_items, whole_count
from ..text import pad
from .layout import COLUMN_HEIGHT, N_COLUMNS, N_TABLEAU, Layout, layout_rules, trusted_layout
from .rules import EMPTY_TOP, Rules

#: How many actions undo can take back (the app keeps the last 100).
UNDO_LIMIT = 100
#: Points for each card removed from the table, and lost per card left when locked.
POINTS_PER_CARD = 10

# The two interactive-rule messages, word for word as the app shows them.
MSG_NO_FIT = "Must be one rank higher or lower"
MSG_BLOCKED = "This card is blocked"
MSG_LOCKED = "No more possible moves"
MSG_WON = "The game is won"
MSG_STOCK_EMPTY = "The stock is empty"
MSG_UNKNOWN_CARD = "The next stock card is unknown (partial layout): give the stock order to draw it"
MSG_STRICT_DRAW = "You may draw only when no card can be removed (strict rule)"
#: the same refusal under a rule set that is not Strict but draws only when stuck (classic+stuck)
MSG_STUCK_DRAW = "You may draw only when no card can be removed (these rules draw only when stuck)"
MSG_NOTHING_TO_UNDO = "Nothing to undo"

MOVE_CHARS = "d1234567u"


@dataclass(frozen=True)
class MoveResult:
    """The outcome of one action.

    ``ok`` is False when the action was rejected; ``message`` then says why (it is ""
    when ok). ``move`` is the action as a move string (``"d"``, ``"1"`` .. ``"7"``,
    ``"u"``, or ``"t<col>,<row>"`` for a tap that is not on a free card). ``card`` is the
    card the action moved (drawn, removed or put back), ``None`` when rejected.
    """

    ok: bool
    message: str
    move: str
    card: Optional[int] = None


@dataclass(frozen=True)
class _Action:
    """What undo needs to take an action back."""

    kind: str  # "d" or "r"
    col: int  # 0-based column of a remove, -1 for a draw
    card: Optional[int]
    score_before: int  # the score before the action (never carries a lock penalty)
    removed_before: int


class Game:
    """One game of Golf solitaire in progress.

    ``columns`` lists each column top (covered) card first, free card last; ``pile``
    is the discard pile, top card last; ``stock`` is in drawing order (``stock[0]`` is
    drawn next), ``None`` for a card whose identity is unknown.

    A game started from a mid-game layout (fewer than 35 cards on the table) counts
    the cards already gone as removed, so its score is what the app would show there:
    ``10 * removed``.
    """

    def __init__(self, layout: Layout, rules: Optional[Rules] = None, undo_limit: int = UNDO_LIMIT) -> None:
        self.rules: Rules = layout_rules(layout, rules)  # a Layout, and rules its cards fit
        self.layout = layout
        self.columns: list[list[int]] = [list(col) for col in layout.columns]
        self.pile: list[int] = [] if layout.discard is None else [layout.discard]
        self.stock: list[Optional[int]] = list(layout.stock)
        self.removed: int = max(0, N_TABLEAU - sum(len(c) for c in self.columns))
        self.score: int = POINTS_PER_CARD * self.removed
        self.moves: int = 0
        self.won: bool = False
        self.locked: bool = False
        if undo_limit is not None:  # None: no limit
            undo_limit = whole_count(undo_limit, "undo_limit", 0, MAX_EFFORT)  # deque's own errors name no option
        self._history: deque[_Action] = deque(maxlen=undo_limit)
        self._turned = 0  # the most stock cards turned at once: undone draws were seen all the same
        self._update_end()

    # -- facts -----------------------------------------------------------------
    def top(self) -> Optional[int]:
        """The discard pile's top card, ``None`` when the pile is empty."""
        return self.pile[-1] if self.pile else None

    def traditional_score(self) -> int:
        """The traditional score: the number of cards left on the table (lower is better)."""
        return sum(len(c) for c in self.columns)

    @property
    def seen_stock(self) -> int:
        """How many of the stock's next cards the player has seen: turned, then put back by
        undo (the app's undo shows the next card and takes it back)."""
        return self._turned - (len(self.layout.stock) - len(self.stock))

    @property
    def over(self) -> bool:
        """True when the game is won or locked."""
        return self.won or self.locked

    def _fits(self, card: int) -> bool:
        top = self.top()
        top_rank = EMPTY_TOP if top is None else rank_of(top)
        return self.rules.fits(top_rank, rank_of(card))

    def _removable_columns(self) -> list[int]:
        """1-based columns whose free card fits the discard."""
        return [i + 1 for i, col in enumerate(self.columns) if col and self._fits(col[-1])]

    def legal_moves(self) -> list[str]:
        """The moves the rules allow now: a subset of ``"1"`` .. ``"7"``, then ``"d"``.

        Drawing an unknown stock card is not a legal move (it is rejected).
        """
        if self.over:
            return []
        moves = [str(c) for c in self._removable_columns()]
        if self.stock and self.stock[0] is not None and (self.rules.draw_any_time or not moves):
            moves.append("d")
        return moves

    # -- actions ---------------------------------------------------------------
    def remove(self, col: int) -> MoveResult:
        """Remove the free card of column ``col`` (1..7) onto the discard pile."""
        ci = self._col_index(col)
        move = str(col)
        if self.over:
            return self._game_over(move)
        column = self.columns[ci]
        if not column:
            return MoveResult(False, f"Column {col} is empty", move)
        card = column[-1]
        if not self._fits(card):
            return MoveResult(False, MSG_NO_FIT, move)
        self._history.append(_Action("r", ci, card, self.score, self.removed))
        column.pop()
        self.pile.append(card)
        self.removed += 1
        self.score += POINTS_PER_CARD
        self.moves += 1
        self._update_end()
        return MoveResult(True, "", move, card)

    def tap(self, col: int, row: int) -> MoveResult:
        """Tap the card in column ``col`` (1..7), row ``row`` (1 = the covered top card).

        A card that is not its column's free card is rejected with "This card is
        blocked"; the free card is removed exactly as :meth:`remove` would.
        """
        ci = self._col_index(col)
        if not is_whole_number(row):
            raise InputError(f"a row is a whole number 1..{COLUMN_HEIGHT}, not {row!r}")
        if not 1 <= row <= COLUMN_HEIGHT:
            raise InputError(f"row {row} is outside 1..{COLUMN_HEIGHT}")
        if self.over:  # whatever the tap finds there, as every move after the end
            return self._game_over(f"t{col},{row}")
        column = self.columns[ci]
        if row > len(column):
            return MoveResult(False, f"There is no card in column {col}, row {row}", f"t{col},{row}")
        if row < len(column):
            return MoveResult(False, MSG_BLOCKED, f"t{col},{row}")
        return self.remove(col)

    def draw(self) -> MoveResult:
        """Turn the next stock card onto the discard pile."""
        if self.over:
            return self._game_over("d")
        if not self.stock:
            return MoveResult(False, MSG_STOCK_EMPTY, "d")
        card = self.stock[0]
        if card is None:
            return MoveResult(False, MSG_UNKNOWN_CARD, "d")
        if not self.rules.draw_any_time and self._removable_columns():
            return MoveResult(False, MSG_STRICT_DRAW if self.rules.name.split("+")[0] == "strict" else MSG_STUCK_DRAW, "d")
        self._history.append(_Action("d", -1, card, self.score, self.removed))
        self.stock.pop(0)
        self.pile.append(card)
        self._turned = max(self._turned, len(self.layout.stock) - len(self.stock))
        self.moves += 1
        self._update_end()
        return MoveResult(True, "", "d", card)

    def undo(self) -> MoveResult:
        """Take back the last action: the card goes back, the score is restored.

        The lock (and its penalty) is lifted; the move counter does not go down.
        """
        if not self._history:
            return MoveResult(False, MSG_NOTHING_TO_UNDO, "u")
        act = self._history.pop()
        card = self.pile.pop()
        if act.kind == "d":
            self.stock.insert(0, card)
        else:
            self.columns[act.col].append(card)
        self.score = act.score_before
        self.removed = act.removed_before
        self.won = False
        self.locked = False
        self._update_end()
        return MoveResult(True, "", "u", card)

    def play(self, move: str) -> MoveResult:
        """Play one move string: ``"d"``, ``"1"`` .. ``"7"`` or ``"u"``."""
        m = expect(move, str, "a move", "text: 'd', '1' to '7' or 'u'").strip().lower()
        if m == "d":
            return self.draw()
        if m == "u":
            return self.undo()
        if len(m) == 1 and "1" <= m <= str(N_COLUMNS):
            return self.remove(int(m))
        raise InputError(f"unknown move {move!r} (moves are d, 1-7 and u)")

    # -- helpers ---------------------------------------------------------------
    @staticmethod
    def _col_index(col: int) -> int:
        if not is_whole_number(col):
            raise InputError(f"a column is a whole number 1..{N_COLUMNS}, not {col!r}")
        if not 1 <= col <= N_COLUMNS:
            raise InputError(f"column {col} is outside 1..{N_COLUMNS}")
        return col - 1

    def _game_over(self, move: str) -> MoveResult:
        return MoveResult(False, MSG_WON if self.won else MSG_LOCKED, move)

    def _update_end(self) -> None:
        """Set won/locked after a change; a lock takes its score penalty here."""
        if all(not col for col in self.columns):
            self.won = True
            return
        if not self.stock and not self._removable_columns():
            self.locked = True
            left = self.traditional_score()
            self.score = max(0, self.score - POINTS_PER_CARD * left)

    @property
    def status(self) -> str:
        """``"won"``, ``"locked"`` or ``"playing"``."""
        return "won" if self.won else "locked" if self.locked else "playing"

    def status_message(self) -> str:
        """What the app would announce now: a win, "No more possible moves", or ""."""
        if self.won:
            return f"You won! Score {self.score}"
        if self.locked:
            return MSG_LOCKED
        return ""

    # -- output ----------------------------------------------------------------
    def to_layout(self) -> Layout:
        """The current position as a layout (for hints, or to save it as a file)."""
        return trusted_layout(  # built from the checked layout the game started from
            tuple(tuple(c) for c in self.columns),
            self.top(),
            tuple(self.stock),
            self.rules,
            self.layout.name,
            self.layout.deal_number,
        )

    def render(self, symbols: bool = True) -> str:
        """The table for a terminal: columns side by side with row numbers, then status."""
        symbols = flag(symbols, "symbols")  # "no" would draw the suit symbols
        w = 4
        lines = ["      " + "  ".join(f"{i + 1:^{w}}" for i in range(N_COLUMNS))]
        height = max((len(c) for c in self.columns), default=0)
        for r in range(height):
            cells = [pad(card_str(col[r], symbols), w, "^") if r < len(col) else " " * w for col in self.columns]
            lines.append((f"row {r + 1} " + "  ".join(cells)).rstrip())
        top = self.top()
        unknown = sum(1 for c in self.stock if c is None)
        stock = f"{len(self.stock)}" + (f" ({unknown} unknown)" if unknown else "")
        lines.append("")
        lines.append(
            f"discard: {'--' if top is None else card_str(top, symbols)}   stock: {stock}   "
            f"score: {self.score}   moves: {self.moves}   left: {self.traditional_score()}"
        )
        msg = self.status_message()
        if msg:
            lines.append(msg)
        return "\n".join(lines)

    def to_json(self) -> dict:
        """The state as plain data."""
        top = self.top()
        return {
            "columns": [[card_str(c) for c in col] for col in self.columns],
            "discard": None if top is None else card_str(top),
            "stock": [None if c is None else card_str(c) for c in self.stock],
            "score": self.score,
            "moves": self.moves,
            "removed": self.removed,
            "cards_left": self.traditional_score(),
            "status": self.status,
            "legal_moves": self.legal_moves(),
        }

    as_json = to_json  # the name golfsolve.fair's results use: either works


def moves_in_effect(moves: Sequence[str]) -> int:
    """How many moves of ``moves`` stand once its undos (``u``) have taken back the moves
    before them: the moves that made the position. Not the game's move counter
    (:attr:`Game.moves`), which counts every action and never goes down."""
    n = 0
    for m in moves:
        n = max(0, n - 1) if m == "u" else n + 1
    return n


def parse_moves(text: str) -> list[str]:
    """Read a move list: ``"d 5 2"``, ``"d52"``, ``"d,5,2"`` and ``"d;5;2"`` all give ``["d", "5", "2"]``.

    Moves are ``d`` (draw), ``1`` .. ``7`` (remove from that column) and ``u`` (undo),
    any case. A bad token, or an empty item between commas or semicolons (``"1,,5"``: a
    move left out?), raises :class:`InputError` naming it.
    """
    expect(text, str, "moves", "their text, e.g. 'd 5 2'")  # None would fail as an AttributeError
    out: list[str] = []
    for token in " ".join(split_items(text, "the move list", "move", ",;")).split():
        for typed in token:
            # the character as typed in the message: "bad move 'g' in 'GO1-E-AAAAAAB'" named a 'g' not there
            ch = typed.lower() if typed.isascii() else typed
            if ch not in MOVE_CHARS:
                raise InputError(
                    f"bad move {typed!r} in {clip(token)} (moves are d = draw, 1-7 = remove from that column, u = undo)"
                )
            out.append(ch)
    return out


def replay(
    layout: Layout,
    moves: Sequence[str],
    rules: Optional[Rules] = None,
    stop_on_reject: bool = False,
) -> tuple[Game, list[MoveResult]]:
    """Play ``moves`` (a list, or their text as ``golfsolve replay`` takes it: ``"d 5 2"``)
    from ``layout``; return the final game and one result per move played.

    A rejected move changes nothing and play goes on, unless ``stop_on_reject``.
    """
    stop_on_reject = flag(stop_on_reject, "stop_on_reject")  # "no" is true to Python
    if isinstance(moves, str):  # as the command reads them, not one move per character
        moves = parse_moves(moves)
    # None would fail as "'NoneType' object is not iterable"; a set was played in its hash order
    elif isinstance(moves, (set, frozenset, dict)) or not isinstance(moves, Iterable):
        raise TypeError(f"moves must be a list of moves, e.g. ['d', '5'], or their text 'd 5', not "
                        f"{type(moves).__name__} {repr(moves)[:40]}")
    game = Game(layout, rules)
    results: list[MoveResult] = []
    for m in moves:
        res = game.play(m)
        results.append(res)
        if not res.ok and stop_on_reject:
            break
    return game, results


__all__ = [
    "Game",
    "MoveResult",
    "parse_moves",
    "replay",
    "UNDO_LIMIT",
    "MSG_NO_FIT",
    "MSG_BLOCKED",
    "MSG_LOCKED",
]
