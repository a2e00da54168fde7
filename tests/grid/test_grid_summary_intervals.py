"""The intervals a tournament's summary and report show: win rates, paired differences and neighbour
effects over matches, with no interval of no width."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from golfsolve.grid.rules import GridRules
from golfsolve.grid.tally import Tally
from golfsolve.grid.tournament import HOLE_COLUMNS, simulate
from golfsolve.intervals import wilson
from golfsolve.stats.gridreport import render_markdown, report_data, summary_text

from run_helpers import finished_grid_run, one_hole_grid_rules


MATCH_COLUMNS = ["match", "seat", "entry", "bot", "total", "winner", "win_share"]


def _alike(delta: int, matches: int = 6) -> Tally:
    """A two-player tally in which bot a scores ``delta`` strokes a hole more than bot b in
    every hole of every match (the matches themselves differ)."""
    rules = GridRules(players=2, holes=2)
    holes, results = [], []
    for m in range(matches):
        for h in range(2):
            for s, (e, b) in enumerate([(0, "a"), (1, "b")]):
                st = 4 + m + (delta if b == "a" else 0)
                holes.append((m, h, s, e, b, 1 - e, "ab"[1 - e], st, st, 0, -1, -1, "closed", 8, 0))
        for s, (e, b) in enumerate([(0, "a"), (1, "b")]):
            won = delta == 0 or (b == "b") == (delta > 0)
            results.append((m, s, e, b, 2 * (4 + m) + (2 * delta if b == "a" else 0), won,
                            (0.5 if delta == 0 else 1.0) if won else 0.0))
    t = Tally(rules, ["a", "b"])
    t.add(pd.DataFrame(holes, columns=HOLE_COLUMNS), pd.DataFrame(results, columns=MATCH_COLUMNS))
    return t


def test_two_bots_that_scored_alike_in_every_match_get_no_zero_width_interval():
    """A user tallied matches in which two bots scored the same strokes in every match: the
    summary printed 'a - b: +0.00 [+0.00, +0.00]' (and 'b - a: -0.00 [-0.00, -0.00]'), an
    interval of no width that claims the two are known to be equal to the last decimal, from
    six matches. Now there is no interval and the summary says they did not differ in these
    matches."""
    t = _alike(0)
    d = t.paired("a", "b")
    assert d["same_every_match"] and not d["significant"] and d["diff"] == 0
    assert math.isnan(d["lo"]) and math.isnan(d["hi"])
    assert str(t.paired("b", "a")["diff"]) == "0.0"  # not -0.0
    data = report_data(t)
    text = summary_text(data, t.rules)
    assert "[+0.00, +0.00]" not in text and "no difference in any of these 6 matches" in text, text
    md = render_markdown(data)
    assert "no difference in any of these 6 matches: no interval" in md and "| yes |" not in md, md


def test_a_difference_the_same_in_every_match_is_not_called_significant():
    """Bot a scored one stroke a hole more than bot b in every one of six matches: the t
    interval of those differences has no width, [+1.00, +1.00], and the report's 'excludes 0'
    said 'yes', a significance claimed from data with no spread to measure chance by. Now:
    no interval, not significant, and the report says every match gave the same difference."""
    t = _alike(1)
    d = t.paired("a", "b")
    assert d["diff"] == 1.0 and d["same_every_match"] and not d["significant"]
    assert not t.entry_difference(0, 1)["significant"]
    md = render_markdown(report_data(t))
    assert "the same difference in every one of these 6 matches: no interval" in md
    assert "| yes |" not in md and "[+1.00, +1.00]" not in md, md


def test_a_bot_seated_twice_gets_its_win_rate_interval_over_matches():
    """`grid simulate --bots greedy,random,greedy --matches 4 --json`: greedy, seated twice,
    showed 'matches': 8 (its seats times the matches: there were 4) and a win-rate interval of
    [21.5%, 78.5%], a Wilson interval over 8 seats as if they were independent trials, above
    50% though two seats cannot both win a match outright. Now one value per match (greedy's
    share of the match's win over its seats), a Wilson interval over the 4 matches divided
    by the seats: [25.5%, 50.0%], and 'matches': 4."""
    t = simulate(GridRules(players=3, holes=2), ["greedy", "random", "greedy"], 4, seed=5)
    rows = {r["bot"]: r for r in report_data(t)["bots"]}
    g = rows["greedy"]
    assert (g["matches"], g["seat_matches"], g["seats"]) == (4, 8, 2)
    won = float(t.matches[t.matches["bot"] == "greedy"]["win_share"].sum())  # shares over both seats
    _, lo, hi = wilson(won, 4)
    assert (g["win_rate"], g["win_lo"], g["win_hi"]) == pytest.approx((won / 8, lo / 2, hi / 2))
    assert g["win_hi"] <= 0.5
    r = rows["random"]  # seated once: as before, a Wilson interval over its matches
    assert (r["matches"], r["win_lo"]) == (4, 0.0) and r["win_hi"] == pytest.approx(wilson(0, 4)[2])


def test_the_neighbour_effect_counts_matches_not_seats():
    """With --bots random,greedy,greedy,greedy, every match seats a greedy bot after another
    greedy bot twice: the neighbour-effect row 'greedy after greedy' counted 2 values a match
    and called them matches (240 of 120), its interval as narrow as if the two seats at one
    table were independent. Now each match gives one value (the mean over those seats)."""
    t = simulate(GridRules(players=4, holes=1), ["random", "greedy", "greedy", "greedy"], 12, seed=2)
    ne = report_data(t)["neighbours"]
    row = next(r for r in ne if (r["bot"], r["before_bot"]) == ("greedy", "greedy"))
    assert (row["matches"], row["holes"]) == (12, 24), row
    h = t.holes[(t.holes["bot"] == "greedy") & (t.holes["before_bot"] == "greedy")]
    from golfsolve.intervals import mean_ci

    assert (row["strokes_per_hole"], row["lo"], row["hi"]) == pytest.approx(
        mean_ci(h.groupby("match")["strokes"].mean().to_numpy()), rel=1e-12)


def test_the_strokes_distribution_figure_is_in_percent_as_the_other_figures_are(tmp_path, monkeypatch):
    """The grid report's distribution.png drew shares (0 to 0.08 on its axis) where its
    win-rate figure and the stats report draw percentages. Now it is in % of each bot's holes
    too, and a bot's curve still adds up to all of its holes."""
    import golfsolve.stats.gridreport as gridreport

    seen = {}

    def keep(fig, data, path):
        seen[path.name] = fig
        return path

    monkeypatch.setattr(gridreport, "_finish", keep)
    gridreport.write_plots(report_data(_alike(1)), tmp_path)
    ax = seen["distribution.png"].axes[0]
    assert "%" in ax.get_ylabel()
    for line in ax.get_lines():
        assert abs(sum(line.get_ydata()) - 100) < 1e-9


def test_a_mean_from_a_few_matches_has_a_student_t_interval():
    """grid simulate --matches 2 printed 'paired-rel:2 - ismcts:2: -12.75 [-13.24, -12.26]', a
    "95%" interval from two matches made with the normal quantile 1.96, which holds the mean about
    70% of the time from two values (Student's t at one degree of freedom is 12.71): the report
    called the difference significant ("excludes 0: yes") on evidence that cannot show it"""
    import math

    from golfsolve.grid.tournament import bot_summary, paired_difference, simulate
    from golfsolve.intervals import mean_ci

    assert mean_ci([1.0, 2.0]) == pytest.approx((1.5, 1.5 - 12.7062047 * 0.5, 1.5 + 12.7062047 * 0.5))
    t = simulate(one_hole_grid_rules(), ["random", "greedy"], 2, 0)
    per = t.holes.pivot_table(index="match", columns="bot", values="strokes", aggfunc="mean")
    d = (per["random"] - per["greedy"]).to_numpy(dtype=float)
    half = 12.7062047 * float(np.std(d, ddof=1)) / math.sqrt(2)
    got = paired_difference(t, "random", "greedy")
    assert (got["diff"], got["lo"], got["hi"]) == pytest.approx((d.mean(), d.mean() - half, d.mean() + half))
    s = bot_summary(t).set_index("bot")
    x = per["greedy"].to_numpy(dtype=float)
    assert s.loc["greedy", "hole_hi"] - s.loc["greedy", "strokes_per_hole"] == \
        pytest.approx(12.7062047 * float(np.std(x, ddof=1)) / math.sqrt(2))
    from golfsolve.intervals import t_quantile

    # Student's t 97.5% quantiles from the tables, at 1, 2, 9, 99 and 999 degrees of freedom
    for df, q in [(1, 12.7062047), (2, 4.3026527), (9, 2.2621572), (99, 1.9842169), (999, 1.9623415)]:
        assert t_quantile(df) == pytest.approx(q, abs=1e-7)


def test_one_bot_at_every_seat_wins_exactly_its_share_with_no_interval(tmp_path, run_cli):
    """golfsolve grid simulate with its default bots (a heuristic at every seat) said "wins 25.0%
    [4.6, 69.9]": a bot that holds every seat wins every match, a quarter of it a seat exactly,
    and the interval showed chance where there is none (the report's table the same)"""
    from golfsolve.grid.tournament import bot_summary, simulate

    r = run_cli(["grid", "simulate", "--grid", "4", "--holes", "1", "--matches", "2", "-q"])
    assert r.exit_code == 0, r.stderr
    # the win rate's line (the bots' settings below it list the heuristic's parameters in brackets)
    assert "wins  25.0% (exact: one bot at every seat)" in r.stdout
    assert "[" not in r.stdout.split("wins")[1].splitlines()[0]
    row = bot_summary(simulate(one_hole_grid_rules(), ["greedy", "greedy"], 3, 0)).iloc[0]
    assert (row["win_rate"], row["win_lo"], row["win_hi"]) == (0.5, 0.5, 0.5)
    run = finished_grid_run(tmp_path / "run", bots=("greedy", "greedy"))
    r = run_cli(["grid", "report", str(run)])
    assert r.exit_code == 0, r.stderr
    assert "| 50.0% (exact: one bot at every seat) |" in (run / "_report" / "report.md").read_text()
    # two bots: their win rates keep their Wilson intervals
    row = bot_summary(simulate(one_hole_grid_rules(), ["greedy", "random"], 3, 0)).set_index("bot").loc["greedy"]
    assert row["win_lo"] < row["win_rate"] <= row["win_hi"]
