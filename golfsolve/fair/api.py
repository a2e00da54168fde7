"""What a player who cannot see the stock can ask: the two win chances and the fair hint.

Every answer here is a function of what the player sees only: the table, the discard
pile's top, the cards known to be played (``played``), the number of stock cards and the
stock cards already known (a partial layout's known places). The caller must forget a
real stock order first (``layout.forget_stock(0)``); unknown places are then filled from
the unseen cards, by the seed, so two positions that look the same get the same answer.

Two numbers, named for what they are:

* **clairvoyant chance**: the share of consistent stock orders in which the position can
  be won at all, each order solved with its whole stock visible. An upper bound on any
  player who cannot see the stock.
* **fair chance**: the win rate of the search fair player
  (:mod:`golfsolve.fair.player`) from this position, played out on sampled orders (the
  order is the referee's; the player only sees what it turns); exact (expectimax over
  the unknown cards) when few are unknown. A lower bound on the best fair player. A fair
  win needs a clairvoyant win, so it is the clairvoyant chance times the player's win
  rate on winnable orders: only those are played, and the interval is the product's.

Neither model has undo: the app's undo lets a player turn the next card and take it
back, which is peeking.
"""

from __future__ import annotations

import math
import textwrap
import time
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Optional, Sequence

from ..cards import card_str
from ..errors import InputError
from ..text import plural
from ..intervals import product_interval, wilson
from ..solitaire.engine import Game
from ..solitaire.layout import Layout
from ..solitaire.rules import EASY, Rules
from ..solitaire.solver import MOVE_DRAW, Solver
from .exact import TooLargeError, fair_value
from .orders import arrangements, stock_orders, unknown_pool, with_stock
from .player import Player, PlayerSettings, play, player_settings
from .view import legal_moves, player_view

#: By default ``odds`` plays fair games until the fair chance's 95% interval is at most this
#: wide ...
WIDTH = 0.20
#: ... but not before this many games (on winnable orders) ...
MIN_GAMES = 10
#: ... and stops (after any game) once all its solves, the
#: clairvoyant ones and the games', have done this much work: the states they searched plus
#: :data:`SOLVE_WORK` a solve. A count of work, not a clock, so the answer depends on the
#: position and the seed only. It costs about 4 s of CPU on a quiet machine (at load 7-8 on
#: the shared 2-core machine CPU seconds inflate two- to threefold: docs/performance.md).
WORK_BUDGET = 40_000_000
#: A solve's fixed cost (packing the position, the call) in states searched in the same time
#: (fitted on fair games of four openings: about 0.22 s of CPU per million states and
#: 0.12 ms per solve).
SOLVE_WORK = 500

NO_UNDO = ("no undo: the app's undo lets a player turn the next card and take it back, which is peeking, "
           "so neither number allows it")


#: The exact fair value is tried when at most this many stock cards are unknown ...
EXACT_UNKNOWN = 6
#: ... and given up past this many states.
EXACT_STATES = 200_000


def _progress(it: Iterable, total: int, enabled: bool, desc: str) -> Iterable:
    """A tqdm bar on a terminal only; it appears after half a second so quick runs stay quiet."""
    if not enabled:
        return it
    import sys

    if not sys.stderr.isatty():
        return it
    from tqdm import tqdm

    return tqdm(it, total=total, desc=desc, unit="sample", delay=0.5, leave=False)


def _exact_fair(layout: Layout, rules: Rules, played: tuple[int, ...], max_states: int):
    """Expectimax values when few stock cards are unknown, else None."""
    if sum(1 for c in layout.stock if c is None) > EXACT_UNKNOWN:
        return None
    try:
        return fair_value(layout, rules, played, max_states=max_states)
    except TooLargeError:
        return None


# ---------------------------------------------------------------------------
# odds: the clairvoyant and the fair chance
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class OddsResult:
    """Both win chances of a position whose stock order is unknown.

    Clairvoyant: ``wins`` of ``samples`` consistent stock orders are winnable, each solved
    with its stock visible (``exact``: every possible order was solved once). Fair: a fair
    win needs a clairvoyant win, so the fair chance is the clairvoyant chance times the
    fair player's (``settings``) win rate on winnable orders; it played ``fair_games`` of
    the winnable orders (the first ones, hidden from it) and won ``fair_wins``, and
    ``fair_low``-``fair_high`` is the product's 95% interval
    (:func:`~golfsolve.intervals.product_interval`). With ``fair_exact`` the fair chance is
    exact (expectimax over few unknown cards, nothing hidden, or every order played) and
    the interval is that one number. With no games and no exact value there is no fair
    chance (``fair_chance`` is None). ``stopped`` says why the games stopped: "narrow"
    (the interval reached :data:`WIDTH`), "budget" (the work reached :data:`WORK_BUDGET`),
    "games" (the ``games`` asked for were played) or "all" (every winnable sampled order
    was played). ``work`` is all the solves' work, ``asked`` the ``samples`` and ``games``
    asked for (``games`` None: the default, until narrow).
    """

    name: str
    rules: Rules = field(compare=False)
    samples: int
    wins: int
    low: float
    high: float
    exact: bool
    unknown: int
    unseen: int
    seed: int
    fair_chance: Optional[float]
    fair_low: Optional[float]
    fair_high: Optional[float]
    fair_games: int
    fair_wins: int
    fair_exact: bool
    settings: PlayerSettings
    stopped: Optional[str] = None
    work: int = 0
    asked: tuple[int, Optional[int]] = (200, None)
    seconds: float = field(default=0.0, compare=False)
    cpu_seconds: float = field(default=0.0, compare=False)

    @property
    def chance(self) -> float:
        """The clairvoyant chance: share of the orders that are winnable."""
        return self.wins / self.samples if self.samples else 0.0

    @property
    def conditional(self) -> tuple[float, float, float]:
        """The fair player's win rate on the winnable orders it played, with its Wilson interval."""
        return wilson(self.fair_wins, self.fair_games)

    def as_json(self) -> dict:
        """The answer as ``golfsolve odds --json`` prints it."""
        if self.fair_chance is None:
            fair: dict = {"chance": None, "games": 0, "exact": False,
                          "what": "no fair chance: no fair games were played"}
        else:
            fair = {
                "what": ("exact: expectimax over the unknown stock cards" if self.fair_exact and not self.fair_games
                         else "exact: the fair player played every stock order" if self.fair_exact
                         else "how often the fair player, who never sees the stock, wins from here over every "
                              "consistent stock order: the clairvoyant chance times its win rate on the winnable "
                              "orders it played; ci95 holds that rate with 95% confidence (a lower bound on the best "
                              "fair player)"),
                "chance": round(self.fair_chance, 6), "ci95": [round(self.fair_low, 6), round(self.fair_high, 6)],
                "wins": self.fair_wins, "games": self.fair_games, "exact": self.fair_exact,
            }
            if self.fair_games:
                rate, lo, hi = self.conditional
                fair["win_rate_on_winnable_orders"] = {"rate": round(rate, 6), "ci95": [round(lo, 6), round(hi, 6)]}
            if self.stopped is not None:
                fair["stopped"] = self.stopped
        return {
            "deal": self.name,
            "rules": self.rules.name,
            "fair": fair,
            "clairvoyant": {
                "what": "share of consistent stock orders that can be won, each solved with its stock visible "
                        "(an upper bound on play that cannot see the stock)",
                "chance": round(self.chance, 6), "ci95": [round(self.low, 6), round(self.high, 6)],
                "wins": self.wins, "samples": self.samples, "exact": self.exact,
            },
            "player": self.settings.as_dict(),
            "settings": {"samples": self.asked[0], "games": self.asked[1], "width_goal": WIDTH,
                         "min_games": MIN_GAMES, "work_budget": WORK_BUDGET, "solve_work": SOLVE_WORK},
            "undo": False,
            "unknown_stock_cards": self.unknown,
            "unseen_cards": self.unseen,
            "seed": self.seed,
            "work": self.work,
            "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
        }

    def _fair_lines(self) -> list[str]:
        if self.fair_chance is None:
            return ["fair chance:        not computed (--games 0)"]
        if self.wins == 0 and self.unknown:
            bound = "" if self.fair_exact else f" (95% interval 0%-{_pct(self.fair_high)})"
            return [f"fair chance:        0%{bound}: no {'possible' if self.exact else 'sampled'} stock order can be "
                    "won at all, so no fair game was played"]
        if self.fair_exact and not self.fair_games:
            how = ("nothing is hidden: the fair player sees what the clairvoyant one sees" if not self.unknown
                   else "exact: the best play without seeing the stock, by expectimax over the unknown cards")
            return [f"fair chance:        {100 * self.fair_chance:.1f}%  ({how})"]
        who = f"the {self.settings.preset} fair player (seed {self.seed})"
        if self.fair_exact:
            return [f"fair chance:        {100 * self.fair_chance:.1f}%  (exact: {who} played every one of the "
                    f"{self.samples:,} possible stock orders and won {self.fair_wins:,})"]
        rate = self.fair_wins / self.fair_games
        text = (f"how often a player who never sees the stock wins from here, playing as {who}: "
                f"{100 * self.chance:.1f}% of the stock orders can be won at all, and it won {self.fair_wins:,} of "
                f"the {self.fair_games:,} of those it played ({100 * rate:.0f}%); with 95% confidence its win rate "
                "over every consistent order lies in the interval.")
        width = self.fair_high - self.fair_low
        if width > WIDTH + 1e-9 and self.stopped == "budget":
            # the width shrinks about as one over the square root of the games
            need = math.ceil(self.fair_games * (width / WIDTH) ** 2)
            more = f"--games {need}"
            if need > self.wins:
                more += f" --samples {math.ceil(1.2 * need * self.samples / self.wins)}"
            text += (f" The interval is {100 * width:.0f} points wide: the work budget stopped the games; about "
                     f"{need} games would make it {100 * WIDTH:.0f} points wide ({more}, about "
                     f"{self.cpu_seconds * need / self.fair_games:.0f} CPU seconds).")
        head = f"fair chance:        {_pct(self.fair_chance)}  (95% interval {_pct(self.fair_low)}-{_pct(self.fair_high)})"
        return [head, textwrap.fill(text, 100, initial_indent=" " * 20, subsequent_indent=" " * 20)]

    def render(self) -> str:
        """The answer as ``golfsolve odds`` prints it."""
        how = ("the one possible stock order" if self.exact and self.samples == 1
               else f"all {self.samples:,} possible stock orders (exact)" if self.exact
               else f"{plural(self.samples, 'sampled stock order')} (seed {self.seed})")
        return "\n".join([
            f"{self.name or 'layout'} ({self.rules.describe()})",
            *self._fair_lines(),
            textwrap.fill(f"clairvoyant chance: {100 * self.chance:.1f}%  (95% interval {100 * self.low:.1f}%-"
                          f"{100 * self.high:.1f}%; {self.wins:,} of {how} can be won with the stock visible: an "
                          "upper bound)", 100, subsequent_indent=" " * 20),
            f"unknown stock cards: {self.unknown} (from {plural(self.unseen, 'unseen card')}); "
            f"{self.cpu_seconds:.1f} s of CPU",
            textwrap.fill(NO_UNDO, 100),
        ])


def _pct(x: float) -> str:
    # a sampled fair chance is known to a few points: whole percents, not false decimals
    return f"{100 * x:.0f}%"


def fair_games(
    layout: Layout,
    rules: Rules,
    stocks: Sequence[tuple[int, ...]],
    seed: int | str = 0,
    player: "str | PlayerSettings" = "fast",
    played: Iterable[int] = (),
    solver: Optional[Solver] = None,
) -> Iterator[tuple[bool, int]]:
    """The fair player's results ``(won, work)`` on ``layout`` (unknown places ``None``)
    completed by each of ``stocks`` in turn; the order is the referee's, hidden from the
    player. ``work`` is the game's: the states its exact solves searched plus
    :data:`SOLVE_WORK` a solve."""
    solver = solver or Solver()
    settings = player_settings(player)
    played = tuple(played)
    # every game's player has the same seed, so games that have seen the same cards share
    # their decisions (one table for all): the opening's first decision is taken once
    decisions: dict = {}
    for st in stocks:
        g = play(with_stock(layout, st), rules, settings, seed, solver, played, referee=True, decisions=decisions)
        yield g.won, g.nodes + SOLVE_WORK * g.solves


def play_until(results: Iterable[tuple[bool, int]], wins: int, samples: int, exact: bool = False,
               stop: bool = True, work: int = 0) -> tuple[int, int, int, str]:
    """Count fair games ``(won, work)`` on winnable orders, as :func:`odds` plays them:
    ``(wins, games, work, stopped)``.

    ``wins`` of ``samples`` orders are winnable (``exact``: of every order). With ``stop``
    the games end at the first one after which the fair chance's interval
    (:func:`~golfsolve.intervals.product_interval`) is at most :data:`WIDTH` wide, from
    :data:`MIN_GAMES` games on ("narrow"), or after which the work (``work`` before the
    first game) reaches :data:`WORK_BUDGET` ("budget"); else every result is counted ("games").
    """
    fw = m = 0
    for won, used in results:
        fw, m, work = fw + won, m + 1, work + used
        if not stop:
            continue
        if m >= MIN_GAMES:
            _, lo, hi = product_interval(wins, samples, fw, m, exact)
            if hi - lo <= WIDTH:
                return fw, m, work, "narrow"
        if work >= WORK_BUDGET:
            return fw, m, work, "budget"
    return fw, m, work, "games"


def odds(
    layout: Layout,
    rules: Optional[Rules] = None,
    samples: int = 200,
    seed: int = 0,
    progress: bool = False,
    played: Iterable[int] = (),
    solver: Optional[Solver] = None,
    games: Optional[int] = None,
    player: "str | PlayerSettings" = "fast",
    exact_states: int = EXACT_STATES,
) -> OddsResult:
    """Both win chances of ``layout``, whose unknown stock places are ``None`` (see the module doc).

    ``samples`` orders are solved (verdict only) for the clairvoyant chance. A fair win
    needs a clairvoyant win, so only the winnable ones get fair games: the fair player (a
    preset name or :class:`~golfsolve.fair.player.PlayerSettings`) plays the first
    ``games`` of them, or by default as many as it takes for the fair chance's 95% interval
    to be at most :data:`WIDTH` wide (at least :data:`MIN_GAMES` games), and no more once
    all the solves did :data:`WORK_BUDGET` work. The fair chance is the clairvoyant chance
    times the win rate on those games, with the product's interval.
    """
    if samples < 1 or (games is not None and games < 0):
        raise InputError(f"samples must be at least 1 and games at least 0, not {samples} and {games}")
    settings = player_settings(player)
    rules = rules or layout.rules or EASY
    played = tuple(played)
    positions, pool = unknown_pool(layout, rules, played)
    stocks, exact = stock_orders(layout, rules, samples, seed, played)
    solver = solver or Solver()
    t0, c0 = time.perf_counter(), time.process_time()
    won: list[bool] = []
    work = 0
    for st in _progress(stocks, len(stocks), progress, "solving samples"):
        sol = solver.solve(with_stock(layout, st), rules, verdict_only=True)
        won.append(sol.outcome == "won")
        work += sol.nodes + SOLVE_WORK
    n = len(stocks)
    wins = sum(won)
    lo, hi = (wins / n, wins / n) if exact else wilson(wins, n)[1:]
    ex = _exact_fair(layout, rules, played, exact_states) if positions else None
    stopped: Optional[str] = None
    if not positions:
        # nothing is hidden: the player sees what the solver sees
        fair: tuple = (wins / n, wins / n, wins / n, 0, 0, True)
    elif ex is not None:
        fair = (ex.value, ex.value, ex.value, 0, 0, True)
    elif games == 0:
        fair = (None, None, None, 0, 0, False)
    elif wins == 0:
        # no order can be won, so no fair game can: nothing to play
        fair = (0.0, 0.0, 0.0 if exact else hi, 0, 0, exact)
    else:
        winnable = [st for st, w in zip(stocks, won) if w]
        k = len(winnable) if games is None else min(games, len(winnable))
        results = fair_games(layout, rules, winnable[:k], seed, settings, played, solver)
        fw, m, work, stopped = play_until(_progress(results, k, progress, "fair games"), wins, n, exact,
                                          stop=games is None, work=work)
        if stopped == "games" and m == len(winnable):
            stopped = "all"
        if exact and m == wins:
            # every possible order was played (a lost one needs no game): the rate is exact
            fair = (fw / n, fw / n, fw / n, m, fw, True)
        else:
            fair = (*product_interval(wins, n, fw, m, exact), m, fw, False)
    return OddsResult(layout.name, rules, n, wins, lo, hi, exact, len(positions), len(pool), seed,
                      *fair, settings, stopped, work, (samples, games), time.perf_counter() - t0,
                      time.process_time() - c0)


# ---------------------------------------------------------------------------
# the fair hint
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class MoveChance:
    """One legal move, its value without peeking and the plan that reaches it.

    ``plan`` is the move and the removes that follow it before the next blind draw ('d'
    at the end when the plan draws). ``wins`` of ``samples`` sampled orders stay winnable
    after the plan and the draw; with an exact hint ``chance`` is the expectimax value.
    """

    move: str  # '1'..'7' or 'd'
    card: Optional[str]  # the card the move puts on the discard; None for a draw of an unknown card
    chance: float
    low: float
    high: float
    plan: tuple[str, ...] = ()
    wins: int = 0
    samples: int = 0
    ahead: int = 0  # samples in which this move keeps a win and the best move does not
    behind: int = 0  # samples in which the best move keeps a win and this one does not

    def describe(self) -> str:
        return "draw" if self.move == MOVE_DRAW else f"remove {self.card} from column {self.move}"

    def as_json(self) -> dict:
        return {
            "move": self.move, "card": self.card, "fair_value": round(self.chance, 6),
            "ci95": [round(self.low, 6), round(self.high, 6)], "plan": " ".join(self.plan),
            "wins": self.wins, "samples": self.samples,
            "better_than_best_in": self.ahead, "worse_than_best_in": self.behind,
        }


@dataclass(frozen=True)
class FairHint:
    """The fair hint: the move the fair player (``settings``, ``seed``) would play from the
    position, first, then every other legal move by its value without peeking.

    ``method`` "exact": the values are expectimax values over the unknown stock cards (the
    player plays the best of them). "sampled": each move's value is its best blind-draw
    value over the ``samples`` stock orders the player decided on (the same orders for every
    move; ``all_orders``: every possible order once).
    """

    name: str
    rules: Rules = field(compare=False)
    method: str
    samples: int
    all_orders: bool
    seed: int
    ranked: tuple[MoveChance, ...]
    plan: tuple[str, ...]
    solves: int
    settings: PlayerSettings
    seconds: float = field(compare=False)

    @property
    def best(self) -> MoveChance:
        """The move the fair player plays."""
        return self.ranked[0]

    @property
    def what(self) -> str:
        """What the values are, in words."""
        if self.method == "exact":
            return "exact fair value: expectimax over the unknown stock cards (the best play without peeking)"
        return ("blind-draw value: the share of stock orders in which the move's best plan (it and the removes "
                "after it), then a draw of an unseen card, leaves a winnable position; play after that draw is "
                "scored as if the stock were visible, so it is an upper bound on the move's fair chance")

    def as_json(self) -> dict:
        """The hint as ``golfsolve hint --fair --json`` prints it."""
        return {
            "deal": self.name,
            "rules": self.rules.name,
            "fair": True,
            "method": self.method,
            "estimate": self.what,
            "undo": False,
            "samples": self.samples,
            "all_orders": self.all_orders,
            "seed": self.seed,
            "player": self.settings.as_dict(),
            "plan": " ".join(self.plan),
            "best": self.best.as_json(),
            "ranked": [m.as_json() for m in self.ranked],
            "solves": self.solves,
        }

    def render(self, show_all: bool = False) -> str:
        """The hint as ``golfsolve hint --fair`` prints it (``show_all``: each move's plan too)."""
        b = self.best
        lines = [f"fair best move: {b.move} ({b.describe()})" + (f"; plan {' '.join(self.plan)}"
                                                                  if len(self.plan) > 1 else ""),
                 f"the {self.settings.preset} fair player's choice (seed {self.seed}), without peeking at the stock"]
        if self.method == "exact":
            lines.append("each legal move's exact value (expectimax over the unknown stock cards):")
        else:
            how = (f"all {self.samples} possible stock orders" if self.all_orders
                   else f"the same {self.samples} sampled stock orders")
            lines.append(f"each legal move's value and 95% interval, over {how}:")
        for m in self.ranked:
            value = (f"{100 * m.chance:5.1f}%" if self.method == "exact" or self.all_orders else
                     f"{100 * m.chance:5.1f}% ({100 * m.low:.1f}-{100 * m.high:.1f})")
            lines.append(f"  {m.move:>2}  {m.card or '?':>3}  {value}"
                         + (f"  plan {' '.join(m.plan)}" if show_all and m.plan else ""))
        lines.append(f"({self.what}; {NO_UNDO})")
        return "\n".join(lines)


def _card_of(layout: Layout, move: str) -> Optional[str]:
    if move == MOVE_DRAW:  # a known next stock card (a partial layout's prefix) is shown
        nxt = layout.stock[0] if layout.stock else None
        return None if nxt is None else card_str(nxt)
    return card_str(layout.columns[int(move) - 1][-1])


def fair_hint(
    layout: Layout,
    rules: Optional[Rules] = None,
    seed: int = 0,
    played: Iterable[int] = (),
    solver: Optional[Solver] = None,
    player: "str | PlayerSettings" = "strong",
) -> FairHint:
    """The move the fair player (a preset name or settings; ``seed``) plays from ``layout``
    (unknown stock places ``None``), and every legal move's value without peeking.

    The recommended move is exactly the first move of :meth:`Player.decide
    <golfsolve.fair.player.Player.decide>` for a player seeded with ``seed``. With few
    unknown stock cards the values are exact (expectimax). Otherwise each move gets the
    best blind-draw value of the pre-draw states it starts a chain to
    (:mod:`golfsolve.fair.infoset`), on the orders the player decided on. ``played``:
    cards known to be under the discard's top (they cannot be in the stock).
    """
    rules = rules or layout.rules or EASY
    settings = player_settings(player)
    played = tuple(played)
    moves = legal_moves(layout, rules)
    if not moves:
        raise InputError("no legal move: the game is over")
    unknown_pool(layout, rules, played)  # bad input before any work
    t0 = time.perf_counter()
    me = Player(rules, settings, seed, solver)
    d = me.decide(layout, played)
    first = d.chain[0] if d.chain else moves[0]
    if d.exact is not None:
        vals = dict(d.exact.moves)
        order = [first] + [m for m, _ in d.exact.moves if m != first]
        ranked = tuple(MoveChance(m, _card_of(layout, m), vals[m], vals[m], vals[m], (m,)) for m in order)
        return FairHint(layout.name, rules, "exact", 0, True, seed, ranked, d.chain, me.solves, settings,
                        time.perf_counter() - t0)
    cv = d.values
    n = len(cv.stocks)
    all_orders = _every_order(layout, rules, played, n)
    per_move = {}
    for m in moves:
        cands = [s for s in cv.states if m in s.first]
        if m == first:
            cands = [d.state] + [s for s in cands if s is not d.state]
        best, k, tied = cv.best_of(cands)
        if tied and m != first:
            best = min(tied, key=lambda s: (s.table, s.chain))
        if m == first:
            # the player's own plan for its move, valued on every order it saw
            best, k = d.state, sum(cv.won(i, d.state) for i in range(n))
        per_move[m] = (best, k)
    order = [first] + sorted((m for m in moves if m != first), key=lambda m: (-per_move[m][1], m == MOVE_DRAW, m))

    def vector(m: str) -> list[bool]:
        s = per_move[m][0]
        return [cv.won(i, s) for i in range(n)] if s is not None else [False] * n

    top = vector(first)
    ranked = []
    for m in order:
        s, k = per_move[m]
        v = vector(m)
        lo, hi = (k / n, k / n) if all_orders else wilson(k, n)[1:]
        plan = (s.chain if m != MOVE_DRAW else ()) if s is not None else (m,)
        if s is not None and (s.table and layout.stock):
            plan = plan + (MOVE_DRAW,)
        ranked.append(MoveChance(m, _card_of(layout, m), k / n, lo, hi, plan, k, n,
                                 sum(a and not b for a, b in zip(v, top)), sum(b and not a for a, b in zip(v, top))))
    return FairHint(layout.name, rules, "sampled", n, all_orders, seed, tuple(ranked), d.chain,
                    me.solves + cv.solves, settings, time.perf_counter() - t0)


def _every_order(layout: Layout, rules: Rules, played: tuple[int, ...], n: int) -> bool:
    """Are there at most ``n`` stock orders consistent with ``layout`` (so ``n`` orders were all of them)?"""
    positions, pool = unknown_pool(layout, rules, played)
    return arrangements(len(pool), len(positions)) <= n


# ---------------------------------------------------------------------------
# from a real position: what the commands and the server answer
# ---------------------------------------------------------------------------
def odds_for_player(layout: Layout, samples: int = 200, seed: int = 0, games: Optional[int] = None,
                    player: "str | PlayerSettings" = "fast", solver: Optional[Solver] = None,
                    progress: bool = False) -> OddsResult:
    """:func:`odds` of ``layout`` as a player sees it (:func:`~golfsolve.fair.view.player_view`:
    a known stock order is forgotten first), as ``golfsolve odds`` answers."""
    view, _ = player_view(layout)
    return odds(view, view.rules, samples=samples, seed=seed, games=games, player=player, solver=solver,
                progress=progress)


def fair_hint_for_player(layout: Layout, game: Game, seed: int = 0, player: "str | PlayerSettings" = "strong",
                         solver: Optional[Solver] = None) -> FairHint:
    """:func:`fair_hint` for ``game`` (started from ``layout``) as its player sees it
    (:func:`~golfsolve.fair.view.player_view`: the stock cards not yet turned are forgotten,
    the cards under the discard's top are known), as ``golfsolve hint --fair`` answers."""
    view, played = player_view(layout, game)
    return fair_hint(view, game.rules, seed=seed, played=played, solver=solver, player=player)


__all__ = ["odds", "OddsResult", "fair_games", "fair_hint", "FairHint", "MoveChance", "NO_UNDO", "WIDTH",
           "MIN_GAMES", "WORK_BUDGET", "SOLVE_WORK", "play_until",
           "odds_for_player", "fair_hint_for_player"]
