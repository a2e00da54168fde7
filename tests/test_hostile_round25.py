"""Hostile sweep, round 25: the numbers of the reports (``golfsolve report``, the fair-stats
table, ``grid report``), read as a skeptical reader does: every figure recomputed from the
Parquet table with formulas of the test's own, every plot looked at. Each test is a flaw
found that way, with a test that fails without its fix.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from run_helpers import made_here

Z = 1.959963984540054


def _extent(artist, fig):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    return artist.get_window_extent(FigureCanvasAgg(fig).get_renderer())


def _capture(monkeypatch, module) -> dict:
    """The figures ``module`` (report or gridreport) saves, by file name, as they are saved."""
    figures: dict = {}
    original = module._finish

    def keep(fig, data, path):
        figures[Path(path).name] = fig
        return original(fig, data, path)

    monkeypatch.setattr(module, "_finish", keep)
    return figures


def _md_rows(md: str, section: str) -> dict[str, list[str]]:
    """The first table under ``## section`` of a Markdown report, by its first cell."""
    text = md.split(f"## {section}\n", 1)[1]
    rows = [ln for ln in text.split("\n## ")[0].splitlines() if ln.startswith("| ")][1:]
    return {cells[0]: cells[1:] for cells in ([c.strip() for c in r.strip().strip("|").split("|")] for r in rows)}


def _step_height(polygon, x: float) -> float:
    """The height of a step histogram's outline (``ax.hist(histtype="step")``) at ``x``."""
    v = polygon.get_xy()
    for (xa, ya), (xb, yb) in zip(v[:-1], v[1:]):
        if ya == yb and min(xa, xb) < x < max(xa, xb):
            return float(ya)
    return 0.0


@pytest.fixture(scope="module")
def stats_run(tmp_path_factory) -> Path:
    """Deals 0..17 (two 9-deal matches) under easy and strict."""
    out = tmp_path_factory.mktemp("r25") / "run"
    made_here("stats", "--count", "18", "--rules", "easy,strict", "--jobs", "1", "--out", str(out), "-q")
    return out


def test_the_app_score_plot_gives_0_and_10_a_bar_each(stats_run, tmp_path, monkeypatch):
    """Was: the app-score histogram's bins were 20 wide from 0, so a score of 10 (17 cards
    left) and one of 0 (18 or more) shared the first bar: the plot showed a share at "0"
    where the table's "0" column said 0.00%. Each score a game can end with has its bar, whose
    height is that score's share of the deals, computed here from the table."""
    from golfsolve.stats import report

    df = pd.read_parquet(stats_run)
    strict = df.index[df["rules"] == "strict"]
    # two locked games: 17 cards left (350 - 20 * 17 = 10 points) and 20 left (0 points)
    df.loc[strict[0], ["winnable", "best_left", "app_score"]] = [False, 17, 10]
    df.loc[strict[1], ["winnable", "best_left", "app_score"]] = [False, 20, 0]
    figures = _capture(monkeypatch, report)
    data = report.report_data(stats_run, df)
    report.write_plots(df, data, tmp_path)
    ax = figures["app_score.png"].axes[0]
    outline = {p.get_label(): p for p in ax.patches}["strict"]
    scores = df.loc[df["rules"] == "strict", "app_score"].astype(int)
    left = df.loc[df["rules"] == "strict", "best_left"].astype(int)
    assert ((left == 0) == (scores == 350)).all()
    assert (scores[left > 0] == np.maximum(0, 10 * (35 - left[left > 0]) - 10 * left[left > 0])).all()
    for score in sorted(set(range(10, 350, 20)) | {0, 350}):
        assert _step_height(outline, score) == pytest.approx(100 * (scores == score).mean()), score
    assert data["app_score"]["strict"]["share_0"] == pytest.approx((scores == 0).mean())


def test_a_solve_of_a_few_microseconds_is_not_shown_as_0_ms(stats_run, tmp_path, monkeypatch):
    """Was: the solve-time table printed its median and mean with two decimals, so Easy with an
    empty start (a few microseconds a deal) read "0.00 ms" beside rule sets measured in
    milliseconds, and the plot's legend said "median 0.00 ms". Times under 0.1 ms keep two
    significant digits; the table's times are checked against the table's own seconds."""
    from golfsolve.stats import report

    df = pd.read_parquet(stats_run)
    easy = df["rules"] == "easy"
    df.loc[easy, "seconds"] = np.linspace(3.1e-6, 9.0e-6, int(easy.sum()))
    figures = _capture(monkeypatch, report)
    data = report.report_data(stats_run, df)
    report.write_plots(df, data, tmp_path)
    row = _md_rows(report.render_markdown(data), "Solve time")["easy"]
    ms = df.loc[easy, "seconds"].to_numpy() * 1000
    for shown, value in ((row[0], np.median(ms)), (row[1], ms.mean()), (row[3], ms.max())):
        number = float(shown.removesuffix(" ms"))
        assert number > 0 and abs(number - value) <= 0.05 * value, (shown, value)
    legend = [t.get_text() for t in figures["solve_time.png"].axes[0].get_legend().get_texts()]
    assert f"easy (median {row[0]})" in legend
    assert not any("0.00 ms" in t for t in legend)


def test_one_9_deal_match_is_1_match_in_the_legend(tmp_path, monkeypatch):
    """Was: the 9-deal match plot's legend said "easy (1 matches)"."""
    from golfsolve.stats import report

    out = tmp_path / "run"
    made_here("stats", "--count", "9", "--rules", "easy", "--jobs", "1", "--out", str(out), "-q")
    figures = _capture(monkeypatch, report)
    report.write_report(out, out / "_report")
    labels = [t.get_text() for t in figures["nine_deal_match.png"].axes[0].get_legend().get_texts()]
    assert labels == ["easy (1 match)"]


def test_long_rule_set_names_under_the_win_rate_bars_do_not_run_into_each_other(tmp_path, monkeypatch):
    """Was: with seven rule sets with switches (``classic+jokers1+empty``...) the names under the
    win-rate bars overlapped into one unreadable line. They are turned when they do not fit."""
    from golfsolve.stats import report

    rules = "easy+jokers1,classic+jokers2,dead-king+empty,strict+jokers1,easy+empty,classic+empty,classic+jokers1+empty"
    out = tmp_path / "run"
    made_here("stats", "--count", "1", "--rules", rules, "--jobs", "1", "--out", str(out), "-q")
    figures = _capture(monkeypatch, report)
    report.write_report(out, out / "_report")
    fig = figures["win_rate.png"]
    labels = fig.axes[0].get_xticklabels()
    assert [t.get_text() for t in labels] == rules.split(",")
    # seven long names do not fit flat: turned (was: a branch for flat names that never ran
    # here, and nothing checked that the names were turned)
    assert all(t.get_rotation() != 0 for t in labels), [t.get_rotation() for t in labels]
    for a, b in zip(labels, labels[1:]):
        angle = math.radians(a.get_rotation())
        # parallel slanted lines: apart by the ticks' spacing times the sine of their slant
        spacing = _extent(b, fig).x1 - _extent(a, fig).x1  # right-aligned at their ticks
        height = a.get_fontsize() * fig.dpi / 72 * 1.2
        assert spacing * math.sin(angle) >= height, "two slanted names under the bars overlap"
    for text in fig.texts:  # the footer, with its seven rule sets, inside the figure
        assert _extent(text, fig).x1 <= fig.bbox.x1


def test_strict_by_another_name_is_reported_as_strict(tmp_path):
    """Was: ``strict+stuck`` (the same rules as Strict) had "—" in the published column and no
    word on why, where ``strict`` has "none (see below)" and the sentence below: the report
    went by the name, not the rules."""
    from golfsolve.stats import report

    out = tmp_path / "run"
    made_here("stats", "--count", "2", "--rules", "classic,strict+stuck", "--jobs", "1", "--out", str(out), "-q")
    md = report.render_markdown(report.report_data(out))
    assert _md_rows(md, "Win rate per rule set")["strict+stuck"][3] == "none (see below)"
    assert "golfsolve's **Strict** rule draws only when no card can be removed" in md
    assert _md_rows(md, "Win rate per rule set")["classic"][3].startswith("45.22% [43.68, 46.77] queen-on-king")


def test_a_footer_fits_its_figure(tmp_path):
    """Was: the footer's lines were wrapped at 120 characters whatever the figure's width, and
    its first line not at all: on the grid report's 6.5-inch figures the command was cut off at
    the right edge ("... --quie"), and a run with many rule sets lost the end of its first line
    on any figure. Every line is wrapped to what the figure holds, never at a hyphen."""
    from matplotlib.figure import Figure

    from golfsolve.stats.atomic import figure_footer, save_footed_figure

    head = "12 deals (GO1 deal numbers 0..11); rules: " + ", ".join(["classic+jokers1+empty"] * 8)
    command = ("golfsolve grid simulate --players 6 --grid 6 --holes 9 --rules default --openers 2 --bots "
               "heuristic,greedy,random,heuristic,greedy,random --matches 30 --seed 0 --out results/g6 --jobs 2 "
               "--chunk-size 2 --quiet")
    for width in (6.5, 7, 12):
        fig = Figure(figsize=(width, 4))
        fig.subplots().plot([0, 1], [0, 1])
        save_footed_figure(fig, figure_footer(head, command), tmp_path / "f.png")
        footer = fig.texts[-1]
        assert _extent(footer, fig).x1 <= fig.bbox.x1, width
        lines = footer.get_text().splitlines()
        assert not any(line.endswith("-") for line in lines)
        command_lines = lines[next(i for i, line in enumerate(lines) if line.startswith("$ ")):]
        assert " ".join(command_lines).removeprefix("$ ") == command


@pytest.fixture(scope="module")
def grid_three(tmp_path_factory) -> Path:
    """Three different bots on the 4-card grid: each bot sits after the two others, never itself."""
    out = tmp_path_factory.mktemp("r25grid") / "g3"
    made_here("grid", "simulate", "--players", "3", "--grid", "4", "--holes", "3", "--bots", "heuristic,greedy,random",
              "--matches", "12", "--out", str(out), "-q")
    return out


def _grid_figures(run: Path, monkeypatch) -> tuple[dict, dict]:
    from golfsolve.stats import gridreport
    from golfsolve.stats.gridruns import load_tournament, run_command

    figures = _capture(monkeypatch, gridreport)
    data, _ = gridreport.write_report(load_tournament(run), run / "_report", run_command(run), run=run)
    return figures, data


def test_the_neighbour_bars_stand_over_their_bot_and_show_the_table(grid_three, monkeypatch):
    """Was: neighbours.png kept a slot for every neighbour beside every bot, so where a bot never
    sits after itself (three different bots) its two bars stood off-centre of its name, and the
    legend in a corner covered an interval. Each bot's bars are centred on its name, and their
    heights and intervals are the neighbour table's, recomputed here from the holes table: the
    bot's mean strokes a hole after that neighbour (one value per match) less its mean."""
    from scipy.stats import t as student

    figures, _ = _grid_figures(grid_three, monkeypatch)
    fig = figures["neighbours.png"]
    ax = fig.axes[0]
    names = [t.get_text() for t in ax.get_xticklabels()]
    df = pd.read_parquet(grid_three)
    bars = [p for p in ax.patches if p.get_width() > 0 and p.get_width() < 1]
    legend = {t.get_text(): h for t, h in zip(ax.get_legend().get_texts(), ax.get_legend().legend_handles)}
    for j, bot in enumerate(names):
        mine = sorted((b for b in bars if abs(b.get_x() + b.get_width() / 2 - j) < 0.5), key=lambda b: b.get_x())
        befores = [b for b in names if b != bot]
        assert len(mine) == 2
        assert np.mean([b.get_x() + b.get_width() / 2 for b in mine]) == pytest.approx(j), f"{bot}'s bars off its name"
        mean = df[df["bot"] == bot].groupby("match")["strokes"].mean().mean()
        for bar in mine:
            before = next(b for b in befores if tuple(legend[f"after {b}"].get_facecolor()) == tuple(bar.get_facecolor()))
            per = df[(df["bot"] == bot) & (df["before_bot"] == before)].groupby("match")["strokes"].mean()
            assert bar.get_height() == pytest.approx(per.mean() - mean)
            half = student.ppf(0.975, len(per) - 1) * per.std(ddof=1) / math.sqrt(len(per))
            whisker = next(c for c in ax.collections
                           if np.allclose(c.get_segments()[0][0][0], bar.get_x() + bar.get_width() / 2))
            ys = sorted(whisker.get_segments()[0][:, 1])
            assert ys == pytest.approx([per.mean() - mean - half, per.mean() - mean + half])
    frame = _extent(ax.get_legend(), fig)
    for c in ax.collections:
        for seg in c.get_segments():
            top = ax.transData.transform(seg[np.argmax(seg[:, 1])])
            assert not (frame.x0 <= top[0] <= frame.x1 and frame.y0 <= top[1] <= frame.y1), "the legend covers an interval"


def test_two_players_have_no_neighbour_effect_to_draw(tmp_path, monkeypatch):
    """Was: at two players each bot sits after its only opponent, so its strokes after that
    neighbour are its mean: neighbours.png drew bars of exactly 0 with intervals, beside the
    bots' names, as if an effect had been measured as none. It says there is nothing to compare."""
    from golfsolve.stats.gridreport import NO_NEIGHBOUR_CONTRAST

    out = tmp_path / "g2"
    made_here("grid", "simulate", "--players", "2", "--holes", "3", "--bots", "greedy,random", "--matches", "6",
              "--out", str(out), "-q")
    figures, data = _grid_figures(out, monkeypatch)
    ax = figures["neighbours.png"].axes[0]
    assert not ax.patches and not ax.collections
    assert [t.get_text() for t in ax.texts] == [NO_NEIGHBOUR_CONTRAST]
    assert {(r["bot"], r["before_bot"]) for r in data["neighbours"]} == {("greedy", "random"), ("random", "greedy")}


def test_the_grid_figures_footer_is_not_cut_off(tmp_path, monkeypatch):
    """Was: the grid report's figures (6.5 inches wide) cut the end of the command off at their
    right edge ("... --chunk-size 2 --quie"), and six players' bots, named in the footer's
    first line, ran past it."""
    bots = ",".join(["heuristic-fit", "mc-greedy:2"] * 3)
    out = tmp_path / "g6"
    made_here("grid", "simulate", "--players", "6", "--holes", "1", "--bots", bots, "--matches", "2", "--out", str(out),
              "-q")
    figures, _ = _grid_figures(out, monkeypatch)
    assert set(figures) == {"strokes.png", "distribution.png", "wins.png", "neighbours.png"}
    for name, fig in figures.items():
        footer = fig.texts[-1]
        # where the lines break follows the font's measured width, which matplotlib's versions differ on
        words = " ".join(footer.get_text().split())
        assert "--quiet" in words and "cyclic seating" in words, name
        assert _extent(footer, fig).x1 <= fig.bbox.x1, name


def test_the_fair_table_names_the_deals_an_unfinished_run_played():
    """Was: the fair-play table of a run missing deals 2 and 3 said "4 (deals 0–5)", as if every
    deal of the span had been played. It names the stretches; its rates are recomputed here."""
    from golfsolve.stats.fairstats import fair_table

    rows = [{"rules": "classic", "deal": d, "clairvoyant_won": d % 2 == 0, "fair_won": d == 0,
             "lost_on_draw": d == 4, "solves": 10 * d} for d in (0, 1, 4, 5)]
    head, table = fair_table(rows)
    (row,) = table
    assert row[1] == "4 (deals 0–1, 4–5)"

    def wilson(k, n):
        centre = (k + Z * Z / 2) / (n + Z * Z)
        half = Z / (n + Z * Z) * math.sqrt(k * (n - k) / n + Z * Z / 4)
        return f"{100 * k / n:.1f}% [{100 * max(0, centre - half):.1f}, {100 * min(1, centre + half):.1f}]"

    assert row[2:6] == [wilson(2, 4), wilson(1, 4), wilson(1, 4), wilson(1, 2)]
    assert row[6:] == ["1 of 1", "25"]
    assert fair_table([{**r, "deal": r["deal"] + 100} for r in rows if r["deal"] < 2])[1][0][1] == "2 (deals 100–101)"


def test_the_html_shows_code_as_code_as_the_markdown_does(tmp_path):
    """Was: the HTML reports printed the Markdown's backticks (the fair-play section's command,
    the grid report's rule spec, the study's specs) as text; they are code, as in the Markdown."""
    from golfsolve.stats.report import blocks_html, blocks_markdown

    blocks = [("p", "Command: `golfsolve fair-stats --count 2`. **Bold** stays bold."),
              ("table", ["set", "spec"], [["putt", "`default+putt`"]])]
    html = blocks_html(blocks, tmp_path, "t")
    assert "`" not in html
    assert "<code>golfsolve fair-stats --count 2</code>" in html and "<td><code>default+putt</code></td>" in html
    assert "<strong>Bold</strong>" in html
    assert "`default+putt`" in blocks_markdown(blocks)


def test_the_difficulty_table_of_an_extended_run_names_every_command_that_rated_it(tmp_path):
    """Was: the Difficulty section named only the run's last command, the ``--extend`` that
    rated the deals it added, for a table of every deal. It names each command, in order; its
    counts and mean fair chance are recomputed here from the table."""
    from golfsolve.stats import report

    out = tmp_path / "run"
    made_here("stats", "--count", "1", "--rules", "classic", "--difficulty", "--difficulty-games", "2", "--jobs", "1",
              "--out", str(out), "-q")
    made_here("stats", "--count", "2", "--out", str(out), "--extend", "--jobs", "1", "-q")
    md = report.render_markdown(report.report_data(out))
    text = md.split("## Difficulty\n", 1)[1]
    first, second = (ln for ln in text.split("commands: ", 1)[1].split(". With")[0].split(", then "))
    assert "--count 1 " in first and "--extend" not in first
    assert "--count 2 " in second and "--extend" in second
    df = pd.read_parquet(out)
    row = _md_rows(md, "Difficulty")["classic"]
    counts = df["difficulty"].value_counts()
    assert row[0] == "2"
    for cell, label in zip(row[1:5], ("easy", "medium", "hard", "very-hard")):
        assert cell == f"{counts.get(label, 0)} ({100 * counts.get(label, 0) / 2:.2f}%)"
    assert row[5] == f"{100 * df['fair_chance'].mean():.2f}%"
