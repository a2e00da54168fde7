"""Hints: the best next move from a position, and why, by solving every successor."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from ..cards import card_str
from ..errors import InputError
from ..inputs import expect
from ..text import plural
from .engine import Game, replay
from .layout import Layout
from .rules import Rules
from .solver import Solution, Solver, solver_arg


@dataclass(frozen=True)
class MoveAdvice:
    """One legal move and what perfect play can still reach after it."""

    move: str  # '1'..'7' or 'd'
    card: Optional[str]  # the card the move puts on the discard, when known
    solution: Solution

    @property
    def reason(self) -> str:
        """Why the move is suggested, in words."""
        s = self.solution
        if s.outcome == "won":
            return "keeps a win"
        if s.outcome == "unknown":
            return f"search stopped at the node limit; the best line found leaves {plural(s.best_left, 'card')}"
        return f"no win; at best {plural(s.best_left, 'card')} left (app score {s.app_score})"

    def to_json(self) -> dict:
        """The move's entry in ``golfsolve hint --json``'s ``ranked`` list: the move, its card,
        why, and its position's solution."""
        return {"move": self.move, "card": self.card, "reason": self.reason, **self.solution.to_json()}

    as_json = to_json  # the name golfsolve.fair's results use: either works


def _rank_key(a: MoveAdvice) -> tuple:
    s = a.solution
    # wins first, then fewest cards left; a remove before a draw when equal, since a
    # draw spends a stock card the remove keeps
    return (0 if s.outcome == "won" else 1, s.best_left, 1 if a.move == "d" else 0, a.move)


def game_over_message(game: Game) -> str:
    """What a hint (and ``odds``) says of a won or locked game, e.g. "the game is already
    over: You won! Score 350"; "" while it goes on."""
    expect(game, Game, "game", "a Game, e.g. Game(layout) or position_after(layout, moves)")
    return f"the game is already over: {game.status_message()}" if game.over else ""


def position_after(layout: Layout, moves: Sequence[str], rules: Optional[Rules] = None) -> Game:
    """Replay ``moves`` in the game engine; a rejected move is bad input."""
    game, results = replay(layout, moves, rules, stop_on_reject=True)
    for i, r in enumerate(results, 1):
        if not r.ok:
            # its place, for a list of many 4s and d's, where "move '4'" alone does not say which
            which = f"move {r.move!r}" if len(moves) == 1 else f"move {i} of {len(moves)} ({r.move!r})"
            raise InputError(f"{which} is not legal here: {r.message}")
    return game


def rank_moves(game: Game, solver: Optional[Solver] = None, node_limit: int = 0) -> list[MoveAdvice]:
    """Every legal move of ``game``'s position, best first, each with its exact outcome."""
    # a Layout would fail deep inside as "no attribute 'legal_moves'", a solver's name as "no attribute 'solve'"
    expect(game, Game, "game", "a Game, e.g. Game(layout) or position_after(layout, moves)")
    solver_arg(solver)
    solver = solver or Solver()
    out = []
    for mv in game.legal_moves():
        child = position_after(game.to_layout(), [mv], game.rules)
        top = child.top()
        out.append(MoveAdvice(mv, None if top is None else card_str(top), solver.solve(child.to_layout(), game.rules, node_limit)))
    out.sort(key=_rank_key)
    return out
