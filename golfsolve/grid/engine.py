"""The referee: plays a hole and a match of grid Golf exactly by a :class:`GridRules`.

A :class:`Hole` seats players (bots or a person, :class:`GridPlayer`) at a
:class:`~.state.HoleState` and steps it: it asks the player to move for a decision, checks
it against the rules, and applies it; :func:`play_match` plays the holes of a match. The
turn procedure itself lives in :mod:`.state`, once, for the referee, ``grid play`` and the
OpenSpiel adapter alike.

Dealing: the deck, given or shuffled from ``rng``, is dealt in blocks: player 0's grid
(row-major), player 1's, ..., then one card starts the discard pile, and the rest is the
stock, drawn in order. Tests stack a deck by passing ``deck``.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any, Callable, Optional, Protocol, Sequence

import numpy as np

from ..cards import card_str
from ..errors import InputError, interrupted
from ..inputs import callback, expect, is_whole_number
from .rules import GridRules, grid_rules_arg
from .scoring import ScoreCard
from .state import (DONE, DRAW, END_CLOSED, END_EXHAUSTED, END_KNOCKED, END_REASONS, END_STALLED,  # noqa: F401
                    END_TURN_LIMIT, MAX_TURNS, OPEN, HoleResult, HoleState, RuleViolation, encode, needed_cards,
                    open_slot)
from .view import Placement, PlayerView


class BotError(RuleViolation):
    """A player's answer the referee cannot use, named with the player and its seat: an
    illegal or malformed answer, or an exception the player raised (then the ``__cause__``).
    A :class:`RuleViolation`, so what caught an illegal answer before still catches it."""


#: what an ``rng`` argument must be (a seed in its place would fail at the first shuffle)
RNG_MUST = "a numpy Generator, e.g. np.random.default_rng(7), or None"


def bot_rng(seq: np.random.SeedSequence) -> np.random.Generator:
    """The generator a tournament or ``grid play`` hands a bot: the draws of
    ``np.random.default_rng(seq)``, without ``seq`` itself.

    A generator keeps the seed sequence it was made from (``rng.bit_generator.seed_seq``):
    a bot's is a child of its match's sequence, whose entropy is the run's seed and whose
    spawn key names the match, so the referee's sequence, and with it every hole's deck
    order (every face-down card, the stock in draw order), was one line away from any bot.
    The sequence kept here is made from the generator's state (so ``rng.spawn`` still
    gives the same children on every run) and leads nowhere else.
    """
    expect(seq, np.random.SeedSequence, "seq", "a numpy SeedSequence, e.g. np.random.SeedSequence(7)")
    state = np.random.PCG64(seq).state
    digest = hashlib.blake2b(repr((state["state"]["state"], state["state"]["inc"])).encode(),
                             digest_size=16).digest()
    sealed = np.random.PCG64(np.random.SeedSequence(int.from_bytes(digest, "little")))
    sealed.state = state
    return np.random.Generator(sealed)


class GridPlayer(Protocol):
    """What the engine asks of a player (bot or person); see :mod:`.bots`."""

    name: str

    def choose_openers(self, view: PlayerView, count: int) -> Sequence[int]:
        """Which ``count`` grid positions to turn face up before the first turn."""

    def choose_draw(self, view: PlayerView) -> str:
        """Where to take a card from: the stock, the discard, or knock (:data:`STOCK`, :data:`DISCARD`, :data:`KNOCK`)."""

    def choose_place(self, view: PlayerView) -> Placement:
        """What to do with the card in hand: swap it into a slot, or throw it away and flip a slot (or pass)."""


class Hole:
    """One hole. ``players`` are seated 0..n-1; ``first`` moves first (and opens first).

    The deck is dealt at once (``state`` shows the dealt hole); :meth:`play` plays it out.
    """

    def __init__(self, rules: GridRules, players: Sequence[GridPlayer], rng: Optional[np.random.Generator] = None,
                 deck: Optional[Sequence[int]] = None, first: int = 0, totals: Optional[Sequence[int]] = None,
                 on_event: Optional[Callable[[dict[str, Any]], None]] = None, max_turns: int = MAX_TURNS) -> None:
        grid_rules_arg(rules)
        expect(rng, (np.random.Generator, type(None)), "rng", RNG_MUST)
        if on_event is not None and not callable(on_event):  # else "'int' object is not callable" at the first event
            raise TypeError(f"on_event must be a function of one event (a dict), e.g. events.append, or None; "
                            f"not {type(on_event).__name__} {repr(on_event)[:40]}")
        if len(players) != rules.players:
            raise InputError(f"{rules.players} players in the rules but {len(players)} seated")
        for p in players:  # a bot's name where the bot goes would fail at its first decision
            if not all(callable(getattr(p, m, None)) for m in ("choose_openers", "choose_draw", "choose_place")):
                raise TypeError(f"every player must be a bot (with choose_openers, choose_draw and choose_place), "
                                f"e.g. make_bot('greedy'), not {type(p).__name__} {repr(p)[:40]}")
        self.rules = rules
        self.players = list(players)
        self.rng = rng if rng is not None else np.random.default_rng()
        if deck is None:
            deck = [int(c) for c in self.rng.permutation(np.array(rules.deck_cards()))]
        self.state = HoleState(rules, deck=deck, first=first, totals=totals, rng=self.rng, max_turns=max_turns)
        self.on_event = on_event
        self.events: list[dict[str, Any]] = []
        self._dealt: list[dict[str, Any]] = []
        while self.state.is_chance_node():
            self._dealt += self.state.apply(self.state.next_card())

    @classmethod
    def from_state(cls, state: HoleState, players: Sequence[GridPlayer],
                   on_event: Optional[Callable[[dict[str, Any]], None]] = None) -> "Hole":
        """Seat ``players`` at a hole already under way (e.g. :meth:`.HoleState.from_view`)."""
        hole = cls.__new__(cls)
        hole.rules, hole.players, hole.rng, hole.state = state.rules, list(players), state.rng, state
        hole.on_event, hole.events, hole._dealt = on_event, [], []
        return hole

    def _emit(self, events: list[dict[str, Any]]) -> None:
        for ev in events:
            self.events.append(ev)
            if self.on_event is not None:
                self.on_event(ev)

    def play(self) -> HoleResult:
        """Openers, then turns until the hole ends; returns the scored result."""
        s = self.state
        self._emit(self._dealt)
        self._dealt = []
        while not s.is_terminal():
            if s.is_chance_node():
                self._emit(s.apply(s.next_card()))
            elif s.phase == OPEN:
                self._openers(s.cur)
            elif s.phase == DRAW:
                self._emit(s.apply(self._draw(s.cur)))
            else:
                self._emit(s.apply(self._place(s.cur)))
        return s.result(self.events)

    def _who(self, p: int) -> str:
        return f"{getattr(self.players[p], 'name', type(self.players[p]).__name__)} (seat {p})"

    def _ask(self, p: int, question: str, *args: Any) -> Any:
        """Player ``p``'s answer to ``question``. An exception the player raises comes out
        as a :class:`BotError` naming the player, its seat, the question and the turn, so a
        tournament's failure says whose code failed rather than ending in a bare KeyError.
        Passed on as they are: an interruption (Ctrl-C), and anything a player whose class
        sets ``own_errors`` raises (a person at the terminal leaving the match, bad input)."""
        player = self.players[p]
        try:
            return getattr(player, question)(*args)
        except Exception as e:
            if interrupted(e) or getattr(player, "own_errors", False):
                raise
            raise BotError(f"{self._who(p)} failed in {question} on turn {self.state.turn}: "
                           f"{type(e).__name__}: {e}") from e

    def _openers(self, p: int) -> None:
        s, count, g = self.state, self.rules.openers, self.rules.grid
        answer = self._ask(p, "choose_openers", s.observation(p), count)
        # a mapping would be read as its keys; text as a slot per character
        slots = None if isinstance(answer, (str, bytes, Mapping)) or not hasattr(answer, "__iter__") else answer
        if slots is not None:
            try:
                # no more than one past the count: an endless iterator (itertools.cycle) hung the referee
                slots = list(itertools.islice(slots, count + 1))
            except Exception as e:  # a generator of the bot's own that fails half-way
                if interrupted(e):
                    raise
                raise BotError(f"{self._who(p)} failed in choose_openers: {type(e).__name__}: {e}") from e
        # a slot is a whole number: 0.5 and 1.7 would be turned as slots 0 and 1, True as slot 1
        exact = self.rules.openers_exact
        if slots is None or not all(is_whole_number(k) and 0 <= k < g for k in slots) \
                or len(set(slots)) != len(slots) or len(slots) > count or (exact and len(slots) < count):
            raise BotError(f"{self._who(p)}: openers must be {'exactly' if exact else 'up to'} {count} distinct "
                           f"slots, whole numbers 0 to {g - 1}; got {answer!r}")
        slots = [int(k) for k in slots]
        events: list[dict[str, Any]] = []
        for k in slots:
            events += s.apply(open_slot(int(k), g))
        if len(slots) < count:
            events += s.apply(encode(DONE, -1, g))
        self._emit(events)

    def _draw(self, p: int) -> int:
        view = self.state.observation(p)
        choice = self._ask(p, "choose_draw", view)
        # an unhashable answer (a dict) is no draw either
        if not isinstance(choice, str) or choice not in view.legal_draws():
            raise BotError(f"{self._who(p)}: cannot {choice!r} now (legal: {view.legal_draws()})")
        return encode(str(choice), -1, self.rules.grid)

    def _place(self, p: int) -> int:
        view = self.state.observation(p)
        answer = self._ask(p, "choose_place", view)
        # (kind, slot) with a whole slot: ('swap', 1.0) or ('swap', True) is no placement, 'swap'
        # would be read a placement per character, and a dict of two keys as answer[0] failed as KeyError: 0
        ok = isinstance(answer, (tuple, list)) and len(answer) == 2 \
            and isinstance(answer[0], str) and is_whole_number(answer[1])
        action = (str(answer[0]), int(answer[1])) if ok else None
        if action not in view.legal_placements():
            raise BotError(f"{self._who(p)}: cannot place {answer!r} (drew {card_str(view.drawn)} from the "
                           f"{view.source}; a placement is (kind, slot), e.g. ('swap', 2))")
        return encode(action[0], action[1], self.rules.grid)


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
               on_event: Optional[Callable[[dict[str, Any]], None]] = None,
               on_playoff: Optional[Callable[[int, HoleResult, list[int]], None]] = None) -> MatchResult:
    """Play ``rules.holes`` holes; the first player moves one seat on each hole.

    ``decks`` stacks the deck of each hole (tests); ``on_hole`` sees the score card after
    each hole. Ties for the lowest total are shared, or settled by sudden-death extra holes
    whose strokes are kept apart from the totals; ``on_playoff`` sees each of those holes
    (its index from 0, its result and the seats still tied after it, one seat when it
    settled the match).
    """
    grid_rules_arg(rules)
    expect(rng, (np.random.Generator, type(None)), "rng", RNG_MUST)
    callback(on_hole, "on_hole", "of the hole's index, its HoleResult and the ScoreCard")
    callback(on_playoff, "on_playoff", "of the play-off hole's index, its HoleResult and the seats still tied")
    if decks is not None and (isinstance(decks, (str, bytes)) or not hasattr(decks, "__len__")):
        raise TypeError(f"decks must be a list of stacked decks, one a hole (card ids in deal order), or None; "
                        f"not {type(decks).__name__} {repr(decks)[:40]}")
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
        if on_playoff is not None:
            on_playoff(len(playoff) - 1, res, list(winners))
        h += 1
    return MatchResult(names=names, card=card, holes=results, winners=winners, playoff=playoff)
