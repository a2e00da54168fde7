"""Running totals of a tournament: every number its summary and report show, from matches
added a block at a time, in memory that does not grow with the matches.

Strokes are integers and every match has the same number of holes, so each statistic is a
mean of values ``numerator / denominator`` with a fixed denominator per statistic; the tally
keeps exact integer sums of the numerators and of their squares. The numbers are therefore
the same to the last bit however the matches were split into blocks (a run folder read at
once, or ``grid simulate`` without ``--out`` adding ten matches at a time).

The units of every interval are matches (the holes of one match share a table): a player's
mean strokes per hole in one match, a bot's mean over its seats in one match, a player's
total, and a bot's share of the match's win over its seats (a shared win counting ``1/k``),
whose Wilson interval over matches gives the win rate a seat (:meth:`Tally.win_rate`).
"""

from __future__ import annotations

import math
import operator
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

import numpy as np
import pandas as pd

from ..errors import InputError
from ..inputs import is_whole_number
from ..intervals import Z95, t_quantile, wilson
from ..text import plural
from .ratings import Ratings
from .rules import GridRules

#: Shares of a win (1/k for k tied winners, k <= 6) are kept as multiples of 1/60.
_SHARE_UNIT = 60


@dataclass
class Moments:
    """Count, sum and sum of squares of integer numerators over one fixed denominator."""

    den: int = 1
    n: int = 0
    s: int = 0
    ss: int = 0

    def add(self, values: Iterator[int] | np.ndarray) -> None:
        """Count each of ``values`` (numerators over :attr:`den`) in."""
        for v in values:
            v = int(v)
            self.n += 1
            self.s += v
            self.ss += v * v

    def no_spread(self) -> bool:
        """Two or more values, all equal (:func:`golfsolve.intervals.no_spread`): exact, from the integer sums."""
        return self.n >= 2 and self.n * self.ss == self.s * self.s

    def mean_ci(self, z: float = Z95) -> tuple[float, float, float]:
        """(mean, low, high): the Student t 95% interval of :func:`golfsolve.intervals.mean_ci`,
        exactly; no interval (NaN ends) from one value or from values all the same."""
        if self.n == 0:
            return float("nan"), float("nan"), float("nan")
        m = self.s / (self.n * self.den)
        if self.n < 2 or self.no_spread():
            return m, float("nan"), float("nan")
        var = (self.n * self.ss - self.s * self.s) / (self.n * (self.n - 1) * self.den * self.den)
        half = t_quantile(self.n - 1, z) * math.sqrt(max(var, 0.0) / self.n)
        return m, m - half, m + half


@dataclass
class Tally:
    """The running totals of a tournament between ``bots`` under ``rules`` (see the module's docstring)."""

    rules: GridRules
    bots: list[str]
    seed: int = 0
    samples: Optional[int] = None
    #: tournament.SEATING, written out: tournament.py imports this module (a test checks they agree)
    seating: str = "cyclic"
    matches: int = 0
    holes_played: int = 0
    last_match: int = -1
    # per bot name
    hole: dict = field(default_factory=dict)          # per match: strokes over the bot's seats
    total: dict = field(default_factory=dict)         # per match: totals over the bot's seats
    shares: Counter = field(default_factory=Counter)  # sum of win shares, in 1/60
    seat_matches: Counter = field(default_factory=Counter)
    player_holes: Counter = field(default_factory=Counter)
    strokes_hist: dict = field(default_factory=lambda: defaultdict(Counter))
    # per pair of bot names, of entries, and per (bot, before_bot)
    pairs: dict = field(default_factory=dict)
    entry_pairs: dict = field(default_factory=dict)
    neighbours: dict = field(default_factory=dict)
    neighbour_holes: Counter = field(default_factory=Counter)
    end_reasons: Counter = field(default_factory=Counter)
    #: each bot name's full settings, as the run recorded them (None: not recorded)
    bot_settings: Optional[dict] = None
    _ratings: Any = None

    def __post_init__(self) -> None:
        self.bots = list(self.bots)
        self.names = list(dict.fromkeys(self.bots))
        self.seats_of = {b: self.bots.count(b) for b in self.names}
        h = self.rules.holes
        for b in self.names:
            # one value per match and bot name, over all its seats: a bot seated twice at one
            # table plays one match there, not two independent ones
            self.hole[b] = Moments(h * self.seats_of[b])
            self.total[b] = Moments(self.seats_of[b])
        for i, a in enumerate(self.names):
            for b in self.names[i + 1:]:
                self.pairs[(a, b)] = Moments(self.seats_of[a] * self.seats_of[b] * h)
        n = len(self.bots)
        for a in range(n):
            for b in range(a + 1, n):
                self.entry_pairs[(a, b)] = Moments(h)
        self._ratings = Ratings(self.names)

    @classmethod
    def of(cls, t: Any) -> "Tally":
        """The tally of a whole :class:`~golfsolve.grid.tournament.Tournament` (read by its fields:
        tournament.py imports this module, not the other way round)."""
        tally = cls(t.rules, t.bots, t.seed, t.samples, t.seating, bot_settings=t.bot_settings)
        tally.add(t.holes, t.matches)
        return tally

    # -- adding matches ---------------------------------------------------------------
    def add(self, holes: pd.DataFrame, matches: pd.DataFrame) -> None:
        """Add whole matches, later than any added before: their hole rows (the columns of
        :data:`~golfsolve.grid.tournament.HOLE_COLUMNS`) and match rows."""
        if holes.empty:
            return
        ms = np.sort(holes["match"].unique())
        if ms[0] <= self.last_match:
            raise InputError(f"match {int(ms[0])} is added after match {self.last_match}")
        self.last_match = int(ms[-1])
        self.matches += len(ms)
        h = self.rules.holes
        per_hole = holes.groupby("match")["hole"].nunique()
        if (per_hole != h).any():
            raise InputError(f"a match of this tournament has {plural(int(per_hole[per_hole != h].iloc[0]), 'hole')}, "
                             f"not {h}")
        self.holes_played += len(ms) * h
        self.end_reasons.update(holes.drop_duplicates(["match", "hole"])["reason"].astype(str).tolist())
        for (bot, strokes), c in holes.groupby(["bot", "strokes"]).size().items():
            self.strokes_hist[bot][int(strokes)] += int(c)
        # one value per (match, entry): its strokes over the match's holes
        player = holes.groupby(["match", "entry"], sort=True).agg(
            bot=("bot", "first"), before_bot=("before_bot", "first"), s=("strokes", "sum")).reset_index()
        for bot, g in player.groupby("bot", sort=False):
            self.hole[bot].add(g.groupby("match")["s"].sum().to_numpy())
            self.player_holes[bot] += len(g) * h
        # one value per (match, bot, before_bot): the mean over the seats of that pairing in the
        # match (two copies of a bot after the same neighbour share a table), over the fixed
        # denominator holes * 60, as any count of such seats (at most six) divides 60
        pairing = player.groupby(["match", "bot", "before_bot"], sort=False)["s"].agg(["sum", "size"])
        for (bot, before), g in pairing.groupby(level=["bot", "before_bot"], sort=False):
            self.neighbour_holes[(bot, before)] += int(g["size"].sum()) * h
            self.neighbours.setdefault((bot, before), Moments(h * _SHARE_UNIT)).add(
                (g["sum"] * (_SHARE_UNIT // g["size"])).to_numpy())
        wide = player.pivot(index="match", columns="entry", values="s")
        for (a, b), mom in self.entry_pairs.items():
            d = (wide[a] - wide[b]).dropna()
            mom.add(d.astype("int64").to_numpy())
        by_name = player.groupby(["match", "bot"], sort=True)["s"].sum().unstack("bot")
        for (a, b), mom in self.pairs.items():
            if a in by_name and b in by_name:
                d = (self.seats_of[b] * by_name[a] - self.seats_of[a] * by_name[b]).dropna()
                mom.add(d.astype("int64").to_numpy())
        # ratings: each match in order, a bot name's mean strokes per hole over its seats
        for m, row in by_name.iterrows():
            self._ratings.rate({b: float(row[b]) / (self.seats_of[b] * h) for b in self.names
                                if b in row.index and row[b] == row[b]})
        for bot, g in matches.groupby("bot", sort=False):
            self.total[bot].add(g.groupby("match")["total"].sum().to_numpy())
            self.seat_matches[bot] += len(g)
            self.shares[bot] += int(np.rint(g["win_share"].to_numpy() * _SHARE_UNIT).sum())

    # -- what it shows ----------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        """What the tournament ran: rules, bots, seed, match count and seating."""
        return {"rules": self.rules.to_dict(), "rules_spec": self.rules.spec(), "bots": self.bots,
                "seed": self.seed, "matches": self.matches, "mc_samples": self.samples, "seating": self.seating,
                "bot_settings": self.bot_settings}

    def win_rate(self, bot: str) -> tuple[float, float, float]:
        """``bot``'s win rate a seat (a shared win counting ``1/k``) and its 95% interval, with
        matches as the units: in each match the bot name's share of the match's win (over all
        its seats, from 0 to 1) is one value, and the interval is the Wilson interval of those
        shares over its matches, divided by its seats. A share lies in [0, 1], so its variance
        is at most a proportion's with the same mean and the Wilson interval does not claim
        too much; the seats of one match share a table and are not independent trials (two
        seats cannot both win outright), so they are not counted as two. NaN without matches;
        a point (low = high) when one bot holds every seat: its rate is exactly one over the seats."""
        seats, matches = self.seats_of[bot], self.total[bot].n
        if matches == 0:
            return float("nan"), float("nan"), float("nan")
        k = self.shares[bot] / _SHARE_UNIT
        rate = k / (seats * matches)
        if len(self.names) == 1:
            # one bot at every seat wins every match: an interval would show chance where there is none
            return rate, rate, rate
        _, lo, hi = wilson(min(k, matches), matches)
        return rate, lo / seats, hi / seats

    def bot_summary(self) -> pd.DataFrame:
        """Per bot name: seats, holes, the matches it played (``seat_matches``: matches times
        seats), strokes per hole and per match with 95% intervals, and the win rate a seat
        with its interval over matches (:meth:`win_rate`: right at 0 and 100%; a point, low =
        high, when one bot holds every seat and its rate is exactly one over the seats)."""
        rows = []
        for bot in self.names:
            if self.seat_matches[bot] == 0 and self.hole[bot].n == 0:
                continue
            m, lo, hi = self.hole[bot].mean_ci()
            tm, tlo, thi = self.total[bot].mean_ci()
            wr, wlo, whi = self.win_rate(bot)
            rows.append({"bot": bot, "seats": self.seats_of[bot], "holes": int(self.player_holes[bot]),
                         "matches": int(self.total[bot].n), "seat_matches": int(self.seat_matches[bot]),
                         "strokes_per_hole": m, "hole_lo": lo, "hole_hi": hi,
                         "strokes_per_match": tm, "match_lo": tlo, "match_hi": thi,
                         "win_rate": wr, "win_lo": wlo, "win_hi": whi})
        return pd.DataFrame(rows)

    def paired(self, a: str, b: str) -> dict[str, Any]:
        """Mean strokes per hole of bot ``a`` minus bot ``b`` at the same tables, with a 95%
        interval over matches. Negative means ``a`` scores lower (better); ``significant``:
        the interval excludes 0. ``same_every_match``: every match gave the same difference
        (two bots that played alike, say), so there is no interval (NaN ends) and nothing is
        called significant: a t interval of such data has no width and would claim certainty."""
        # as simulate took them: 'Random' is the bot the tournament lists as 'random', not one that did not play
        a, b = self._written(a), self._written(b)
        if a == b:  # two copies of one bot are told apart by entry, not "did not both play"
            raise InputError(f"a paired difference compares two bots, not {a!r} with itself")
        if a not in self.seats_of or b not in self.seats_of:
            raise InputError(f"bots {a!r} and {b!r} did not both play")
        flip = (a, b) not in self.pairs
        mom = self.pairs[(b, a) if flip else (a, b)]
        m, lo, hi = mom.mean_ci()
        if flip:
            m, lo, hi = -m, -hi, -lo
        return {"a": a, "b": b, "diff": m + 0.0, "lo": lo, "hi": hi, "matches": int(mom.n),
                "holes": int(mom.n * self.rules.holes), "significant": bool(hi < 0 or lo > 0),
                "same_every_match": mom.no_spread()}

    def _written(self, name: object) -> str:
        """``name`` as the tournament writes its bots (:func:`~.botnames.bot_name`); a
        :class:`TypeError` or :class:`InputError` for what names no bot."""
        from .botnames import bot_name

        if isinstance(name, str) and name in self.seats_of:
            return name
        return bot_name(name)  # type: ignore[arg-type]

    def differences(self) -> list[dict[str, Any]]:
        """Paired differences between successive bot names in order of mean strokes (best first)."""
        s = self.bot_summary()
        if s.empty:
            return []
        names = list(s.sort_values("strokes_per_hole", kind="stable")["bot"])
        return [self.paired(names[i], names[i + 1]) for i in range(len(names) - 1)]

    def entry_difference(self, a: int, b: int) -> dict[str, Any]:
        """Mean strokes per hole of entry ``a`` (position in ``bots``) minus entry ``b`` at
        the same tables, with a 95% interval over matches (``same_every_match`` as in :meth:`paired`)."""
        n = len(self.bots)
        # 1.5 would fail as a KeyError in the table of entry pairs
        if not (is_whole_number(a) and is_whole_number(b) and 0 <= a < n and 0 <= b < n) or a == b:
            raise InputError(f"entries must be two different numbers from 0 to {n - 1}, not {a} and {b}")
        a, b = operator.index(a), operator.index(b)
        mom = self.entry_pairs[(min(a, b), max(a, b))]
        m, lo, hi = mom.mean_ci()
        if a > b:
            m, lo, hi = -m, -hi, -lo
        return {"a": a, "b": b, "bot_a": self.bots[a], "bot_b": self.bots[b], "diff": m + 0.0, "lo": lo, "hi": hi,
                "matches": int(mom.n), "significant": bool(hi < 0 or lo > 0), "same_every_match": mom.no_spread()}

    def neighbour_effect(self) -> pd.DataFrame:
        """Strokes per hole of each bot by the bot playing just before it, with 95% intervals
        over matches: one row per (``bot``, ``before_bot``), each match where the pairing sat
        giving one value (its mean over the seats where it sat, which share a table);
        ``matches`` counts those matches, ``holes`` the player-holes behind the row."""
        order = {b: i for i, b in enumerate(self.names)}
        rows = []
        for (bot, before), mom in sorted(self.neighbours.items(), key=lambda kv: (order[kv[0][0]], order[kv[0][1]])):
            m, lo, hi = mom.mean_ci()
            rows.append({"bot": bot, "before_bot": before, "matches": int(mom.n),
                         "holes": int(self.neighbour_holes[(bot, before)]),
                         "strokes_per_hole": m, "lo": lo, "hi": hi})
        return pd.DataFrame(rows, columns=["bot", "before_bot", "matches", "holes", "strokes_per_hole", "lo", "hi"])

    def ratings(self) -> list[dict[str, Any]]:
        """Plackett-Luce ratings per bot name, best first (:mod:`golfsolve.grid.ratings`)."""
        return self._ratings.table()


__all__ = ["Moments", "Tally"]
