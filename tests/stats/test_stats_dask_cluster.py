"""A census on a real Dask cluster survives a lost worker and a lost client.

The scheduler and two workers are separate processes started as a user starts them
(``dask scheduler``, ``dask worker``), on loopback; the census runs as the real command.
Killing a worker with SIGKILL mid-run, or killing the command and running it again with
``--resume``, must give the table of an uninterrupted local run, row for row: no row
missing, none twice.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from run_helpers import wait_for as _wait_for

from golfsolve.stats.census import CensusSpec, load_results, read_manifest, run_census

pytest.importorskip("dask.distributed")

RULES = ("easy", "classic", "strict")
TIMING = ["seconds", "cpu_seconds"]
COUNT, CHUNK = 240, 6  # 40 chunks: long enough to kill something mid-run


def _start(args: list[str], log: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.DEVNULL, stderr=open(log, "w"),
                            start_new_session=True)


@pytest.fixture
def cluster(tmp_path):
    """``(scheduler address, [worker processes])``: a scheduler and two single-threaded
    workers without nannies (a killed worker stays dead)."""
    sched_file = tmp_path / "scheduler.json"
    procs = [_start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                     "--dashboard-address", ":0", "--scheduler-file", str(sched_file)], tmp_path / "scheduler.log")]
    try:
        _wait_for(lambda: sched_file.exists() and sched_file.stat().st_size > 0, "the scheduler")
        address = json.loads(sched_file.read_text())["address"]
        for i in range(2):
            procs.append(_start(["distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny",
                                 "--host", "127.0.0.1", "--no-dashboard"], tmp_path / f"worker{i}.log"))
        from dask.distributed import Client

        with Client(address, timeout="30s") as c:
            c.wait_for_workers(2, timeout=120)
        yield address, procs[1:]
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def _stats(address: str, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "golfsolve", "stats", "--start", "GO1-E-AAAAAAA",
                             "--count", str(COUNT), "--chunk-size", str(CHUNK), "--out", str(out),
                             "--engine", "dask", "--scheduler", address, "--quiet", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _chunks(out: Path) -> int:
    return len(list(out.glob("chunk-*.parquet"))) if out.exists() else 0


@pytest.fixture(scope="module")
def local_table(tmp_path_factory) -> pd.DataFrame:
    out = tmp_path_factory.mktemp("local") / "run"
    run_census(out, CensusSpec(0, COUNT, RULES, CHUNK), jobs=1, progress=False)
    return load_results(out).drop(columns=TIMING)


def _same_rows(out: Path, local: pd.DataFrame) -> None:
    got = load_results(out, allow_incomplete=False).drop(columns=TIMING)
    assert len(got) == COUNT * len(RULES)
    assert not got.duplicated(["deal", "rules"]).any()
    pd.testing.assert_frame_equal(got, local)


def test_a_worker_killed_mid_run_loses_nothing(cluster, local_table, tmp_path):
    address, workers = cluster
    out = tmp_path / "run"
    run = _stats(address, out)
    _wait_for(lambda: _chunks(out) >= 3, "the first chunks")
    workers[0].send_signal(signal.SIGKILL)
    workers[0].wait()
    assert _chunks(out) < COUNT // CHUNK  # it died mid-run
    stdout, stderr = run.communicate(timeout=300)
    assert run.returncode == 0, stderr
    _same_rows(out, local_table)
    # was: "jobs" recorded this machine's cores, where the scheduler's workers did the work
    inv = read_manifest(out)["invocations"][-1]
    assert (inv["engine"], inv["scheduler"], inv["jobs"]) == ("dask", address, None)


def test_a_killed_client_resumes_to_the_same_table(cluster, local_table, tmp_path):
    address, _ = cluster
    out = tmp_path / "run"
    run = _stats(address, out)
    _wait_for(lambda: _chunks(out) >= 3, "the first chunks")
    run.send_signal(signal.SIGKILL)
    run.wait()
    done = _chunks(out)
    assert 0 < done < COUNT // CHUNK
    again = _stats(address, out, "--resume")
    stdout, stderr = again.communicate(timeout=300)
    assert again.returncode == 0, stderr
    _same_rows(out, local_table)
