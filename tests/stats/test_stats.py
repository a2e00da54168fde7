"""Batch statistics: chunk planning, solving, atomic chunk files, resume rules, CLI errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd
import pytest

from golfsolve.errors import InputError
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import Solver
from golfsolve.stats.census import (
    COLUMNS,
    CensusSpec,
    chunk_files,
    default_chunk_size,
    load_results,
    parse_rules_list,
    read_manifest,
    run_census,
    run_status,
    solve_chunk,
    solve_order,
    write_chunk,
)
from golfsolve.stats.runblocks import chunk_name

RULES = ("easy", "classic", "strict")
TIMING = ["seconds", "cpu_seconds"]  # the only columns that differ between equal runs


@pytest.fixture(scope="module")
def baseline(tmp_path_factory) -> tuple[Path, pd.DataFrame]:
    """36 deals under three rule sets, solved in-process in chunks of 12."""
    out = tmp_path_factory.mktemp("stats") / "run"
    run_census(out, CensusSpec(0, 36, RULES, 12), jobs=1, command="golfsolve stats --count 36", progress=False)
    return out, load_results(out)


# -- parameters --------------------------------------------------------------
def test_rules_list_is_canonical_and_rejects_repeats_and_unknown_names():
    assert parse_rules_list("easy, classic ,strict") == RULES
    assert parse_rules_list("wrap,queen-on-king,no-card-on-king") == ("easy", "classic", "dead-king")
    with pytest.raises(InputError, match="'easy' and 'wrap' in --rules are the same rule set under two names"):
        parse_rules_list("easy,wrap")
    with pytest.raises(InputError, match="twice"):
        parse_rules_list("easy,EASY")
    with pytest.raises(InputError, match="unknown rule set"):
        parse_rules_list("easy,nope")
    with pytest.raises(InputError, match=r"^--rules has an empty rule set name in ' , '"):  # was: any InputError
        parse_rules_list(" , ")


def test_chunks_cover_the_range_once_with_a_short_last_chunk():
    spec = CensusSpec(100, 25, RULES, 10)
    assert spec.chunks() == [(100, 10), (110, 10), (120, 5)]
    covered = [d for f, n in spec.chunks() for d in range(f, f + n)]
    assert covered == list(range(100, 125))


# the last deal number is 26**7 - 1 = 8031810175 (SPEC: seven base-26 letters)
@pytest.mark.parametrize("kwargs, words", [
    (dict(start=0, count=0), "--count must be at least 1, not 0"),
    (dict(start=-1, count=5), "the first deal number -1 is outside 0..8031810175"),
    (dict(start=26**7 - 2, count=5), "deals 8031810174..8031810178 run past the last deal 8031810175"),
    (dict(start=0, count=5, chunk_size=0), "--chunk-size must be from 1 to 2**63-1, not 0")])
def test_bad_ranges_are_input_errors(kwargs, words):
    """was: any InputError passed; now the line a user reads, naming the range"""
    with pytest.raises(InputError) as e:
        CensusSpec(rules=RULES, **kwargs)
    assert str(e.value) == words


def test_default_chunk_size_gives_about_ten_chunks_per_worker_and_caps_at_500():
    assert default_chunk_size(2000, 2) == 2000 // (10 * 2)  # ten chunks for each of 2 workers
    assert default_chunk_size(1_000_000, 2) == 500  # ten per worker would be 50,000 deals a chunk
    assert default_chunk_size(5, 8) == 1


def test_chunk_names_sort_in_deal_order():
    names = [chunk_name(n) for n in (5, 40, 300, 1_000_000_000)]
    assert names == sorted(names)


# -- solving -----------------------------------------------------------------
def test_solve_chunk_rows_agree_with_the_solver_deal_by_deal():
    # the chunk solves each deal's rule sets in solve_order and reuses what the others
    # proved (looser bounds from below, stricter lines from above); every answer must
    # still be the one a solve on its own gives
    df = solve_chunk(7, 24, RULES)
    assert list(df.columns) == list(COLUMNS)
    assert list(zip(df["deal"], df["rules"])) == [(d, r) for d in range(7, 31) for r in RULES]
    solver = Solver()
    for row in df.itertuples():
        rules = get_rules(row.rules)
        sol = solver.solve(layout_from_number(row.deal, rules), rules)
        assert (row.winnable, row.best_left, row.app_score, row.fields) == (
            sol.outcome == "won", sol.best_left, sol.app_score, "winnable,best_left")
    assert df.loc[df["rules"] == "classic", "code"].str.startswith("GO1-C-").all()
    assert df.loc[df["rules"] == "easy", "code"].iloc[0] == "GO1-E-AAAAAAH"


def test_solve_order_puts_the_loosest_first_and_strict_before_classic_for_full_answers():
    rule_sets = [get_rules(r) for r in ("classic", "strict", "easy")]
    assert solve_order(rule_sets, verdict_only=True) == [2, 0, 1]  # easy, classic, strict
    assert solve_order(rule_sets, verdict_only=False) == [2, 1, 0]  # easy, strict, classic


def test_verdict_only_chunk_says_which_fields_it_computed():
    rules = ("strict", "easy", "classic")  # not in nesting order: the rows keep this order
    full = solve_chunk(20, 8, rules)
    quick = solve_chunk(20, 8, rules, fields="winnable")
    assert list(quick["rules"]) == list(full["rules"])
    assert (quick["winnable"] == full["winnable"]).all()
    lost = ~quick["winnable"]
    assert lost.any() and quick["winnable"].any()
    assert quick.loc[lost, "best_left"].isna().all() and quick.loc[lost, "app_score"].isna().all()
    assert (quick.loc[lost, "fields"] == "winnable").all()
    assert (quick.loc[~lost, "best_left"] == 0).all()
    assert (quick.loc[~lost, "fields"] == "winnable,best_left").all()


def test_baseline_has_every_deal_under_every_rule_set_once(baseline):
    out, df = baseline
    assert len(df) == 36 * 3
    assert not df.duplicated(["deal", "rules"]).any()
    assert sorted(df["deal"].unique()) == list(range(36))
    assert run_status(out) == {"chunks_done": 3, "chunks_total": 3, "deals_done": 36, "deals_total": 36,
                               "complete": True}
    # every row records its solve's timing (what the report's time plot reads)
    assert df[["seconds", "cpu_seconds"]].notna().all().all()


def test_looser_rules_never_do_worse_on_the_same_deal(baseline):
    # Strict's moves are a subset of Classic's, which are a subset of Easy's, so a deal's
    # best result can only get better as the rules loosen.
    wide = baseline[1].pivot(index="deal", columns="rules", values="best_left")
    assert (wide["easy"] <= wide["classic"]).all()
    assert (wide["classic"] <= wide["strict"]).all()
    # ...and the rule sets do differ on these deals, so the comparison has teeth.
    assert (wide["easy"] < wide["classic"]).any() and (wide["classic"] < wide["strict"]).any()


def test_parallel_run_with_other_chunks_equals_the_in_process_run(baseline, tmp_path):
    out, df = baseline
    run_census(tmp_path / "par", CensusSpec(0, 36, RULES, 5), jobs=2, progress=False)
    par = load_results(tmp_path / "par")
    assert len(chunk_files(tmp_path / "par")) == 8
    pd.testing.assert_frame_equal(par.drop(columns=TIMING), df.drop(columns=TIMING))


# -- files and resume --------------------------------------------------------
def test_manifest_records_the_run_and_its_command(baseline):
    m = read_manifest(baseline[0])
    assert (m["start"], m["count"], m["rules"], m["chunk_size"]) == (0, 36, list(RULES), 12)
    assert m["command"] == "golfsolve stats --count 36"
    assert m["complete"] is True
    assert m["invocations"][-1]["status"] == "complete"


def test_resume_solves_only_missing_chunks_and_restores_the_same_table(baseline, tmp_path):
    src, df = baseline
    out = tmp_path / "run"
    out.mkdir()
    for p in [src / "_manifest.json", *chunk_files(src).values()]:
        (out / p.name).write_bytes(p.read_bytes())
    (out / chunk_name(12)).unlink()
    (out / f".{chunk_name(12)}.999.tmp").write_bytes(b"half a parquet file")  # left by a killed run
    solved = []
    res = run_census(out, CensusSpec(0, 36, RULES, 12), resume=True, jobs=1, progress=False,
                     on_chunk=lambda first, n: solved.append((first, n)))
    assert solved == [(12, 12)]
    assert (res.chunks_before, res.chunks_solved, res.complete) == (2, 1, True)
    assert not list(out.glob(".*.tmp"))
    pd.testing.assert_frame_equal(load_results(out).drop(columns=TIMING), df.drop(columns=TIMING))


def test_resume_of_a_finished_run_changes_nothing(baseline, run_cli):
    out = baseline[0]
    before = {p: p.stat().st_mtime_ns for p in chunk_files(out).values()}
    r = run_cli(["stats", "--out", str(out), "--resume", "--jobs", "1"])
    assert r.exit_code == 0, r.stderr
    assert "nothing to do" in r.stdout
    assert {p: p.stat().st_mtime_ns for p in chunk_files(out).values()} == before


def test_write_chunk_leaves_no_temporary_file(tmp_path):
    df = solve_chunk(0, 2, ("strict",))
    p = write_chunk(tmp_path, 0, df)
    assert p.name == chunk_name(0)
    assert [q.name for q in tmp_path.iterdir()] == [p.name]
    pd.testing.assert_frame_equal(pd.read_parquet(p), df)


def test_a_damaged_chunk_is_reported_not_loaded(baseline, tmp_path):
    src = baseline[0]
    out = tmp_path / "run"
    out.mkdir()
    (out / "_manifest.json").write_bytes((src / "_manifest.json").read_bytes())
    write_chunk(out, 0, solve_chunk(0, 3, RULES))  # 3 deals where the chunk holds 12
    with pytest.raises(InputError, match="damaged"):
        load_results(out)


# -- the command ---------------------------------------------------------------
def test_cli_json_summary_and_files(run_cli, tmp_path):
    out = tmp_path / "cli"
    r = run_cli(["stats", "--start", "GO1-E-AAAAABA", "--count", "6", "--rules", "strict,classic", "--out", str(out),
                 "--jobs", "1", "--json"])
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    # AAAAABA is deal 26 (base 26, SPEC); ten chunks for one worker would hold 0.6 deals: 1 each
    assert data["spec"] == {"start": 26, "count": 6, "rules": ["strict", "classic"], "chunk_size": 1}
    assert data["chunks_solved"] == 6 and data["complete"] is True
    assert data["seconds"] == round(data["seconds"], 3)  # was: 0.34176375200331677
    df = load_results(out)
    assert data["win_rate"]["classic"] == pytest.approx(df.loc[df["rules"] == "classic", "winnable"].mean())
    m = read_manifest(out)
    assert m["command"].startswith("golfsolve stats --start-number 26 --count 6 --rules strict,classic")


def test_cli_refuses_to_overwrite_or_to_resume_a_different_run(baseline, run_cli):
    out = str(baseline[0])
    r = run_cli(["stats", "--count", "36", "--out", out, "--chunk-size", "12"])
    assert r.exit_code == 2 and "--resume" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = run_cli(["stats", "--count", "37", "--out", out, "--resume"])
    assert r.exit_code == 2 and "different run" in r.stderr
    r = run_cli(["stats", "--count", "36", "--rules", "easy,classic", "--out", out, "--resume"])
    assert r.exit_code == 2 and "different run" in r.stderr


@pytest.mark.parametrize("args, words", [
    (["--count", "0"], "at least 1"),
    (["--count", "3", "--start", "GO1-E-AAAA"], "letters"),
    (["--count", "3", "--start", "GO1-E-AAAAAAA", "--start-number", "4"], "not both"),
    (["--count", "3", "--rules", "easy,wrap"], "same rule set under two names"),
    (["--count", "3", "--rules", "easy,hard"], "unknown rule set"),
    (["--count", "3", "--jobs", "0"], "--jobs"),
    (["--count", "3", "--scheduler", "tcp://127.0.0.1:8786"], "--engine dask"),
    ([], "--count"),
])
def test_cli_bad_input_is_one_line_and_exit_2(run_cli, tmp_path, args, words):
    r = run_cli(["stats", "--out", str(tmp_path / "x"), *args])
    assert r.exit_code == 2
    assert words in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert not (tmp_path / "x" / "_manifest.json").exists() or not chunk_files(tmp_path / "x")


def test_out_must_not_be_a_file(run_cli, tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    r = run_cli(["stats", "--count", "2", "--out", str(f)])
    assert r.exit_code == 2 and "not a directory" in r.stderr
    assert os.path.isfile(f)


def test_cli_fields_winnable_is_kept_by_resume(run_cli, tmp_path):
    out = tmp_path / "quick"
    r = run_cli(["stats", "--count", "6", "--rules", "classic,strict", "--fields", "winnable", "--out", str(out),
                 "--chunk-size", "3", "--jobs", "1", "--quiet"])
    assert r.exit_code == 0, r.stderr
    df = load_results(out)
    assert set(df.loc[~df["winnable"], "fields"]) == {"winnable"} and df.loc[~df["winnable"], "best_left"].isna().all()
    # --resume without --fields continues the same verdict-only run
    r = run_cli(["stats", "--out", str(out), "--resume", "--jobs", "1", "--quiet"])
    assert r.exit_code == 0, r.stderr
    r = run_cli(["stats", "--out", str(out), "--resume", "--fields", "all", "--jobs", "1", "--quiet"])
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1
