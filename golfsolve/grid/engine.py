"""The referee: plays a hole and a match of grid Golf exactly by a :class:`GridRules`.

Plain Python and deliberately simple; the compiled rollouts in :mod:`.rollout` follow the
same turn procedure (:meth:`Hole._end_turn`) and are tested against this engine.

Dealing: the deck, given or shuffled from ``rng``, is dealt in blocks: player 0's grid
(row-major), player 1's, ..., then one card starts the discard pile, and the rest is the
stock, drawn in order. Tests stack a deck by passing ``deck``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Protocol, Sequence

import numpy as np

from ..cards import N_CARDS_MAX, card_str
from ..errors import InputError
from .rules import GridRules
from .scoring import ScoreCard, hole_strokes
from .view import FLIP, KNOCK, STOCK, SWAP, Placement, PlayerView

#: A hole that has not ended after this many turns is called (a safety net for bots
#: that never close; the stall rule normally ends such holes first).
MAX_TURNS = 1000

END_CLOSED, END_KNOCKED, END_STALLED, END_EXHAUSTED, END_TURN_LIMIT = (
    "closed", "knocked", "stalled", "stock-exhausted", "turn-limit")
END_REASONS = (END_CLOSED, END_KNOCKED, END_STALLED, END_EXHAUSTED, END_TURN_LIMIT)


class GridPlayer(Protocol):
    """What the engine asks of a player (bot or person); see :mod:`.bots`."""

    name: str

    def choose_openers(self, view: PlayerView, count: int) -> Sequence[int]:
        """Which ``count`` grid positions to turn face up before the first turn."""

    def choose_draw(self, view: PlayerView) -> str:
        """Where to take a card from: the stock, the discard, or knock (:data:`STOCK`, :data:`DISCARD`, :data:`KNOCK`)."""

    def choose_place(self, view: PlayerView) -> Placement:
        """What to do with the card in hand: swap it into a slot, or throw it away and flip a slot (or pass)."""


class RuleViolation(RuntimeError):
    """A player chose something the rules do not allow (a bug in a bot)."""


@dataclass
class HoleResult:
    """How a hole ended: final grids, scores, who closed or knocked, and the event log."""

    grids: list[list[int]]
    raw: list[int]
    strokes: list[int]
    reason: str
    closer: Optional[int]
    knocker: Optional[int]
    turns: int
    recycles: int
    first: int
    events: list[dict[str, Any]] = field(default_factory=list)


def needed_cards(rules: GridRules) -> int:
    """The fewest cards that deal a hole: every grid and the first discard."""
    return rules.players * rules.grid + 1


class Hole:
    """One hole. ``players`` are seated 0..n-1; ``first`` moves first (and opens first)."""

    def __init__(self, rules: GridRules, players: Sequence[GridPlayer], rng: Optional[np.random.Generator] = None,
                 deck: Optional[Sequence[int]] = None, first: int = 0, totals: Optional[Sequence[int]] = None,
                 on_event: Optional[Callable[[dict[str, Any]], None]] = None, max_turns: int = MAX_TURNS) -> None:
        if len(players) != rules.players:
            raise InputError(f"{rules.players} players in the rules but {len(players)} seated")
        self.rules = rules
        self.players = list(players)
        self.rng = rng if rng is not None else np.random.default_rng()
        if deck is None:
            deck = [int(c) for c in self.rng.permutation(np.array(rules.deck_cards()))]
        deck = [int(c) for c in deck]
        if len(deck) < needed_cards(rules):
            raise InputError(f"a deck of {len(deck)} cards cannot deal {rules.players} grids of {rules.grid} and a discard")
        self.deck_counts = np.bincount(np.array(deck), minlength=N_CARDS_MAX).astype(np.int64)
        n, g = rules.players, rules.grid
        self.grid = [deck[p * g:(p + 1) * g] for p in range(n)]
        self.up = [[False] * g for _ in range(n)]
        self.discard = [deck[n * g]]
        self.stock = list(reversed(deck[n * g + 1:]))  # pop() draws the next card
        self.recycled = False
        self.first = first % n
        self.totals = tuple(totals) if totals is not None else (0,) * n
        self.on_event = on_event
        self.max_turns = max_turns
        self.turn = 0
        self.ending_left = -1  # turns left in the last lap, -1 before anyone closes or knocks
        self.closer: Optional[int] = None
        self.knocker: Optional[int] = None
        self.stall = 0
        self.recycles = 0
        self.reason: Optional[str] = None
        self.events: list[dict[str, Any]] = []

    # -- what a player sees --------------------------------------------------
    def view(self, p: int, drawn: Optional[int] = None, source: Optional[str] = None) -> PlayerView:
        """Player ``p``'s view, built from public facts only."""
        grids = tuple(tuple(c if u else None for c, u in zip(gr, ups)) for gr, ups in zip(self.grid, self.up))
        seen = np.zeros(N_CARDS_MAX, dtype=np.int64)
        for gr in grids:
            for c in gr:
                if c is not None:
                    seen[c] += 1
        for c in self.discard:
            seen[c] += 1
        if drawn is not None:
            seen[drawn] += 1
        known = np.zeros(N_CARDS_MAX, dtype=np.int64)
        if self.recycled:
            # After a recycle every stock card came off the discard pile, so its contents
            # (not its order) are public.
            for c in self.stock:
                known[c] += 1
        unseen = self.deck_counts - seen - known
        return PlayerView(me=p, rules=self.rules, grids=grids, discard=tuple(self.discard), stock_size=len(self.stock),
                          unseen=tuple(int(x) for x in unseen), stock_known=tuple(int(x) for x in known),
                          drawn=drawn, source=source, turn=self.turn, first=self.first, ending=self.ending_left >= 0,
                          closer=self.closer, knocker=self.knocker, stall=self.stall,
                          turns_left=self.ending_left, totals=self.totals)

    def _emit(self, **ev: Any) -> None:
        self.events.append(ev)
        if self.on_event is not None:
            self.on_event(ev)

    def hidden_count(self, p: int) -> int:
        """How many of player ``p``'s cards are still face down."""
        return sum(1 for u in self.up[p] if not u)

    # -- play ----------------------------------------------------------------
    def play(self) -> HoleResult:
        """Openers, then turns until the hole ends; returns the scored result."""
        n = self.rules.players
        self._emit(type="deal", first=self.first, discard=self.discard[-1], stock=len(self.stock))
        for k in range(n):
            p = (self.first + k) % n
            self._openers(p)
        if not self.stock:
            self._refill()
        return self.play_from(self.first)

    def play_from(self, p: int) -> HoleResult:
        """Play turns from player ``p``'s until the hole ends (also for a hole whose state
        was set up by hand, as the plain-Python Monte Carlo reference does)."""
        n = self.rules.players
        while self.reason is None:
            self._turn(p)
            p = (p + 1) % n
        return self._finish()

    def _openers(self, p: int) -> None:
        count = self.rules.openers
        if count == 0:
            return
        slots = list(self.players[p].choose_openers(self.view(p), count))
        if len(set(slots)) != len(slots) or len(slots) > count or any(not 0 <= s < self.rules.grid for s in slots):
            raise RuleViolation(f"{self.players[p].name}: openers must be up to {count} distinct slots, got {slots}")
        for s in slots:
            self.up[p][s] = True
        self._emit(type="open", player=p, slots=slots, cards=[self.grid[p][s] for s in slots])

    def _turn(self, p: int) -> None:
        bot = self.players[p]
        hidden_before = self.hidden_count(p)
        view = self.view(p)
        choice = bot.choose_draw(view)
        if choice not in view.legal_draws():
            raise RuleViolation(f"{bot.name}: cannot {choice!r} now (legal: {view.legal_draws()})")
        if choice == KNOCK:
            self._emit(type="knock", player=p)
            self._end_turn(p, hidden_before, knocked=True)
            return
        card = self.stock.pop() if choice == STOCK else self.discard.pop()
        self._emit(type="draw", player=p, source=choice, card=card)
        view = self.view(p, drawn=card, source=choice)
        action = tuple(bot.choose_place(view))
        if action not in view.legal_placements():
            raise RuleViolation(f"{bot.name}: cannot place {action} (drew {card_str(card)} from the {choice})")
        kind, slot = action
        if kind == SWAP:
            old = self.grid[p][slot]
            was_up = self.up[p][slot]
            self.grid[p][slot] = card
            self.up[p][slot] = True
            self.discard.append(old)
            self._emit(type="swap", player=p, slot=slot, card=card, out=old, was_up=was_up)
        elif kind == FLIP:
            self.discard.append(card)
            self.up[p][slot] = True
            self._emit(type="flip", player=p, slot=slot, card=self.grid[p][slot], thrown=card)
        else:
            self.discard.append(card)
            self._emit(type="pass", player=p, thrown=card)
        self._end_turn(p, hidden_before, knocked=False)

    def _end_turn(self, p: int, hidden_before: int, knocked: bool) -> None:
        """Closing, the last lap, the stall rule, stock recycling and the turn limit.

        The compiled rollouts repeat this procedure step for step.
        """
        n = self.rules.players
        hidden_after = self.hidden_count(p)
        if knocked:
            self.knocker = p
            self.ending_left = n - 1
        elif self.ending_left >= 0:
            self.ending_left -= 1
        elif hidden_after == 0:
            self.closer = p
            self.ending_left = n - 1
            self._emit(type="close", player=p)
        else:
            # Declining = ending a turn still one card short of closing. Any other turn
            # breaks the run, so the count reaches 2n only if every player declined twice.
            self.stall = self.stall + 1 if hidden_before == 1 and hidden_after == 1 else 0
            if self.stall >= 2 * n:
                self.reason = END_STALLED
        self.turn += 1
        if self.reason is None and self.ending_left == 0:
            self.reason = END_KNOCKED if self.knocker is not None else END_CLOSED
        if self.reason is None and not self.stock:
            self._refill()
        if self.reason is None and self.turn >= self.max_turns:
            self.reason = END_TURN_LIMIT

    def _refill(self) -> None:
        if len(self.discard) <= 1:
            self.reason = END_EXHAUSTED
            return
        top = self.discard[-1]
        pile = np.array(self.discard[:-1])
        self.stock = [int(c) for c in self.rng.permutation(pile)]
        self.discard = [top]
        self.recycled = True
        self.recycles += 1
        self._emit(type="recycle", cards=len(self.stock))

    def _finish(self) -> HoleResult:
        raw, strokes = hole_strokes(self.grid, self.rules, self.knocker)
        for p in range(self.rules.players):
            self.up[p] = [True] * self.rules.grid
        self._emit(type="end", reason=self.reason, raw=raw, strokes=strokes)
        return HoleResult(grids=[list(g) for g in self.grid], raw=raw, strokes=strokes, reason=self.reason or "",
                          closer=self.closer, knocker=self.knocker, turns=self.turn, recycles=self.recycles,
                          first=self.first, events=self.events)


@dataclass
class MatchResult:
    """Strokes per hole, totals, winners (several on a shared win) and any play-off holes."""

    names: list[str]
    card: ScoreCard
    holes: list[HoleResult]
    winners: list[int]
    playoff: list[list[int]] = field(default_factory=list)

    @property
    def totals(self) -> list[int]:
        """Each player's strokes so far in the match."""
        return self.card.totals


#: Sudden death gives up (and records a shared win) after this many extra holes.
MAX_PLAYOFF = 10


def play_match(rules: GridRules, players: Sequence[GridPlayer], rng: Optional[np.random.Generator] = None,
               decks: Optional[Sequence[Sequence[int]]] = None,
               on_hole: Optional[Callable[[int, HoleResult, ScoreCard], None]] = None,
               on_event: Optional[Callable[[dict[str, Any]], None]] = None) -> MatchResult:
    """Play ``rules.holes`` holes; the first player moves one seat on each hole.

    ``decks`` stacks the deck of each hole (tests); ``on_hole`` sees the score card after
    each hole. Ties for the lowest total are shared, or settled by sudden-death extra holes
    whose strokes are kept apart from the totals.
    """
    rng = rng if rng is not None else np.random.default_rng()
    names = [getattr(p, "name", f"player{i + 1}") for i, p in enumerate(players)]
    card = ScoreCard(names)
    results: list[HoleResult] = []
    n = rules.players
    for h in range(rules.holes):
        deck = decks[h] if decks is not None and h < len(decks) else None
        res = Hole(rules, players, rng, deck=deck, first=h % n, totals=card.totals, on_event=on_event).play()
        results.append(res)
        card.add(res.strokes)
        if on_hole is not None:
            on_hole(h, res, card)
    totals = card.totals
    best = min(totals)
    winners = [i for i, t in enumerate(totals) if t == best]
    playoff: list[list[int]] = []
    h = rules.holes
    while len(winners) > 1 and rules.ties == "sudden-death" and len(playoff) < MAX_PLAYOFF:
        deck = decks[h] if decks is not None and h < len(decks) else None
        res = Hole(rules, players, rng, deck=deck, first=h % n, totals=totals, on_event=on_event).play()
        playoff.append(res.strokes)
        low = min(res.strokes[i] for i in winners)
        winners = [i for i in winners if res.strokes[i] == low]
        h += 1
    return MatchResult(names=names, card=card, holes=results, winners=winners, playoff=playoff)
