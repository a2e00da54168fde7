"""Kill a parallel ``golfsolve stats`` run half-way (SIGINT, SIGKILL), resume it, and get
exactly the table of an uninterrupted run: no row lost, none repeated (consecutive deals,
and deals spread over the code space with ``--spread``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from golfsolve.stats.census import CensusSpec, chunk_files, load_results, read_manifest, run_census, spread_stride

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals and process groups")

COUNT, CHUNK, RULES = 200, 4, ("easy", "classic")  # long enough that a kill lands mid-run
TIMING = ["seconds", "cpu_seconds"]


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> pd.DataFrame:
    """The uninterrupted run's table, solved in-process."""
    out = tmp_path_factory.mktemp("ref") / "run"
    run_census(out, CensusSpec(0, COUNT, RULES, CHUNK), jobs=1, progress=False)
    return load_results(out).drop(columns=TIMING)


@pytest.fixture(scope="module")
def spread_reference(tmp_path_factory) -> pd.DataFrame:
    """The uninterrupted table of COUNT deals spread over the whole code space."""
    out = tmp_path_factory.mktemp("ref") / "run"
    run_census(out, CensusSpec(0, COUNT, RULES, CHUNK, stride=spread_stride(COUNT)), jobs=1, progress=False)
    return load_results(out).drop(columns=TIMING)


def _start(out: Path, *more: str) -> subprocess.Popen:
    # Its own session, so that a signal to its process group reaches the workers too (as
    # Ctrl-C in a terminal does) and nothing else.
    return subprocess.Popen(
        [sys.executable, "-m", "golfsolve", "stats", "--count", str(COUNT), "--chunk-size", str(CHUNK),
         "--rules", ",".join(RULES), "--jobs", "2", "--out", str(out), "--quiet", *more],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def _wait_for_first_chunk(proc: subprocess.Popen, out: Path, timeout: float = 90) -> None:
    end = time.monotonic() + timeout
    while not chunk_files(out):
        if proc.poll() is not None:
            pytest.fail(f"the run ended before writing a chunk: {proc.stderr.read()}")
        if time.monotonic() > end:
            proc.kill()
            pytest.fail("no chunk file appeared")
        time.sleep(0.02)


#: A run lasts about a second once its first chunk is written; on a loaded machine the test
#: can be descheduled for that long between seeing the chunk and sending the signal, and then
#: the signal finds the run finished (exit 0, every chunk written). That says nothing of
#: interruption, so the test starts another run, up to this many times.
ATTEMPTS = 3


def _finished_first(proc: subprocess.Popen, out: Path) -> bool:
    """Did the run end on its own, before the signal reached it?"""
    return proc.returncode == 0 and len(chunk_files(out)) == COUNT // CHUNK


def _children(pid: int) -> list[int]:
    kids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(d.name))
    return kids


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _resume_and_compare(out: Path, reference: pd.DataFrame, run_cli) -> None:
    done_before = len(chunk_files(out))
    assert 0 < done_before < COUNT // CHUNK, "the kill must land half-way for this test to mean anything"
    r = run_cli(["stats", "--out", str(out), "--resume", "--jobs", "1", "--quiet"])
    assert r.exit_code == 0, r.stderr
    final = load_results(out)
    assert len(final) == COUNT * len(RULES)
    assert not final.duplicated(["deal", "rules"]).any()
    pd.testing.assert_frame_equal(final.drop(columns=TIMING), reference)
    m = read_manifest(out)
    assert m["complete"] is True
    assert m["invocations"][-1]["chunks_before"] == done_before


@pytest.mark.parametrize("sig, group", [
    (signal.SIGINT, True),    # Ctrl-C: the terminal signals the whole foreground group
    (signal.SIGTERM, False),  # kill PID: the main process only, which must stop its workers
])
def test_sigint_stops_cleanly_and_resume_completes_the_table(tmp_path, reference, run_cli, sig, group):
    for attempt in range(ATTEMPTS):
        out = tmp_path / f"run{attempt}"
        proc = _start(out)
        try:
            _wait_for_first_chunk(proc, out)
            workers = _children(proc.pid)
            (os.killpg if group else os.kill)(proc.pid, sig)
            _, err = proc.communicate(timeout=60)
            assert not any(_alive(w) for w in workers)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
        if not _finished_first(proc, out):
            break
    assert proc.returncode == 130, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "interrupted" in lines[0] and "--resume" in lines[0], err
    assert read_manifest(out)["invocations"][-1]["status"] == "interrupted"
    _resume_and_compare(out, reference, run_cli)


@pytest.mark.parametrize("spread", [False, True])
def test_sigkill_loses_only_unfinished_chunks_and_resume_completes_the_table(tmp_path, request, run_cli, spread):
    for attempt in range(ATTEMPTS):
        out = tmp_path / f"run{attempt}"
        proc = _start(out, *(["--spread"] if spread else []))
        try:
            _wait_for_first_chunk(proc, out)
            workers = _children(proc.pid)
            os.kill(proc.pid, signal.SIGKILL)  # kill -9 of the main process only
            proc.wait(timeout=30)
            # The workers notice their parent's death (PR_SET_PDEATHSIG) instead of running on.
            end = time.monotonic() + 10
            while any(_alive(w) for w in workers) and time.monotonic() < end:
                time.sleep(0.05)
            assert workers and not any(_alive(w) for w in workers)
        finally:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if not _finished_first(proc, out):
            break
    assert proc.returncode == -signal.SIGKILL
    # --resume alone finishes a spread run: the stride comes from its manifest
    _resume_and_compare(out, request.getfixturevalue("spread_reference" if spread else "reference"), run_cli)


def test_a_ctrl_c_inside_wait_leaves_no_future_locked():
    """A Ctrl-C landing inside concurrent.futures.wait after it took the futures' locks left
    them held (the with-statement's exit never ran); at shutdown the executor's manager thread
    blocked for ever cancelling them, and `golfsolve stats` said "interrupted" and hung at exit
    in about 1 of 12 Ctrl-Cs. The run's clean-up releases what the interrupted thread holds."""
    import threading
    from concurrent.futures import Future

    from golfsolve.stats.pool import _release_held

    futures = [Future() for _ in range(3)]
    for f in futures[:2]:
        f._condition.acquire()  # as wait's _AcquireFutures leaves them when interrupted
    futures[0]._condition.acquire()  # held twice: released all the way
    _release_held(futures)
    cancelled = []
    t = threading.Thread(target=lambda: cancelled.extend(f.cancel() for f in futures), daemon=True)
    t.start()
    t.join(10)
    assert cancelled == [True, True, True]
