"""Seeded tournaments between bots, their results as tables, and the statistics on them.

Every match draws its generators from ``numpy.random.SeedSequence(seed).spawn``, so a run
is reproducible and does not depend on how matches are split up. Seats rotate from match
to match (match ``m`` seats entry ``(s + m) % n`` at seat ``s``), and the first player
moves one seat every hole, so no bot keeps a seat advantage.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import numpy as np
import pandas as pd

from ..errors import InputError
from ..intervals import mean_ci
from .bots import make_bot
from .engine import play_match
from .rules import GridRules

HOLE_COLUMNS = ["match", "hole", "seat", "entry", "bot", "strokes", "raw", "first", "closer", "knocker",
                "reason", "turns", "recycles"]


@dataclass
class Tournament:
    """Results of :func:`simulate`: one row per player per hole, one per player per match."""

    rules: GridRules
    bots: list[str]
    seed: int
    holes: pd.DataFrame
    matches: pd.DataFrame
    samples: Optional[int] = None

    def meta(self) -> dict[str, Any]:
        """What the tournament ran: rules, bots, seed and match count, for its manifest and report."""
        return {"rules": self.rules.to_dict(), "rules_spec": self.rules.spec(), "bots": self.bots,
                "seed": self.seed, "matches": int(self.matches["match"].nunique()) if len(self.matches) else 0,
                "mc_samples": self.samples}


def simulate(rules: GridRules, bots: Sequence[str], matches: int, seed: int, samples: Optional[int] = None,
             progress: Optional[Callable[[int], None]] = None, first_match: int = 0) -> Tournament:
    """Play ``matches`` matches of ``rules.holes`` holes between ``bots`` (names such as
    ``mc``, ``greedy``, ``random``; ``samples`` sets the Monte Carlo sample count).

    ``first_match`` starts the seed stream further on, so a run can be continued in parts
    that together equal one long run.
    """
    n = rules.players
    if len(bots) != n:
        raise InputError(f"{len(bots)} bots for {n} players")
    if matches < 1:
        raise InputError(f"--matches must be at least 1, not {matches}")
    for b in bots:
        make_bot(b)
    hole_rows: list[tuple] = []
    match_rows: list[tuple] = []
    for k in range(matches):
        m = first_match + k
        # match m's sequence is SeedSequence(seed).spawn(...)[m], made directly: a run continued
        # at match 1,000,000 does not first make a million sequences
        ss = np.random.SeedSequence(seed, spawn_key=(m,))
        game_ss, *bot_ss = ss.spawn(n + 1)
        entries = [(s + m) % n for s in range(n)]  # seat -> entry
        players = [make_bot(bots[e], np.random.default_rng(bot_ss[s]), samples) for s, e in enumerate(entries)]
        res = play_match(rules, players, np.random.default_rng(game_ss))
        for h, hr in enumerate(res.holes):
            for s in range(n):
                hole_rows.append((m, h, s, entries[s], bots[entries[s]], hr.strokes[s], hr.raw[s], hr.first,
                                  -1 if hr.closer is None else hr.closer, -1 if hr.knocker is None else hr.knocker,
                                  hr.reason, hr.turns, hr.recycles))
        share = 1.0 / len(res.winners)
        for s in range(n):
            won = s in res.winners
            match_rows.append((m, s, entries[s], bots[entries[s]], res.totals[s], won, share if won else 0.0))
        if progress is not None:
            progress(1)
    holes = pd.DataFrame(hole_rows, columns=HOLE_COLUMNS)
    mt = pd.DataFrame(match_rows, columns=["match", "seat", "entry", "bot", "total", "winner", "win_share"])
    return Tournament(rules=rules, bots=list(bots), seed=seed, holes=holes, matches=mt, samples=samples)


# -- statistics ----------------------------------------------------------------
def bot_summary(t: Tournament) -> pd.DataFrame:
    """Per bot name: holes, strokes per hole and per match with 95% intervals, win rate.

    Holes of one match are not independent (same table), so intervals are taken over
    matches: each (match, player) gives its mean strokes per hole.
    """
    rows = []
    h = t.holes
    per_player = h.groupby(["match", "entry", "bot"], sort=False)["strokes"].mean().reset_index()
    for bot in sorted(h["bot"].unique(), key=lambda b: t.bots.index(b)):
        sel = per_player[per_player["bot"] == bot]["strokes"].to_numpy()
        m, lo, hi = mean_ci(sel)
        mt = t.matches[t.matches["bot"] == bot]
        tm, tlo, thi = mean_ci(mt["total"].to_numpy())
        wr, wlo, whi = mean_ci(mt["win_share"].to_numpy())
        wlo, whi = max(0.0, wlo), min(1.0, whi)  # a rate's interval stays within [0, 1]
        rows.append({"bot": bot, "seats": int((np.array(t.bots) == bot).sum()), "holes": int((h["bot"] == bot).sum()),
                     "matches": int(len(mt)), "strokes_per_hole": m, "hole_lo": lo, "hole_hi": hi,
                     "strokes_per_match": tm, "match_lo": tlo, "match_hi": thi,
                     "win_rate": wr, "win_lo": wlo, "win_hi": whi})
    return pd.DataFrame(rows)


def paired_difference(t: Tournament, a: str, b: str) -> dict[str, float]:
    """Mean strokes per hole of bot ``a`` minus bot ``b`` at the same tables, with a 95%
    interval over matches. Negative means ``a`` scores lower (better)."""
    per = t.holes.groupby(["match", "bot"])["strokes"].mean().unstack("bot")
    if a not in per or b not in per:
        raise InputError(f"bots {a!r} and {b!r} did not both play")
    d = (per[a] - per[b]).dropna().to_numpy()
    m, lo, hi = mean_ci(d)
    return {"a": a, "b": b, "diff": m, "lo": lo, "hi": hi, "matches": int(len(d)),
            "holes": int(t.holes[t.holes["bot"] == a][["match", "hole"]].drop_duplicates().shape[0]),
            "significant": bool(hi < 0 or lo > 0)}


def all_differences(t: Tournament) -> list[dict[str, float]]:
    """Paired differences between successive bot names in order of mean strokes (best first)."""
    s = bot_summary(t).sort_values("strokes_per_hole")
    names = list(s["bot"])
    return [paired_difference(t, names[i], names[i + 1]) for i in range(len(names) - 1)]
