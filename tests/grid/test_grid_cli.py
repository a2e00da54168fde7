"""golfsolve grid simulate / report / play through the real entry point."""

from __future__ import annotations

import json
import os

import pandas as pd
import pytest


def test_simulate_json_is_reproducible_and_writes_tables(run_cli, tmp_path):
    args = ["grid", "simulate", "--players", "4", "--grid", "6", "--bots", "mc:8,greedy,greedy,random",
            "--holes", "2", "--matches", "3", "--seed", "4", "--json", "--quiet"]
    a = run_cli(args + ["--out", str(tmp_path / "a")])
    b = run_cli(args)
    assert a.exit_code == 0, a.stderr
    da, db = json.loads(a.stdout), json.loads(b.stdout)
    assert da["bots"] == db["bots"]
    assert da["holes_played"] == 6
    assert [x["bot"] for x in da["bots"]] == ["mc:8", "greedy", "random"]
    holes = pd.read_parquet(tmp_path / "a")  # the run folder reads as one table
    assert len(holes) == 6 * 4 and set(holes["bot"]) == {"mc:8", "greedy", "random"}
    assert a.stderr == ""  # no progress bar in a pipe


def test_report_writes_markdown_and_plots(run_cli, tmp_path, monkeypatch):
    out = tmp_path / "r"
    r = run_cli(["grid", "simulate", "--bots", "greedy,random", "--holes", "3", "--matches", "4",
                 "--seed", "1", "--out", str(out), "--format", "csv", "-q"])
    assert r.exit_code == 0, r.stderr
    assert "greedy" in r.stdout and "strokes/hole" in r.stdout
    rep = run_cli(["grid", "report", str(out)])
    assert rep.exit_code == 0, rep.stderr
    assert "greedy - random:" in rep.stdout
    where = out / "_report"
    assert f"report: {where / 'report.md'} and {where / 'report.html'}" in rep.stdout
    md = (where / "report.md").read_text()
    assert "| greedy |" in md and "greedy − random" in md and "## Neighbour effect" in md
    for f in ("strokes.png", "distribution.png", "wins.png", "neighbours.png"):
        assert (where / f).stat().st_size > 0 and f"]({f})" in md and f in rep.stdout
    page = (where / "report.html").read_text()
    assert page.count('src="data:image/png;base64,') == 4 and "<td>greedy</td>" in page
    assert "golfsolve grid simulate" in page  # the command that made the run
    assert len(pd.read_csv(out / "_holes.csv")) == 12 * 2
    if hasattr(os, "mkfifo"):  # was: the export written into the FIFO, a wait for ever
        (out / "_matches.csv").unlink()
        os.mkfifo(out / "_matches.csv")
        again = run_cli(["grid", "simulate", "--out", str(out), "--resume", "--format", "csv", "-q"])
        assert again.exit_code == 0 and (out / "_matches.csv").is_file(), again.stderr
    js = json.loads(run_cli(["grid", "report", str(out), "--json"]).stdout)
    assert js["holes_played"] == 12 and js["differences"][0]["a"] == "greedy"
    # --json alone prints the numbers and draws nothing; with --out it writes the report too
    import shutil

    from golfsolve.stats import gridreport

    shutil.rmtree(where)
    drawn = []
    real = gridreport.write_plots
    monkeypatch.setattr(gridreport, "write_plots", lambda *a, **k: drawn.append(1) or real(*a, **k))
    only = run_cli(["grid", "report", str(out), "--json"])
    assert only.exit_code == 0 and drawn == [] and not where.exists(), only.stderr
    both = run_cli(["grid", "report", str(out), "--json", "--out", str(tmp_path / "rep")])
    assert both.exit_code == 0 and drawn == [1] and both.stdout == only.stdout, both.stderr
    assert {p.name for p in (tmp_path / "rep").glob("*.png")} == set(gridreport.FIGURES)
    # the report never goes into a run folder (was: exit 0, pd.read_parquet(out) then failed on a PNG)
    bad = run_cli(["grid", "report", str(out), "--out", str(out)])
    assert bad.exit_code == 2 and "holds a golfsolve run, not a report" in bad.stderr
    assert len(pd.read_parquet(out)) > 0


@pytest.mark.parametrize("args,words", [
    (["--players", "3", "--bots", "greedy,greedy"], "--bots names 2 bots but --players is 3"),
    (["--grid", "7"], "4, 6, 8 or 9"),
    (["--bots", "greedy,wizard"], "unknown bot 'wizard'"),
    (["--players", "7"], "2 to 6"),
    (["--rules", "default+nonsense"], "unknown grid rule"),
    (["--rules", "default+pairs", "--grid", "4"], "grid rule 'pairs' changes nothing on the 4-card grid (2x2)"),
    (["--rules", "default+no-nine-rows", "--grid", "8"], "grid rule 'no-nine-rows' changes nothing on the 8-card grid"),
    (["--mc-samples", "0"], "0 is not in the range 1<=x<=1000000"),
    (["--matches", "0"], "at least 1"),
])
def test_bad_input_exits_2_with_one_line(run_cli, args, words):
    r = run_cli(["grid", "simulate", "-q"] + args)
    assert r.exit_code == 2
    assert words in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


@pytest.mark.parametrize("command", [["grid", "study", "--sets", "grid-4+pairs,grid-4", "--out", "{tmp}/s"],
                                     ["grid", "play", "--rules", "default+pairs", "--grid", "6"]])
def test_a_switch_that_changes_nothing_is_refused_before_any_play(run_cli, tmp_path, command):
    r = run_cli([a.replace("{tmp}", str(tmp_path)) for a in command])
    assert r.exit_code == 2 and "grid rule 'pairs' changes nothing" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and r.stdout == ""
    assert not (tmp_path / "s").exists()


def test_win_rates_have_wilson_intervals_right_at_0_and_100_percent(run_cli):
    r = run_cli(["grid", "simulate", "--bots", "heuristic,random", "--holes", "2", "--matches", "6", "--seed", "1",
                 "--json", "-q"])
    assert r.exit_code == 0, r.stderr
    bots = {b["bot"]: b for b in json.loads(r.stdout)["bots"]}
    assert bots["heuristic"]["win_rate"] == 1.0 and bots["random"]["win_rate"] == 0.0
    # Wilson: the interval ends exactly at 100% and 0%, and is not a point (a normal interval is [0, 0])
    assert bots["heuristic"]["win_hi"] == 1.0 and 0.5 < bots["heuristic"]["win_lo"] < 0.75
    assert bots["random"]["win_lo"] == 0.0 and 0.25 < bots["random"]["win_hi"] < 0.5


def test_simulate_and_play_default_to_heuristic_bots(run_cli):
    r = run_cli(["grid", "simulate", "--players", "3", "--holes", "1", "--matches", "2", "--json", "-q"])
    assert r.exit_code == 0, r.stderr
    js = json.loads(r.stdout)
    assert js["meta"]["bots"] == ["heuristic"] * 3 and [b["bot"] for b in js["bots"]] == ["heuristic"]


def test_report_on_a_missing_directory_exits_2(run_cli, tmp_path):
    r = run_cli(["grid", "report", str(tmp_path / "nope")])
    assert r.exit_code == 2 and "DIR '" in r.stderr and "/nope': no such folder; check its name" in r.stderr


def test_play_a_hole_against_a_bot_from_piped_input(run_cli):
    # Openers 1 2; then keep taking the stock and turning the first face-down slot.
    answers = "1 2\n" + "s\nf 3\ns\nf 4\n" + "s\n1\n" * 10
    r = run_cli(["grid", "play", "--players", "2", "--grid", "4", "--holes", "1", "--seed", "3", "--ascii"],
                input=answers)
    assert r.exit_code == 0, r.stderr
    assert "Score card after hole 1" in r.stdout
    assert "Match over. Winner" in r.stdout
    assert "heuristic (P2)" in r.stdout  # the default opponent
    # every grid starts in one column, a space after the longest name
    starts = {ln.index("[1]") for ln in r.stdout.splitlines() if "[1]" in ln and "shows" in ln}
    assert len(starts) == 1 and "heuristic (P2) [1]" in r.stdout


def test_play_rejects_bad_answers_and_asks_again(run_cli):
    answers = "1 1\n9\n1 2\nx\ns\nz\nf 3\n" + "s\n1\n" * 12
    r = run_cli(["grid", "play", "--players", "2", "--grid", "4", "--holes", "1", "--seed", "3", "--ascii"],
                input=answers)
    assert r.exit_code == 0, r.stderr
    assert "give 2 different slot numbers" in r.stdout
    assert "not allowed: answer s (stock), d (discard)\n" in r.stdout


def test_play_shows_hole_first_player_totals_grids_and_bot_draws(run_cli):
    answers = "1 2\nd\nf 1\n" + "s\n1\n" * 24 + "\n" + "1 2\n" + "s\n1\n" * 24
    r = run_cli(["grid", "play", "--players", "3", "--grid", "4", "--holes", "2", "--seed", "3", "--ascii",
                 "--bots", "heuristic,greedy"], input=answers)
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "=== Hole 1 of 2: you play first (running totals: you 0," in out
    assert "=== Hole 2 of 2: heuristic (P2) plays first (running totals: you " in out
    assert "not allowed: a card taken from the discard must be swapped into your grid" in out
    assert "draws from the stock" in out or "from the discard" in out
    # Grids are drawn as 2x2 grids: two lines per player in the final grids.
    final = out.split("Final grids (= cancels):")[1].split("Score card")[0].strip("\n").splitlines()
    assert len(final) == 6 and "strokes" in final[0] and "strokes" not in final[1]


def test_every_registered_bot_is_named_in_help_errors_and_the_honesty_tests(run_cli):
    # the help text is written out (importing the registry would import numba for --help),
    # so this keeps it, the error message and the permutation tests in step with the registry
    from golfsolve.grid.bots import BOTS

    import test_grid_heuristic  # this folder is on sys.path (no package)
    import test_grid_honesty_midgame

    help_text = "".join(run_cli(["grid", "simulate", "--help"]).stdout.split())  # wrapped at hyphens too
    refused = run_cli(["grid", "play", "--bots", ","])
    assert refused.exit_code == 2
    tested = {b.split(":")[0] for b in test_grid_heuristic.HONEST_BOTS} & {
        b.split(":")[0] for b in test_grid_honesty_midgame.BOTS} | {"spiel-ismcts"}
    for name in BOTS:
        assert name in help_text, name
        assert name in refused.stderr, name
        assert name in tested, name


def test_play_under_openers_exact_refuses_fewer_openers_and_default_takes_done(run_cli):
    """was: grid play asked every rule set for exactly the allowance: 'done' was "give 2
    different slot numbers" under default too, where the rules let a player stop early; under
    danish, where they do not, nothing said why."""
    table = ["grid", "play", "--players", "2", "--grid", "4", "--holes", "1", "--seed", "3", "--ascii"]
    r = run_cli(table + ["--rules", "danish"], input="done\n1\n1 2\nq\n")
    assert r.exit_code == 0, r.stderr
    refusal = "  not allowed: these rules turn exactly 2 of your cards, no fewer; give 2 different slot numbers from 1 to 4"
    assert r.stdout.count(refusal) == 2 and "Turn 2 of your cards" in r.stdout
    assert "you *          [1]  6D   [2]  4S" in r.stdout  # then slots 1 and 2 turned
    r = run_cli(table, input="done\nq\n")
    assert r.exit_code == 0, r.stderr
    assert "Turn up to 2 of your cards" in r.stdout and "not allowed" not in r.stdout
    assert "you *          [1]  ??   [2]  ??    shows 0" in r.stdout.split("Draw from")[0].split("done")[-1]


def test_a_danish_run_recorded_before_openers_exact_resumes_as_it_was_played(run_cli, tmp_path):
    """A danish table recorded before openers-exact lacks openers_exact, as danish+openers-up-to's
    does today: it resumes with its own table, and --rules danish (each player turns exactly
    two) on it is another table, refused in one line. was: danish had no such switch, and adding
    a field to every recorded table would have refused every old run's --resume."""
    out = tmp_path / "old"
    table = ["--players", "2", "--grid", "4", "--holes", "1"]
    r = run_cli(["grid", "simulate", "--rules", "danish+openers-up-to", *table, "--bots", "greedy,random",
                 "--matches", "4", "--chunk-size", "2", "--out", str(out), "-q"])
    assert r.exit_code == 0, r.stderr
    recorded = json.loads((out / "_manifest.json").read_text())["params"]["table"]
    assert "openers_exact" not in recorded and recorded["twos_plus"] is True
    (out / "chunk-0000000002.parquet").unlink()
    r = run_cli(["grid", "simulate", "--resume", "--out", str(out), "-q"])
    assert r.exit_code == 0, r.stderr
    assert json.loads((out / "_manifest.json").read_text())["params"]["table"] == recorded
    r = run_cli(["grid", "simulate", "--resume", "--rules", "danish", *table, "--out", str(out), "-q"])
    assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1
    assert "differs in table.openers_exact (here True, the run has none)" in r.stderr
    # every other table keeps the form it was recorded in
    default = run_cli(["grid", "simulate", *table, "--bots", "greedy,random", "--matches", "1", "--json"])
    assert "openers_exact" not in json.loads(default.stdout)["meta"]["rules"]
