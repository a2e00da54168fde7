"""What the server's worker processes run: each job builds exactly the CLI's ``--json`` answer.

A job gets a checked :class:`~golfsolve.solitaire.layout.Layout` and plain options, and
calls the same library functions the commands call, so a server answer and a
``golfsolve ... --json`` answer cannot differ (only ``seconds`` and timings do).
"""

from __future__ import annotations

from typing import Any, Callable

from ..solitaire.answers import peeking_hint_answer, solve_answer, solve_layout
from ..solitaire.engine import parse_moves
from ..solitaire.layout import Layout
from ..solitaire.solver import Solver, StockUnknownError

#: Errors that mean "no exact answer for this question" (the CLI's exit code 1).
NO_ANSWER = (StockUnknownError,)

_solver: Solver | None = None


def _the_solver() -> Solver:
    # one solver per worker: its tables are allocated once, not per request
    global _solver
    if _solver is None:
        _solver = Solver()
    return _solver


def solve(layout: Layout, node_limit: int = 0, verdict_only: bool = False) -> dict:
    """``golfsolve solve --json`` (one deal)."""
    return solve_answer(layout, solve_layout(layout, node_limit, verdict_only, _the_solver()))


def hint(layout: Layout, moves: str = "", node_limit: int = 0) -> dict:
    """``golfsolve hint --json`` (peeking at the stock)."""
    return peeking_hint_answer(layout, moves, node_limit, _the_solver())


def fair_hint(layout: Layout, moves: str = "", seed: int = 0, player: str = "strong") -> dict:
    """``golfsolve hint --fair --json``: the stock order forgotten first."""
    from ..fair import fair_game_over_answer, fair_hint_answer
    from ..solitaire.answers import GameOverError, hint_position

    played_moves = parse_moves(moves)
    try:
        game = hint_position(layout, played_moves)
    except GameOverError as e:
        return fair_game_over_answer(layout, played_moves, e, seed=seed, player=player)
    return fair_hint_answer(layout, played_moves, game, seed=seed, player=player, solver=_the_solver())


def odds(layout: Layout, moves: str = "", samples: int = 200, games: int | None = None, seed: int = 0,
         player: str = "fast") -> dict:
    """``golfsolve odds --json`` (``--moves``: from the position they reach)."""
    from ..fair import odds_for_player

    return odds_for_player(layout, samples=samples, seed=seed, games=games, player=player,
                           solver=_the_solver(), moves=moves).as_json()


def rate(layout: Layout, games: int = 16, seed: int = 0, player: str = "fast") -> list:
    """``golfsolve rate CODE --json`` for one deal (a list of one rating, as the CLI prints)."""
    from ..fair import rate as rate_deal

    return [rate_deal(layout, layout.rules, games, seed, _the_solver(), player).as_json()]


JOBS: dict[str, Callable[..., Any]] = {"solve": solve, "hint": hint, "fair_hint": fair_hint, "odds": odds,
                                       "rate": rate}


def run(name: str, kwargs: dict) -> Any:
    """Run the job called ``name``."""
    return JOBS[name](**kwargs)


def warm() -> None:
    """Load (or compile) the kernels a request needs and touch every search once, so the
    first request is as fast as the rest."""
    from ..solitaire.solver import warm as warm_kernels
    from ..solitaire.layout import layout_from_number
    from ..solitaire.rules import get_rules

    warm_kernels()
    for rules in ("easy", "classic", "strict"):
        lay = layout_from_number(1, get_rules(rules))
        solve(lay)
        solve(lay, verdict_only=True)
    hint(layout_from_number(1, get_rules("easy")), "d")
    fair_hint(layout_from_number(1, get_rules("easy")), player="fast")
