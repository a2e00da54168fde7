"""What the tests of run folders start from (tests/stats, the grid runs' tests): finished runs made in
this process, commands run in forked children, Dask clusters, and a reader of the reports' tables."""

from __future__ import annotations

import time
from pathlib import Path

import pytest


def made_here(*args: str) -> None:
    """Run ``golfsolve ARGS`` in this process: for a run folder the tests start from, not a
    command under test (a new process costs about 2 s of CPU for imports and kernels)."""
    from golfsolve.cli.main import main

    with pytest.raises(SystemExit) as e:
        main(list(args))
    assert e.value.code == 0


def as_before_setting(run: Path, setting: str, key: "str | None" = "player", chunks: bool = False) -> None:
    """Make ``run`` what golfsolve wrote before the player setting ``setting`` existed: none in
    the manifest's ``key`` (and, with ``chunks``, in no chunk's record of its settings); with
    ``key`` None, ``setting`` is a param of the run itself (a marker such as ``lost_at``)."""
    _rewrite_setting(run, key, lambda settings: settings.pop(setting), chunks)


def as_played_with(run: Path, setting: str, value, key: str = "player") -> None:
    """Make ``run`` what golfsolve wrote when its player's ``setting`` was ``value`` (a preset
    changed since): so in the manifest's ``key`` and in every chunk's record of its settings."""
    _rewrite_setting(run, key, lambda settings: settings.update({setting: value}), True)


def _rewrite_setting(run: Path, key: "str | None", change, chunks: bool) -> None:
    import json

    mp = run / "_manifest.json"
    m = json.loads(mp.read_text())
    change(m["params"] if key is None else m["params"][key])
    mp.write_text(json.dumps(m))
    if not chunks:
        return
    import pyarrow.parquet as pq

    for chunk in run.glob("chunk-*.parquet"):
        table = pq.read_table(chunk)
        meta = dict(table.schema.metadata)
        made = json.loads(meta[b"golfsolve.made_with"])
        change(made["params"] if key is None else made["params"][key])
        meta[b"golfsolve.made_with"] = json.dumps(made, sort_keys=True, separators=(",", ":")).encode()
        pq.write_table(table.replace_schema_metadata(meta), chunk)


def finished_stats_run(out: Path) -> Path:
    """A finished stats run in ``out``: deals 0..5 under easy and classic, chunks of 2 deals."""
    made_here("stats", "--count", "6", "--rules", "easy,classic", "--chunk-size", "2", "--jobs", "1", "--out", str(out),
              "-q")
    return out


#: The fork server's loop (see :class:`CommandForks`): imports the modules it is given, runs
#: nothing, then forks one child per command and reports how it ended.
_FORK_SERVER = r"""
import json, os, runpy, signal, sys, traceback
for name in sys.argv[1:]:
    __import__(name)
reply = os.fdopen(os.dup(1), "w")
for line in sys.stdin:
    args, files, env, timeout = json.loads(line)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            for fd, path, mode in zip((0, 1, 2), files, (os.O_RDONLY, os.O_WRONLY, os.O_WRONLY)):
                f = os.open(path, mode)
                os.dup2(f, fd)
                os.close(f)
            os.environ.update(env)
            signal.alarm(timeout)  # a hang ends the command (SIGALRM), as a subprocess timeout would
            sys.argv = ["golfsolve", *args]
            try:
                runpy.run_module("golfsolve", run_name="__main__", alter_sys=True)  # python -m golfsolve
                code = 0
            except SystemExit as e:  # as the interpreter ends on it
                code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
                if not isinstance(e.code, (int, type(None))):
                    print(e.code, file=sys.stderr)
            except BaseException:
                traceback.print_exc()
        finally:
            for s in (sys.stdout, sys.stderr):
                try:
                    s.flush()
                except Exception:
                    pass
            os._exit(code)
    _, status, usage = os.wait4(pid, 0)
    reply.write(json.dumps([os.waitstatus_to_exitcode(status), usage.ru_maxrss]) + "\n")
    reply.flush()
"""


class CommandForks:
    """``golfsolve ARGS`` each in a new process, forked from a server that has imported
    ``preload`` (by default what the run-folder commands import: pandas, pyarrow,
    matplotlib, golfsolve's command and stats modules) and run nothing: each command still
    starts from a fresh state in its own process, with its exit code, output and peak
    memory (``os.wait4``), without the 1-4 s of CPU a new interpreter spends on those
    imports. For tests about what a command does with its input, not about the interpreter
    starting (imports, the environment read at import, signals: those start a real
    ``python -m golfsolve``)."""

    PRELOAD = ("pandas", "pyarrow.parquet", "matplotlib", "pydantic", "golfsolve.cli.main", "golfsolve.cli.stats",
               "golfsolve.stats.census", "golfsolve.stats.report", "golfsolve.stats.manifestmodel")

    def __init__(self, preload: tuple = PRELOAD) -> None:
        import subprocess
        import sys

        self._server = subprocess.Popen([sys.executable, "-c", _FORK_SERVER, *preload], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)

    def completed(self, *args: str, input: str | bytes = "", env: dict | None = None, timeout: int = 300):
        """``golfsolve ARGS`` with ``input`` on stdin and ``env`` added to the environment:
        a ``subprocess.CompletedProcess`` (text out) with ``maxrss``, its peak memory in KB."""
        import json
        import subprocess
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            files = [f"{tmp}/{name}" for name in ("in", "out", "err")]
            Path(files[0]).write_bytes(input if isinstance(input, bytes) else input.encode("utf-8"))
            Path(files[1]).touch()
            Path(files[2]).touch()
            self._server.stdin.write(json.dumps([list(args), files, env or {}, timeout]) + "\n")
            self._server.stdin.flush()
            line = self._server.stdout.readline()
            assert line, "the fork server died"
            code, rss = json.loads(line)
            out, err = (Path(f).read_bytes().decode("utf-8", "replace") for f in files[1:])
        r = subprocess.CompletedProcess(["golfsolve", *args], code, out, err)
        r.maxrss = rss
        return r

    def run(self, *args: str) -> tuple[int, str, int]:
        """Exit code, stderr and peak memory (KB) of ``golfsolve ARGS`` in a new process."""
        r = self.completed(*args)
        return r.returncode, r.stderr, r.maxrss

    def close(self) -> None:
        self._server.stdin.close()
        self._server.wait(timeout=60)


# -- the suite's one cold build of the solver's ahead-of-time module ----------------------

#: Where the cold batch keeps its run, its cache and its record, under the test run's shared temporary folder.
COLD = "cold-solver-batch"


def _cold_batch(base: Path) -> dict:
    """A real cold batch, ``golfsolve stats --jobs 2`` with ``NUMBA_CACHE_DIR`` at an empty
    folder, and a ``golfsolve solve`` started on the same folder once the batch has said it
    compiles (so while it builds): the cache folder and both commands' exit codes and output."""
    import os
    import subprocess
    import sys
    import time

    cache = base / "cache"
    cache.mkdir(parents=True)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("GOLFSOLVE_NATIVE", None)

    def start(args, name):
        out, err = (base / f"{name}.out").open("w"), (base / f"{name}.err").open("w")
        proc = subprocess.Popen([sys.executable, "-m", "golfsolve", *args], cwd=base, env=env, stdout=out, stderr=err)
        return proc, out, err

    def finish(proc, out, err) -> dict:
        try:
            code = proc.wait(timeout=600)  # a hang guard, not a time limit
        except subprocess.TimeoutExpired:
            code = "hung"
        finally:
            proc.kill()
            out.close(), err.close()
        return {"args": proc.args, "returncode": code, "stdout": Path(out.name).read_text(),
                "stderr": Path(err.name).read_text()}

    batch = start(["stats", "--start", "GO1-E-AAAAAAA", "--count", "4", "--jobs", "2", "--chunk-size", "2",
                   "--out", str(base / "run")], "batch")
    try:
        # the second process starts once the first is compiling (it holds the build lock then)
        for _ in range(6000):  # a hang guard: 600 s
            if (base / "batch.err").read_text() or batch[0].poll() is not None:
                break
            time.sleep(0.1)
        solve = finish(*start(["solve", "GO1-E-AAAAAAB", "--json"], "solve"))
    finally:
        record = {"cache": str(cache), "batch": finish(*batch), "solve": solve}
    return record


def _seed(cache: Path):
    """Copy the module the cold batch built in ``cache`` into the suite's own cache (where
    this process's ``NUMBA_CACHE_DIR`` has it), as its build would publish it."""
    import os
    import shutil

    from golfsolve import aotcache
    from golfsolve.solitaire import native

    name = aotcache.module_name(native.SPEC) + aotcache._suffix()
    built = next(iter(cache.rglob(name)), None)
    folder = next((f for f in aotcache._folders(native.SPEC) if aotcache._writable(f)), None)
    if built is None or folder is None:
        return
    for f in (built.with_name(name + ".sha256"), built):  # the digest first, as the build does
        shutil.copyfile(f, folder / (f.name + ".part"))
        os.replace(folder / (f.name + ".part"), folder / f.name)


def cold_solver_batch(shared: Path, wait: bool) -> dict | None:
    """The cold batch (:func:`_cold_batch`) of this test run, run once whatever the number of
    xdist workers (``shared``: the folder they share) and serving the suite too: while it
    builds, this process holds the build lock of the suite's own cache when that lacks the
    module, and copies the module there after, so the suite's processes wait for this
    build instead of building the same module again. ``wait``: wait for another worker
    running it (else None at once)."""
    import contextlib
    import json
    import os

    try:
        import fcntl
    except ImportError:  # no flock: each asks runs its own
        fcntl = None
    from golfsolve import aotcache
    from golfsolve.solitaire import native

    lock = os.open(shared / (COLD + ".lock"), os.O_RDWR | os.O_CREAT)
    try:
        if fcntl is not None:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                return None
        done = shared / COLD / "record.json"
        if done.is_file():
            return json.loads(done.read_text())
        with contextlib.ExitStack() as stack:
            seed = aotcache.enabled() and aotcache.load(native.SPEC) is None and aotcache.buildable(native.SPEC)
            if seed:
                folder = next(f for f in aotcache._folders(native.SPEC) if aotcache._writable(f))
                stack.enter_context(aotcache._build_lock(folder, aotcache.module_name(native.SPEC), None))
                seed = aotcache.load(native.SPEC) is None  # built while this waited for the lock
            record = _cold_batch(shared / COLD)
            if seed:
                _seed(Path(record["cache"]))
        done.write_text(json.dumps(record))
        return record
    finally:
        os.close(lock)


def wait_for(cond, what: str, timeout: float = 120) -> None:
    """Poll ``cond()`` until it is true; AssertionError naming ``what`` after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


# -- a Dask cluster as users start it: `dask scheduler` and `dask worker` processes --------

#: The checkout under test: what a worker started with :func:`pythonpath_env` imports.
ROOT = Path(__file__).resolve().parent.parent


def start_module(args: list[str], log: Path, env: dict | None = None, cwd: Path | None = None):
    """``python -m ARGS`` in a session of its own (so that :func:`stop_processes` stops what it
    starts too), stderr to ``log``."""
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.DEVNULL, stderr=open(log, "w"),
                            start_new_session=True, env=env, cwd=cwd)


def stop_processes(procs: list) -> None:
    """Kill each of ``procs`` (started by :func:`start_module`) with everything it started."""
    import os
    import signal

    for p in procs:
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                p.kill()
        p.wait()


def pythonpath_env(pythonpath: str | None = str(ROOT)) -> dict:
    """This environment with ``PYTHONPATH`` set to ``pythonpath`` (None: without one)."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    return env


def dask_scheduler(tmp: Path, procs: list, name: str = "scheduler", host: str = "127.0.0.1") -> str:
    """Start a ``dask scheduler`` on loopback (``host``; added to ``procs``); its address."""
    import json

    sched_file = tmp / f"{name}.json"
    procs.append(start_module(["distributed.cli.dask_scheduler", "--host", host, "--port", "0",
                               "--dashboard-address", ":0", "--scheduler-file", str(sched_file)], tmp / f"{name}.log"))
    wait_for(lambda: sched_file.exists() and sched_file.stat().st_size > 0, "the scheduler")
    return json.loads(sched_file.read_text())["address"]


def dask_worker(address: str, log: Path, procs: list, env: dict | None = None, cwd: Path | None = None,
                expect: int = 1, nthreads: int = 1, host: str = "127.0.0.1") -> None:
    """Start a ``dask worker`` of ``nthreads`` threads without a nanny (a killed one stays
    dead) listening on ``host``, added to ``procs``; waits until the scheduler has ``expect``
    workers."""
    from dask import distributed

    procs.append(start_module(["distributed.cli.dask_worker", address, "--nthreads", str(nthreads), "--no-nanny",
                               "--host", host, "--no-dashboard"], log, env or pythonpath_env(), cwd))
    with distributed.Client(address, timeout="30s") as c:
        c.wait_for_workers(expect, timeout=120)


def bare_cluster(tmp_path):
    """``(address, procs)``: a scheduler with no worker; workers a test adds to ``procs`` are
    stopped with it (the ``bare`` fixture of the Dask tests: ``pytest.fixture(name="bare")``)."""
    procs: list = []
    try:
        yield dask_scheduler(tmp_path, procs), procs
    finally:
        stop_processes(procs)


def one_hole_grid_rules(players: int = 2):
    """The default grid rules of ``players`` players on a 4-card grid, one hole a match."""
    from golfsolve.grid.rules import parse_rules

    return parse_rules("default", players=players, holes=1, grid=4)


def finished_grid_run(out, bots=("random", "greedy"), matches=3):
    """A finished grid simulate run in ``out`` (made by the library in this process), a chunk a match."""
    from golfsolve.stats.gridruns import GridSpec, run_grid_simulate

    run_grid_simulate(out, GridSpec(one_hole_grid_rules(), tuple(bots), matches, chunk_size=1), progress=False)
    return out


def md_rows(md: str, section: str) -> dict[str, list[str]]:
    """The first table under ``## section`` of a Markdown report, by its first cell."""
    text = md.split(f"## {section}\n", 1)[1]
    rows = [ln for ln in text.split("\n## ")[0].splitlines() if ln.startswith("| ")][1:]
    return {cells[0]: cells[1:] for cells in ([c.strip() for c in r.strip().strip("|").split("|")] for r in rows)}
