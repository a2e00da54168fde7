"""Runs of every k-th deal (``golfsolve stats --stride K`` / ``--spread``): which deals they
hold, that they resume and extend like runs of consecutive deals, and what they refuse."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from golfsolve.errors import InputError
from golfsolve.solitaire.dealcode import N_DEALS, format_code
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import code_letter, get_rules
from golfsolve.solitaire.solver import Solver
from golfsolve.stats.census import (CensusSpec, load_results, read_manifest, run_census, solve_chunk, spread_stride,
                                    write_chunk)
from golfsolve.stats.runblocks import chunk_name
from golfsolve.stats.runfolder import chunk_files
from hostile_helpers import one_line_error

RULES = ("easy", "classic")
TIMING = ["seconds", "cpu_seconds"]
COUNT, CHUNK = 12, 5
# even, and the run starts near the top of the code space: it wraps round past the last deal
STRIDE = spread_stride(COUNT)
START = N_DEALS - 2 * STRIDE - 5


@pytest.fixture(scope="module")
def strided(tmp_path_factory):
    """``COUNT`` deals, every ``STRIDE``-th from ``START``, solved in-process by the library."""
    out = tmp_path_factory.mktemp("stride") / "run"
    run_census(out, CensusSpec(START, COUNT, RULES, CHUNK, stride=STRIDE), jobs=1, progress=False)
    return out, load_results(out)


def test_spread_stride_covers_the_code_space_without_coming_round():
    assert STRIDE % 2 == 0  # shares a factor with 26^7, and still no deal repeats
    assert COUNT * STRIDE <= N_DEALS < COUNT * (STRIDE + 1)
    # 26^7 // 2,000,000: the stride docs/scale.md publishes for the 2,000,000-deal census
    assert spread_stride(2_000_000) == 26**7 // 2_000_000 == 4015
    assert spread_stride(1) == 1


def test_positions_undo_deal_numbers_even_round_the_end_with_a_shared_factor():
    spec = CensusSpec(N_DEALS - 7, 500, stride=13 * 2 * 1_000_003)
    deals = [spec.deal(i) for i in range(spec.count)]
    assert len(set(deals)) == spec.count and max(deals) < N_DEALS
    assert any(d < spec.start for d in deals)  # it wrapped
    assert spec.positions(deals[::-1]) == list(range(spec.count))[::-1]


def test_a_strided_table_is_those_deals_solved_one_by_one(strided):
    out, df = strided
    want = [(START + i * STRIDE) % N_DEALS for i in range(COUNT)]
    assert min(want) < START  # the run came round past the last deal
    assert sorted(df["deal"].unique()) == sorted(want)
    assert len(df) == COUNT * len(RULES) and not df.duplicated(["deal", "rules"]).any()
    solver = Solver()
    for row in df.itertuples():
        rules = get_rules(row.rules)
        sol = solver.solve(layout_from_number(row.deal, rules), rules)
        assert (row.winnable, row.best_left, row.app_score) == (sol.outcome == "won", sol.best_left, sol.app_score)
        assert row.code == format_code(row.deal, code_letter(rules))
    # the chunks are stretches of the run, named by position, not by deal number
    assert sorted(chunk_files(out)) == [chunk_name(i) for i in range(0, COUNT, CHUNK)]
    m = read_manifest(out)
    assert (m["start"], m["params"]) == (0, {"first_deal": START, "stride": STRIDE})


def test_the_command_with_spread_makes_the_same_run(strided, tmp_path, run_cli):
    out = tmp_path / "cli"
    r = run_cli(["stats", "--start-number", str(START), "--count", str(COUNT), "--spread", "--rules", ",".join(RULES),
                 "--chunk-size", str(CHUNK), "--jobs", "2", "--quiet", "--out", str(out)])
    assert r.exit_code == 0, r.stderr
    assert r.stdout.rstrip().endswith(f"({COUNT} deals spread over the GO1 code space, every {STRIDE:,}th from {START})")
    pd.testing.assert_frame_equal(load_results(out).drop(columns=TIMING), strided[1].drop(columns=TIMING))
    m = read_manifest(out)
    assert f"--stride {STRIDE}" in m["command"] and "--spread" not in m["command"]


def test_report_says_which_deals_the_run_covers(strided, run_cli, tmp_path):
    r = run_cli(["report", str(strided[0]), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.stderr
    covers = f"{COUNT} deals spread over the GO1 code space, every {STRIDE:,}th from {START}"
    assert r.stdout.splitlines()[0] == covers + ":"
    md = (tmp_path / "rep" / "report.md").read_text()
    # once in the text, and in each figure's text alternative and caption (they name their deals)
    text = "\n".join(line for line in md.splitlines() if not line.startswith(("![", "*")))
    assert text.count(covers) == 1 and "GO1 deal numbers" not in md
    figures = md.count("](")
    assert figures and md.count(covers) == 1 + 2 * figures
    # the numbers alone (--json without --out draws nothing: the same numbers, test_report.py)
    data = json.loads(run_cli(["report", str(strided[0]), "--json"]).stdout)
    assert (data["stride"], data["first_deal"], data["last_deal"]) == (STRIDE, START, (START + (COUNT - 1) * STRIDE) % N_DEALS)
    assert data["nine_deal_match"]["easy"]["matches"] == COUNT // 9


def test_a_chunk_of_other_deals_is_damaged_and_resume_redoes_it(strided, tmp_path, run_cli):
    src, df = strided
    out = tmp_path / "run"
    out.mkdir()
    for p in [src / "_manifest.json", *chunk_files(src).values()]:
        (out / p.name).write_bytes(p.read_bytes())
    write_chunk(out, 0, solve_chunk(0, CHUNK, RULES))  # deals 0..4, not the run's first five
    with pytest.raises(InputError, match="positions 0..4 of the run"):
        load_results(out)
    r = run_cli(["stats", "--out", str(out), "--resume", "--jobs", "1", "--quiet"])
    assert r.exit_code == 0, r.stderr
    assert "solved again" in r.stderr
    pd.testing.assert_frame_equal(load_results(out).drop(columns=TIMING), df.drop(columns=TIMING))


def test_extend_keeps_the_stride(strided, tmp_path, run_cli):
    src = strided[0]
    out = tmp_path / "run"
    out.mkdir()
    for p in [src / "_manifest.json", *chunk_files(src).values()]:
        (out / p.name).write_bytes(p.read_bytes())
    r = run_cli(["stats", "--out", str(out), "--extend", "--count", str(COUNT + 2), "--jobs", "1", "--quiet"])
    assert r.exit_code == 0, r.stderr
    deals = set(load_results(out)["deal"])
    assert deals == {(START + i * STRIDE) % N_DEALS for i in range(COUNT + 2)}


@pytest.mark.parametrize("args", [
    ["--resume", "--stride", "3"],
    ["--resume", "--stride", "1"],
    ["--resume", "--start-number", "0"],
    ["--extend", "--count", str(COUNT + 1), "--stride", str(STRIDE + 2)],
    ["--extend", "--count", str(COUNT + 1), "--spread"],  # another count spreads with another stride
])
def test_resume_or_extend_with_another_stride_is_refused(strided, run_cli, args):
    out = strided[0]
    before = read_manifest(out)
    r = run_cli(["stats", "--out", str(out), "--jobs", "1", *args])
    assert r.exit_code == 2, r.stdout
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert "differ" in r.stderr and f"every {STRIDE:,}th from {START}" in r.stderr
    assert read_manifest(out) == before


def test_a_run_of_consecutive_deals_is_not_resumed_with_a_stride(run_cli, tmp_path):
    out = tmp_path / "run"
    assert run_cli(["stats", "--count", "2", "--rules", "strict", "--out", str(out), "--jobs", "1", "-q"]).exit_code == 0
    r = run_cli(["stats", "--out", str(out), "--resume", "--stride", "5", "--jobs", "1"])
    assert r.exit_code == 2 and "stride (here 5, the run has 1)" in r.stderr, r.stderr  # was: "has none"
    r = run_cli(["stats", "--out", str(out), "--extend", "--count", "3", "--fields", "winnable", "--jobs", "1"])
    assert r.exit_code == 2 and "fields (here winnable, the run has all)" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args, words", [
    (["--count", "3", "--stride", "0"], "--stride must be from 1"),
    (["--count", "3", "--stride", "-4"], "--stride must be from 1"),
    (["--count", "3", "--stride", str(N_DEALS)], "--stride must be from 1"),
    (["--count", "3", "--stride", "7", "--spread"], "not both"),
    # 26^7 / 2^7 = 13^7 deals before a stride of 2^7 comes round
    (["--count", str(13**7 + 1), "--stride", "128", "--chunk-size", "100000"], "repeats deals after 62,748,517"),
    (["--count", "3", "--stride", str(N_DEALS // 2)], "repeats deals after 2 "),
])
def test_bad_strides_are_one_line_exit_2_before_any_work(run_cli, tmp_path, args, words):
    r = run_cli(["stats", "--out", str(tmp_path / "x"), *args])
    assert r.exit_code == 2
    assert words in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert not (tmp_path / "x").exists()


def test_extending_a_spread_run_past_where_its_stride_repeats_says_so(run_cli, tmp_path):
    out = tmp_path / "spread"
    assert run_cli(["stats", "--count", "4", "--spread", "--rules", "strict", "--out", str(out), "--jobs", "1",
                    "-q"]).exit_code == 0
    # was: "--stride 2007952544 repeats deals after 4 of them (...); give --count 4 or fewer, or a stride
    # that is odd and not a multiple of 13": a stride never typed, which --extend cannot change
    for extra in ([], ["--spread"]):
        r = run_cli(["stats", "--out", str(out), "--extend", "--count", "8", *extra, "--jobs", "1"])
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert ("takes every 2,007,952,544th deal, which comes back to its first deal after 4 of them, so it "
                "cannot grow to 8; start a new run") in r.stderr, r.stderr
    assert "(--count 8 --spread)" in r.stderr


def test_a_spread_of_more_deals_than_the_code_space_says_so():
    """was: spread_stride(26**7 + 1) gave a stride of 0, which the run then refused as
    '--stride must be from 1 to ...', a stride nobody gave"""
    from golfsolve.stats.census import spread_stride

    with pytest.raises(InputError, match="more deals than the GO1 code space holds"):
        spread_stride(26**7 + 1)
    assert spread_stride(26**7) == 1


@pytest.mark.parametrize("again, differs", [
    # was: 'start 0 (here 5), first_deal 5 (here none), stride 3 (here 1)': the run starts at 5
    (["--stride", "1", "--start-number", "5"], "stride 3 (here 1)"),
    # was: 'first_deal 5 (here 6)', a name the user never typed
    (["--stride", "3", "--start-number", "6"], "start 5 (here 6)"),
    # was: a dozen fields, 'difficulty_player.samples (here 8, the run has none), ...'
    (["--stride", "3", "--start-number", "5", "--difficulty"], "difficulty_games (here 8, the run has none)"),
])
def test_a_strided_stats_run_resumed_with_other_options_names_them_as_given(run_cli, tmp_path, again, differs):
    out = str(tmp_path / "run")
    r = run_cli(["stats", "--start-number", "5", "--stride", "3", "--count", "2", "--rules", "easy", "-j", "1",
                 "--out", out, "-q"])
    assert r.exit_code == 0, r.stderr
    line = one_line_error(run_cli(["stats", "--out", out, "--resume", "--count", "2", *again]))
    assert f"; this command differs in {differs}; repeat the run's options" in line, line
    assert "first_deal" not in line and "difficulty_player" not in line


def test_extending_a_run_of_consecutive_deals_with_a_stride_names_only_the_stride(run_cli, tmp_path):
    """was: 'in first_deal (here 0, the run has none), stride (here 3, the run has 1)'"""
    out = str(tmp_path / "run")
    assert run_cli(["stats", "--count", "2", "--rules", "easy", "-j", "1", "--out", out, "-q"]).exit_code == 0
    line = one_line_error(run_cli(["stats", "--out", out, "--extend", "--count", "4", "--stride", "3"]))
    assert " in stride (here 3, the run has 1); keep its start" in line, line


def test_a_strided_run_of_one_deal_says_one_deal(run_cli, tmp_path):
    """was: 'win rate: easy 100.0% (1 deals every 2nd from 5)', and '(1 deals, every 2nd
    from 5, ...)' in a refused --resume"""
    out = str(tmp_path / "run")
    r = run_cli(["stats", "--start-number", "5", "--stride", "2", "--count", "1", "--rules", "easy", "-j", "1",
                 "--out", out, "-q"])
    assert r.exit_code == 0 and "(1 deal every 2nd from 5)" in r.stdout, r.stdout
    line = one_line_error(run_cli(["stats", "--out", out, "--resume", "--count", "1", "--stride", "3"]))
    assert "holds a different run (1 deal, every 2nd from 5, rules easy" in line, line
