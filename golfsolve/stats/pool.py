"""Computing a run's chunks in this process or in a pool of worker processes, results in
any order. Apart from the run folder, which only writes what comes back: what a pool must
survive (Ctrl-C reaching every worker, a worker killed outright, a parent gone) is one
matter, and the Dask cluster's runs stop the same way (:class:`WorkerLost`).
"""

from __future__ import annotations

import itertools
import multiprocessing as mp
import os
import signal
import sys
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence

from ..errors import InputError
from ..inputs import is_whole_number

#: The most worker processes a local run starts.
MAX_WORKERS = 256
#: Tasks handed to the pool per worker ahead of the results: enough to keep every worker busy,
#: few enough that a run of a million chunks holds no million futures (about 1.6 KB each: it
#: took 2.7 GB and 50 s before its first chunk was solved).
AHEAD = 4


def _worker_start(init: Optional[Callable[[], None]], parent: int) -> None:
    # Ctrl-C reaches every process of the terminal's process group, and so does the SIGHUP of
    # a terminal closed; only the parent should react (it keeps finished chunks and stops the
    # pool), so workers ignore both: a worker dead first made the run a "worker lost".
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    # The parent may have turned SIGTERM into KeyboardInterrupt; workers must simply die on
    # it, which is how the pool stops them.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # If the parent is killed outright (SIGKILL), take the workers down with it instead of
    # leaving them to finish chunks nobody will write.
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
            # the parent died before prctl took effect: the orphan's new parent is init or,
            # in a container or under a service manager, a subreaper (not always pid 1)
            if os.getppid() != parent:
                os._exit(1)
        except (OSError, AttributeError):
            pass
    if init is not None:
        init()


class WorkerLost(RuntimeError):
    """A worker process stopped in the middle of a run (killed, or out of memory): its chunk
    is lost, the finished chunks stay, and ``--resume`` finishes the run."""

    #: what happened, as the command's last line says it before the chunks saved
    what = "a worker process stopped (killed, or out of memory?)"
    #: the command's exit code: the work failed (2 where what failed is the user's to set right)
    exit_code = 1


def _apply(job: tuple) -> tuple[Any, Any]:
    fn, task = job
    return task, fn(task)


def check_jobs(jobs: int) -> int:
    """The worker processes a run is asked for, refused in one line below one (before any
    work: every run kind's library entry point checks it as ``--jobs`` does), or above
    :data:`MAX_WORKERS` (else the run folder is made before :func:`compute` refuses it)."""
    if not is_whole_number(jobs):  # 2.5 would reach the pool, "x" fail on '<'
        raise InputError(f"--jobs must be a whole number, not {repr(jobs)[:40]}")
    if jobs < 1:
        raise InputError(f"--jobs must be at least 1, not {jobs}")
    if jobs > MAX_WORKERS:
        raise InputError(f"--jobs must be from 1 to {MAX_WORKERS}, not {jobs}")
    return int(jobs)


def compute(tasks: Sequence[Any], fn: Callable[[Any], Any], jobs: int,
            init: Optional[Callable[[], None]] = None) -> Iterator[tuple[Any, Any]]:
    """``(task, fn(task))`` for every task as it finishes, in ``jobs`` processes.

    ``fn`` and ``init`` must be module-level functions. ``init`` runs once in each worker
    before its first task (to load compiled kernels, so no task's time includes that).
    Leaving the iterator early (Ctrl-C, an error) stops the workers at once.
    """
    if not 1 <= jobs <= MAX_WORKERS:
        raise InputError(f"the number of worker processes must be 1 to {MAX_WORKERS}, not {jobs}")
    if jobs <= 1 or len(tasks) <= 1:
        def inline() -> Iterator[tuple[Any, Any]]:
            if init is not None:
                init()
            for t in tasks:
                yield t, fn(t)
        return inline()
    # fork starts workers in milliseconds with the compiled kernels already imported. The
    # workers are forked here, by the first submit, before the caller starts any thread
    # (tqdm's monitor), because forking a process that has other threads can copy a lock
    # held by one of them. An executor, not multiprocessing.Pool: a Pool whose worker was
    # killed (kill -9, the out-of-memory killer) waited for that worker's task for ever.
    from concurrent.futures import ProcessPoolExecutor
    from functools import partial

    methods = mp.get_all_start_methods()
    ctx = mp.get_context("fork" if "fork" in methods else methods[0])
    workers = min(jobs, len(tasks))
    executor = ProcessPoolExecutor(workers, mp_context=ctx, initializer=partial(_worker_start, init, os.getpid()))
    rest = iter(tasks)

    def submit(t: Any) -> Any:
        from concurrent.futures.process import BrokenProcessPool

        try:
            return executor.submit(_apply, (fn, t))
        except BrokenProcessPool:  # a worker died since the last task was handed over
            raise _lost() from None

    try:
        pending = {submit(t) for t in itertools.islice(rest, workers * AHEAD)}
    except BaseException:
        _stop(executor)
        raise
    return _drain(executor, pending, submit, rest)


def _stop(executor) -> None:
    # On Ctrl-C, an error or a lost worker: stop the workers now rather than after their chunks.
    processes = list((getattr(executor, "_processes", None) or {}).values())
    manager = getattr(executor, "_executor_manager_thread", None)  # shutdown forgets it
    executor.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        if p.is_alive():
            p.kill()
    for p in processes:
        p.join(5)
    # Before Python 3.12 the interpreter's exit wakes the executor's manager thread through a
    # pipe that the thread closes as it ends, without a lock: a thread still ending then made
    # a Ctrl-C'd run print "Exception ignored ... Bad file descriptor" and a traceback after its
    # one line. Once it has ended, the exit finds the pipe closed and leaves it be.
    if manager is not None:
        manager.join(5)


def _lost() -> WorkerLost:
    return WorkerLost("a worker process stopped in the middle of the run (killed, or out of memory?); the "
                      "finished chunks are kept: run the same command with --resume to finish")


def _result(future) -> Any:
    from concurrent.futures.process import BrokenProcessPool

    try:
        return future.result()
    except BrokenProcessPool:
        raise _lost() from None


def _drain(executor, pending: set, submit: Callable[[Any], Any], rest: Iterator[Any]) -> Iterator[tuple[Any, Any]]:
    """The results of the ``pending`` futures as they finish, each replaced by a future of the
    next of the tasks ``rest`` (``submit`` hands one to the pool) before it is handed on, so the
    workers go on while the caller writes it. A finished future holds its chunk's table: none is
    kept once handed on."""
    from concurrent.futures import FIRST_COMPLETED, wait

    try:
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            pending.update(submit(t) for t in itertools.islice(rest, len(done)))
            while done:
                yield _result(done.pop())
    finally:
        _release_held(pending)
        _stop(executor)


def _release_held(futures: Iterable) -> None:
    """Release the futures' locks this thread still holds. ``wait`` takes every pending
    future's lock in a ``with`` statement; a Ctrl-C that lands after the locks are taken and
    before the block is entered leaves them held for ever (the statement's exit never runs),
    and the executor's manager thread, cancelling those futures at shutdown, then waited on
    them for ever: a stats run said "interrupted" and hung at exit (about 1 in 12 Ctrl-Cs)."""
    for f in futures:
        c = f._condition
        while c._is_owned():
            c.release()


__all__ = ["AHEAD", "MAX_WORKERS", "WorkerLost", "check_jobs", "compute"]
