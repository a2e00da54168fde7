"""openskill ratings in the grid report, beside the paired differences."""

from __future__ import annotations

from golfsolve.stats.gridreport import render_markdown, report_data
from golfsolve.grid.rules import GridRules
from golfsolve.grid.tournament import rate_bots, simulate


def test_ratings_order_bots_and_appear_with_three_kinds():
    t = simulate(GridRules(holes=3), ["heuristic", "greedy", "random", "random"], 10, seed=1)
    r = rate_bots(t)
    assert [x["bot"] for x in r][-1] == "random"
    assert {x["bot"] for x in r} == {"heuristic", "greedy", "random"}
    assert all(x["ordinal"] == x["mu"] - 3 * x["sigma"] for x in r)
    assert r[0]["mu"] > r[-1]["mu"] + 5
    data = report_data(t)
    assert data["ratings"] == r
    assert "## Ratings" in render_markdown(t, data)


def test_no_ratings_for_two_kinds():
    t = simulate(GridRules(players=2, holes=2), ["greedy", "random"], 3, seed=2)
    data = report_data(t)
    assert data["ratings"] == []
    assert "## Ratings" not in render_markdown(t, data)
