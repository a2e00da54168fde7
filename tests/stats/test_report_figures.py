"""The figures of the reports (stats, grid, study) as a person reads them: empty plots explained, axes,
legends, titles and footers that fit."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from golfsolve.stats import report as rep
from golfsolve.stats.census import CensusSpec, run_census

from run_helpers import made_here, md_rows


RULES = ("easy", "classic", "strict")


def _drawn(monkeypatch, module, name: str = "save_footed_figure") -> list:
    """Each figure ``module`` saves, with its footer, as (figure, footer, path)."""
    seen: list = []
    real = getattr(module, name)

    def spy(fig, footer, path):
        seen.append((fig, footer, Path(path)))
        return real(fig, footer, path)

    monkeypatch.setattr(module, name, spy)
    return seen


def _extent(artist, fig):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    return artist.get_window_extent(renderer)


def _texts_in_axes(fig) -> list[str]:
    return [t.get_text() for ax in fig.axes for t in ax.texts]


def _run_of(tmp_path_factory, count: int, name: str) -> Path:
    out = tmp_path_factory.mktemp("r20") / name
    run_census(out, CensusSpec(0, count, RULES, count), jobs=1, progress=False,
               command=f"golfsolve stats --count {count} --out {name}")
    return out


@pytest.fixture(scope="module")
def one_deal(tmp_path_factory) -> Path:
    return _run_of(tmp_path_factory, 1, "one")


@pytest.fixture(scope="module")
def two_deals(tmp_path_factory) -> Path:
    return _run_of(tmp_path_factory, 2, "two")


def test_a_run_of_fewer_than_nine_deals_says_why_its_match_plot_is_empty(one_deal, tmp_path, monkeypatch):
    """Was: a run of one deal drew nine_deal_match.png as an empty frame (axes 43..47, y 0..1,
    a par line and nothing else) and its table read "0 matches" with no word why. The text
    now says there is no 9-deal match in fewer than 9 deals, in place of the plot (an empty frame
    saying so is no better)."""
    from golfsolve.stats import atomic

    seen = _drawn(monkeypatch, atomic)
    monkeypatch.setattr(rep, "save_footed_figure", atomic.save_footed_figure)
    rep.write_report(one_deal, tmp_path)
    assert "nine_deal_match.png" not in {p.name for _, _, p in seen}
    md = (tmp_path / "report.md").read_text()
    assert ("Traditional 9-deal match under perfect play (par 45): no figure, as no rule set has 9 deals in a row "
            "of the run (a match is 9 deals).") in md
    assert "0 matches: the table holds no 9 deals in a row of the run (a match is 9 deals)." in md
    # and one deal is "deal number 0", not "deal numbers 0"
    assert "1 deal (GO1 deal number 0)" in md


def test_a_winnable_only_run_says_why_three_plots_are_empty(tmp_path, monkeypatch):
    """Was: with --fields winnable the cards-left, app-score and 9-deal plots were three empty
    frames with axes 0..1 (the tables said why, the figures did not). The text now says, in
    place of each, that the run computed verdicts only (not inside an empty frame)."""
    from golfsolve.stats import atomic

    run = tmp_path / "run"
    run_census(run, CensusSpec(0, 9, ("classic",), 9, fields="winnable"), jobs=1, progress=False,
               command="golfsolve stats --count 9 --rules classic --fields winnable --out run")
    seen = _drawn(monkeypatch, atomic)
    monkeypatch.setattr(rep, "save_footed_figure", atomic.save_footed_figure)
    rep.write_report(run, tmp_path / "rep")
    figs = {p.name: fig for fig, _, p in seen}
    md = (tmp_path / "rep" / "report.md").read_text()
    for name in ("cards_left.png", "app_score.png", "nine_deal_match.png"):
        assert name not in figs
        assert f"{rep.FIGURES[name]}: no figure, as the run computed verdicts only (--fields winnable)." in md
    assert _texts_in_axes(figs["win_rate.png"])  # the plots with data are drawn as ever


def test_the_solve_time_axis_of_a_narrow_range_has_no_overlapping_labels(two_deals, tmp_path, monkeypatch):
    """Was: with solve times inside one decade (a run of two deals; one deal's plot is left
    out) matplotlib labelled the
    minor ticks of the log axis "3x10^-2" and "4x10^-2" side by side, printed over each other.
    The labels are plain numbers of ms, far enough apart not to touch."""
    from golfsolve.stats import atomic

    seen = _drawn(monkeypatch, atomic)
    monkeypatch.setattr(rep, "save_footed_figure", atomic.save_footed_figure)
    rep.write_report(two_deals, tmp_path)
    fig = next(f for f, _, p in seen if p.name == "solve_time.png")
    ax = fig.axes[0]
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    labels = [t for t in ax.get_xticklabels(minor=False) + ax.get_xticklabels(minor=True)
              if t.get_text() and t.get_visible()]
    lo, hi = ax.get_xlim()
    labels = [t for t in labels if lo <= t.get_position()[0] <= hi]
    assert len(labels) >= 2 and all("times" not in t.get_text() and "^" not in t.get_text() for t in labels)
    boxes = sorted((t.get_window_extent(renderer) for t in labels), key=lambda b: b.x0)
    for a, b in zip(boxes, boxes[1:]):
        assert a.x1 <= b.x0, [t.get_text() for t in labels]


def test_the_win_rate_legend_covers_no_bar(tmp_path, monkeypatch):
    """Was: the legend sat in the upper right corner, over the last bar when it reached 100%
    (a rule set that won every deal: easy+jokers2 beside classic, or any run of one won deal).
    The legend has a band of its own above 100%."""
    from golfsolve.stats import atomic

    run = tmp_path / "run"
    run_census(run, CensusSpec(0, 1, ("strict", "easy"), 1), jobs=1, progress=False,
               command="golfsolve stats --count 1 --rules strict,easy --out run")
    seen = _drawn(monkeypatch, atomic)
    monkeypatch.setattr(rep, "save_footed_figure", atomic.save_footed_figure)
    rep.write_report(run, tmp_path / "rep")
    fig = next(f for f, _, p in seen if p.name == "win_rate.png")
    ax = fig.axes[0]
    legend = _extent(ax.get_legend(), fig)
    for bar in ax.patches:
        assert not legend.overlaps(_extent(bar, fig)), "the legend covers a bar"


def test_a_long_footer_stays_clear_of_the_axis_labels(tmp_path):
    """Was: the footer of an extended run (one command line per invocation, each wrapped) ran
    up over the x-axis label: the figure kept a fixed strip of three lines for it. The figure
    grows by the footer's lines."""
    from matplotlib.figure import Figure

    from golfsolve.stats.atomic import figure_footer, save_footed_figure

    commands = "\n".join(f"golfsolve stats --start-number 0 --count {n} --rules classic,easy+jokers2,strict+empty "
                         f"--out some/long/folder/name --extend --jobs 2 --chunk-size 2 --quiet" for n in (40, 90, 100))
    fig = Figure(figsize=(7, 4.2))
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel("cards left on the table (0 = won)")
    save_footed_figure(fig, figure_footer("100 deals; rules: classic", commands), tmp_path / "f.png")
    footer = next(t for t in fig.texts if t.get_text().startswith("100 deals"))
    assert footer.get_text().count("\n") >= 6
    assert _extent(footer, fig).y1 < _extent(ax.xaxis.label, fig).y0
    assert _extent(footer, fig).y0 >= 0


def test_a_footer_never_breaks_an_option_at_its_hyphen():
    """Was: a command wrapped at 120 characters broke at a hyphen, so the figure read
    "--chunk-" at the end of a line and "size 1" on the next: pasted, no such option."""
    from golfsolve.stats.atomic import figure_footer

    command = ("golfsolve grid study --out gstudy --sets base,putt,players-2 --strong greedy --matches 8 --seed 0 "
               "--jobs 2 --chunk-size 1 --quiet")
    lines = figure_footer("head", command).splitlines()[1:]
    assert len(lines) == 2
    assert all(not line.endswith("-") for line in lines)
    assert " ".join(lines).removeprefix("$ ") == command


def test_a_title_wider_than_its_figure_is_wrapped_not_cut(tmp_path):
    """Was: the grid report's wins.png title ("... 95% Wilson intervals over matches") ran past
    both edges of the figure and was cut off. A long title is wrapped to the figure's width."""
    from matplotlib.figure import Figure

    from golfsolve.stats.gridreport import FIGURES
    from golfsolve.stats.atomic import save_footed_figure

    fig = Figure(figsize=(6.5, 4))
    ax = fig.subplots()
    ax.bar(["a", "b"], [1, 2])
    ax.set_title(FIGURES["wins.png"])
    save_footed_figure(fig, "head\n$ cmd", tmp_path / "w.png")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    box = ax.title.get_window_extent(renderer)
    assert "\n" in ax.title._get_wrapped_text()
    assert box.x0 >= 0 and box.x1 <= fig.bbox.width


def test_the_study_figure_carries_its_footer_and_leaves_the_backend_alone(tmp_path, monkeypatch):
    """Was: study.png, the grid study's one figure, had no title and no footer (not how many
    matches, which bots, nor the command, as every other report figure has), and writing it
    switched matplotlib to the Agg backend (a notebook's plots stopped showing). It carries
    the footer and its title, and the backend is left as it was."""
    import matplotlib

    from golfsolve.stats import studyreport
    from golfsolve.stats.gridstudy import StudySpec, load_study, run_study

    run = tmp_path / "study"
    run_study(run, StudySpec(("base",), "greedy", 2, 0, 2), command="golfsolve grid study --out study",
              progress=False)
    seen = _drawn(monkeypatch, studyreport)
    before = matplotlib.get_backend()
    matplotlib.use("pdf")
    try:
        studyreport.write_study_report(load_study(run), tmp_path / "rep", run)
        assert matplotlib.get_backend().lower() == "pdf"
    finally:
        matplotlib.use(before)
    assert [p.name for _, _, p in seen] == ["study.png"]
    fig, footer, _ = seen[0]
    assert footer.startswith("1 option set (base), two tables each, 2 matches per table; strongest bot greedy; seed 0")
    assert "$ golfsolve grid study --out study" in footer
    assert fig.get_suptitle() == studyreport.PLOT_TITLE


def _capture(monkeypatch, module) -> dict:
    """The figures ``module`` (report or gridreport) saves, by file name, as they are saved."""
    figures: dict = {}
    original = module._finish

    def keep(fig, data, path):
        figures[Path(path).name] = fig
        return original(fig, data, path)

    monkeypatch.setattr(module, "_finish", keep)
    return figures


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
    row = md_rows(report.render_markdown(data), "Solve time")["easy"]
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
