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

Two stronger settings, off by default (the fair hint, ``odds`` and ``rate`` keep the
cheaper player; :data:`STRONG_KNOBS` turns both on for batch runs):

* ``race_budget``: instead of racing exact ties only, every state within ``race_slack``
  orders of the best is raced on common orders added ``race_batch`` at a time, and
  dropped once the leader's lead in orders exceeds ``race_z`` times the square root of
  the orders where exactly one of the two wins, up to ``race_budget`` orders in all (:meth:`SearchPlayer._race`).
* ``compiled_exact``: the exact endgame by the compiled kernel
  (:class:`~golfsolve.solitaire.expectimax.CompiledExpectimax`), fast enough to start at
  ``exact_unknown`` = 8 unknown cards; a state cap hit is tried again two draws later.

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
from .expectimax import CompiledExpectimax, TooLargeError, fair_value
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
#: The strongest settings screened (see the commit that set them): a budgeted race and the
#: compiled exact endgame from 8 unknown cards. About 1.3x the CPU of the defaults.
STRONG_KNOBS = {"race_budget": 64, "compiled_exact": True, "exact_unknown": 8, "exact_states": 500_000}


class SearchPlayer:
    """A fair player's memory across the decisions of one game (reused work lives here).

    Two fair steps (off when ``deep`` is 0): with at least ``deep_unknown`` unknown stock
    cards (and at most ``deep_max_unknown``: the openings, where it costs most), the states
    within ``deep_margin`` orders of the best on the first ``samples``
    orders (at most ``deep_top`` of them, most orders first) are valued by
    :class:`~golfsolve.solitaire.twostep.TwoStep` with ``deep`` orders per rank of the
    next card; only the best of them are raced. A negative ``deep_margin`` values only the
    states still tied after the race instead. With ``race_budget`` the budgeted race
    decides alone (the two are not combined yet).
    """

    def __init__(self, rules: Rules, samples: int = 16, extra: int = 16, seed: int | str = 0,
                 solver: Optional[Solver] = None, exact: bool = True, race_budget: int = 0,
                 race_batch: int = 16, race_slack: int = 2, race_z: float = 1.5,
                 race_width: int = 6, race_settle: int = 0, exact_unknown: int = EXACT_UNKNOWN,
                 exact_states: int = EXACT_STATES, compiled_exact: bool = False, deep: int = 0, deep_top: int = 6,
                 deep_unknown: int = 7, deep_margin: int = -1, deep_max_unknown: int = 52) -> None:
        if samples < 1 or extra < 0:
            raise InputError("samples must be at least 1 and extra samples at least 0")
        if race_budget and (race_batch < 1 or race_slack < 0 or race_width < 2):
            raise InputError("race batch must be at least 1, slack at least 0 and width at least 2")
        if deep < 0 or deep_top < 1:
            raise InputError("deep samples must be at least 0 and deep_top at least 1")
        self.rules, self.samples, self.extra, self.exact = rules, samples, extra, exact
        self.race_budget, self.race_batch, self.race_slack = race_budget, race_batch, race_slack
        self.race_z, self.race_width, self.race_settle = race_z, race_width, race_settle
        self.exact_unknown, self.exact_states, self.compiled_exact = exact_unknown, exact_states, compiled_exact
        self._compiled: Optional[CompiledExpectimax] = None
        self._exact_failed_at = 0  # compiled: the unknown count where the state cap was last hit
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
        if unknown > self.exact_unknown:
            return None
        if self.compiled_exact:
            return self._compiled_move(view, gone, unknown)
        try:
            ev = fair_value(view, self.rules, gone, max_states=self.exact_states, memo=self.exact_memo)
        except TooLargeError:
            # not tried again in this game: the next decision would pay nearly the same again
            self._exact_failed = True
            self.exact_memo.clear()
            return None
        if not ev.moves:
            return None
        return ev.moves[0]

    def _compiled_move(self, view: Layout, gone: tuple[int, ...], unknown: int) -> Optional[tuple[str, float]]:
        # a cap hit with k unknown cards is tried again two draws later, not at once: the
        # next decision would pay nearly the same again, but two cards fewer is far smaller
        if self._exact_failed_at and unknown > self._exact_failed_at - 2:
            return None
        if self._compiled is None:
            cap = 1 << max(20, (4 * self.exact_states - 1).bit_length())
            self._compiled = CompiledExpectimax(self.rules, capacity=cap)
        try:
            ev = self._compiled.fair_value(view, gone, max_states=self.exact_states)
        except TooLargeError:
            self._exact_failed_at = unknown
            self._compiled.clear()
            return None
        return ev.moves[0] if ev.moves else None

    def choose(self, view: Layout, gone: tuple[int, ...]) -> tuple[PreDraw, ChainValues]:
        """The pre-draw state to play to (then draw), and the values it was chosen on."""
        states = predraw_states(view, self.rules)
        cv = ChainValues(view, self.rules, states, self.solver)
        stocks, exact = self._orders(view, gone, self.samples)
        cv.extend(stocks)
        if self.race_budget > len(cv.stocks) and not exact and any(cv.root_won):
            best = self._race(cv, states, view, gone)
            self.solves += cv.solves
            return best, cv
        best, n, tied = cv.best_of(states)
        unknown = sum(1 for c in view.stock if c is None)
        deep = bool(self.deep) and not exact and any(cv.root_won) \
            and self.deep_unknown <= unknown <= self.deep_max_unknown
        if deep and self.deep_margin >= 0:
            counts = cv.counts_near(states, slack=self.deep_margin)
            near = sorted(counts, key=lambda s: (-counts[s], s.table, s.chain))
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

    def _deep_ties(self, view: Layout, gone: tuple[int, ...], cands: list[PreDraw]) -> list[PreDraw]:
        """Of the first ``deep_top`` of ``cands`` (most promising first), those with the best two-step value."""
        cands = cands[: self.deep_top]
        ts = TwoStep(view, self.rules, gone, self.solver, self.rng, self.deep)
        best, _ = ts.best_of(cands)
        self.solves += ts.solves
        return best

    def _race(self, cv: ChainValues, states: list[PreDraw], view: Layout, gone: tuple[int, ...]) -> PreDraw:
        """A budgeted race: the states near the best get more orders until one leads clearly.

        Contenders are the states within ``race_slack`` orders of the best on the first
        orders (at most ``race_width`` of them, one per table: states with the same table
        have the same value on every order). Each round adds ``race_batch`` common orders,
        valued for the contenders only, and drops a state when the leader's lead over it
        exceeds ``race_z`` times the square root of the orders where exactly one of the
        two wins (a sign test), until one is left or ``race_budget`` orders are used.
        With ``race_settle``, it also stops once that many orders are used and the
        contenders have won exactly the same orders.
        """
        near = cv.counts_near(states, slack=self.race_slack)
        reps: dict[tuple, PreDraw] = {}
        for s in sorted(near, key=lambda s: (-near[s], s.table, s.chain)):
            reps.setdefault(s.key[0], s)
        cont = list(reps.values())[: self.race_width]
        if len(cont) == 1:
            return cont[0]
        wins = {s.key[0]: [cv.won(i, s) for i in range(len(cv.stocks))] for s in cont}
        while len(cont) > 1 and len(cv.stocks) < self.race_budget:
            first = len(cv.stocks)
            cv.extend(sample_stocks(view, self.rng, min(self.race_batch, self.race_budget - first),
                                    self.rules, gone))
            for s in cont:
                wins[s.key[0]].extend(cv.won(i, s) for i in range(first, len(cv.stocks)))
            lead = max(cont, key=lambda s: (sum(wins[s.key[0]]), -s.table))
            lw = wins[lead.key[0]]
            kept = []
            for s in cont:
                d = [a - b for a, b in zip(lw, wins[s.key[0]])]
                if s is lead or sum(d) <= self.race_z * sum(x * x for x in d) ** 0.5:
                    kept.append(s)
            cont = kept
            if self.race_settle and len(cv.stocks) >= self.race_settle and \
                    len({tuple(wins[s.key[0]]) for s in cont}) == 1:
                break  # no order tells the contenders apart yet: more are unlikely to pay
        return min(cont, key=lambda s: (-sum(wins[s.key[0]]), s.table, s.chain))


def play_search(
    layout: Layout,
    rules: Optional[Rules] = None,
    samples: int = 16,
    extra: int = 16,
    seed: int | str = 0,
    solver: Optional[Solver] = None,
    played: Iterable[int] = (),
    referee: bool = True,
    **knobs,
) -> FairGame:
    """Play ``layout`` (stock known to the referee, hidden from the player) with the search player.

    ``played`` lists cards the player knows to be under the discard's top already. With
    ``referee`` the deal is first solved with its real stock; an unwinnable deal is not
    played out (the player's line is a line of the real deal, so it cannot win), and a
    game is stopped as lost at the first decision where the real position is lost.
    ``knobs`` are further :class:`SearchPlayer` settings (the race, the exact endgame, two
    fair steps).
    """
    rules = rules or layout.rules or EASY
    if not layout.stock_known:
        raise InputError("the fair player needs the real stock order: give a deal code or a full layout")
    solver = solver or Solver()
    t0 = time.perf_counter()
    player = SearchPlayer(rules, samples, extra, seed, solver, **knobs)
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


__all__ = ["SearchPlayer", "play_search", "EXACT_UNKNOWN", "EXACT_STATES", "STRONG_KNOBS"]
