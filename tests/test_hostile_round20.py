"""Hostile sweep, round 20: what a person reads and clicks. The reports of a stats run, a grid
run and a grid study read as a person reads them (their figures looked at, their numbers
recomputed), and the page of ``golfsolve serve`` played in a browser (those tests are in
tests/test_serve_browser.py, beside the others that drive it). Each test is a flaw a person
met, fixed with a test that fails without its fix. Fast: the runs here solve a few deals and
play a few one-hole matches.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from golfsolve.stats import report as rep
from golfsolve.stats.census import CensusSpec, run_census

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
    now says there is no 9-deal match in fewer than 9 deals, in place of the plot (round 53: the
    plot said so inside an empty frame)."""
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
    place of each, that the run computed verdicts only (round 53: each said so inside an empty
    frame)."""
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
    """Was: with solve times inside one decade (a run of one deal; of two since round 53, as one
    deal's plot is left out) matplotlib labelled the
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
