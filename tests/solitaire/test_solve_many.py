"""Many deals in one run: the library's deal sources and `golfsolve solve` with JSON Lines."""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys

import pytest
from replay_helpers import assert_record_replays

from golfsolve.solitaire.dealcode import DealCodeError
from golfsolve.solitaire.deals import BadLine, DealBatch, code_lines, parse_pysol_range, record, solve_many
from golfsolve.solitaire.layout import LayoutError, layout_from_code, layout_from_pysol
from golfsolve.solitaire.rules import CLASSIC, EASY
from golfsolve.solitaire.solver import Solver, StockUnknownError
from hostile_helpers import DATA, ROOT
import re

import numpy as np

from golfsolve.errors import InputError

CODES = ["GO1-E-AAAAAAB", "go1-c-aaaaaab ", "GO1-N-AAAAAAC"]


def without_time(rec: dict) -> dict:
    return {k: v for k, v in rec.items() if k != "seconds"}


@pytest.mark.parametrize("spec, deals", [
    ("7", [7]),
    (" 1-3 ", [1, 2, 3]),
    ("1..3,10", [1, 2, 3, 10]),
    ("5..5, 8 - 9", [5, 8, 9]),
])
def test_pysol_ranges_include_both_ends(spec, deals):
    assert [n for r in parse_pysol_range(spec) for n in r] == deals


@pytest.mark.parametrize("spec", ["0", "0-3", "3-1", "x", "1-", "1--3", "1...3", "", "1,,2", f"5-{2**64}"])
def test_bad_pysol_ranges_are_refused(spec):
    with pytest.raises(LayoutError):
        parse_pysol_range(spec)


def test_batch_checks_everything_before_dealing(tmp_path):
    with pytest.raises(DealCodeError) as e:
        DealBatch.build(codes=["GO1-E-AAAAAAB", "GO1-X-AAAAAAB"])
    assert "rule letter" in str(e.value)
    with pytest.raises(LayoutError):
        DealBatch.build(layout_files=[str(tmp_path / "missing.txt")])
    with pytest.raises(StockUnknownError):
        DealBatch.build(layout_files=[str(DATA / "seed000_start.txt")])


def test_batch_order_length_and_rules(data_dir):
    batch = DealBatch.build(CODES, [str(data_dir / "pysol-golf-1.board")], ["2-3"])
    lays = list(batch)
    assert len(batch) == len(lays) == 6
    assert [lay.name for lay in lays[:3]] == ["GO1-E-AAAAAAB", "GO1-C-AAAAAAB", "GO1-N-AAAAAAC"]
    assert [lay.rules for lay in lays] == [EASY, CLASSIC, EASY, EASY, EASY, EASY]
    assert lays[4] == layout_from_pysol(2).with_rules(EASY)
    # the board file holds PySol deal 1: the same cards as --pysol 1
    assert lays[3].columns == layout_from_pysol(1).columns and lays[3].stock == layout_from_pysol(1).stock
    forced = list(DealBatch.build(CODES, pysol=["1"], rules=CLASSIC))
    assert all(lay.rules == CLASSIC for lay in forced)


def test_solve_many_equals_one_solve_per_deal():
    batch = DealBatch.build(CODES, pysol=["1..4"], rules=None)
    many = list(solve_many(batch))
    assert len(many) == len(batch)
    for lay, sol in many:
        one = Solver().solve(lay, lay.rules)
        assert (sol.outcome, sol.best_left, sol.moves, sol.nodes) == (one.outcome, one.best_left, one.moves, one.nodes)
        assert_record_replays(record((lay, sol)), lay)


def test_code_lines_turn_bad_lines_into_records_and_go_on():
    stream = io.StringIO("GO1-E-AAAAAAB\n\n# a comment\nGO1-E-AAAAAB\nGO1-C-AAAAAAB\n")
    items = list(code_lines(stream))
    assert [type(i).__name__ for i in items] == ["Layout", "BadLine", "Layout"]
    bad = items[1]
    assert isinstance(bad, BadLine) and bad.line == 4 and bad.text == "GO1-E-AAAAAB"
    assert record(bad) == {"line": 4, "input": "GO1-E-AAAAAB", "error": bad.error} and "7 letters" in bad.error
    assert items[2].rules == CLASSIC
    assert [type(i).__name__ for i in solve_many(items)] == ["tuple", "BadLine", "tuple"]


# -- the command ------------------------------------------------------------------------
def single_json(run_cli, args) -> dict:
    res = run_cli(["solve", *args, "--json"])
    assert res.exit_code == 0, res.stderr
    return json.loads(res.stdout)


def test_cli_many_deals_print_one_json_line_each_equal_to_single_solves(run_cli, data_dir):
    board = str(data_dir / "pysol-golf-1.board")
    res = run_cli(["solve", *CODES, "--layout", board, "--pysol", "2..3", "--rules", "classic"])
    assert res.exit_code == 0, res.stderr
    lines = res.stdout.splitlines()
    assert len(lines) == 6
    recs = [json.loads(ln) for ln in lines]
    singles = [single_json(run_cli, [c, "--rules", "classic"]) for c in CODES]
    singles += [single_json(run_cli, ["--layout", board, "--rules", "classic"])]
    singles += [single_json(run_cli, ["--pysol", str(n), "--rules", "classic"]) for n in (2, 3)]
    assert [without_time(r) for r in recs] == [without_time(s) for s in singles]
    assert {r["outcome"] for r in recs} == {"won", "lost"}  # both kinds of answer are covered
    lays = [layout_from_code(c, CLASSIC) for c in CODES] + [layout_from_pysol(n).with_rules(CLASSIC) for n in (1, 2, 3)]
    for rec, lay in zip(recs, lays):
        assert_record_replays(rec, lay)


def test_cli_single_deal_output_is_unchanged(run_cli):
    res = run_cli(["solve", "GO1-C-AAAAAAB"])
    assert res.exit_code == 0
    assert res.stdout.splitlines()[0].startswith("GO1-C-AAAAAAB (classic") and "not winnable" in res.stdout
    pretty = run_cli(["solve", "--pysol", "1-1", "--json"]).stdout
    assert pretty.startswith("{\n") and json.loads(pretty)["deal"] == "PySol Golf #1"


@pytest.mark.parametrize("text", ["", "\n  \n# only a comment\n"])
def test_cli_codes_from_with_no_code_at_all_is_bad_input(run_cli, text):
    # was: exit 0 and no output, as if every deal of the (wrong?) file had been answered
    res = run_cli(["solve", "--codes-from", "-"], input=text)
    assert res.exit_code == 2 and res.stdout == ""
    assert res.stderr == "golfsolve: --codes-from - (stdin) holds no deal code (only blank lines or comments): " \
                         "nothing to solve\n"


def test_cli_codes_from_stdin_reports_a_bad_line_and_exits_2(run_cli):
    res = run_cli(["solve", "--codes-from", "-"], input="GO1-E-AAAAAAB\nnonsense\n\nGO1-C-AAAAAAB\n")
    assert res.exit_code == 2
    recs = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert len(recs) == 3
    assert recs[1]["line"] == 2 and recs[1]["input"] == "nonsense" and "error" in recs[1]
    assert without_time(recs[0]) == without_time(single_json(run_cli, ["GO1-E-AAAAAAB"]))
    assert without_time(recs[2]) == without_time(single_json(run_cli, ["GO1-C-AAAAAAB"]))
    assert res.stderr.strip().count("\n") == 0 and "line 2" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize("args", [
    ["GO1-E-AAAAAAB", "GO1-E-AAAAAA1"],
    ["GO1-E-AAAAAAB", "--pysol", "0..5"],
    ["GO1-E-AAAAAAB", "--pysol", "7-3"],
    ["GO1-E-AAAAAAB", "--layout", "/nonexistent/board.txt"],
    ["--codes-from", "-", "--layout", "-"],
    [],
])
def test_cli_bad_items_exit_2_with_one_line_before_solving(run_cli, args):
    res = run_cli(["solve", *args], input="")
    assert res.exit_code == 2
    assert res.stdout == ""  # nothing was solved
    assert res.stderr.startswith("golfsolve: ") and res.stderr.strip().count("\n") == 0


def test_cli_streams_each_answer_as_soon_as_it_is_solved():
    """A reader gets the first answer while the input is still open."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "golfsolve", "solve", "--codes-from", "-"], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        proc.stdin.write("GO1-E-AAAAAAB\n")
        proc.stdin.flush()
        # a deadlock guard, not a timing assertion: without a flush per line this never comes
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        assert ready, "no answer while stdin was still open"
        first = json.loads(proc.stdout.readline())
        assert first["deal"] == "GO1-E-AAAAAAB" and first["outcome"] == "won"
        proc.stdin.write("GO1-C-AAAAAAB\n")
        proc.stdin.close()
        rest = [json.loads(ln) for ln in proc.stdout]
        assert [r["deal"] for r in rest] == ["GO1-C-AAAAAAB"]
        assert proc.wait(timeout=120) == 0
    finally:
        proc.kill()


def test_cli_verdict_only_for_many_deals_matches_single_solves(run_cli):
    res = run_cli(["solve", "--pysol", "1..4", "--rules", "classic", "--verdict-only"])
    assert res.exit_code == 0, res.stderr
    recs = [json.loads(ln) for ln in res.stdout.splitlines()]
    singles = [single_json(run_cli, ["--pysol", str(n), "--rules", "classic", "--verdict-only"]) for n in range(1, 5)]
    assert [without_time(r) for r in recs] == [without_time(s) for s in singles]
    full = [json.loads(ln) for ln in run_cli(["solve", "--pysol", "1..4", "--rules", "classic"]).stdout.splitlines()]
    assert [r["outcome"] for r in recs] == [f["outcome"] for f in full]
    lost = [r for r in recs if r["outcome"] == "lost"]
    assert lost and all(r["best_cards_left"] is None for r in lost)


def _deals():
    from golfsolve.solitaire import deals

    return deals


@pytest.mark.parametrize("call, words", [
    (lambda d: list(d.code_lines("GO1-E-AAAAAAB")), "stream must be a text stream of deal codes"),
    (lambda d: list(d.code_lines(io.BytesIO(b"GO1-E-AAAAAAB\n"))), "stream must be opened as text"),
    (lambda d: list(d.solve_many("GO1-E-AAAAAAB")), "deals must be a list of Layouts"),
    (lambda d: list(d.solve_many(None)), "deals must be a list of Layouts"),
    (lambda d: d.record(None), "item must be one answer of solve_many"),
    (lambda d: d.DealBatch.build(None), "codes must be a list"),
    (lambda d: d.DealBatch.build(pysol=None), "pysol must be a list"),
])
def test_the_deal_streams_name_what_is_no_stream_or_no_deals(call, words):
    """code_lines("GO1-E-AAAAAAB") failed as "'str' object has no attribute 'readline'", a file
    opened "rb" as "'<=' not supported between instances of 'str' and 'int'"; solve_many of a
    code as text said "each deal must be a Layout ..., not str 'G'" (a deal a character),
    solve_many(None) and DealBatch.build(None) "'NoneType' object is not iterable", record(None)
    "cannot unpack non-iterable NoneType object" """
    with pytest.raises(TypeError, match="^" + re.escape(words)):
        call(_deals())


def test_the_deal_streams_still_take_text_streams_and_iterators():
    d = _deals()
    got = [d.record(x) for x in d.solve_many(d.code_lines(io.StringIO("\ufeffGO1-E-AAAAAAB\r\n\r\nbad\r\n")),
                                               verdict_only=True)]
    assert [r.get("deal", r.get("line")) for r in got] == ["GO1-E-AAAAAAB", 3]
    assert d.DealBatch.build(c for c in ["GO1-E-AAAAAAB"]).size == 1


CODE = "GO1-E-AAAAAAB"


# golfsolve.stats.solve_deals / solve_chunk, the batch behind every stats chunk, called from the
# library: checked before the first deal is solved, as CensusSpec checks a run's settings.
# was: fields='WINNABLE' or 'bogus' solved as 'all'; rules 'easy' were rule sets 'e', 'a', ...;
# ['easy', 'wrap'] gave every deal twice; [] an empty table; difficulty=-1 failed as 'games'
# after every deal was solved; a bad deal number after the deals before it; count 2.5 a
# TypeError from range(); spread_stride(2.5) a stride of 3212724070.0
SOLVE_DEALS = [
    (lambda sd, sc: sd([1], ["classic"], fields="bogus"), InputError, "fields must be one of all, winnable, not 'bogus'"),
    (lambda sd, sc: sd([1], "easy"), TypeError, "rules must be a list of names, e.g. ('easy', 'classic'), not str"),
    (lambda sd, sc: sd([1], ["easy", "wrap"]), InputError, "'easy' and 'wrap' in rules are the same rule set"),
    (lambda sd, sc: sd([1], []), InputError, "rules needs at least one rule set"),
    (lambda sd, sc: sd([1], ["easy"], difficulty=-1), InputError, "difficulty must be from 0 to 1,000,000, not -1"),
    (lambda sd, sc: sd([1], ["easy"], difficulty=True), InputError, "difficulty must be a whole number, not True"),
    (lambda sd, sc: sd([1, -1], ["easy"]), InputError, "deal number -1 is outside 0..8031810175"),
    (lambda sd, sc: sd([1, 2.5], ["easy"]), TypeError, "a deal number must be a whole number, not float 2.5"),
    (lambda sd, sc: sd(5, ["easy"]), TypeError, "deals must be a list of deal numbers, e.g. range(0, 100), not int 5"),
    (lambda sd, sc: sc(0, 2.5, ["easy"]), InputError, "count must be a whole number, not 2.5"),
    (lambda sd, sc: sc(0, -1, ["easy"]), InputError, "count must be from 1 to"),
    (lambda sd, sc: sc(-3, 2, ["easy"]), InputError, "deal number -3 is outside 0..8031810175"),
]


@pytest.mark.parametrize("call, error, words", SOLVE_DEALS)
def test_a_batch_of_deals_refuses_a_bad_argument_before_it_solves_one(call, error, words, monkeypatch):
    from golfsolve.stats import census

    monkeypatch.setattr(census, "_solver", lambda: pytest.fail("a deal was solved before the check"))
    with pytest.raises(error, match="^" + re.escape(words)):
        call(census.solve_deals, census.solve_chunk)


def test_a_batch_takes_a_field_name_in_any_case_numpy_deals_and_canonical_rule_names():
    from golfsolve.stats.census import solve_chunk, solve_deals, spread_stride

    df = solve_deals(np.array([1, 2]), ["WRAP"], fields="Winnable")
    assert df["rules"].tolist() == ["easy", "easy"] and df["deal"].tolist() == [1, 2]
    assert df["fields"].tolist() == ["winnable", "winnable"] or df["winnable"].all()
    assert solve_chunk(np.int64(1), np.int64(2), ("easy",))["deal"].tolist() == [1, 2]
    with pytest.raises(InputError, match="^count must be a whole number, not 2.5"):
        spread_stride(2.5)
    assert spread_stride(np.int64(2)) == 8031810176 // 2


def test_solve_many_checks_its_solver_and_settings_before_the_first_deal():
    # was: solver="fast" an AttributeError, node_limit=-1 an error only once the first deal came
    from golfsolve.solitaire.deals import solve_many

    with pytest.raises(TypeError, match=r"^solver must be a Solver or None"):
        solve_many([layout_from_code(CODE)], solver="fast")
    with pytest.raises(InputError, match=r"^node_limit must be from 0 to"):
        solve_many(iter(()), node_limit=-1)
    with pytest.raises(TypeError, match=r"^verdict_only must be True or False"):
        solve_many([], verdict_only="no")
    (lay, sol), = solve_many([layout_from_code(CODE)], node_limit=np.int64(0), verdict_only=np.bool_(True))
    assert sol.outcome == "won"
