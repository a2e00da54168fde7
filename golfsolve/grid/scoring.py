"""Scoring a grid: card values, cancelling, knock penalties, the score card.

Plain Python, the reference the compiled kernels (:mod:`.layout`, :mod:`.greedy`, :mod:`.policy`) must agree with.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

from ..cards import N_CARDS_MAX, N_STANDARD
from ..errors import InputError, shown
from ..inputs import is_whole_number
from .rules import GridRules, grid_rules_arg


def _line_cancels(keys: Sequence[int], slots: Sequence[int], pairwise: bool, out: list[bool]) -> None:
    """Mark the cancelling slots of one line (a column or a row): all of them if every key
    is equal; with ``pairwise`` (the Danish text) every card whose key occurs twice or more."""
    if pairwise:
        for i in slots:
            if any(j != i and keys[j] == keys[i] for j in slots):
                out[i] = True
    elif all(keys[i] == keys[slots[0]] for i in slots):
        for i in slots:
            out[i] = True


def cancel_mask(keys: Sequence[int], rows: int, cols: int, row_cancel: bool, anywhere: bool,
                pairwise: bool = False) -> list[bool]:
    """Which slots cancel, given each slot's match key (row-major grid).

    A column (and, with ``row_cancel``, a row) whose keys are all equal cancels; with
    ``pairwise`` every card whose key occurs twice or more in its column (row) cancels;
    with ``anywhere`` every card whose key occurs at least twice in the grid cancels. A
    slot that cancels several ways still just scores 0, so a card cancels once. Callers
    give face-down slots keys that match nothing.
    """
    g = rows * cols
    out = [False] * g
    for c in range(cols):
        _line_cancels(keys, [r * cols + c for r in range(rows)], pairwise, out)
    if row_cancel:
        for r in range(rows):
            _line_cancels(keys, [r * cols + c for c in range(cols)], pairwise, out)
    if anywhere:
        _line_cancels(keys, list(range(g)), True, out)
    return out


def grid_cancelled(cards: Sequence[Optional[int]], rules: GridRules) -> list[bool]:
    """Which cards of a grid cancel; a face-down slot (``None``) matches no other slot."""
    keys = [rules.cancel_key(c) if c is not None else -1000 - i for i, c in enumerate(cards)]
    return cancel_mask(keys, rules.rows, rules.cols, rules.row_cancel, rules.cancel == "anywhere", rules.pairwise)


def shown_grid(cards: Sequence[Optional[int]], rules: GridRules) -> list[Optional[int]]:
    """``cards`` as a grid a table shows under ``rules``: one slot a card id or ``None`` (face
    down); a :class:`TypeError` or :class:`InputError` naming what is not, where a grid of five
    cards on four slots would be scored on its first four and card 99 as a card."""
    grid_rules_arg(rules)
    if isinstance(cards, (str, bytes)) or not hasattr(cards, "__len__"):
        raise TypeError(f"cards must be a list of card ids (None face down), one a slot, not {type(cards).__name__} "
                        f"{repr(cards)[:40]}")
    if len(cards) != rules.grid:
        raise InputError(f"a grid of {rules.grid} slots under these rules, not {len(cards)}")
    out: list[Optional[int]] = []
    for i, c in enumerate(cards, 1):
        if c is not None and not (is_whole_number(c) and 0 <= c < N_CARDS_MAX):
            raise InputError(f"slot {i} of the grid: {c!r} is not a card id (0 to {N_CARDS_MAX - 1}) or None")
        if c is not None and c >= N_STANDARD and not rules.jokers:
            raise InputError(f"slot {i} of the grid holds a joker, but rules {rules.spec()!r} deal none")
        out.append(None if c is None else int(c))
    return out


def face_up_points(cards: Sequence[Optional[int]], rules: GridRules) -> int:
    """What a grid shows: the points of its face-up cards that do not cancel (``None`` is face down)."""
    cards = shown_grid(cards, rules)
    mask = grid_cancelled(cards, rules)
    return sum(rules.card_value(c) for c, m in zip(cards, mask) if c is not None and not m)


def _turned_grid(cards: Sequence[int], rules: GridRules) -> list[int]:
    """``cards`` as card ids of a whole turned grid under ``rules``; a :class:`TypeError`
    or :class:`InputError` naming the slot for anything else (a card id out of range, a
    face-down slot, a joker under rules that deal none)."""
    if isinstance(cards, (str, bytes)) or not hasattr(cards, "__len__"):
        raise TypeError(f"cards must be a list of card ids, one a slot, not {type(cards).__name__} {shown(cards)}")
    grid_rules_arg(rules)
    if len(cards) != rules.grid:  # was a bare ValueError
        raise InputError(f"a grid under these rules holds {rules.grid} cards, not {len(cards)}")
    out = []
    for i, c in enumerate(cards, 1):
        if c is None:
            raise InputError(f"slot {i} of the grid is face down (None); grid_score scores a grid with every "
                             "card turned (face_up_points scores what a grid shows)")
        if not is_whole_number(c) or not 0 <= c < N_CARDS_MAX:
            raise InputError(f"slot {i} of the grid: {c!r} is not a card id (0 to {N_CARDS_MAX - 1})")
        if c >= N_STANDARD and not rules.jokers:
            raise InputError(f"slot {i} of the grid holds a joker, but rules {rules.spec()!r} deal none")
        out.append(int(c))
    return out


def grid_score(cards: Sequence[int], rules: GridRules) -> int:
    """Strokes for a grid with every card turned: values of the cards that do not cancel."""
    cards = _turned_grid(cards, rules)
    mask = grid_cancelled(cards, rules)
    return sum(rules.card_value(c) for c, m in zip(cards, mask) if not m)


def knock_penalty(raw: int, others: Sequence[int], rules: GridRules) -> int:
    """The knocker's strokes: unchanged with the unique lowest score, else penalised.

    ``plus10`` adds 10. ``double`` doubles a positive score; a score of 0 or less is left
    as it is, since doubling it would reward the failed knock.
    """
    grid_rules_arg(rules)
    if all(raw < o for o in others):
        return raw
    if rules.knock == "double":
        return 2 * raw if raw > 0 else raw
    return raw + 10


def hole_strokes(grids: Sequence[Sequence[int]], rules: GridRules, knocker: Optional[int] = None) -> tuple[list[int], list[int]]:
    """(raw scores, strokes after any knock penalty) for the final grids of a hole."""
    grid_rules_arg(rules)
    if len(grids) != rules.players:
        raise InputError(f"hole_strokes takes {rules.players} grids, one a player, not {len(grids)}")
    if knocker is not None and not (is_whole_number(knocker) and 0 <= knocker < rules.players):
        # a knocker past the table would be taken without a word, and no penalty applied
        raise InputError(f"knocker must be a seat from 0 to {rules.players - 1}, or None; not {knocker!r}")
    raw = [grid_score(g, rules) for g in grids]
    strokes = list(raw)
    if knocker is not None and rules.knock != "off":
        others = [s for i, s in enumerate(raw) if i != knocker]
        strokes[knocker] = knock_penalty(raw[knocker], others, rules)
    return raw, strokes


def estimate100(grid: Sequence[Optional[int]], rules: GridRules, hidden100: int) -> int:
    """A bot's estimate of a grid's strokes, in hundredths: face-down slots (``None``)
    count ``hidden100`` and cancel with nothing. Integer arithmetic so the compiled policy
    in :mod:`.greedy` makes exactly the same choices."""
    mask = grid_cancelled(grid, rules)
    total = 0
    for c, m in zip(grid, mask):
        if not m:
            total += hidden100 if c is None else 100 * rules.card_value(c)
    return total


@dataclass
class ScoreCard:
    """Strokes per hole and running totals for a match."""

    names: list[str]
    holes: list[list[int]] = field(default_factory=list)

    def add(self, strokes: Sequence[int]) -> None:
        """Record one hole's strokes, one per player in seat order."""
        self.holes.append(list(strokes))

    @property
    def totals(self) -> list[int]:
        """Each player's strokes summed over the holes played."""
        return [sum(h[i] for h in self.holes) for i in range(len(self.names))]

    def standings(self) -> list[tuple[int, str, int, int]]:
        """(player, name, last hole's strokes, running total), lowest total first."""
        tot = self.totals
        last = self.holes[-1] if self.holes else [0] * len(self.names)
        order = sorted(range(len(self.names)), key=lambda i: (tot[i], i))
        return [(i, self.names[i], last[i], tot[i]) for i in order]

    def render(self) -> str:
        """The score card shown after each hole, lowest running total first, each player
        with their place (equal totals share one: 1, 1, 3)."""
        standings = self.standings()
        # the place, not the seat: '2. heuristic (P2)' atop '1. you' read as second place leading
        rows = [(f"{1 + sum(t < tot for *_, t in standings)}. {name}", last, tot) for _, name, last, tot in standings]
        # as wide as the longest seat: 'heuristic-fit (P2)' past a fixed width pushed its
        # numbers out of their columns
        width = max([16] + [len(label) + 1 for label, _, _ in rows])
        lines = [f"Score card after hole {len(self.holes)}", f"{'player':<{width}}{'hole':>6}{'total':>7}"]
        for label, last, tot in rows:
            lines.append(f"{label:<{width}}{last:>6}{tot:>7}")
        return "\n".join(lines)
