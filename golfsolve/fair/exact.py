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
from ..errors import MAX_INT64, InputError
from ..inputs import expect, is_whole_number, whole_count
from ..solitaire.layout import Layout, layout_arg, layout_rules
from ..solitaire.rules import EMPTY_TOP, Rules
from ..solitaire.solver import MOVE_DRAW, Solver, ensure_kernels, solver_arg
from .orders import arrangements, check_played, check_played_not_held, fill_stock, unknown_pool, with_stock
from .view import after_move, as_seen, legal_moves

N_POOL = JOKER_RANK + 1


#: The largest memo table a :class:`CompiledExpectimax` takes: 4,294,967,296 slots (48 GiB).
MAX_CAPACITY = 1 << 32


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
        """The move with the highest win probability (None where no move is legal)."""
        return self.moves[0][0] if self.moves else None


def fair_value(
    layout: Layout,
    rules: Optional[Rules] = None,
    played: Iterable[int] = (),
    max_states: int = 2_000_000,
    memo: Optional[dict] = None,
    seen: int = 0,
) -> ExactValue:
    """The exact win probability of the best player who cannot see the stock order.

    ``layout`` as its player sees it (:func:`_seen_only`: a whole stock order given is
    forgotten but for the first ``seen`` cards). Unknown stock places are filled uniformly
    from the unseen cards (less ``played``): each draw of an unknown place turns any card
    of the remaining pool with equal probability. Raises :class:`TooLargeError` past
    ``max_states`` new memoised states. ``memo`` (a dict kept by the caller) carries the
    memoised values to the next call with the same rules: consecutive decisions of one
    game share most of their states.
    """
    rules = layout_rules(layout, rules)  # rules by name would fail as an AttributeError
    max_states = whole_count(max_states, "max_states", 1, MAX_INT64)
    layout = _seen_only(layout, played, seen)
    positions, pool_cards = unknown_pool(layout, rules, played)
    # a whole deal's 16 unknown cards searched up to the cap for about 20 s: say what it is for
    too_many = (f" ({len(positions)} unknown stock cards: it is for endgames, at most about 8; "
                "golfsolve.fair.odds estimates the chance of a whole deal)" if len(positions) > 8 else "")
    fits = [[rules.fits(t, c) for c in range(N_POOL)] for t in range(EMPTY_TOP + 1)]
    any_time = rules.draw_any_time
    # a list or a DataFrame failed deep inside as "'list' object has no attribute 'get'"
    memo = {} if expect(memo, (dict, type(None)), "memo", "a dict kept between calls, or None") is None else memo
    limit = len(memo) + max_states

    def value(cols: tuple, top: int, stock: tuple, pool: tuple) -> float:
        if not any(cols):
            return 1.0
        key = (tuple(sorted(cols)), top, stock, pool)
        got = memo.get(key)
        if got is not None:
            return got
        if len(memo) >= limit:
            raise TooLargeError(f"more than {max_states:,} states: too large for the exact fair value{too_many}")
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
    for m in legal_moves(layout, rules):
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
    seen: int = 0,
) -> ExactValue:
    """The exact chance that the position is winnable, over every stock order consistent
    with what its player sees (:func:`_seen_only`, as :func:`fair_value`).

    Each order is solved exactly with the whole stock visible (what :func:`odds
    <golfsolve.fair.odds.odds>` estimates by sampling). Per move: the chance the
    position after it is winnable. Raises :class:`TooLargeError` past ``max_orders``.
    """
    rules = layout_rules(layout, rules)
    max_orders = whole_count(max_orders, "max_orders", 1, MAX_INT64)
    solver_arg(solver)
    layout = _seen_only(layout, played, seen)
    positions, pool = unknown_pool(layout, rules, played)
    n = arrangements(len(pool), len(positions))
    if n > max_orders:
        raise TooLargeError(f"{n:,} stock orders: more than {max_orders:,} for the exact clairvoyant value")
    solver = solver or Solver()
    moves = legal_moves(layout, rules)
    won = 0
    per_move = {m: 0 for m in moves}
    for p in permutations(pool, len(positions)):
        st = fill_stock(layout, positions, p)
        if solver.solve(with_stock(layout, st), rules).outcome != "won":
            continue  # lost before any move, so lost after every move
        won += 1
        for m in moves:
            child = after_move(layout, st, m)
            if child.tableau_count == 0 or solver.solve(child, rules).outcome == "won":
                per_move[m] += 1
    vals = sorted(((m, per_move[m] / n) for m in moves), key=lambda mv: (-mv[1], mv[0] == MOVE_DRAW, mv[0]))
    return ExactValue(won / n, tuple(vals), n)


def _seen_only(layout: Layout, played: Iterable[int], seen: int) -> Layout:
    """``layout`` as its player sees it, as every fair answer takes it (:func:`~.view.as_seen`):
    a whole stock order given (a deal code's layout) is the referee's, and only its first
    ``seen`` cards were seen; a view that knows every card takes ``seen`` its stock's length.
    Taken as seen, the real order made the values peek: twins got other "fair" values."""
    layout_arg(layout)
    # a played card the stock holds is named while the stock it was given is still there
    check_played_not_held(layout, check_played(played))
    return as_seen(layout, seen)


class CompiledExpectimax:
    """:func:`fair_value` by the compiled kernel (:mod:`golfsolve.solitaire.expectimax`,
    compiled ahead of time with the solver's kernels when it can be).

    One object serves the decisions of one game: its memo (a hash table of ``capacity``
    slots, at most half of them filled) is kept while each new position's columns are
    prefixes of the first one's and its stock a suffix of the first one's stock (a game only
    shortens both); another position starts it afresh, as does a call that could overfill
    it. Positions the kernel cannot pack (more than 7 columns, a column over 5 cards, a
    stock over 31) raise :class:`TooLargeError`, as does a call past ``max_states`` new states.
    """

    def __init__(self, rules: Rules, capacity: int = 1 << 22) -> None:
        import numpy as np

        expect(rules, Rules, "rules", "a Rules, e.g. get_rules('classic')")
        # the kernel hashes into the table with capacity - 1 as its mask: 0 would be a segmentation
        # fault, 1000 a table whose slots it never all probes
        if not is_whole_number(capacity) or not 2 <= capacity <= MAX_CAPACITY or capacity & (capacity - 1):
            raise InputError(f"capacity must be a power of two from 2 to {MAX_CAPACITY:,}, not {repr(capacity)[:40]}")
        capacity = int(capacity)
        self.rules = rules
        self._np = np
        self.keys = np.full(capacity, -1, dtype=np.int64)
        self.vals = np.zeros(capacity, dtype=np.float64)
        self.fits = rules.fits_table()
        self.stored = 0
        self._cols: Optional[tuple] = None  # the column ranks and stock the memo's keys refer to
        self._stock: tuple = ()

    def clear(self) -> None:
        """Forget every memoised state."""
        # the kernel counts every key it writes in stored: none since the last clear, and the
        # table is empty already (a game's player cleared its pooled table, then its first exact
        # position cleared it again: 8-32 MB written twice a game for nothing)
        if self.stored:
            self.keys.fill(-1)
        self.stored = 0
        self._cols = None

    def fair_value(self, layout: Layout, played: Iterable[int] = (), max_states: int = 2_000_000,
                   seen: int = 0) -> ExactValue:
        """The same answer as :func:`fair_value` for ``layout`` (the rules of this object)."""
        from ..solitaire import compiling
        from ..solitaire.packing import EXPECTIMAX_STOCK, MAX_HEIGHT, N_CARD_RANKS, N_COLS

        ensure_kernels(("hunt",))  # the expectimax kernels come with it
        draw_value, state_value = compiling.function("draw_value"), compiling.function("state_value")
        np = self._np
        rules = self.rules
        layout = _seen_only(layout, played, seen)
        _, pool_cards = unknown_pool(layout, rules, played)
        cols = tuple(tuple(rank_of(c) for c in col) for col in layout.columns)
        stock = tuple(-1 if c is None else rank_of(c) for c in layout.stock)
        if len(cols) > N_COLS or any(len(c) > MAX_HEIGHT for c in cols) or len(stock) > EXPECTIMAX_STOCK:
            raise TooLargeError("the position is too large for the compiled exact fair value")
        max_states = whole_count(max_states, "max_states", 1, MAX_INT64)
        half = self.keys.shape[0] // 2
        if not self._reusable(cols, stock) or self.stored + max_states > half:
            self.clear()
        # at most half the slots filled, whatever max_states asks: a full table would leave the
        # kernel probing for a free slot for ever
        limit = min(self.stored + max_states, half)
        if self._cols is None:
            self._cols, self._stock = cols, stock
        base_cols, base_stock = self._cols, self._stock
        arr = np.zeros((N_COLS, MAX_HEIGHT), dtype=np.int64)
        for i, c in enumerate(base_cols):
            arr[i, :len(c)] = c
        lens = np.zeros(N_COLS, dtype=np.int64)
        for i, c in enumerate(cols):
            lens[i] = len(c)
        st = np.array(base_stock, dtype=np.int64)
        si = len(base_stock) - len(stock)
        pool = np.zeros(N_CARD_RANKS, dtype=np.int64)
        for c in pool_cards:
            pool[rank_of(c)] += 1
        ptotal = int(pool.sum())
        table = layout.tableau_count
        meta = np.array([self.stored, limit, 0], dtype=np.int64)
        args = (self.fits, rules.draw_any_time, self.keys, self.vals, meta)
        start = self.stored
        out = []
        for m in legal_moves(layout, rules):
            if m == MOVE_DRAW:
                v = draw_value(arr, lens, table, st, si, pool, ptotal, *args)
            else:
                i = int(m) - 1
                h = lens[i]
                lens[i] = h - 1
                v = state_value(arr, lens, table - 1, arr[i, h - 1], st, si, pool, ptotal, *args)
                lens[i] = h
            self.stored = int(meta[0])
            if meta[2]:
                allowed = limit - start
                raise TooLargeError(f"more than {allowed:,} states: too large for the exact fair value"
                                    + ("" if allowed == max_states else
                                       f" (a table of {self.keys.shape[0]:,} slots holds {half:,})"))
            out.append((m, v))
        out.sort(key=lambda mv: (-mv[1], mv[0] == MOVE_DRAW, mv[0]))
        overall = 1.0 if table == 0 else (out[0][1] if out else 0.0)
        return ExactValue(overall, tuple(out), self.stored - start)

    def _reusable(self, cols: tuple, stock: tuple) -> bool:
        if self._cols is None or len(cols) != len(self._cols) or len(stock) > len(self._stock):
            return False
        if stock != self._stock[len(self._stock) - len(stock):]:
            return False
        return all(c == b[:len(c)] for c, b in zip(cols, self._cols))


__all__ = ["fair_value", "clairvoyant_value", "ExactValue", "TooLargeError", "CompiledExpectimax"]
