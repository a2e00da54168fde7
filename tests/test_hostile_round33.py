"""Round 33: run folders against a careless user and a damaged disk (a manifest cut short,
emptied or edited, a folder moved while a run writes it, chunks left without their manifest)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from golfsolve.errors import InputError

from hostile_helpers import one_line_exit_2
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
