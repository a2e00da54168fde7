"""Fair play: win chances and hints when the stock order is unknown.

In the game the stock is face down. A hint that solves the deal with the real stock order
peeks at it; a deal copied from a screen has no stock order at all. This module answers
the questions a player holding the real game can ask without peeking:

* the stock orders consistent with what a player has seen (:func:`unknown_pool`,
  :func:`sample_stocks`), used by every fair answer;
* :func:`play_fair`: today's fair player, kept for comparison: at every step it takes the
  move that keeps a win in the most sampled stock orders (each solved clairvoyantly after
  the move) and only then sees the real next card. The stronger search player is in
  :mod:`golfsolve.solitaire.fairplayer`; the two numbers a player asks for (clairvoyant
  and fair chance) and the fair hint are in :mod:`golfsolve.solitaire.fairvalue`.

What counts as unknown: the ``None`` positions of ``layout.stock``. They are filled with
the cards the layout does not show (:meth:`Layout.unseen_cards`), minus ``played``, the
cards the caller knows went to the discard pile earlier (a mid-game layout only shows the
discard's top card). When more cards are unseen than there are unknown positions (a
mid-game layout whose played cards are not given), each unknown position gets a card from
a uniformly random subset of the unseen cards: the stock is then modelled as any of them.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from itertools import permutations
from typing import Iterable, Optional, Sequence

from ..cards import card_str
from ..errors import InputError
from ..intervals import Z95, wilson as _wilson
from .engine import Game
from .layout import N_TABLEAU, Layout
from .rules import EASY, Rules
from .solver import MOVE_DRAW, Solver

def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """``(low, high)``: the Wilson score interval for ``wins`` of ``n`` (95% by default).

    The project's one interval module does the work; Wilson because win chances near 0
    or 1 are common here (Easy deals are mostly winnable) and it stays inside [0, 1] and
    keeps its coverage there. With no trials the interval is all of [0, 1].
    """
    if n <= 0:
        return 0.0, 1.0
    _, lo, hi = _wilson(wins, n, z)
    return lo, hi


# ---------------------------------------------------------------------------
# stock orders consistent with what is known
# ---------------------------------------------------------------------------
def unknown_pool(layout: Layout, rules: Optional[Rules] = None, played: Iterable[int] = ()) -> tuple[list[int], list[int]]:
    """``(positions, pool)``: the stock indices whose card is unknown, and the cards that may fill them.

    Raises :class:`InputError` when the pool cannot fill the positions, or when a full
    deal (35 cards on the table) shows a different number of unseen cards than it has
    unknown stock positions (nothing has been played, so the two must match).
    """
    rules = rules or layout.rules or EASY
    positions = [i for i, c in enumerate(layout.stock) if c is None]
    played_set = set(played)
    shown = set(layout.seen_cards())
    clash = sorted(played_set & shown)
    if clash:
        raise InputError(f"card {card_str(clash[0])} is listed as played but the layout shows it")
    pool = [c for c in layout.unseen_cards(rules.jokers) if c not in played_set]
    if len(pool) < len(positions):
        raise InputError(
            f"the stock has {len(positions)} unknown cards but only {len(pool)} cards are unseen"
        )
    if len(pool) != len(positions) and layout.tableau_count == N_TABLEAU and not played_set:
        raise InputError(
            f"a full deal with {len(positions)} unknown stock cards must leave exactly that many cards unseen, "
            f"not {len(pool)}"
        )
    return positions, pool


def arrangements(n_pool: int, n_positions: int) -> int:
    """How many distinct ways ``n_positions`` unknown stock places can be filled from ``n_pool`` cards."""
    return math.perm(n_pool, n_positions)


def _fill(layout: Layout, positions: Sequence[int], cards: Sequence[int]) -> tuple[int, ...]:
    stock = list(layout.stock)
    for i, c in zip(positions, cards):
        stock[i] = c
    return tuple(stock)  # type: ignore[arg-type]


def sample_stocks(
    layout: Layout,
    rng: random.Random,
    n: int,
    rules: Optional[Rules] = None,
    played: Iterable[int] = (),
) -> list[tuple[int, ...]]:
    """``n`` complete stocks: the known cards where they are, the unknown places filled at random.

    Each unknown place gets a card of a uniformly random permutation of the unseen
    cards (of a uniformly random subset of them when more cards are unseen than places).
    """
    positions, pool = unknown_pool(layout, rules, played)
    out = []
    k = len(positions)
    for _ in range(n):
        out.append(_fill(layout, positions, rng.sample(pool, k)))
    return out


def _stock_orders(
    layout: Layout, rules: Rules, samples: int, seed: int, played: Iterable[int] = ()
) -> tuple[list[tuple[int, ...]], bool]:
    """Sampled stocks, or every possible stock when there are no more than ``samples`` of them.

    Returns ``(stocks, exact)``: with ``exact`` every arrangement appears once, so a
    fraction over them is the exact probability, not an estimate.
    """
    positions, pool = unknown_pool(layout, rules, played)
    if arrangements(len(pool), len(positions)) <= samples:
        return [_fill(layout, positions, p) for p in permutations(pool, len(positions))], True
    return sample_stocks(layout, random.Random(seed), samples, rules, played), False


def _with_stock(layout: Layout, stock: Sequence[int]) -> Layout:
    return Layout(layout.columns, layout.discard, tuple(stock), layout.rules, layout.name, layout.deal_number)


def _progress(it: Iterable, total: int, enabled: bool, desc: str) -> Iterable:
    """A tqdm bar on a terminal only; it appears after half a second so quick runs stay quiet."""
    if not enabled:
        return it
    import sys

    if not sys.stderr.isatty():
        return it
    from tqdm import tqdm

    return tqdm(it, total=total, desc=desc, unit="sample", delay=0.5, leave=False)


# ---------------------------------------------------------------------------
# moves and the positions after them (today's fair player; see fairplayer.py for the search player)
# ---------------------------------------------------------------------------
def _legal_moves(layout: Layout, rules: Rules) -> list[str]:
    """The legal moves, asked of the referee; a draw is legal when the stock is non-empty.

    The engine refuses to draw an unknown card, so it is asked about the position with a
    stand-in first stock card: legality of a draw never depends on which card it is.
    """
    probe = layout
    if layout.stock and layout.stock[0] is None:
        probe = Layout(layout.columns, layout.discard, (0,) + layout.stock[1:], layout.rules)
    return Game(probe, rules).legal_moves()


def _child(layout: Layout, stock: tuple[int, ...], move: str) -> Layout:
    """The position after ``move`` with the stock ``stock`` (the referee's rules, built directly for speed)."""
    if move == MOVE_DRAW:
        return Layout(layout.columns, stock[0], stock[1:], layout.rules)
    ci = int(move) - 1
    col = layout.columns[ci]
    cols = layout.columns[:ci] + (col[:-1],) + layout.columns[ci + 1:]
    return Layout(cols, col[-1], stock, layout.rules)


class _Evaluator:
    """Move values over a fixed set of stock orders, sharing the root solves."""

    def __init__(self, layout: Layout, rules: Rules, stocks: list[tuple[int, ...]], solver: Solver) -> None:
        self.layout, self.rules, self.solver = layout, rules, solver
        self.stocks: list[tuple[int, ...]] = []
        self.solves = 0
        self.root_won: list[bool] = []
        self.first: list[Optional[str]] = []
        self._cache: dict[tuple[int, str], bool] = {}
        self.extend(stocks)

    def extend(self, stocks: list[tuple[int, ...]]) -> None:
        """Add stock orders. The position itself is solved once per order: an order in which
        it is lost is lost after every move (a move cannot make a lost position winnable),
        and the first move of a winning line keeps the win, so neither needs a solve."""
        self.stocks.extend(stocks)
        for st in stocks:
            sol = self.solver.solve(_with_stock(self.layout, st), self.rules)
            self.solves += 1
            won = sol.outcome == "won"
            self.root_won.append(won)
            self.first.append(sol.moves[0] if won and sol.moves else None)

    def child_won(self, i: int, move: str) -> bool:
        if not self.root_won[i]:
            return False
        if self.first[i] == move:
            return True
        key = (i, move)
        got = self._cache.get(key)
        if got is None:
            child = _child(self.layout, self.stocks[i], move)
            got = child.tableau_count == 0
            if not got:
                self.solves += 1
                got = self.solver.solve(child, self.rules).outcome == "won"
            self._cache[key] = got
        return got

    def values(self, moves: Sequence[str]) -> dict[str, list[bool]]:
        """Per move, per sample: is the position after the move winnable?"""
        return {m: [self.child_won(i, m) for i in range(len(self.stocks))] for m in moves}

    def best(self, moves: Sequence[str]) -> tuple[str, int]:
        """The move with the most winnable samples (branch and bound: same answer, fewer solves).

        Moves are tried most promising first (those that start the most winning lines);
        a move is dropped as soon as it can no longer beat the best so far. Ties go to
        the move tried first: the one starting more winning lines, then a remove before a
        draw (a draw spends a stock card that a remove keeps).
        """
        n = len(self.stocks)
        won_idx = [i for i in range(n) if self.root_won[i]]
        credit = {m: sum(1 for i in won_idx if self.first[i] == m) for m in moves}
        order = sorted(moves, key=lambda m: (-credit[m], m == MOVE_DRAW, m))
        best_move, best_wins = order[0], -1
        for m in order:
            wins = credit[m]
            rest = [i for i in won_idx if self.first[i] != m]
            remaining = len(rest)
            if wins + remaining <= best_wins:
                continue
            for i in rest:
                remaining -= 1
                wins += self.child_won(i, m)
                if wins + remaining <= best_wins:
                    break
            if wins > best_wins:
                best_move, best_wins = m, wins
        return best_move, best_wins


# ---------------------------------------------------------------------------
# the fair player
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class FairGame:
    """A game played by the fair player on a deal with a real (hidden) stock.

    ``won`` is the real result. ``clairvoyant_won``: is the deal winnable at all (exact
    solve with the real stock)? ``lost_at``: the number of moves played when the real
    position first became unwinnable (None if it never did); play stops there, since no
    continuation can win. ``lost_on_draw``: that move was a draw (the card turned up
    broke the win) rather than a remove. ``decisions`` counts the steps with a choice.
    """

    won: bool
    clairvoyant_won: bool
    clairvoyant_left: int
    moves: tuple[str, ...]
    lost_at: Optional[int]
    lost_on_draw: bool
    decisions: int
    solves: int
    seconds: float


def _fair_choice(
    view: Layout, rules: Rules, moves: list[str], gone: tuple[int, ...], samples: int, first_samples: int,
    rng: random.Random, solver: Solver,
) -> tuple[str, int]:
    """The fair player's move and the number of solves it took (see :func:`play_fair`)."""
    positions, pool = unknown_pool(view, rules, gone)
    if arrangements(len(pool), len(positions)) <= samples:
        stocks = [_fill(view, positions, p) for p in permutations(pool, len(positions))]
        ev = _Evaluator(view, rules, stocks, solver)
    elif first_samples >= samples:
        ev = _Evaluator(view, rules, sample_stocks(view, rng, samples, rules, gone), solver)
    else:
        stocks = sample_stocks(view, rng, min(first_samples, samples), rules, gone)
        ev = _Evaluator(view, rules, stocks, solver)
        move, wins = ev.best(moves) if any(ev.root_won) else (moves[0], 0)
        if wins == sum(ev.root_won) and wins > 0:
            return move, ev.solves
        ev.extend(sample_stocks(view, rng, samples - len(stocks), rules, gone))
    if not any(ev.root_won):
        # no order is winnable: the player cannot tell the moves apart; take the first
        # legal move (a remove before a draw)
        return moves[0], ev.solves
    move, _ = ev.best(moves)
    return move, ev.solves


def play_fair(
    layout: Layout,
    rules: Optional[Rules] = None,
    samples: int = 24,
    seed: int | str = 0,
    solver: Optional[Solver] = None,
    first_samples: Optional[int] = None,
) -> FairGame:
    """Play ``layout`` (stock fully known to the referee, hidden from the player) fairly.

    At each step the player knows the table, the discard pile and so which cards are
    still in the stock, but not their order; it plays the move :func:`fair_hint` would
    rank first with ``samples`` stock orders (all of them once there are that few),
    then the referee reveals the real next card when it draws.

    To save solves, ``first_samples`` (below ``samples``) makes each decision look at that
    many orders first and play at once when the best move keeps every winnable one of
    them; only a contested choice is then decided on all ``samples`` orders. This is
    weaker: on Easy deals 0-439, 16 orders per decision won 53.6%, 16 with a first look at
    6 won 42.3% (docs/fair.md). ``None`` (the default) uses ``samples`` for every decision.
    """
    rules = rules or layout.rules or EASY
    first_samples = samples if first_samples is None else first_samples
    if not layout.stock_known:
        raise InputError("the fair player needs the real stock order: give a deal code or a full layout")
    solver = solver or Solver()
    t0 = time.perf_counter()
    rng = random.Random(seed)
    sol = solver.solve(layout, rules)
    solves = 1
    if sol.outcome != "won":
        # the fair player's line is a legal line of the real deal, so it cannot win either
        return FairGame(False, False, sol.best_left, (), 0, False, 0, solves, time.perf_counter() - t0)
    game = Game(layout, rules)
    played: list[str] = []
    decisions = 0
    while not game.over:
        moves = game.legal_moves()
        if len(moves) == 1:
            move = moves[0]
        else:
            decisions += 1
            view = game.to_layout().forget_stock(0)
            # the player saw every card that went onto the discard pile
            gone = tuple(game.pile[:-1])
            move, n_solves = _fair_choice(view, rules, moves, gone, samples, first_samples, rng, solver)
            solves += n_solves
        res = game.play(move)
        assert res.ok, (move, res.message)
        played.append(move)
        if game.won:
            break
        if not game.over:
            # the referee (not the player) checks whether the real game can still be won
            solves += 1
            if solver.solve(game.to_layout(), rules).outcome != "won":
                return FairGame(False, True, 0, tuple(played), len(played), move == MOVE_DRAW, decisions,
                                solves, time.perf_counter() - t0)
        elif not game.won:
            return FairGame(False, True, 0, tuple(played), len(played), move == MOVE_DRAW, decisions, solves,
                            time.perf_counter() - t0)
    return FairGame(game.won, True, 0, tuple(played), None, False, decisions, solves, time.perf_counter() - t0)


__all__ = [
    "wilson",
    "unknown_pool",
    "sample_stocks",
    "play_fair",
    "FairGame",
]
