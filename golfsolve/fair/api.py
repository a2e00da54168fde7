"""The fair hint: the move the fair player plays from a position, and every move's value.

Every answer here is a function of what the player sees only: the table, the discard
pile's top, the cards known to be played (``played``), the number of stock cards and the
stock cards already known (a partial layout's known places). The caller must forget a
real stock order first (``layout.forget_stock(0)``); unknown places are then filled from
the unseen cards, by the seed, so two positions that look the same get the same answer.
The win chances (`odds`) live in :mod:`golfsolve.fair.odds`.
"""

from __future__ import annotations

import textwrap
import time
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

from ..cards import card_str, show_card
from ..errors import InputError
from ..inputs import expect, flag, seed_value
from ..intervals import wilson
from ..text import pad
from ..solitaire.answers import GameOverError, game_over_answer
from ..solitaire.engine import Game
from ..solitaire.engine import parse_moves
from ..solitaire.hint import position_after
from ..solitaire.layout import Layout, layout_arg, layout_rules
from ..solitaire.rules import Rules
from ..solitaire.solver import MOVE_DRAW, Solver, solver_arg
from ..text import estimate, percent
from .odds import NO_UNDO
from .orders import arrangements, check_played, check_played_not_held, unknown_pool
from .infoset import fewest_cards
from .player import Player, PlayerSettings, player_settings
from .view import as_seen, legal_moves, player_view

# ---------------------------------------------------------------------------
# the fair hint
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class MoveChance:
    """One legal move, its value without peeking and the plan that reaches it.

    ``plan`` is the move and the removes that follow it before the next blind draw ('d'
    at the end when the plan draws). ``wins`` of ``samples`` sampled orders stay winnable
    after the plan and the draw; with an exact hint ``chance`` is the expectimax value.
    """

    move: str  # '1'..'7' or 'd'
    card: Optional[str]  # the card the move puts on the discard; None for a draw of an unknown card
    chance: float
    low: float
    high: float
    plan: tuple[str, ...] = ()
    wins: int = 0
    samples: int = 0
    ahead: int = 0  # samples in which this move keeps a win and the best move does not
    behind: int = 0  # samples in which the best move keeps a win and this one does not

    def describe(self) -> str:
        """The move in words: ``draw`` or ``remove 7♥ from column 3``."""
        return "draw" if self.move == MOVE_DRAW else f"remove {show_card(self.card)} from column {self.move}"

    def as_json(self) -> dict:
        """The move's entry in a fair hint's ``ranked`` list (``golfsolve hint --fair --json``)."""
        return {
            "move": self.move, "card": self.card, "fair_value": round(self.chance, 6),
            "ci95": [round(self.low, 6), round(self.high, 6)], "plan": " ".join(self.plan),
            "wins": self.wins, "samples": self.samples,
            "better_than_best_in": self.ahead, "worse_than_best_in": self.behind,
        }


@dataclass(frozen=True)
class FairHint:
    """The fair hint: the move the fair player (``settings``, ``seed``) would play from the
    position, first, then every other legal move by its value without peeking.

    ``method`` "exact": the values are expectimax values over the unknown stock cards (the
    player plays the best of them). "sampled": each move's value is its best blind-draw
    value over the ``samples`` stock orders the player decided on (the same orders for every
    move; ``all_orders``: every possible order once).
    """

    name: str
    rules: Rules = field(compare=False)
    method: str
    samples: int
    all_orders: bool
    seed: int
    ranked: tuple[MoveChance, ...]
    plan: tuple[str, ...]
    solves: int
    settings: PlayerSettings
    seconds: float = field(compare=False)

    @property
    def best(self) -> MoveChance:
        """The move the fair player plays."""
        return self.ranked[0]

    @property
    def what(self) -> str:
        """What the values are, in words."""
        if self.method == "exact":
            return "exact fair value: expectimax over the unknown stock cards (the best play without peeking)"
        return ("blind-draw value: the share of stock orders in which the move's best plan (it and the removes "
                "after it), then a draw of an unseen card, leaves a winnable position; play after that draw is "
                "scored as if the stock were visible, so it is an upper bound on the move's fair chance")

    def as_json(self) -> dict:
        """The hint as ``golfsolve hint --fair --json`` prints it."""
        return {
            "deal": self.name,
            "rules": self.rules.name,
            "fair": True,
            "game_over": False,
            "method": self.method,
            "estimate": self.what,
            "undo": False,
            "samples": self.samples,
            "all_orders": self.all_orders,
            "seed": self.seed,
            "player": self.settings.as_dict(),
            "plan": " ".join(self.plan),
            "best": self.best.as_json(),
            "ranked": [m.as_json() for m in self.ranked],
            "solves": self.solves,
        }

    def render(self, show_all: bool = False) -> str:
        """The hint as ``golfsolve hint --fair`` prints it (``show_all``: each move's plan too)."""
        show_all = flag(show_all, "show_all")  # "no" is true to Python, as the other renders' switches
        b = self.best
        lines = [f"fair best move: {b.move} ({b.describe()})" + (f"; plan {' '.join(self.plan)}"
                                                                  if len(self.plan) > 1 else ""),
                 f"the {self.settings.preset} fair player's choice (seed {self.seed}), without peeking at the stock"]
        if all(m.chance == 0 for m in self.ranked):
            # "fair best move" alone read as though the choice mattered on a position no move can win
            lines.append("no move can win, whatever the stock holds" if self.method == "exact" or self.all_orders
                         else f"no move keeps a win on any of the {self.samples:,} sampled stock orders")
        if self.method == "exact":
            lines.append("each legal move's exact value (expectimax over the unknown stock cards):")
        elif self.all_orders:  # every order played: the values below are shares, with no interval
            lines.append("each legal move's value over " + ("the one possible stock order:" if self.samples == 1 else
                         f"all {self.samples:,} possible stock orders (every one, so no interval):"))
        else:
            lines.append(f"each legal move's value and 95% interval, over the same {self.samples} sampled stock orders:")
        for m in self.ranked:
            value = (f"{percent(m.chance, '5.1f')}%" if self.method == "exact" or self.all_orders else
                     estimate(m.chance, m.low, m.high, ".1f", percent=True, value_fmt="5.1f"))
            lines.append(f"  {m.move:>2}  {pad(show_card(m.card) if m.card else '?', 3)}  {value}"
                         + (f"  plan {' '.join(m.plan)}" if show_all and m.plan else ""))
        # wrapped as odds wraps its notes, not one line of 400 characters, and said of the
        # values above, not of odds' two numbers
        lines.append(textwrap.fill(f"({self.what}; {NO_UNDO_VALUES})", 100))
        return "\n".join(lines)


#: the fair hint's note on undo: :data:`NO_UNDO` said of its values
NO_UNDO_VALUES = NO_UNDO.replace("so neither number allows it", "so no value above allows it")


def _card_of(layout: Layout, move: str) -> Optional[str]:
    if move == MOVE_DRAW:  # a known next stock card (a partial layout's prefix) is shown
        nxt = layout.stock[0] if layout.stock else None
        return None if nxt is None else card_str(nxt)
    return card_str(layout.columns[int(move) - 1][-1])


def fair_hint(
    layout: Layout,
    rules: Optional[Rules] = None,
    seed: int = 0,
    played: Iterable[int] = (),
    solver: Optional[Solver] = None,
    player: "str | PlayerSettings" = "strong",
    seen: int = 0,
) -> FairHint:
    """The move the fair player (a preset name or settings; ``seed``) plays from ``layout``
    as its player sees it (unknown stock places ``None``; a whole stock order given is
    forgotten first, all but the first ``seen`` cards, which the player has seen:
    :func:`~golfsolve.fair.view.as_seen`), and every legal move's value without peeking.

    The recommended move is exactly the first move of :meth:`Player.decide
    <golfsolve.fair.player.Player.decide>` for a player seeded with ``seed``. With few
    unknown stock cards the values are exact (expectimax). Otherwise each move gets the
    best blind-draw value of the pre-draw states it starts a chain to
    (:mod:`golfsolve.fair.infoset`), on the orders the player decided on. ``played``:
    cards known to be under the discard's top (they cannot be in the stock).
    """
    rules = layout_rules(layout, rules)  # before the view, which is golfsolve's own and not checked again
    played = check_played(played)  # None would fail as "'NoneType' object is not iterable"
    check_played_not_held(layout, played)  # while the stock it was given is still there to name
    # a whole stock order given (a deal code's layout) is the referee's, not the player's
    layout = as_seen(layout, seen)
    seed = seed_value(seed)
    solver_arg(solver)
    settings = player_settings(player)
    moves = legal_moves(layout, rules)
    if not moves:
        raise InputError("no legal move: the game is over")
    unknown_pool(layout, rules, played)  # bad input before any work
    t0 = time.perf_counter()
    me = Player(rules, settings, seed, solver)
    d = me.decide(layout, played)
    first = d.chain[0] if d.chain else moves[0]
    if d.exact is not None:
        vals = dict(d.exact.moves)
        order = [first] + [m for m, _ in d.exact.moves if m != first]
        ranked = tuple(MoveChance(m, _card_of(layout, m), vals[m], vals[m], vals[m], (m,)) for m in order)
        return FairHint(layout.name, rules, "exact", 0, True, seed, ranked, d.chain, me.solves, settings,
                        time.perf_counter() - t0)
    cv = d.values
    n = len(cv.stocks)
    all_orders = _every_order(layout, rules, played, n)
    per_move = {}
    for m in moves:
        if m == first:
            # the player's own plan for its move, valued on every order it saw (its other chains
            # from the same move were valued here too, only for that answer to be dropped)
            per_move[m] = (d.state, sum(cv.won(i, d.state) for i in range(n)))
            continue
        # ranked by branch and bound over tables: an order's search decides only the tables
        # that can still be the move's best
        top = cv.top(fewest_cards(s for s in cv.states if m in s.first), range(n), 1)
        per_move[m] = top[0] if top else (None, 0)
    order = [first] + sorted((m for m in moves if m != first), key=lambda m: (-per_move[m][1], m == MOVE_DRAW, m))

    def vector(m: str) -> list[bool]:
        s = per_move[m][0]
        return [cv.won(i, s) for i in range(n)] if s is not None else [False] * n

    top = vector(first)
    ranked = []
    for m in order:
        s, k = per_move[m]
        v = vector(m)
        lo, hi = (k / n, k / n) if all_orders else wilson(k, n)[1:]
        plan = s.first[m] if s is not None else (m,)
        if s is not None and (s.table and layout.stock):
            plan = plan + (MOVE_DRAW,)
        ranked.append(MoveChance(m, _card_of(layout, m), k / n, lo, hi, plan, k, n,
                                 sum(a and not b for a, b in zip(v, top)), sum(b and not a for a, b in zip(v, top))))
    return FairHint(layout.name, rules, "sampled", n, all_orders, seed, tuple(ranked), d.chain,
                    me.solves + cv.solves, settings, time.perf_counter() - t0)


def _every_order(layout: Layout, rules: Rules, played: tuple[int, ...], n: int) -> bool:
    """Are there at most ``n`` stock orders consistent with ``layout`` (so ``n`` orders were all of them)?"""
    positions, pool = unknown_pool(layout, rules, played)
    return arrangements(len(pool), len(positions)) <= n


# ---------------------------------------------------------------------------
# from a real position: what the commands and the server answer
# ---------------------------------------------------------------------------
def fair_hint_for_player(layout: Layout, game: Game, seed: int = 0, player: "str | PlayerSettings" = "strong",
                         solver: Optional[Solver] = None) -> FairHint:
    """:func:`fair_hint` for ``game`` (started from ``layout``) as its player sees it
    (:func:`~golfsolve.fair.view.player_view`: the stock cards not yet turned are forgotten,
    the cards under the discard's top are known), as ``golfsolve hint --fair`` answers."""
    # player_view takes None for the layout's start, but the hint then failed as "'NoneType' object
    # has no attribute 'rules'"
    expect(game, Game, "game", "a Game started from the layout, e.g. Game(layout) or position_after(layout, moves)")
    view, played = player_view(layout, game)
    # the stock cards the player turned and put back were seen: a view naming them all is no referee's order
    return fair_hint(view, game.rules, seed=seed, played=played, solver=solver, player=player,
                     seen=game.seen_stock)


def fair_hint_answer(layout: Layout, moves: Sequence[str], game: Game, seed: int = 0,
                     player: "str | PlayerSettings" = "strong", solver: Optional[Solver] = None) -> dict:
    """``golfsolve hint --fair --json`` (and ``/api/hint``) for ``game``, the position after
    ``moves`` from ``layout``: :func:`fair_hint_for_player`'s answer and the moves played,
    as the peeking hint has them."""
    layout_arg(layout)
    expect(game, Game, "game", "a Game started from the layout, e.g. position_after(layout, moves)")
    if isinstance(moves, str):
        moves = parse_moves(moves)  # " ".join of the text "d5" would report "d 5", of "d 5" "d   5"
    expect(moves, (list, tuple), "moves", "a list of move words, e.g. parse_moves('d 5 2')")
    for m in moves:
        expect(m, str, "each move", "a move word: d, 1-7 or u")
    # the answer reports these moves as played: moves that do not reach the game's position made
    # it describe one position and answer for another. The stock cards a game turned and put back
    # by undo are part of what its player sees: with moves that turned none, the answer named the
    # next stock card on its draw's line
    reached = position_after(layout, list(moves), game.rules)
    if reached.to_layout() != game.to_layout() or reached.pile != game.pile or reached.seen_stock != game.seen_stock:
        raise InputError("the moves do not lead from the layout to the game's position: give the moves the "
                         "game was played with")
    hint = fair_hint_for_player(layout, game, seed=seed, player=player, solver=solver)
    return {**hint.as_json(), "moves_played": " ".join(moves)}


def fair_game_over_answer(layout: Layout, moves: Sequence[str], error: GameOverError, seed: int = 0,
                          player: "str | PlayerSettings" = "strong") -> dict:
    """``golfsolve hint --fair --json`` (and ``/api/hint``) on a won or locked position: the
    peeking hint's answer there (no next move, and why) with the ``seed`` and the fair
    ``player``'s settings, which every fair answer records."""
    layout_arg(layout)
    if isinstance(moves, str):
        moves = parse_moves(moves)  # " ".join of the text "d5" would report "d 5"
    expect(moves, (list, tuple), "moves", "a list of move words, e.g. parse_moves('d 5 2')")
    expect(error, GameOverError, "error", "the GameOverError hint_position raised")
    return {**game_over_answer(layout, moves, error, fair=True), "seed": seed_value(seed),
            "player": player_settings(player).as_dict()}


__all__ = ["fair_hint", "FairHint", "MoveChance", "fair_hint_answer", "fair_hint_for_player", "fair_game_over_answer"]
