"""The search fair player: information-set search before every blind draw.

At each point where it may draw, the player knows the table, the discard pile (so which
cards may still be in the stock) and the stock cards already turned, nothing else. It
picks the pre-draw state (:mod:`golfsolve.solitaire.infoset`) that keeps a win in the
most sampled stock orders, plays the chain of removes that reaches it, and draws. Ties
after the first ``samples`` orders are raced on ``extra`` more orders; remaining ties
go to the state with fewer cards on the table. With ``deep`` (off by default), states
within ``deep_margin`` orders of the best are first valued two fair steps deep
(:mod:`golfsolve.solitaire.twostep`) when at least ``deep_unknown`` stock cards are
unknown, and only the best of them go on to the race. When few cards are unknown it switches
to the exact expectimax (:func:`~golfsolve.solitaire.expectimax.fair_value`), whose memo
is kept for the rest of the game; if that ever passes ``EXACT_STATES`` new states, it
samples for the rest of the game instead.

:func:`play_search` plays a deal whose real stock the referee knows; the player never
sees it (the view it decides on has the stock forgotten, with the drawn cards known).
"""

from __future__ import annotations

import random
import time
from itertools import permutations
from typing import Iterable, Optional

from ..errors import InputError
from .engine import Game
from .expectimax import TooLargeError, fair_value
from .fair import FairGame, _fill, arrangements, sample_stocks, unknown_pool
from .infoset import ChainValues, PreDraw, predraw_states
from .layout import Layout
from .rules import EASY, Rules
from .solver import MOVE_DRAW, Solver
from .twostep import TwoStep

#: Expectimax is tried when at most this many stock cards are unknown ...
EXACT_UNKNOWN = 6
#: ... and given up (falling back to sampling) past this many new memoised states.
EXACT_STATES = 40_000


class SearchPlayer:
    """A fair player's memory across the decisions of one game (reused work lives here).

    Two fair steps (off when ``deep`` is 0): with at least ``deep_unknown`` unknown stock
    cards (and at most ``deep_max_unknown``: the openings, where it costs most), the states
    within ``deep_margin`` orders of the best on the first ``samples``
    orders (at most ``deep_top`` of them, most orders first) are valued by
    :class:`~golfsolve.solitaire.twostep.TwoStep` with ``deep`` orders per rank of the
    next card; only the best of them are raced. A negative ``deep_margin`` values only the
    states still tied after the race instead.
    """

    def __init__(self, rules: Rules, samples: int = 16, extra: int = 16, seed: int | str = 0,
                 solver: Optional[Solver] = None, exact: bool = True, deep: int = 0, deep_top: int = 6,
                 deep_unknown: int = 7, deep_margin: int = -1, deep_max_unknown: int = 52) -> None:
        if samples < 1 or extra < 0 or deep < 0 or deep_top < 1:
            raise InputError("samples and deep_top must be at least 1, extra and deep samples at least 0")
        self.rules, self.samples, self.extra, self.exact = rules, samples, extra, exact
        # two fair steps (twostep.TwoStep) for states still tied, when at least deep_unknown cards are unknown
        # deep_margin < 0: only states still tied after the race; else every state within that many
        # orders of the best on the first samples, before the race
        self.deep, self.deep_top, self.deep_unknown = deep, deep_top, deep_unknown
        self.deep_margin, self.deep_max_unknown = deep_margin, deep_max_unknown
        self.rng = random.Random(seed)
        self.solver = solver or Solver()
        self.solves = 0
        self.exact_memo: dict = {}
        self._exact_failed = False

    def _orders(self, view: Layout, gone: tuple[int, ...], n: int) -> tuple[list[tuple[int, ...]], bool]:
        positions, pool = unknown_pool(view, self.rules, gone)
        if arrangements(len(pool), len(positions)) <= n:
            return [_fill(view, positions, p) for p in permutations(pool, len(positions))], True
        return sample_stocks(view, self.rng, n, self.rules, gone), False

    def exact_move(self, view: Layout, gone: tuple[int, ...]) -> Optional[tuple[str, float]]:
        """The best move by exact expectimax, or None when the position is too large for it."""
        if not self.exact or self._exact_failed:
            return None
        unknown = sum(1 for c in view.stock if c is None)
        if unknown > EXACT_UNKNOWN:
            return None
        try:
            ev = fair_value(view, self.rules, gone, max_states=EXACT_STATES, memo=self.exact_memo)
        except TooLargeError:
            # not tried again in this game: the next decision would pay nearly the same again
            self._exact_failed = True
            self.exact_memo.clear()
            return None
        if not ev.moves:
            return None
        return ev.moves[0]

    def choose(self, view: Layout, gone: tuple[int, ...]) -> tuple[PreDraw, ChainValues]:
        """The pre-draw state to play to (then draw), and the values it was chosen on."""
        states = predraw_states(view, self.rules)
        cv = ChainValues(view, self.rules, states, self.solver)
        stocks, exact = self._orders(view, gone, self.samples)
        cv.extend(stocks)
        best, n, tied = cv.best_of(states)
        unknown = sum(1 for c in view.stock if c is None)
        deep = bool(self.deep) and not exact and any(cv.root_won) \
            and self.deep_unknown <= unknown <= self.deep_max_unknown
        if deep and self.deep_margin >= 0:
            near = self._near_best(cv, states, n)
            if len(near) > 1:
                tied = self._deep_ties(view, gone, near)
                best = tied[0]
        if len(tied) > 1 and not exact and self.extra and any(cv.root_won):
            # race the tied states on fresh orders; only they are valued there
            first = len(cv.stocks)
            cv.extend(sample_stocks(view, self.rng, self.extra, self.rules, gone))
            best, _, tied = cv.best_of(tied, range(first, len(cv.stocks)))
        if len(tied) > 1 and deep and self.deep_margin < 0:
            tied = self._deep_ties(view, gone, sorted(tied, key=lambda s: (s.table, s.chain)))
        if len(tied) > 1:
            best = min(tied, key=lambda s: (s.table, s.chain))
        self.solves += cv.solves
        return best, cv

    def _near_best(self, cv: ChainValues, states: list[PreDraw], n: int) -> list[PreDraw]:
        """States within ``deep_margin`` orders of the best count ``n``, most orders first."""
        low = n - self.deep_margin
        live = [i for i in range(len(cv.stocks)) if cv.root_won[i]]
        got = []
        for s in states:
            if s.table == 0:
                got.append((len(cv.stocks), s))
                continue
            k, remaining = 0, len(live)
            for i in live:
                remaining -= 1
                k += cv.won(i, s)
                if k + remaining < low:
                    break
            if k >= low:
                got.append((k, s))
        got.sort(key=lambda ks: (-ks[0], ks[1].table, ks[1].chain))
        return [s for _, s in got]

    def _deep_ties(self, view: Layout, gone: tuple[int, ...], cands: list[PreDraw]) -> list[PreDraw]:
        """Of the first ``deep_top`` of ``cands`` (most promising first), those with the best two-step value."""
        cands = cands[: self.deep_top]
        ts = TwoStep(view, self.rules, gone, self.solver, self.rng, self.deep)
        best, _ = ts.best_of(cands)
        self.solves += ts.solves
        return best


def play_search(
    layout: Layout,
    rules: Optional[Rules] = None,
    samples: int = 16,
    extra: int = 16,
    seed: int | str = 0,
    solver: Optional[Solver] = None,
    played: Iterable[int] = (),
    referee: bool = True,
    deep: int = 0,
    deep_top: int = 6,
    deep_unknown: int = 7,
    deep_margin: int = -1,
    deep_max_unknown: int = 52,
) -> FairGame:
    """Play ``layout`` (stock known to the referee, hidden from the player) with the search player.

    ``played`` lists cards the player knows to be under the discard's top already. With
    ``referee`` the deal is first solved with its real stock; an unwinnable deal is not
    played out (the player's line is a line of the real deal, so it cannot win), and a
    game is stopped as lost at the first decision where the real position is lost.
    ``deep``, ``deep_top``, ``deep_unknown``, ``deep_margin``, ``deep_max_unknown``: see :class:`SearchPlayer`.
    """
    rules = rules or layout.rules or EASY
    if not layout.stock_known:
        raise InputError("the fair player needs the real stock order: give a deal code or a full layout")
    solver = solver or Solver()
    t0 = time.perf_counter()
    player = SearchPlayer(rules, samples, extra, seed, solver, deep=deep, deep_top=deep_top,
                          deep_unknown=deep_unknown, deep_margin=deep_margin,
                          deep_max_unknown=deep_max_unknown)
    solves = 0
    known = tuple(played)
    if referee:
        sol = solver.solve(layout, rules)
        solves += 1
        if sol.outcome != "won":
            return FairGame(False, False, sol.best_left, (), 0, False, 0, solves, time.perf_counter() - t0)
    game = Game(layout, rules)
    line: list[str] = []
    decisions = 0

    def lost(on_draw: bool) -> FairGame:
        return FairGame(False, True, 0, tuple(line), len(line), on_draw, decisions, solves + player.solves,
                        time.perf_counter() - t0)

    while not game.over:
        moves = game.legal_moves()
        view = game.to_layout().forget_stock(0)
        gone = known + tuple(game.pile[:-1])
        if len(moves) == 1:
            chain: tuple[str, ...] = (moves[0],)
        else:
            if referee and line:
                # the referee (not the player) stops a game whose real position is lost
                solves += 1
                if solver.solve(game.to_layout(), rules).outcome != "won":
                    return lost(line[-1] == MOVE_DRAW)
            decisions += 1
            ex = player.exact_move(view, gone)
            if ex is not None:
                chain = (ex[0],)
            else:
                best, _ = player.choose(view, gone)
                chain = best.chain + ((MOVE_DRAW,) if best.table and view.stock else ())
        for m in chain:
            res = game.play(m)
            assert res.ok, (m, res.message)
            line.append(m)
            if game.over:
                break
    if game.won:
        return FairGame(True, True, 0, tuple(line), None, False, decisions, solves + player.solves,
                        time.perf_counter() - t0)
    return lost(bool(line) and line[-1] == MOVE_DRAW)


__all__ = ["SearchPlayer", "play_search", "EXACT_UNKNOWN", "EXACT_STATES"]
