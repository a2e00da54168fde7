"""Ratings across many kinds of bot, with the maintained ``openskill`` library.

Paired stroke differences compare two bots at a time; a rating puts every bot of a
tournament on one scale. Each match is one rated game: every bot name is one player whose
result is its mean strokes per hole in that match (a bot seated twice counts once, with
the mean of its seats), ranked lowest first, ties shared. Matches are rated in order, so
the ratings are as reproducible as the tournament.
"""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

from .tournament import Tournament


def rate_bots(t: Tournament) -> list[dict[str, Any]]:
    """Plackett-Luce ratings per bot name, best first: ``mu``, ``sigma`` and the
    conservative ``ordinal`` (mu - 3 sigma) that orders them."""
    model = PlackettLuce()
    names = list(dict.fromkeys(t.bots))
    ratings = {b: model.rating(name=b) for b in names}
    per = t.holes.groupby(["match", "bot"])["strokes"].mean().unstack("bot")
    for _, row in per.iterrows():
        present = [b for b in names if b in row.index and row[b] == row[b]]  # skip NaN
        if len(present) < 2:
            continue
        teams = model.rate([[ratings[b]] for b in present], ranks=[float(row[b]) for b in present])
        for b, team in zip(present, teams):
            ratings[b] = team[0]
    out = [{"bot": b, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for b, r in ratings.items()]
    return sorted(out, key=lambda d: -d["ordinal"])
