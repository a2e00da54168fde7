"""Run folders touched by something else, and inputs a hostile user types: every repro of
issue 18 as the real command in its own process (exit 0 or 2, one line, never an internal error)."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hostile_helpers import quiet_stderr
from run_helpers import CommandForks, made_here

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs POSIX pipes, FIFOs and locks")

TIMING = ["seconds", "cpu_seconds"]
CODE = "GO1-E-AAAAAAB"


_forks: list = []


@pytest.fixture(scope="module", autouse=True)
def _fork_server():
    _forks.append(CommandForks())
    yield
    _forks.pop().close()


def golfsolve(*args: str, input: bytes | None = None, env: dict | None = None, timeout: float = 120,
              stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    """``golfsolve ARGS`` in a new process, bytes in, text out: forked from a server that has
    done the imports (:class:`run_helpers.CommandForks`; the tests are about what a command
    does with the folder and its input), or, for an environment read at start-up (the locale)
    or another stdout, a new interpreter as a user starts it (:func:`golfsolve_process`)."""
    if env is None and stdout is subprocess.PIPE:
        return _forks[-1].completed(*args, input=input or b"", timeout=int(timeout))
    return golfsolve_process(*args, input=input, env=env, timeout=timeout, stdout=stdout)


def golfsolve_process(*args: str, input: bytes | None = None, env: dict | None = None, timeout: float = 120,
                      stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    """``golfsolve ARGS`` as a user runs it: a new interpreter, bytes in, text out."""
    r = subprocess.run([sys.executable, "-m", "golfsolve", *args], input=input, stdout=stdout,
                       stderr=subprocess.PIPE, timeout=timeout, env={**os.environ, **(env or {})})
    r.stderr = r.stderr.decode("utf-8", "replace")
    if isinstance(r.stdout, bytes):
        r.stdout = r.stdout.decode("utf-8", "replace")
    return r


def refused(r: subprocess.CompletedProcess, *words: str) -> bool:
    """Exit 2 with one line on stderr holding every word, and no internal error."""
    return (r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "internal error" not in r.stderr
            and "Traceback" not in r.stderr and all(w in r.stderr for w in words))


def table(out: Path) -> pd.DataFrame:
    return (pd.read_parquet(out).drop(columns=TIMING).sort_values(["deal", "rules"], kind="stable")
            .reset_index(drop=True))


def _edit(run: Path, change) -> None:
    p = run / "_manifest.json"
    m = json.loads(p.read_text())
    change(m)
    p.write_text(json.dumps(m))


# -- manifests that are JSON but wrong -------------------------------------------------
@pytest.mark.parametrize("change,field", [
    (lambda m: m.update(start="x"), "start"),
    (lambda m: m.pop("rules"), "rules"),
    (lambda m: m.update(blocks="all"), "blocks"),
    (lambda m: m.update(chunk_size=0), "chunk_size"),
    (lambda m: m.update(count=10**15), "count"),
    (lambda m: m.update(params={"fields": "most"}), "params.fields"),
    (lambda m: m.update(rules=["easy", "classic", "wrap"]), "rules"),
    (lambda m: m.update(rules=["easy"]), "blocks"),
    (lambda m: m.update(invocations=[{"command": 7}]), "invocations"),
])
def test_a_wrong_manifest_is_refused_naming_the_file_and_the_field(run, change, field):
    _edit(run, change)
    for args in (["report", str(run), "--out", str(run.parent / "rep")], ["stats", "--out", str(run), "--resume"]):
        r = golfsolve(*args)
        # was: "internal error" (exit 1); a count of 10**15 made report grow past 7 GB
        assert refused(r, "_manifest.json", field), (args, r.stderr)
    assert not (run.parent / "rep").exists()


@pytest.mark.parametrize("player, words", [({"samples": "8"}, "params.player"),
                                           # was: reported as a player of 10**20 sampled orders
                                           ({"samples": 10**20}, "samples must be from 1 to 1,000,000")])
def test_a_fair_run_with_an_unknown_player_is_refused(run, tmp_path, player, words):
    fair = Path(shutil.copytree(run, tmp_path / "fair"))
    _edit(fair, lambda m: m.update(format="golfsolve-fair-stats/1", params={"seed": 0, "player": player}))
    r = golfsolve("report", str(run), "--fair", str(fair), "--out", str(tmp_path / "rep"))
    assert refused(r, "_manifest.json", words), r.stderr


def test_a_fair_run_with_no_finished_chunk_is_refused_not_left_out_of_the_report(run, tmp_path):
    fair = Path(shutil.copytree(run, tmp_path / "fair"))
    from golfsolve.fair import PRESETS

    player = PRESETS["fast"].as_dict()
    _edit(fair, lambda m: m.update(format="golfsolve-fair-stats/1", params={"seed": 0, "player": player}))
    for chunk in fair.glob("chunk-*.parquet"):
        chunk.unlink()
    r = golfsolve("report", str(run), "--fair", str(fair), "--out", str(tmp_path / "rep"))
    # was: exit 0, and a report without the fair-play section asked for
    assert refused(r, f"--fair {fair}: no chunk is finished yet"), r.stderr
    assert not (tmp_path / "rep").exists()


# -- chunks with the right rows and the wrong columns ---------------------------------
def _rewrite(chunk: Path, change) -> None:
    t = pq.read_table(chunk)
    pq.write_table(change(t), chunk)


@pytest.mark.parametrize("change,what", [
    (lambda t: t.drop(["winnable"]), "lacks the column 'winnable'"),
    (lambda t: t.set_column(t.schema.get_field_index("winnable"), "winnable",
                            pa.array([str(v) for v in t.column("winnable").to_pylist()])), "'winnable' as"),
    (lambda t: t.set_column(t.schema.get_field_index("deal"), "deal",
                            pa.array([str(v) for v in t.column("deal").to_pylist()])), "'deal' as"),
])
def test_a_chunk_short_of_a_column_or_of_the_wrong_type_is_redone_on_resume(run, finished, change, what):
    chunk = sorted(run.glob("chunk-*.parquet"))[1]
    _rewrite(chunk, change)
    r = golfsolve("report", str(run), "--out", str(run.parent / "rep"))
    assert refused(r, chunk.name, what, "--resume"), r.stderr
    # was: "nothing to do" and wrong win rates (a missing column), or an internal error (strings)
    r = golfsolve("stats", "--out", str(run), "--resume")
    assert r.returncode == 0 and f"solved again: {chunk.name}" in r.stderr and what in r.stderr, r.stderr
    pd.testing.assert_frame_equal(table(run), table(finished))


# -- runs inside runs ------------------------------------------------------------------
def test_a_run_inside_another_run_is_refused(run, tmp_path):
    r = golfsolve("stats", "--count", "2", "--rules", "strict", "--out", str(run / "inner"), "--jobs", "1")
    # was: created, and pd.read_parquet(run) then read 129 rows instead of 120
    assert refused(r, "inside the run folder"), r.stderr
    assert not (run / "inner").exists() or not any((run / "inner").iterdir())
    # one made by other means (copied in) stops the outer run being read, and the inner one too
    other = Path(shutil.copytree(run, tmp_path / "other"))
    shutil.copytree(other, run / "copied")
    r = golfsolve("report", str(run), "--out", str(tmp_path / "rep"))
    assert refused(r, "copied", "move it out"), r.stderr
    r = golfsolve("stats", "--out", str(run / "copied"), "--resume")
    assert refused(r, "inside the run folder"), r.stderr


def test_a_fifo_in_the_report_folder_is_refused_not_written_into(run, tmp_path):
    rep = tmp_path / "rep"
    rep.mkdir()
    os.mkfifo(rep / "report.md")
    r = golfsolve("report", str(run), "--out", str(rep), timeout=60)  # was: a wait for ever
    assert refused(r, "report.md", "not a regular file"), r.stderr


def test_a_report_cannot_go_into_another_runs_report_folder(run, tmp_path):
    other = Path(shutil.copytree(run, tmp_path / "other"))
    r = golfsolve("report", str(run), "--out", str(other / "_report"))
    assert refused(r, "inside the run folder", "not the run reported on"), r.stderr
    assert not (other / "_report").exists()
    r = golfsolve("report", str(run), "--out", str(run / "plots"))
    assert refused(r, "_report"), r.stderr
    assert golfsolve("report", str(run), "--json").returncode == 0  # its own _report: the default


# -- one rule set under two names ------------------------------------------------------
@pytest.mark.parametrize("rules,names", [
    ("classic,wrap+nowrap", ("'classic'", "'wrap+nowrap'")),
    ("strict,strict+stuck", ("'strict'", "'strict+stuck'")),
    ("easy,wrap", ("'easy' and 'wrap'", "same rule set")),  # was: "rule set 'easy' is listed twice"
    ("queen-on-king,classic", ("'queen-on-king' and 'classic'",)),
])
def test_two_names_for_one_rule_set_are_refused(tmp_path, rules, names):
    r = golfsolve("stats", "--count", "2", "--rules", rules, "--out", str(tmp_path / "s"))
    assert refused(r, *names), r.stderr
    assert not (tmp_path / "s").exists() or not any((tmp_path / "s").iterdir())


def test_extend_with_a_new_name_for_a_rule_set_of_the_run_takes_it_as_the_runs_own(run):
    # one rule set is never solved twice: queen-on-king+nowrap is the run's classic, named as the
    # run names it (tests/stats/test_runfolder.py: not refused as "two names" in a --rules that gave one)
    r = golfsolve("stats", "--out", str(run), "--extend", "--rules", "queen-on-king+nowrap,strict")
    assert r.returncode == 0, r.stderr
    assert sorted(pd.read_parquet(run)["rules"].unique()) == ["classic", "easy", "strict"]


# -- options ---------------------------------------------------------------------------
@pytest.mark.parametrize("args,words", [
    (["solve", "--codes-from", "bad.txt", "--codes-from", "good.txt"], ["--codes-from", "more than once"]),
    (["deal", "--layout", "A", "--layout", "B"], ["--layout", "more than once"]),
    (["stats", "--count", "2", "--count", "3", "--out", "x"], ["--count", "more than once"]),
    (["deal", "--pysol", "٣"], ["--pysol", "digits"]),
    (["deal", "--pysol", "1_0"], ["--pysol", "digits"]),
    (["stats", "--count", "１２", "--out", "x"], ["--count", "digits"]),
    (["solve", "--pysol", "٣"], ["--pysol", "not a deal number"]),
    (["rate", "--pysol", "1-٣"], ["--pysol", "not a deal number"]),
])
def test_repeated_options_and_numbers_not_in_ascii_digits_are_refused(tmp_path, args, words):
    for name in ("good.txt", "bad.txt"):
        (tmp_path / name).write_text(CODE + "\n")
    r = subprocess.run([sys.executable, "-m", "golfsolve", *args], capture_output=True, text=True, cwd=tmp_path,
                       timeout=60)
    assert refused(r, *words), r.stderr
    assert not (tmp_path / "x").exists()


def test_a_fifo_as_a_layout_file_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for args in (["deal", "--layout", str(fifo)], ["solve", "--layout", str(fifo)],
                 ["solve", "--codes-from", str(fifo)], ["rate", "--layout", str(fifo)]):
        r = golfsolve(*args, timeout=60)  # a hang fails with TimeoutExpired
        assert refused(r, "FIFO"), (args, r.stderr)


# -- streams ---------------------------------------------------------------------------
@pytest.mark.parametrize("locale", ["C.UTF-8", "C"])
@pytest.mark.parametrize("command", [["play", CODE], ["grid", "play", "--seed", "1"]])
def test_stdin_that_is_not_utf8_is_refused_whatever_the_locale(command, locale):
    r = golfsolve(*command, input=b"\x80\x81\n", env={"LC_ALL": locale, "LANG": locale})
    # was: exit 0 ("bad move") under the C locale
    assert refused(r, "not UTF-8"), r.stderr


@pytest.mark.parametrize("answers", [b"\x80\x81\n", b"1 2\ns\n\xff\n"])
def test_grid_play_refuses_stdin_that_is_not_utf8_before_it_compiles(answers):
    # was: on a cold numba cache, the compile notice and a minute of compiling before the error
    script = ("import sys, golfsolve.grid.compiling as c; from golfsolve.cli.main import main\n"
              "c.warm = lambda *a, **k: sys.exit('compiling: stdin was not checked first')\n"
              "sys.argv = ['golfsolve', 'grid', 'play', '--seed', '1']; main()")
    r = subprocess.run([sys.executable, "-c", script],
                       input=answers, capture_output=True, timeout=60)
    r.stderr = r.stderr.decode("utf-8", "replace")
    assert refused(r, "not UTF-8"), r.stderr


@pytest.mark.parametrize("args", [
    ["deal", CODE], ["solve", CODE], ["replay", CODE, "d"], ["rate", CODE, "--games", "1"],
    ["play", CODE], ["grid", "simulate", "--matches", "2", "--holes", "1"], ["stats", "--count", "2", "--rules",
                                                                              "easy", "--jobs", "1", "--out", "NEW"],
    ["report", "RUN", "--out", "REP"],
])
def test_a_closed_pipe_on_stdout_exits_0_quietly_from_every_command(args, run, tmp_path):
    args = [str(tmp_path / "new") if a == "NEW" else str(run) if a == "RUN" else str(tmp_path / "rep") if a == "REP"
            else a for a in args]
    read, write = os.pipe()
    os.close(read)  # the reader has gone, as after '| head -1'
    try:
        r = subprocess.run([sys.executable, "-m", "golfsolve", *args], stdout=write, stderr=subprocess.PIPE,
                           input=b"d\nq\n", timeout=120)
    finally:
        os.close(write)
    # was: exit 0 from deal and report, 1 (silently) from the others
    assert r.returncode == 0 and quiet_stderr(r.stderr) == b"", (args, r.returncode, r.stderr)


# -- one writer at a time --------------------------------------------------------------
def test_a_second_command_on_a_folder_being_written_is_refused_and_no_record_is_lost(run, finished):
    (run / "chunk-0000000002.parquet").unlink()
    before = len(json.loads((run / "_manifest.json").read_text())["invocations"])
    fd = os.open(run / ".golfsolve.lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running 'stats --resume' holds it
        _write_pid(fd, os.getpid())  # a live process
        r = golfsolve("stats", "--out", str(run), "--resume")
        assert refused(r, "being written by another golfsolve command", str(os.getpid())), r.stderr
        assert not (run / "chunk-0000000002.parquet").exists()  # nothing solved
    finally:
        os.close(fd)
    # two at once: one solves, the other waits for nothing and is refused; both records kept
    results = []
    resume = ("stats", "--out", str(run), "--resume")
    threads = [threading.Thread(target=lambda: results.append(golfsolve_process(*resume))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(r.returncode for r in results)
    assert codes in ([0, 0], [0, 2]), [r.stderr for r in results]
    m = json.loads((run / "_manifest.json").read_text())
    assert len(m["invocations"]) == before + codes.count(0)
    assert sum(inv["chunks_solved"] for inv in m["invocations"][before:]) == 1  # never solved twice
    pd.testing.assert_frame_equal(table(run), table(finished))


def test_a_full_disk_leaves_no_temporary_file_and_resume_completes_the_table(finished, tmp_path, run_cli,
                                                                             monkeypatch):
    import errno

    out = tmp_path / "run"
    real = pd.DataFrame.to_parquet
    calls = {"n": 0}

    def to_parquet(self, f, *a, **k):
        calls["n"] += 1
        if calls["n"] == 2:  # the disk fills up half-way through the second chunk
            f.write(b"PAR1 half a chunk")
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, f, *a, **k)

    real_write = Path.write_text

    def write_text(self, data, *a, **k):
        if calls["n"] >= 2 and self.name.endswith(".tmp"):
            real_write(self, data[:10], *a, **k)
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(self, data, *a, **k)

    monkeypatch.setattr(pd.DataFrame, "to_parquet", to_parquet)
    monkeypatch.setattr(Path, "write_text", write_text)
    r = run_cli(["stats", "--count", "6", "--rules", "easy,classic", "--chunk-size", "2", "--jobs", "1",
                 "--out", str(out), "-q"])
    assert r.exit_code == 1 and "No space left on device" in r.stderr, r.stderr
    monkeypatch.undo()
    assert [p.name for p in out.iterdir() if p.name.endswith(".tmp")] == []
    assert len(list(out.glob("chunk-*.parquet"))) == 1
    r = golfsolve("stats", "--out", str(out), "--resume", "-q")
    assert r.returncode == 0, r.stderr
    pd.testing.assert_frame_equal(table(out), table(finished))


def test_a_grid_chunk_short_of_a_column_is_played_again_on_resume(tmp_path):
    out = tmp_path / "grid"
    args = ["grid", "simulate", "--matches", "4", "--holes", "1", "--chunk-size", "2", "--seed", "5", "--out", str(out)]
    made_here(*args, "-q")
    before = pd.read_parquet(out).sort_values(["match", "seat"]).reset_index(drop=True)
    chunk = sorted(out.glob("chunk-*.parquet"))[0]
    _rewrite(chunk, lambda t: t.drop(["strokes"]))
    r = golfsolve("grid", "report", str(out))
    assert refused(r, chunk.name, "lacks the column 'strokes'", "golfsolve grid simulate --out"), r.stderr
    r = golfsolve("grid", "simulate", "--out", str(out), "--resume", "-q")
    assert r.returncode == 0 and f"played again: {chunk.name}" in r.stderr, r.stderr
    after = pd.read_parquet(out).sort_values(["match", "seat"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(after, before)


def _write_pid(fd: int, pid: int) -> None:
    # the run's own lock file holds its pid already: a shorter pid written over it must not
    # keep the old one's last digits
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(pid).encode(), 0)


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_resume_right_after_kill_9_waits_for_the_dying_workers(run):
    # kill -9 of a run leaves its lock with workers that are still going down with it; the
    # process named in the lock file is gone, so a --resume waits for them instead of refusing
    (run / "chunk-0000000002.parquet").unlink()
    fd = os.open(run / ".golfsolve.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    _write_pid(fd, _dead_pid())
    threading.Timer(1.0, os.close, [fd]).start()  # the last worker exits a second later
    r = golfsolve("stats", "--out", str(run), "--resume", "-q")
    assert r.returncode == 0, r.stderr
    assert (run / "chunk-0000000002.parquet").exists()


def test_a_lock_left_by_a_dead_run_for_good_is_refused_in_the_end(run, monkeypatch):
    from golfsolve.errors import InputError
    from golfsolve.stats import runlock

    monkeypatch.setattr(runlock, "LEFTOVER_WAIT", 0.3)
    fd = os.open(run / ".golfsolve.lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        dead = _dead_pid()
        _write_pid(fd, dead)
        with pytest.raises(InputError, match=f"still locked by processes that process {dead} started"):
            runlock.lock_folder(run)
    finally:
        os.close(fd)


# -- a chunk records the settings it was made with ------------------------------------------
def test_a_chunk_of_another_run_or_an_edited_manifest_is_refused_naming_the_setting(tmp_path):
    from golfsolve.stats.census import CensusSpec, load_results, run_census

    a, b = tmp_path / "a", tmp_path / "b"
    run_census(a, CensusSpec(0, 4, ("classic",), 2), jobs=1, progress=False)
    run_census(b, CensusSpec(0, 4, ("classic",), 2, fields="winnable"), jobs=1, progress=False)
    shutil.copy(b / "chunk-0000000002.parquet", a / "chunk-0000000002.parquet")
    # was: taken as the run's own (its columns and deals are right), verdicts only among full answers
    r = golfsolve("report", str(a), "--out", str(tmp_path / "rep"))
    assert refused(r, "chunk-0000000002.parquet was made with fields winnable where the manifest now has none",
                   "move it out of the folder"), r.stderr
    r = golfsolve("stats", "--out", str(a), "--resume", "-q")
    assert refused(r, "was made with fields winnable"), r.stderr
    (a / "chunk-0000000002.parquet").unlink()
    assert golfsolve("stats", "--out", str(a), "--resume", "-q").returncode == 0
    assert load_results(a)["fields"].nunique() == 1  # every row with both fields again


WORKER_DIES = r"""
import os, signal, sys
from golfsolve.stats.pool import WorkerLost, compute

def task(n):
    if n == 3:
        os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer ends a worker
    return n

try:
    done = sorted(r for _, r in compute(list(range(8)), task, 2))
except WorkerLost as e:
    print("lost:", e)
    sys.exit(0)
print("finished without task 3?", done)
sys.exit(1)
"""


def test_a_worker_killed_mid_run_stops_the_run_instead_of_hanging_it():
    """A worker of --jobs 2 killed mid-chunk (kill -9, the out-of-memory killer) left its
    chunk in multiprocessing.Pool's hands for ever: grid simulate, stats and fair-stats
    waited without end, and a first SIGTERM then hung in the pool's terminate as well."""
    r = subprocess.run([sys.executable, "-c", WORKER_DIES], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "lost: a worker process stopped" in r.stdout, (r.stdout, r.stderr)
    assert "--resume" in r.stdout


def _made(run_cli, *args: str) -> None:
    r = run_cli([*args, "-q"])
    assert r.exit_code == 0, r.stderr


@pytest.mark.parametrize("kind", ["fair-stats", "grid-simulate"])
def test_a_folder_where_a_runs_side_file_goes_is_refused_by_name_before_any_work(kind, run_cli, tmp_path):
    """The run's own text files (fair-stats' _fair.md, grid simulate's CSV exports) written over
    a directory of that name. was: the missing chunks played, then 'cannot go on: Is a directory
    (DIR/._fair.md.1234.tmp)', exit 1, naming a temporary file"""
    out = tmp_path / "run"
    if kind == "fair-stats":
        _made(run_cli, "fair-stats", "--count", "2", "--rules", "classic", "--player", "fast", "--jobs", "1",
              "--chunk-size", "1", "--out", str(out))
        side, again = out / "_fair.md", ["fair-stats", "--out", str(out), "--resume", "-q"]
    else:
        _made(run_cli, "grid", "simulate", "--players", "2", "--bots", "random,random", "--holes", "1",
              "--matches", "2", "--chunk-size", "1", "--format", "csv", "--out", str(out))
        side, again = out / "_holes.csv", ["grid", "simulate", "--out", str(out), "--resume", "-q"]
    side.unlink()
    side.mkdir()
    chunk = sorted(out.glob("chunk-*.parquet"))[-1]
    chunk.unlink()
    r = run_cli(again)
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert str(side) in r.stderr and ".tmp" not in r.stderr and "directory" in r.stderr, r.stderr
    assert not chunk.exists()  # refused before the missing chunk was played again
    side.rmdir()
    r = run_cli(again)
    assert r.exit_code == 0 and side.is_file() and chunk.is_file(), r.stderr
