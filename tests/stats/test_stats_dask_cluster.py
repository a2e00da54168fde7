"""A census on a real Dask cluster survives a lost worker and a lost client.

The scheduler and two workers are separate processes started as a user starts them
(``dask scheduler``, ``dask worker``), on loopback; the census runs as the real command.
Killing a worker with SIGKILL mid-run, or killing the command and running it again with
``--resume``, must give the table of an uninterrupted local run, row for row: no row
missing, none twice.

The other tests meet the cluster as users do: wrong or odd ``--scheduler`` addresses, a
cluster without workers or with workers that cannot run (or run other) golfsolve code, a
scheduler or every worker killed mid-run, Ctrl-C while the cluster is asked or starts, runs
moved between engines and clusters, two runs on one cluster. Every process a test starts is
stopped when it ends, whatever happened.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
from hostile_helpers import one_line_exit_2
from run_helpers import (
    ROOT,
    bare_cluster,
    dask_scheduler,
    dask_worker,
    pythonpath_env,
    stop_processes,
    wait_for,
)
from run_helpers import dask_scheduler as _scheduler
from run_helpers import dask_worker as _worker
from run_helpers import pythonpath_env as _env
from run_helpers import stop_processes as _stop
from run_helpers import wait_for as _wait_for

from golfsolve.errors import InputError
from golfsolve.stats.census import CensusSpec, load_results, read_manifest, run_census

distributed = pytest.importorskip("dask.distributed")
psutil = pytest.importorskip("psutil")

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


distributed = pytest.importorskip("dask.distributed")


def _workers(address: str) -> int:
    with distributed.Client(address, timeout="30s") as c:
        return c.scheduler_info(n_workers=0)["n_workers"]


@pytest.fixture(scope="module")
def one_worker_cluster(tmp_path_factory):
    """The address of a scheduler with one worker (this checkout's golfsolve)."""
    tmp = tmp_path_factory.mktemp("cluster")
    procs: list = []
    try:
        address = _scheduler(tmp, procs)
        _worker(address, tmp / "worker.log", procs)
        yield address
    finally:
        _stop(procs)


bare = pytest.fixture(name="bare")(bare_cluster)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stats_args(out: Path, address: str, *extra: str) -> list[str]:
    return ["stats", "--count", "12", "--chunk-size", "4", "--out", str(out), "--engine", "dask",
            "--scheduler", address, "--quiet", *extra]


def test_a_closed_port_is_refused_at_once(run_cli, tmp_path):
    """A typo in the port (nothing listens there): Dask retried the refused connection for
    20 s in silence before the one-line error. Now one plain attempt says at once that
    nothing listens there, before anything is made."""
    address = f"tcp://127.0.0.1:{_free_port()}"
    t0 = time.monotonic()
    r = run_cli(_stats_args(tmp_path / "out", address))
    one_line_exit_2(r, f"cannot connect to the Dask scheduler at {address}", "nothing listens on port")
    assert time.monotonic() - t0 < 15  # liveness, not speed: the retries took 20 s
    assert not (tmp_path / "out").exists()


def _listen(speak: bytes | None):
    """A TCP server on loopback that accepts connections and either says nothing or sends
    ``speak`` (another protocol's greeting): ``(port, stop, connections accepted)``."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            if speak is not None:
                conn.sendall(speak)

    threading.Thread(target=serve, daemon=True).start()

    def stop() -> None:
        server.close()
        for c in held:
            c.close()

    return server.getsockname()[1], stop, held


@pytest.mark.parametrize("speak", [None, b"SSH-2.0-OpenSSH_9.6\r\n" * 4], ids=["silent", "another-protocol"])
def test_a_port_where_no_scheduler_listens_is_refused_in_bounded_time(run_cli, tmp_path, monkeypatch, speak):
    """--scheduler at a port where something else listens (the dashboard's 8787, another
    service): on a server that waits for a request, Dask's handshake read, which has no
    deadline, waited for ever; on one that greets first, the greeting read as a frame length
    ended in "internal error: MemoryError: Unable to allocate 3.07 EiB". Now the scheduler is
    asked who it is within a deadline, and either is one line, exit 2."""
    from golfsolve.stats import cluster

    monkeypatch.setattr(cluster, "ANSWER_SECONDS", 1.0)  # 10 s in use; the test need not wait that long
    port, stop, _ = _listen(speak)
    try:
        t0 = time.monotonic()
        r = run_cli(_stats_args(tmp_path / "out", f"tcp://127.0.0.1:{port}"))
        assert time.monotonic() - t0 < 30  # liveness, not speed: the read waited for ever
    finally:
        stop()
    one_line_exit_2(r, "cannot connect to the Dask scheduler", "the dashboard's port")
    if speak is None:  # asyncio's timeout, another class than Python's on 3.10, is the deadline's too
        assert "did not answer as a Dask scheduler within 1 s" in r.stderr
    assert not (tmp_path / "out").exists()


def test_a_workers_address_given_for_the_schedulers_is_named_so(run_cli, one_worker_cluster, tmp_path):
    """A user copied a worker's address (its log's "Start worker at") for the scheduler's:
    "internal error: TypeError: Worker.identity() got an unexpected keyword argument
    'n_workers'". Now the one line says it is a worker and gives its scheduler's address."""
    with distributed.Client(one_worker_cluster, timeout="30s") as c:
        worker = next(iter(c.scheduler_info()["workers"]))
    r = run_cli(_stats_args(tmp_path / "out", worker))
    one_line_exit_2(r, "that is a Dask worker", f"give its scheduler's address, {one_worker_cluster}")
    assert not (tmp_path / "out").exists()


def test_jobs_beside_a_scheduler_is_refused_before_connecting(run_cli, tmp_path, monkeypatch):
    """``--jobs 8 --scheduler ADDRESS`` (or with $DASK_SCHEDULER_ADDRESS) was accepted and
    ignored: the cluster's workers solve, whatever --jobs said. Now it is refused in one
    line before any connection (here to a port where nothing listens), and so is the
    library's ``jobs`` beside a ``scheduler``."""
    address = f"tcp://127.0.0.1:{_free_port()}"
    r = run_cli(_stats_args(tmp_path / "out", address, "--jobs", "8"))
    one_line_exit_2(r, "--jobs sets the worker processes of a run on this machine", f"dask worker {address}")
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", address)
    r = run_cli(["stats", "--count", "4", "--out", str(tmp_path / "out"), "--engine", "dask", "--jobs", "2"])
    one_line_exit_2(r, "($DASK_SCHEDULER_ADDRESS)")
    with pytest.raises(InputError, match="--jobs sets the worker processes"):
        run_census(tmp_path / "out", CensusSpec(0, 4, ("easy",)), engine="dask", scheduler=address, jobs=2,
                   progress=False)
    assert not (tmp_path / "out").exists()


def test_runs_of_other_settings_never_share_a_task(tmp_path, monkeypatch):
    """Dask hands a task's result to every client that asks for a task of that name, and a
    task was named by its chunk alone: a ``--spread`` run beside a run of consecutive deals
    on one cluster wrote the other run's deals into its chunks (refused afterwards as
    damaged), and a full run beside a ``--fields winnable`` one gave each other's rows
    without a word. Now a task's name carries a digest of what it computes: runs of other
    settings never share one, and the same run's tasks keep their names."""
    keys: dict[str, list[str]] = {}
    submit = distributed.Client.submit

    def spy(self, fn, *args, key=None, **kw):
        keys.setdefault(current, []).append(key)
        return submit(self, fn, *args, key=key, **kw)

    monkeypatch.setattr(distributed.Client, "submit", spy)
    specs = {"consecutive": CensusSpec(0, 8, ("easy", "strict"), 4),
             "spread": CensusSpec(0, 8, ("easy", "strict"), 4, stride=1_004_000_000 - 1),
             "verdict": CensusSpec(0, 8, ("easy", "strict"), 4, fields="winnable"),
             "again": CensusSpec(0, 8, ("easy", "strict"), 4)}
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=None) as lc:
        for current, spec in specs.items():
            run_census(tmp_path / current, spec, engine="dask", scheduler=lc.scheduler_address, progress=False)
    sets = {name: set(k) for name, k in keys.items()}
    assert len(sets["consecutive"]) == 2
    assert not sets["consecutive"] & sets["spread"] and not sets["consecutive"] & sets["verdict"]
    assert sets["again"] == sets["consecutive"]
    assert {k.rsplit("-", 1)[0] for k in sets["spread"]} == {k.rsplit("-", 1)[0] for k in sets["consecutive"]} == {
        "golfsolve-chunk-0000000000.parquet-easy-strict", "golfsolve-chunk-0000000004.parquet-easy-strict"}
    assert load_results(tmp_path / "spread")["deal"].tolist()[::2] == [specs["spread"].deal(i) for i in range(8)]


def test_a_scheduler_without_workers_says_so_and_waits(bare, tmp_path):
    """A scheduler with no worker connected (not started yet, or all of them lost): the run
    sat at 0 chunks in silence. Now it says so in a note naming the command that adds a
    worker, waits, and finishes when one connects."""
    address, procs = bare
    out = tmp_path / "out"
    run = subprocess.Popen([sys.executable, "-m", "golfsolve", *_stats_args(out, address)], env=_env(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    procs.append(run)
    err = []
    threading.Thread(target=lambda: err.extend(run.stderr), daemon=True).start()
    _wait_for(lambda: err, "the note", 60)
    assert err[0].strip() == (f"golfsolve: note: the Dask scheduler at {address} has no workers; waiting for one "
                              f"to connect (dask worker {address})")
    assert run.poll() is None
    _worker(address, tmp_path / "worker.log", procs)
    assert run.wait(120) == 0, "".join(err)
    assert len(err) == 1
    assert len(load_results(out, allow_incomplete=False)) == 36


def test_a_worker_that_cannot_import_golfsolve_is_named_before_anything_is_solved(run_cli, bare, tmp_path):
    """A worker started where Python does not find golfsolve (another directory, another
    PYTHONPATH, a machine without it): it died reading the first task, and the run waited
    for ever in silence. Now every worker is asked first; the run stops in one line naming
    the worker, and leaves no folder."""
    address, procs = bare
    block = tmp_path / "site"
    block.mkdir()
    # a machine without golfsolve: its import fails as there
    (block / "sitecustomize.py").write_text(
        "import sys\n"
        "class _NoGolfsolve:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'golfsolve':\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, _NoGolfsolve())\n")
    _worker(address, tmp_path / "worker.log", procs, env=_env(str(block)), cwd=tmp_path)
    r = run_cli(_stats_args(tmp_path / "out", address))
    one_line_exit_2(r, "cannot import golfsolve (ModuleNotFoundError: No module named 'golfsolve')",
                     "the same PYTHONPATH")
    assert not (tmp_path / "out").exists()
    assert _workers(address) == 1  # asked, not killed


def test_a_worker_running_other_golfsolve_code_is_refused(run_cli, bare, tmp_path):
    """A worker that imports another golfsolve (another checkout on its PYTHONPATH, an older
    install) solved the run's chunks with its own code, mixed in the table with this
    machine's. Now the run stops before anything is solved, naming the worker."""
    address, procs = bare
    other = tmp_path / "other"
    shutil.copytree(ROOT / "golfsolve", other / "golfsolve", ignore=shutil.ignore_patterns("__pycache__"))
    solver = other / "golfsolve" / "solitaire" / "solver.py"
    solver.write_text(solver.read_text(encoding="utf-8") + "\n# another version\n", encoding="utf-8")
    _worker(address, tmp_path / "worker.log", procs, env=_env(str(other)), cwd=tmp_path)
    r = run_cli(_stats_args(tmp_path / "out", address))
    one_line_exit_2(r, "runs other golfsolve code than this machine", "install the same golfsolve on every machine")
    assert not (tmp_path / "out").exists()


def test_a_task_on_a_worker_that_joined_with_other_code_is_refused(monkeypatch):
    """The workers are asked when the run starts; one that joins later with other code is
    stopped by the run's first task on it, which compares the digest it was given."""
    from golfsolve.stats import census
    from golfsolve.stats.runblocks import Chunk

    class _Worker:
        address = "tcp://10.0.0.9:4000"

    monkeypatch.setattr(census._local, "warm", False, raising=False)
    monkeypatch.setattr(sys.modules["distributed"], "get_worker", lambda: _Worker())
    with pytest.raises(InputError, match="the Dask worker tcp://10.0.0.9:4000 runs other golfsolve code"):
        census._dask_task(Chunk("chunk-0000000000.parquet", 0, 1, ("easy",)), CensusSpec(0, 1, ("easy",)), "0" * 64)


#: ``python -m golfsolve`` with the run's look at an idle cluster after ``sys.argv[1]`` seconds
#: instead of 5: a test that waits for that look need not wait the full 5 s.
_IDLE_CHECK_AFTER = """
import sys
from golfsolve.stats import cluster
from golfsolve.cli.main import main

cluster.IDLE_CHECK_SECONDS = float(sys.argv.pop(1))
sys.argv[0] = "golfsolve"
main()
"""


def _census_run(out: Path, address: str, idle_check: float | None = None) -> subprocess.Popen:
    """A 200-deal census of 2-deal chunks on the cluster at ``address``, in its own session
    (``idle_check``: the seconds without a finished chunk before it looks at the cluster)."""
    start = ["-m", "golfsolve"] if idle_check is None else ["-c", _IDLE_CHECK_AFTER, str(idle_check)]
    return subprocess.Popen([sys.executable, *start, "stats", "--count", "200", "--chunk-size", "2",
                             "--out", str(out), "--engine", "dask", "--scheduler", address, "--quiet"],
                            env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


@pytest.fixture(scope="module")
def local_census_table(tmp_path_factory) -> pd.DataFrame:
    """:func:`_census_run`'s table, run in this process with one job (its timing columns left out)."""
    out = tmp_path_factory.mktemp("local") / "run"
    run_census(out, CensusSpec(0, 200, ("easy", "classic", "strict"), 2), jobs=1, progress=False)
    return load_results(out).drop(columns=TIMING)


def test_a_scheduler_killed_mid_run_is_one_line_and_the_run_resumes(tmp_path, local_census_table):
    """The scheduler killed mid-run: Dask's reconnect tracebacks filled the screen and the
    last line was "cannot go on: in <TCP (closed) ConnectionPool.gather ...>:
    ConnectionResetError", with no word of the chunks saved. Now one line says the
    scheduler was lost, how many chunks are saved and to run --resume (exit 1); the resumed
    run on a new scheduler gives the local run's table, row for row."""
    procs: list = []
    try:
        address = _scheduler(tmp_path, procs)
        _worker(address, tmp_path / "worker.log", procs)
        out = tmp_path / "run"
        run = _census_run(out, address)
        procs.append(run)
        _wait_for(lambda: len(list(out.glob("chunk-*.parquet"))) >= 3, "the first chunks")
        procs[0].send_signal(signal.SIGKILL)
        _, stderr = run.communicate(timeout=120)
        assert run.returncode == 1, stderr
        (line,) = stderr.strip().splitlines()
        done = len(list(out.glob("chunk-*.parquet")))
        assert line == (f"golfsolve: the connection to the Dask scheduler at {address} was lost: {done} of 100 "
                        f"chunks are saved in {out}; run the same command with --resume to finish")
        assert read_manifest(out)["invocations"][-1]["status"] == "interrupted"
        _stop(procs)
        procs.clear()
        again = _scheduler(tmp_path, procs, "scheduler2")
        _worker(again, tmp_path / "worker2.log", procs)
        # in its own process, as a person resumes it: a Dask client in the test's process would leave
        # its threads behind for the next test that forks
        r = subprocess.run([sys.executable, "-m", "golfsolve", "stats", "--out", str(out), "--resume", "--engine",
                            "dask", "--scheduler", again, "--quiet"], env=_env(), capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, r.stderr
    finally:
        _stop(procs)
    got = load_results(out, allow_incomplete=False).drop(columns=TIMING)
    assert not got.duplicated(["deal", "rules"]).any()
    pd.testing.assert_frame_equal(got, local_census_table)


def test_all_workers_killed_mid_run_is_said_and_the_run_goes_on_with_new_ones(bare, tmp_path, local_census_table):
    """Every worker killed with SIGKILL mid-run: the run sat still in silence, and where a
    chunk had finished on a worker that died before its table was fetched, it waited there
    without ever looking at the cluster again. Now a note says the scheduler has no
    workers; a new worker finishes the run, with the local run's table row for row."""
    address, procs = bare
    _worker(address, tmp_path / "worker.log", procs)
    out = tmp_path / "run"
    run = _census_run(out, address, idle_check=1.0)
    procs.append(run)
    err = []
    threading.Thread(target=lambda: err.extend(run.stderr), daemon=True).start()
    _wait_for(lambda: len(list(out.glob("chunk-*.parquet"))) >= 3, "the first chunks")
    procs[1].send_signal(signal.SIGKILL)
    _wait_for(lambda: err, "the note", 60)
    assert err[0].startswith(f"golfsolve: note: the Dask scheduler at {address} has no workers")
    assert run.poll() is None and len(list(out.glob("chunk-*.parquet"))) < 100
    _worker(address, tmp_path / "worker2.log", procs)
    assert run.wait(120) == 0, "".join(err)
    got = load_results(out, allow_incomplete=False).drop(columns=TIMING)
    pd.testing.assert_frame_equal(got, local_census_table)


def test_a_chunk_dask_gave_up_on_is_one_line_with_resume(tmp_path):
    """A chunk on which Dask gave up after it killed its workers (three by default:
    killed machines, or out of memory) reached the command as "internal error:
    KilledWorker". Now it is a lost cluster: one line naming the chunk, the finished chunks
    kept, and --resume to try it again."""
    from distributed.scheduler import KilledWorker
    from golfsolve.stats.cluster import ClusterLost, dask_results

    from golfsolve.stats.runblocks import Chunk

    def killed(chunk, spec, digest):
        raise KilledWorker(f"golfsolve-{chunk.name}", SimpleNamespace(address="tcp://10.0.0.9:4000"), 3)

    chunk = Chunk("chunk-0000000000.parquet", 0, 2, ("easy",))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=None) as lc, distributed.Client(lc) as client:
        with pytest.raises(ClusterLost) as e:
            list(dask_results([chunk], CensusSpec(0, 2, ("easy",), 2), client, lc.scheduler_address, killed))
    assert e.value.what == ("chunk-0000000000.parquet was on Dask workers that all stopped while solving it "
                            "(killed, or out of memory?)")


def test_ctrl_c_while_the_scheduler_is_asked_stops_at_once(tmp_path):
    """Ctrl-C while the run waited for an answer from --scheduler: the command went on
    waiting until the deadline, then said "OUT holds no golfsolve run (no _manifest.json)"
    with exit 2, as if the folder were at fault. Now it stops at once: "interrupted before
    the run started; nothing was written", exit 130."""
    port, stop, held = _listen(None)
    out = tmp_path / "out"
    try:
        run = subprocess.Popen([sys.executable, "-m", "golfsolve", *_stats_args(out, f"tcp://127.0.0.1:{port}")],
                               env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
        try:
            # the plain connection, then Dask's, which waits for the silent port's answer
            _wait_for(lambda: len(held) >= 2, "the run to ask the port", 60)
            time.sleep(0.3)
            assert run.poll() is None
            t0 = time.monotonic()
            run.send_signal(signal.SIGINT)
            _, stderr = run.communicate(timeout=30)
            assert time.monotonic() - t0 < 15  # liveness, not speed, far below the 30 s wait
        finally:
            _stop([run])
    finally:
        stop()
    assert run.returncode == 130, stderr
    assert stderr.strip() == "golfsolve: interrupted before the run started; nothing was written"
    assert not out.exists()


def test_tls_without_tls_settings_names_them(run_cli, tmp_path):
    """``--scheduler tls://...`` on a machine without Dask's TLS settings: the line blamed
    the other side ("does not speak to a Dask client (TypeError; the dashboard's port...)").
    Now it gives Dask's own reason and names where this machine's TLS settings live."""
    port, stop, _ = _listen(None)
    try:
        r = run_cli(_stats_args(tmp_path / "out", f"tls://127.0.0.1:{port}"))
    finally:
        stop()
    one_line_exit_2(r, "ssl_context", "distributed.comm.tls")
    assert "dashboard" not in r.stderr


def test_ctrl_c_of_a_run_on_a_private_cluster_is_one_line(tmp_path):
    """``--engine dask`` without a scheduler starts a private cluster whose worker
    processes share the terminal: Ctrl-C reached them too, and each printed a
    KeyboardInterrupt traceback and Dask's warnings around the run's own line. Now they
    ignore it (the run stops them), and the one line is all that is printed."""
    out = tmp_path / "run"
    run = subprocess.Popen([sys.executable, "-m", "golfsolve", "stats", "--count", "2000", "--chunk-size", "5",
                            "--out", str(out), "--engine", "dask", "--jobs", "1", "--quiet"], env=_env(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _wait_for(lambda: len(list(out.glob("chunk-*.parquet"))) >= 3, "the first chunks")
        os.killpg(run.pid, signal.SIGINT)  # as the terminal sends it: to every process of the group
        _, stderr = run.communicate(timeout=60)
    finally:
        _stop([run])
    assert run.returncode == 130, stderr
    (line,) = stderr.strip().splitlines()
    assert line.startswith("golfsolve: interrupted: ") and line.endswith("run the same command with --resume to finish")


psutil = pytest.importorskip("psutil")


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
    one_line_exit_2(r, f"the Dask worker {worker} did not answer within 2 s", "restart it")
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
    one_line_exit_2(r, words)
    assert not (tmp_path / "out").exists()


def test_a_scheduler_file_given_for_its_address_names_the_address(run_cli, tmp_path):
    """``--scheduler scheduler.json`` (the file ``dask scheduler --scheduler-file`` writes)
    said "missing port number in address"; now the line gives the address the file holds."""
    sched = tmp_path / "scheduler.json"
    sched.write_text(json.dumps({"type": "Scheduler", "address": "tcp://10.1.2.3:8786"}))
    r = run_cli(["stats", "--count", "2", "--out", str(tmp_path / "out"), "--engine", "dask",
                 "--scheduler", str(sched)])
    one_line_exit_2(r, f"not its scheduler file {sched}: give --scheduler tcp://10.1.2.3:8786")


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
