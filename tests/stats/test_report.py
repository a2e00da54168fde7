"""The stats report: its statistics, its figures and their provenance, Markdown and HTML."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from golfsolve.stats import report as rep
from golfsolve.stats.census import CensusSpec, chunk_name, load_results, run_census

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
