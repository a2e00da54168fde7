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
  (:mod:`golfsolve.fair.player`) from this position, played out on sampled
  orders (the order is the referee's; the player only sees what it turns), with a
  Wilson interval; exact (expectimax over the unknown cards) when few are unknown. A
  lower bound on the best fair player.

Neither model has undo: the app's undo lets a player turn the next card and take it
back, which is peeking.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Optional, Sequence

from ..cards import card_str
from ..errors import InputError
from ..text import plural
from ..intervals import wilson
from ..solitaire.engine import Game
from ..solitaire.layout import Layout
from ..solitaire.rules import EASY, Rules
from ..solitaire.solver import MOVE_DRAW, Solver
from .exact import TooLargeError, fair_value
from .orders import arrangements, stock_orders, unknown_pool, with_stock
from .player import Player, PlayerSettings, play, player_settings
from .view import legal_moves, player_view

#: By default ``odds`` plays fair games until the fair chance's 95% interval is at most this
#: wide (or every sampled order has been played).
WIDTH = 0.20
#: ... but not before this many orders, and stops (after a game, from :data:`BUDGET_GAMES`
#: orders on) once the games' exact solves have searched this many states: a count of work,
#: not a clock, so the answer depends on the position and the seed only. The solver searches
#: about 10 million states per CPU second, so the games take about 4 s at most.
MIN_GAMES = 20
BUDGET_GAMES = 10
WORK_BUDGET = 40_000_000

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
    with its stock visible (``exact``: every possible order was solved once). Fair: the
    fair player (``settings``) won ``fair_wins`` of ``fair_games`` of those orders (the
    first ones, played with the order hidden from it); with ``fair_exact`` the fair chance
    is the exact expectimax value instead and no games were played. With no games and no
    exact value there is no fair chance (``fair_chance`` is None).
    """

    name: str
    rules: Rules = field(compare=False)
    samples: int
    wins: int
    low: float
    high: float
    mean_left: float
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
    seconds: float = field(compare=False)

    @property
    def chance(self) -> float:
        """The clairvoyant chance: share of the orders that are winnable."""
        return self.wins / self.samples if self.samples else 0.0

    def as_json(self) -> dict:
        """The answer as ``golfsolve odds --json`` prints it."""
        if self.fair_chance is None:
            fair: dict = {"chance": None, "games": 0, "exact": False,
                          "what": "no fair chance: no fair games were played"}
        else:
            fair = {
                "what": ("exact expectimax over the unknown stock cards" if self.fair_exact else
                         "win rate of the fair player (one fixed strategy for the seed) over sampled stock orders, "
                         "hidden from it: a lower bound on the best fair player; ci95 holds its win rate over "
                         "every consistent order with 95% confidence"),
                "chance": round(self.fair_chance, 6), "ci95": [round(self.fair_low, 6), round(self.fair_high, 6)],
                "wins": self.fair_wins, "games": self.fair_games, "exact": self.fair_exact,
            }
        return {
            "deal": self.name,
            "rules": self.rules.name,
            "clairvoyant": {
                "what": "share of consistent stock orders that can be won, each solved with its stock visible "
                        "(an upper bound on play that cannot see the stock)",
                "chance": round(self.chance, 6), "ci95": [round(self.low, 6), round(self.high, 6)],
                "wins": self.wins, "samples": self.samples, "exact": self.exact,
                "mean_best_cards_left": round(self.mean_left, 4),
            },
            "fair": fair,
            "player": self.settings.as_dict(),
            "undo": False,
            "unknown_stock_cards": self.unknown,
            "unseen_cards": self.unseen,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
        }

    def render(self) -> str:
        """The answer as ``golfsolve odds`` prints it."""
        how = ("the one possible stock order" if self.exact and self.samples == 1
               else f"all {self.samples:,} possible stock orders (exact)" if self.exact
               else f"{plural(self.samples, 'sampled stock order')} (seed {self.seed})")
        if self.fair_chance is None:
            fair = "fair chance:        not computed (--games 0)"
        elif self.fair_exact:
            fair = f"fair chance:        {100 * self.fair_chance:.1f}%  (exact: expectimax over the unknown stock cards)"
        else:
            fair = (f"fair chance:        {100 * self.fair_chance:.1f}%  (95% interval {100 * self.fair_low:.1f}%-"
                    f"{100 * self.fair_high:.1f}%; the {self.settings.preset} fair player, one fixed strategy "
                    f"(seed {self.seed}), won {self.fair_wins:,} of the first {self.fair_games:,} orders without "
                    "seeing them)\n"
                    "                    the interval: with 95% confidence, that player's win rate over every "
                    "stock order consistent with the position lies in it")
            if self.fair_high - self.fair_low > WIDTH + 1e-9 and self.fair_games < self.samples:
                fair += (f"\n                    it is {100 * (self.fair_high - self.fair_low):.0f} points wide: more "
                         "games (--games 100) narrow it, at more CPU")
        return "\n".join([
            f"{self.name or 'layout'} ({self.rules.describe()})",
            f"clairvoyant chance: {100 * self.chance:.1f}%  (95% interval {100 * self.low:.1f}%-{100 * self.high:.1f}%; "
            f"{self.wins:,} of {how} winnable)",
            fair,
            f"unknown stock cards: {self.unknown} (from {plural(self.unseen, 'unseen card')}); mean best cards left "
            f"{self.mean_left:.2f}",
            "clairvoyant: each order solved with its stock visible, an upper bound; fair: what a player who "
            "turns the cards one by one wins, a lower bound on the best such player",
            NO_UNDO,
        ])


def fair_games(
    layout: Layout,
    rules: Rules,
    stocks: Sequence[tuple[int, ...]],
    seed: int | str = 0,
    player: "str | PlayerSettings" = "fast",
    played: Iterable[int] = (),
    solver: Optional[Solver] = None,
    winnable: Optional[Sequence[bool]] = None,
) -> Iterator[tuple[bool, int]]:
    """The fair player's results ``(won, solves)`` on ``layout`` (unknown places ``None``)
    completed by each of ``stocks`` in turn; the order is the referee's, hidden from the
    player. ``winnable`` (per stock, when already known) skips the game of a lost order.
    ``solves`` is the game's work: the states its exact solves searched."""
    solver = solver or Solver()
    settings = player_settings(player)
    played = tuple(played)
    # every game's player has the same seed, so games that have seen the same cards share
    # their decisions (one table for all): the opening's first decision is taken once
    decisions: dict = {}
    for i, st in enumerate(stocks):
        if winnable is not None and not winnable[i]:
            yield False, 0
            continue
        g = play(with_stock(layout, st), rules, settings, seed, solver, played, referee=True, decisions=decisions)
        yield g.won, g.nodes


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

    ``samples`` orders are solved for the clairvoyant chance; the fair player (a preset
    name or :class:`~golfsolve.fair.player.PlayerSettings`) plays the first ``games`` of
    them, or by default as many as it takes for a 95% interval at most :data:`WIDTH` wide
    (at least :data:`MIN_GAMES`), and no more once the games' solves searched
    :data:`WORK_BUDGET` states (from :data:`BUDGET_GAMES` games on). Each fair game uses an order of the same sample, so a fair win is always a
    clairvoyant win.
    """
    if samples < 1 or (games is not None and games < 0):
        raise InputError(f"samples must be at least 1 and games at least 0, not {samples} and {games}")
    settings = player_settings(player)
    rules = rules or layout.rules or EASY
    played = tuple(played)
    positions, pool = unknown_pool(layout, rules, played)
    stocks, exact = stock_orders(layout, rules, samples, seed, played)
    solver = solver or Solver()
    t0 = time.perf_counter()
    won: list[bool] = []
    left = 0
    for st in _progress(stocks, len(stocks), progress, "solving samples"):
        sol = solver.solve(with_stock(layout, st), rules)
        won.append(sol.outcome == "won")
        left += sol.best_left
    n = len(stocks)
    wins = sum(won)
    lo, hi = (wins / n, wins / n) if exact else wilson(wins, n)[1:]
    ex = _exact_fair(layout, rules, played, exact_states) if positions else None
    fair: tuple
    if not positions:
        # nothing is hidden: the player sees what the solver sees
        fair = (wins / n, wins / n, wins / n, 0, 0, True)
    elif ex is not None:
        fair = (ex.value, ex.value, ex.value, 0, 0, True)
    elif games == 0:
        fair = (None, None, None, 0, 0, False)
    else:
        k = n if games is None else min(games, n)
        results = fair_games(layout, rules, stocks[:k], seed, settings, played, solver, won)
        fw = played_k = work = 0
        for w, used in _progress(results, k, progress, "fair games"):
            fw += w
            played_k += 1
            work += used
            if games is None and played_k >= BUDGET_GAMES:
                _, flo, fhi = wilson(fw, played_k)
                if (played_k >= MIN_GAMES and fhi - flo <= WIDTH) or work >= WORK_BUDGET:
                    break  # narrow enough, or the work budget is spent: the rest of the orders are not played
        _, flo, fhi = wilson(fw, played_k)
        fair = (fw / played_k, flo, fhi, played_k, fw, False)
    return OddsResult(layout.name, rules, n, wins, lo, hi, left / n, exact, len(positions), len(pool), seed,
                      *fair, settings, time.perf_counter() - t0)


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
           "odds_for_player", "fair_hint_for_player"]
