"""Batch statistics over GO1 deals: solve every deal of a range, or every k-th deal
(``stride``, to sample the whole code space), under several rule sets.

A run (a *census*) is a run folder (:mod:`golfsolve.stats.runfolder`): ``_manifest.json``
with the run's parameters (first deal, deal count, stride, rule sets, chunk size), the
command line and one entry per invocation, and one Parquet chunk per fixed stretch of the
run's deals holding one row per deal and rule set (see :data:`COLUMNS`). Chunks are written
atomically, so a run killed at any moment loses at most the chunks in flight; ``--resume``
redoes exactly the chunks that are missing or damaged, ``--extend`` adds deals or rule sets
without redoing anything.

Workers only compute; the process that started the run writes every file. That is what
lets the Dask engine run on a cluster without a shared file system, and what makes the
local and the Dask engines produce the same files.
"""

from __future__ import annotations

import functools
import math
import os
import threading
import time
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Literal, Optional, Sequence

from ..errors import MAX_EFFORT, MAX_INT64, InputError, clip
from ..inputs import ascii_lower, callback, is_whole_number, whole_count
from ..solitaire.dealcode import N_DEALS, deal_number, format_code
from ..solitaire.layout import layout_from_number
from ..solitaire.rules import code_letter, get_rules
from ..text import ordinal, plural
from .runblocks import Chunk, chunk_name
from .runkey import RunKey, check_same_player, key_from_manifest
from .chunkschema import ChunkSchema
from .runfolder import RunFolder, check_chunk_size, check_chunks_made_with, check_resume_extend, name_list, whole_fields
from .runlayout import STATS
from .outdirs import check_out_dir
from .atomic import write_parquet_atomic
from .pool import check_jobs, compute
from .runfolder import chunk_files as _chunk_files
from .runfolder import status as _status
from .cluster import (other_code_error, code_digest, connect, dask_results, import_dask,
                      jobs_with_scheduler, private_cluster, scheduler_address)
from .runkind import RunKind, parse_rules_list, rules_described

if TYPE_CHECKING:  # the fair package is imported only by runs that rate deals
    import pandas as pd
    from pydantic import BaseModel

    from ..fair import PlayerSettings

DEFAULT_RULES = ("easy", "classic", "strict")
#: The largest default chunk: big enough that 1,000,000 deals make 2,000 files, small
#: enough that an interrupted run loses well under a minute of work per worker.
MAX_DEFAULT_CHUNK = 500

#: Columns of every chunk file and of :func:`load_results`, in order.
#: ``fields`` says what the row's solve computed: ``winnable,best_left``, or ``winnable``
#: (a verdict-only run: a lost deal's ``best_left`` and ``app_score`` are then missing).
COLUMNS = ("deal", "code", "rules", "winnable", "best_left", "app_score", "fields", "nodes", "seconds", "cpu_seconds")
_DTYPES = {
    "deal": "int64",
    "code": "string",
    "rules": "string",
    "winnable": "bool",
    "best_left": "Int8",
    "app_score": "Int16",
    "fields": "string",
    "nodes": "int64",
    "seconds": "float64",
    "cpu_seconds": "float64",
    "difficulty": "string",
    "fair_chance": "float64",
}
#: Columns a run made with ``--difficulty`` adds: :func:`golfsolve.fair.rate`
#: of each deal under each rule set (its label and fair chance, seed 0).
DIFFICULTY_COLUMNS = ("difficulty", "fair_chance")
#: Fair games per deal for ``--difficulty`` when none is given: half of ``golfsolve rate``'s
#: default, since a census rates every deal (about 0.4 s of CPU per Easy deal at 8; docs/stats.md).
DEFAULT_DIFFICULTY_GAMES = 8


def difficulty_player() -> "PlayerSettings":
    """The fair player that rates deals for ``--difficulty``: the ``fast`` preset, whose full
    settings the manifest records so that a resumed run never mixes two players."""
    from ..fair import PRESETS  # the fair package only for runs that rate deals
    return PRESETS["fast"]
#: What a run computes per deal: everything, or only whether it is winnable.
FIELDS = ("all", "winnable")
#: Arrow type of every chunk column (as pandas writes :data:`_DTYPES`).
_ARROW = {"int64": "int64", "string": "string", "bool": "bool", "Int8": "int8", "Int16": "int16",
          "float64": "double"}


# ---------------------------------------------------------------------------
# the parameters of a run
# ---------------------------------------------------------------------------
def default_chunk_size(count: int, jobs: int) -> int:
    """About ten chunks per worker for small runs (so the progress bar moves and the
    workers share the load evenly), at most :data:`MAX_DEFAULT_CHUNK` deals."""
    return CENSUS.default_chunk_size(count, jobs)


@dataclass(frozen=True)
class CensusSpec:
    """What a run solves: ``count`` deals under each of ``rules``, in chunks of
    ``chunk_size`` deals (the last chunk may be shorter).

    Deal ``i`` of the run (``i = 0 .. count - 1``) is deal number
    ``(start + i * stride) mod 26^7``: consecutive deals from ``start`` with the default
    stride 1, every ``stride``-th deal otherwise (:func:`spread_stride` spreads ``count``
    deals evenly over the whole code space). The run folder numbers its items by deal
    number when the stride is 1 and by position ``i`` in the run otherwise (see
    :meth:`first_item`); the table always holds the deal numbers and codes.
    """

    start: int
    count: int
    rules: tuple[str, ...] = DEFAULT_RULES
    chunk_size: int = MAX_DEFAULT_CHUNK
    fields: str = "all"
    #: Fair games per deal for the difficulty columns; 0: no difficulty columns.
    difficulty: int = 0
    #: Distance between consecutive deals of the run, in deal numbers.
    stride: int = 1

    def __post_init__(self) -> None:
        whole_fields(self, "start", "count", "chunk_size", "difficulty", "stride")
        name_list(self, "rules", "('easy', 'classic')")
        if self.difficulty < 0:
            raise InputError(f"--difficulty-games must be at least 1, not {self.difficulty}")
        if self.count < 1:
            raise InputError(f"--count must be at least 1, not {self.count}")
        if not 0 <= self.start < N_DEALS:
            raise InputError(f"the first deal number {self.start} is outside 0..{N_DEALS - 1}")
        if not 1 <= self.stride < N_DEALS:
            raise InputError(f"--stride must be from 1 to {N_DEALS - 1} (26^7 - 1), not {self.stride}")
        if self.stride == 1 and self.start + self.count > N_DEALS:
            raise InputError(f"deals {self.start}..{self.start + self.count - 1} run past the last deal {N_DEALS - 1}")
        distinct = stride_cycle(self.stride)
        if self.stride > 1 and self.count > distinct:
            raise InputError(f"--stride {self.stride} repeats deals after {distinct:,} of them (it shares the factor "
                             f"{N_DEALS // distinct:,} with 26^7); give --count {distinct:,} or fewer, or a stride "
                             "that is odd and not a multiple of 13")
        check_chunk_size(self.chunk_size)
        if not self.rules:
            raise InputError("a run needs at least one rule set")
        parse_rules_list(self.rules)  # unknown names, or one rule set under two names
        if self.difficulty > MAX_EFFORT:
            raise InputError(f"--difficulty-games must be at most {MAX_EFFORT}, not {self.difficulty}")
        if isinstance(self.fields, str):  # any case, as solve_deals takes it: 'WINNABLE' was refused here only
            object.__setattr__(self, "fields", ascii_lower(self.fields.strip()))
        if self.fields not in FIELDS:
            raise InputError(f"--fields must be one of {', '.join(FIELDS)}, not {self.fields!r}")

    @property
    def first_item(self) -> int:
        """The run folder's number for deal 0 of the run: its deal number when the stride
        is 1 (so runs of consecutive deals name chunks by deal, as they always have), else 0."""
        return self.start if self.stride == 1 else 0

    @property
    def end(self) -> int:
        """One past the run's last item (one past the last deal number when the stride is 1)."""
        return self.first_item + self.count

    def deal(self, i: int) -> int:
        """The deal number of deal ``i`` of the run (``0 <= i < count``)."""
        return (self.start + i * self.stride) % N_DEALS

    def item_deals(self, first: int, count: int) -> Sequence[int]:
        """The deal numbers of the run's items ``first .. first + count - 1`` (a chunk's deals)."""
        if self.stride == 1:
            return range(first, first + count)
        return [self.deal(i) for i in range(first, first + count)]

    def positions(self, deals: Sequence[int]) -> list[int]:
        """Where each of ``deals`` (deal numbers of the run) stands in the run: ``i`` for
        :meth:`deal` ``(i)``."""
        if self.stride == 1:
            return [d - self.start for d in deals]
        # (d - start) = i * stride (mod 26^7); stride / g is invertible modulo 26^7 / g, and
        # the run has at most 26^7 / g deals, so i is the one solution below that
        m = stride_cycle(self.stride)
        g = N_DEALS // m
        inv = pow(self.stride // g, -1, m)
        return [(int(d) - self.start) % N_DEALS // g * inv % m for d in deals]

    def covers(self) -> str:
        """Which deals the run holds, in words: ``deals 0..1999``, or ``2,000,000 deals
        spread over the GO1 code space, every 4,015th from 0``."""
        if self.stride == 1:
            return f"deals {self.start}..{self.end - 1}"
        # "spread over the code space" only for runs that reach across at least half of it
        spread = "spread over the GO1 code space, " if 2 * (self.count - 1) * self.stride >= N_DEALS else ""
        return f"{plural(self.count, 'deal')} {spread}every {ordinal(self.stride)} from {self.start}"

    def chunks(self) -> list[tuple[int, int]]:
        """``(first item, number of items)`` of every chunk, in run order (items are deal
        numbers when the stride is 1; see :meth:`item_deals`)."""
        return [(f, min(self.chunk_size, self.end - f)) for f in range(self.first_item, self.end, self.chunk_size)]

    def key(self) -> dict:
        """The fields a resumed run must agree on (``stride`` only when it is not 1)."""
        return {"start": self.start, "count": self.count, "rules": list(self.rules), "chunk_size": self.chunk_size,
                **({} if self.stride == 1 else {"stride": self.stride})}

    def run_key(self) -> RunKey:
        """The run folder's key for this spec."""
        # a full run of consecutive deals keeps the key it always had, so runs made before
        # --fields and --stride still resume
        params: dict[str, Any] = {}
        if self.difficulty:
            params.update(difficulty_games=self.difficulty, difficulty_player=difficulty_player().as_dict())
        if self.fields != "all":
            params["fields"] = self.fields
        if self.stride != 1:
            params.update(first_deal=self.start, stride=self.stride)
        return RunKey(CensusKind.format, self.first_item, self.count, self.rules, self.chunk_size,
                      tuple(sorted(params.items())))


def stride_cycle(stride: int) -> int:
    """How many distinct deals a run of every ``stride``-th deal reaches before it comes back
    to its first: (start + i * stride) mod 26^7 returns to start after 26^7 / gcd(stride, 26^7) steps."""
    return N_DEALS // math.gcd(stride, N_DEALS)


def spread_stride(count: int) -> int:
    """The stride that spreads ``count`` deals evenly over the whole GO1 code space:
    26^7 // count, so that the run never comes round to its start again."""
    count = whole_count(count, "count", -MAX_INT64, MAX_INT64)  # 2.5 would make a fractional stride
    if count < 1:
        raise InputError(f"--count must be at least 1, not {count}")
    if count > N_DEALS:  # the stride would be 0, refused by the spec as a --stride nobody gave
        raise InputError(f"--count {count:,} is more deals than the GO1 code space holds ({N_DEALS:,})")
    return N_DEALS // count if count > 1 else 1


def chunk_files(out: str | Path) -> dict[int, Path]:
    """Finished chunk files in ``out`` by first item: the first deal number, or in a run
    with a stride the first deal's position in the run (the first block's only, as before
    extending existed; temporary files are not included)."""
    found: dict[int, Path] = {}
    for name, p in _chunk_files(out).items():
        digits = name[len("chunk-"): -len(".parquet")]
        if digits.isascii() and digits.isdigit():
            found[int(digits)] = p
    return found


def read_manifest(out: str | Path) -> dict:
    """The checked manifest of the stats run in ``out``; :class:`InputError` when there is none
    or a field of it is wrong."""
    return CENSUS.read_manifest(out)


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


def solve_order(rule_sets: Sequence, verdict_only: bool) -> list[int]:
    """The order :func:`solve_chunk` solves a deal's rule sets in (indices of ``rule_sets``).

    Loosest first (:func:`~golfsolve.solitaire.solver.nesting_order`): its verdict and
    cards-left bound every stricter one from below. For the verdict only, stricter after
    looser, so that a deal lost under Classic is lost under Strict with no search. With
    the fewest cards left, the rest from the strictest up: Strict's best line is a line
    under Classic too, so Classic's search for the fewest cards left starts from it (and
    a Strict win is a Classic win), which saves more than Strict loses by not starting
    from Classic's bound (Easy, Strict, Classic against Easy, Classic, Strict, deals
    0..1999 interleaved deal by deal, same answers: 4.5-4.9% less CPU in all).
    """
    from ..solitaire.solver import nesting_order

    order = nesting_order(rule_sets)
    return order if verdict_only else order[:1] + order[:0:-1]


def solve_chunk(first: int, count: int, rules: Sequence[str], fields: str = "all",
                difficulty: int = 0) -> pd.DataFrame:
    """Solve deals ``first .. first + count - 1`` under every rule set in ``rules``
    (:func:`solve_deals` of that range)."""
    first = deal_number(first) if is_whole_number(first) else whole_count(first, "first", 0, N_DEALS - 1)
    count = whole_count(count, "count", 1, N_DEALS)  # 2.5 would fail in range(), -1 give an empty table
    return solve_deals(range(first, first + count), rules, fields, difficulty)


def _batch_args(deals: object, rules: object, fields: object, difficulty: object
                ) -> tuple[list[int], tuple[str, ...], str, int]:
    """:func:`solve_deals`' arguments, checked before the first deal is solved as
    :class:`CensusSpec` checks a run's: deal numbers, a list of distinct known rule sets, a
    field choice (any case) and a count of fair games. Was: fields 'WINNABLE' or 'bogus'
    solved as 'all', rules 'easy' were rule sets 'e', 'a', ..., ['easy', 'wrap'] gave each
    deal twice, [] an empty table, difficulty=-1 failed after every deal was solved."""
    if isinstance(deals, (str, bytes)) or not hasattr(deals, "__iter__"):
        raise TypeError(f"deals must be a list of deal numbers, e.g. range(0, 100), not {type(deals).__name__} "
                        f"{repr(deals)[:40]}")
    numbers = [deal_number(d) for d in deals]  # type: ignore[union-attr]
    # a set's order differs from process to process (its strings' hashes): so did the rows'
    if isinstance(rules, (str, set, frozenset, dict)) or not hasattr(rules, "__iter__"):
        raise TypeError(f"rules must be a list of names, e.g. ('easy', 'classic'), not {type(rules).__name__} "
                        f"{repr(rules)[:40]}")
    names = parse_rules_list(list(rules), "rules")  # type: ignore[call-overload]
    field_name = ascii_lower(fields.strip()) if isinstance(fields, str) else None
    if field_name not in FIELDS:
        raise InputError(f"fields must be one of {', '.join(FIELDS)}, not {fields!r}")
    return numbers, names, field_name, whole_count(difficulty, "difficulty", 0, MAX_EFFORT)


def solve_deals(deals: Sequence[int], rules: Sequence[str], fields: str = "all",
                difficulty: int = 0) -> pd.DataFrame:
    """Solve the deal numbers ``deals`` under every rule set in ``rules``.

    One row per deal and rule set, deal-major (in the order of ``deals``, then of ``rules``), with the
    columns of :data:`COLUMNS`. ``fields="winnable"`` answers won/lost only. ``nodes``
    is the same for the same deals and ``rules`` (solved beside other rule sets, a deal may
    search another number, see below); ``seconds`` is the solver's wall time and ``cpu_seconds`` the CPU
    time of the solve (including dealing the layout): on a shared machine only the
    latter measures the solver's speed.

    Each deal's rule sets are solved in :func:`solve_order`, so that each starts from
    what the others proved (:meth:`~golfsolve.solitaire.solver.Solver.solve_given`):
    lost under looser rules is lost here and the search stops at their best cards-left;
    a winning line that is legal here too is a win here; a stricter rule set's best line
    is a line here, which the search for the fewest cards left only has to beat.

    ``difficulty`` (fair games per deal) adds the :data:`DIFFICULTY_COLUMNS`; their cost
    is not in ``cpu_seconds``.
    """
    from ..solitaire.solver import pack_number

    deals, rules, fields, difficulty = _batch_args(deals, rules, fields, difficulty)
    solver = _solver()
    verdict_only = fields == "winnable"
    rule_sets = [get_rules(r) for r in rules]
    order = solve_order(rule_sets, verdict_only)
    cols: dict[str, list] = {c: [] for c in COLUMNS}
    for n in deals:
        done: dict[int, tuple] = {}
        # the cards depend only on the jokers and the empty start, so rule sets that share
        # them share one dealt and packed position (its cost is charged to the first)
        packed: dict[tuple, object] = {}
        for i in order:
            r = rule_sets[i]
            letter = code_letter(r)
            c0 = time.thread_time()
            deck_key = (r.jokers, r.empty_start)
            p = packed.get(deck_key)
            if p is None:
                p = packed[deck_key] = pack_number(n, r)
            sol = solver.solve_given(p, r, [d[0] for d in done.values()], verdict_only=verdict_only)
            done[i] = (sol, time.thread_time() - c0, letter)
        for i, r in enumerate(rule_sets):
            sol, cpu, letter = done[i]
            cols["deal"].append(n)
            cols["code"].append(format_code(n, letter))
            cols["rules"].append(r.name)
            cols["winnable"].append(sol.outcome == "won")
            cols["best_left"].append(sol.best_left)
            cols["app_score"].append(sol.app_score)
            cols["fields"].append("winnable" if sol.best_left is None else "winnable,best_left")
            cols["nodes"].append(sol.nodes)
            cols["seconds"].append(sol.seconds)
            cols["cpu_seconds"].append(cpu)
    if difficulty:
        from ..fair.difficulty import rate

        for n, name in zip(cols["deal"], cols["rules"]):
            r = get_rules(name)
            rating = rate(layout_from_number(n, r, code_letter(r)), r, difficulty, 0, solver, difficulty_player())
            cols.setdefault("difficulty", []).append(rating.label)
            cols.setdefault("fair_chance", []).append(rating.fair_chance)
    import pandas as pd

    return pd.DataFrame({c: pd.Series(v, dtype=_DTYPES[c]) for c, v in cols.items()})


def write_chunk(out: str | Path, first: int, df: pd.DataFrame) -> Path:
    """Write the first block's chunk starting at deal ``first`` atomically."""
    return write_parquet_atomic(Path(out) / chunk_name(first), df)


# ---------------------------------------------------------------------------
# engines: each yields (first, DataFrame) as chunks finish, in any order
# ---------------------------------------------------------------------------
def _solve_task(chunk: Chunk, spec: CensusSpec) -> pd.DataFrame:
    return solve_deals(spec.item_deals(chunk.first, chunk.count), chunk.groups, spec.fields, spec.difficulty)


def _warm_kernels(rules: Sequence[str]) -> None:
    """Load (or compile, saying so) the kernels solving under the rule sets ``rules`` needs."""
    from ..solitaire.solver import warm  # the solver (and numpy) load once a run starts, as _solver's

    warm([get_rules(r) for r in rules])


def _warm(rules: Sequence[str]) -> None:
    """Load every kernel the rule sets use (Strict has its own), so that no timed solve
    includes compiling or loading the cache. In the parent of a run it compiles what the
    cache lacks (saying so), once; forked workers then find it done, and Dask workers on
    the same machine load the cache."""
    _warm_kernels(rules)
    for r in rules:
        rs = get_rules(r)
        _solver().solve(layout_from_number(0, rs), rs)


def _dask_connect(jobs: int, scheduler: Optional[str], note: Optional[Callable[[str], None]] = None):
    """A connected ``(client, cluster)``; ``cluster`` is None for an external scheduler, whose
    workers are checked to run this machine's golfsolve before anything is computed (``note``
    is told what Dask warns of meanwhile, in one line)."""
    Client, _, _ = import_dask()
    if scheduler:
        return connect(scheduler, note), None
    # No scheduler given: a private cluster on this machine, one single-threaded worker
    # process per job, closed with its workers whatever stops the run from here on.
    cluster = private_cluster(jobs)
    try:
        return Client(cluster), cluster
    except BaseException:
        cluster.close()
        raise


def _dask_task(chunk: Chunk, spec: CensusSpec, digest: str) -> pd.DataFrame:
    if not getattr(_local, "warm", False):
        # a worker that joined after the run checked the workers (check_workers) may run other code
        if code_digest() != digest:
            from distributed import get_worker

            raise other_code_error(get_worker().address)
        _warm(spec.rules)
        _local.warm = True
    return _solve_task(chunk, spec)


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
    repaired: list = field(default_factory=list)
    manifest: dict = field(repr=False, default_factory=dict)

    def to_json(self) -> dict:
        """What ``golfsolve stats --json`` prints of the invocation (the spec as its key, no manifest)."""
        d = asdict(self)
        d["out"] = str(self.out)
        d["spec"] = self.spec.key()
        d["seconds"] = round(self.seconds, 3)  # as the manifest records it, not 0.34176375200331677
        d.pop("manifest")
        return d


def run_census(
    out: str | Path,
    spec: CensusSpec,
    *,
    resume: bool = False,
    extend: bool = False,
    engine: str = "local",
    jobs: Optional[int] = None,
    scheduler: Optional[str] = None,
    command: str = "",
    progress: Optional[bool] = None,
    on_chunk: Optional[Callable[[int, int], None]] = None,
    on_note: Optional[Callable[[str], None]] = None,
) -> RunResult:
    """Solve every chunk of ``spec`` that is missing or damaged in ``out``; write each as it ends.

    ``resume`` continues the same run; ``extend`` grows the run in ``out`` to ``spec``
    (more deals, more rule sets) without redoing what is there. ``engine`` is ``"local"``
    (a process pool of ``jobs`` workers, default all cores) or ``"dask"`` (the cluster at
    ``scheduler``, whose workers solve, so ``jobs`` is refused beside it; or a private local
    one of ``jobs`` workers). ``progress``: a tqdm bar on stderr; ``None``
    shows it only on a terminal. ``on_chunk(first, count)`` is called after each chunk
    file is in place. ``on_note(text)`` is told what a person waiting should know (a Dask
    scheduler with no worker connected: the run waits for one). A KeyboardInterrupt stops
    the workers and propagates; every chunk written before it stays, so ``resume=True``
    continues.
    """
    # any case, as the other named choices (fields, rules, presets) take it
    engine = ascii_lower(engine.strip()) if isinstance(engine, str) else engine
    if engine not in ("local", "dask"):
        raise InputError(f"unknown engine {engine!r} (local or dask)")
    check_resume_extend(resume, extend)  # before a Dask cluster is reached
    callback(on_chunk, "on_chunk", "of a chunk's first deal and count")
    callback(on_note, "on_note", "of a line of text")
    if engine == "dask" and scheduler is not None:
        scheduler = scheduler_address(scheduler)
        if jobs is not None:
            raise jobs_with_scheduler(scheduler)
    # None, not 0, means every core: jobs=0 is refused as --jobs 0 is
    jobs = (os.cpu_count() or 1) if jobs is None else jobs
    jobs = check_jobs(jobs)  # a plain int: a NumPy one reaches the manifest, which JSON cannot write
    check_out_dir(out, create=False)
    # Connect first, so that a missing Dask or an unreachable scheduler leaves no trace.
    dask = _dask_connect(jobs, scheduler, on_note) if engine == "dask" else None
    t0 = time.perf_counter()
    try:
        if dask is not None and dask[1] is not None:
            _warm_kernels(spec.rules)  # the private cluster's workers load the cache
        source = None if dask is None else (lambda todo, full: dask_results(
            todo, full, dask[0], scheduler, _dask_task, on_note if scheduler else None))
        inv, folder = CENSUS.run(out, spec, resume=resume, extend=extend, jobs=jobs, command=command,
                                 # an external scheduler's workers are not this machine's cores
                                 progress=progress, info={"engine": engine, "jobs": None if scheduler else jobs,
                                                          "scheduler": scheduler},
                                 source=source,
                                 on_chunk=None if on_chunk is None else (lambda c: on_chunk(c.first, c.count)))
    finally:
        if dask is not None:
            dask[0].close()
            if dask[1] is not None:
                dask[1].close()
    full = CENSUS.from_manifest(folder.manifest)
    return RunResult(Path(out), full, len(folder.chunks()), inv["chunks_before"], inv["chunks_solved"],
                     inv["items_solved"], time.perf_counter() - t0, inv["status"] == "complete", engine, jobs,
                     inv["repaired"], folder.manifest)


#: What a row's ``fields`` says it holds: the verdict alone (a lost deal in a verdict-only run) or both.
_ROW_FIELDS = ("winnable", "winnable,best_left")


def check_rows(table: Any, spec: CensusSpec) -> Optional[str]:
    """Why a chunk's values are not what :func:`solve_deals` writes for the run ``spec`` (None:
    they are): a code that is not its deal's, a cards-left count out of range or at odds with
    the verdict or the app score, a verdict-only row in a run of all fields, a time that is
    no time, a difficulty label that is not its fair chance's. Only what holds for every row
    an honest run writes; a value edited by hand would otherwise reach the report."""
    import numpy as np

    from ..solitaire.layout import N_TABLEAU
    from ..solitaire.solver import app_score
    from .chunkschema import bad_time, first_bad_row, row_values
    from .runkind import code_check

    n = table.num_rows
    won = row_values(table, "winnable", False)
    has_left = ~table.column("best_left").is_null().to_numpy()
    has_score = ~table.column("app_score").is_null().to_numpy()
    left = row_values(table, "best_left").astype(np.int64)
    score = row_values(table, "app_score").astype(np.int64)
    # chunks written before the fields column existed computed both fields
    fields = (row_values(table, "fields") if "fields" in table.column_names
              else np.full(n, "winnable,best_left", dtype=object))
    in_range = (left >= 0) & (left <= N_TABLEAU)
    scored = np.array([app_score(k) for k in range(N_TABLEAU + 1)])[np.where(in_range, left, 0)]
    nodes = row_values(table, "nodes")
    checks = [
        code_check(table),
        (~np.isin(fields, _ROW_FIELDS), lambda i: f"fields {clip(fields[i])}, not one of {', '.join(_ROW_FIELDS)}"),
        ((fields == "winnable") & (spec.fields == "all"),
         lambda i: "fields 'winnable' (the verdict only) in a run that computes every field"),
        ((fields == "winnable") == has_left,
         lambda i: f"fields {clip(fields[i])} and {f'best_left {left[i]}' if has_left[i] else 'no best_left'}"),
        (has_left != has_score, lambda i: f"{f'best_left {left[i]}' if has_left[i] else 'no best_left'} and "
                                          f"{f'app_score {score[i]}' if has_score[i] else 'no app_score'}"),
        (has_left & ~in_range, lambda i: f"best_left {left[i]}, not a count of cards from 0 to {N_TABLEAU}"),
        (has_left & (won != (left == 0)), lambda i: f"winnable {bool(won[i])} and best_left {left[i]}"),
        (~has_left & won, lambda i: "winnable True and no best_left (only a lost deal's is left out)"),
        (has_left & (score != scored), lambda i: f"app_score {score[i]}, where best_left {left[i]} scores {scored[i]}"),
        (nodes < 0, lambda i: f"nodes {nodes[i]}, below 0"),
    ]
    for c in ("seconds", "cpu_seconds"):
        x = row_values(table, c)
        checks.append((bad_time(x), lambda i, c=c, x=x: f"{c} {x[i]}, which no clock measures"))
    if spec.difficulty:
        from ..fair.settings import LABELS, label_of

        label, chance = row_values(table, "difficulty"), row_values(table, "fair_chance")
        with np.errstate(invalid="ignore"):
            share = np.isfinite(chance) & (chance >= 0) & (chance <= 1)
        banded = np.array([label_of(x) if ok else "" for x, ok in zip(chance.tolist(), share.tolist())], dtype=object)
        checks += [(~np.isin(label, LABELS), lambda i: f"difficulty {clip(label[i])}, not one of {', '.join(LABELS)}"),
                   (~share, lambda i: f"fair_chance {chance[i]}, not a share from 0 to 1"),
                   (label != banded, lambda i: f"difficulty {clip(label[i])}, where fair_chance {chance[i]} is {banded[i]!r}")]
    return first_bad_row(table, "deal", "rules", checks)


@functools.cache
def _params_model() -> type[BaseModel]:
    """The pydantic model of a stats manifest's ``params`` (pydantic loads only when a run is read)."""
    from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

    class _Params(BaseModel):
        """The ``params`` of a stats manifest."""

        model_config = ConfigDict(extra="forbid")
        fields: Literal["all", "winnable"] = "all"
        difficulty_games: Optional[StrictInt] = Field(default=None, ge=1, le=MAX_EFFORT)
        #: the fair player's full settings (checked when a run is resumed or extended: equal or refused)
        difficulty_player: Optional[dict[StrictStr, Any]] = None
        #: a run of every k-th deal: k, and its first deal number (the run's items are then positions)
        stride: Optional[StrictInt] = Field(default=None, ge=2, lt=N_DEALS)
        first_deal: Optional[StrictInt] = Field(default=None, ge=0, lt=N_DEALS)

    return _Params


def _given(v, default):
    return default if v is None else v


class CensusKind(RunKind[CensusSpec]):
    """``golfsolve stats``: deals x rule sets, solved exactly."""

    format = STATS
    command = "golfsolve stats"
    item = "deal"
    params_type = CensusSpec
    make_params_model = staticmethod(_params_model)
    max_default_chunk = MAX_DEFAULT_CHUNK
    max_items = N_DEALS

    def from_manifest(self, m: dict) -> CensusSpec:
        p = m.get("params", {})
        stride = p.get("stride") or 1
        if stride != 1 and (m["start"] != 0 or p.get("first_deal") is None):
            raise InputError("a run with a stride numbers its deals from start 0 and names its first deal "
                             "in params.first_deal")
        if stride == 1 and p.get("first_deal") is not None:
            raise InputError("params.first_deal belongs to a run with a stride")
        return CensusSpec(m["start"] if stride == 1 else p["first_deal"], m["count"], tuple(m["rules"]),
                          m["chunk_size"], p.get("fields", "all"), p.get("difficulty_games") or 0, stride)

    def schema(self, p: CensusSpec) -> ChunkSchema:
        cols = COLUMNS + (DIFFICULTY_COLUMNS if p.difficulty else ())
        return ChunkSchema(tuple((c, _ARROW[_DTYPES[c]]) for c in cols), "deal", "rules",
                           nullable=frozenset({"best_left", "app_score"}),
                           # chunks written before the fields column existed computed both fields
                           optional=frozenset({"fields"}),
                           item_values=None if p.stride == 1 else p.item_deals,
                           rows=partial(check_rows, spec=p))

    def complete(self, v: dict, jobs: int) -> CensusSpec:
        if v["count"] is None:
            raise InputError("--count N is required (how many deals to solve)")
        return CensusSpec(_given(v["start"], 0), v["count"], tuple(_given(v["rules"], DEFAULT_RULES)),
                          _given(v["chunk_size"], self.default_chunk_size(v["count"], jobs)),
                          _given(v["fields"], "all"), _given(v["difficulty"], 0), _given(v["stride"], 1))

    def source(self, todo: Sequence[Chunk], p: CensusSpec, jobs: int) -> Iterator[tuple[Chunk, pd.DataFrame]]:
        if todo:
            _warm_kernels(p.rules)  # once, here, before the workers fork
        return compute(todo, partial(_solve_task, spec=p), jobs, partial(_warm, p.rules))

    def check_continued(self, out: str | Path, p: CensusSpec, flag: str) -> None:
        m = self.read_manifest(out)
        rater = m["params"].get("difficulty_player")
        if p.difficulty and isinstance(rater, dict):
            # an edit of the manifest is named as such, not as the player the deals were rated with
            check_chunks_made_with(Path(out), key_from_manifest(m))
            check_same_player(rater, difficulty_player(), flag, "difficulty_player", "rated its deals", None)

    def manifest_extra(self, p: CensusSpec) -> dict:
        return {"columns": list(COLUMNS + (DIFFICULTY_COLUMNS if p.difficulty else ())),
                "rules_described": rules_described(p.rules)}


#: The stats run kind.
CENSUS = CensusKind()


# ---------------------------------------------------------------------------
# reading a run back
# ---------------------------------------------------------------------------
def load_results(out: str | Path, allow_incomplete: bool = True) -> pd.DataFrame:
    """Every row of the run in ``out`` as one DataFrame, sorted by deal then rule order.

    Checks that each chunk holds exactly its deals under its rule sets; raises
    :class:`InputError` naming a damaged chunk and the command that repairs it, and on an
    incomplete run unless ``allow_incomplete``.
    """
    import pandas as pd

    m, _, frames = CENSUS.load(out, allow_incomplete)
    if not frames:
        return pd.DataFrame({c: pd.Series([], dtype=_DTYPES[c]) for c in COLUMNS + _rated(m)})
    df = pd.concat(frames, ignore_index=True)
    # chunks written before the fields column existed computed both fields
    df["fields"] = (df["fields"] if "fields" in df.columns else pd.Series(pd.NA, index=df.index, dtype="string")
                    ).fillna("winnable,best_left")
    df = df.astype({c: _DTYPES[c] for c in ("best_left", "app_score", "fields")})
    order = {r: i for i, r in enumerate(m["rules"])}
    df = (df.assign(_r=df["rules"].map(order)).sort_values(["deal", "_r"], kind="stable")
          .drop(columns="_r").reset_index(drop=True))
    return df[list(COLUMNS + _rated(m))]


def _rated(m: dict) -> tuple[str, ...]:
    # the difficulty columns are there exactly when the run was made with --difficulty
    return DIFFICULTY_COLUMNS if m.get("params", {}).get("difficulty_games") else ()


def run_status(out: str | Path) -> dict:
    """How far the run in ``out`` is: chunks and deals done out of the total."""
    m = read_manifest(out)
    st = _status(RunFolder(Path(out), m))
    n_rules = max(1, len(m["rules"]))
    return {"chunks_done": st["chunks_done"], "chunks_total": st["chunks_total"],
            "deals_done": st["items_done"] // n_rules, "deals_total": int(m["count"]),
            "complete": st["complete"]}


__all__ = [
    "COLUMNS", "DEFAULT_RULES", "DEFAULT_DIFFICULTY_GAMES", "DIFFICULTY_COLUMNS", "CensusSpec", "RunResult", "chunk_files",
    "CENSUS", "default_chunk_size", "load_results", "parse_rules_list", "read_manifest",
    "run_census", "run_status", "solve_chunk", "solve_deals", "spread_stride", "stride_cycle", "write_chunk",
]
