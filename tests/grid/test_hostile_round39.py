"""Round 39: Grid Golf's measurements as a skeptical researcher meets them.

Each test is a flaw found by recomputing the reported numbers from the run folder's tables
with independent code (means, t intervals, Wilson intervals, paired differences, the
study's effects) and by running the designs' edge cases (self-play, two and six players,
ties, interrupted and re-chunked runs).
"""

from __future__ import annotations

from golfsolve.grid.rules import parse_rules
from golfsolve.grid.tournament import bot_summary, simulate
from golfsolve.stats.studyreport import strong_wins


def test_study_strong_wins_counts_a_shared_win_as_a_share():
    """was: the study's "strongest wins the match" counted a tied win as a whole win for
    every tied player, so at two players the two bots' rates summed to more than 100% and
    an equal bot seemed to win more than half its matches; ``grid simulate`` counts 1/k."""
    rules = parse_rules("default", players=2, grid=4, holes=1)
    t = simulate(rules, ["greedy", "heuristic"], 24, 4)
    ties = int((t.matches.groupby("match")["winner"].sum() > 1).sum())
    assert ties == 2  # the seed is chosen for its ties: the test means nothing without them
    a, b = strong_wins([t], "greedy"), strong_wins([t], "heuristic")
    assert a["mean"] + b["mean"] == 1.0
    assert a["won"] + b["won"] == 24
    s = bot_summary(t).set_index("bot")
    assert a["mean"] == s.loc["greedy", "win_rate"] and b["mean"] == s.loc["heuristic", "win_rate"]
    assert a["lo"] < a["mean"] < a["hi"]
