"""Run folders against a careless user and a damaged disk: manifests edited, emptied or cut short,
chunks lost or edited by hand, rows relabelled, a folder moved mid-run. Each is refused by name, or
solved again by --resume."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from golfsolve.errors import InputError

from hostile_helpers import one_line_error, one_line_exit_2
from run_helpers import made_here


MANIFEST = "_manifest.json"


def _grid_run(out: Path, matches: int = 4) -> Path:
    made_here("grid", "simulate", "--bots", "greedy,random", "--matches", str(matches), "--holes", "1",
              "--chunk-size", "2", "--out", str(out), "-q")
    return out


def test_a_manifest_whose_count_was_edited_is_refused_not_reported_as_a_bigger_complete_run(run_cli, tmp_path):
    """was: count 4 made 6 by hand (blocks unchanged): 'grid report' and --resume took it, the
    report covering matches 0..5 "complete" over 4, and --resume recording a run it never played."""
    run = _grid_run(tmp_path / "run")
    m = json.loads((run / MANIFEST).read_text())
    m["count"] = 6
    (run / MANIFEST).write_text(json.dumps(m))
    for args in (["grid", "report", str(run)], ["grid", "simulate", "--out", str(run), "--resume", "-q"]):
        one_line_exit_2(run_cli(args), "field blocks", "do not cover matches 0..5")
    m["count"], m["blocks"][0]["count"] = 4, 2  # a block cut short: its chunks were "not of this run"
    (run / MANIFEST).write_text(json.dumps(m))
    one_line_exit_2(run_cli(["grid", "report", str(run)]), "field blocks", "do not cover matches 0..3")


def test_an_extended_run_still_passes_the_blocks_check(tmp_path):
    """The check above must take what --extend writes: blocks side by side, rule sets added."""
    from golfsolve.stats.runfolder import read_manifest

    run = _grid_run(tmp_path / "run")
    made_here("grid", "simulate", "--out", str(run), "--extend", "--matches", "6", "-q")
    assert read_manifest(run)["count"] == 6
    m = json.loads((run / MANIFEST).read_text())
    m["blocks"].append(dict(m["blocks"][-1]))  # the same matches twice
    (run / MANIFEST).write_text(json.dumps(m))
    # was: any Exception passed if it named the matches; a user meets this InputError's one line
    with pytest.raises(InputError, match=r"_manifest\.json: field blocks: the blocks do not cover matches 0\.\.5 "):
        read_manifest(run)


def test_an_empty_or_cut_manifest_says_so_and_what_to_do(run_cli, tmp_path):
    """was: "cannot read .../_manifest.json: Expecting value: line 1 column 1 (char 0)", which
    says neither that the file is empty nor what to do."""
    run = _grid_run(tmp_path / "run")
    text = (run / MANIFEST).read_text()
    (run / MANIFEST).write_text(text[: len(text) // 2])
    one_line_exit_2(run_cli(["grid", "report", str(run)]), "is not complete JSON", "put back a copy")
    (run / MANIFEST).write_text("")
    one_line_exit_2(run_cli(["grid", "simulate", "--out", str(run), "--resume", "-q"]), "is empty",
                    "start the run again in a new folder")


def test_resume_of_chunks_without_their_manifest_says_the_manifest_is_gone(run_cli, tmp_path):
    """was: "--resume: DIR holds no golfsolve run to resume; check the folder name", of a folder
    full of the run's chunks whose manifest was deleted."""
    run = _grid_run(tmp_path / "run")
    (run / MANIFEST).unlink()
    one_line_exit_2(run_cli(["grid", "simulate", "--out", str(run), "--resume", "-q"]),
                    "holds chunk files but no _manifest.json")


def test_a_folder_moved_while_the_run_writes_it_stops_the_run_and_no_other_folder_is_written(tmp_path):
    """was: the run went on writing by the old name: into a new folder made there (another run's,
    whose chunks it replaced), or failing as "cannot go on: No such file or directory
    (DIR/._manifest.json.PID.tmp)", exit 1, naming the manifest's temporary file."""
    import pytest

    from golfsolve.errors import InputError
    from golfsolve.stats.gridruns import GRID

    spec = GRID.read(_grid_run(tmp_path / "first", matches=6))  # the settings of a run like it
    out = tmp_path / "run"
    moved = tmp_path / "moved"

    def source(todo, p):
        for i, (chunk, df) in enumerate(GRID.source(todo, p, 1)):
            if i == 1:
                out.rename(moved)
                out.mkdir()  # a folder of that name again: another run's, say
            yield chunk, df

    with pytest.raises(InputError, match="was moved, renamed or removed while this command wrote it"):
        GRID.run(out, spec, source=source, progress=False)
    assert list(out.iterdir()) == []
    assert sorted(p.name for p in moved.glob("chunk-*")) == ["chunk-0000000000.parquet"]
    inv, _ = GRID.run(moved, GRID.read(moved), resume=True, progress=False)
    assert inv["status"] == "complete"


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


def test_a_manifest_whose_start_was_edited_is_named_as_edited(run_cli, tmp_path):
    """stats.md: "a manifest edited by hand afterwards is refused by --resume and by the reports
    (exit 2, naming the setting)".
    was: with the start (or the chunk size) edited, the run's own first chunk was refused as a
    stray, "chunk-0000000000.parquet does not belong to this run ...; move it out of the folder",
    naming no setting and advising to move a chunk that belongs to the run."""
    out = tmp_path / "run"
    assert run_cli(["stats", "--count", "2", "--rules", "easy", "--out", str(out), "--jobs", "1", "-q"]).exit_code == 0
    manifest = out / "_manifest.json"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('"start": 0,', '"start": 5,'), encoding="utf-8")
    for args in (["report", str(out)], ["stats", "--out", str(out), "--resume"]):
        one_line_exit_2(run_cli(args), "was made with start 0 where the manifest now has 5", "the manifest was edited")
    # a file that is no chunk of the run is still a stray
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('"start": 5,', '"start": 0,'), encoding="utf-8")
    (out / "chunk-0000000001-x.parquet").write_bytes((out / "chunk-0000000001.parquet").read_bytes())
    one_line_exit_2(run_cli(["report", str(out)]), "does not belong to this run", "move it out")


@pytest.mark.parametrize("kind", ["stats", "grid"])
def test_a_report_of_a_run_with_a_folder_for_a_chunk_says_to_move_it_out_first(run_cli, tmp_path, kind):
    """was: 'chunk DIR/chunk-....parquet is damaged: it is not a file; repair it with
    'golfsolve stats --out DIR --resume'', and that --resume then refused: 'is not a file, so
    the chunk cannot be written there; move it out of the folder'"""
    out = tmp_path / "run"
    if kind == "stats":
        made = ["stats", "--count", "2", "--chunk-size", "1", "--rules", "easy", "-j", "1", "--out", str(out), "-q"]
        report = ["report", str(out), "--json"]
    else:
        made = ["grid", "simulate", "--bots", "random,random", "--holes", "1", "--matches", "2", "--chunk-size", "1",
                "--out", str(out), "-q"]
        report = ["grid", "report", str(out), "--json"]
    assert run_cli(made).exit_code == 0
    chunk = sorted(out.glob("chunk-*.parquet"))[-1]
    chunk.unlink()
    chunk.mkdir()
    line = one_line_error(run_cli(report))
    assert f"chunk {chunk} is not a file; move it out of the folder, then repair the run with " in line, line
    chunk.rmdir()  # as told: then the repair works
    import shlex

    resume = shlex.split(line.split("repair the run with ")[1])[0]
    assert run_cli(shlex.split(resume)[1:]).exit_code == 0 and chunk.is_file()
