"""The run folder shared by stats, fair-stats and grid simulate: paths, refusals, repair, extension."""

from __future__ import annotations

import json
import os
import shutil
import sys

import pandas as pd
import pytest

from golfsolve.errors import InputError
from golfsolve.stats.census import CensusSpec, load_results, run_census
from golfsolve.stats.runblocks import Block, block_chunks, extend_blocks
from golfsolve.stats.runkey import RunKey
from golfsolve.stats.runfolder import chunk_files, open_run
from golfsolve.stats.outdirs import check_out_dir
from golfsolve.stats.runlayout import LOCK, MANIFEST
import fcntl
import threading

from hostile_helpers import one_line_error, one_line_exit_2

RULES = ("easy", "strict")
TIMING = ["seconds", "cpu_seconds"]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """12 deals under two rule sets in chunks of 4."""
    out = tmp_path_factory.mktemp("rf") / "run"
    run_census(out, CensusSpec(0, 12, RULES, 4), jobs=1, progress=False, command="golfsolve stats --count 12")
    return out


def _copy(src, dst):
    shutil.copytree(src, dst)
    return dst


def _one_line(r):
    return len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr and "internal error" not in r.stderr


# -- output paths ----------------------------------------------------------------
def test_out_paths_that_cannot_hold_a_run_are_refused(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(InputError, match="needs a directory name"):
        check_out_dir("")
    with pytest.raises(InputError, match="is a file, not a directory"):
        check_out_dir(f / "sub")
    with pytest.raises(InputError, match="exists and is not a directory"):
        check_out_dir(f)
    with pytest.raises(InputError, match="cannot write"):
        check_out_dir("/proc/golfsolve-test")
    assert check_out_dir(tmp_path / "new" / "deep").is_dir()


def test_an_out_path_through_a_link_to_nowhere_names_the_link(tmp_path):
    # was: "cannot write to --out results: File exists; choose a writable directory", for a
    # results -> /scratch/... link whose target is not there (a file system not mounted)
    link = tmp_path / "results"
    link.symlink_to(tmp_path / "scratch" / "results")
    for out in (link, link / "run1"):
        with pytest.raises(InputError, match=r"is a link to .*scratch/results, which does not exist"):
            check_out_dir(out)


@pytest.mark.parametrize("args", [
    ["stats", "--count", "2", "--out", ""],
    ["stats", "--count", "2", "--out", "FILE/sub"],
    ["stats", "--count", "2", "--out", "/proc/foo"],
    ["report", "RUN", "--out", "FILE"],
    ["fair-stats", "--count", "1", "--out", "FILE"],
    ["fair-stats", "--count", "1", "--rules", "", "--out", "NEW"],
    ["grid", "simulate", "--matches", "1", "--out", "FILE"],
    ["grid", "simulate", "--matches", "1", "--out", "/proc/foo"],
    ["grid", "report", "RUN"],
])
def test_bad_output_paths_exit_2_before_any_work(run_cli, tmp_path, run_dir, args):
    (tmp_path / "FILE").write_text("x")
    subs = {"FILE": str(tmp_path / "FILE"), "FILE/sub": str(tmp_path / "FILE" / "sub"), "RUN": str(run_dir),
            "NEW": str(tmp_path / "new")}
    r = run_cli([subs.get(a, a) for a in args])
    assert r.exit_code == 2, r.stderr
    assert _one_line(r), r.stderr
    assert not (tmp_path / "new").exists()


def test_a_non_empty_folder_without_a_run_is_refused(run_cli, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    r = run_cli(["stats", "--count", "2", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "not empty" in r.stderr and _one_line(r)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_a_run_of_another_kind_or_the_same_run_without_resume_is_refused(run_cli, run_dir, tmp_path):
    r = run_cli(["fair-stats", "--count", "1", "--out", str(run_dir), "--resume"])
    assert r.exit_code == 2 and "'golfsolve stats' run" in r.stderr and _one_line(r)
    r = run_cli(["fair-stats", "--count", "1", "--rules", "easy", "--player", "fast", "--out", str(tmp_path / "f"),
                 "-q", "--json"])
    assert r.exit_code == 0, r.stderr
    before = pd.read_parquet(tmp_path / "f")
    r = run_cli(["fair-stats", "--count", "2", "--rules", "easy", "--out", str(tmp_path / "f")])
    assert r.exit_code == 2 and "--resume" in r.stderr and "--extend" in r.stderr and _one_line(r)
    r = run_cli(["fair-stats", "--count", "1", "--seed", "5", "--out", str(tmp_path / "f"), "--resume"])
    assert r.exit_code == 2 and "different run" in r.stderr
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "f"), before)  # nothing was replaced


# -- damage and repair ----------------------------------------------------------------
@pytest.mark.parametrize("damage", ["truncate", "empty", "wrong rows"])
def test_a_damaged_chunk_is_named_by_report_and_solved_again_on_resume(run_cli, run_dir, tmp_path, damage):
    out = _copy(run_dir, tmp_path / "run")
    victim = out / "chunk-0000000004.parquet"
    if damage == "truncate":
        os.truncate(victim, victim.stat().st_size // 2)
    elif damage == "empty":
        os.truncate(victim, 0)
    else:
        shutil.copy(out / "chunk-0000000008.parquet", victim)
    r = run_cli(["report", str(out)])
    assert r.exit_code == 2 and _one_line(r), r.stderr
    assert victim.name in r.stderr and f"golfsolve stats --out {out} --resume" in r.stderr
    r = run_cli(["stats", "--out", str(out), "--resume", "--jobs", "1", "-q"])
    assert r.exit_code == 0, r.stderr
    assert victim.name in r.stderr and "solved again" in r.stderr
    pd.testing.assert_frame_equal(load_results(out).drop(columns=TIMING), load_results(run_dir).drop(columns=TIMING))


def test_a_run_made_with_the_old_manifest_name_is_read_and_renamed_on_resume(run_cli, run_dir, tmp_path):
    out = _copy(run_dir, tmp_path / "run")
    (out / MANIFEST).rename(out / "manifest.json")
    assert len(load_results(out)) == 12 * len(RULES)  # a row per deal and rule set
    r = run_cli(["stats", "--out", str(out), "--resume", "-q"])
    assert r.exit_code == 0, r.stderr
    assert (out / MANIFEST).exists() and not (out / "manifest.json").exists()
    assert len(pd.read_parquet(out)) == 12 * len(RULES)


# -- extension -------------------------------------------------------------------------
def test_extend_blocks_cover_the_new_rectangle_once():
    blocks, groups = extend_blocks([Block(("a",), 10, 5)], ("a",), 10, 5, ("b", "a"), 9)
    assert groups == ("a", "b")
    cells = [(g, d) for c in block_chunks(blocks, 2) for g in c.groups for d in range(c.first, c.first + c.count)]
    assert sorted(cells) == sorted((g, d) for g in "ab" for d in range(10, 19))
    with pytest.raises(InputError, match="keeps every rule set"):
        extend_blocks(blocks, groups, 10, 9, ("b",), 9)
    with pytest.raises(InputError, match="shrink"):
        extend_blocks(blocks, groups, 10, 9, groups, 3)


def test_stats_extend_with_deals_and_a_rule_set_equals_a_fresh_run(run_cli, run_dir, tmp_path):
    out = _copy(run_dir, tmp_path / "run")
    before = {p: p.stat().st_mtime_ns for p in chunk_files(out).values()}
    r = run_cli(["stats", "--out", str(out), "--extend", "--count", "15", "--rules", "classic", "--jobs", "1",
                 "--json"])
    assert r.exit_code == 0, r.stderr
    assert {p: p.stat().st_mtime_ns for p in before} == before  # nothing done was solved again
    fresh = tmp_path / "fresh"
    run_census(fresh, CensusSpec(0, 15, RULES + ("classic",), 4), jobs=1, progress=False)
    # the work done (nodes) depends on which rule sets a chunk solved together (stricter
    # ones start from what looser ones proved); every answer must not
    work = TIMING + ["nodes"]
    pd.testing.assert_frame_equal(load_results(out).drop(columns=work), load_results(fresh).drop(columns=work))
    assert len(pd.read_parquet(out)) == 15 * (len(RULES) + 1)  # 15 deals, classic added
    m = json.loads((out / MANIFEST).read_text())
    assert (m["count"], m["rules"], m["complete"]) == (15, ["easy", "strict", "classic"], True)


def test_extend_refuses_a_different_start(tmp_path, run_dir):
    out = _copy(run_dir, tmp_path / "run")
    with pytest.raises(InputError, match="start, chunk size and settings"):
        open_run(out, RunKey("golfsolve-stats/1", 1, 20, RULES, 4), extend=True)


def test_grid_folders_from_before_run_folders_still_report(run_cli, tmp_path):
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.tournament import simulate
    from golfsolve.stats.gridruns import load_tournament

    t = simulate(parse_rules(None, players=2, holes=2), ["greedy", "random"], 3, 5)
    old = tmp_path / "old"
    old.mkdir()
    t.holes.to_parquet(old / "holes.parquet")
    t.matches.to_parquet(old / "matches.parquet")
    (old / "meta.json").write_text(json.dumps(t.meta()))
    back = load_tournament(old)
    pd.testing.assert_frame_equal(back.holes, t.holes)
    r = run_cli(["grid", "simulate", "--bots", "greedy,random", "--holes", "2", "--matches", "3", "--seed", "5",
                 "--out", str(tmp_path / "new"), "-q"])
    assert r.exit_code == 0, r.stderr
    new = load_tournament(tmp_path / "new")
    pd.testing.assert_frame_equal(new.holes, t.holes)
    pd.testing.assert_frame_equal(new.matches, t.matches, check_dtype=False)


def test_a_directory_where_a_chunk_belongs_is_refused_before_any_work(run_cli, tmp_path):
    out = tmp_path / "run"
    assert run_cli(["stats", "--count", "4", "--rules", "easy", "--chunk-size", "2", "--jobs", "1",
                    "--out", str(out), "-q"]).exit_code == 0
    chunk = sorted(out.glob("chunk-*.parquet"))[1]
    chunk.unlink()
    chunk.mkdir()
    # was: the chunk solved again, then "cannot go on: Is a directory" (exit 1), and report sent the user back
    r = run_cli(["stats", "--out", str(out), "--resume", "-q"])
    assert r.exit_code == 2 and "is not a file" in r.stderr and "move it out" in r.stderr, r.stderr
    r = run_cli(["report", str(out), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 2 and "is not a file" in r.stderr


def test_two_runs_started_at_once_cannot_share_a_folder(tmp_path, monkeypatch):
    from golfsolve.errors import InputError
    from golfsolve.stats import runfolder as rf

    key = RunKey("fmt-test", 0, 4, ("a",), 2)
    out = tmp_path / "run"
    out.mkdir()
    real_now = rf.now

    def other_run_writes_first():
        # the other command's manifest lands after this one found the folder empty
        (out / MANIFEST).write_text('{"format": "fmt-test", "count": 99}')
        return real_now()

    monkeypatch.setattr(rf, "now", other_run_writes_first)
    with pytest.raises(InputError, match="just taken by another golfsolve run"):
        rf.open_run(out, key)
    assert '"count": 99' in (out / MANIFEST).read_text()  # the other run's manifest stays
    assert sorted(p.name for p in out.iterdir() if p.name != LOCK) == [MANIFEST]


def test_write_json_new_never_replaces(tmp_path):
    from golfsolve.stats.atomic import write_json_new

    p = tmp_path / "m.json"
    assert write_json_new(p, {"a": 1}) and not write_json_new(p, {"a": 2})
    assert '"a": 1' in p.read_text() and [x.name for x in tmp_path.iterdir()] == ["m.json"]


def test_a_full_disk_leaves_no_empty_manifest_behind(run_cli, tmp_path, monkeypatch):
    """On a full disk the manifest's temporary file could not be written, and that error was
    taken for "no hard links": an exclusive create then wrote what the temporary file held
    (nothing) as _manifest.json. The run stopped ("cannot go on: No space left on device"),
    and every later command on the folder, --resume and report too, said only "cannot read
    .../_manifest.json: Expecting value: line 1 column 1 (char 0)"."""
    import errno
    from pathlib import Path

    real_write_text = Path.write_text

    def full_disk(self, data, *args, **kwargs):
        if self.name.endswith(".new.tmp"):
            real_write_text(self, "", *args, **kwargs)  # the file is made, its text does not fit
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write_text(self, data, *args, **kwargs)

    out = tmp_path / "run"
    monkeypatch.setattr(Path, "write_text", full_disk)
    r = run_cli(["stats", "--count", "2", "--rules", "easy", "--jobs", "1", "--out", str(out), "-q"])
    assert r.exit_code != 0 and "No space left on device" in r.stderr and _one_line(r), r.stderr
    assert not (out / MANIFEST).exists() and not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]
    monkeypatch.undo()
    r = run_cli(["stats", "--count", "2", "--rules", "easy", "--jobs", "1", "--out", str(out), "-q"])
    assert r.exit_code == 0, r.stderr


def test_a_resume_that_asks_for_another_run_names_each_differing_field_nested_ones_by_path(tmp_path):
    from golfsolve.stats.runkey import differences

    old = RunKey("golfsolve-fair-stats/1", 0, 4, ("easy",), 2, (("player", {"samples": 8, "extra": 8}), ("seed", 0)))
    new = RunKey("golfsolve-fair-stats/1", 0, 4, ("easy",), 3, (("player", {"samples": 16, "extra": 8}), ("seed", 0)))
    assert differences(old, new) == "chunk_size 2 (here 3), player.samples 8 (here 16)"
    with open_run(tmp_path / "run", old):
        pass
    with pytest.raises(InputError, match=r"--resume: .* differs in player\.samples 8 \(here 16\);"):
        open_run(tmp_path / "run", RunKey(old.fmt, 0, 4, ("easy",), 2, new.params), resume=True)
    # an --extend grows the count and the rule sets: they are not why it is refused (was: "count 4 (here 6)" listed
    # first, as if the count were the problem)
    with pytest.raises(InputError, match=r"--extend: .* in player\.samples 8 \(here 16\); keep its start"):
        open_run(tmp_path / "run", RunKey(old.fmt, 0, 6, ("easy", "classic"), 2, new.params), extend=True)


def test_the_recorded_command_is_what_click_parsed_with_the_run_resolved(run_cli, tmp_path):
    out = tmp_path / "run"
    assert run_cli(["stats", "--count", "2", "--rules", "wrap", "-j", "1", "--out", str(out), "-q"]).exit_code == 0
    m = json.loads((out / MANIFEST).read_text())
    assert m["command"] == (f"golfsolve stats --start-number 0 --count 2 --rules easy --out {out} --jobs 1 "
                            "--chunk-size 1 --quiet")
    assert run_cli(["stats", "--out", str(out), "--resume", "-q"]).exit_code == 0
    m = json.loads((out / MANIFEST).read_text())
    assert m["invocations"][-1]["command"] == (f"golfsolve stats --start-number 0 --count 2 --rules easy --out {out} "
                                               "--resume --chunk-size 1 --quiet")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
@pytest.mark.parametrize("parent_alive", [True, False])
def test_a_worker_whose_parent_died_before_it_started_exits(parent_alive):
    # the orphan's new parent need not be pid 1 (a container's init, a subreaper), so the
    # worker compares with the pid of the process that started the pool
    from golfsolve.stats import pool

    me = os.getpid()
    pid = os.fork()
    if pid == 0:  # the worker, as the pool starts it
        try:
            pool._worker_start(None, me if parent_alive else me + 1)
            os._exit(0)
        except BaseException:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == (0 if parent_alive else 1)


class _Table:
    """A chunk's result that a weak reference can follow."""

    def __init__(self, n):
        self.n = n


def _make_table(n):
    return _Table(n)


def test_compute_keeps_no_finished_result_once_it_is_handed_on():
    # with the executor's futures all kept, every chunk's table stayed in memory to the end of the run
    import gc
    import weakref

    from golfsolve.stats.pool import compute

    refs, kept = [], []
    for _, table in compute(list(range(6)), _make_table, 2):
        refs.append(weakref.ref(table))
        del table
        gc.collect()  # while the run goes on: the tables handed on so far are gone
        kept.append(sum(ref() is not None for ref in refs))
    assert kept == [0] * 6


def _square(n):
    return n * n


def test_compute_hands_the_pool_a_few_tasks_at_a_time(monkeypatch):
    """was: every task was handed to the pool at once, a future each (about 1.6 KB): a run of a
    million chunks (--chunk-size as the refusal of a smaller one advises) took 2.7 GB and 50 s
    before its first chunk was solved."""
    from concurrent.futures import ProcessPoolExecutor

    from golfsolve.stats import pool

    handed = []
    submit = ProcessPoolExecutor.submit
    monkeypatch.setattr(ProcessPoolExecutor, "submit", lambda self, *a, **k: handed.append(1) or submit(self, *a, **k))
    results = pool.compute(list(range(200)), _square, 2)
    first = next(results)
    assert len(handed) <= 2 * pool.AHEAD + 2, len(handed)  # the first ones, and one for each result so far
    assert sorted([first, *results]) == [(n, n * n) for n in range(200)]
    assert len(handed) == 200


def _exit_on_3(n):
    if n == 3:
        os._exit(1)  # as a worker killed outright
    return n


def test_a_worker_lost_while_tasks_are_still_handed_over_is_a_lost_worker():
    """A task handed to a pool whose worker died raises BrokenProcessPool at once: the same
    one-line WorkerLost as a result that never came, not an internal error."""
    from golfsolve.stats.pool import WorkerLost, compute

    with pytest.raises(WorkerLost):
        for _ in compute(list(range(200)), _exit_on_3, 2):
            pass


def test_a_table_of_settings_that_follows_from_a_differing_option_is_not_printed_beside_it():
    """A study resumed with other --sets printed its cells' Python dicts beside 'sets'."""
    from golfsolve.stats.runkey import differences

    cells = [{"set": "base", "bots": "ismcts:300,heuristic"}]
    old = RunKey("golfsolve-grid-study/1", 0, 2, (), 1, (("cells", cells), ("sets", "base")))
    new = RunKey("golfsolve-grid-study/1", 0, 4, (), 1, (("cells", cells * 2), ("sets", "base,danish")))
    assert differences(old, new) == "count 2 (here 4), sets base (here base,danish)"
    # alone, the table is still named, so a refusal always says why
    only = RunKey("golfsolve-grid-study/1", 0, 2, (), 1, (("cells", cells * 2), ("sets", "base")))
    assert differences(old, only).startswith("cells [{'set': 'base'")


@pytest.mark.parametrize("kind", ["stats", "fair-stats"])
def test_a_run_resumed_or_extended_with_another_spelling_of_its_rule_set_goes_on(run_cli, tmp_path, kind):
    """stats --rules classic+empty-start, then --resume --rules classic+empty (the same rule set:
    the switch has two names, as joker1 and jokers1 have, or switches in another order) was
    refused "differs in rules classic+empty-start (here classic+empty)", and --extend --count 2
    --rules classic+empty said "'classic+empty-start' and 'classic+empty' in --rules are the same
    rule set under two names", of a --rules that named one"""
    import pandas as pd

    out = str(tmp_path / "run")
    extra = ["--player", "fast"] if kind == "fair-stats" else []
    r = run_cli([kind, "--count", "1", "--rules", "classic+empty-start", "-j", "1", "--out", out, "-q", *extra])
    assert r.exit_code == 0, r.stderr
    r = run_cli([kind, "--count", "1", "--rules", "classic+empty", "-j", "1", "--out", out, "-q", "--resume", *extra])
    assert r.exit_code == 0, r.stderr
    r = run_cli([kind, "--count", "2", "--rules", "classic+empty", "-j", "1", "--out", out, "-q", "--extend", *extra])
    assert r.exit_code == 0, r.stderr
    df = pd.read_parquet(out)
    assert sorted(df["rules"]) == ["classic+empty-start"] * 2 and sorted(df["deal"]) == [0, 1]


def test_the_library_resumes_a_run_under_another_spelling_of_its_rule_set(tmp_path):
    from golfsolve.stats import CensusSpec, run_census

    out = tmp_path / "run"
    run_census(out, CensusSpec(0, 1, ("easy+draw-when-stuck",)), jobs=1, progress=False)
    run_census(out, CensusSpec(0, 1, ("easy+stuck",)), jobs=1, progress=False, resume=True)
    with pytest.raises(InputError, match="differs in rules"):  # another rule set is another run still
        run_census(out, CensusSpec(0, 1, ("classic",)), jobs=1, progress=False, resume=True)


# -- two commands on one run folder ---------------------------------------------------------
def test_a_refused_command_removing_the_lock_file_lets_no_two_commands_write_one_folder(tmp_path, monkeypatch):
    """was: a command refused on a folder that holds no run (``--resume`` on an empty one)
    removes the lock file it made; a command that had opened that file just before took its
    lock on the removed file, and a third one then locked the new file and wrote the same
    folder at the same time as the second (two writers of one run)."""
    out = tmp_path / "run"
    out.mkdir()
    key = RunKey("golfsolve-stats/1", 0, 4, ("easy",), 2)
    real_flock = fcntl.flock
    opened, go = threading.Event(), threading.Event()

    def flock_after_the_refusal(fd, op):
        # the second command: its lock file is open, its flock waits for the refusal to happen
        if threading.current_thread().name == "second" and not go.is_set():
            opened.set()
            assert go.wait(60)
        return real_flock(fd, op)

    monkeypatch.setattr(fcntl, "flock", flock_after_the_refusal)
    second = {}

    def start_second():
        try:
            second["folder"] = open_run(out, key)
        except InputError as e:
            second["folder"] = e

    t = threading.Thread(target=start_second, name="second")
    t.start()
    try:
        assert opened.wait(60)
        with pytest.raises(InputError, match="no golfsolve run to resume"):
            open_run(out, key, resume=True)  # the first: refused, its lock file removed
    finally:
        go.set()
        t.join(60)
    folder = second["folder"]
    assert not isinstance(folder, Exception), folder
    try:
        with pytest.raises(InputError, match="being written by another golfsolve command"):
            open_run(out, key, resume=True).close()  # the third, while the second writes
    finally:
        folder.close()
    open_run(out, key, resume=True).close()  # and once the second is done, it may


def _difficulty_run(run_cli, out, games: int = 1):
    r = run_cli(["stats", "--count", "2", "--rules", "classic", "--difficulty", "--difficulty-games", str(games),
                 "--out", str(out), "--jobs", "1", "-q"])
    assert r.exit_code == 0, r.stderr
    return out


def test_resume_with_difficulty_keeps_the_runs_games(run_cli, tmp_path):
    """stats.md: "`golfsolve stats --out DIR --resume` alone takes everything else from the
    manifest; options you do give must match it", and the games count "is recorded in the
    manifest, so --resume and --extend keep it".
    was: a run made with --difficulty-games 1, resumed or extended with `--difficulty` (which
    it has), was refused: "differs in difficulty_games 1 (here 8)", a count the user never gave."""
    out = _difficulty_run(run_cli, tmp_path / "run")
    (out / "chunk-0000000001.parquet").unlink()
    r = run_cli(["stats", "--out", str(out), "--resume", "--difficulty", "-q"])
    assert r.exit_code == 0, r.stderr
    r = run_cli(["stats", "--out", str(out), "--extend", "--count", "3", "--difficulty", "-q"])
    assert r.exit_code == 0, r.stderr
    df = pd.read_parquet(out)
    assert sorted(df["deal"]) == [0, 1, 2] and df["difficulty"].notna().all()
    assert '"difficulty_games": 1' in (out / "_manifest.json").read_text(encoding="utf-8")


def test_resume_naming_the_runs_games_alone_is_taken(run_cli, tmp_path):
    """Giving the run's own --difficulty-games again is an option that matches the run.
    was: `--resume --difficulty-games 1` on a run made with it exited 2, "--difficulty-games
    needs --difficulty", though the run has it; another count is still refused as a different run."""
    out = _difficulty_run(run_cli, tmp_path / "run")
    r = run_cli(["stats", "--out", str(out), "--resume", "--difficulty-games", "1"])
    assert r.exit_code == 0, r.stderr
    assert "nothing to do" in r.stdout
    one_line_exit_2(run_cli(["stats", "--out", str(out), "--resume", "--difficulty-games", "2"]),
                    "differs in difficulty_games 1 (here 2)")
    # a new run still needs the flag, and a run without difficulty columns still refuses them
    one_line_exit_2(run_cli(["stats", "--out", str(tmp_path / "new"), "--count", "1", "--difficulty-games", "2"]),
                    "--difficulty-games needs --difficulty")
    plain = tmp_path / "plain"
    assert run_cli(["stats", "--count", "1", "--rules", "classic", "--out", str(plain), "-q"]).exit_code == 0
    one_line_exit_2(run_cli(["stats", "--out", str(plain), "--resume", "--difficulty"]), "the run has none")


def test_a_new_run_asked_for_in_a_folder_that_holds_one_says_so_first(run_cli, tmp_path):
    """was: `golfsolve stats --out DIR` with no --count, on DIR holding a run, answered "--count N
    is required"; given --count, the same command then said the folder holds a run and to add
    --resume: the user was sent to fix what did not matter first."""
    out = tmp_path / "run"
    assert run_cli(["stats", "--count", "2", "--rules", "easy", "--out", str(out), "--jobs", "1", "-q"]).exit_code == 0
    for extra in ([], ["--count", "3"]):
        one_line_exit_2(run_cli(["stats", "--out", str(out), *extra]), "already holds a run (deals 0..1, rules easy",
                        "add --resume")


@pytest.mark.parametrize("kind", ["stats", "grid"])
def test_extend_that_would_shrink_a_run_names_what_it_counts(run_cli, tmp_path, kind):
    """was: '--extend cannot shrink the run from 2 to 1 items': deals, or matches"""
    out = str(tmp_path / "run")
    if kind == "stats":
        made = ["stats", "--count", "2", "--rules", "easy", "-j", "1", "--out", out, "-q"]
        again = ["stats", "--out", out, "--extend", "--count", "1", "-q"]
    else:
        made = ["grid", "simulate", "--players", "2", "--bots", "random,random", "--holes", "1", "--matches", "2",
                "--out", out, "-q"]
        again = ["grid", "simulate", "--out", out, "--extend", "--matches", "1", "-q"]
    assert run_cli(made).exit_code == 0
    line = one_line_error(run_cli(again))
    assert line.endswith(f"cannot shrink the run from 2 {'deals' if kind == 'stats' else 'matches'} to 1"), line


def test_too_many_chunk_files_names_what_the_run_counts(run_cli, tmp_path):
    """was: '8,031,810,176 items in chunks of 1 make ...'"""
    r = run_cli(["stats", "--count", "8031810176", "--chunk-size", "1", "--out", str(tmp_path / "run")])
    assert one_line_error(r).startswith("golfsolve: 8,031,810,176 deals in chunks of 1 make")
    assert not (tmp_path / "run").exists()


def test_differences_names_each_field_as_its_kind_names_it():
    """The library: a field may be shown by the option's name, or, following from the others,
    named only when nothing else says why"""
    from golfsolve.stats.runkey import RunKey, differences

    old = RunKey("golfsolve-grid-study/1", 0, 2, (), 1, (("matches", 1), ("seed", 0)))
    new = RunKey("golfsolve-grid-study/1", 0, 4, (), 1, (("matches", 2), ("seed", 0)))
    assert differences(old, new, names={"count": None}) == "matches 1 (here 2)"
    assert differences(old, new, names={"count": "matches in all"}) == "matches in all 2 (here 4), matches 1 (here 2)"
    alone = RunKey("golfsolve-grid-study/1", 0, 4, (), 1, old.params)
    assert differences(old, alone, names={"count": None}) == "count 2 (here 4)"
