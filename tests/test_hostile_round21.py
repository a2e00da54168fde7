"""Hostile sweep, round 21: census runs on a real Dask cluster, as users run them (``dask
scheduler`` and ``dask worker`` started as separate processes, then ``golfsolve stats
--engine dask --scheduler ADDRESS``): wrong addresses, a cluster without workers or with
workers that cannot run golfsolve, a scheduler killed mid-run, two runs on one cluster.
Each test is a flaw a user met, fixed with a test that fails without its fix. Every process
a test starts is killed when it ends, whatever happened.
"""

from __future__ import annotations

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
from hostile_helpers import one_line_exit_2 as _one_line_exit_2
from run_helpers import bare_cluster
from run_helpers import ROOT
from run_helpers import dask_scheduler as _scheduler
from run_helpers import dask_worker as _worker
from run_helpers import pythonpath_env as _env
from run_helpers import stop_processes as _stop
from run_helpers import wait_for as _wait_for

from golfsolve.errors import InputError
from golfsolve.stats.census import CensusSpec, load_results, read_manifest, run_census

distributed = pytest.importorskip("dask.distributed")

TIMING = ["seconds", "cpu_seconds"]


def _workers(address: str) -> int:
    with distributed.Client(address, timeout="30s") as c:
        return c.scheduler_info(n_workers=0)["n_workers"]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
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


def _stats(out: Path, address: str, *extra: str) -> list[str]:
    return ["stats", "--count", "12", "--chunk-size", "4", "--out", str(out), "--engine", "dask",
            "--scheduler", address, "--quiet", *extra]


def test_a_closed_port_is_refused_at_once(run_cli, tmp_path):
    """A typo in the port (nothing listens there): Dask retried the refused connection for
    20 s in silence before the one-line error. Now one plain attempt says at once that
    nothing listens there, before anything is made."""
    address = f"tcp://127.0.0.1:{_free_port()}"
    t0 = time.monotonic()
    r = run_cli(_stats(tmp_path / "out", address))
    _one_line_exit_2(r, f"cannot connect to the Dask scheduler at {address}", "nothing listens on port")
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
        r = run_cli(_stats(tmp_path / "out", f"tcp://127.0.0.1:{port}"))
        assert time.monotonic() - t0 < 30  # liveness, not speed: the read waited for ever
    finally:
        stop()
    _one_line_exit_2(r, "cannot connect to the Dask scheduler", "the dashboard's port")
    if speak is None:  # asyncio's timeout, another class than Python's on 3.10, is the deadline's too
        assert "did not answer as a Dask scheduler within 1 s" in r.stderr
    assert not (tmp_path / "out").exists()


def test_a_workers_address_given_for_the_schedulers_is_named_so(run_cli, cluster, tmp_path):
    """A user copied a worker's address (its log's "Start worker at") for the scheduler's:
    "internal error: TypeError: Worker.identity() got an unexpected keyword argument
    'n_workers'". Now the one line says it is a worker and gives its scheduler's address."""
    with distributed.Client(cluster, timeout="30s") as c:
        worker = next(iter(c.scheduler_info()["workers"]))
    r = run_cli(_stats(tmp_path / "out", worker))
    _one_line_exit_2(r, "that is a Dask worker", f"give its scheduler's address, {cluster}")
    assert not (tmp_path / "out").exists()


def test_jobs_beside_a_scheduler_is_refused_before_connecting(run_cli, tmp_path, monkeypatch):
    """``--jobs 8 --scheduler ADDRESS`` (or with $DASK_SCHEDULER_ADDRESS) was accepted and
    ignored: the cluster's workers solve, whatever --jobs said. Now it is refused in one
    line before any connection (here to a port where nothing listens), and so is the
    library's ``jobs`` beside a ``scheduler``."""
    address = f"tcp://127.0.0.1:{_free_port()}"
    r = run_cli(_stats(tmp_path / "out", address, "--jobs", "8"))
    _one_line_exit_2(r, "--jobs sets the worker processes of a run on this machine", f"dask worker {address}")
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", address)
    r = run_cli(["stats", "--count", "4", "--out", str(tmp_path / "out"), "--engine", "dask", "--jobs", "2"])
    _one_line_exit_2(r, "($DASK_SCHEDULER_ADDRESS)")
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
    run = subprocess.Popen([sys.executable, "-m", "golfsolve", *_stats(out, address)], env=_env(),
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
    r = run_cli(_stats(tmp_path / "out", address))
    _one_line_exit_2(r, "cannot import golfsolve (ModuleNotFoundError: No module named 'golfsolve')",
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
    r = run_cli(_stats(tmp_path / "out", address))
    _one_line_exit_2(r, "runs other golfsolve code than this machine", "install the same golfsolve on every machine")
    assert not (tmp_path / "out").exists()


def test_a_task_on_a_worker_that_joined_with_other_code_is_refused(monkeypatch):
    """The workers are asked when the run starts; one that joins later with other code is
    stopped by the run's first task on it, which compares the digest it was given."""
    from golfsolve.stats import census
    from golfsolve.stats.runfolder import Chunk

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
def local_table(tmp_path_factory) -> pd.DataFrame:
    """:func:`_census_run`'s table, run in this process with one job (its timing columns left out)."""
    out = tmp_path_factory.mktemp("local") / "run"
    run_census(out, CensusSpec(0, 200, ("easy", "classic", "strict"), 2), jobs=1, progress=False)
    return load_results(out).drop(columns=TIMING)


def test_a_scheduler_killed_mid_run_is_one_line_and_the_run_resumes(tmp_path, local_table):
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
    pd.testing.assert_frame_equal(got, local_table)


def test_all_workers_killed_mid_run_is_said_and_the_run_goes_on_with_new_ones(bare, tmp_path, local_table):
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
    pd.testing.assert_frame_equal(got, local_table)


def test_a_chunk_dask_gave_up_on_is_one_line_with_resume(tmp_path):
    """A chunk on which Dask gave up after it killed its workers (three by default:
    killed machines, or out of memory) reached the command as "internal error:
    KilledWorker". Now it is a lost cluster: one line naming the chunk, the finished chunks
    kept, and --resume to try it again."""
    from distributed.scheduler import KilledWorker

    from golfsolve.stats.cluster import ClusterLost, dask_results
    from golfsolve.stats.runfolder import Chunk

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
        run = subprocess.Popen([sys.executable, "-m", "golfsolve", *_stats(out, f"tcp://127.0.0.1:{port}")],
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
        r = run_cli(_stats(tmp_path / "out", f"tls://127.0.0.1:{port}"))
    finally:
        stop()
    _one_line_exit_2(r, "ssl_context", "distributed.comm.tls")
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
