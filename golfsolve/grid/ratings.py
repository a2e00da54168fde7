"""Ratings across many kinds of bot, with the maintained ``openskill`` library.

Paired stroke differences compare two bots at a time; a rating puts every bot of a
tournament on one scale. Each match is one rated game: every bot name is one player whose
result is its mean strokes per hole in that match (a bot seated twice counts once, with
the mean of its seats), ranked lowest first, ties shared. Matches are rated in order, so
the ratings are as reproducible as the tournament.

The lowest of the tournament's modules: it rates results, knowing nothing of a tournament
(:func:`golfsolve.grid.tournament.rate_bots` rates a whole one, through its tally).
"""

from __future__ import annotations

from typing import Any, Sequence


class Ratings:
    """Plackett-Luce ratings of ``names``, updated one match at a time."""

    def __init__(self, names: Sequence[str]) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.names = list(dict.fromkeys(names))
        self.ratings = {b: self.model.rating(name=b) for b in self.names}

    def rate(self, result: dict[str, float]) -> None:
        """Rate one match: each bot name present and its mean strokes per hole (lower is better)."""
        present = [b for b in self.names if b in result]
        if len(present) < 2:
            return
        teams = self.model.rate([[self.ratings[b]] for b in present], ranks=[result[b] for b in present])
        for b, team in zip(present, teams):
            self.ratings[b] = team[0]

    def table(self) -> list[dict[str, Any]]:
        """``mu``, ``sigma`` and the conservative ``ordinal`` (mu - 3 sigma) per bot name, best first."""
        out = [{"bot": b, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for b, r in self.ratings.items()]
        return sorted(out, key=lambda d: -d["ordinal"])



__all__ = ["Ratings"]
