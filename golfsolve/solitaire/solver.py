"""The exact Golf solitaire solver: layouts in, verdicts and move lists out.

A thin layer over the compiled search in :mod:`golfsolve.solitaire.kernel`: it packs a
:class:`~golfsolve.solitaire.layout.Layout` into rank arrays, runs the search and wraps
the answer in a :class:`Solution`. The kernels come from
:func:`golfsolve.solitaire.compiling.function` (ahead-of-time compiled when the cache has
them, :mod:`.native`), so importing this module imports no numba; :func:`ensure_kernels`
and :func:`warm` load (or compile) them, with this module's warm-up solve.
"""

from __future__ import annotations

import threading
import time
import dataclasses
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Optional, Sequence

import numpy as np

from ..cards import JOKER_RANK, N_STANDARD, RANK_OF
from ..errors import MAX_INT64, InputError, shown
from ..inputs import expect, whole_count
from . import compiling, packing
from .dealcode import deal_deck
from .engine import parse_moves
from .layout import COLUMN_HEIGHT, N_COLUMNS, N_TABLEAU, Layout, layout_from_number, layout_rules
from .rules import EMPTY_TOP, Rules, get_rules


#: States each hunt (the search for a win, then for the fewest cards left) expands before its first
#: restart, then twice as many each time (:func:`.kernel.hunt`).
RESTART = 300


class StockUnknownError(ValueError):
    """The stock order is not fully known, so no exact answer exists."""


#: What :func:`pack`'s refusal advises (``rate`` gives its own advice in its place).
ODDS_INSTEAD = "so there is no exact answer; 'golfsolve odds' estimates the chance of winning instead"


MOVE_DRAW = "d"


_MOVE_NAMES = tuple(str(c + 1) for c in range(packing.N_COLS)) + (MOVE_DRAW,)
_CODE_OF = np.full(256, -1, dtype=np.int8)
_CODE_OF[[ord(name) for name in _MOVE_NAMES]] = np.arange(len(_MOVE_NAMES))


def _move_codes(moves: Sequence[str]) -> Optional[np.ndarray]:
    """Kernel move codes of a move list (as in :attr:`Solution.moves`); -1 for a name that
    is no move, None when some name is not one character."""
    codes = _CODE_OF[np.frombuffer("".join(moves).encode("latin-1", "replace"), dtype=np.uint8)]
    return codes if len(codes) == len(moves) else None


def app_score(cards_left: int) -> int:
    """The app score of a game that ends with ``cards_left`` on the table (no undo)."""
    cards_left = whole_count(cards_left, "cards_left", 0, N_TABLEAU)  # 2.5 scored 300.0, an array failed as "ambiguous"
    if cards_left == 0:
        return N_TABLEAU * 10
    removed = N_TABLEAU - cards_left
    return max(0, 10 * removed - 10 * cards_left)


@dataclass(frozen=True)
class Solution:
    """The solver's answer for one position.

    ``outcome`` is ``"won"``, ``"lost"`` or ``"unknown"`` (a node limit stopped the
    search; then ``best_left`` is only the best line found, not proven optimal).
    ``moves`` is a line of play reaching ``best_left`` cards left (a win when 0); a lost
    position's goes on to the game's end, the stock drawn out, where the app score is counted.
    A verdict-only solve of a lost deal leaves ``best_left`` (and the app score) None:
    the fewest cards left was not searched for.
    """

    outcome: str
    best_left: Optional[int]
    moves: tuple[str, ...]
    nodes: int
    # the clock is no part of the answer: two solves of one deal are equal answers
    seconds: float = field(compare=False)
    rules: Rules = field(compare=False)
    # what the search was asked: the answer records them, since both change it (a node limit can
    # make it "unknown", verdict-only leaves a lost deal's cards left unsearched), and a reader
    # holding only the JSON could not tell a limit-stopped line from a full search's otherwise
    node_limit: int = field(default=0, compare=False)
    verdict_only: bool = field(default=False, compare=False)

    @property
    def winnable(self) -> Optional[bool]:
        """Whether the deal can be won; None where the search stopped at its node limit."""
        return None if self.outcome == "unknown" else self.outcome == "won"

    @property
    def app_score(self) -> Optional[int]:
        """Best app score under perfect play (350 for a win); None when not searched."""
        return None if self.best_left is None else app_score(self.best_left)

    @property
    def traditional_score(self) -> Optional[int]:
        """Cards left on the table under perfect play (lower is better)."""
        return self.best_left

    def to_json(self) -> dict:
        """The solution as ``golfsolve solve --json`` prints it (after the deal's name)."""
        return {
            "outcome": self.outcome,
            "winnable": self.winnable,
            "best_cards_left": self.best_left,
            "best_app_score": self.app_score,
            "moves": " ".join(self.moves),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "rules": self.rules.name,
            "node_limit": self.node_limit,
            "verdict_only": self.verdict_only,
        }

    as_json = to_json  # the name golfsolve.fair's results use: either works


def _to_the_end(line: tuple[str, ...], p: "PackedPosition") -> tuple[str, ...]:
    """A lost position's best line played to the game's end: the search stops where the
    fewest cards are left, with stock cards maybe still to turn. None of them can fit (a
    remove would leave fewer), so drawing them all is legal under every rule set and locks
    the game, whose score is the app score the answer gives (cut short, a line of 'app score
    250' would replay to 'playing, score 300')."""
    left = len(p.stock) - line.count(MOVE_DRAW)
    return line + (MOVE_DRAW,) * left if left > 0 else line


@dataclass(frozen=True, eq=False)
class PackedPosition:
    """A position as the kernel reads it: rank arrays and small integers."""

    cols: np.ndarray  # (7, 5) int8 ranks, covered card first
    heights: np.ndarray  # (7,) int8
    stock: np.ndarray  # (n,) int8 ranks in drawing order
    top: int  # rank on the discard, EMPTY_TOP when empty
    #: the jokers among its cards when :func:`pack` or :func:`pack_number` made it (its arrays
    #: are then well formed); -1 for one made by hand, whose arrays each solve checks
    jokers: int = field(default=-1, compare=False, repr=False)

    # the generated == compared the arrays elementwise ("truth value of an array is ambiguous")
    # and hash failed on them: two positions are equal when their arrays and top are
    def _key(self) -> tuple:
        return tuple((a.dtype.str, a.shape, a.tobytes()) if isinstance(a, np.ndarray) else a
                     for a in (self.cols, self.heights, self.stock)) + (self.top,)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PackedPosition):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


def _check_packed(p: PackedPosition, rules: Rules) -> None:
    """An :class:`InputError` unless ``p`` is well formed (see :func:`_checked_jokers`; what
    :func:`pack` made is) and holds no more jokers than ``rules`` deal."""
    jokers = p.jokers if p.jokers >= 0 else _checked_jokers(p)
    if jokers > rules.jokers:  # a joker the rules do not deal: its rank has no row in their table
        raise InputError(f"the position holds {jokers} joker{'s' * (jokers > 1)} but rules {rules.name!r} deal "
                         f"{rules.jokers or 'no'} joker{'' if rules.jokers == 1 else 's'}")


def _checked_jokers(p: PackedPosition) -> int:
    """The jokers among a hand-made position's cards, once its arrays are found to be what
    the kernels read (else an :class:`InputError`): the kernels index by heights and ranks
    unchecked, so a height of 9 read past its column and a rank of 20 past the rules' table,
    and answered."""
    for name, a, shape in (("cols", p.cols, (N_COLUMNS, COLUMN_HEIGHT)), ("heights", p.heights, (N_COLUMNS,)),
                           ("stock", p.stock, None)):
        if not isinstance(a, np.ndarray) or a.dtype != np.int8 or (a.shape != shape if shape else a.ndim != 1):
            raise InputError(f"PackedPosition.{name} must be an int8 array of shape "
                             f"{shape or '(n,)'}, as pack() makes it")
    if p.heights.min(initial=0) < 0 or p.heights.max(initial=0) > COLUMN_HEIGHT:
        raise InputError(f"PackedPosition.heights must be from 0 to {COLUMN_HEIGHT}, not {p.heights.tolist()}")
    if len(p.stock) > N_STANDARD + 2 - N_TABLEAU:
        raise InputError(f"PackedPosition.stock holds {len(p.stock)} cards; a deal has at most "
                         f"{N_STANDARD + 2 - N_TABLEAU} beside its table")
    ranks = [p.stock] + [p.cols[c, :h] for c, h in enumerate(p.heights.tolist())]
    top = p.top
    if isinstance(top, (bool, np.bool_)) or not isinstance(top, (int, np.integer)) \
            or not (0 <= top <= JOKER_RANK or top == EMPTY_TOP):
        raise InputError(f"PackedPosition.top must be a rank from 0 to {JOKER_RANK} or EMPTY_TOP ({EMPTY_TOP}), "
                         f"not {repr(top)[:40]}")
    every = np.concatenate(ranks)
    if every.size and (every.min() < 0 or every.max() > JOKER_RANK):
        raise InputError(f"PackedPosition's ranks must be from 0 to {JOKER_RANK} (a joker), as pack() makes them")
    return int((every == JOKER_RANK).sum()) + (top == JOKER_RANK)


def pack(layout: Layout) -> PackedPosition:
    """Rank arrays of a layout whose stock is fully known, or whose table is cleared (won
    whatever the stock's order: its unknown cards are packed as Aces, never drawn)."""
    expect(layout, Layout, "layout", "a Layout, e.g. layout_from_code('GO1-E-AAAAAAB')")
    if not layout.stock_known and any(layout.columns):
        n_unknown = sum(1 for c in layout.stock if c is None)
        raise StockUnknownError(
            f"the stock order is unknown ({n_unknown} of {len(layout.stock)} stock cards), {ODDS_INSTEAD}"
        )
    cols = np.zeros((N_COLUMNS, COLUMN_HEIGHT), dtype=np.int8)
    heights = np.zeros(N_COLUMNS, dtype=np.int8)
    for c, col in enumerate(layout.columns):
        heights[c] = len(col)
        for i, card in enumerate(col):
            cols[c, i] = RANK_OF[card]
    stock = np.array([0 if c is None else RANK_OF[c] for c in layout.stock], dtype=np.int8)
    top = EMPTY_TOP if layout.discard is None else int(RANK_OF[layout.discard])
    cards = [*(c for col in layout.columns for c in col), *layout.stock, layout.discard]
    return PackedPosition(cols, heights, stock, top, sum(1 for c in cards if c is not None and c >= N_STANDARD))


def pack_number(number: int, rules: Rules) -> PackedPosition:
    """The packed position of GO1 deal ``number`` under ``rules``: what
    ``pack(layout_from_number(number, rules))`` gives, without building and checking a
    :class:`Layout` (100 against 250 µs here; the batch runner deals millions)."""
    expect(rules, Rules, "rules", "a Rules, e.g. get_rules('classic')")
    ranks = RANK_OF[deal_deck(number, rules.jokers)]
    # dealt row by row: deck[row * 7 + column]
    cols = ranks[:N_TABLEAU].reshape(COLUMN_HEIGHT, N_COLUMNS).T.copy()
    heights = np.full(N_COLUMNS, COLUMN_HEIGHT, dtype=np.int8)
    rest = ranks[N_TABLEAU:]
    if rules.empty_start:
        return PackedPosition(cols, heights, rest.copy(), EMPTY_TOP, rules.jokers)
    return PackedPosition(cols, heights, rest[1:].copy(), int(rest[0]), rules.jokers)


class LostStates:
    """States proven lost by earlier verdict-only solves, kept for the next solve of a
    position with the same columns (cards may be gone from their tops) and the same stock.

    Every state a hunt records while proving its root lost is lost (it is reachable from
    the root), and lost for any root with those cards: a later solve skips the states such
    a state dominates. Pass one to :meth:`Solver.solve` for each family of positions (in
    fair play: the positions right after the first draw of one sampled stock order).
    Draw-any-time rules only (the hunt's table); otherwise it is ignored. Solves that share
    one (from several threads) take turns with it: its rows and values change together.
    """

    def __init__(self) -> None:
        self.rows = np.zeros(0, dtype=np.int64)
        self.vals = np.zeros((0, packing.SLOTS), dtype=np.uint16)
        self._family: Optional[tuple[Rules, bytes, np.ndarray, np.ndarray]] = None
        self._busy = threading.Lock()

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_busy"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._busy = threading.Lock()

    def check_family(self, p: "PackedPosition", rules: Rules) -> None:
        """Refuse ``p`` unless it is of the family the states were found in (the first
        position given fixes it): the same rules and stock, each column the same cards up
        to the shorter of the two. Was: states of another deal were taken as lost there,
        and deals a fresh solve wins were answered 'lost'."""
        stock = p.stock.tobytes()
        if self._family is None:
            self._family = (rules, stock, p.cols.copy(), p.heights.copy())
            return
        have_rules, have_stock, cols, heights = self._family
        if rules != have_rules:
            what = "rules"
        elif stock != have_stock:
            what = "stock"
        else:
            shared = np.arange(cols.shape[1]) < np.minimum(heights, p.heights)[:, None]
            if np.array_equal(cols[shared], p.cols[shared]):
                taller = p.heights > heights  # the family's columns as far as any position showed them
                cols[taller], heights[taller] = p.cols[taller], p.heights[taller]
                return
            what = "columns"
        raise InputError(f"these lost states were found in positions of other {what}: a LostStates serves one "
                         "family of positions (the same rules and stock, columns that differ only by cards gone "
                         "from their ends); make a new LostStates for this one")


def _flag(value: object, what: str) -> bool:
    """``value`` as True or False if it is a bool (or a NumPy bool); a :class:`TypeError` for
    anything else ("no" is a true value to Python)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{what} must be True or False, not {type(value).__name__} {shown(value)}")
    return bool(value)


class Solver:
    """Holds the search's work tables so that many solves reuse them.

    Draw-any-time rules are solved by the depth-first hunt (it finds wins fast and is
    exact when it finishes); draw-when-stuck rules, which have no stock dominance, by
    the level search. ``level_search=True`` uses the level search for every rule set,
    an independent second algorithm the tests check the first against. ``bounds=False``
    turns the lower-bound pruning off (for measuring it; answers are the same).
    ``capacity``: the states one level search may record (the tables take about 14 bytes
    a state; the default holds every key).
    One solve at a time: a second thread that asks while one solves waits for it (use one
    Solver per thread or process to solve in parallel). Pickled, it is its settings only
    (a new Solver's tables, not 70 MB of scratch).
    """

    def __init__(self, level_search: bool = False, bounds: bool = True, capacity: int = packing.N_KEYS) -> None:
        # "no" is true to Python, capacity -1 or 2.5 fails in NumPy and 2**40 asks for 4 TiB
        self.level_search = _flag(level_search, "level_search")
        self.bounds = _flag(bounds, "bounds")
        capacity = whole_count(capacity, "capacity", 1, packing.N_KEYS)
        self._capacity = capacity
        # two threads solving with one Solver wrote into each other's tables and path: their
        # answers' lines were another deal's, without a word
        self._busy = threading.Lock()
        self._tables = packing.new_tables(capacity)
        self._path = np.zeros(packing.MAX_PATH, dtype=np.int8)
        self._keep = np.zeros(packing.MAX_PATH, dtype=np.int8)

    def __reduce__(self) -> tuple:
        return (Solver, (self.level_search, self.bounds, self._capacity))

    def solve(self, layout: Layout, rules: Optional[Rules] = None, node_limit: int = 0,
              verdict_only: bool = False, lost: Optional[LostStates] = None) -> Solution:
        """Solve a position exactly (or up to ``node_limit`` expanded states).

        ``verdict_only``: answer won/lost only; a lost position's ``best_left`` is None.
        ``lost``: states known lost in positions of this family (see :class:`LostStates`),
        used by a verdict-only solve without node limit and grown when it proves a loss.
        """
        if type(node_limit) is not int or not 0 <= node_limit <= MAX_INT64:
            # NaN, 2.5, -1 or 2**70 from a caller: one clear error, not numba's overflow
            node_limit = whole_count(node_limit, "node_limit", 0, MAX_INT64)
        rules = layout_rules(layout, rules)  # a Layout, and rules its cards fit
        if not isinstance(verdict_only, (bool, np.bool_)):  # "no" is true to Python
            raise TypeError(f"verdict_only must be True or False, not {type(verdict_only).__name__} "
                            f"{repr(verdict_only)[:40]}")
        expect(lost, (LostStates, type(None)), "lost", "a LostStates or None")
        p = pack(layout)
        return self.solve_packed(p, rules, node_limit, bool(verdict_only), lost=lost)

    def solve_packed(self, p: PackedPosition, rules: Rules, node_limit: int = 0,
                     verdict_only: bool = False, at_least: int = 0,
                     known_line: Optional[tuple[int, Sequence[str]]] = None,
                     lost: Optional[LostStates] = None) -> Solution:
        """Solve a packed position exactly (or up to ``node_limit`` states); see :meth:`solve`.

        ``at_least``: cards-left that no line can beat, known from elsewhere (e.g. the
        best under rules that allow every move these allow); the search stops on
        reaching it. Above 0 it says the position is lost, so only the cards-left
        search runs (and a verdict-only solve searches nothing).
        ``known_line``: ``(cards left, moves)`` of a line that is legal here and leaves
        that many cards (e.g. the best under rules that allow fewer moves); the search
        for the fewest cards left then only looks for better lines.

        A position :func:`pack` or :func:`pack_number` made is taken as well formed; one made
        by hand has its arrays checked first. Either is refused (:class:`InputError`) when it
        holds more jokers than ``rules`` deal.
        """
        # the batch runs call this per deal: cheap checks only, as solve() makes them
        expect(p, PackedPosition, "p", "a PackedPosition, e.g. pack(layout) or pack_number(n, rules)")
        expect(rules, Rules, "rules", "a Rules, e.g. get_rules('classic')")
        if type(node_limit) is not int or not 0 <= node_limit <= MAX_INT64:
            node_limit = whole_count(node_limit, "node_limit", 0, MAX_INT64)
        verdict_only = _flag(verdict_only, "verdict_only")
        if type(at_least) is not int or not 0 <= at_least <= N_TABLEAU:
            at_least = whole_count(at_least, "at_least", 0, N_TABLEAU)
        expect(lost, (LostStates, type(None)), "lost", "a LostStates or None")
        _check_packed(p, rules)
        with self._busy:  # the work tables and the path are this solve's until it returns
            if lost is None:
                sol = self._solve_packed(p, rules, node_limit, verdict_only, at_least, known_line, lost)
            else:
                # another Solver's solve in another thread would read rows of one update and values
                # of another (arrays of two lengths for the kernel), or lose this one's rows
                with lost._busy:
                    sol = self._solve_packed(p, rules, node_limit, verdict_only, at_least, known_line, lost)
        return dataclasses.replace(sol, node_limit=node_limit, verdict_only=verdict_only)

    def _solve_packed(self, p: PackedPosition, rules: Rules, node_limit: int, verdict_only: bool, at_least: int,
                      known_line: Optional[tuple[int, Sequence[str]]], lost: Optional[LostStates]) -> Solution:
        if lost is not None:
            lost.check_family(p, rules)
        use_hunt = rules.draw_any_time and not self.level_search
        kernel_name = "hunt" if use_hunt else "search"
        if not compiling.ready(kernel_name):
            ensure_kernels((kernel_name,))  # before the clock: a solve's time never includes compiling
        kern = compiling.function(kernel_name)
        t0 = time.perf_counter()
        fits = rules.fits_table()
        links = _links(rules)
        (seen, hseen, keys, parents, moves, levels, hlist, hmask, stack, dom, touched) = self._tables
        if not (use_hunt and verdict_only and node_limit <= 0 and at_least == 0 and self.bounds):
            lost = None  # only a plain verdict hunt proves every state it records lost
        kept = np.ones(1, dtype=np.int64) if lost is not None else np.zeros(1, dtype=np.int64)
        if lost is not None:
            compiling.function("load_rows")(dom, lost.rows, lost.vals)

        def run(cut: int, best0: int, limit: int) -> tuple:
            if use_hunt:
                return kern(p.cols, p.heights, p.stock, np.int64(p.top), fits, np.int64(limit), dom, touched,
                            self._path, links, self.bounds, np.int64(cut), np.int64(best0), np.int64(at_least), kept,
                            np.int64(RESTART))
            return kern(p.cols, p.heights, p.stock, np.int64(p.top), fits, rules.draw_any_time, np.int64(limit),
                        seen, hseen, keys, parents, moves, levels, hlist, hmask, stack, self._path, links,
                        self.bounds, np.int64(cut), np.int64(best0), np.int64(at_least))

        if at_least > 0 and verdict_only:
            return Solution("lost", None, (), 0, time.perf_counter() - t0, rules)
        if known_line is not None and 0 < known_line[0] <= at_least:
            return Solution("lost", int(known_line[0]), _to_the_end(tuple(known_line[1]), p), 0,
                            time.perf_counter() - t0, rules)
        nodes = 0
        n = 0
        best_left = packing.NO_CUT
        outcome = packing.LOST
        if at_least == 0:
            # Verdict first: the search for a win prunes every state that cannot be won,
            # far cheaper than looking for the fewest cards left. Only when it fails does
            # the second search look for them, bounded by the best line the first one met.
            outcome, best_left, n, nodes = run(1 if self.bounds else packing.NO_CUT, packing.NO_CUT, node_limit)
            if lost is not None:
                # a won search also records states that are not lost: only clear them
                rows, vals = compiling.function("take_rows")(dom, lost.rows, touched, kept[0], outcome == packing.LOST)
                if outcome == packing.LOST:
                    lost.rows, lost.vals = rows, vals
        second = outcome == packing.LOST and not verdict_only and (self.bounds or at_least > 0)
        if second and 0 < node_limit <= nodes:
            # the verdict took the whole budget: the cards-left search has none left (one more
            # state would make a limit of N search N + 1), and the best line met is no answer
            outcome = packing.UNKNOWN
            second = False
        if second:
            first_left = int(best_left)
            if known_line is not None and known_line[0] < first_left:
                first_left = int(known_line[0])
                n = len(known_line[1])
                self._path[:n] = _move_codes(known_line[1])
            self._keep[:n] = self._path[:n]
            limit = 0 if node_limit <= 0 else node_limit - nodes
            # the first search proved the deal lost: a line leaving 1 card is the best
            at_least = max(at_least, 1)
            outcome, best_left, n2, nodes2 = run(packing.NO_CUT, first_left, limit)
            nodes += nodes2
            if best_left >= first_left:
                self._path[:n] = self._keep[:n]
            else:
                n = n2
        name = {packing.WON: "won", packing.LOST: "lost", packing.UNKNOWN: "unknown"}[int(outcome)]
        line = tuple(_MOVE_NAMES[m] for m in self._path[:n].tolist())
        left = None if verdict_only and name == "lost" else int(best_left)
        if left is None:
            line = ()
        elif name == "lost":
            line = _to_the_end(line, p)
        return Solution(name, left, line, int(nodes), time.perf_counter() - t0, rules)

    def solve_given(self, p: PackedPosition, rules: Rules, known: Sequence[Solution] = (),
                    verdict_only: bool = False) -> Solution:
        """:meth:`solve_packed`, using answers for the same deal under other rule sets.

        For a known answer under rules that :func:`nests` these: lost there means lost
        here, and its cards-left is a floor the search stops at (a verdict-only solve then
        searches nothing); a winning line there that is legal here is a win here. For one
        under rules these nest (stricter ones), its line is legal here: a win there is a
        win here, and its cards-left is a line the search for the fewest only has to beat
        (it is the answer outright when it meets the floor).
        """
        expect(known, (list, tuple), "known", "a list of Solutions of the same deal under other rule sets")
        for k in known:
            expect(k, Solution, "each known answer", "a Solution of the same deal under other rule sets")
        if known and not compiling.ready("line_wins"):
            ensure_kernels(("line_wins",))
        t0 = time.perf_counter()
        floor = 0
        upper = None
        for k in known:
            if k.outcome == "unknown":
                continue
            if nests(k.rules, rules):
                if k.outcome == "lost":
                    floor = max(floor, 1 if k.best_left is None else k.best_left)
                elif line_wins(p, rules, k.moves):
                    return Solution("won", 0, k.moves, 0, time.perf_counter() - t0, rules,
                                    verdict_only=bool(verdict_only))
            elif nests(rules, k.rules):
                # stricter rules: their line is legal here
                if k.outcome == "won":
                    return Solution("won", 0, k.moves, 0, time.perf_counter() - t0, rules,
                                    verdict_only=bool(verdict_only))
                if k.best_left is not None and (upper is None or k.best_left < upper[0]):
                    upper = (k.best_left, k.moves)
        return self.solve_packed(p, rules, verdict_only=verdict_only, at_least=floor, known_line=upper)


def solver_arg(solver: object) -> "Optional[Solver]":
    """``solver`` if it is a :class:`Solver` or None (a new one is made for the call), else a
    :class:`TypeError` at the call: not an AttributeError at the first solve, nor (a falsy
    ``[]`` or ``0``) a fresh Solver in its place without a word."""
    return expect(solver, (Solver, type(None)), "solver", "a Solver or None")


@lru_cache(maxsize=None)
def nests(looser: Rules, stricter: Rules) -> bool:
    """Does every line of play legal under ``stricter`` stay legal under ``looser``, on the
    same cards?

    The deal must be the same (same jokers, same start), every card ``stricter`` lets go
    on a top ``looser`` must too, and every draw ``stricter`` allows ``looser`` must allow:
    always when ``looser`` draws any time; when it draws only when stuck, only if both
    put cards on the same tops (else ``looser`` could have a remove where ``stricter`` is
    stuck and draws). Then ``stricter`` can leave no fewer cards than ``looser``: a deal
    lost under ``looser`` is lost under ``stricter``, one won under ``stricter`` is won
    under ``looser``.
    """
    if (looser.jokers, looser.empty_start) != (stricter.jokers, stricter.empty_start):
        return False
    loose, strict = looser.fits_table(), stricter.fits_table()
    if (strict & ~loose).any():
        return False
    return looser.draw_any_time or (not stricter.draw_any_time and bool((strict == loose).all()))


def nesting_order(rule_sets: Sequence[Rules]) -> list[int]:
    """Indices of ``rule_sets``, every rule set after all that nest it (loosest first)."""
    n = len(rule_sets)
    looser = [sum(nests(rule_sets[j], rule_sets[i]) for j in range(n) if j != i) for i in range(n)]
    # a looser rule set has strictly fewer rule sets nesting it (nesting is transitive)
    return sorted(range(n), key=lambda i: looser[i])


def line_wins(p: PackedPosition, rules: Rules, moves: Sequence[str]) -> bool:
    """Is ``moves`` (as in :attr:`Solution.moves`, or their text as its ``as_json()`` gives
    them: ``"d 5 2"``) a legal, winning line under ``rules``?"""
    expect(p, PackedPosition, "p", "a PackedPosition, e.g. pack(layout) or pack_number(n, rules)")
    expect(rules, Rules, "rules", "a Rules, e.g. get_rules('classic')")
    _check_packed(p, rules)
    if isinstance(moves, str):
        # a solution's JSON line was read a move per character, its spaces too: never a win
        moves = parse_moves(moves)
    if isinstance(moves, (bytes, set, frozenset, dict)) or not isinstance(moves, Iterable):
        raise TypeError(f"moves must be a list of moves, e.g. Solution.moves, or their text 'd 5 2', not "
                        f"{type(moves).__name__} {repr(moves)[:40]}")
    moves = tuple(moves)
    for m in moves:  # else "sequence item 0: expected str instance"
        expect(m, str, "each move", "a move word: d or 1-7")
    codes = _move_codes(moves)
    if codes is None:
        return False
    if not compiling.ready("line_wins"):
        ensure_kernels(("line_wins",))
    return compiling.function("line_wins")(p.cols, p.heights, p.stock, np.int64(p.top), rules.fits_table(), rules.draw_any_time,
                            codes)


def _touch(name: str) -> None:
    # one small call with the argument types real use passes, so that what numba's JIT
    # compiles is the signature every later call finds
    rules = get_rules("strict" if name == "search" else "easy")
    p = pack(layout_from_number(0, rules))
    if name == "line_wins":
        line_wins(p, rules, ("d",))
        return
    Solver(level_search=name == "search", capacity=1024).solve_packed(p, rules, node_limit=1)


def ensure_kernels(names: Sequence[str] = tuple(compiling.KERNELS)) -> float:
    """Load or compile the solver's kernels ``names`` now (all of them by default), saying
    so first when any must be compiled (:func:`golfsolve.solitaire.compiling.ensure_compiled`,
    with this module's warm-up solve); return the CPU seconds compiling took (0 when all
    were cached). Then :func:`golfsolve.solitaire.compiling.function` gives each."""
    return compiling.ensure_compiled(names, _touch)


def warm(rules: Iterable = (), level_search: bool = False) -> float:
    """Make every kernel solving under ``rules`` needs ready (all kernels when none are
    given), compiling only those missing from the cache; return the seconds compiling took.
    The public "ready" step: a batch run calls it before its workers start, a server before
    it says it is up."""
    rules = list(rules)
    names = compiling.kernels_for(rules, level_search, given=len(rules) > 1) if rules else tuple(compiling.KERNELS)
    return ensure_kernels(names)


def cards_left_bound(layout: Layout, rules: Optional[Rules] = None, blocking: bool = False) -> int:
    """The solver's lower bound on the cards any line from ``layout`` leaves on the table.

    The same bound the search prunes with (:mod:`golfsolve.solitaire.bounds`), read
    from the table, the undrawn stock and the discard top, with ``blocking`` the
    stronger form the search for the fewest cards left uses; never above the true best.
    """
    from . import bounds  # numba's JIT: a bound is no single answer's business

    rules = layout_rules(layout, rules)
    blocking = _flag(blocking, "blocking")
    p = pack(layout)
    fits = rules.fits_table()
    table = np.zeros(packing.N_BASE, dtype=np.int64)
    stock = np.zeros((1, packing.N_BASE), dtype=np.int64)
    live = False
    for c in range(N_COLUMNS):
        for i in range(p.heights[c]):
            table[p.cols[c, i]] += 1
        live |= bool(p.heights[c]) and bool(fits[p.top, p.cols[c, p.heights[c] - 1]])
    for r in p.stock:
        stock[0, r] += 1
    top = p.top if live else -1
    if blocking:
        raw = bounds.blocked_bound(p.cols, p.heights.astype(np.int64), table, stock, 0, top, int(table.sum()),
                                   _links(rules), np.zeros(packing.N_BASE, dtype=np.int64))
        return max(0, int(raw))
    return int(bounds.cards_left_bound(table, stock, 0, top, int(table.sum()), _links(rules)))


def _links(rules: Rules) -> np.ndarray:
    links = _LINKS.get(rules)
    if links is None:
        links = _LINKS[rules] = packing.rank_links(rules.fits_table())
    return links


_LINKS: dict = {}
