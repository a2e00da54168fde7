"""The answers of ``deal``, ``solve``, ``hint`` and ``replay`` as plain data: what ``--json`` prints.

One place builds each answer, so the CLI's ``--json`` and the HTTP server
(:mod:`golfsolve.serve`) give the same dict for the same question and cannot drift
apart. Bad input raises :class:`~golfsolve.errors.InputError` before any search; a
question with no exact answer (a stock order that is not known) raises
:class:`~golfsolve.solitaire.solver.StockUnknownError` with the message the CLI prints.
"""

from __future__ import annotations

from typing import Optional, Sequence

from ..cards import card_str
from ..errors import InputError, shown
from ..inputs import expect, flag
from .deals import record
from .engine import Game, MoveResult, parse_moves
from .hint import MoveAdvice, game_over_message, position_after, rank_moves
from .layout import Layout, layout_arg
from .rules import EASY
from .solver import Solution, Solver, StockUnknownError, solver_arg


def _layout(layout: object) -> None:
    # named at the call: a deal code or None failed as "'str' object has no attribute 'rules'"
    layout_arg(layout)


class GameOverError(InputError):
    """A hint was asked for a position that is already won or locked."""


def deal_answer(layout: Layout) -> dict:
    """``golfsolve deal --json``: the layout as plain data, led by ``deal`` (the deal's name,
    the key every other answer gives it under; ``name`` is the layout's own key, kept)."""
    _layout(layout)
    return {"deal": layout.name, **layout.to_json()}


def solve_layout(layout: Layout, node_limit: int = 0, verdict_only: bool = False,
                 solver: Optional[Solver] = None) -> Solution:
    """Solve one deal as ``golfsolve solve`` does; a stock of unknown order raises
    :class:`StockUnknownError` naming the deal."""
    _layout(layout)
    try:
        return (solver_arg(solver) or Solver()).solve(layout, layout.rules, node_limit, verdict_only=verdict_only)
    except StockUnknownError as e:
        raise StockUnknownError(f"{layout.name or 'layout'}: {e}") from None


def solve_answer(layout: Layout, solution: Solution) -> dict:
    """``golfsolve solve --json`` for one deal (full or ``--verdict-only``)."""
    _layout(layout)
    expect(solution, Solution, "solution", "a Solution, e.g. solve_layout(layout)")
    return record((layout, solution))


def hint_position(layout: Layout, moves: Sequence[str]) -> Game:
    """The game after ``moves`` from ``layout``; a rejected move or a finished game is bad input."""
    _layout(layout)
    game = position_after(layout, moves, layout.rules)
    if game.over:
        raise GameOverError(game_over_message(game))
    return game


def _rules_name(layout: Layout) -> str:
    """The name of the rule set a hint about ``layout`` plays under (its own, else Easy)."""
    return (layout.rules or EASY).name


def game_over_answer(layout: Layout, moves: Sequence[str], error: GameOverError, fair: bool = False) -> dict:
    """``golfsolve hint --json`` (peeking, or with ``fair`` the fair one) on a won or locked
    position: no next move, and why. Every hint answer has ``deal``, ``rules``, ``fair``,
    ``moves_played``, ``game_over``, ``best`` and ``ranked``, this one too (the fair one's, with
    the seed and the player: :func:`golfsolve.fair.fair_game_over_answer`)."""
    return {"deal": layout.name, "rules": _rules_name(layout), "fair": fair, "moves_played": " ".join(moves),
            "game_over": True, "best": None, "ranked": [], "message": str(error)}


def peeking_hint(game: Game, node_limit: int = 0, solver: Optional[Solver] = None) -> list[MoveAdvice]:
    """Every legal move of ``game``, best first, judged with the stock order known."""
    try:
        ranked = rank_moves(game, solver, node_limit=node_limit)
    except StockUnknownError:
        # said of the position asked about, not of the move whose search met it: after the draw's
        # search, a stock of 16 whose first card is known would read "15 of 15 stock cards"
        unknown = sum(1 for c in game.stock if c is None)
        raise StockUnknownError(
            f"{game.layout.name or 'layout'}: the stock order is unknown ({unknown} of {len(game.stock)} stock "
            "cards), so there is no exact hint; try 'golfsolve hint --fair'") from None
    if not ranked:  # no remove fits and the next stock card is not known, so a draw cannot be judged
        raise StockUnknownError("no card fits the discard and the next stock card is unknown; "
                                "try 'golfsolve hint --fair'")
    return ranked


def hint_is_exact(ranked: Sequence[MoveAdvice]) -> bool:
    """Is the best of ``ranked`` known to be best? Not when a move's search stopped at its
    node limit, unless the best move is a proven win (nothing ranks above one)."""
    return ranked[0].solution.outcome == "won" or all(a.solution.outcome != "unknown" for a in ranked)


def hint_answer(layout: Layout, moves: Sequence[str], ranked: Sequence[MoveAdvice]) -> dict:
    """``golfsolve hint --json`` (peeking at the stock) for the position after ``moves``."""
    return {"deal": layout.name, "rules": _rules_name(layout), "fair": False, "moves_played": " ".join(moves),
            "game_over": False, "best": ranked[0].to_json(), "ranked": [a.to_json() for a in ranked]}


def peeking_hint_answer(layout: Layout, moves_text: str = "", node_limit: int = 0,
                        solver: Optional[Solver] = None) -> dict:
    """The whole of ``golfsolve hint --json``: moves read and checked, every move ranked (or,
    on a finished game, :func:`game_over_answer`)."""
    moves = parse_moves(moves_text)
    try:
        game = hint_position(layout, moves)
    except GameOverError as e:
        return game_over_answer(layout, moves, e)
    return hint_answer(layout, moves, peeking_hint(game, node_limit, solver))


def play_answer(layout: Layout, moves_text: str = "", action: Optional[str] = None,
                tap: Optional[tuple[int, int]] = None) -> dict:
    """The game after ``moves_text`` (moves already played, undo ``u`` included), then one
    more action when given: a move (``d``, ``1``-``7``, ``u``) or a tap on the card in
    column ``tap[0]``, row ``tap[1]`` (1 = the covered top card). Returns the state and the
    action's result with the app's message. A rejected move in ``moves_text`` is bad
    input (those were played already); a rejected action is an answer (``ok`` false and
    why, e.g. "This card is blocked"), and changes nothing. The state's stock is face down:
    ``None`` for each card (its order and cards are what a player does not see)."""
    _layout(layout)
    if tap is not None and not (isinstance(tap, (tuple, list)) and len(tap) == 2):
        # else the text "1,5" reaches Game.tap as three arguments and fails there as a TypeError about them
        raise TypeError(f"tap must be (column, row), e.g. (3, 5), or None; not {type(tap).__name__} {shown(tap)}")
    if action is not None and tap is not None:
        raise InputError("give one action: a move or a tap, not both")
    moves = parse_moves(moves_text)
    game = position_after(layout, moves, layout.rules)
    last: Optional[MoveResult] = None
    if tap is not None:
        last = game.tap(*tap)
    elif action is not None:
        one = parse_moves(action)
        if len(one) != 1:
            raise InputError(f"give one action (d, 1-7 or u), not {action!r}")
        last = game.play(one[0])
    played = moves + ([last.move] if last is not None and last.ok else [])
    state = game.to_json()
    # the stock lies face down: the page (and anyone reading the answer) learns how many cards
    # it holds, never which card comes next, so playing here is playing as a player sees it
    state["stock"] = [None] * len(game.stock)
    return {
        "deal": layout.name,
        "rules": game.rules.name,
        "moves_played": " ".join(played),
        "ok": True if last is None else last.ok,
        "move": None if last is None else last.move,
        "card": None if last is None or last.card is None else card_str(last.card),
        "message": last.message if last is not None and not last.ok else game.status_message(),
        "state": state,
    }


def replay_answer(layout: Layout, moves: Sequence[str], stop_on_reject: bool = False) -> tuple[Game, dict]:
    """``moves`` (as :func:`~.engine.parse_moves` gives them) played from the start of
    ``layout``, every one, a rejected move changing nothing (with ``stop_on_reject``, up to
    the first rejected one): the game as it ends and ``golfsolve replay --json``'s answer,
    each step with its card, discard top, stock, score and message. ``moves`` may be their
    text, as :func:`~.engine.replay` takes it. As every other answer, it names the deal
    ``deal`` and gives ``moves_played`` as the moves' text: the moves the game took (a
    rejected one changed nothing), which ``hint --moves`` and ``odds --moves`` take as it is;
    ``moves_given`` and ``rejected`` count the moves given and those refused."""
    _layout(layout)
    stop_on_reject = flag(stop_on_reject, "stop_on_reject")  # "no" is true to Python
    if isinstance(moves, str):  # one move a character would make the spaces of "d 5" moves
        moves = parse_moves(moves)
    expect(moves, (list, tuple), "moves", "their text, e.g. 'd 5 2', or a list of moves")
    game = Game(layout)
    steps = []
    for i, m in enumerate(moves, 1):
        res = game.play(m)
        steps.append({
            "step": i,
            "move": m,
            "ok": res.ok,
            "card": None if res.card is None else card_str(res.card),
            "discard": None if game.top() is None else card_str(game.top()),
            "stock_left": len(game.stock),
            "score": game.score,
            "status": game.status,
            "message": res.message or (game.status_message() if res.ok else ""),
        })
        if not res.ok and stop_on_reject:
            break
    answer = {
        "deal": layout.name,
        "rules": game.rules.name,
        "moves_given": len(moves),
        "moves_played": " ".join(s["move"] for s in steps if s["ok"]),
        "rejected": sum(1 for s in steps if not s["ok"]),
        "status": game.status,
        "score": game.score,
        "move_counter": game.moves,
        "cards_left": game.traditional_score(),
        "stock_left": len(game.stock),
        "steps": steps,
        "final": game.to_json(),
    }
    return game, answer


__all__ = ["GameOverError", "game_over_answer", "deal_answer", "solve_layout", "solve_answer", "hint_position", "peeking_hint",
           "hint_is_exact", "hint_answer", "peeking_hint_answer", "play_answer", "replay_answer"]
