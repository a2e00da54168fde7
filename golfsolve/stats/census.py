"""Batch statistics over ranges of GO1 deals: solve every deal under several rule sets.

A run (a *census*) lives in one directory:

* ``manifest.json``: the run's parameters (first deal, deal count, rule sets, chunk size),
  the command line that started it and one entry per invocation. ``--resume`` compares
  its parameters with the manifest and refuses a different run.
* ``chunk-<first deal, 10 digits>.parquet``: one file per fixed range of deals, holding one
  row per deal and rule set (see :data:`COLUMNS`). Each file is written to a hidden
  temporary name, flushed to disk and then renamed into place with :func:`os.replace`, so a
  chunk file either exists complete or not at all: a run killed at any moment (SIGINT,
  SIGKILL, power cut) loses at most the chunks in flight, and resuming solves exactly the
  chunks whose files are missing. No row is lost or written twice.

Workers only compute; the process that started the run writes every file. That is what
lets the Dask engine run on a cluster without a shared file system, and what makes the
local and the Dask engines produce the same files.
"""

from __future__ import annotations

import ctypes
import datetime as _dt
import json
import math
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Optional, Sequence

import pandas as pd

from ..errors import InputError
from ..solitaire.dealcode import N_DEALS, format_code
from ..solitaire.layout import layout_from_number
from ..solitaire.rules import get_rules

MANIFEST = "manifest.json"
FORMAT = "golfsolve-stats/1"
CHUNK_PREFIX = "chunk-"
DEFAULT_RULES = ("easy", "classic", "strict")
#: The largest default chunk: big enough that 1,000,000 deals make 2,000 files, small
#: enough that an interrupted run loses well under a minute of work per worker.
MAX_DEFAULT_CHUNK = 500

#: Columns of every chunk file and of :func:`load_results`, in order.
COLUMNS = ("deal", "code", "rules", "winnable", "best_left", "app_score", "nodes", "seconds", "cpu_seconds")
_DTYPES = {
    "deal": "int64",
    "code": "string",
    "rules": "string",
    "winnable": "bool",
    "best_left": "int8",
    "app_score": "int16",
    "nodes": "int64",
    "seconds": "float64",
    "cpu_seconds": "float64",
}
#: Deal-code letter per rule set; other rule sets show the Easy letter (the letter never
#: changes the cards, the ``rules`` column says which rules were used).
_LETTER = {"easy": "E", "classic": "C"}


# ---------------------------------------------------------------------------
# the parameters of a run
# ---------------------------------------------------------------------------
def parse_rules_list(spec: str | Sequence[str]) -> tuple[str, ...]:
    """Rule set names from ``"easy,classic,strict"`` (or a list), checked and canonical.

    Aliases map to the preset's own name (``wrap`` is ``easy``), so that a rule set cannot
    be counted twice under two names. Raises :class:`InputError` (or ``RulesError``) on
    an empty list, an unknown name or a repeat.
    """
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    names = [n.strip() for n in names if n.strip()]
    if not names:
        raise InputError("--rules needs at least one rule set, e.g. easy,classic,strict")
    out: list[str] = []
    for n in names:
        canonical = get_rules(n).name
        if canonical in out:
            raise InputError(f"rule set {canonical!r} is listed twice in --rules")
        out.append(canonical)
    return tuple(out)


def default_chunk_size(count: int, jobs: int) -> int:
    """About ten chunks per worker for small runs (so the progress bar moves and the
    workers share the load evenly), at most :data:`MAX_DEFAULT_CHUNK` deals."""
    return max(1, min(MAX_DEFAULT_CHUNK, math.ceil(count / (max(1, jobs) * 10))))


@dataclass(frozen=True)
class CensusSpec:
    """What a run solves: deals ``start .. start + count - 1`` under each of ``rules``,
    in chunks of ``chunk_size`` deals (the last chunk may be shorter)."""

    start: int
    count: int
    rules: tuple[str, ...] = DEFAULT_RULES
    chunk_size: int = MAX_DEFAULT_CHUNK

    def __post_init__(self) -> None:
        if self.count < 1:
            raise InputError(f"--count must be at least 1, not {self.count}")
        if not 0 <= self.start < N_DEALS:
            raise InputError(f"the first deal number {self.start} is outside 0..{N_DEALS - 1}")
        if self.start + self.count > N_DEALS:
            raise InputError(f"deals {self.start}..{self.start + self.count - 1} run past the last deal {N_DEALS - 1}")
        if self.chunk_size < 1:
            raise InputError(f"--chunk-size must be at least 1, not {self.chunk_size}")
        if not self.rules:
            raise InputError("a run needs at least one rule set")

    @property
    def end(self) -> int:
        """One past the last deal number."""
        return self.start + self.count

    def chunks(self) -> list[tuple[int, int]]:
        """``(first deal, number of deals)`` of every chunk, in deal order."""
        return [(f, min(self.chunk_size, self.end - f)) for f in range(self.start, self.end, self.chunk_size)]

    def key(self) -> dict:
        """The fields a resumed run must agree on."""
        return {"start": self.start, "count": self.count, "rules": list(self.rules), "chunk_size": self.chunk_size}


def chunk_name(first: int) -> str:
    """File name of the chunk starting at deal ``first`` (zero-padded, so names sort by deal)."""
    return f"{CHUNK_PREFIX}{first:010d}.parquet"


def chunk_files(out: Path) -> dict[int, Path]:
    """Finished chunk files in ``out`` by first deal (temporary files are not included)."""
    found: dict[int, Path] = {}
    for p in Path(out).glob(f"{CHUNK_PREFIX}*.parquet"):
        digits = p.name[len(CHUNK_PREFIX): -len(".parquet")]
        if digits.isdigit():
            found[int(digits)] = p
    return found


# ---------------------------------------------------------------------------
# the manifest
# ---------------------------------------------------------------------------
def read_manifest(out: str | Path) -> dict:
    """The manifest of the run in ``out``; :class:`InputError` when there is none."""
    p = Path(out) / MANIFEST
    try:
        m = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{out} holds no golfsolve stats run (no {MANIFEST})") from None
    except (OSError, ValueError) as e:
        raise InputError(f"cannot read {p}: {e}") from None
    if m.get("format") != FORMAT:
        raise InputError(f"{p} is not a golfsolve stats manifest (format {m.get('format')!r})")
    return m


def spec_from_manifest(m: dict) -> CensusSpec:
    """The :class:`CensusSpec` a manifest describes."""
    return CensusSpec(int(m["start"]), int(m["count"]), tuple(m["rules"]), int(m["chunk_size"]))


def _write_json_atomic(path: Path, obj: dict) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(obj, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("golfsolve")
    except Exception:  # not installed as a distribution (running from a bare checkout)
        return "unknown"


def _describe(spec: CensusSpec) -> str:
    return f"deals {spec.start}..{spec.end - 1}, rules {','.join(spec.rules)}, chunk size {spec.chunk_size}"


def prepare_run(out: str | Path, spec: CensusSpec, resume: bool, command: str = "") -> tuple[dict, list[tuple[int, int]]]:
    """Create or reopen the run directory; return its manifest and the chunks still to solve.

    Without ``resume`` the directory must not hold a run yet. With ``resume`` an existing
    run must have the same range, rules and chunk size (else :class:`InputError`); a
    directory without a run is started fresh. Temporary files of a killed run are removed.
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    have_manifest = (out / MANIFEST).exists()
    if have_manifest:
        if not resume:
            old = spec_from_manifest(read_manifest(out))
            raise InputError(f"{out} already holds a stats run ({_describe(old)}); "
                             "add --resume to continue it or choose another --out")
        manifest = read_manifest(out)
        old = spec_from_manifest(manifest)
        if old.key() != spec.key():
            raise InputError(f"--resume: {out} holds a different run ({_describe(old)}), "
                             f"not {_describe(spec)}")
    else:
        if chunk_files(out):
            raise InputError(f"{out} holds chunk files but no {MANIFEST}; choose an empty --out")
        manifest = {"format": FORMAT, **spec.key(), "columns": list(COLUMNS),
                    "rules_described": {r: get_rules(r).describe() for r in spec.rules},
                    "command": command, "created": _now(), "golfsolve_version": _version(),
                    "complete": False, "invocations": []}
        _write_json_atomic(out / MANIFEST, manifest)
    # A killed run can leave hidden temporary files behind; they are never read, so they
    # are simply removed.
    for tmp in out.glob(f".{CHUNK_PREFIX}*.tmp"):
        tmp.unlink(missing_ok=True)
    done = chunk_files(out)
    todo = [c for c in spec.chunks() if c[0] not in done]
    return manifest, todo


# ---------------------------------------------------------------------------
# solving one chunk (runs in worker processes, threads or on Dask workers)
# ---------------------------------------------------------------------------
_local = threading.local()


def _solver():
    # One Solver per thread: it holds ~60 MB of tables that every solve reuses, and it is
    # not thread-safe (a Dask worker may run several threads).
    s = getattr(_local, "solver", None)
    if s is None:
        from ..solitaire.solver import Solver

        s = Solver()
        # Load the compiled kernel now so that the first deal's time does not include it.
        s.solve(layout_from_number(0, get_rules("easy")), get_rules("easy"))
        _local.solver = s
    return s


def solve_chunk(first: int, count: int, rules: Sequence[str]) -> pd.DataFrame:
    """Solve deals ``first .. first + count - 1`` under every rule set in ``rules``.

    One row per deal and rule set, deal-major in the order of ``rules``, with the
    columns of :data:`COLUMNS`. ``nodes`` is deterministic; ``seconds`` is the solver's
    wall time and ``cpu_seconds`` the CPU time of the solve (including dealing the
    layout): on a shared machine only the latter measures the solver's speed.
    """
    solver = _solver()
    rule_sets = [get_rules(r) for r in rules]
    cols: dict[str, list] = {c: [] for c in COLUMNS}
    for n in range(first, first + count):
        for r in rule_sets:
            letter = _LETTER.get(r.name, "E")
            c0 = time.thread_time()
            sol = solver.solve(layout_from_number(n, r, letter), r)
            cpu = time.thread_time() - c0
            cols["deal"].append(n)
            cols["code"].append(format_code(n, letter))
            cols["rules"].append(r.name)
            cols["winnable"].append(sol.outcome == "won")
            cols["best_left"].append(sol.best_left)
            cols["app_score"].append(sol.app_score)
            cols["nodes"].append(sol.nodes)
            cols["seconds"].append(sol.seconds)
            cols["cpu_seconds"].append(cpu)
    return pd.DataFrame({c: pd.Series(v, dtype=_DTYPES[c]) for c, v in cols.items()})


def write_chunk(out: str | Path, first: int, df: pd.DataFrame) -> Path:
    """Write one chunk atomically: a hidden temporary file, fsync, then rename into place."""
    final = Path(out) / chunk_name(first)
    tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        df.to_parquet(f, index=False)
        f.flush()
        # On disk before the rename, so that even a power cut leaves either the whole
        # chunk or no chunk under the final name.
        os.fsync(f.fileno())
    os.replace(tmp, final)
    return final


# ---------------------------------------------------------------------------
# engines: each yields (first, DataFrame) as chunks finish, in any order
# ---------------------------------------------------------------------------
def _solve_task(task: tuple[int, int, tuple[str, ...]]) -> tuple[int, pd.DataFrame]:
    first, count, rules = task
    return first, solve_chunk(first, count, rules)


def _worker_init() -> None:
    # Ctrl-C reaches every process of the terminal's process group; only the parent should
    # react (it keeps finished chunks and stops the pool), so workers ignore SIGINT.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The parent may have turned SIGTERM into KeyboardInterrupt (golfsolve stats does);
    # workers must simply die on it, which is how the pool stops them.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # If the parent is killed outright (SIGKILL), take the workers down with it instead of
    # leaving them to finish chunks nobody will write.
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
            if os.getppid() == 1:  # the parent died before prctl took effect
                os._exit(1)
        except (OSError, AttributeError):
            pass


def _local_engine(todo: list[tuple[int, int]], rules: tuple[str, ...], jobs: int) -> Iterator[tuple[int, pd.DataFrame]]:
    tasks = [(f, n, rules) for f, n in todo]
    if jobs <= 1 or len(tasks) <= 1:
        # In-process: no pool start-up, and Ctrl-C interrupts between two solves.
        return (_solve_task(t) for t in tasks)
    # fork starts workers in milliseconds with the compiled kernel already imported. The
    # pool is made here, before the caller starts any thread (tqdm's monitor), because
    # forking a process that has other threads can copy a lock held by one of them.
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("fork" if "fork" in methods else methods[0])
    pool = ctx.Pool(min(jobs, len(tasks)), initializer=_worker_init)
    return _drain(pool, tasks)


def _drain(pool, tasks: list) -> Iterator[tuple[int, pd.DataFrame]]:
    try:
        yield from pool.imap_unordered(_solve_task, tasks, chunksize=1)
        pool.close()
    finally:
        # On Ctrl-C or any error: stop the workers now rather than after their chunks.
        pool.terminate()
        pool.join()


def _import_dask():
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise InputError("--engine dask needs Dask: pip install 'golfsolve[dask]'") from None
    return Client, LocalCluster, as_completed


def _dask_connect(jobs: int, scheduler: Optional[str]):
    """A connected ``(client, cluster)``; ``cluster`` is None for an external scheduler."""
    Client, LocalCluster, _ = _import_dask()
    if scheduler:
        try:
            return Client(scheduler, timeout="20s"), None
        except (OSError, TimeoutError, ValueError) as e:
            raise InputError(f"cannot connect to the Dask scheduler at {scheduler}: {e}") from None
    # No scheduler given: a private cluster on this machine, one single-threaded worker
    # process per job, listening on loopback only.
    cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                           host="127.0.0.1", dashboard_address=None)
    return Client(cluster), cluster


def _dask_engine(todo: list[tuple[int, int]], rules: tuple[str, ...], client) -> Iterator[tuple[int, pd.DataFrame]]:
    _, _, as_completed = _import_dask()
    tag = "-".join(rules)
    futures = [client.submit(_solve_task, (f, n, rules), key=f"golfsolve-chunk-{f}-{n}-{tag}", pure=False)
               for f, n in todo]
    try:
        for fut in as_completed(futures):
            yield fut.result()
            fut.release()
    finally:
        client.cancel(futures)


@dataclass
class RunResult:
    """What one invocation did."""

    out: Path
    spec: CensusSpec
    chunks_total: int
    chunks_before: int
    chunks_solved: int
    deals_solved: int
    seconds: float
    complete: bool
    engine: str
    jobs: int
    manifest: dict = field(repr=False, default_factory=dict)

    def to_json(self) -> dict:
        d = asdict(self)
        d["out"] = str(self.out)
        d["spec"] = self.spec.key()
        d.pop("manifest")
        return d


def run_census(
    out: str | Path,
    spec: CensusSpec,
    *,
    resume: bool = False,
    engine: str = "local",
    jobs: Optional[int] = None,
    scheduler: Optional[str] = None,
    command: str = "",
    progress: Optional[bool] = None,
    on_chunk: Optional[Callable[[int, int], None]] = None,
) -> RunResult:
    """Solve every chunk of ``spec`` whose file is missing in ``out``; write each as it ends.

    ``engine`` is ``"local"`` (a process pool of ``jobs`` workers, default all cores) or
    ``"dask"`` (the cluster at ``scheduler``, or a private local one). ``progress``: a tqdm
    bar on stderr; ``None`` shows it only on a terminal. ``on_chunk(first, count)`` is
    called after each chunk file is in place. A KeyboardInterrupt stops the workers and
    propagates; every chunk written before it stays, so ``resume=True`` continues.
    """
    if engine not in ("local", "dask"):
        raise InputError(f"unknown engine {engine!r} (local or dask)")
    jobs = jobs or os.cpu_count() or 1
    if jobs < 1:
        raise InputError(f"--jobs must be at least 1, not {jobs}")
    # Connect first, so that a missing Dask or an unreachable scheduler leaves no trace.
    dask = _dask_connect(jobs, scheduler) if engine == "dask" else None
    try:
        return _run(Path(out), spec, resume, engine, jobs, scheduler, command, progress, on_chunk, dask)
    finally:
        if dask is not None:
            dask[0].close()
            if dask[1] is not None:
                dask[1].close()


def _run(out: Path, spec: CensusSpec, resume: bool, engine: str, jobs: int, scheduler: Optional[str], command: str,
         progress: Optional[bool], on_chunk: Optional[Callable[[int, int], None]], dask) -> RunResult:
    from tqdm import tqdm

    manifest, todo = prepare_run(out, spec, resume, command)
    total = len(spec.chunks())
    before = total - len(todo)
    t0 = time.perf_counter()
    inv = {"command": command, "started": _now(), "engine": engine, "jobs": jobs,
           "scheduler": scheduler, "chunks_before": before}
    solved = deals = 0
    if todo:
        source = (_local_engine(todo, spec.rules, jobs) if engine == "local"
                  else _dask_engine(todo, spec.rules, dask[0]))
        done_deals = spec.count - sum(n for _, n in todo)
        bar = tqdm(total=spec.count, initial=done_deals, unit="deal", desc="deals", smoothing=0.1,
                   disable=(None if progress is None else not progress), file=sys.stderr, dynamic_ncols=True)
        try:
            for first, df in source:
                write_chunk(out, first, df)
                n = int(df["deal"].nunique())
                solved += 1
                deals += n
                bar.update(n)
                if on_chunk is not None:
                    on_chunk(first, n)
        finally:
            bar.close()
            if hasattr(source, "close"):
                source.close()  # stops the engine's workers when we leave early
            inv.update(finished=_now(), chunks_solved=solved, deals_solved=deals,
                       seconds=round(time.perf_counter() - t0, 3))
            complete = len(chunk_files(out).keys() & {f for f, _ in spec.chunks()}) == total
            inv["status"] = "complete" if complete else "interrupted"
            manifest = read_manifest(out)
            manifest["invocations"].append(inv)
            manifest["complete"] = complete
            _write_json_atomic(out / MANIFEST, manifest)
    complete = before + solved == total
    if not todo and not manifest.get("complete"):
        # All chunks were on disk already (an earlier run died after its last chunk).
        manifest["complete"] = True
        _write_json_atomic(out / MANIFEST, manifest)
    return RunResult(out, spec, total, before, solved, deals, time.perf_counter() - t0, complete or not todo,
                     engine, jobs, manifest)


# ---------------------------------------------------------------------------
# reading a run back
# ---------------------------------------------------------------------------
def load_results(out: str | Path, allow_incomplete: bool = True) -> pd.DataFrame:
    """Every row of the run in ``out`` as one DataFrame, sorted by deal then rule order.

    Checks that each chunk holds exactly its deals under every rule set; raises
    :class:`InputError` on a malformed directory, or on an incomplete run unless
    ``allow_incomplete``.
    """
    m = read_manifest(out)
    spec = spec_from_manifest(m)
    files = chunk_files(Path(out))
    expected = dict(spec.chunks())
    frames = []
    for first in sorted(files):
        if first not in expected:
            raise InputError(f"{files[first]} does not belong to this run ({_describe(spec)})")
        df = pd.read_parquet(files[first])
        n = expected[first]
        if len(df) != n * len(spec.rules) or df["deal"].min() != first or df["deal"].max() != first + n - 1:
            raise InputError(f"{files[first]} is damaged: expected deals {first}..{first + n - 1} "
                             f"under {len(spec.rules)} rule sets")
        frames.append(df)
    if not allow_incomplete and len(frames) != len(expected):
        raise InputError(f"{out}: only {len(frames)} of {len(expected)} chunks are done; finish with --resume")
    if not frames:
        return pd.DataFrame({c: pd.Series([], dtype=_DTYPES[c]) for c in COLUMNS})
    df = pd.concat(frames, ignore_index=True)
    order = {r: i for i, r in enumerate(spec.rules)}
    df = (df.assign(_r=df["rules"].map(order)).sort_values(["deal", "_r"], kind="stable")
          .drop(columns="_r").reset_index(drop=True))
    return df[list(COLUMNS)]


def run_status(out: str | Path) -> dict:
    """How far the run in ``out`` is: chunks and deals done out of the total."""
    m = read_manifest(out)
    spec = spec_from_manifest(m)
    files = chunk_files(Path(out))
    chunks = spec.chunks()
    done = [(f, n) for f, n in chunks if f in files]
    return {"chunks_done": len(done), "chunks_total": len(chunks),
            "deals_done": sum(n for _, n in done), "deals_total": spec.count,
            "complete": len(done) == len(chunks)}


__all__ = [
    "COLUMNS", "DEFAULT_RULES", "CensusSpec", "RunResult", "chunk_files", "chunk_name",
    "default_chunk_size", "load_results", "parse_rules_list", "prepare_run", "read_manifest",
    "run_census", "run_status", "solve_chunk", "spec_from_manifest", "write_chunk",
]
