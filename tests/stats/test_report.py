"""The stats report: its statistics, its figures and their provenance, Markdown and HTML."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import pandas as pd
import pytest
from hostile_helpers import one_line_error
from run_helpers import made_here, md_rows

from golfsolve.stats import report as rep
from golfsolve.stats.census import CensusSpec, load_results, run_census
from golfsolve.stats.report import FIGURES
from golfsolve.stats.runblocks import chunk_name

RULES = ("easy", "classic", "strict")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report") / "run"
    run_census(out, CensusSpec(0, 36, RULES, 12), jobs=1, progress=False,
               command="golfsolve stats --count 36 --out run")
    return out


@pytest.fixture(scope="module")
def written(run_dir, tmp_path_factory):
    """The report written once, with the text of every figure captured as it is saved."""
    texts: dict[str, str] = {}
    real = rep._finish

    def spy(fig, data, path):
        out = real(fig, data, path)
        texts[path.name] = "\n".join(t.get_text() for t in fig.texts)
        return out

    mp = pytest.MonkeyPatch()
    mp.setattr(rep, "_finish", spy)
    out = tmp_path_factory.mktemp("rep")
    drawn = []
    try:
        data = rep.write_report(run_dir, out, drawn=lambda: drawn.append(len(texts)))
    finally:
        mp.undo()
    assert drawn == list(range(1, len(rep.FIGURES) + 1))  # the command's progress: once after each figure
    return out, data, texts


def _earlier_report(written, out: Path) -> Path:
    """``out`` holding an earlier report of ``run_dir``: a copy of the one ``written`` wrote
    (the same files ``rep.write_report`` writes, without drawing them again)."""
    import shutil

    return Path(shutil.copytree(written[0], out))


# -- statistics ----------------------------------------------------------------
def test_wilson_reproduces_the_published_interval():
    # reference/README.md: wrap won 92.87% [92.03, 93.63] of 3,996 deals (3,711 wins)
    p, lo, hi = rep.wilson(3711, 3996)
    assert (round(100 * p, 2), round(100 * lo, 2), round(100 * hi, 2)) == (92.87, 92.03, 93.63)
    p, lo, hi = rep.wilson(1052, 3996)  # no-card-on-king 26.33% [24.98, 27.71]
    assert (round(100 * lo, 2), round(100 * hi, 2)) == (24.98, 27.71)


def test_wilson_edges_stay_inside_zero_and_one():
    assert rep.wilson(0, 10)[1] == 0.0 and rep.wilson(0, 10)[2] > 0.2
    assert rep.wilson(10, 10)[2] == 1.0 and rep.wilson(10, 10)[1] < 0.8
    assert math.isnan(rep.wilson(0, 0)[0])


def test_mcnemar_known_values():
    m = rep.mcnemar(10, 0)
    assert m["p_exact"] == pytest.approx(2 * 0.5**10)
    assert m["statistic"] == pytest.approx(8.1)  # (|10 - 0| - 1)^2 / 10
    # chi-square with one degree of freedom: P(X > x) = erfc(sqrt(x / 2))
    assert m["p_chi2"] == pytest.approx(math.erfc(math.sqrt(8.1 / 2)), rel=1e-9)
    assert rep.mcnemar(0, 0)["p_exact"] == 1.0
    assert rep.mcnemar(7, 7)["p_exact"] == 1.0
    # large and balanced: exact and chi-square agree, nothing overflows
    big = rep.mcnemar(30000, 30500)
    assert big["p_exact"] == pytest.approx(big["p_chi2"], rel=0.05)
    assert 0 < big["p_exact"] < 0.05


def test_numbers_agree_with_the_table(run_dir, written):
    _, data, _ = written
    df = load_results(run_dir)
    rates = {w["rules"]: w for w in data["win_rates"]}
    for r in RULES:
        sub = df[df["rules"] == r]
        assert rates[r]["wins"] == int(sub["winnable"].sum()) and rates[r]["n"] == 36
        assert sum(data["cards_left"][r].values()) == 36
        assert data["cards_left"][r].get(0, 0) == rates[r]["wins"]
    for p in data["paired"]:
        assert p["both"] + p["only_a"] + p["only_b"] + p["neither"] == 36
    # looser rules win every deal the stricter ones win
    assert all(p["only_b"] == 0 for p in data["paired"])
    assert "reference" in rates["easy"] and "reference" in rates["classic"] and "reference" not in rates["strict"]


def test_nine_deal_match_sums_consecutive_blocks(run_dir, written):
    _, data, _ = written
    df = load_results(run_dir)
    easy = df[df["rules"] == "strict"].set_index("deal")["best_left"]
    sums = [int(easy.loc[k * 9: k * 9 + 8].sum()) for k in range(4)]
    s = data["nine_deal_match"]["strict"]
    assert s["matches"] == 4
    assert s["mean"] == pytest.approx(sum(sums) / 4)
    assert (s["min"], s["max"]) == (min(sums), max(sums))
    assert s["at_or_under_par"] == pytest.approx(sum(x <= 45 for x in sums) / 4)


# -- files -----------------------------------------------------------------------
def test_every_figure_is_a_png_with_deals_rules_and_command(written):
    out, data, texts = written
    assert set(texts) == set(rep.FIGURES)
    for name, text in texts.items():
        assert (out / name).read_bytes()[:8] == PNG_MAGIC
        assert "36 deals" in text, name
        assert "rules: easy, classic, strict" in text, name
        assert "golfsolve stats --count 36 --out run" in text, name


def test_markdown_links_every_figure_and_quotes_the_command(written):
    out, _, _ = written
    md = (out / "report.md").read_text()
    linked = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    assert sorted(linked) == sorted(rep.FIGURES)
    assert "golfsolve stats --count 36 --out run" in md
    for heading in ("Win rate", "McNemar", "Cards left", "App score", "9-deal match", "Solve time"):
        assert heading in md


def test_html_is_self_contained(written):
    out, _, _ = written
    page = (out / "report.html").read_text()
    srcs = re.findall(r'src="([^"]*)"', page)
    assert len(srcs) == len(rep.FIGURES)
    assert all(s.startswith("data:image/png;base64,") for s in srcs)
    assert "href=" not in page and "<script" not in page
    assert "<table>" in page and "golfsolve stats --count 36 --out run" in page


# -- the command -------------------------------------------------------------------
def test_report_command_prints_rates_and_writes_files(run_cli, run_dir, tmp_path):
    r = run_cli(["report", str(run_dir), "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.stderr
    assert re.search(r"easy: \d+\.\d\d% won \[", r.stdout)
    assert (tmp_path / "r" / "report.html").is_file() and (tmp_path / "r" / "win_rate.png").is_file()


def test_report_of_an_incomplete_run_says_so(run_cli, run_dir, tmp_path):
    part = tmp_path / "part"
    part.mkdir()
    for p in run_dir.iterdir():
        if p.is_file() and p.name != chunk_name(12):
            (part / p.name).write_bytes(p.read_bytes())
    r = run_cli(["report", str(part), "--out", str(tmp_path / "r")])
    assert r.exit_code == 0
    assert "incomplete (24 of 36 deals)" in r.stderr
    md = (tmp_path / "r" / "report.md").read_text()
    assert "incomplete" in md
    # it says which deals it holds, not the run's whole range
    assert "24 deals (GO1 deal numbers 0..11, 24..35)" in md
    assert "24 of its 36 deals (deal numbers 0..35) are done" in md


def test_deal_numbers_name_the_stretches_present():
    assert rep.deal_numbers([3, 0, 1, 2]) == "0..3"
    assert rep.deal_numbers([0, 1, 5, 7, 8]) == "0..1, 5, 7..8"
    assert rep.deal_numbers(range(0, 20, 2)) == "0..18 in 10 stretches"
    assert rep.deal_numbers([]) == "none"


def test_report_bad_directories_exit_2(run_cli, tmp_path, run_dir):
    r = run_cli(["report", str(tmp_path), "--out", str(tmp_path / "r")])
    assert r.exit_code == 2 and "no golfsolve stats run" in r.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "_manifest.json").write_bytes((run_dir / "_manifest.json").read_bytes())
    r = run_cli(["report", str(empty), "--out", str(tmp_path / "r")])
    assert r.exit_code == 2 and "nothing to report" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    r = run_cli(["report", str(empty), "--json"])  # the numbers alone: refused the same way
    assert r.exit_code == 2 and "nothing to report" in r.stderr and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1


def test_report_json_alone_draws_no_plot_and_writes_no_report(run_cli, run_dir, tmp_path, monkeypatch):
    # --json without --out asks for the numbers only: the five plots (about 1.2 s of CPU each)
    # were drawn and the report written into DIR/_report all the same
    import shutil

    run = Path(shutil.copytree(run_dir, tmp_path / "run", ignore=shutil.ignore_patterns("_report")))
    drawn = []
    real = rep.write_plots
    monkeypatch.setattr(rep, "write_plots", lambda *a, **k: drawn.append(1) or real(*a, **k))
    only = run_cli(["report", str(run), "--json"])
    assert only.exit_code == 0, only.stderr
    assert drawn == [] and not (run / "_report").exists()
    # a report asked for as well: written, plots and all, and the same numbers printed
    both = run_cli(["report", str(run), "--json", "--out", str(tmp_path / "rep")])
    assert both.exit_code == 0, both.stderr
    assert drawn == [1] and both.stdout == only.stdout
    assert {p.name for p in (tmp_path / "rep").glob("*.png")} == set(rep.FIGURES)
    plain = run_cli(["report", str(run)])  # the plain run draws them as before
    assert plain.exit_code == 0, plain.stderr
    assert drawn == [1, 1] and {p.name for p in (run / "_report").glob("*.png")} == set(rep.FIGURES)
    assert (run / "_report" / "report.md").is_file() and (run / "_report" / "report.html").is_file()


def test_an_extended_run_names_every_command_that_made_it(run_cli, tmp_path):
    out = tmp_path / "ext"
    assert run_cli(["stats", "--count", "4", "--rules", "easy", "--out", str(out), "--quiet", "--jobs", "1"]).exit_code == 0
    r = run_cli(["stats", "--out", str(out), "--extend", "--rules", "dead-king", "--quiet", "--jobs", "1"])
    assert r.exit_code == 0, r.stderr
    assert run_cli(["report", str(out)]).exit_code == 0
    made_by = (out / "_report" / "report.md").read_text().split("Made by:")[1].split("```")[1]
    lines = [ln for ln in made_by.splitlines() if ln.startswith("golfsolve stats")]
    assert len(lines) == 2 and "--extend" not in lines[0] and "--extend" in lines[1]
    assert "dead-king" in lines[1]


def test_a_report_never_lands_in_a_run_folder_or_among_other_files(run_cli, run_dir, tmp_path):
    import pandas as pd

    rows = len(pd.read_parquet(run_dir))
    # was: exit 0, plots written among the chunks, and pd.read_parquet(run_dir) then failed on a PNG
    r = run_cli(["report", str(run_dir), "--out", str(run_dir)])
    assert r.exit_code == 2 and "holds a golfsolve run, not a report" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert len(pd.read_parquet(run_dir)) == rows and not (run_dir / "report.md").exists()
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    r = run_cli(["report", str(run_dir), "--out", str(other)])
    assert r.exit_code == 2 and "not empty (notes.txt) and holds no golfsolve report" in r.stderr
    assert sorted(p.name for p in other.iterdir()) == ["notes.txt"]
    # was: accepted, and the default report (into RUN/_report, then holding the folder) refused from then on
    r = run_cli(["report", str(run_dir), "--out", str(run_dir / "_report" / "sub")])
    assert r.exit_code == 2 and "a report inside the run folder goes directly in it" in r.stderr, r.stderr
    assert not (run_dir / "_report" / "sub").exists()
    # an earlier report may be written again
    again = tmp_path / "again"
    assert run_cli(["report", str(run_dir), "--out", str(again)]).exit_code == 0
    assert run_cli(["report", str(run_dir), "--out", str(again)]).exit_code == 0


def test_a_foreign_report_md_is_not_taken_for_an_earlier_report(run_cli, run_dir, tmp_path):
    from golfsolve.errors import InputError
    from golfsolve.stats.reportfolder import REPORT_MARKER

    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "report.md").write_text("# My thesis\n\nthree years of work\n")
    # was: exit 0, and the user's report.md replaced by golfsolve's
    r = run_cli(["report", str(run_dir), "--out", str(mine)])
    assert r.exit_code == 2 and "holds no golfsolve report" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert (mine / "report.md").read_text() == "# My thesis\n\nthree years of work\n"
    assert sorted(p.name for p in mine.iterdir()) == ["report.md"]
    with pytest.raises(InputError, match="holds no golfsolve report"):  # the library's writer refuses it too
        rep.write_report(run_dir, mine)
    assert (mine / "report.md").read_text() == "# My thesis\n\nthree years of work\n"
    # a report cut short after its marker (killed while writing report.md) is written again
    cut = tmp_path / "cut"
    assert run_cli(["report", str(run_dir), "--out", str(cut)]).exit_code == 0
    assert (cut / REPORT_MARKER).is_file()
    (cut / "report.md").write_text("# Golf sol")
    (cut / "report.html").unlink()
    assert run_cli(["report", str(run_dir), "--out", str(cut)]).exit_code == 0
    assert (cut / "report.md").read_text().startswith("# Golf solitaire win-rate statistics\n")
    # a report written before the marker existed is known by its title
    (cut / REPORT_MARKER).unlink()
    assert run_cli(["report", str(run_dir), "--out", str(cut)]).exit_code == 0


def test_the_library_writer_refuses_what_the_command_refuses(run_dir, tmp_path):
    import pandas as pd

    from golfsolve.errors import InputError

    rows = len(pd.read_parquet(run_dir))
    # was: the plots and report.md written among the chunks, and the run could not be read again
    with pytest.raises(InputError, match="holds a golfsolve run, not a report"):
        rep.write_report(run_dir, run_dir)
    with pytest.raises(InputError, match="inside the run folder"):
        rep.write_report(run_dir, run_dir / "plots")
    assert len(pd.read_parquet(run_dir)) == rows and not (run_dir / "plots").exists()
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match="holds no golfsolve report"):
        rep.write_report(run_dir, other)
    assert sorted(p.name for p in other.iterdir()) == ["notes.txt"]


def test_a_link_in_the_report_folder_is_replaced_not_written_through(run_dir, written, tmp_path):
    out = _earlier_report(written, tmp_path / "rep")
    precious = tmp_path / "precious.bin"
    precious.write_bytes(b"someone else's file")
    for name in ("win_rate.png", "report.md"):
        (out / name).unlink()
        (out / name).symlink_to(precious)
    rep.write_report(run_dir, out)  # was: the plot saved through the link, over precious.bin
    assert precious.read_bytes() == b"someone else's file"
    assert not (out / "win_rate.png").is_symlink() and (out / "win_rate.png").read_bytes().startswith(PNG_MAGIC)
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]


def test_a_report_of_another_kind_leaves_none_of_the_earlier_reports_plots(run_dir, written, tmp_path):
    """A grid report written over a stats report left the stats report's five plots beside it."""
    from golfsolve.grid.rules import GridRules
    from golfsolve.grid.tournament import simulate
    from golfsolve.stats import gridreport

    out = _earlier_report(written, tmp_path / "rep")
    mine = out / "notes.png"  # a file the report did not write is never removed
    mine.write_bytes(b"mine")
    t = simulate(GridRules(holes=1), ["greedy", "random", "random", "random"], 2, seed=0)
    drawn = []
    _, paths = gridreport.write_report(t, out, drawn=lambda: drawn.append(1))
    assert len(drawn) == len([p for p in paths if p.suffix == ".png"]) >= 3  # once after each figure
    names = {p.name for p in out.iterdir() if not p.name.startswith(".")}
    assert not names & set(rep.FIGURES), names
    assert set(gridreport.FIGURES) - {"neighbours.png"} <= names and {"report.md", "report.html"} <= names
    assert mine.read_bytes() == b"mine"
    rep.write_report(run_dir, out)  # and back: the grid plots go
    names = {p.name for p in out.iterdir() if not p.name.startswith(".")}
    assert names == set(rep.FIGURES) | {"report.md", "report.html", "notes.png"}, names


def test_a_median_between_two_values_is_shown_as_it_is_not_rounded_to_even(written):
    # was: two 9-deal matches of 40 and 53 cards showed median "46" (46.5 rounded half to even),
    # and an app-score median of 342.5 "342"; a median that is whole stays whole
    import copy

    _, data, _ = written
    data = copy.deepcopy(data)
    rules = next(r for r, s in data["nine_deal_match"].items() if s and s["matches"])
    data["nine_deal_match"][rules]["median"] = 46.5
    data["app_score"][rules]["median"] = 342.5
    md = rep.render_markdown(data)
    assert f"| {rules} | {data['nine_deal_match'][rules]['matches']} |" in md
    assert re.search(rf"^\| {rules} \| \d+ \| [\d.]+ \| 46\.5 \|", md, re.M), md
    assert re.search(rf"^\| {rules} \| [\d.]+ \| 342\.5 \|", md, re.M), md
    data["nine_deal_match"][rules]["median"] = 46.0
    assert re.search(rf"^\| {rules} \| \d+ \| [\d.]+ \| 46 \|", rep.render_markdown(data), re.M)


@pytest.mark.parametrize("cut_at", [1, 3])
def test_a_report_cut_short_leaves_every_plot_its_text_shows(run_dir, written, tmp_path, monkeypatch, cut_at):
    """Was: a report written again removed the earlier report's plots first, so Ctrl-C (or a
    kill) while it drew left the earlier report.md showing plots that were gone."""
    from golfsolve.grid.rules import GridRules
    from golfsolve.grid.tournament import simulate
    from golfsolve.stats import gridreport

    out = _earlier_report(written, tmp_path / "rep")
    real, drawn = rep._finish, []

    def cut(fig, data, path):
        if len(drawn) == cut_at:
            raise KeyboardInterrupt
        drawn.append(path.name)
        return real(fig, data, path)

    monkeypatch.setattr(rep, "_finish", cut)
    with pytest.raises(KeyboardInterrupt):
        rep.write_report(run_dir, out)
    shown = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", (out / "report.md").read_text())
    assert shown and all((out / name).is_file() for name in shown), sorted(p.name for p in out.iterdir())
    monkeypatch.setattr(rep, "_finish", real)
    # a grid report cut short over it: the stats report's text still shows its plots, and the
    # next report, whole, leaves none of either's that it did not draw
    t = simulate(GridRules(holes=1), ["greedy", "random", "random", "random"], 2, seed=0)
    monkeypatch.setattr(gridreport, "render_markdown", lambda data: (_ for _ in ()).throw(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        gridreport.write_report(t, out)
    shown = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", (out / "report.md").read_text())
    assert all((out / name).is_file() for name in shown)
    rep.write_report(run_dir, out)
    names = {p.name for p in out.iterdir() if not p.name.startswith(".")}
    assert names == set(rep.FIGURES) | {"report.md", "report.html"}, names


def test_the_difficulty_section_counts_one_game_in_the_singular(written):
    # was: "over 1 stock orders", "With 1 games" in a run made with --difficulty-games 1
    import copy

    _, data, _ = written
    data = copy.deepcopy(data)
    labels = ["easy", "medium", "hard", "very-hard"]
    data["difficulty"] = {"games": 1, "labels": labels, "command": "golfsolve stats ...",
                          "rules": {"easy": {"deals": 2, "labels": dict.fromkeys(labels, 0) | {"easy": 2},
                                             "mean_fair_chance": 1.0}}}
    md = rep.render_markdown(data)
    assert "over 1 stock order consistent" in md and "With 1 game a chance" in md
    data["difficulty"]["games"] = 8
    md = rep.render_markdown(data)
    assert "over 8 stock orders consistent" in md and "With 8 games a chance" in md


def test_report_of_a_fair_stats_or_grid_folder_names_the_command_that_reports_it(tmp_path, run_cli):
    """golfsolve report FAIR_DIR said only "holds a 'golfsolve fair-stats' run, not a 'golfsolve
    stats' run; choose another directory", not that such a run joins a stats run's report with
    --fair; a grid run's folder likewise, not that grid report reports it"""
    fair, grid = tmp_path / "fair", tmp_path / "grid"
    assert run_cli(["fair-stats", "--count", "1", "--rules", "classic", "--out", str(fair), "-q"]).exit_code == 0
    assert run_cli(["grid", "simulate", "--bots", "greedy,random", "--holes", "1", "--matches", "2",
                    "--out", str(grid), "-q"]).exit_code == 0
    from hostile_helpers import one_line_error

    assert one_line_error(run_cli(["report", str(fair)])) == (
        f"golfsolve: {fair} holds a 'golfsolve fair-stats' run: its table joins the report of a stats run, as in "
        f"golfsolve report STATS_DIR --fair {fair}")
    assert one_line_error(run_cli(["report", str(grid)])) == (
        f"golfsolve: {grid} holds a 'golfsolve grid simulate' run: golfsolve grid report {grid} reports it")
    assert not (fair / "_report").exists() and not (grid / "_report").exists()
    # and the other way: grid report of a stats or fair-stats run said "not a 'golfsolve grid
    # simulate' run; choose another directory"
    stats = tmp_path / "stats"
    assert run_cli(["stats", "--count", "2", "--rules", "easy", "--jobs", "1", "--out", str(stats), "-q"]).exit_code == 0
    assert one_line_error(run_cli(["grid", "report", str(stats)])) == (
        f"golfsolve: {stats} holds a 'golfsolve stats' run: golfsolve report {stats} reports it")
    assert one_line_error(run_cli(["grid", "report", str(fair)])) == (
        f"golfsolve: {fair} holds a 'golfsolve fair-stats' run: its table joins the report of a stats run, as in "
        f"golfsolve report STATS_DIR --fair {fair}")
    assert not (stats / "_report").exists() and not (fair / "_report").exists()


def test_a_report_compares_a_rule_set_with_its_published_figure_whatever_its_name(tmp_path):
    """a stats run of --rules strict+anytime,dead-king+king-queen (Dead King and Classic under
    other names: switches on another preset) reported "—" in the published column for both,
    where --rules dead-king,classic gets black-hole-solve's 26% and 45% beside them"""
    from golfsolve.stats import CensusSpec, run_census
    from golfsolve.stats.report import report_data

    out = tmp_path / "run"
    run_census(out, CensusSpec(0, 2, ("strict+anytime", "dead-king+king-queen")), jobs=1, progress=False)
    got = {w["rules"]: (w.get("reference") or {}).get("name", "") for w in report_data(out)["win_rates"]}
    assert got["strict+anytime"].startswith("no-card-on-king") and got["dead-king+king-queen"].startswith(
        "queen-on-king"), got


def test_a_verdict_only_run_reports_no_cards_left_it_did_not_search(run_cli, tmp_path):
    # was: a '--fields winnable' run of 18 Classic deals (about half lost) reported "mean cards
    # left 0.00, 100% won", "app score 350", "2 nine-deal matches, mean 0, 100% at or under par":
    # every figure from the won deals alone (a lost deal's fewest cards are not searched, so
    # NA, and pandas skipped them); with no deal won, 'internal error: TypeError ... NAType'
    import json

    out = str(tmp_path / "run")
    r = run_cli(["stats", "--start-number", "0", "--count", "18", "--rules", "classic,strict", "--fields",
                 "winnable", "--out", out, "-j", "1", "-q"])
    assert r.exit_code == 0, r.stderr
    r = run_cli(["report", out, "--json", "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    rates = {w["rules"]: w["rate"] for w in data["win_rates"]}
    assert 0 < rates["classic"] < 1 and rates["strict"] < 1, rates
    for rules in ("classic", "strict"):
        assert data["cards_left"][rules] is None and data["app_score"][rules] is None
        assert data["nine_deal_match"][rules] is None
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "100.00% | 100.00% | 0 |" not in md and "--fields winnable" in md
    # no deal won at all: every best_left unknown
    one = str(tmp_path / "one")
    assert run_cli(["stats", "--start-number", "0", "--count", "1", "--rules", "strict", "--fields", "winnable",
                    "--out", one, "-j", "1", "-q"]).exit_code == 0
    r = run_cli(["report", one])
    assert r.exit_code == 0 and not r.stderr, r.stderr


def test_solve_times_are_shown_to_their_size():
    # was: "worst 0 ms" beside "median 0.23 ms" (the worst written with no decimals), "0.00 /
    # 0.23 ms" for the median won / lost of a rule set that won no deal, and "inf" deals/s
    from golfsolve.stats.report import _solve_time_rows

    t = {"median_ms": 0.23, "mean_ms": 0.21, "p99_ms": 0.42, "max_ms": 0.43, "median_ms_won": None,
         "median_ms_lost": 0.23, "deals_per_second_per_core": float("inf")}
    assert _solve_time_rows({"strict": t}) == [["strict", "0.23 ms", "0.21 ms", "0.42 ms", "0.43 ms", "— / 0.23 ms", "—"]]
    t = {"median_ms": 12.5, "mean_ms": 40.0, "p99_ms": 950.0, "max_ms": 1234.5, "median_ms_won": 3.25,
         "median_ms_lost": 150.0, "deals_per_second_per_core": 2652.4}
    assert _solve_time_rows({"easy": t}) == [["easy", "12.50 ms", "40.00 ms", "950 ms", "1,234 ms", "3.25 / 150 ms",
                                              "2652"]]


def test_an_incomplete_run_names_the_rule_set_it_lacks(run_cli, tmp_path):
    # was: "warning: the run is incomplete (2 of 2 deals)" and "**The run is incomplete**: 2 of its
    # 2 deals are done" for a run extended with a rule set whose chunks were not solved yet
    import json

    out = tmp_path / "run"
    base = ["--start-number", "0", "--count", "2", "--out", str(out), "-j", "1", "-q"]
    assert run_cli(["stats", *base, "--rules", "easy"]).exit_code == 0
    assert run_cli(["stats", *base, "--rules", "easy,strict", "--extend"]).exit_code == 0
    for chunk in out.glob("chunk-*-1.parquet"):  # the strict block, as if the extend was stopped at once
        chunk.unlink()
    r = run_cli(["report", str(out)])
    assert r.exit_code == 0 and "strict 0 of 2" in r.stderr and "easy 2 of 2" in r.stderr, r.stderr
    md = (out / "_report" / "report.md").read_text()
    assert "2 of its 2 deals" not in md and "strict 0 of 2" in md
    data = json.loads(run_cli(["report", str(out), "--json"]).stdout)
    assert data["deals_done"] == {"easy": 2, "strict": 0}


def test_an_incomplete_runs_report_says_what_finishes_it(run_cli, tmp_path):
    """was: "the run is incomplete (4 of 6 deals)" alone, in the terminal and report.md, where
    a fair-stats run's table names its --resume; and while another command plays the run, that
    one finishes it (a --resume would be refused)"""
    import json
    import shlex

    from golfsolve.stats.runlock import lock_folder

    out = tmp_path / "a run"
    assert run_cli(["stats", "--count", "6", "--rules", "easy", "--chunk-size", "2", "-j", "1", "--out", str(out),
                    "-q"]).exit_code == 0
    (out / "chunk-0000000002.parquet").unlink()
    resume = f"'golfsolve stats --out {shlex.quote(str(out))} --resume' finishes it"
    r = run_cli(["report", str(out)])
    assert r.exit_code == 0 and f"(4 of 6 deals); {resume}" in r.stderr, r.stderr
    assert f"are done; {resume}." in (out / "_report" / "report.md").read_text()
    assert json.loads(run_cli(["report", str(out), "--json"]).stdout)["being_written"] is False
    fd = lock_folder(out)  # as a command still playing the run holds it
    try:
        r = run_cli(["report", str(out)])
        assert "another golfsolve command is playing it now" in r.stderr and "--resume" not in r.stderr, r.stderr
        assert json.loads(run_cli(["report", str(out), "--json"]).stdout)["being_written"] is True
    finally:
        os.close(fd)


def test_strict_by_another_name_is_reported_as_strict(tmp_path):
    """Was: ``strict+stuck`` (the same rules as Strict) had "—" in the published column and no
    word on why, where ``strict`` has "none (see below)" and the sentence below: the report
    went by the name, not the rules."""
    from golfsolve.stats import report

    out = tmp_path / "run"
    made_here("stats", "--count", "2", "--rules", "classic,strict+stuck", "--jobs", "1", "--out", str(out), "-q")
    md = report.render_markdown(report.report_data(out))
    assert md_rows(md, "Win rate per rule set")["strict+stuck"][3] == "none (see below)"
    assert "golfsolve's **Strict** rule draws only when no card can be removed" in md
    assert md_rows(md, "Win rate per rule set")["classic"][3].startswith("45.22% [43.68, 46.77] queen-on-king")


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
    row = md_rows(md, "Difficulty")["classic"]
    counts = df["difficulty"].value_counts()
    assert row[0] == "2"
    for cell, label in zip(row[1:5], ("easy", "medium", "hard", "very-hard")):
        assert cell == f"{counts.get(label, 0)} ({100 * counts.get(label, 0) / 2:.2f}%)"
    assert row[5] == f"{100 * df['fair_chance'].mean():.2f}%"


def test_the_paired_table_says_which_only_counts_must_be_0(tmp_path):
    """was: 'only b counts for a looser a and stricter b should be 0' under every table, so a
    run of easy and strict+empty (other cards: the discard starts the stock) showed a deal won
    only under strict+empty beside a note that seemed to call it a solver's error"""
    from golfsolve.stats.census import CensusSpec, run_census
    from golfsolve.stats.report import render_markdown, report_data

    run_census(tmp_path / "run", CensusSpec(0, 3, ("easy", "strict+empty", "classic"), 3), jobs=1, progress=False)
    data = report_data(tmp_path / "run")
    assert [(p["a"], p["b"], p["stricter"]) for p in data["paired"]] == [
        ("easy", "strict+empty", None), ("easy", "classic", "classic"), ("strict+empty", "classic", None)]
    text = render_markdown(data)
    assert "these counts are 0: easy vs classic (only b)." in text
    assert "The other 2 pairs have no stricter side" in text and "should be 0" not in text


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("r53")
    one, verdicts, fair = base / "one", base / "verdicts", base / "fair"
    made_here("stats", "--count", "1", "--rules", "classic", "--jobs", "1", "--out", str(one), "-q")
    made_here("stats", "--count", "6", "--rules", "easy,classic", "--chunk-size", "2", "--fields", "winnable",
              "--jobs", "1", "--out", str(verdicts), "-q")
    # deal 1 is lost under Classic: not played, so the fair player wins nothing of nothing winnable
    made_here("fair-stats", "--start-number", "1", "--count", "1", "--rules", "classic", "--jobs", "1",
              "--out", str(fair), "-q")
    made_here("report", str(one), "--fair", str(fair))
    made_here("report", str(verdicts))
    return {"one": one / "_report", "verdicts": verdicts / "_report", "fair": fair}


def _texts(runs) -> dict[str, str]:
    """The fair-play section as written alone and as joined to a report, Markdown and HTML."""
    return {"_fair.md": (runs["fair"] / "_fair.md").read_text(encoding="utf-8"),
            "report.md": (runs["one"] / "report.md").read_text(encoding="utf-8"),
            "report.html": (runs["one"] / "report.html").read_text(encoding="utf-8")}


def test_fair_table_labels_its_interval_columns(runs):
    """was: the fair-play table headed its interval columns "clairvoyant win rate", "fair player
    win rate", "gap (paired)" and "fair wins / winnable deals": only the paragraph above said
    "95% Wilson intervals throughout", where every other report's table says "[95% Wilson]"."""
    for name, text in _texts(runs).items():
        for col in ("clairvoyant win rate", "fair player win rate", "gap (paired)", "fair wins / winnable deals"):
            assert f"{col} [95% Wilson]" in text, (name, col)


def test_fair_over_winnable_is_explained_and_so_is_its_dash(runs):
    """was: the column "fair wins / winnable deals" (the fair player's wins over the clairvoyant
    ones) was explained nowhere, and with no deal winnable its cell was a bare en dash "–"."""
    for name, text in _texts(runs).items():
        assert ("Fair wins / winnable deals: of the deals the clairvoyant player wins, the share the fair player "
                "wins too (— where no deal is winnable)") in text, name
        assert "–" not in text.replace("deals 0–", ""), name  # the dash is the reports' own "—"
    assert "| classic | 1 (deal 1) | 0.0% [0.0, 79.3] | 0.0% [0.0, 79.3] | 0.0% [0.0, 79.3] | — | 0 of 0 | 1 |" \
        in _texts(runs)["_fair.md"]


def test_fair_summary_gives_its_rules_in_words(runs):
    """was: the summary named its rule set only ("classic"): a reader of _fair.md alone, or of the
    fair section of a report whose own run had other rules, had to look up what was played."""
    for name, text in _texts(runs).items():
        assert "Rules: classic: no wrap, Queen on King, draw any time." in text, name


def test_fair_table_of_one_deal_says_deal(runs):
    """was: a run of one deal read "1 (deals 1)"."""
    for name, text in _texts(runs).items():
        assert "1 (deal 1)" in text and "(deals 1)" not in text, name


def test_verdict_only_report_says_first_what_it_did_not_compute(runs):
    """was: a --fields winnable report opened like any other; only three sections further down
    did a line under a table of dashes say the cards left were not searched."""
    md = (runs["verdicts"] / "report.md").read_text(encoding="utf-8")
    first = md.split("Made by:")[0]
    assert "**Verdicts only**: the run was made with --fields winnable" in first
    assert "gives the win rates and solve times, but no cards left, app score or 9-deal match totals." in first


def test_verdict_only_report_draws_no_figure_and_no_table_of_what_it_lacks(runs):
    """was: three PNGs of empty axes with a note inside (cards left, app score, 9-deal match)
    and three tables whose every cell was "—": a page each of nothing."""
    rep = runs["verdicts"]
    md = (rep / "report.md").read_text(encoding="utf-8")
    page = (rep / "report.html").read_text(encoding="utf-8")
    assert sorted(p.name for p in rep.glob("*.png")) == ["solve_time.png", "win_rate.png"]
    for name in ("cards_left.png", "app_score.png", "nine_deal_match.png"):
        assert f"*{FIGURES[name]}: no figure, as the run computed verdicts only (--fields winnable).*" in md
        assert name not in md and name not in page
    assert not re.search(r"\| (easy|classic) \|( — \|){4,}", md), md
    assert page.count("<img") == 2 and page.count('<p class="nofig">') == 3


def test_one_deal_report_leaves_out_the_plots_of_a_spread(runs):
    """was: a run of one deal drew its cards left, app score and solve time as single bars (and
    its 9-deal match as an empty frame), each a page showing only what its table says."""
    rep = runs["one"]
    md = (rep / "report.md").read_text(encoding="utf-8")
    page = (rep / "report.html").read_text(encoding="utf-8")
    assert [p.name for p in rep.glob("*.png")] == ["win_rate.png"]
    for name in ("cards_left.png", "app_score.png", "solve_time.png"):
        assert (f"{FIGURES[name]}: no figure, as the run has 1 deal per rule set, which has no spread to draw "
                "(the table above gives its value).") in md
    assert page.count("<img") == 1 and page.count('<p class="nofig">') == 4
    body = page.split("<main>", 1)[1].split("</main>", 1)[0]
    assert 'class="nofig"' in body
    for text in (md, page, (runs["fair"] / "_fair.md").read_text(encoding="utf-8")):
        assert not re.search(r"\b(NaN|nan|None|inf)\b", text)


def test_median_won_lost_dash_says_what_it_is(runs):
    """was: the solve-time table's "median won / lost" read "0.053 / — ms" for a run that lost no
    deal, with no word of what the dash stood for."""
    md = (runs["one"] / "report.md").read_text(encoding="utf-8")
    assert re.search(r"\| [\d.]+ / — ms \|", md)
    assert 'In "median won / lost", — is a median of no deal: none was lost under classic.' in md


@pytest.mark.parametrize("out", ["rep", None])
def test_report_of_a_run_with_no_finished_chunk_writes_no_folder(run_cli, tmp_path, out):
    """was: exit 2 'no chunk is finished yet, so there is nothing to report', after making
    the empty --out folder (or DIR/_report); grid report made none"""
    run = tmp_path / "run"
    r = run_cli(["stats", "--count", "1", "--rules", "easy", "-j", "1", "--out", str(run), "-q"])
    assert r.exit_code == 0, r.stderr
    for chunk in run.glob("chunk-*.parquet"):
        chunk.unlink()
    where = tmp_path / out if out else run / "_report"
    r = run_cli(["report", str(run), *(["--out", str(where)] if out else [])])
    assert "no chunk is finished yet" in one_line_error(r)
    assert not where.exists()


@pytest.mark.parametrize("kind", ["stats", "grid"])
def test_a_refused_default_report_folder_is_not_called_the_users_out(run_cli, tmp_path, kind):
    """was: 'golfsolve: --out DIR/_report exists and is not a directory; choose a directory'
    from 'golfsolve report DIR', which gave no --out"""
    out = tmp_path / "run"
    if kind == "stats":
        made = ["stats", "--count", "1", "--rules", "easy", "-j", "1", "--out", str(out), "-q"]
        report = ["report", str(out)]
    else:
        made = ["grid", "simulate", "--bots", "random,random", "--holes", "1", "--matches", "1", "--out", str(out),
                "-q"]
        report = ["grid", "report", str(out)]
    assert run_cli(made).exit_code == 0
    (out / "_report").write_text("mine")
    line = one_line_error(run_cli(report))
    assert line == f"golfsolve: the default --out {out / '_report'} exists and is not a directory; choose a directory"
    # the same folder given as --out is named as the user's
    line = one_line_error(run_cli([*report, "--out", str(out / "_report")]))
    assert line.startswith(f"golfsolve: --out {out / '_report'} exists"), line
