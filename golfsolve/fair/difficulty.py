"""Deal difficulty: exact winnability, the fair chance and a label by fair-chance bands.

A deal's *fair chance* is the one :func:`~golfsolve.fair.odds.odds` reports
for its opening with the stock order forgotten: the search fair player's win rate over
``games`` stock orders consistent with what the opening shows (the same orders for the
same seed). Winnability is exact, from the deal's real stock. The label:

=============  ==========================
label          fair chance
=============  ==========================
easy           60% or more
medium         35% to under 60%
hard           15% to under 35%
very-hard      under 15%
=============  ==========================

The label describes the opening a player faces; whether this deal's real stock can be
won is reported beside it (an unwinnable deal can look easy).

The fair chance is an estimate from ``games`` games (its Wilson interval is reported),
so a deal near a band edge can get a neighbouring label with another seed or count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Optional

from ..errors import InputError
from ..inputs import ascii_lower, callback, expect, flag, is_whole_number, seed_value, whole_count
from ..intervals import wilson
from ..text import estimate, percent, plural
from ..solitaire.dealcode import N_DEALS
from ..solitaire.engine import Game
from ..solitaire.hint import game_over_message
from ..solitaire.layout import Layout, layout_from_number, layout_rules
from ..solitaire.rules import CLASSIC, EASY, Rules, code_letter
from ..solitaire.solver import Solver, solver_arg
from .odds import fair_games
from .orders import referee_seed, stock_orders
from .settings import BANDS, LABELS, PlayerSettings, label_of, player_settings  # noqa: F401 - LABELS by its old address

def _band(label: str) -> tuple[float, float]:
    names = [b[0] for b in BANDS]
    i = names.index(label)
    return BANDS[i][1], (BANDS[i - 1][1] if i else 1.0 + 1e-9)


def _reachable(label: str, games: int) -> bool:
    return any(label_of(k / games) == label for k in range(games + 1))


def check_reachable(label: str, games: int) -> None:
    """Refuse a wanted ``label`` that ``games`` games cannot give: their fair chance is a
    multiple of ``1 / games``, and with 2 games (0%, 50%, 100%) none is hard. Refused before
    any work: :func:`pick` would scan all of its ``max_deals`` (100,000 by default: hours) for nothing."""
    if games >= 20 or _reachable(label, games):  # every band is wider than 1/7
        return
    values = [f"{round(100 * k / games)}%" for k in range(games + 1)]
    shown = ", ".join(values[:-1]) + " or " + values[-1]
    low, high = _band(label)
    band = f"{100 * low:.0f}% to under {100 * high:.0f}%" if high <= 1 else f"{100 * low:.0f}% or more"
    more = next(g for g in range(games + 1, 20) if _reachable(label, g))
    raise InputError(f"with {plural(games, 'game')} a fair chance is {shown}, so no deal is {label} ({band}); "
                     f"use {more} games or more")


@dataclass(frozen=True)
class Rating:
    """A deal's difficulty under one rule set (see the module doc)."""

    code: str
    rules: Rules
    winnable: bool
    fair_wins: int
    games: int
    label: str
    settings: PlayerSettings
    #: False: games stopped early once the label could no longer be the wanted one; the chance and
    #: label are then of the games played (not the wanted label, nor surely the deal's)
    complete: bool = True
    exact: bool = False  # every possible stock order played once: the chance is this player's exact rate
    over: str = ""  # the opening is already won or locked (hint's words): the chance is exact, nothing played
    seed: int = 0  # the fair player's seed: the games, and so the chance, are this seed's
    #: the games asked for (``rate --games``); ``games`` counts those played, fewer when the
    #: stock has fewer orders, when a wanted label was settled early or the opening is over
    games_asked: Optional[int] = None

    @property
    def fair_chance(self) -> float:
        """Share of the fair games won; of a finished opening, 1 when it is won, else 0."""
        if self.over:
            return 1.0 if self.winnable else 0.0
        return self.fair_wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the fair chance (the chance itself when it is exact)."""
        if self.exact:
            return self.fair_chance, self.fair_chance
        return wilson(self.fair_wins, self.games)[1:]

    def as_json(self) -> dict:
        """The rating as ``golfsolve rate --json`` prints it: the deal's name as ``deal``, as
        every other answer names it (and as ``code``, as ratings always have)."""
        lo, hi = self.interval
        return {"deal": self.code, "code": self.code, "rules": self.rules.name, "winnable": self.winnable,
                "fair_chance": round(self.fair_chance, 6), "ci95": [round(lo, 6), round(hi, 6)],
                "fair_wins": self.fair_wins, "games": self.games, "label": self.label, "complete": self.complete,
                "exact": self.exact, "game_over": bool(self.over), "message": self.over or None,
                "games_asked": self.games_asked, "seed": self.seed, "player": self.settings.as_dict()}

    def render(self) -> str:
        """One line: code, winnability, fair chance with its interval, label."""
        lo, hi = self.interval
        digits = 1
        # a chance just under a band's edge never reads as the edge: 1,200 wins in 2,001 games
        # read "60.0%  medium", and 60% is easy
        while label_of(min(1.0, float(percent(self.fair_chance, f".{digits}f")) / 100)) != self.label and digits < 12:
            digits += 1
        fmt = f"5.{digits}f"
        chance = (f"{percent(self.fair_chance, fmt)}% exact ({self.over})" if self.over else
                  f"{percent(self.fair_chance, fmt)}% exact ({self.fair_wins}/{self.games}, every stock order)"
                  if self.exact else
                  f"{estimate(self.fair_chance, lo, hi, '.0f', percent=True, value_fmt=fmt)} "
                  f"({self.fair_wins}/{self.games})")
        return f"{self.code}  {'winnable' if self.winnable else 'not winnable':12}  fair chance {chance}  {self.label}"


def require_real_stock(layout: Layout, rules: Optional[Rules] = None) -> None:
    """Refuse, as :func:`rate` does, a deal it cannot rate: a stock of unknown order on a
    table not yet cleared. The server checks it before a request waits for a worker."""
    rules = layout_rules(layout, rules)
    if not layout.stock_known and not Game(layout.forget_stock(0), rules).over:
        raise InputError("rating needs the real stock: give a deal code or a full layout")


def rate(
    layout: Layout,
    rules: Optional[Rules] = None,
    games: int = 16,
    seed: int = 0,
    solver: Optional[Solver] = None,
    player: "str | PlayerSettings" = "fast",
    want: Optional[str] = None,
) -> Rating:
    """Rate a deal whose real stock is known (a code or a full layout).

    With ``want`` (a label), games stop as soon as the final fair chance can no longer
    fall in that band: the rating's ``complete`` is then False and its chance and label are
    those of the games played, so the label is never ``want`` but need not be the deal's
    (deal 5 under Easy, medium on 16 games, reads hard on the 10 played for ``want="easy"``).
    """
    rules = layout_rules(layout, rules)
    if want is not None:  # any case, as pick's difficulty; an unknown name would fail as "'nope' is not in list"
        named = ascii_lower(want.strip()) if isinstance(want, str) else None
        if named not in LABELS:
            raise InputError(f"want must be one of {', '.join(LABELS)}, or None; not {want!r}")
        want = named
    solver_arg(solver)
    games = whole_count(games, "games")
    seed = seed_value(seed)
    settings = player_settings(player)
    view = layout.forget_stock(0)
    end = Game(view, rules)
    if end.over:
        # every stock order ends alike, and the chance is the game's end, as odds says it; no game
        # is played, so none is counted (odds' answer counts none either). A cleared table is
        # over whatever its stock, so it needs no real stock (as odds answers it).
        return Rating(layout.name, rules, end.won, 0, 0, label_of(float(end.won)), settings, exact=True,
                      over=game_over_message(end), seed=seed, games_asked=games)
    require_real_stock(layout, rules)
    solver = solver or Solver()
    winnable = solver.solve(layout, rules).outcome == "won"
    stocks, every = stock_orders(view, rules, games, referee_seed(seed))
    lo_band, hi_band = _band(want) if want else (0.0, 2.0)
    wins = played = 0
    for won, _ in fair_games(view, rules, stocks, seed, settings, (), solver):
        wins += won
        played += 1
        left = len(stocks) - played
        if want and (wins / len(stocks) >= hi_band or (wins + left) / len(stocks) < lo_band):
            return Rating(layout.name, rules, winnable, wins, played, label_of(wins / played), settings,
                          complete=False, seed=seed, games_asked=games)
    return Rating(layout.name, rules, winnable, wins, played, label_of(wins / played), settings, exact=every,
                  seed=seed, games_asked=games)


@dataclass(frozen=True)
class PickResult:
    """The deals :func:`pick` found, and how far it looked."""

    rules: Rules
    difficulty: str
    winnable_only: bool
    games: int
    seed: int
    start: int
    examined: int
    deals: tuple[Rating, ...]
    settings: PlayerSettings

    @property
    def last_deal(self) -> bool:
        """The scan reached the last deal there is."""
        return self.start + self.examined >= N_DEALS

    def as_json(self) -> dict:
        """The answer as ``golfsolve pick --json`` prints it."""
        return {"rules": self.rules.name, "difficulty": self.difficulty, "winnable_only": self.winnable_only,
                "games": self.games, "seed": self.seed, "start": self.start, "examined": self.examined,
                "found": len(self.deals), "player": self.settings.as_dict(),
                "deals": [r.as_json() for r in self.deals]}

    def render(self) -> str:
        """The closing line of ``golfsolve pick`` (each deal's line is printed as it is found)."""
        n = len(self.deals)
        # "(easy, winnable)" after "very-hard deals" read as two more labels, and "from deal N
        # (the last deal there is)" named the first deal examined the last one
        end = f" to deal {self.start + self.examined - 1}, the last deal there is" if self.last_deal else ""
        text = (f"found {plural(n, self.difficulty + ' deal')} under {self.rules.name} rules"
                f"{' (winnable only)' if self.winnable_only else ''} after examining "
                f"{plural(self.examined, 'deal')} from deal {self.start}{end}")
        if n and self.rules.meaning not in (EASY.meaning, CLASSIC.meaning):
            # a code's letter names Easy or Classic only: these codes alone would be played under Easy
            text += f"; play {'them' if n > 1 else 'it'} with --rules {self.rules.name}"
        return text


class PickStopped(KeyboardInterrupt):
    """Ctrl-C during :func:`pick`: ``result`` is the :class:`PickResult` of the deals found and
    examined before it (a long scan keeps what it found)."""

    def __init__(self, result: "PickResult") -> None:
        super().__init__()
        self.result = result


def pick(
    rules: Rules,
    difficulty: str,
    count: int,
    start: int = 0,
    winnable: bool = True,
    games: int = 16,
    seed: int = 0,
    max_deals: int = 100_000,
    solver: Optional[Solver] = None,
    player: "str | PlayerSettings" = "fast",
    on_deal: Optional[Callable[[Optional[Rating]], None]] = None,
) -> PickResult:
    """Scan deals ``start, start+1, ...`` until ``count`` have the label ``difficulty`` or
    ``max_deals`` were examined. ``on_deal`` is called after each deal examined with its
    rating when it matched, else None (for progress and for printing as deals are found).

    ``winnable`` skips deals the exact solver loses before any game is played.
    """
    expect(rules, Rules, "rules", "a Rules, e.g. get_rules('classic')")
    solver_arg(solver)
    callback(on_deal, "on_deal", "of a deal's Rating (None when it did not match)")
    named = ascii_lower(difficulty.strip()) if isinstance(difficulty, str) else None
    if named not in LABELS:  # any case, as a player's preset and --difficulty take it
        raise InputError(f"difficulty must be one of {', '.join(LABELS)}, not {difficulty!r}")
    difficulty = named
    games = whole_count(games, "games")
    count = whole_count(count, "--count", 1, N_DEALS)
    max_deals = whole_count(max_deals, "--max-deals", 1, N_DEALS)
    seed = seed_value(seed)
    winnable = flag(winnable, "winnable")  # "no" is true to Python
    if not is_whole_number(start) or not 0 <= start < N_DEALS:
        raise InputError(f"the start deal must be from 0 to {N_DEALS - 1}, not {start!r}")
    start = int(start)  # a NumPy integer kept here made the answer's as_json() no JSON
    check_reachable(difficulty, games)
    # a scan that can never find count deals is refused before it examines one, not after the
    # whole scan
    if count > max_deals:
        raise InputError(f"--count {count:,} is more than --max-deals {max_deals:,}: a scan of at most "
                         f"{plural(max_deals, 'deal')} cannot find {count:,}; raise --max-deals or lower --count")
    left = N_DEALS - start  # nor can a scan that reaches the last deal there is first
    if count > left:
        raise InputError(f"--count {count:,} is more than the {plural(left, 'deal')} from deal {start} to the last "
                         f"there is ({N_DEALS - 1}); start earlier or lower --count")
    settings = player_settings(player)
    found: list[Rating] = []
    examined = 0
    try:
        for examined, r in _scan(rules, difficulty, count, start, winnable, games, seed, max_deals,
                                 solver or Solver(), settings):
            if r is not None:
                found.append(r)
            if on_deal is not None:
                on_deal(r)
    except KeyboardInterrupt as e:
        raise PickStopped(PickResult(rules, difficulty, winnable, games, seed, start, examined, tuple(found),
                                     settings)) from e
    return PickResult(rules, difficulty, winnable, games, seed, start, examined, tuple(found), settings)


def _scan(rules: Rules, difficulty: str, count: int, start: int, winnable: bool, games: int, seed: int,
          max_deals: int, solver: Solver, settings: PlayerSettings) -> Iterator[tuple[int, Optional[Rating]]]:
    letter = code_letter(rules)
    found = 0
    # the scan stops at the last deal there is rather than failing past it
    for examined, number in enumerate(range(start, min(start + max_deals, N_DEALS)), 1):
        lay = layout_from_number(number, rules, letter)
        if winnable and solver.solve(lay, rules).outcome != "won":
            yield examined, None  # rejected by one exact solve, before any game
            continue
        r = rate(lay, rules, games, seed, solver, settings, want=difficulty)
        if r.complete and r.label == difficulty and (r.winnable or not winnable):
            found += 1
            yield examined, r
            if found == count:
                return
        else:
            yield examined, None


__all__ = ["BANDS", "LABELS", "Rating", "PickResult", "PickStopped", "label_of", "rate", "pick", "require_real_stock"]
