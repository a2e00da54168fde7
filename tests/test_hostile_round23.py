"""Hostile sweep, round 23: the Dask path of ``golfsolve stats`` as users meet it: a cluster
of many machines, a worker that hangs when asked, Ctrl-C while the private cluster starts,
runs moved between engines and clusters, odd ``--scheduler`` addresses. Each test is a flaw
a user met, fixed with a test that fails without its fix, or (said so) a guarantee a user
relies on. Every process a test starts is stopped when it ends, whatever happened.
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
from hostile_helpers import one_line_exit_2 as _one_line_exit_2
from run_helpers import bare_cluster
from run_helpers import ROOT, dask_scheduler, dask_worker, pythonpath_env, stop_processes, wait_for

from golfsolve.stats.census import CensusSpec, load_results, read_manifest, run_census

distributed = pytest.importorskip("dask.distributed")
psutil = pytest.importorskip("psutil")

TIMING = ["seconds", "cpu_seconds"]


bare = pytest.fixture(name="bare")(bare_cluster)


def _local_table(out: Path, spec: CensusSpec) -> pd.DataFrame:
    run_census(out, spec, jobs=1, progress=False)
    return load_results(out).drop(columns=TIMING)


def test_the_default_chunk_size_follows_the_clusters_threads_and_resume_keeps_it(run_cli, bare, tmp_path,
                                                                              monkeypatch):
    """``--scheduler`` without ``--chunk-size`` cut the chunks for the cores of the machine
    that ran the command (a laptop's 4), not for the cluster's workers: a cluster of 64
    machines got a few chunks per laptop core and most of its workers sat idle. Now the
    chunks are cut for the threads the scheduler reports, and a resumed run keeps the size
    its manifest records whatever the cluster (or engine) it resumes on."""
    address, procs = bare
    dask_worker(address, tmp_path / "w1.log", procs, nthreads=3)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)  # this machine: one core (chunks of 8)
    out = tmp_path / "run"
    args = ["stats", "--count", "80", "--rules", "easy", "--out", str(out), "--engine", "dask", "--quiet"]
    r = run_cli([*args, "--scheduler", address])
    assert r.exit_code == 0, r.stderr
    assert read_manifest(out)["chunk_size"] == 3  # 80 deals for 3 threads: about ten chunks each
    assert "--chunk-size 3" in read_manifest(out)["invocations"][0]["command"]
    names = sorted(p.name for p in out.glob("chunk-*.parquet"))
    assert len(names) == -(-80 // 3)  # 80 deals in chunks of 3
    # the cluster grows to 6 threads (chunks of 2 for a new run): a resumed run keeps its 3
    for name in names[3:6]:
        (out / name).unlink()
    dask_worker(address, tmp_path / "w2.log", procs, expect=2, nthreads=3)
    r = run_cli([*args, "--scheduler", address, "--resume"])
    assert r.exit_code == 0, r.stderr
    assert sorted(p.name for p in out.glob("chunk-*.parquet")) == names
    # and so does the local engine, whose default would be 8
    for name in names[10:12]:
        (out / name).unlink()
    r = run_cli(["stats", "--out", str(out), "--resume", "--quiet", "--jobs", "1"])
    assert r.exit_code == 0, r.stderr
    assert sorted(p.name for p in out.glob("chunk-*.parquet")) == names
    assert read_manifest(out)["chunk_size"] == 3
    pd.testing.assert_frame_equal(load_results(out, allow_incomplete=False).drop(columns=TIMING),
                                  _local_table(tmp_path / "local", CensusSpec(0, 80, ("easy",), 3)))


_HANG = (  # a worker whose golfsolve import never ends (a stuck network file system, a held lock)
    "import sys, time\n"
    "class _Hang:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name == 'golfsolve.stats.census':\n"
    "            time.sleep(3600)\n"
    "sys.meta_path.insert(0, _Hang())\n")


def test_a_worker_that_hangs_when_asked_for_its_code_is_named_after_a_deadline(run_cli, bare, tmp_path,
                                                                               monkeypatch):
    """A worker that hung when the run asked it which golfsolve it runs (its import stuck)
    made the command hang for ever before anything was solved: the check had no deadline.
    Now the run waits at most CHECK_SECONDS, then stops in one line naming the worker
    (exit 2: the user's cluster is wrong), and leaves no folder."""
    from golfsolve.stats import cluster

    address, procs = bare
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(_HANG)
    dask_worker(address, tmp_path / "worker.log", procs, env=pythonpath_env(f"{site}{os.pathsep}{ROOT}"))
    with distributed.Client(address, timeout="30s") as c:
        (worker,) = c.scheduler_info(n_workers=-1)["workers"]
    monkeypatch.setattr(cluster, "CHECK_SECONDS", 2.0)  # 20 s in use
    r = run_cli(["stats", "--count", "4", "--out", str(tmp_path / "out"), "--engine", "dask", "--scheduler", address,
                 "--quiet"])
    _one_line_exit_2(r, f"the Dask worker {worker} did not answer within 2 s", "restart it")
    assert not (tmp_path / "out").exists()


def _descendants(pid: int) -> list:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def test_ctrl_c_while_the_private_cluster_starts_stops_at_once_and_leaves_no_worker(tmp_path):
    """``--engine dask`` without a scheduler ignored Ctrl-C while its private cluster
    started (SIGINT was ignored then, so that the worker processes inherit the ignoring):
    the Ctrl-C was lost and the run went on to the end. Now the workers start with SIGINT
    blocked instead, the command stops at once with the one line a Ctrl-C before the run
    folder is made gives (exit 130), and no worker process is left behind."""
    out = tmp_path / "run"
    run = subprocess.Popen([sys.executable, "-m", "golfsolve", "stats", "--count", "20", "--out", str(out),
                            "--engine", "dask", "--jobs", "2", "--quiet"], env=pythonpath_env(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    seen: list = []
    try:
        def workers_spawned() -> bool:
            seen[:] = [p for p in _descendants(run.pid) if "--multiprocessing-fork" in " ".join(p.cmdline())]
            return bool(seen) or run.poll() is not None

        wait_for(workers_spawned, "the private cluster's first worker process", 60)
        os.killpg(run.pid, signal.SIGINT)  # as the terminal sends it: to every process of the group
        _, stderr = run.communicate(timeout=60)
    finally:
        stop_processes([run])
    assert seen, "the command ended before its cluster started"
    assert run.returncode == 130, stderr
    assert stderr.strip() == "golfsolve: interrupted before the run started; nothing was written"
    assert not out.exists()
    wait_for(lambda: not any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE for p in seen),
             "the worker processes to end", 30)


@pytest.mark.parametrize("given, words", [
    ("tcp://127.0.0.1:8786?x=1", "the port must be a number from 1 to 65535, not '8786?x=1'"),
    ("localhost:", "the port must be a number from 1 to 65535, not ''"),
    ("tcp://[::1]:", "the port must be a number from 1 to 65535, not ''"),
    ("localhost:0", "the port must be a number from 1 to 65535, not '0'"),
    ("./scheduler", "--scheduler takes the scheduler's address, e.g. tcp://10.0.0.5:8786, not a file's path"),
    ("inproc://127.0.0.1/1/2", "an inproc:// address is reachable only inside the Python process that made it"),
])
def test_odd_scheduler_addresses_are_named_for_what_they_are(run_cli, tmp_path, given, words):
    """``--scheduler`` given something that is not a scheduler's address: a path ("missing
    port number in address"), an empty port after the colon ("invalid literal for int() with
    base 10: ''"), an inproc:// address ("does not speak to a Dask client ... the dashboard's
    port?"), or a port with more after it (named "must be a number" without saying which).
    Now each is one line saying what is wrong with it, before anything is made."""
    r = run_cli(["stats", "--count", "2", "--out", str(tmp_path / "out"), "--engine", "dask", "--scheduler", given])
    _one_line_exit_2(r, words)
    assert not (tmp_path / "out").exists()


def test_a_scheduler_file_given_for_its_address_names_the_address(run_cli, tmp_path):
    """``--scheduler scheduler.json`` (the file ``dask scheduler --scheduler-file`` writes)
    said "missing port number in address"; now the line gives the address the file holds."""
    sched = tmp_path / "scheduler.json"
    sched.write_text(json.dumps({"type": "Scheduler", "address": "tcp://10.1.2.3:8786"}))
    r = run_cli(["stats", "--count", "2", "--out", str(tmp_path / "out"), "--engine", "dask",
                 "--scheduler", str(sched)])
    _one_line_exit_2(r, f"not its scheduler file {sched}: give --scheduler tcp://10.1.2.3:8786")


def _ipv6_loopback() -> bool:
    import socket

    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not _ipv6_loopback(), reason="no IPv6 loopback here")
def test_an_ipv6_address_in_brackets_and_with_a_trailing_slash_reaches_the_scheduler(run_cli, tmp_path):
    """An address copied from a browser or a log ends in '/': ``[::1]:8786/`` was refused as
    "the port must be a number from 1 to 65535" (its port is one) and without a scheme as a
    path. Now the slash is dropped, and the run goes to the scheduler at that IPv6 address;
    the manifest records the address without it."""
    procs: list = []
    try:
        address = dask_scheduler(tmp_path, procs, host="[::1]")
        assert address.startswith("tcp://[::1]:")
        dask_worker(address, tmp_path / "worker.log", procs, host="[::1]")
        given = address.removeprefix("tcp://") + "/"
        r = run_cli(["stats", "--count", "4", "--rules", "easy", "--out", str(tmp_path / "out"), "--engine", "dask",
                     "--scheduler", given, "--quiet"])
    finally:
        stop_processes(procs)
    assert r.exit_code == 0, r.stderr
    assert read_manifest(tmp_path / "out")["invocations"][0]["scheduler"] == given[:-1]
    assert len(load_results(tmp_path / "out", allow_incomplete=False)) == 4


def test_dask_warning_of_other_package_versions_is_one_note(run_cli, bare, tmp_path, capfd):
    """A worker with other versions of Dask's packages (here numpy and toolz, as a machine
    installed at another time has them): Dask's warning printed a table of a dozen lines
    and its own source line around the run's output. Now it is one note naming each
    package and its versions, and the run goes on (golfsolve's own code is checked to be
    the same)."""
    address, procs = bare
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "import importlib.metadata as m\n"
        "_version = m.version\n"
        "m.version = lambda name: '0.0.1' if name in ('toolz', 'numpy') else _version(name)\n")
    dask_worker(address, tmp_path / "worker.log", procs, env=pythonpath_env(f"{site}{os.pathsep}{ROOT}"))
    r = run_cli(["stats", "--count", "4", "--rules", "easy", "--out", str(tmp_path / "out"), "--engine", "dask",
                 "--scheduler", address, "--quiet"])
    assert r.exit_code == 0, r.stderr
    lines = r.stderr.strip().splitlines() + capfd.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("golfsolve: note: the Dask cluster runs other package versions than this machine: "
                               "numpy (Client "), lines[0]
    assert "Workers 0.0.1); toolz (Client " in lines[0]


def test_a_run_moves_between_the_local_engine_and_a_cluster_row_for_row(run_cli, bare, tmp_path):
    """A guarantee: a run started on this machine and resumed on a cluster, then the other
    way round, gives an uninterrupted local run's table row for row, in the chunks it was
    cut in."""
    address, procs = bare
    dask_worker(address, tmp_path / "worker.log", procs, nthreads=2)
    out = tmp_path / "run"
    spec = CensusSpec(0, 24, ("easy", "strict"), 4)
    run_census(out, spec, jobs=1, progress=False)
    names = sorted(p.name for p in out.glob("chunk-*.parquet"))
    for name in names[1::2]:
        (out / name).unlink()
    r = run_cli(["stats", "--out", str(out), "--resume", "--engine", "dask", "--scheduler", address, "--quiet"])
    assert r.exit_code == 0, r.stderr
    assert "solved 3 chunks (3 of 6 were done already)" in r.stdout
    for name in names[::2]:
        (out / name).unlink()
    r = run_cli(["stats", "--out", str(out), "--resume", "--jobs", "1", "--quiet"])
    assert r.exit_code == 0, r.stderr
    assert sorted(p.name for p in out.glob("chunk-*.parquet")) == names
    assert [i["engine"] for i in read_manifest(out)["invocations"]] == ["local", "dask", "local"]
    pd.testing.assert_frame_equal(load_results(out, allow_incomplete=False).drop(columns=TIMING),
                                  _local_table(tmp_path / "local", spec))


def test_a_run_stopped_beside_the_same_run_on_the_cluster_takes_nothing_from_it(bare, tmp_path):
    """A guarantee: two clients run the same deals into two folders on one cluster, so their
    tasks have the same names and the scheduler shares them; one is stopped with Ctrl-C,
    and cancelling its tasks as it stops must not cancel the other's. The other finishes
    with the whole table, and the stopped one resumes to the same table."""
    address, procs = bare
    dask_worker(address, tmp_path / "worker.log", procs)

    def run(out: Path, *extra: str) -> subprocess.Popen:
        p = subprocess.Popen([sys.executable, "-m", "golfsolve", "stats", "--count", "60", "--rules", "easy,strict",
                              "--chunk-size", "2", "--out", str(out), "--engine", "dask", "--scheduler", address,
                              "--quiet", *extra], env=pythonpath_env(), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
        procs.append(p)
        return p

    a, b = run(tmp_path / "a"), run(tmp_path / "b")
    wait_for(lambda: len(list((tmp_path / "a").glob("chunk-*.parquet"))) >= 2 or a.poll() is not None,
             "the first chunks")
    os.killpg(a.pid, signal.SIGINT)
    assert a.wait(60) in (0, 130), a.stderr.read()
    assert b.wait(120) == 0, b.stderr.read()
    again = run(tmp_path / "a", "--resume")
    assert again.wait(120) == 0, again.stderr.read()
    local = _local_table(tmp_path / "local", CensusSpec(0, 60, ("easy", "strict"), 2))
    for out in ("a", "b"):
        pd.testing.assert_frame_equal(load_results(tmp_path / out, allow_incomplete=False).drop(columns=TIMING), local)


def test_a_chunk_another_client_cancelled_is_named_so(bare, tmp_path):
    """Another client of a shared cluster cancelled the run's tasks (``client.cancel(...,
    force=True)``, or a restart of the cluster): the run said "the connection to the Dask
    scheduler was lost" while the scheduler was there all along. Now the line says the
    chunk was cancelled by another client; the finished chunks are kept for --resume."""
    address, procs = bare
    dask_worker(address, tmp_path / "worker.log", procs)
    out = tmp_path / "run"
    run = subprocess.Popen([sys.executable, "-m", "golfsolve", "stats", "--count", "400", "--chunk-size", "2",
                            "--out", str(out), "--engine", "dask", "--scheduler", address, "--quiet"],
                           env=pythonpath_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    procs.append(run)
    wait_for(lambda: len(list(out.glob("chunk-*.parquet"))) >= 2 or run.poll() is not None, "the first chunks")
    with distributed.Client(address, timeout="30s") as other:
        keys = other.run_on_scheduler(lambda dask_scheduler: [k for k in dask_scheduler.tasks
                                                             if str(k).startswith("golfsolve-")])
        other.cancel([distributed.Future(k, other) for k in keys], force=True)
    _, stderr = run.communicate(timeout=120)
    assert run.returncode == 1, stderr
    (line,) = stderr.strip().splitlines()
    assert f"was cancelled on the Dask scheduler at {address} by another client" in line, line
    assert line.endswith("run the same command with --resume to finish"), line


def test_a_worker_with_other_code_joining_mid_run_stops_it_saying_what_is_saved(bare, tmp_path):
    """A worker with other golfsolve code joined a running run (none was there when the
    workers were checked): its first task stopped the run with the one line of a refused
    input, and no word of the chunks saved nor of --resume. Now the line says both, exit 2
    (the user's cluster to set right)."""
    import shutil

    address, procs = bare
    other = tmp_path / "other"
    shutil.copytree(ROOT / "golfsolve", other / "golfsolve", ignore=shutil.ignore_patterns("__pycache__"))
    solver = other / "golfsolve" / "solitaire" / "solver.py"
    solver.write_text(solver.read_text(encoding="utf-8") + "\n# another version\n", encoding="utf-8")
    out = tmp_path / "run"
    run = subprocess.Popen([sys.executable, "-m", "golfsolve", "stats", "--count", "8", "--chunk-size", "2",
                            "--out", str(out), "--engine", "dask", "--scheduler", address, "--quiet"],
                           env=pythonpath_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    procs.append(run)
    wait_for(lambda: (out / "_manifest.json").exists() or run.poll() is not None, "the run to start")
    dask_worker(address, tmp_path / "worker.log", procs, env=pythonpath_env(str(other)), cwd=tmp_path)
    _, stderr = run.communicate(timeout=120)
    assert run.returncode == 2, stderr
    (line,) = [x for x in stderr.strip().splitlines() if not x.startswith("golfsolve: note: ")]
    assert "runs other golfsolve code than this machine" in line, line
    assert line.endswith(f"0 of 4 chunks are saved in {out}; run the same command with --resume to finish"), line
