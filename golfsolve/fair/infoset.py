"""Information-set search for fair play: choose what to do before the next blind draw.

Between two draws a Golf player has full information: the table and the discard's top
are visible, and removes reveal nothing. The only hidden event is the next stock card.
So a fair decision is really the choice of a *pre-draw state*: the position reached by a
chain of removes (possibly none) right before the next draw. This module values every
pre-draw state reachable from a position on sampled stock orders consistent with what
the player has seen, as "after this chain and a draw of the sample's next card, is the
position still winnable?" (each sample solved exactly from there on).

Why chains and not single moves: valuing a single remove by "a win still exists for this
sample" lets the solver choose the rest of the chain knowing the next card ("strategy
fusion"), so in Easy nearly every remove keeps a win in every sample and the value cannot
tell them apart. Committing to the whole chain before the blind draw removes that fusion
for the current decision; play after the draw is still valued clairvoyantly, so the
value remains an upper bound on the fair value of the state, but a much tighter one.

Work shared between samples: each sampled order's root position is solved once; a
sample in which the root is lost is lost for every state (a remove cannot make a lost
position winnable). With draw-any-time rules one compiled search per order
(:mod:`golfsolve.solitaire.orderhunt`) then decides every state asked for on it, sharing what
it proves lost or won between them (and with the next search of the same order, when its
tables are decided in several); orders added to tell a few states apart skip the
root's search (a lost root makes every state lost, so it cannot tell them apart, and
searching it first saves the states' searches less than it costs). Otherwise the state on
the solver's own winning line is credited without a solve, and candidates are valued most
promising first with branch and bound, one solve each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Iterable, Mapping, Optional, Sequence

import numpy as np

from ..cards import RANK_OF, rank_of
from ..solitaire import compiling, packing
from ..solitaire.layout import Layout, trusted_layout
from ..solitaire.rules import EMPTY_TOP, Rules
from ..solitaire.solver import MOVE_DRAW, Solver, ensure_kernels, pack


@dataclass(frozen=True)
class PreDraw:
    """A position reachable from the root by removes only, where the player may draw next.

    ``chain`` is one sequence of removes that reaches it from the root ('1'..'7');
    ``first`` maps every root move that can start a chain to it to one such chain ('d' to
    ``()`` for the root itself: draw at once). A move's plan is its own chain: ``chain``
    may start with another move that reaches the same state.
    """

    key: tuple
    columns: tuple[tuple[int, ...], ...]
    discard: Optional[int]
    chain: tuple[str, ...]
    first: Mapping[str, tuple[str, ...]] = field(compare=False)

    @cached_property
    def table(self) -> int:
        """The number of cards on the table (asked for often: computed once)."""
        return sum(len(c) for c in self.columns)


def _top_rank(card: Optional[int]) -> int:
    return EMPTY_TOP if card is None else rank_of(card)


def _removes(columns: tuple[tuple[int, ...], ...], discard: Optional[int], rules: Rules) -> list[int]:
    t = _top_rank(discard)
    return [i for i, col in enumerate(columns) if col and rules.fits(t, rank_of(col[-1]))]


def _key_of(cols: tuple, top: Optional[int]) -> tuple:
    return (tuple(len(c) for c in cols), top)


def predraw_states(layout: Layout, rules: Rules) -> list[PreDraw]:
    """Every pre-draw state reachable from ``layout`` by removes only, the root first.

    With draw-only-when-stuck rules only states without a remove count (the player may
    not draw before). A state whose table is empty is included: reaching it wins.
    """
    states: dict[tuple, list] = {}

    def reach(cols: tuple, top: Optional[int], chain: tuple, first: str, seen: set) -> None:
        # one search per root move, so that every state records every move that can start a chain to it
        stack = [(cols, top, chain)]
        while stack:
            cols, top, chain = stack.pop()
            k = _key_of(cols, top)
            if k in seen:
                continue
            seen.add(k)
            if k not in states:
                states[k] = [cols, top, chain, {}]
            states[k][3].setdefault(first, chain)
            for i in _removes(cols, top, rules):
                col = cols[i]
                stack.append((cols[:i] + (col[:-1],) + cols[i + 1:], col[-1], chain + (str(i + 1),)))

    root_key = _key_of(layout.columns, layout.discard)
    states[root_key] = [layout.columns, layout.discard, (), {MOVE_DRAW: ()}]
    for i in _removes(layout.columns, layout.discard, rules):
        col = layout.columns[i]
        reach(layout.columns[:i] + (col[:-1],) + layout.columns[i + 1:], col[-1], (str(i + 1),), str(i + 1),
              {root_key})
    out = []
    for k, (cols, top, chain, first) in states.items():
        if not rules.draw_any_time and any(cols) and _removes(cols, top, rules) and layout.stock:
            continue  # the player may not draw here, so it is not a place to stop
        out.append(PreDraw(k, cols, top, chain, MappingProxyType(first)))
    return out


def fewest_cards(states: Iterable[PreDraw]) -> list[PreDraw]:
    """One state per table (the least chain), fewest cards on the table first."""
    reps: dict[tuple, PreDraw] = {}
    for st in sorted(states, key=lambda st: (st.table, st.chain)):
        reps.setdefault(st.key[0], st)
    return list(reps.values())


class ChainValues:
    """Values of pre-draw states over a growing list of sampled stock orders.

    ``count(state)`` is the number of samples in which committing to ``state`` and then
    drawing keeps a winnable position; a state with an empty table counts every sample,
    one with an empty stock and cards left none.
    """

    def __init__(self, layout: Layout, rules: Rules, states: Sequence[PreDraw], solver: Solver) -> None:
        self.layout, self.rules, self.solver = layout, rules, solver
        self.states = list(states)
        self.by_key = {s.key: s for s in self.states}
        self.stocks: list[tuple[int, ...]] = []
        self.root_won: list[Optional[bool]] = []  # None: the root was not searched (and no state is known won)
        self.credit: list[Optional[tuple]] = []  # per sample: the table of its winning line's pre-draw state
        self.solves = 0
        self.nodes = 0  # states the solver searched: the work, in a unit that does not depend on the machine
        self._cache: dict[tuple[int, tuple], bool] = {}
        # draw-any-time rules: each order's root and states decided in one compiled search
        self.per_order = rules.draw_any_time
        self._tables = list(dict.fromkeys(s.key[0] for s in self.states if s.table))
        self._packed: Optional[tuple] = None  # the root's columns, heights and top, the rules' arrays
        # per order: the entries its searches proved (rows, words), for its next search
        self._proved: dict[int, tuple] = {}

    def extend(self, stocks: Sequence[tuple[int, ...]], states: Optional[Sequence[PreDraw]] = None,
               root: bool = True) -> None:
        """Add sampled orders: solve the root once per order. With draw-any-time rules the
        same search decides ``states`` (all by default) on each order, and without ``root``
        only they are searched (the root is then known only when one of them is won); else
        the state on the root's winning line is credited."""
        if self.per_order:
            tables = self._tables if states is None else self._tables_of(states)
            for st in stocks:
                self.stocks.append(st)
                self.credit.append(None)
                self.root_won.append(None)
                if tables or root:
                    self._decide(len(self.stocks) - 1, tables, root)
            return
        for st in stocks:
            self.stocks.append(st)
            # verdict only: a lost root needs no search for its fewest cards left, a won one keeps its line
            sol = self.solver.solve(trusted_layout(self.layout.columns, self.layout.discard, tuple(st), self.layout.rules),
                                    self.rules, verdict_only=True)
            self.solves += 1
            self.nodes += sol.nodes
            won = sol.outcome == "won"
            self.root_won.append(won)
            self.credit.append(self._line_state(sol.moves) if won else None)

    def _line_state(self, moves: Sequence[str]) -> Optional[tuple]:
        cols = self.layout.columns
        for m in moves:
            if m == MOVE_DRAW:
                break
            i = int(m) - 1
            cols = cols[:i] + (cols[i][:-1],) + cols[i + 1:]
        return tuple(len(c) for c in cols)  # the table only: the draw covers the top

    def known(self, i: int, s: PreDraw) -> Optional[bool]:
        """:meth:`won` when it needs no solve (already solved, or settled without one), else None."""
        if s.table == 0:
            return True
        if self.root_won[i] is False or not self.stocks[i]:
            return False
        if self.credit[i] == s.key[0]:
            return True
        return self._cache.get((i, s.key[0]))

    def won(self, i: int, s: PreDraw) -> bool:
        """Is sample ``i`` still winnable after committing to ``s`` and drawing?"""
        got = self.known(i, s)
        if got is None and self.per_order:
            # every table of the order not decided yet, in one search (they share its work)
            self._decide(i, [t for t in self._tables if (i, t) not in self._cache], False)
            got = self._cache[(i, s.key[0])]
        if got is None:
            st = self.stocks[i]
            # the draw covers the discard's top: states with the same table have the same child
            key = (i, s.key[0])
            child = trusted_layout(s.columns, st[0], tuple(st[1:]), self.layout.rules)
            if child.tableau_count == 0:
                got = True
            else:
                self.solves += 1
                sol = self.solver.solve(child, self.rules, verdict_only=True)
                self.nodes += sol.nodes
                got = sol.outcome == "won"
            self._cache[key] = got
        return got

    def _tables_of(self, states: Sequence[PreDraw]) -> list[tuple]:
        return list(dict.fromkeys(s.key[0] for s in states if s.table))

    def decide(self, i: int, states: Sequence[PreDraw]) -> None:
        """Decide ``states`` on order ``i``, those not known yet: in one search with draw-any-time
        rules, else one solve each."""
        if not self.per_order:
            for s in states:
                self.won(i, s)
            return
        todo = [t for t in self._tables_of(states) if (i, t) not in self._cache]
        if todo and self.root_won[i] is not False:
            self._decide(i, todo, False)

    def _decide(self, i: int, tables: Sequence[tuple], root: bool) -> None:
        """Decide ``tables`` after one draw on order ``i`` in one compiled search (results in
        the cache), with ``root`` the root first (a lost root decides every table lost)."""
        ensure_kernels(("hunt",))
        st = self.stocks[i]
        if self._packed is None:
            p = pack(trusted_layout(self.layout.columns, self.layout.discard, tuple(st), self.layout.rules))
            fits = self.rules.fits_table()
            self._packed = (p.cols, p.heights, np.int64(p.top), fits, packing.rank_links(fits))
        cols, heights, top, fits, links = self._packed
        arr = np.array(tables, dtype=np.int8).reshape(len(tables), packing.N_COLS)
        out = np.zeros(len(tables), dtype=np.int8)
        # what earlier searches of this order proved serves this one; kept for a later one
        # unless this one decides every table still open on the order
        kept = self._proved.pop(i, _NOTHING_PROVED)
        keep = len(tables) < sum(1 for t in self._tables if (i, t) not in self._cache)
        won, nodes, *kept = compiling.function("order_verdicts")(cols, heights, RANK_OF[np.array(st, dtype=np.int64)],
                                                                 top, fits, links, arr, out, *_work(), root, *kept,
                                                                 keep)
        if keep:
            self._proved[i] = tuple(kept)
        self.solves += 1
        self.nodes += int(nodes)
        verdicts = out.tolist()
        for t, v in zip(tables, verdicts):
            self._cache[(i, t)] = bool(v)
        if won >= 0:
            self.root_won[i] = bool(won)
        elif any(verdicts):
            self.root_won[i] = True  # a state it reaches by removes is won

    def _credit_count(self, s: PreDraw, idx: Sequence[int]) -> int:
        if s.table == 0:
            return len(idx)
        return sum(1 for i in idx if self.credit[i] == s.key[0])

    def best_of(self, states: Sequence[PreDraw], idx: Optional[Sequence[int]] = None,
                floor: int = -1) -> tuple[Optional[PreDraw], int, list[PreDraw]]:
        """``(best, count, tied)`` over samples ``idx`` (all by default), by branch and bound.

        A state is dropped as soon as it cannot reach the best count so far, so the count
        of every state in ``tied`` is exact and equal to ``count``; the others are only
        known to be lower. States are tried most credited first. ``floor`` prunes states
        that cannot exceed it (None is returned when none does).
        """
        idx = list(range(len(self.stocks))) if idx is None else list(idx)
        live = [i for i in idx if self.root_won[i] is not False]
        order = sorted(states, key=lambda s: (-self._credit_count(s, idx), s.table, s.chain))
        best, best_n, tied = None, floor, []
        for s in order:
            n = self._count_reaching(s, idx, live, best_n)
            if n is None:
                continue
            if n > best_n:
                best, best_n, tied = s, n, [s]
            elif n == best_n and best is not None:
                tied.append(s)
        return best, max(best_n, 0), tied

    def _count_reaching(self, s: PreDraw, idx: Sequence[int], live: Sequence[int], floor: int) -> Optional[int]:
        # the orders of idx in which s is won, or None as soon as it cannot reach floor (the
        # orders whose root is lost are lost after any chain, so only the live ones are solved)
        if s.table == 0:
            return len(idx)
        n, remaining = 0, len(live)
        for i in live:
            remaining -= 1
            n += self.won(i, s)
            if n + remaining < floor:
                return None
        return n if n >= floor else None

    def _tally(self, reps: Sequence[PreDraw], orders: Sequence[int],
               base: Optional[dict] = None) -> tuple[dict[tuple, int], dict[tuple, set]]:
        """Per table of ``reps``: the orders of ``orders`` known won (plus ``base`` of the
        table), and the orders it is not decided on yet."""
        won = {st.key[0]: (base or {}).get(st.key[0], 0) for st in reps}
        todo: dict[tuple, set] = {}
        for st in reps:
            t = st.key[0]
            todo[t] = set()
            for i in orders:
                got = self.known(i, st)
                if got is None:
                    todo[t].add(i)
                else:
                    won[t] += got
        return won, todo

    def leaders(self, reps: Sequence[PreDraw], orders: Iterable[int], scout: int) -> tuple[list[PreDraw], int]:
        """The states of ``reps`` (one per table) that win the most of ``orders``, and that
        number: what :meth:`best_of` ties, exactly, by branch and bound over tables.

        A table is decided on an order (in one search with the others of that order, without
        the root's: searching it first saves less than it costs) only while it can still
        reach the most orders won so far. Every such table is decided on the first ``scout``
        orders; on the others the leaders so far first (the tables decided on every earlier
        order with the most won), so that the rest, decided last, are given up as soon as
        they fall short.
        """
        orders = list(orders)
        won, todo = self._tally(reps, orders)
        for idx, leading in ((orders[:scout], False), (orders[scout:], True), (orders[scout:], False)):
            for i in idx:
                best = max(won.values(), default=0)
                here = [st for st in reps if i in todo[st.key[0]] and won[st.key[0]] + len(todo[st.key[0]]) >= best]
                if leading:
                    here = [st for st in here if not any(j < i for j in todo[st.key[0]])]
                    most = max((won[st.key[0]] for st in here), default=0)
                    here = [st for st in here if won[st.key[0]] == most]
                if not here:
                    continue
                self.decide(i, here)
                for st in here:
                    won[st.key[0]] += bool(self.known(i, st))
                    todo[st.key[0]].discard(i)
        best = max(won.values(), default=0)
        return [st for st in reps if not todo[st.key[0]] and won[st.key[0]] == best], best

    def top(self, reps: Sequence[PreDraw], orders: Iterable[int], k: int, base: Optional[dict] = None,
            totals: bool = True) -> list[tuple[PreDraw, int]]:
        """The first ``k`` of ``reps`` (one state per table) ranked by (most orders of
        ``orders`` won plus ``base`` of its table, fewest cards, chain), with their totals.

        By branch and bound over tables: a state is decided on an order (in one search with
        the others still in play, :meth:`decide`) only while it can still be among the first
        ``k``, and given up once ``k`` others surely rank before it (what they have won so far
        beats all it can still win); the states decided already cost nothing. Without
        ``totals`` only which states are first counts: the search stops once no more than
        ``k`` are left in play (the totals it gives are then lower bounds).
        """
        orders = list(orders)
        won, todo = self._tally(reps, orders, base)

        def sure(st: PreDraw) -> tuple:  # st ranks at least this well
            return (-won[st.key[0]], st.table, st.chain)

        def reach(st: PreDraw) -> tuple:  # st ranks at best this well
            return (-won[st.key[0]] - len(todo[st.key[0]]), st.table, st.chain)

        def prune(alive: list[PreDraw]) -> list[PreDraw]:
            if len(reps) <= k:
                return alive
            bar = sorted(sure(st) for st in reps)[k - 1]
            return [st for st in alive if reach(st) <= bar]

        alive = prune([st for st in reps if todo[st.key[0]]])
        out = {st.key[0] for st in reps if todo[st.key[0]]} - {st.key[0] for st in alive}  # given up
        for i in orders:
            if not alive or (not totals and len(reps) - len(out) <= k):
                break
            here = [st for st in alive if i in todo[st.key[0]]]
            if not here:
                continue
            self.decide(i, here)
            for st in here:
                won[st.key[0]] += self.known(i, st)
                todo[st.key[0]].discard(i)
            kept = prune([st for st in alive if todo[st.key[0]]])
            out |= {st.key[0] for st in alive if todo[st.key[0]]} - {st.key[0] for st in kept}
            alive = kept
        ranked = sorted((st for st in reps if st.key[0] not in out), key=sure)[:k]
        return [(st, won[st.key[0]]) for st in ranked]


_WORK: Optional[tuple] = None
_NOTHING_PROVED = (np.zeros(0, dtype=np.int64), np.zeros((0, 2), dtype=np.uint64))


def _work() -> tuple:
    """:func:`~golfsolve.solitaire.orderhunt.order_verdicts`' work tables (about 6 MB, and a
    log of up to 12 MB of which a search writes only what it records), made once per
    process; every call leaves them clean."""
    global _WORK
    if _WORK is None:
        n = packing.N_HEIGHT_INDEX
        # The log holds one search's recorded states: a won search that records more keeps
        # none of the states it proved lost, and the later tables of its order search them
        # again (with 2**16 entries the order searches of GO1-E-AAAAAAE's odds searched 9%
        # more states; 2**20 and 2**22 the same: never filled). Pages nothing writes are
        # never touched.
        _WORK = (np.full((n, 2 * packing.SLOTS), packing.EMPTY_SLOT, dtype=np.uint16), np.zeros(n, dtype=np.uint8),
                 np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int32), np.zeros(_LOG, dtype=np.int32),
                 np.zeros(_LOG, dtype=np.uint16))
    return _WORK


_LOG = 1 << 21


__all__ = ["PreDraw", "predraw_states", "fewest_cards", "ChainValues"]
