"""Round 35: the rows inside the chunks of stats and fair-stats runs, edited by hand or
damaged within their types (a count out of range, two fields that disagree, NaN, a code or
rule set that is not the row's, another run's chunk in its place). Each was read into the
report as if golfsolve had written it; now ``golfsolve report`` refuses it in one line naming
the chunk and what is wrong (exit 2), and ``--resume`` or ``--extend`` solves it again, as a
grid run's chunks (``check_match_rows``) already were."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hostile_helpers import one_line_exit_2
from run_helpers import finished_stats_run, made_here

TIMING = ["seconds", "cpu_seconds"]
FIRST = "chunk-0000000000.parquet"


def _set(chunk: Path, where: dict, **values) -> None:
    """Give the first row of ``chunk`` that matches ``where`` the ``values``, as a hand edit
    that keeps the file's metadata (the settings the chunk records it was made with)."""
    t = pq.read_table(chunk)
    i = next(k for k, row in enumerate(t.to_pylist()) if all(row[c] == v for c, v in where.items()))
    for c, v in values.items():
        j = t.schema.get_field_index(c)
        col = t.column(c).to_pylist()
        col[i] = v
        t = t.set_column(j, t.schema.field(j), pa.array(col, t.schema.field(j).type))
    pq.write_table(t, chunk)


def _table(out: Path, drop=TIMING) -> pd.DataFrame:
    return (pd.read_parquet(out).drop(columns=drop).sort_values(["deal", "rules"], kind="stable")
            .reset_index(drop=True))


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """Deals 0..5 under easy and classic, chunks of 2: deal 1 is lost under classic (4 left)."""
    return finished_stats_run(tmp_path_factory.mktemp("r35") / "run")


@pytest.fixture
def run(finished, tmp_path) -> Path:
    return Path(shutil.copytree(finished, tmp_path / "run"))


EASY0 = {"deal": 0, "rules": "easy"}
LOST = {"deal": 1, "rules": "classic"}


@pytest.mark.parametrize("where,values,says", [
    # was: the report's cards-left figures counted -5 cards
    (EASY0, {"best_left": -5}, "deal 0 under 'easy' with best_left -5, not a count of cards from 0 to 35"),
    # was: the win rate counted a deal left with 4 cards as won
    (LOST, {"winnable": True}, "deal 1 under 'classic' with winnable True and best_left 4"),
    (LOST, {"app_score": 350}, "app_score 350, where best_left 4 scores 270"),
    (EASY0, {"code": "GO1-E-AAAAAAZ"}, "the code 'GO1-E-AAAAAAZ', not 'GO1-E-AAAAAAA'"),
    (EASY0, {"seconds": math.nan}, "seconds nan, which no clock measures"),
    (EASY0, {"cpu_seconds": -1.0}, "cpu_seconds -1.0"),
    (LOST, {"nodes": -1}, "nodes -1, below 0"),
    # was: a lost deal left out of the cards-left figures of a run that computes them all
    (LOST, {"best_left": None, "app_score": None, "fields": "winnable"},
     "fields 'winnable' (the verdict only) in a run that computes every field"),
    (LOST, {"fields": "most"}, "fields 'most', not one of winnable, winnable,best_left"),
    # a value that is no short word is shown cut, on the one line
    (EASY0, {"code": "GO1\n" + "x" * 5000}, "the code 'GO1\\nxxx"),
    (EASY0, {"best_left": None, "app_score": None}, "fields 'winnable,best_left' and no best_left"),
    (LOST, {"app_score": None}, "best_left 4 and no app_score"),
])
def test_a_stats_row_edited_by_hand_is_refused_by_the_report_and_solved_again_by_resume(
        run, finished, run_cli, where, values, says):
    _set(run / FIRST, where, **values)
    one_line_exit_2(run_cli(["report", str(run), "--json"]), f"chunk {run / FIRST} is damaged: it has", says,
                    f"golfsolve stats --out {run} --resume")
    r = run_cli(["stats", "--out", str(run), "--resume", "--jobs", "1", "-q"])
    assert r.exit_code == 0 and f"solved again: {FIRST}: has" in r.stderr, r.stderr
    pd.testing.assert_frame_equal(_table(run), _table(finished))


def test_extend_solves_a_damaged_row_again_rather_than_keeping_it(run, run_cli):
    """was: --extend added deals 6..7 and kept deal 1 'won' under classic, its win rate wrong."""
    _set(run / FIRST, LOST, winnable=True)
    r = run_cli(["stats", "--out", str(run), "--extend", "--count", "8", "--jobs", "1", "-q"])
    assert r.exit_code == 0 and f"solved again: {FIRST}: has deal 1 under 'classic' with winnable True" in r.stderr
    assert "classic 62.5%" in r.stdout, r.stdout  # 5 of 8, deal 1 lost again (75.0% with the edit kept)
    assert run_cli(["report", str(run), "--json"]).exit_code == 0


def test_a_chunk_relabelled_with_the_other_rule_set_is_refused(run, run_cli):
    """was: a chunk whose rule set names were swapped (easy's rows called classic and back)
    holds the right deals under the right names, and gave each rule set the other's results."""
    chunk = run / "chunk-0000000002.parquet"
    t = pq.read_table(chunk)
    swapped = ["classic" if r == "easy" else "easy" for r in t.column("rules").to_pylist()]
    j = t.schema.get_field_index("rules")
    pq.write_table(t.set_column(j, t.schema.field(j), pa.array(swapped, t.schema.field(j).type)), chunk)
    one_line_exit_2(run_cli(["report", str(run), "--json"]), chunk.name, "deal 2 under 'classic' with the code "
                    "'GO1-E-AAAAAAC', not 'GO1-C-AAAAAAC'")


def test_another_runs_chunk_rewritten_without_its_settings_is_refused(run, tmp_path, run_cli):
    """was: a --fields winnable run's chunk of the same deals and rule sets, saved again by
    pandas (so without the settings a chunk records), was read into a run of all fields: its
    lost deal had no cards left, and left the report's cards-left figures."""
    other = tmp_path / "verdicts"
    made_here("stats", "--count", "2", "--rules", "easy,classic", "--chunk-size", "2", "--fields", "winnable",
              "--jobs", "1", "--out", str(other), "-q")
    pd.read_parquet(other / FIRST).to_parquet(run / FIRST, index=False)
    one_line_exit_2(run_cli(["report", str(run), "--json"]), FIRST, "deal 1 under 'classic' with fields 'winnable' "
                    "(the verdict only) in a run that computes every field")


def test_a_verdict_only_run_reads_as_written_and_its_rows_are_still_checked(tmp_path, run_cli):
    """A --fields winnable run leaves a lost deal's best_left and app_score out: read as it is.
    was: such a row marked won (no cards left recorded) was counted as a win."""
    out = tmp_path / "v"
    made_here("stats", "--count", "2", "--rules", "easy,classic+jokers1+empty,classic", "--chunk-size", "2",
              "--fields", "winnable", "--jobs", "1", "--out", str(out), "-q")
    assert run_cli(["report", str(out), "--json"]).exit_code == 0
    _set(out / FIRST, LOST, winnable=True)
    one_line_exit_2(run_cli(["report", str(out), "--json"]), FIRST,
                    "deal 1 under 'classic' with winnable True and no best_left")


def test_an_old_chunk_without_the_fields_column_still_reads(run, run_cli):
    # chunks written before the fields column existed computed both fields: not damage
    t = pq.read_table(run / FIRST)
    pq.write_table(t.drop(["fields"]), run / FIRST)
    assert run_cli(["report", str(run), "--json"]).exit_code == 0
    _set(run / FIRST, EASY0, best_left=None, app_score=None)  # was: a row with neither, counted as computed
    one_line_exit_2(run_cli(["report", str(run), "--json"]), FIRST, "fields 'winnable,best_left' and no best_left")


@pytest.fixture(scope="module")
def rated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("r35") / "rated"
    made_here("stats", "--count", "2", "--rules", "easy", "--difficulty", "--difficulty-games", "2", "--jobs", "1",
              "--out", str(out), "-q")
    return out


@pytest.mark.parametrize("values,says", [
    ({"fair_chance": 1.5}, "fair_chance 1.5, not a share from 0 to 1"),  # was: a chance of 150% in the report
    ({"fair_chance": math.nan}, "fair_chance nan, not a share from 0 to 1"),
    ({"difficulty": "trivial"}, "difficulty 'trivial', not one of easy, medium, hard, very-hard"),
    ({"difficulty": "very-hard", "fair_chance": 1.0}, "difficulty 'very-hard', where fair_chance 1.0 is 'easy'"),
])
def test_a_difficulty_edited_by_hand_is_refused(rated, tmp_path, run_cli, values, says):
    out = Path(shutil.copytree(rated, tmp_path / "rated"))
    assert run_cli(["report", str(out), "--json"]).exit_code == 0
    _set(out / FIRST, EASY0, **values)
    one_line_exit_2(run_cli(["report", str(out), "--json"]), FIRST, f"deal 0 under 'easy' with {says}")


# -- fair-stats ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def fair(tmp_path_factory) -> Path:
    """Deals 0..1 under easy and classic played by the fast player, a chunk per deal: deal 1
    is lost under classic (4 cards left), the other three are won."""
    out = tmp_path_factory.mktemp("r35") / "fair"
    made_here("fair-stats", "--count", "2", "--rules", "easy,classic", "--player", "fast", "--chunk-size", "1",
              "--jobs", "1", "--out", str(out), "-q", "--json")
    return out


@pytest.mark.parametrize("chunk,where,values,says", [
    # was: "k is a number of successes from 0 to n (1), not 2" (the report's fair wins of winnable
    # deals), naming neither the run nor the chunk
    (1, LOST, {"fair_won": True}, "deal 1 under 'classic' with fair_won True where clairvoyant_won is False"),
    (1, LOST, {"clairvoyant_won": True}, "clairvoyant_left 4, not 0 (the deal is winnable)"),
    (1, LOST, {"clairvoyant_left": 0}, "clairvoyant_left 0, not 1..35 (the deal is lost)"),
    (1, LOST, {"moves": 10}, "10 moves and 0 decisions on a deal that is lost, which is not played"),
    (1, LOST, {"lost_at": -1}, "lost_at -1, not 0 (a lost deal is not played)"),
    (0, EASY0, {"fair_won": False}, "lost_at -1, not "),  # a win made a loss: the game says where it was lost
    (0, EASY0, {"lost_at": 5}, "lost_at 5, not -1 (a fair win)"),
    (0, EASY0, {"moves": -3}, "moves -3, not 0..52"),
    (0, EASY0, {"moves": 20}, "a fair win in 20 moves (a win removes all 35 table cards)"),
    (0, EASY0, {"decisions": 999}, "decisions 999, not 0.."),
    (0, EASY0, {"solves": 0}, "solves 0, not at least 1"),
    (0, EASY0, {"seconds": math.inf}, "seconds inf, which no clock measures"),
    (0, EASY0, {"lost_on_draw": True}, "lost_on_draw True in a game that was won"),
    (0, EASY0, {"code": "GO1-C-AAAAAAA"}, "the code 'GO1-C-AAAAAAA', not 'GO1-E-AAAAAAA'"),
])
def test_a_fair_row_edited_by_hand_is_refused_by_the_report_and_played_again_by_resume(
        fair, finished, tmp_path, run_cli, chunk, where, values, says):
    out = Path(shutil.copytree(fair, tmp_path / "fair"))
    name = f"chunk-{chunk:010d}.parquet"
    _set(out / name, where, **values)
    one_line_exit_2(run_cli(["report", str(finished), "--fair", str(out), "--json"]),
                    f"chunk {out / name} is damaged: it has", says, f"golfsolve fair-stats --out {out} --resume")
    r = run_cli(["fair-stats", "--out", str(out), "--resume", "--jobs", "1", "-q"])
    assert r.exit_code == 0 and f"played again: {name}: has" in r.stderr, r.stderr
    pd.testing.assert_frame_equal(_table(out, ["seconds"]), _table(fair, ["seconds"]))


def test_fair_extend_plays_a_damaged_row_again(fair, tmp_path, run_cli):
    """was: --extend kept a game edited into a fair win of a lost deal, and its _fair.md
    gave the fair player more wins than the clairvoyant one."""
    out = Path(shutil.copytree(fair, tmp_path / "fair"))
    _set(out / "chunk-0000000001.parquet", LOST, fair_won=True, clairvoyant_won=True, clairvoyant_left=0, lost_at=-1)
    r = run_cli(["fair-stats", "--out", str(out), "--extend", "--count", "3", "--jobs", "1", "-q", "--json"])
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["repaired"] == [
        "chunk-0000000001.parquet: has deal 1 under 'classic' with a fair win in 0 moves (a win removes all 35 "
        "table cards)"]
    assert "| classic | 3 (deals 0–2) | 66.7%" in (out / "_fair.md").read_text()
