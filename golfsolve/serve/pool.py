"""Worker processes for the server's CPU-heavy requests, each under a CPU budget.

The event loop must never run a search: a solve, a hint, odds or a rating goes to one of
a few long-lived worker processes, each with its kernels loaded and warm. A worker runs
one job at a time under a CPU budget kept by the operating system: before each job it
arms ``ITIMER_PROF`` (process CPU time), whose signal, left at its default action, ends
the process even inside a compiled kernel that never returns to Python. The pool sees
the worker gone, reaps it (no zombie, no leaked process), answers that request with
:class:`BudgetExceeded` and starts a fresh worker in its place. A wall-clock ceiling
backs the budget up, for a worker that stops without using CPU.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import os
import signal
import sys
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Optional

from ..errors import InputError

#: The default CPU seconds one request may use: room for ``odds`` at its defaults (a work
#: budget of a few seconds of CPU) many times over on a loaded machine, not for a runaway.
CPU_BUDGET = 60.0
#: How many requests may wait for a worker before new ones are turned away as "busy".
MAX_WAITING = 64
#: A worker's first word on a job: until it arrives the job has not begun, so a worker lost
#: before it (killed while idle) costs the request nothing and another worker takes the job.
STARTED = ("started",)
#: How many workers found dead before they took a job one request may try before it gives up.
_RETRIES = 3
#: Seconds before a worker that failed to start is tried again, times the attempt, up to the most.
RESPAWN_DELAY = 1.0
RESPAWN_MAX_DELAY = 30.0


class BudgetExceeded(RuntimeError):
    """A job used up its CPU budget (or its wall-clock ceiling) and its worker was stopped."""


class PoolBusy(RuntimeError):
    """Too many requests are waiting for a worker."""


class WorkerStartError(RuntimeError):
    """A worker process could not start or died warming up (out of memory, of file descriptors)."""


class PoolStopping(RuntimeError):
    """The server is stopping: a request waiting for a worker or for its answer gets none."""


STOPPING = "the server is stopping (Ctrl-C); ask again when it is back"


@dataclass(frozen=True)
class JobError(Exception):
    """A job refused its input: an HTTP status and the one-line message."""

    status: int
    message: str


def _worker_main(conn: Connection, jobs_module: str, warm: bool) -> None:
    """A worker's life: warm up, say ready, then run jobs one at a time until told to stop."""
    import importlib

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle; it stops us
    signal.signal(signal.SIGPROF, signal.SIG_DFL)  # the budget's signal ends the process
    _no_semaphores()
    jobs = importlib.import_module(jobs_module)
    if warm:
        jobs.warm()
    conn.send(("ready", os.getpid()))
    while True:
        try:
            msg = conn.recv()
        except EOFError:  # the server is gone
            return
        if msg is None:
            return
        name, kwargs, budget = msg
        conn.send(STARTED)
        signal.setitimer(signal.ITIMER_PROF, budget)
        try:
            out = ("ok", jobs.run(name, kwargs))
        except InputError as e:
            out = ("error", 400, " ".join(str(e).split()))
        except jobs.NO_ANSWER as e:  # a question without an exact answer: the CLI's exit 1
            out = ("error", 422, " ".join(str(e).split()))
        except Exception as e:  # noqa: BLE001 - an internal error is an answer too, not a dead worker
            out = ("error", 500, f"internal error: {type(e).__name__}: {e}")
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        conn.send(out)


def _no_semaphores() -> None:
    # tqdm's progress bars (quiet here, but made) share a multiprocessing lock, a named semaphore:
    # a worker stopped for its budget cannot release it, and the server's resource tracker then
    # warns of a "leaked semaphore" on the terminal when it stops. A worker needs a thread lock only.
    import threading

    try:
        from tqdm import tqdm
    except ImportError:
        return
    tqdm.set_lock(threading.RLock())


class _Worker:
    def __init__(self, ctx, jobs_module: str, warm: bool) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, jobs_module, warm), daemon=True,
                                name="golfsolve-serve-worker")
        try:
            self.proc.start()
        except BaseException:
            self.conn.close()  # a process that did not start leaves no pipe open
            raise
        finally:
            child.close()
        self.pid = self.proc.pid

    async def receive(self, timeout: Optional[float] = None) -> Any:
        """The worker's next message; EOFError when it died; TimeoutError after ``timeout`` s."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        fd = self.conn.fileno()

        def ready() -> None:
            if not fut.done():
                fut.set_result(None)

        loop.add_reader(fd, ready)
        try:
            await asyncio.wait_for(fut, timeout)
        finally:
            loop.remove_reader(fd)
        return self.conn.recv()  # raises EOFError when the worker is gone

    def kill(self) -> None:
        """Stop the process now and reap it."""
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()


class WorkerPool:
    """``size`` worker processes running the jobs of ``jobs_module`` (its ``run``,
    ``warm`` and ``NO_ANSWER``), one request each at a time, each under ``cpu_budget``
    seconds of CPU."""

    def __init__(self, size: int, jobs_module: str = "golfsolve.serve.jobs", cpu_budget: float = CPU_BUDGET,
                 warm: bool = True, max_waiting: int = MAX_WAITING) -> None:
        self.size = size
        self.jobs_module = jobs_module
        self.cpu_budget = cpu_budget
        self.warm = warm
        self.max_waiting = max_waiting
        self._ctx = multiprocessing.get_context("spawn")  # no fork of a threaded server
        self._idle: Optional[asyncio.Queue] = None
        self._workers: dict[int, _Worker] = {}
        self._waiting = 0
        self._running = 0  # jobs handed to a worker and not yet answered
        self._closed = False
        self._stop: Optional[asyncio.Event] = None  # set by stop(): every caller still waiting is answered at once
        self.replaced = 0  # workers stopped for their budget (or lost) and started afresh

    @property
    def busy(self) -> int:
        """How many workers are running a job now (not one still warming up to replace another)."""
        return self._running

    @property
    def pids(self) -> list[int]:
        """The process ids of the live workers."""
        return sorted(self._workers)

    def reap(self) -> None:
        """Replace the waiting workers found dead (killed from outside while idle): else they
        are reaped only when a request draws them, and until then listed as live."""
        if self._idle is None or all(w.proc.is_alive() for w in self._workers.values()):
            return
        waiting = [self._idle.get_nowait() for _ in range(self._idle.qsize())]
        for w in waiting:
            if w.proc.is_alive():
                self._idle.put_nowait(w)
            else:
                self._replace(w)

    async def start(self) -> None:
        """Start every worker and wait until each has warmed up and said it is ready."""
        self._idle = asyncio.Queue()
        self._stop = asyncio.Event()
        # the first worker compiles whatever numba's cache lacks; the others then only load it
        await self._spawn()
        await asyncio.gather(*(self._spawn() for _ in range(self.size - 1)))

    async def _spawn(self) -> None:
        try:
            w = _Worker(self._ctx, self.jobs_module, self.warm)
        except OSError as e:  # too many open files, no memory for a process: as a worker that died starting
            raise WorkerStartError(f"a worker process failed to start: {e.strerror or e}") from None
        self._workers[w.pid] = w
        try:
            msg = await w.receive(timeout=600)
        except (EOFError, asyncio.TimeoutError):
            self._workers.pop(w.pid, None)
            w.kill()
            raise WorkerStartError("a worker process failed to start") from None
        assert msg[0] == "ready"
        if self._closed:  # the server stopped while this worker warmed up
            self._workers.pop(w.pid, None)
            w.kill()
            return
        self._idle.put_nowait(w)

    def _replace(self, w: _Worker) -> None:
        self._workers.pop(w.pid, None)
        w.kill()
        self.replaced += 1
        if not self._closed:
            asyncio.get_running_loop().create_task(self._respawn())

    async def _respawn(self, warn_after: int = 3) -> None:
        # tried until it starts: given up, the pool stayed short for good, and with no worker
        # left every search waited for ever (a client holding many connections open, so that
        # the server ran out of file descriptors, did that for as long as it ran)
        for i in itertools.count():
            if self._closed:
                return
            try:
                await self._spawn()
            except WorkerStartError:
                if i + 1 == warn_after:
                    sys.stderr.write(f"golfsolve serve: a worker could not be restarted; {len(self._workers)} of "
                                     f"{self.size} are left; it is tried again until one starts\n")
                await asyncio.sleep(min(RESPAWN_DELAY * (1 + i), RESPAWN_MAX_DELAY))
                continue
            if i + 1 >= warn_after and not self._closed:
                sys.stderr.write(f"golfsolve serve: a worker was restarted; {len(self._workers)} of "
                                 f"{self.size} are running\n")
            return

    async def run(self, name: str, **kwargs: Any) -> Any:
        """Run job ``name`` in a worker and return its answer.

        Raises :class:`JobError` (bad input, no answer, internal error),
        :class:`BudgetExceeded` (the worker was stopped and is being replaced),
        :class:`PoolBusy` or :class:`PoolStopping` (:meth:`stop` was called while it waited). A
        caller that goes away (a client that disconnects) does not take the worker with it: the
        job finishes and the worker goes back to the pool.
        """
        if self._closed or self._stop.is_set():
            raise PoolStopping(STOPPING)
        if self._waiting >= self.max_waiting:
            raise PoolBusy(f"the server is busy ({self._waiting} requests waiting); try again shortly")
        self._waiting += 1
        try:
            w = await self._unless_stopped(self._idle.get(), give_back=self._idle.put_nowait)
        finally:
            self._waiting -= 1
        job = asyncio.ensure_future(self._run_on(w, name, kwargs))
        # a job whose caller went (stopped, or cancelled by the server) still ends, maybe in an error
        # nobody awaits: retrieved here, else asyncio logs "Task exception was never retrieved"
        job.add_done_callback(lambda t: t.cancelled() or t.exception())
        return await self._unless_stopped(asyncio.shield(job))

    async def _unless_stopped(self, waiting: Any, give_back: Any = None) -> Any:
        # a request waiting for a worker or for its answer when the server stops is answered now,
        # not cancelled by uvicorn seconds later (a 500 and a traceback in the terminal)
        task = asyncio.ensure_future(waiting)
        stop = asyncio.ensure_future(self._stop.wait())
        try:
            await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
        except BaseException:  # the caller itself cancelled: what it waited for must not outlive it
            if task.done() and not task.cancelled() and task.exception() is None and give_back is not None:
                give_back(task.result())  # a worker taken from the queue goes back to it
            task.cancel()
            raise
        finally:
            stop.cancel()
        if not task.done():
            task.cancel()
            raise PoolStopping(STOPPING)
        return task.result()

    def stop(self) -> None:
        """Answer every request waiting for a worker or for its job with :class:`PoolStopping`,
        and take no more; :meth:`close` then stops the workers."""
        if self._stop is not None:
            self._stop.set()

    async def _run_on(self, w: _Worker, name: str, kwargs: dict, retries: int = _RETRIES) -> Any:
        budget = self.cpu_budget
        # the CPU budget is the operating system's to keep; this ceiling only catches a worker that hangs
        ceiling = max(4 * budget, budget + 30)
        started = lost = timed_out = False
        self._running += 1  # what /api/health calls busy: a worker warming up to replace another is not
        try:
            w.conn.send((name, kwargs, budget))
            started = await w.receive(timeout=ceiling) == STARTED
            msg = await w.receive(timeout=ceiling)
        except (EOFError, OSError, asyncio.TimeoutError) as e:
            # what happened, not the exception: kept, its traceback (which holds this frame) made a
            # reference cycle with the memoryview of the message a send to a dead worker failed on,
            # and Python 3.12.0 and 3.12.1 crash collecting that (CPython gh-111049)
            lost, timed_out = True, isinstance(e, asyncio.TimeoutError)
        finally:
            self._running -= 1
        if lost:
            self._replace(w)
            if not started and not timed_out and retries > 0:
                # lost before it took the job (killed while idle, by kill -9 or the out-of-memory
                # killer): the request used nothing, so another worker takes it
                return await self._run_on(await self._idle.get(), name, kwargs, retries - 1)
            if timed_out or w.proc.exitcode == -signal.SIGPROF:
                raise BudgetExceeded(f"the request used up its CPU budget of {budget:g} s and was stopped; ask "
                                     "for less work (fewer samples or games, or a node limit)") from None
            raise BudgetExceeded("the worker process answering this request stopped (killed, or out of memory?); "
                                 "try again") from None
        self._idle.put_nowait(w)
        if msg[0] == "ok":
            return msg[1]
        raise JobError(msg[1], msg[2])

    async def close(self) -> None:
        """Stop every worker and reap it."""
        self._closed = True
        self.stop()
        idle = set()
        while self._idle is not None and not self._idle.empty():
            idle.add(self._idle.get_nowait().pid)
        for w in list(self._workers.values()):
            if w.pid not in idle:  # its job's caller has had its answer (503): nobody waits for the rest
                w.kill()
                continue
            try:
                w.conn.send(None)
            except OSError:
                pass
        deadline = time.monotonic() + 5
        for w in list(self._workers.values()):
            w.proc.join(max(0.0, deadline - time.monotonic()))
            w.kill()
        self._workers.clear()
