"""The exact fair-play value of small positions: expectimax over the unseen cards.

A player who cannot see the stock chooses each move knowing only the table, the discard
and which cards may still be in the stock. The best such player wins with probability

    V(position) = 1                       if the table is empty,
                  0                       if no move is legal (locked),
                  max over legal moves m of V(after m),

where after a draw of an unknown card the value is the average over the next card,
uniform over the cards that may still be in the stock (a chance node). Clairvoyant
play (:func:`clairvoyant_value`) instead averages over whole stock orders and then
plays each one with full knowledge, so ``fair_value <= clairvoyant_value`` always; the
difference is what peeking is worth.

Pure Python with memoisation over ranks (suits never matter), so it is for endgames:
a few columns of cards and a short stock. ``max_states`` stops it before it runs away.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from typing import Iterable, Optional

from ..cards import JOKER_RANK, rank_of
from ..errors import InputError
from .fair import _fill, _legal_moves, arrangements, unknown_pool
from .layout import Layout
from .rules import EASY, EMPTY_TOP, Rules
from .solver import MOVE_DRAW, Solver

N_POOL = JOKER_RANK + 1


class TooLargeError(InputError):
    """The position has too many states (or stock orders) for an exact answer."""


@dataclass(frozen=True)
class ExactValue:
    """An exact win probability, overall and after each legal move (best first)."""

    value: float
    moves: tuple[tuple[str, float], ...]
    states: int

    @property
    def best_move(self) -> Optional[str]:
        return self.moves[0][0] if self.moves else None


def fair_value(
    layout: Layout,
    rules: Optional[Rules] = None,
    played: Iterable[int] = (),
    max_states: int = 2_000_000,
    memo: Optional[dict] = None,
) -> ExactValue:
    """The exact win probability of the best player who cannot see the stock order.

    Unknown stock places are filled uniformly from the unseen cards (less ``played``):
    each draw of an unknown place turns any card of the remaining pool with equal
    probability. Raises :class:`TooLargeError` past ``max_states`` new memoised states.
    ``memo`` (a dict kept by the caller) carries the memoised values to the next call
    with the same rules: consecutive decisions of one game share most of their states.
    """
    rules = rules or layout.rules or EASY
    _, pool_cards = unknown_pool(layout, rules, played)
    fits = [[rules.fits(t, c) for c in range(N_POOL)] for t in range(EMPTY_TOP + 1)]
    any_time = rules.draw_any_time
    memo = {} if memo is None else memo
    limit = len(memo) + max_states

    def value(cols: tuple, top: int, stock: tuple, pool: tuple) -> float:
        if not any(cols):
            return 1.0
        key = (tuple(sorted(cols)), top, stock, pool)
        got = memo.get(key)
        if got is not None:
            return got
        if len(memo) >= limit:
            raise TooLargeError(f"more than {max_states:,} states: too large for the exact fair value")
        best = 0.0
        removes = [i for i, c in enumerate(cols) if c and fits[top][c[-1]]]
        for i in removes:
            c = cols[i]
            v = value(cols[:i] + (c[:-1],) + cols[i + 1:], c[-1], stock, pool)
            if v > best:
                best = v
                if best >= 1.0:
                    break
        if best < 1.0 and stock and (any_time or not removes):
            best = max(best, draw_value(cols, stock, pool))
        memo[key] = best
        return best

    def draw_value(cols: tuple, stock: tuple, pool: tuple) -> float:
        nxt, rest = stock[0], stock[1:]
        if nxt is not None:
            return value(cols, nxt, rest, pool)
        total = sum(pool)
        acc = 0.0
        for r, k in enumerate(pool):
            if k:
                less = pool[:r] + (k - 1,) + pool[r + 1:]
                acc += k * value(cols, r, rest, less)
        return acc / total

    counts = [0] * N_POOL
    for c in pool_cards:
        counts[rank_of(c)] += 1
    cols0 = tuple(tuple(rank_of(c) for c in col) for col in layout.columns)
    stock0 = tuple(None if c is None else rank_of(c) for c in layout.stock)
    pool0 = tuple(counts)
    out = []
    for m in _legal_moves(layout, rules):
        if m == MOVE_DRAW:
            v = draw_value(cols0, stock0, pool0)
        else:
            i = int(m) - 1
            c = cols0[i]
            v = value(cols0[:i] + (c[:-1],) + cols0[i + 1:], c[-1], stock0, pool0)
        out.append((m, v))
    out.sort(key=lambda mv: (-mv[1], mv[0] == MOVE_DRAW, mv[0]))
    overall = 1.0 if layout.tableau_count == 0 else (out[0][1] if out else 0.0)
    return ExactValue(overall, tuple(out), len(memo) - limit + max_states)


def clairvoyant_value(
    layout: Layout,
    rules: Optional[Rules] = None,
    played: Iterable[int] = (),
    solver: Optional[Solver] = None,
    max_orders: int = 200_000,
) -> ExactValue:
    """The exact chance that the position is winnable, over every possible stock order.

    Each order is solved exactly with the whole stock visible (what :func:`odds
    <golfsolve.solitaire.fair.odds>` estimates by sampling). Per move: the chance the
    position after it is winnable. Raises :class:`TooLargeError` past ``max_orders``.
    """
    from .fair import _child, _with_stock

    rules = rules or layout.rules or EASY
    positions, pool = unknown_pool(layout, rules, played)
    n = arrangements(len(pool), len(positions))
    if n > max_orders:
        raise TooLargeError(f"{n:,} stock orders: more than {max_orders:,} for the exact clairvoyant value")
    solver = solver or Solver()
    moves = _legal_moves(layout, rules)
    won = 0
    per_move = {m: 0 for m in moves}
    for p in permutations(pool, len(positions)):
        st = _fill(layout, positions, p)
        if solver.solve(_with_stock(layout, st), rules).outcome != "won":
            continue  # lost before any move, so lost after every move
        won += 1
        for m in moves:
            child = _child(layout, st, m)
            if child.tableau_count == 0 or solver.solve(child, rules).outcome == "won":
                per_move[m] += 1
    vals = sorted(((m, per_move[m] / n) for m in moves), key=lambda mv: (-mv[1], mv[0] == MOVE_DRAW, mv[0]))
    return ExactValue(won / n, tuple(vals), n)


__all__ = ["fair_value", "clairvoyant_value", "ExactValue", "TooLargeError"]
