"""`odds`: the clairvoyant and the fair chance of a position whose stock order is unknown.

Two numbers, named for what they are:

* **clairvoyant chance**: the share of consistent stock orders in which the position can
  be won at all, each order solved with its whole stock visible. An upper bound on any
  player who cannot see the stock.
* **fair chance**: the win rate of the fair player (:mod:`golfsolve.fair.player`) from
  this position, played out on sampled orders (the order is the referee's; the player
  only sees what it turns); exact (expectimax over the unknown cards) when few are
  unknown. A lower bound on the best fair player. A fair win needs a clairvoyant win, so
  it is the clairvoyant chance times the player's win rate on winnable orders: only those
  are played, and the interval is the product's.

Every answer is a function of what the player sees only: the seed fills the unknown
places, so two positions that look the same get the same answer. Neither model has undo: the app's undo lets a player turn the next card and take it
back, which is peeking.
"""

from __future__ import annotations

import math
import textwrap
import time
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator, Optional, Sequence

from ..errors import MAX_INT64, InputError
from ..inputs import expect, seed_value, whole_count
from ..intervals import product_interval, wilson
from ..solitaire.engine import Game, moves_in_effect, parse_moves
from ..solitaire.hint import game_over_message, position_after
from ..solitaire.layout import Layout, layout_arg, layout_rules
from ..solitaire.rules import EASY, Rules
from ..solitaire.solver import Solver, solver_arg
from ..progress import progress_bar
from ..text import estimate, interval, percent, plural
from .exact import CompiledExpectimax, TooLargeError, fair_value
from .orders import check_played, check_played_not_held, referee_seed, stock_orders, unknown_pool, with_stock
from .player import play
from .settings import MIN_GAMES, SOLVE_WORK, WIDTH, WORK_BUDGET, PlayerSettings, player_settings
from .view import as_seen, player_view

NO_UNDO = ("no undo: the app's undo lets a player turn the next card and take it back, which is peeking, "
           "so neither number allows it")


#: The exact fair value is tried when at most this many stock cards are unknown ...
EXACT_UNKNOWN = 6
#: ... and given up past this many states.
EXACT_STATES = 200_000


#: Up to this cap the exact fair chance runs on the compiled expectimax (its table, four
#: 16-byte slots a state, then takes at most 128 MiB); a larger cap, which only a library
#: caller can ask for, on the Python one, which sizes no table up front.
COMPILED_STATES = 2_000_000


def _exact_fair(layout: Layout, rules: Rules, played: tuple[int, ...], max_states: int):
    """``(values, states)``: expectimax values when few stock cards are unknown, else None;
    and the states the try cost (the cap when it gave up), which the work budget counts."""
    if sum(1 for c in layout.stock if c is None) > EXACT_UNKNOWN:
        return None, 0
    try:
        # odds forgot the stock it was given already: what its view names was seen. The
        # compiled kernel gives the Python recurrence's numbers at about a tenth of the CPU:
        # in Python a try given up at the 200,000-state cap cost about 1 s of CPU that no
        # budget counted, on every position with few unknown cards and a large table
        if max_states <= COMPILED_STATES:
            cx = CompiledExpectimax(rules, capacity=1 << max(20, (4 * max_states - 1).bit_length()))
            ex = cx.fair_value(layout, played, max_states=max_states, seen=len(layout.stock))
        else:
            ex = fair_value(layout, rules, played, max_states=max_states, seen=len(layout.stock))
    except TooLargeError:
        return None, max_states
    return ex, ex.states


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
    asked for (``games`` None: the default, until narrow); ``moves_played`` the moves from
    the layout to the position (:func:`odds_for_player`), none: the layout itself.
    ``over``: the position is won or locked, in ``hint``'s words ("the game is already
    over: You won! Score 350"; "" while the game goes on); then both chances are exact,
    1 or 0, and nothing was sampled or played (``samples`` 0). ``exact_states``: the state
    cap the exact fair chance was tried with (recorded: another cap can give another answer).
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
    moves_played: tuple[str, ...] = ()
    over: str = ""
    exact_states: int = EXACT_STATES

    @property
    def chance(self) -> float:
        """The clairvoyant chance: share of the orders that are winnable (a finished game's: 1 won, 0 locked)."""
        return self.wins / self.samples if self.samples else self.low if self.over else 0.0

    @property
    def conditional(self) -> tuple[float, float, float]:
        """The fair player's win rate on the winnable orders it played, with its Wilson interval."""
        return wilson(self.fair_wins, self.fair_games)

    def as_json(self) -> dict:
        """The answer as ``golfsolve odds --json`` prints it."""
        # the same keys in every case, null where one does not apply, so a reader of one answer
        # meets no KeyError on another
        if self.over:  # a won or locked game: exact, nothing sampled or played
            fair: dict = {"what": f"exact: {self.over}", "chance": self.fair_chance,
                          "ci95": [self.fair_low, self.fair_high], "wins": 0, "games": 0, "exact": True,
                          "win_rate_on_winnable_orders": None, "stopped": None}
        elif self.fair_chance is None:
            fair = {"what": "no fair chance: no fair games were played", "chance": None, "ci95": None,
                    "wins": 0, "games": 0, "exact": False, "win_rate_on_winnable_orders": None,
                    "stopped": self.stopped}
        else:
            fair = {
                "what": ("exact: nothing is hidden, the fair player sees what the clairvoyant one sees"
                         if self.fair_exact and not self.unknown
                         else "exact: expectimax over the unknown stock cards" if self.fair_exact and not self.fair_games
                         else "exact: the fair player played every stock order" if self.fair_exact
                         else "how often the fair player, who never sees the stock, wins from here over every "
                              "consistent stock order: the clairvoyant chance times its win rate on the winnable "
                              "orders it played; ci95 holds that rate with 95% confidence (a lower bound on the best "
                              "fair player)"),
                "chance": round(self.fair_chance, 6), "ci95": [round(self.fair_low, 6), round(self.fair_high, 6)],
                "wins": self.fair_wins, "games": self.fair_games, "exact": self.fair_exact,
            }
            fair["win_rate_on_winnable_orders"] = None
            if self.fair_games:
                rate, lo, hi = self.conditional
                fair["win_rate_on_winnable_orders"] = {"rate": round(rate, 6), "ci95": [round(lo, 6), round(hi, 6)]}
            fair["stopped"] = self.stopped
        return {
            "deal": self.name,
            "rules": self.rules.name,
            "moves_played": " ".join(self.moves_played),
            "game_over": bool(self.over),
            "message": self.over or None,
            "fair": fair,
            "clairvoyant": {
                "what": f"exact: {self.over}" if self.over else
                        "share of consistent stock orders that can be won, each solved with its stock visible "
                        "(an upper bound on play that cannot see the stock)",
                "chance": round(self.chance, 6), "ci95": [round(self.low, 6), round(self.high, 6)],
                "wins": self.wins, "samples": self.samples, "exact": self.exact,
            },
            "player": self.settings.as_dict(),
            "settings": {"samples": self.asked[0], "games": self.asked[1], "width_goal": WIDTH,
                         "min_games": MIN_GAMES, "work_budget": WORK_BUDGET, "solve_work": SOLVE_WORK,
                         "exact_unknown": EXACT_UNKNOWN, "exact_states": self.exact_states},
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
        # an exact fair chance above 0 is one whatever the sample found: no sampled order won is no reason for 0%
        if self.wins == 0 and self.unknown and not (self.fair_exact and self.fair_chance):
            bound = "" if self.fair_exact else f" {interval(0, self.fair_high, '.0f', 100)} (95% interval)"
            return [f"fair chance:        0%{bound}: no {'possible' if self.exact else 'sampled'} stock order can be "
                    "won at all, so no fair game was played"]
        if self.fair_exact and not self.fair_games:
            how = ("nothing is hidden: the fair player sees what the clairvoyant one sees" if not self.unknown
                   else "exact: the best play without seeing the stock, by expectimax over the unknown cards")
            lines = [f"fair chance:        {percent(self.fair_chance)}%  ({how})"]
            if self.fair_chance > self.chance and not self.exact:
                # every order the fair player wins can be won with the stock seen: the sample fell short
                lines.append(textwrap.fill(
                    "The sampled clairvoyant chance below fell short by chance: a fair win is a clairvoyant win, "
                    f"so at least {percent(self.fair_chance)}% of the stock orders can be won.", 100,
                    initial_indent=" " * 20, subsequent_indent=" " * 20))
            return lines
        who = f"the {self.settings.preset} fair player (seed {self.seed})"
        if self.fair_exact:
            played = ("the one possible stock order and " + ("won it" if self.fair_wins else "lost it")
                      if self.samples == 1 else
                      f"every one of the {self.samples:,} possible stock orders and won {self.fair_wins:,}")
            return [f"fair chance:        {percent(self.fair_chance)}%  (exact: {who} played {played})"]
        rate = self.fair_wins / self.fair_games
        text = (f"How often a player who never sees the stock wins from here, playing as {who}. It is "
                "estimated from a sample of stock orders: with 95% confidence the player's true win rate over all "
                f"of them lies in the interval. {percent(self.chance)}% of the {'' if self.exact else 'sampled '}"
                f"orders can be won at all; on those it won {self.fair_wins:,} of {plural(self.fair_games, 'game')} "
                f"({percent(rate, '.0f')}%). Best play without "
                "seeing the stock does at least as well.")
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
        # a sampled fair chance is known to a few points: whole percents, not false decimals
        head = f"fair chance:        {estimate(self.fair_chance, self.fair_low, self.fair_high, '.0f', percent=True)}  (95% interval)"
        return [head, textwrap.fill(text, 100, initial_indent=" " * 20, subsequent_indent=" " * 20)]

    def render(self) -> str:
        """The answer as ``golfsolve odds`` prints it."""
        how = f"{plural(self.samples, 'sampled stock order')} (seed {self.seed})"
        # the moves that made the position (an undo takes one back), not the game's move counter
        n = moves_in_effect(self.moves_played)
        after = f" after {plural(n, 'move')}" if n else ""
        if self.over:
            # as hint says it: no sampling, no interval, nothing left to play
            why = "the game is won" if self.chance else "no move is left"
            return "\n".join([f"{self.name or 'layout'}{after} ({self.rules.describe()})", self.over,
                              f"fair chance:        {100 * self.fair_chance:.0f}%  (exact: {why})",
                              f"clairvoyant chance: {100 * self.chance:.0f}%  (exact: {why})"])
        if self.exact and not self.unknown:  # no stock order to speak of: the stock is seen, or empty
            clairvoyant = (f"{percent(self.chance)}%  (exact: nothing is hidden, and the position "
                           f"{'can' if self.wins else 'cannot'} be won)")
        elif self.exact:  # every order solved: a count, not an estimate
            won = (f"the one possible stock order {'can' if self.wins else 'cannot'}" if self.samples == 1
                   else f"{self.wins:,} of all {self.samples:,} possible stock orders can")
            clairvoyant = f"{percent(self.chance)}%  (exact: {won} be won with the stock visible: an upper bound)"
        else:
            clairvoyant = (f"{estimate(self.chance, self.low, self.high, '.1f', percent=True)}  (95% interval; "
                           f"{self.wins:,} of {how} can be won with the stock visible: an upper bound)")
        return "\n".join([
            f"{self.name or 'layout'}{after} ({self.rules.describe()})",
            *self._fair_lines(),
            textwrap.fill(f"clairvoyant chance: {clairvoyant}", 100, subsequent_indent=" " * 20),
            f"unknown stock cards: {self.unknown} (from {plural(self.unseen, 'unseen card')}); "
            f"{self.cpu_seconds:.1f} s of CPU",
            textwrap.fill(NO_UNDO, 100),
        ])


def fair_games(
    layout: Layout,
    rules: Rules,
    stocks: Sequence[tuple[int, ...]],
    seed: int | str = 0,
    player: "str | PlayerSettings" = "fast",
    played: Iterable[int] = (),
    solver: Optional[Solver] = None,
    winnable: bool = False,
    lines: Optional[Sequence[Sequence[str]]] = None,
) -> Iterator[tuple[bool, int]]:
    """The fair player's results ``(won, work)`` on ``layout`` (unknown places ``None``)
    completed by each of ``stocks`` in turn; the order is the referee's, and the player sees
    only the places ``layout`` shows. ``work`` is the game's: the states its exact solves searched plus
    :data:`SOLVE_WORK` a solve. ``winnable``: every order is known to be winnable (the
    referee does not solve it again)."""
    solver_arg(solver)  # else an AttributeError at the first game
    solver = solver or Solver()
    settings = player_settings(player)
    played = check_played(played)  # None would fail as "'NoneType' object is not iterable"
    # every game's player has the same seed, so games that have seen the same cards share
    # their decisions (one table for all): the opening's first decision is taken once
    decisions: dict = {}
    if lines is not None and len(lines) != len(stocks):
        raise InputError(f"lines must give one winning line per stock order: {len(lines)} for {len(stocks)}")
    for i, st in enumerate(stocks):
        # the player sees the places the view shows (a partial layout's declared cards), no others
        g = play(with_stock(layout, st), rules, settings, seed, solver, played, referee=True, decisions=decisions,
                 winnable=winnable, won_line=lines[i] if lines is not None else (), seen=layout.stock,
                 locate_loss=False)  # the result alone counts here: no solves to find the losing move
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
    progress: Optional[bool] = False,
    played: Iterable[int] = (),
    solver: Optional[Solver] = None,
    games: Optional[int] = None,
    player: "str | PlayerSettings" = "fast",
    exact_states: int = EXACT_STATES,
    seen: int = 0,
) -> OddsResult:
    """Both win chances of ``layout`` as its player sees it (see the module doc): unknown
    stock places are ``None``; a layout that gives its whole stock order (a deal code's) has
    that order forgotten first, all but the first ``seen`` cards, which the player has seen
    (:func:`~golfsolve.fair.view.as_seen`).

    ``samples`` orders are solved (verdict only) for the clairvoyant chance. A fair win
    needs a clairvoyant win, so only the winnable ones get fair games: the fair player (a
    preset name or :class:`~golfsolve.fair.player.PlayerSettings`) plays the first
    ``games`` of them, or by default as many as it takes for the fair chance's 95% interval
    to be at most :data:`WIDTH` wide (at least :data:`MIN_GAMES` games), and no more once
    all the solves did :data:`WORK_BUDGET` work. The fair chance is the clairvoyant chance
    times the win rate on those games, with the product's interval. ``progress``: bars on
    stderr as :func:`~golfsolve.progress.progress_bar` shows them (``None``: on a terminal).
    """
    rules = layout_rules(layout, rules)  # what an omitted rules stands for, below, too
    solver_arg(solver)
    samples = whole_count(samples, "samples")
    exact_states = whole_count(exact_states, "exact_states", 1, MAX_INT64)  # "x" or -1 is bad input, not "too small"
    seed = seed_value(seed)
    if games is not None:
        games = whole_count(games, "games", 0)
    settings = player_settings(player)
    played = check_played(played)  # None would fail as "'NoneType' object is not iterable"
    check_played_not_held(layout, played)  # while the stock it was given is still there to name
    # a whole stock order given (a deal code's layout) is the referee's, not the player's
    layout = as_seen(layout, seen)
    rules = rules or layout.rules or EASY
    positions, pool = unknown_pool(layout, rules, played)
    t0, c0 = time.perf_counter(), time.process_time()
    end = Game(layout, rules)  # the referee's verdict needs no stock card's name: won or locked is on the table
    if end.over:
        # nothing to sample or play: the chances are the game's end, as hint says it
        v = 1.0 if end.won else 0.0
        return OddsResult(layout.name, rules, 0, 0, v, v, True, len(positions), len(pool), seed, v, v, v, 0, 0, True,
                          settings, None, 0, (samples, games), time.perf_counter() - t0, time.process_time() - c0,
                          over=game_over_message(end), exact_states=exact_states)
    stocks, exact = stock_orders(layout, rules, samples, referee_seed(seed), played)
    solver = solver or Solver()
    t0, c0 = time.perf_counter(), time.process_time()
    won: list[bool] = []
    lines: list[tuple[str, ...]] = []  # each winnable order's winning line: the referee's games need not solve it
    work = 0
    # bars after half a second only, so a quick answer draws none
    for st in progress_bar(stocks, total=len(stocks), unit="sample", desc="solving samples", show=progress,
                           delay=0.5, leave=False):
        sol = solver.solve(with_stock(layout, st), rules, verdict_only=True)
        won.append(sol.outcome == "won")
        if won[-1]:
            lines.append(sol.moves)
        work += sol.nodes + SOLVE_WORK
    n = len(stocks)
    wins = sum(won)
    lo, hi = (wins / n, wins / n) if exact else wilson(wins, n)[1:]
    ex, states = _exact_fair(layout, rules, played, exact_states) if positions else (None, 0)
    work += states
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
        results = fair_games(layout, rules, winnable[:k], seed, settings, played, solver, winnable=True,
                             lines=lines[:k])
        results = progress_bar(results, total=k, unit="game", desc="fair games", show=progress, delay=0.5,
                               leave=False)
        fw, m, work, stopped = play_until(results, wins, n, exact, stop=games is None, work=work)
        if stopped == "games" and m == len(winnable):
            stopped = "all"
        if exact and m == wins:
            # every possible order was played (a lost one needs no game): the rate is exact
            fair = (fw / n, fw / n, fw / n, m, fw, True)
        else:
            fair = (*product_interval(wins, n, fw, m, exact), m, fw, False)
    return OddsResult(layout.name, rules, n, wins, lo, hi, exact, len(positions), len(pool), seed,
                      *fair, settings, stopped, work, (samples, games), time.perf_counter() - t0,
                      time.process_time() - c0, exact_states=exact_states)


def odds_for_player(layout: Layout, samples: int = 200, seed: int = 0, games: Optional[int] = None,
                    player: "str | PlayerSettings" = "fast", solver: Optional[Solver] = None,
                    progress: Optional[bool] = False, moves: "str | Sequence[str]" = ()) -> OddsResult:
    """:func:`odds` of ``layout`` with its own rules, as ``golfsolve odds`` answers (a known
    stock order is forgotten first, as :func:`odds` always does). ``moves`` (``"d 5 2"`` or
    a list of move words, replayed by the game engine): the odds from the position they
    reach, as its player sees it (:func:`~golfsolve.fair.view.player_view`: the cards turned
    so far are known, the rest of the stock is not), as ``golfsolve odds --moves`` answers."""
    layout_arg(layout)
    if not isinstance(moves, str):
        expect(moves, (list, tuple), "moves", "their text, e.g. 'd 5 2', or a list of move words")
        for m in moves:
            expect(m, str, "each move", "a move word: d, 1-7 or u")
        moves = " ".join(moves)
    words = parse_moves(moves)
    if not words:
        return odds(layout, samples=samples, seed=seed, games=games, player=player, solver=solver, progress=progress)
    game = position_after(layout, words)  # a move the engine refuses is bad input, before any work
    view, played = player_view(layout, game)
    # the stock cards the player turned and put back were seen: a view naming them all is no referee's order
    res = odds(view, game.rules, samples=samples, seed=seed, games=games, player=player, solver=solver,
               progress=progress, played=played, seen=game.seen_stock)
    return replace(res, name=layout.name, moves_played=tuple(words))


__all__ = ["odds", "OddsResult", "odds_for_player", "fair_games", "play_until", "NO_UNDO", "WIDTH", "MIN_GAMES",
           "WORK_BUDGET", "SOLVE_WORK"]
