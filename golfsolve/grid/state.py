"""One hole of grid Golf as a steppable state: the rules' turn procedure, written once.

In the style of OpenSpiel's game/state split, a :class:`HoleState` says whose move it is
(:meth:`~HoleState.current_player`, or :data:`CHANCE` while a card is dealt or drawn),
which actions are legal (:meth:`~HoleState.legal_actions`), applies one
(:meth:`~HoleState.apply`), shows each seat what it may see
(:meth:`~HoleState.observation`, a :class:`~.view.PlayerView`), and ends in a
:class:`HoleResult` (:meth:`~HoleState.result`). The referee (:mod:`.engine`), ``golfsolve
grid play`` and the OpenSpiel adapter (:mod:`.spiel`) all step this one state; the compiled
kernels (:mod:`.layout`) keep a fast copy of the same procedure, checked against it action
by action (``tests/grid/test_grid_state.py``).

A hole goes through these phases:

* **deal** (chance): each grid card, player 0's grid row-major first, then the first
  discard; a chance outcome is a card id, with the undealt cards' counts as probabilities;
* **open**: from the first player on, each player turns up to ``rules.openers`` cards, one
  :func:`open_slot` action per card (:data:`DONE` stops early, except under
  ``rules.openers_exact``, where each turns all ``rules.openers``);
* **turns**, from the first player on: **draw** (stock, discard or knock), for a stock draw
  the card drawn (chance), then **place** the card in hand; after each turn the end of turn
  (closing, the last lap, the stall rule, refilling the stock from the discard pile, the
  turn limit) decides whether the hole is **over**, which scores it.

Actions on a grid of ``g`` cards (:func:`encode`, :func:`decode`, :func:`action_name`):
``0..g-1`` swap the card in hand into slot k; ``g..2g-1`` throw it away and turn slot k;
``2g`` throw it away; ``2g+1`` draw from the stock; ``2g+2`` take the discard; ``2g+3``
knock; ``2g+4..3g+3`` turn slot k as an opener; ``3g+4`` done turning openers.

A driver holding a stacked or shuffled deck (the referee) resolves every chance node with
:meth:`~HoleState.next_card`, the next card of the deck's order, so a seeded hole replays
exactly; OpenSpiel samples :meth:`~HoleState.chance_outcomes` instead.
"""

from __future__ import annotations

import copy
import operator
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import numpy as np

from ..cards import N_CARDS_MAX, N_STANDARD, card_str
from ..errors import MAX_INT64, InputError, shown
from ..inputs import expect, is_whole_number, whole_count
from .rules import GRID_SHAPES, GridRules, grid_rules_arg
from .scoring import hole_strokes
from .view import (DISCARD, FLIP, KNOCK, PASS, STOCK, SWAP, Placement, PlayerView, legal_draws,
                   legal_placements)

#: A hole that has not ended after this many turns is called (a safety net for bots
#: that never close; the stall rule normally ends such holes first).
MAX_TURNS = 1000

END_CLOSED, END_KNOCKED, END_STALLED, END_EXHAUSTED, END_TURN_LIMIT = (
    "closed", "knocked", "stalled", "stock-exhausted", "turn-limit")
END_REASONS = (END_CLOSED, END_KNOCKED, END_STALLED, END_EXHAUSTED, END_TURN_LIMIT)

#: :meth:`HoleState.current_player` at a chance node and at the end (OpenSpiel's values).
CHANCE, TERMINAL = -1, -4
#: Phases (:attr:`HoleState.phase`).
DEAL, OPEN, DRAW, STOCK_DRAW, PLACE, OVER = "deal", "open", "draw", "stock-draw", "place", "over"
#: Action kinds beyond the view's draws and placements: turn an opener, stop turning openers.
OPENER, DONE = "open", "done"


class RuleViolation(RuntimeError):
    """An action the rules do not allow now (a bug in a bot or a driver)."""


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
    grid_rules_arg(rules)
    return rules.players * rules.grid + 1


# -- the action encoding ---------------------------------------------------------------

def _grid_size(g: int) -> int:
    # a grid size the rules deal: on a 5-card grid the codes of one size would read as another's actions
    if not is_whole_number(g) or g not in GRID_SHAPES:
        raise InputError(f"a grid holds {', '.join(map(str, list(GRID_SHAPES)[:-1]))} or {list(GRID_SHAPES)[-1]} "
                         f"cards, not {g!r}")
    return int(g)


def num_actions(g: int) -> int:
    """How many action codes a ``g``-card grid has."""
    return 3 * _grid_size(g) + 5


def encode(kind: str, slot: int, g: int) -> int:
    """The action code of (kind, slot): kinds :data:`~.view.SWAP`, :data:`~.view.FLIP`,
    :data:`~.view.PASS` (slot -1), :data:`~.view.STOCK`, :data:`~.view.DISCARD`,
    :data:`~.view.KNOCK`, :data:`OPENER` and :data:`DONE` (slot -1 where none)."""
    g = _grid_size(g)
    # an array as the kind failed as "the truth value of an array is ambiguous"; both were bare ValueErrors
    kinds = (SWAP, FLIP, *_PLAIN, OPENER, DONE)
    if not (isinstance(kind, str) and kind in kinds):  # an unknown kind would encode as "done"
        raise InputError(f"no action kind {shown(kind)} (kinds: {', '.join(kinds)})")
    if kind in (SWAP, FLIP, OPENER):
        if not (is_whole_number(slot) and 0 <= slot < g):  # swap 6 would encode as flip 0
            raise InputError(f"slot {shown(slot)} is outside 0..{g - 1} on a {g}-card grid")
        return (0 if kind == SWAP else g if kind == FLIP else 2 * g + 4) + slot
    if kind == DONE:
        return 3 * g + 4
    return 2 * g + _PLAIN[kind]


_PLAIN = {PASS: 0, STOCK: 1, DISCARD: 2, KNOCK: 3}  # the actions without a slot, after the flips


def decode(action: int, g: int) -> tuple[str, int]:
    """(kind, slot) of an action code, the inverse of :func:`encode` (slot -1 where none)."""
    if not is_whole_number(action):  # 2.5 would read as swap 2
        raise InputError(f"an action code is a whole number, not {action!r}")
    if not 0 <= action < num_actions(g):
        raise RuleViolation(f"no action {action} on a {g}-card grid")
    if action < g:
        return SWAP, int(action)
    if action < 2 * g:
        return FLIP, int(action - g)
    if action < 2 * g + 4:
        return (PASS, STOCK, DISCARD, KNOCK)[action - 2 * g], -1
    if action < 3 * g + 4:
        return OPENER, int(action - 2 * g - 4)
    return DONE, -1


def open_slot(slot: int, g: int) -> int:
    """The action that turns ``slot`` as an opener."""
    return 2 * g + 4 + slot


def action_name(action: int, g: int) -> str:
    """An action for printing: ``swap 3``, ``flip 0``, ``pass``, ``stock``, ``open 1``, ``done``."""
    kind, slot = decode(action, g)
    return kind if slot < 0 else f"{kind} {slot}"


# -- the state ---------------------------------------------------------------------------

def _deck_cards(deck: Sequence[int]) -> list[int]:
    """A stacked deck's cards as ints; :class:`InputError` for anything not a card id (an id
    past the jokers failed deep in NumPy, a float was cut to a card)."""
    cards = []
    for c in deck:
        if not is_whole_number(c) or not 0 <= c < N_CARDS_MAX:
            raise InputError(f"a stacked deck holds card ids 0 to {N_CARDS_MAX - 1}, not {c!r}")
        cards.append(int(c))
    return cards


class HoleState:
    """One hole in progress; see the module docstring for its phases and actions.

    ``deck``: the cards in deal order (grids, discard, then the stock in draw order), for a
    driver that resolves chance with :meth:`next_card`; without it the rules' deck(s) in id
    order, for drivers that sample :meth:`chance_outcomes`. ``rng`` shuffles the discard
    pile into a new stock when the stock runs out; without one the pile keeps its order
    (fine for chance-sampling drivers, which draw by counts). ``totals`` are the match's
    running totals before this hole (shown to bots).

    The attributes ``grid`` (card ids, -1 before dealt), ``up``, ``discard`` (top last) and
    ``stock`` (next card first) are the omniscient state; read them, change the state only
    with :meth:`apply`.
    """

    def __init__(self, rules: GridRules, deck: Optional[Sequence[int]] = None, first: int = 0,
                 totals: Optional[Sequence[int]] = None, rng: Optional[np.random.Generator] = None,
                 max_turns: int = MAX_TURNS) -> None:
        grid_rules_arg(rules)
        n, g = rules.players, rules.grid
        # first=1.5 would fail turns later as "list indices must be integers", totals of the
        # wrong length (or text) reach the bots, max_turns=-5 call the hole after a turn
        if not is_whole_number(first):
            raise InputError(f"first must be a whole number (the seat that moves first), not {repr(first)[:40]}")
        if totals is not None:
            if isinstance(totals, (str, bytes)) or not hasattr(totals, "__len__") or len(totals) != n \
                    or not all(is_whole_number(t) for t in totals):
                raise InputError(f"totals must be {n} whole numbers, one a player, not {repr(totals)[:40]}")
            totals = tuple(operator.index(t) for t in totals)
        max_turns = whole_count(max_turns, "max_turns", 1, MAX_INT64)
        expect(rng, (np.random.Generator, type(None)), "rng", "a numpy Generator, e.g. np.random.default_rng(7), or None")
        cards = _deck_cards(deck) if deck is not None else rules.deck_cards()
        if deck is not None and not rules.jokers and any(c >= N_STANDARD for c in cards):
            # it would be dealt and scored as -2 under rules that deal no joker
            raise InputError(f"a stacked deck holds a joker, but rules {rules.spec()!r} deal none (add +jokers)")
        if deck is not None:
            # a deck of 52 Aces of Clubs would be dealt and played out under one deck
            dealt = rules.deck_counts()
            over = np.bincount(np.array(cards, dtype=np.int64), minlength=N_CARDS_MAX) > dealt
            if over.any():
                c = int(np.argmax(over))
                most = int(dealt[c])
                raise InputError(f"a stacked deck holds {card_str(c)} {cards.count(c)} times, but rules "
                                 f"{rules.spec()!r} deal it " + ("once" if most == 1 else f"{most} times"))
        if len(cards) < needed_cards(rules):
            raise InputError(f"a deck of {len(cards)} cards cannot deal {n} grids of {g} and a discard")
        self.rules = rules
        self.deck_counts = np.bincount(np.array(cards), minlength=N_CARDS_MAX).astype(np.int64)
        self.grid = [[-1] * g for _ in range(n)]
        self.up = [[False] * g for _ in range(n)]
        self.discard: list[int] = []
        self.stock = cards
        self.rng = rng
        self.first = operator.index(first) % n
        self.totals = totals if totals is not None else (0,) * n
        self.max_turns = max_turns
        self.phase = DEAL
        self.dealt = 0
        self.cur = self.first
        self.opening: list[int] = []  # slots the current opener has turned
        self.openers_done = 0
        self.drawn: Optional[int] = None
        self.source: Optional[str] = None
        self.hidden_before = 0
        self.turn = 0
        self.ending_left = -1  # turns left in the last lap, -1 before anyone closes or knocks
        self.closer: Optional[int] = None
        self.knocker: Optional[int] = None
        self.stall = 0
        self.recycles = 0
        self.recycled = False
        self.reason: Optional[str] = None
        self.raw: Optional[list[int]] = None
        self.strokes: Optional[list[int]] = None

    # -- whose move, and which ------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` at a chance node, :data:`TERMINAL` at the end."""
        if self.phase == OVER:
            return TERMINAL
        if self.phase in (DEAL, STOCK_DRAW):
            return CHANCE
        return self.cur

    def is_chance_node(self) -> bool:
        """Whether the next action is a card dealt or drawn (a chance outcome)."""
        return self.phase in (DEAL, STOCK_DRAW)

    def is_terminal(self) -> bool:
        """Whether the hole is over."""
        return self.phase == OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(card id, probability) of the card dealt or drawn now, by the undealt cards' counts."""
        counts = np.bincount(np.array(self.stock, dtype=np.int64), minlength=N_CARDS_MAX)
        total = counts.sum()
        return [(int(c), float(k) / total) for c, k in enumerate(counts) if k]

    def next_card(self) -> int:
        """The chance outcome a stacked deck gives: the stock's next card in order."""
        if not self.is_chance_node():
            raise RuleViolation("no card is dealt or drawn now")
        return self.stock[0]

    def hidden_count(self, p: int) -> int:
        """How many of player ``p``'s cards are still face down."""
        return sum(1 for u in self.up[self._seat(p)] if not u)

    def hidden_slots(self, p: int) -> list[int]:
        """Player ``p``'s face-down slots."""
        return [i for i, u in enumerate(self.up[self._seat(p)]) if not u]

    def legal_draws(self) -> list[str]:
        """Draw choices open to the player to move (draw phase)."""
        return legal_draws(self.rules, bool(self.discard), self.ending_left >= 0)

    def legal_placements(self) -> list[Placement]:
        """Placements open for the card in hand (place phase), in the view's order."""
        return legal_placements(self.rules, self.source, self.hidden_slots(self.cur))

    def legal_actions(self) -> list[int]:
        """Legal action codes of the player to move, ascending; chance outcomes at a chance node."""
        g = self.rules.grid
        if self.phase == OPEN:
            opens = [open_slot(i, g) for i in self.hidden_slots(self.cur)]
            # the turn passes on by itself at the allowance, so DONE only ever stops early, which
            # rules.openers_exact forbids (the Danish "vender hver spiller to": each turns two)
            return opens + ([] if self.rules.openers_exact and opens else [encode(DONE, -1, g)])
        if self.phase == DRAW:
            return sorted(encode(d, -1, g) for d in self.legal_draws())
        if self.phase == PLACE:
            return sorted(encode(k, s, g) for k, s in self.legal_placements())
        if self.is_chance_node():
            return [c for c, _ in self.chance_outcomes()]
        return []

    # -- what a seat sees -------------------------------------------------------------
    def view(self, p: int, drawn: Optional[int] = None, source: Optional[str] = None) -> PlayerView:
        """Player ``p``'s view, built from public facts only, with ``drawn`` (from ``source``)
        in hand if given; :meth:`observation` is the view at the current decision."""
        p = self._seat(p)
        if drawn is not None and not (is_whole_number(drawn) and 0 <= drawn < N_CARDS_MAX and self.deck_counts[drawn]):
            raise InputError(f"drawn must be a card id these rules deal, or None; not {repr(drawn)[:40]}")
        grids = tuple(tuple(c if u else None for c, u in zip(gr, ups)) for gr, ups in zip(self.grid, self.up))
        shown = [c for gr in grids for c in gr if c is not None] + self.discard
        # After a recycle every stock card came off the discard pile, so its contents (not
        # its order) are public.
        in_stock = list(self.stock) if self.recycled else []
        if drawn is not None:
            shown.append(drawn)
        elif self.phase == PLACE and self.source == DISCARD:
            # another seat's hand: a card taken from the discard was seen by everyone
            shown.append(self.drawn)
        elif self.phase == PLACE and self.recycled:
            # another seat's card drawn blind from a recycled stock: it is one of the stock's
            # public contents, but which one is the drawer's alone until it is placed: shown as seen,
            # with the stock's contents without it, every seat would know it
            in_stock.append(self.drawn)
        # any other stock card in another seat's hand is that seat's alone: it stays unseen here
        seen = np.bincount(np.array(shown, dtype=np.int64), minlength=N_CARDS_MAX)
        known = np.bincount(np.array(in_stock, dtype=np.int64), minlength=N_CARDS_MAX)
        unseen = self.deck_counts - seen - known
        # the rules as a copy of the view's own: forced into the frozen rules (object.__setattr__),
        # a bot's change would rescore the hole for every seat
        return PlayerView(me=p, rules=copy.copy(self.rules), grids=grids, discard=tuple(self.discard), stock_size=len(self.stock),
                          unseen=tuple(unseen.tolist()), stock_known=tuple(known.tolist()),
                          drawn=drawn, source=source, turn=self.turn, first=self.first, ending=self.ending_left >= 0,
                          closer=self.closer, knocker=self.knocker, stall=self.stall,
                          turns_left=self.ending_left, totals=self.totals)

    def _seat(self, p: object) -> int:
        """``p`` as a seat of this hole, checked: a 2-seat hole has no seat 5 to show."""
        if type(p) is not int or not 0 <= p < self.rules.players:
            if not is_whole_number(p) or not 0 <= p < self.rules.players:  # type: ignore[operator]
                raise InputError(f"a seat is a whole number from 0 to {self.rules.players - 1}, not {repr(p)[:40]}")
            p = operator.index(p)  # type: ignore[arg-type]
        return p  # type: ignore[return-value]

    def observation(self, p: int) -> PlayerView:
        """What seat ``p`` sees now: the public facts, and the card in its hand if it is placing one."""
        p = self._seat(p)
        if self.phase == PLACE and p == self.cur:
            return self.view(p, self.drawn, self.source)
        return self.view(p)

    # -- stepping ----------------------------------------------------------------------
    def apply(self, action: int) -> list[dict[str, Any]]:
        """Apply an action code (a card id at a chance node); returns the events it caused
        (``deal``, ``open``, ``knock``, ``draw``, ``swap``, ``flip``, ``pass``, ``close``,
        ``recycle``, ``end``), which the referee logs and ``grid play`` narrates."""
        if type(action) is not int:
            if not is_whole_number(action):  # 1.5 would deal card 1, "3" card 3
                raise InputError(f"an action is a whole number (a card id at a chance node), not {repr(action)[:40]}")
            action = operator.index(action)
        ev: list[dict[str, Any]] = []
        if self.is_chance_node():
            self._chance(action, ev)
            return ev
        if self.phase == OVER:
            raise RuleViolation("the hole is over")
        g = self.rules.grid
        kind, slot = decode(action, g)
        if action not in self.legal_actions():
            raise RuleViolation(f"player {self.cur} cannot {action_name(action, g)} now")
        p = self.cur
        if self.phase == OPEN:
            if kind == OPENER:
                self.up[p][slot] = True
                self.opening.append(slot)
            if kind == DONE or len(self.opening) == self.rules.openers:
                ev.append({"type": "open", "player": p, "slots": self.opening,
                           "cards": [self.grid[p][s] for s in self.opening]})
                self.opening = []
                self.openers_done += 1
                self.cur = (p + 1) % self.rules.players
                if self.openers_done == self.rules.players:
                    self._start_play(ev)
            return ev
        if self.phase == DRAW:
            self.hidden_before = self.hidden_count(p)
            if kind == KNOCK:
                ev.append({"type": "knock", "player": p})
                self._end_turn(p, knocked=True, ev=ev)
            elif kind == STOCK:
                self.phase = STOCK_DRAW
            else:
                self.drawn, self.source, self.phase = self.discard.pop(), DISCARD, PLACE
                ev.append({"type": "draw", "player": p, "source": DISCARD, "card": self.drawn})
            return ev
        card = self.drawn
        assert card is not None
        if kind == SWAP:
            old = self.grid[p][slot]
            was_up = self.up[p][slot]
            self.grid[p][slot] = card
            self.up[p][slot] = True
            self.discard.append(old)
            ev.append({"type": "swap", "player": p, "slot": slot, "card": card, "out": old, "was_up": was_up})
        elif kind == FLIP:
            self.discard.append(card)
            self.up[p][slot] = True
            ev.append({"type": "flip", "player": p, "slot": slot, "card": self.grid[p][slot], "thrown": card})
        else:
            self.discard.append(card)
            ev.append({"type": "pass", "player": p, "thrown": card})
        self.drawn = self.source = None
        self._end_turn(p, knocked=False, ev=ev)
        return ev

    def _chance(self, card: int, ev: list[dict[str, Any]]) -> None:
        try:
            self.stock.remove(card)  # the first copy: stock[0] when a stacked deck is followed
        except ValueError:
            raise RuleViolation(f"card {card} is not among the undealt cards") from None
        if self.phase == STOCK_DRAW:
            self.drawn, self.source, self.phase = card, STOCK, PLACE
            ev.append({"type": "draw", "player": self.cur, "source": STOCK, "card": card})
            return
        n, g = self.rules.players, self.rules.grid
        if self.dealt < n * g:
            self.grid[self.dealt // g][self.dealt % g] = card
        else:
            self.discard.append(card)
        self.dealt += 1
        if self.dealt == n * g + 1:
            ev.append({"type": "deal", "first": self.first, "discard": self.discard[-1], "stock": len(self.stock)})
            self.cur = self.first
            if self.rules.openers:
                self.phase = OPEN
            else:
                self._start_play(ev)

    def _start_play(self, ev: list[dict[str, Any]]) -> None:
        self.phase = DRAW
        self.cur = self.first
        if not self.stock:
            self._refill(ev)
        if self.reason is not None:
            self._finish(ev)

    def _end_turn(self, p: int, knocked: bool, ev: list[dict[str, Any]]) -> None:
        """Closing, the last lap, the stall rule, refilling the stock and the turn limit.

        The compiled kernels repeat this procedure step for step (:func:`.layout.end_turn`).
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
            ev.append({"type": "close", "player": p})
        else:
            # Declining = ending a turn still one card short of closing. Any other turn
            # breaks the run, so the count reaches 2n only if every player declined twice.
            self.stall = self.stall + 1 if self.hidden_before == 1 and hidden_after == 1 else 0
            if self.stall >= 2 * n:
                self.reason = END_STALLED
        self.turn += 1
        if self.reason is None and self.ending_left == 0:
            self.reason = END_KNOCKED if self.knocker is not None else END_CLOSED
        if self.reason is None and not self.stock:
            self._refill(ev)
        if self.reason is None and self.turn >= self.max_turns:
            self.reason = END_TURN_LIMIT
        if self.reason is None:
            self.cur = (p + 1) % n
            self.phase = DRAW
        else:
            self._finish(ev)

    def _refill(self, ev: list[dict[str, Any]]) -> None:
        """Shuffle the discard pile, all but its top card, into the empty stock."""
        if len(self.discard) <= 1:
            self.reason = END_EXHAUSTED
            return
        pile = self.discard[:-1]
        if self.rng is not None:
            # The referee drew the old stock from its end, so a permutation is read backwards.
            pile = [int(c) for c in self.rng.permutation(np.array(pile))][::-1]
        self.stock = pile
        self.discard = [self.discard[-1]]
        self.recycled = True
        self.recycles += 1
        ev.append({"type": "recycle", "cards": len(self.stock)})

    def _finish(self, ev: list[dict[str, Any]]) -> None:
        self.raw, self.strokes = hole_strokes(self.grid, self.rules, self.knocker)
        for p in range(self.rules.players):
            self.up[p] = [True] * self.rules.grid
        self.phase = OVER
        ev.append({"type": "end", "reason": self.reason, "raw": self.raw, "strokes": self.strokes})

    # -- the end -------------------------------------------------------------------------
    def returns(self) -> list[int]:
        """Each seat's strokes once the hole is over (knock penalty included)."""
        if self.strokes is None:
            raise RuleViolation("the hole is not over")
        return list(self.strokes)

    def result(self, events: Optional[list[dict[str, Any]]] = None) -> HoleResult:
        """The scored hole (once over), with the event log a driver kept."""
        strokes = self.returns()
        return HoleResult(grids=[list(g) for g in self.grid], raw=list(self.raw or []), strokes=strokes,
                          reason=self.reason or "", closer=self.closer, knocker=self.knocker, turns=self.turn,
                          recycles=self.recycles, first=self.first, events=events if events is not None else [])

    # -- copies ----------------------------------------------------------------------------
    def clone(self) -> "HoleState":
        """An independent copy (sharing the recycling generator)."""
        new = copy.copy(self)
        new.grid = [list(g) for g in self.grid]
        new.up = [list(u) for u in self.up]
        new.discard = list(self.discard)
        new.stock = list(self.stock)
        new.opening = list(self.opening)
        return new

    def __deepcopy__(self, memo: dict) -> "HoleState":
        """:meth:`clone` with a generator of its own (the rules, counts and totals are never
        changed in place, so they are shared): how OpenSpiel's clone copies the adapter's
        state, far cheaper than copying every field."""
        new = self.clone()
        new.rng = copy.deepcopy(self.rng, memo)
        return new

    def resample(self, p: int, rng: np.random.Generator) -> "HoleState":
        """A state seat ``p`` cannot tell from this one: the cards it has not seen (face down
        anywhere, the stock unless it was recycled, and a stock card in another seat's hand)
        dealt anew at random, while dealing too (the cards dealt so far). The stock's
        contents are what is resampled (draws from it are chance outcomes); a recycled
        stock's contents are public, so a card another seat drew from it is one of them,
        dealt to that hand at random, the rest staying in the stock. A state that shuffles
        its discard pile into a new stock (one with a generator) gives the world ``rng`` to
        shuffle with."""
        expect(rng, np.random.Generator, "rng", "a numpy Generator, e.g. np.random.default_rng(7)")
        new = self.clone()
        v = self.observation(p)
        new._deal_unseen(v, rng)
        if new.rng is not None:
            # the state's own generator is the referee's: its next draws are the order of the
            # stock the next refill makes, which no seat sees (and stepping the world through
            # a refill would draw them, changing the real hole's order)
            new.rng = rng
        return new

    def _deal_unseen(self, v: PlayerView, rng: np.random.Generator) -> None:
        pool = [c for c, k in enumerate(v.unseen) for _ in range(k)]
        rng.shuffle(pool)
        it = iter(pool)
        g = self.rules.grid
        for q in range(self.rules.players):
            for i in range(g):
                if not self.up[q][i] and q * g + i < self.dealt:  # (while dealing, the cards dealt so far)
                    self.grid[q][i] = next(it)
        known = [c for c, k in enumerate(v.stock_known) for _ in range(k)]
        if self.phase == PLACE and v.drawn is None and self.source == STOCK:
            # another seat holds a stock card this seat has not seen: it is dealt anew too
            # (else the real card stays in that hand, and a second copy goes into the stock);
            # from a recycled stock it is one of the stock's known cards (see :meth:`view`)
            if self.recycled:
                self.drawn = known.pop(int(rng.integers(len(known))))
            else:
                self.drawn = next(it)
        self.stock = list(it) + known

    @classmethod
    def from_view(cls, view: PlayerView, rng: np.random.Generator) -> "HoleState":
        """A state consistent with ``view``, at the viewer's decision, its unseen cards
        dealt at random (how a searcher that sees only its view builds a world)."""
        rules = view.rules
        s = cls(rules)
        s.up = [[c is not None for c in gr] for gr in view.grids]
        s.grid = [[c if c is not None else -1 for c in gr] for gr in view.grids]
        s.discard = list(view.discard)
        s.recycled = any(view.stock_known)
        s.first, s.totals, s.turn, s.stall = view.first, view.totals, view.turn, view.stall
        s.ending_left, s.closer, s.knocker = view.turns_left, view.closer, view.knocker
        s.dealt = needed_cards(rules)
        s.openers_done = rules.players
        s.cur = view.me
        s.phase = PLACE if view.drawn is not None else DRAW
        s.drawn, s.source = view.drawn, view.source
        s.hidden_before = s.hidden_count(view.me)
        s._deal_unseen(view, rng)
        return s
