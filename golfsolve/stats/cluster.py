"""A census on a Dask cluster: reaching the scheduler, checking its workers, and what the
client says when the cluster fails under it.

Dask's client is made for a cluster that works. On a port where something other than a
scheduler listens (the dashboard, another service) it waits for ever (its handshake read
has no deadline) or reads the other side's bytes as a frame length; a worker that cannot
import golfsolve dies on reading its first task, and a run waiting for it waits in
silence; and the scheduler gives a task's result to every client that asks for a task of
that name. So the scheduler is asked who it is, within a deadline, before the client
connects; every worker is asked for the digest of the census's code before anything is
computed (and each task checks it again, for workers that join later); and a task's name
carries a digest of what it computes. Dask itself is imported only by runs that use it.
"""

from __future__ import annotations

import builtins
import hashlib
import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Sequence

from ..errors import InputError, install_extra
from ..inputs import expect
from .runblocks import Chunk
from .pool import WorkerLost

if TYPE_CHECKING:
    import pandas as pd

#: Seconds to open a TCP connection to the scheduler, and then for it to say who it is (a
#: scheduler answers in milliseconds; something else that listens there may never answer).
CONNECT_SECONDS = 10.0
ANSWER_SECONDS = 10.0
#: Seconds for every worker to say which golfsolve code it runs (a worker answers in well
#: under a second, or a few seconds where it imports golfsolve for the first time; one that
#: is stuck never answers, and the scheduler waits for it as long as it stays connected).
CHECK_SECONDS = 20.0
#: Seconds without a finished chunk after which the run asks whether any worker is left.
IDLE_CHECK_SECONDS = 5.0
#: Schemes whose address is a TCP host and port, which a plain socket can try first.
_TCP_SCHEMES = ("tcp", "tls", "ws", "wss")


class ClusterLost(WorkerLost):
    """The cluster failed under a run (the scheduler went away, or a chunk was on workers
    that all died): the finished chunks stay and ``--resume`` finishes the run."""

    def __init__(self, what: str, exit_code: int = 1) -> None:
        super().__init__(f"{what}; the finished chunks are kept: run the same command with --resume to finish")
        self.what = what
        self.exit_code = exit_code


class OtherCode(InputError):
    """A Dask worker runs other golfsolve code than the machine that started the run."""


def import_dask():
    """``Client``, ``LocalCluster`` and ``as_completed``, or a one-line :class:`InputError`."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise InputError(f"--engine dask needs Dask: {install_extra('dask')}") from None
    return Client, LocalCluster, as_completed


def quiet_dask_logs() -> None:
    """Keep Dask's log lines off stderr (for the command, whose run says in one line what
    went wrong): a lost scheduler or worker is logged as tracebacks. Dask sets its loggers'
    levels as it loads, so this loads it first (a one-line :class:`InputError` without it)."""
    import logging

    import_dask()
    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in ("distributed", "tornado")]
    for name in ["distributed", "tornado", *names]:
        logging.getLogger(name).setLevel(logging.CRITICAL)


def scheduler_address(address: str) -> str:
    """``address`` (``tcp://10.0.0.5:8786``, ``host:port``, ``tls://[::1]:8786``) stripped of
    spaces and of a trailing ``/`` (an address copied as a URL), or :class:`InputError` for
    one that names no host, a port that cannot be, or a file (refused before Dask is loaded)."""
    expect(address, str, "scheduler", "an address such as tcp://10.0.0.5:8786")
    address = address.strip()
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "", address
    if rest.rstrip("/") or sep:  # an address copied as a URL ends in /
        rest = rest.rstrip("/")
        address = f"{scheme}{sep}{rest}"
    if not sep and ("/" in rest or "\\" in rest or Path(rest).suffix.lower() == ".json"):
        raise _path_given(address)
    if rest.startswith("["):  # an IPv6 host in brackets
        host, _, port = rest[1:].partition("]")
        colon, port = port.startswith(":"), port[1:] if port.startswith(":") else port
    else:
        host, colon, port = rest.rpartition(":") if ":" in rest else (rest, "", "")
    if not host:
        raise InputError(f"--scheduler needs an address, e.g. tcp://10.0.0.5:8786, not {address!r}")
    if (port or colon) and not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise InputError(f"--scheduler {address!r}: the port must be a number from 1 to 65535, not {port!r}")
    return address


def _path_given(address: str) -> InputError:
    # `dask scheduler --scheduler-file FILE` writes the address to a file, which is then given
    # in its place: say which address it holds
    import json

    try:
        f = Path(address)
        small = f.is_file() and f.stat().st_size < 1 << 16  # a scheduler file is a few hundred bytes
        held = json.loads(f.read_text(encoding="utf-8"))["address"] if small else None
    except (OSError, ValueError, KeyError, TypeError):
        held = None
    if isinstance(held, str) and held:
        return InputError(f"--scheduler takes the scheduler's address, not its scheduler file {address}: give "
                          f"--scheduler {held}, the address that file holds")
    return InputError(f"--scheduler takes the scheduler's address, e.g. tcp://10.0.0.5:8786, not a file's path "
                      f"({address!r})")


def jobs_with_scheduler(address: str, from_environment: bool = False) -> InputError:
    """The refusal of ``--jobs`` beside a scheduler: it sets a local run's worker processes,
    and would be ignored where the cluster's workers solve."""
    given = " ($DASK_SCHEDULER_ADDRESS)" if from_environment else ""
    return InputError(f"--jobs sets the worker processes of a run on this machine; this run goes to the Dask "
                      f"scheduler at {address}{given}, whose workers solve it (to add some: dask worker {address} "
                      "--nworkers N --nthreads 1)")


def code_digest() -> str:
    """A digest of the census's code and of every golfsolve module it uses (the solver's
    kernels among them): two machines that give the same digest solve deals the same way."""
    from ..kernelsources import sources_digest

    return sources_digest(str(Path(__file__).with_name("census.py")))


def _timeouts() -> tuple[type[BaseException], ...]:
    """The timeout errors of asyncio (what Dask raises, ``wait_for`` too) and of Python:
    one class from Python 3.11 on, two on 3.10. asyncio is imported here, not with this
    module: the runs that never reach a cluster do without it."""
    import asyncio

    return (TimeoutError, asyncio.TimeoutError)


def _cannot(address: str, why: str) -> InputError:
    return InputError(f"cannot connect to the Dask scheduler at {address}: {why}")


def _try_socket(address: str, host: str, port: int) -> None:
    # One plain attempt: Dask retries a refused connection until its timeout (20 s), in
    # silence, where a closed port or a typo in the port can be named at once.
    import socket

    try:
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()
    except socket.gaierror:
        raise _cannot(address, f"no host named {host!r} is known here") from None
    except ConnectionRefusedError:
        raise _cannot(address, f"nothing listens on port {port} of {host} (is 'dask scheduler' running there, "
                               "on that port?)") from None
    except TimeoutError:
        raise _cannot(address, f"{host} did not answer on port {port} within {CONNECT_SECONDS:.0f} s (a firewall, "
                               "or the wrong host?)") from None
    except OSError as e:
        raise _cannot(address, e.strerror or str(e)) from None


def _identity(address: str, args: dict) -> Any:
    import asyncio

    from distributed.comm import connect

    async def ask() -> Any:
        comm = await connect(address, timeout=ANSWER_SECONDS, **args)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    # distributed's handshake reads without a deadline: this one bounds the whole exchange
    return asyncio.run(asyncio.wait_for(ask(), ANSWER_SECONDS))


def probe_scheduler(address: str) -> dict:
    """What the Dask scheduler at ``address`` says of itself (its ``identity``: the worker
    count among it), asked within :data:`ANSWER_SECONDS` once a TCP connection opens; a
    one-line :class:`InputError` when nothing is there, or what is there is not a scheduler."""
    from distributed.comm import parse_address, parse_host_port
    from distributed.comm.registry import get_backend
    from distributed.security import Security

    try:
        scheme, loc = parse_address(address)
        get_backend(scheme)
        if scheme in _TCP_SCHEMES:
            host, port = parse_host_port(loc)
    except (ValueError, TypeError) as e:
        raise _cannot(address, str(e)) from None
    if scheme == "inproc":
        raise _cannot(address, "an inproc:// address is reachable only inside the Python process that made it; "
                               "give the scheduler's tcp:// address")
    if scheme in _TCP_SCHEMES:
        _try_socket(address, host, port)
    args = Security().get_connection_args("client")
    # A thread of its own, as the caller may be inside an event loop already (a notebook);
    # a daemon, so that Ctrl-C meanwhile stops the command at once, not at the deadline.
    answer: Future = Future()

    def ask() -> None:
        try:
            answer.set_result(_identity(address, args))
        except BaseException as e:
            answer.set_exception(e)

    threading.Thread(target=ask, name="golfsolve-probe", daemon=True).start()
    try:
        reply = answer.result()
    except _timeouts():
        raise _cannot(address, f"what listens there did not answer as a Dask scheduler within "
                               f"{ANSWER_SECONDS:.0f} s (the dashboard's port, 8787 by default, or another "
                               "service's?)") from None
    except Exception as e:  # another protocol's bytes read as Dask's fail in many ways (a frame of exabytes)
        if scheme not in _TCP_SCHEMES:  # a transport of Dask's that fails on this machine (ucx:// without UCX)
            raise _cannot(address, f"{scheme}:// fails on this machine ({type(e).__name__}: "
                                   f"{' '.join(str(e).split())[:200]}); give the scheduler's tcp:// address") from None
        if scheme in ("tls", "wss"):  # before any byte is read: this side's TLS settings
            raise _cannot(address, f"{' '.join(str(e).split()) or type(e).__name__} (this machine's TLS settings "
                                   "are Dask's: distributed.comm.tls in its configuration)") from None
        raise _cannot(address, f"what listens there does not speak to a Dask client ({type(e).__name__}; the "
                               "dashboard's port, 8787 by default, or another service's?)") from None
    kind = reply.get("type") if isinstance(reply, dict) else None
    if kind == "Worker":
        raise _cannot(address, f"that is a Dask worker; give its scheduler's address, {reply.get('scheduler')}")
    if kind == "Nanny":
        raise _cannot(address, "that is a Dask worker's nanny; give the scheduler's address")
    if kind != "Scheduler" or not isinstance(reply.get("n_workers"), int):
        raise _cannot(address, "what listens there is a Dask server but not a scheduler")
    return reply


def connect(address: str, note: Optional[Callable[[str], None]] = None):
    """A Dask ``Client`` of the scheduler at ``address``, asked who it is first
    (:func:`probe_scheduler`) and its workers checked (:func:`check_workers`): a one-line
    :class:`InputError` otherwise. Dask's warning that the cluster runs other versions of
    its packages than this machine (a table of many lines) goes to ``note`` as one line
    (golfsolve's own code is checked to be the same); without ``note`` Dask warns as usual."""
    import warnings

    Client, _, _ = import_dask()
    probe_scheduler(address)
    with warnings.catch_warnings(record=note is not None) as caught:
        if note is not None:  # each run's, not only the first of a process
            from distributed.versions import VersionMismatchWarning

            warnings.simplefilter("always", VersionMismatchWarning)
        try:
            client = Client(address, timeout="20s")
        except (OSError, ValueError, *_timeouts()) as e:
            raise _cannot(address, str(e)) from None
    for w in caught or ():
        if isinstance(w.message, VersionMismatchWarning):
            note(f"the Dask cluster runs other package versions than this machine: {_mismatches(str(w.message))}")
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    try:
        check_workers(client)
    except BaseException:
        client.close()
        raise
    return client


def _mismatches(table: str) -> str:
    """Dask's table of mismatched versions in one line: ``numpy (Client 2.4.6, Workers 2.3.1)``."""
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in table.splitlines()
            if line.lstrip().startswith("|")]
    if len(rows) < 2 or any(len(r) != len(rows[0]) for r in rows):
        return " ".join(table.split())[:300]
    head = rows[0]
    return "; ".join(f"{r[0]} ({', '.join(f'{h} {v}' for h, v in zip(head[1:], r[1:]))})" for r in rows[1:])


def cluster_threads(address: str) -> int:
    """The threads of the workers connected to the Dask scheduler at ``address`` (0 when
    none is), as it reports them: what a run's default chunk size is cut for, so that a
    cluster of many machines gets chunks enough for every worker. A one-line
    :class:`InputError` as :func:`probe_scheduler` gives."""
    threads = probe_scheduler(scheduler_address(address)).get("total_threads")
    return threads if isinstance(threads, int) and threads > 0 else 0


def private_cluster(jobs: int):
    """A Dask ``LocalCluster`` of ``jobs`` single-threaded worker processes on this machine,
    listening on loopback only and logging nothing.

    Its worker processes are the run's to stop: the terminal's Ctrl-C goes to them too, and
    each would print its tracebacks. So they start with SIGINT blocked, which they inherit from
    the thread that starts the cluster; this thread keeps it, and a Ctrl-C while the cluster
    starts (a second or two) is a KeyboardInterrupt at once, after which the cluster, as far
    as it got, is closed with every worker process it started.
    """
    import logging
    import signal

    _, LocalCluster, _ = import_dask()
    from distributed.deploy.spec import SpecCluster

    made: Future = Future()
    lock = threading.Lock()
    state = {"abandoned": False, "started": False}
    before = set(SpecCluster._instances)

    def start() -> None:
        if hasattr(signal, "pthread_sigmask"):
            # multiprocessing unblocks SIGINT in the thread that starts its resource tracker
            from multiprocessing import resource_tracker

            resource_tracker.ensure_running()
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        with lock:
            if state["abandoned"]:
                return
            state["started"] = True
        try:
            made.set_result(LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                                         host="127.0.0.1", dashboard_address=None, silence_logs=logging.CRITICAL))
        except BaseException as e:
            made.set_exception(e)

    threading.Thread(target=start, name="golfsolve-cluster", daemon=True).start()
    try:
        return made.result()
    except BaseException:
        with lock:
            state["abandoned"] = True
            started = state["started"]
        if started:
            _close_abandoned(made, before)
        raise


def _close_abandoned(made: Future, before: set) -> None:
    # The cluster the interrupted start made so far: it is in Dask's list of clusters from
    # the first moment of its making, before any process starts. Another Ctrl-C meanwhile
    # would leave worker processes behind; the closing takes well under a second.
    import signal

    from distributed.deploy.spec import SpecCluster

    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        old = None
    try:
        end = time.monotonic() + ANSWER_SECONDS
        while time.monotonic() < end:
            mine = [c for c in list(SpecCluster._instances) if c not in before]
            if made.done() or mine:
                break
            time.sleep(0.01)
        if made.done() and made.exception() is None:
            mine = [made.result()]
        for cluster in mine:
            try:
                cluster.close(timeout=ANSWER_SECONDS)
            except Exception:  # a cluster that failed as it started: what it started is stopped
                pass
    finally:
        if old is not None:
            signal.signal(signal.SIGINT, old)


# Sent to every worker by value, so that a worker without golfsolve can still run it and
# say so (a task naming golfsolve's functions kills such a worker as it reads the task).
# The digest is asked of the census module the worker has loaded (a worker started before
# golfsolve changed on disk keeps the code it imported); one without it is an older golfsolve.
_CHECK_SOURCE = '''
def golfsolve_worker_check():
    try:
        import golfsolve.stats.census as census
    except BaseException as e:
        return "!" + type(e).__name__ + ": " + str(e)
    try:
        return census.code_digest()
    except BaseException:
        return ""
'''


def _worker_check() -> Callable[[], str]:
    ns: dict[str, Any] = {"__name__": "golfsolve_worker_check", "__builtins__": builtins}
    exec(_CHECK_SOURCE, ns)
    return ns["golfsolve_worker_check"]


def other_code_error(worker: str) -> OtherCode:
    """The error for a Dask worker whose golfsolve sources differ from this machine's."""
    return OtherCode(f"the Dask worker {worker} runs other golfsolve code than this machine (the census's or "
                     "the solver's sources differ): install the same golfsolve on every machine, and restart "
                     "workers started before it changed")


def check_workers(client) -> int:
    """How many workers the client's cluster has, after checking that each one imports the
    same golfsolve code as this machine within :data:`CHECK_SECONDS` (:class:`InputError`
    naming the first that does not, or that does not answer)."""
    import asyncio

    from distributed.comm import CommClosedError

    here = code_digest()
    check = _worker_check()
    workers = sorted(client.scheduler_info(n_workers=-1)["workers"])

    async def ask(worker: str) -> Any:
        # one worker at a time through the scheduler, each with the deadline: a broadcast to
        # all waits for the slowest, and one that hangs would say neither that nor which
        try:
            answer = await asyncio.wait_for(client.run(check, workers=[worker], on_error="return",
                                                       asynchronous=True), CHECK_SECONDS)
        except asyncio.TimeoutError:
            return _NO_ANSWER
        return answer.get(worker, _GONE)

    async def ask_all() -> list:
        return await asyncio.gather(*(ask(w) for w in workers))

    answers = dict(zip(workers, client.sync(ask_all))) if workers else {}
    silent = [w for w, got in answers.items() if got is _NO_ANSWER]
    if silent:
        more = f" (and {len(silent) - 1} more)" if len(silent) > 1 else ""
        raise InputError(f"the Dask worker {silent[0]}{more} did not answer within {CHECK_SECONDS:.0f} s when asked "
                         "which golfsolve code it runs (stuck, or overloaded?): restart it, or stop it")
    for worker, got in answers.items():
        if got is _GONE or isinstance(got, (CommClosedError, OSError)):
            continue  # it left the cluster meanwhile: one that comes back is checked by its first task
        if isinstance(got, BaseException):  # the check could not even run there (another Python?)
            raise InputError(f"the Dask worker {worker} cannot run golfsolve's check of its code "
                             f"({type(got).__name__}: {' '.join(str(got).split())[:200]}): install the same Python "
                             "and golfsolve on every machine")
        if isinstance(got, str) and got.startswith("!"):
            raise InputError(f"the Dask worker {worker} cannot import golfsolve ({got[1:]}): install golfsolve on "
                             "every worker machine, the same version as here, and start the workers where Python "
                             "finds it (the same PYTHONPATH)")
        if got != here:
            raise other_code_error(worker)
    return len(answers)


#: What :func:`check_workers` notes of a worker that did not answer in time, or that left.
_NO_ANSWER, _GONE = object(), object()


def task_key(chunk: Chunk, spec: Any, digest: str) -> str:
    """The Dask name of the task that solves ``chunk`` of ``spec``: readable, and unique to
    what it computes. The scheduler hands a task's result to every client that asks for a
    task of that name, so the chunk's name alone would give a run of every k-th deal the
    tables of a run of consecutive deals beside it on the cluster (and a full run a
    verdict-only run's rows)."""
    h = hashlib.sha256(f"{spec!r}|{chunk!r}|{digest}".encode()).hexdigest()[:16]
    return f"golfsolve-{chunk.name}-{'-'.join(chunk.groups)}-{h}"


def _scheduler_id(client) -> Optional[str]:
    # a scheduler restarted at the same address is another scheduler, with another id
    try:
        return str(client.scheduler_info(n_workers=0)["id"])
    except Exception:  # the scheduler is unreachable
        return None


def _workers_now(client) -> Optional[int]:
    try:
        return int(client.scheduler_info(n_workers=0)["n_workers"])
    except Exception:  # the scheduler is unreachable: the futures say so next
        return None


def dask_results(todo: Sequence[Chunk], spec: Any, client, address: Optional[str], task: Callable,
                 note: Optional[Callable[[str], None]] = None) -> Iterator[tuple[Chunk, "pd.DataFrame"]]:
    """``(chunk, table)`` for each of ``todo`` as the cluster finishes it, ``task(chunk, spec,
    digest)`` solving each. ``note`` is told, once each time it happens, that no worker is
    connected (the run then waits for one). A scheduler that goes away, or a chunk that
    killed the workers it was on, is :class:`ClusterLost`."""
    from distributed import CancelledError
    from distributed.comm import CommClosedError
    from distributed.scheduler import KilledWorker

    _, _, as_completed = import_dask()
    digest = code_digest()
    where = f"at {address}" if address else "of this machine"
    scheduler_id = _scheduler_id(client)
    futures = {client.submit(task, c, spec, digest, key=task_key(c, spec, digest), pure=False): c for c in todo}
    told = False

    def check() -> None:
        # a run that has waited a while: is the scheduler still there, and has it any worker?
        nonlocal told
        if client.status not in ("running", "connecting"):
            raise ClusterLost(f"the connection to the Dask scheduler {where} was lost")
        n = _workers_now(client)
        if n == 0 and not told and note is not None:
            note(f"the Dask scheduler {where} has no workers; waiting for one to connect "
                 f"(dask worker {address or 'SCHEDULER'})")
        told = n == 0

    def fetch(fut, chunk: Chunk) -> "pd.DataFrame":
        # With a deadline: a chunk whose worker died after it finished and before its table
        # was fetched waits until a worker solves it again, and the run must look at the
        # cluster meanwhile. The deadline doubles each time, as a large table on a slow
        # network may take long to fetch, and each attempt starts again.
        seconds = IDLE_CHECK_SECONDS
        while True:
            try:
                return fut.result(timeout=seconds)
            except _timeouts():
                check()
                seconds *= 2
            except OtherCode as e:  # a worker that joined mid-run: the user's cluster to set right
                raise ClusterLost(str(e), exit_code=2) from None
            except KilledWorker:
                raise ClusterLost(f"{chunk.name} was on Dask workers that all stopped while solving it "
                                  "(killed, or out of memory?)") from None
            except (CommClosedError, CancelledError, OSError) as e:
                if client.status == "running" and fut.status == "error":
                    raise  # the task's own error, not the cluster's
                if (isinstance(e, CancelledError) and client.status == "running" and scheduler_id is not None
                        and _scheduler_id(client) == scheduler_id):
                    # the same scheduler, still there: another client of a shared cluster cancelled it
                    raise ClusterLost(f"{chunk.name} was cancelled on the Dask scheduler {where} by another "
                                      "client (a cancel or a restart of the cluster)") from None
                raise ClusterLost(f"the connection to the Dask scheduler {where} was lost") from None

    try:
        pending = as_completed(list(futures))
        idle = -IDLE_CHECK_SECONDS  # the workers are counted at once: a scheduler may have none yet
        while not pending.is_empty():
            batch = pending.next_batch(block=False)
            if not batch:
                if time.monotonic() - idle > IDLE_CHECK_SECONDS:
                    idle = time.monotonic()
                    check()
                time.sleep(0.05)
                continue
            for fut in batch:
                chunk = futures[fut]
                yield chunk, fetch(fut, chunk)
                fut.release()
            idle = time.monotonic()
    finally:
        try:
            client.cancel(list(futures))
        except Exception:  # a scheduler that is gone has nothing left to cancel
            pass
