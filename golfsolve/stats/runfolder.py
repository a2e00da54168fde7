"""Run folders: how every long batch run (``stats``, ``fair-stats``, ``grid simulate``) keeps its results.

A run folder holds

* ``_manifest.json``: what the run covers (its kind, its item range, its groups such as rule
  sets, its chunk size and any other parameter that must not change), the command that made
  it and one entry per invocation. The leading underscore makes pyarrow and pandas skip it,
  so ``pd.read_parquet(DIR)`` reads the folder as one table. Runs made before this name
  have ``manifest.json``; they are read as they are and renamed when written again.
* ``chunk-<first item, 10 digits>[-<block>].parquet``: one file per fixed range of items,
  written to a hidden temporary name, flushed and renamed into place, so a chunk file is
  complete or absent whatever happens (Ctrl-C, ``kill -9``, a power cut).

Resuming re-does every chunk that is missing, cannot be read (truncated) or does not match
its run kind's :class:`ChunkSchema` (a column missing or of another type, the wrong rows)
and says which. A run is *extended* by giving more items or more groups: the manifest then
lists *blocks*, each a rectangle of groups x items chunked on its own, so what is there is
never redone. A folder is never shared by two different runs, never holds another run and
never sits inside one; the manifest is checked (:class:`~.manifestmodel.ManifestModel`) before anything
uses it, and the command writing a folder holds its advisory lock (:data:`~.runlayout.LOCK`). Its file
names, kinds of run and limits are plain constants in :mod:`.runlayout`.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import operator
import os
import time
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional, Sequence

from ..errors import MAX_INT64, InputError
from ..inputs import flag, is_whole_number
from ..progress import progress_bar
from ..text import ordinal, plural, plural_of
from .atomic import write_json_atomic, write_json_new, write_parquet_atomic
from .outdirs import check_out_dir, check_out_type, first_names, visible_names
from .runlayout import CHUNK_PREFIX, COMMANDS, LOCK, MANIFEST, MAX_BLOCKS, MAX_CHUNKS, MAX_MANIFEST_BYTES, OLD_MANIFEST

if TYPE_CHECKING:  # pandas and pydantic load when a run is read or written: bad arguments are refused before
    import pandas as pd


# ---------------------------------------------------------------------------
# what a run covers
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Block:
    """Items ``start .. start + count - 1`` under each of ``groups`` (for example rule sets)."""

    groups: tuple[str, ...]
    start: int
    count: int

    def to_json(self) -> dict:
        """The block as a manifest lists it."""
        return {"rules": list(self.groups), "start": self.start, "count": self.count}

    @staticmethod
    def from_json(d: dict) -> "Block":
        """The block a manifest lists (:meth:`to_json`'s dict)."""
        return Block(tuple(d["rules"]), int(d["start"]), int(d["count"]))


@dataclass(frozen=True)
class Chunk:
    """One chunk file: items ``first .. first + count - 1`` under each of ``groups``."""

    name: str
    first: int
    count: int
    groups: tuple[str, ...]

    @property
    def last(self) -> int:
        """The last item number of the chunk."""
        return self.first + self.count - 1


def chunk_name(first: int, block: int = 0) -> str:
    """File name of the chunk of ``block`` starting at item ``first`` (names sort by item)."""
    return f"{CHUNK_PREFIX}{first:010d}{'' if block == 0 else f'-{block}'}.parquet"


def block_chunks(blocks: Sequence[Block], chunk_size: int) -> list[Chunk]:
    """Every chunk of ``blocks``, each block cut into ``chunk_size`` items from its start."""
    out = []
    for k, b in enumerate(blocks):
        end = b.start + b.count
        for f in range(b.start, end, chunk_size):
            out.append(Chunk(chunk_name(f, k), f, min(chunk_size, end - f), b.groups))
    return out


def extend_blocks(blocks: Sequence[Block], groups: Sequence[str], start: int, count: int,
                  new_groups: Sequence[str], new_count: int,
                  items: str = "items") -> tuple[list[Block], tuple[str, ...]]:
    """The blocks of a run of ``groups`` x items ``start..start+count-1`` grown to
    ``new_groups`` x ``new_count`` items: the old items under new groups, and new items
    under all groups. Returns the blocks and the run's groups in order (old ones first).

    Raises :class:`InputError` when the new run would drop items (called ``items`` there) or groups.
    """
    dropped = [g for g in groups if g not in new_groups]
    if dropped:
        raise InputError(f"--extend keeps every rule set of the run; {', '.join(dropped)} is missing "
                         f"(give {','.join(list(groups) + [g for g in new_groups if g not in groups])})")
    if new_count < count:
        raise InputError(f"--extend cannot shrink the run from {count:,} {items} to {new_count:,}")
    added = tuple(g for g in new_groups if g not in groups)
    out = list(blocks)
    if new_count > count:
        out.append(Block(tuple(groups), start + count, new_count - count))
    if added:
        out.append(Block(added, start, new_count))
    return out, tuple(groups) + added


# ---------------------------------------------------------------------------
# the manifest
# ---------------------------------------------------------------------------
def manifest_path(out: str | Path) -> Optional[Path]:
    """The run's manifest file (the current or the old name), or None when there is none."""
    for name in (MANIFEST, OLD_MANIFEST):
        p = Path(out) / name
        if p.exists():
            return p
    return None


def validate_manifest(m: Any, path: Path) -> dict:
    """``m`` checked against :class:`~.manifestmodel.ManifestModel`, with its blocks filled in; :class:`InputError`
    naming ``path`` and the field otherwise."""
    from pydantic import ValidationError

    from .manifestmodel import ManifestModel, field_error

    try:
        model = ManifestModel.model_validate(m)
    except ValidationError as e:
        raise field_error(path, e) from None
    out = dict(m)
    if model.blocks is None:  # a run from before extending existed: one block
        out["blocks"] = [Block(tuple(model.rules), model.start, model.count).to_json()]
    out.setdefault("params", {})
    return out


def read_manifest(out: str | Path, fmt: Optional[str] = None) -> dict:
    """The manifest of the run in ``out`` (of kind ``fmt`` if given), checked against
    :class:`~.manifestmodel.ManifestModel`; :class:`InputError` if there is none or it is not valid."""
    check_out_type(out)  # every reader of a run starts here: 5 is no folder (Path(5) names nothing)
    p = manifest_path(out)
    what = COMMANDS.get(fmt or "", "golfsolve")
    if p is None:
        raise InputError(f"{out} holds no {what} run (no {MANIFEST})")
    if not p.is_file():
        raise InputError(f"{p} is not a file")
    if p.stat().st_size > MAX_MANIFEST_BYTES:
        raise InputError(f"{p} is larger than {MAX_MANIFEST_BYTES // 2**20} MB; it is not a golfsolve manifest")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, ValueError) as e:
        raise InputError(f"cannot read {p}: {e}") from None
    if not text.strip():
        # json's "Expecting value: line 1 column 1 (char 0)" says neither what is wrong nor what to do
        raise InputError(f"{p} is empty (damaged: golfsolve writes it whole); put back a copy of it, or start the "
                         "run again in a new folder")
    try:
        m = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise InputError(f"{p} is not complete JSON ({e}): cut short or edited by hand; put back a copy of it, "
                         "or start the run again in a new folder") from None
    if not isinstance(m, dict) or not isinstance(m.get("format"), str) or m["format"] not in COMMANDS:
        raise InputError(f"{p} is not a golfsolve run manifest")
    if fmt is not None and m["format"] != fmt:
        raise InputError(f"{out} holds a '{COMMANDS[m['format']]}' run, not a '{COMMANDS[fmt]}' run; "
                         "choose another directory")
    return validate_manifest(m, p)


def now() -> str:
    """The current UTC time, ISO format, for manifests."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def running_version() -> str:
    """golfsolve's version as the running code has it: the installed distribution's metadata may
    be another copy's (a checkout on PYTHONPATH) or missing (a checkout never installed)."""
    from .. import __version__  # read at each call, not bound once at import

    return __version__


@dataclass(frozen=True)
class RunKey:
    """What a run covers: ``count`` items from ``start`` under each of ``groups``, in chunks
    of ``chunk_size``; ``params`` are the settings that must not change within a run."""

    fmt: str
    start: int
    count: int
    groups: tuple[str, ...]
    chunk_size: int
    params: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict:
        """The key's fields as a manifest holds them."""
        return {"start": self.start, "count": self.count, "rules": list(self.groups),
                "chunk_size": self.chunk_size, "params": dict(self.params)}

    def items(self) -> str:
        """What the run's items are called: ``deals`` or ``matches``."""
        return {"golfsolve-grid-simulate/1": "matches", "golfsolve-grid-study/1": "matches"}.get(self.fmt, "deals")

    def describe(self) -> str:
        """The run in one line, for messages: its items, rule sets, chunk size and plain settings."""
        p = dict(self.params)
        strided = bool(p.get("stride"))
        if strided:  # the items are positions in the run; the params say which deals they are
            s = f"{plural(self.count, 'deal' if self.items() == 'deals' else 'match', self.items())}, every {ordinal(p['stride'])} from {p.get('first_deal')}"
        else:
            s = f"{self.items()} {self.start}..{self.start + self.count - 1}"
        if self.groups:
            s += f", rules {','.join(self.groups)}"
        s += f", chunk size {self.chunk_size}"
        for k, v in self.params:
            # a whole table of settings is too long to show; the stride is said above; every
            # fair-stats run this golfsolve makes seeds its games alike, so "game_seed" says nothing
            if (v is not None and not isinstance(v, (dict, list)) and not (strided and k in ("first_deal", "stride"))
                    and k != "game_seed"):
                s += f", {k} {v}"
        return s


#: The params that record a fair player's settings: fair-stats' player, a --difficulty census's.
_PLAYER_PARAMS = ("player", "difficulty_player")


def _as_played(params: dict) -> dict:
    """``params`` as a run's manifest or chunk records them, with every fair player's settings
    complete: a setting added after the run was made is missing there, and its player had the
    setting's default, so the run resumes as the same run when its player is the same."""
    if not any(isinstance(params.get(k), dict) for k in _PLAYER_PARAMS):
        return params
    from ..fair.settings import PlayerSettings  # plain data, not the player

    defaults = {f.name: f.default for f in dataclasses.fields(PlayerSettings)}
    return {k: {**defaults, **v} if k in _PLAYER_PARAMS and isinstance(v, dict) else v for k, v in params.items()}


def as_played_key(key: RunKey) -> RunKey:
    """``key`` with its params as a manifest reads them (:func:`key_from_manifest`): every fair
    player's settings complete."""
    return dataclasses.replace(key, params=tuple(sorted(_as_played(dict(key.params)).items())))


def key_from_manifest(m: dict) -> RunKey:
    """The :class:`RunKey` a manifest describes."""
    return RunKey(m["format"], int(m["start"]), int(m["count"]), tuple(m["rules"]), int(m["chunk_size"]),
                  tuple(sorted(_as_played(m.get("params", {})).items())))


class RunFolder:
    """An open run folder: its manifest, its chunks and what is still to do.

    One opened by :func:`open_run` holds the folder's lock until :meth:`close` (or the end of
    a ``with`` block): no other command writes the folder meanwhile.
    """

    def __init__(self, path: Path, manifest: dict, lock: Optional[int] = None) -> None:
        self.path = path
        self.manifest = manifest
        self._lock = lock
        #: ``(chunk file, reason)`` for each chunk found truncated or damaged and to be redone.
        self.repairs: list[tuple[str, str]] = []
        self._where = _identity(path)

    def check_in_place(self) -> None:
        """:class:`InputError` if ``path`` no longer names the folder opened (moved, renamed or
        removed while the run wrote it): its chunks would go to whatever folder now has that
        name, another run's perhaps, or fail there naming a temporary file."""
        if self._where is not None and _identity(self.path) != self._where:
            raise InputError(f"the run folder {self.path} was moved, renamed or removed while this command wrote "
                             "it; the chunks written so far went with it: finish the run with --resume and --out "
                             "naming the folder where it is now")

    def close(self) -> None:
        """Release the folder's lock (if this object holds it)."""
        if self._lock is not None:
            os.close(self._lock)  # closing the descriptor releases the flock
            self._lock = None

    def __enter__(self) -> "RunFolder":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def key(self) -> RunKey:
        """The run key recorded in the folder's manifest."""
        return key_from_manifest(self.manifest)

    @property
    def blocks(self) -> list[Block]:
        """The blocks of work the manifest records, in the order they were added."""
        return [Block.from_json(b) for b in self.manifest["blocks"]]

    def chunks(self) -> list[Chunk]:
        """Every chunk of the run."""
        return block_chunks(self.blocks, self.key.chunk_size)

    def save_manifest(self) -> None:
        """Write the manifest atomically (a kill never leaves half a manifest)."""
        write_json_atomic(self.path / MANIFEST, self.manifest)
        old = self.path / OLD_MANIFEST
        if old.exists():  # the old name would stop pandas reading the folder
            old.unlink()

    def todo(self, schema: ChunkSchema) -> list[Chunk]:
        """The chunks still to compute: missing, unreadable, or not what ``schema`` says
        (a column missing or of another type, the wrong rows).

        Each damaged one is recorded in :attr:`repairs`; its file is replaced when it is redone.
        """
        files = chunk_files(self.path)
        out = []
        for c in self.chunks():
            p = files.get(c.name)
            if p is None:
                out.append(c)
                continue
            if not p.is_file():  # a new chunk file cannot replace it: say so before any work
                raise InputError(f"{p} is not a file, so the chunk cannot be written there; move it out of "
                                 "the folder and run the command again")
            problem, _ = check_chunk(p, c, schema, self.key)
            if problem:
                self.repairs.append((p.name, problem))
                out.append(c)
        return out

    def check_no_strays(self) -> None:
        """Refuse a file that ``pandas.read_parquet`` would read as part of the run but that
        is not one of its chunks (a chunk of another run, renamed, or any other file)."""
        expected = {c.name for c in self.chunks()}
        for p in sorted(self.path.iterdir()):
            if p.name.startswith(("_", ".")) or p.name in expected or p.name == OLD_MANIFEST:
                continue
            if p.is_dir() and not any(p.iterdir()):
                continue
            # a start or chunk size edited in the manifest renames the chunks it expects: say what
            # was edited, not "move it out of the folder" of a chunk that belongs to the run
            check_chunks_made_with(self.path, self.key)
            raise InputError(f"{p} does not belong to this run ({self.key.describe()}); move it out of the folder")

    def write(self, chunk: Chunk, df: pd.DataFrame) -> Path:
        """Write one chunk atomically, with the settings it was made with (:func:`made_with`)."""
        self.check_in_place()
        return write_parquet_atomic(self.path / chunk.name, df, {MADE_WITH: made_with(self.key)})

    def record(self, invocation: dict, complete: bool) -> None:
        """Add one invocation's entry to the manifest."""
        self.check_in_place()
        self.manifest = {**self.manifest, "invocations": self.manifest.get("invocations", []) + [invocation],
                         "complete": complete}
        self.save_manifest()


def _identity(path: Path) -> Optional[tuple[int, int]]:
    """The device and inode of the folder at ``path`` (None when there is none)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def chunk_files(out: str | Path) -> dict[str, Path]:
    """Finished chunk files in ``out`` by name (temporary files are not included)."""
    return {p.name: p for p in Path(out).glob(f"{CHUNK_PREFIX}*.parquet")}


#: The key of a chunk's Parquet metadata that records the settings it was made with.
MADE_WITH = "golfsolve.made_with"


def made_with(key: RunKey) -> str:
    """What a chunk of the run ``key`` records about how it was made: the settings no
    ``--resume`` or ``--extend`` may change (kind, start, chunk size, params), as JSON. A
    manifest edited by hand afterwards no longer agrees with its chunks, and is refused
    (:func:`check_chunk`) instead of finishing the run under other settings."""
    return json.dumps({"format": key.fmt, "start": key.start, "chunk_size": key.chunk_size,
                       "params": dict(key.params)}, sort_keys=True, separators=(",", ":"))


def _check_made_with(path: Path, recorded: Optional[bytes], key: RunKey) -> None:
    """:class:`InputError` if the chunk at ``path`` records other settings than the run ``key``
    (nothing recorded: a chunk written before chunks recorded them, taken as it is)."""
    if recorded is None:
        return
    try:
        was = json.loads(recorded)
        old = RunKey(was["format"], was["start"], key.count, key.groups, was["chunk_size"],
                     tuple(sorted(_as_played(was["params"]).items())))
    except (ValueError, KeyError, TypeError, AttributeError):
        raise InputError(f"chunk {path} records settings golfsolve cannot read; move it out of the folder "
                         "(it is made again by --resume)") from None
    key = dataclasses.replace(key, params=tuple(sorted(_as_played(dict(key.params)).items())))
    if made_with(old) != made_with(key):
        a = {"format": old.fmt, "start": old.start, "chunk_size": old.chunk_size, **_flat("params", dict(old.params))}
        b = {"format": key.fmt, "start": key.start, "chunk_size": key.chunk_size, **_flat("params", dict(key.params))}
        diff = [f"{k.removeprefix('params.')} {a.get(k, 'none')} where the manifest now has {b.get(k, 'none')}"
                for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k)]
        raise InputError(f"chunk {path} was made with {', '.join(diff[:3])}{', ...' if len(diff) > 3 else ''}: "
                         "the manifest was edited (put it back as it was, or start a new run) or the chunk comes "
                         "from another run (move it out of the folder)")


@dataclass(frozen=True)
class ChunkSchema:
    """What every chunk file of a run kind holds: its columns with their Arrow types, which
    column numbers the items and which names the group, and how many rows each item has."""

    #: ``(name, Arrow type)`` of every column, e.g. ``("deal", "int64")``
    columns: tuple[tuple[str, str], ...]
    item: str
    group: Optional[str] = None
    #: columns that may hold nulls (all others may not)
    nullable: frozenset = frozenset()
    #: columns that chunks written by older versions may lack
    optional: frozenset = frozenset()
    #: rows per item and group; None when it varies (then at most ``max_rows_per_item`` per item)
    rows_per_cell: Optional[int] = 1
    max_rows_per_item: int = 1
    #: the run kind's check of a chunk's rows (pyarrow table in, why it is wrong or None out):
    #: what the columns' types and the row count cannot say (a row removed or made up by hand)
    rows: Optional[Callable[[Any], Optional[str]]] = field(default=None, compare=False)
    #: the values the item column holds for the chunk of items ``first .. first + count - 1``,
    #: given ``(first, count)``; None: the item numbers themselves. A run that takes every
    #: k-th deal numbers its items by position in the run and keeps the deal numbers.
    item_values: Optional[Callable[[int, int], Iterable[int]]] = field(default=None, compare=False)


def row_values(table: Any, name: str, fill: Any = 0) -> Any:
    """The column ``name`` of a chunk's table as a NumPy array, its nulls (where the schema
    allows them) as ``fill``: what a run kind's :attr:`ChunkSchema.rows` check compares."""
    col = table.column(name)
    if col.null_count:
        col = col.fill_null(fill)
    return col.to_numpy()


def first_bad_row(table: Any, item: str, group: Optional[str],
                  checks: Iterable[tuple[Any, Callable[[int], str]]]) -> Optional[str]:
    """What is wrong with the first row that breaks one of ``checks`` (None: no row does),
    the row named by its ``item`` and ``group``: a run kind's :attr:`ChunkSchema.rows` check of
    the values no honest run writes (a count out of range, two fields that disagree), which
    the columns' types cannot refuse. Each check is a boolean array over the rows (True: the
    row breaks it) and what is wrong with row ``i``, in words."""
    import numpy as np

    for bad, why in checks:
        hit = np.flatnonzero(bad)
        if hit.size:
            i = int(hit[0])
            where = f"{item} {table.column(item)[i].as_py()}"
            if group is not None:
                where += f" under {table.column(group)[i].as_py()!r}"
            return f"has {where} with {why(i)}"
    return None


def bad_time(x: Any) -> Any:
    """Which of the seconds ``x`` (a NumPy array) no clock measures: NaN, infinite or below 0."""
    import numpy as np

    with np.errstate(invalid="ignore"):
        return ~(np.isfinite(x) & (x >= 0))


#: Arrow types that hold the same values (pandas writes strings as large_string).
_SAME_TYPE = {"large_string": "string", "large_utf8": "string", "utf8": "string"}


def _type_name(t: Any) -> str:
    s = str(t)
    return _SAME_TYPE.get(s, s)


def check_chunk(path: Path, chunk: Chunk, schema: ChunkSchema,
                key: Optional[RunKey] = None) -> tuple[Optional[str], Any]:
    """Why the chunk file at ``path`` is not the chunk ``chunk`` of a run whose chunks follow
    ``schema`` (None when it is), and the file's table when it is.

    The columns and their types are checked from the file's footer, and its row count,
    before any data is read, so a damaged or hostile file costs no more memory than a good one.
    A chunk that records other settings than the run ``key`` (its manifest edited by hand)
    is :class:`InputError`: making it again would finish the run under other settings.
    """
    import pyarrow.parquet as pq

    if not path.is_file():
        return "is not a file", None
    try:
        pf = pq.ParquetFile(path)
        have = pf.schema_arrow
        n_rows = pf.metadata.num_rows
    except Exception:  # pyarrow raises several types for a cut or garbled file
        return ("is empty" if path.stat().st_size == 0 else "cannot be read (truncated, or not a Parquet file)"), None
    if key is not None:
        _check_made_with(path, (have.metadata or {}).get(MADE_WITH.encode()), key)
    for name, typ in schema.columns:
        i = have.get_field_index(name)
        if i < 0:
            if name in schema.optional:
                continue
            return f"lacks the column {name!r}", None
        if _type_name(have.field(i).type) != _type_name(typ):
            return f"has the column {name!r} as {have.field(i).type}, not {typ}", None
    cells = chunk.count * max(1, len(chunk.groups))
    if schema.rows_per_cell is not None and n_rows != cells * schema.rows_per_cell:
        return f"has {n_rows} rows, not {cells * schema.rows_per_cell}", None
    if n_rows > chunk.count * schema.max_rows_per_item * max(1, len(chunk.groups)):
        return f"has {n_rows} rows, more than {plural(chunk.count, schema.item)} can make", None
    try:
        table = pf.read()
    except Exception:
        return "cannot be read (damaged data pages)", None
    for name, _ in schema.columns:
        if name in table.column_names and name not in schema.nullable and table.column(name).null_count:
            return f"has empty values in the column {name!r}", None
    items = table.column(schema.item).to_pylist()
    if schema.item_values is None:
        if set(items) != set(range(chunk.first, chunk.first + chunk.count)):
            return f"does not hold exactly {plural_of(schema.item)} {chunk.first}..{chunk.last}", None
    elif set(items) != set(schema.item_values(chunk.first, chunk.count)):
        return (f"does not hold exactly the {plural_of(schema.item)} at positions {chunk.first}..{chunk.last} "
                "of the run"), None
    if schema.group is not None:
        cells_found = set(zip(items, table.column(schema.group).to_pylist()))
        if len(cells_found) != cells or {g for _, g in cells_found} != set(chunk.groups):
            return f"does not hold exactly the rule sets {','.join(chunk.groups)} for each {schema.item}", None
    if schema.rows is not None:
        why = schema.rows(table)
        if why is not None:
            return why, None
    return None, table


#: seconds a new command waits for the workers of a run killed outright to exit
LEFTOVER_WAIT = 10.0


def _gone(pid: str) -> bool:
    """Whether ``pid`` (as the lock file holds it) names no running process."""
    if not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # someone else's process: it exists
        return False
    return False


def _still_the_lock_file(fd: int, lock: Path) -> bool:
    """Whether the open ``fd`` is still the file named ``lock`` (not one removed meanwhile)."""
    try:
        now = os.stat(lock, follow_symlinks=False)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (mine.st_dev, mine.st_ino) == (now.st_dev, now.st_ino)


def _lock_folder(path: Path) -> Optional[int]:
    """Take the run folder's advisory lock (a file descriptor to keep open), or raise
    :class:`InputError` naming the process that holds it. None where there are no locks."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no advisory locks
        return None
    # The lock is shared with the run's forked workers. When the run was killed outright
    # (kill -9), the process named in the file is gone and its workers are still going down
    # with it (PR_SET_PDEATHSIG): a --resume typed at once waits for them, a few seconds at most.
    deadline = None
    while True:
        try:
            fd = os.open(path / LOCK, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as e:
            raise InputError(f"cannot lock {path / LOCK}: {e.strerror or e}; remove it if it is not a file") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if _still_the_lock_file(fd, path / LOCK):
                break
            # a refused command removed the file between our open and our flock: a lock on it
            # would exclude nobody who opens the file now there, so take that one's instead
            os.close(fd)
            continue
        except OSError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            if not _gone(holder):
                os.close(fd)
                raise InputError(f"{path} is being written by another golfsolve command (process "
                                 f"{holder or 'unknown'}); wait for it to finish (or stop it), then run this "
                                 "command again") from None
            deadline = deadline or time.monotonic() + LEFTOVER_WAIT
            if time.monotonic() > deadline:
                os.close(fd)
                raise InputError(f"{path} is still locked by processes that process {holder} started, though "
                                 "it has ended; stop them, then run this command again") from None
            os.close(fd)
            time.sleep(0.05)
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode("ascii"), 0)
    return fd


def enclosing_run(path: str | Path) -> Optional[Path]:
    """The nearest folder above ``path`` (not ``path`` itself) that holds a run, or None."""
    p = Path(path).resolve()
    for parent in p.parents:
        if manifest_path(parent) is not None:
            return parent
    return None


def check_no_nested_run(path: Path) -> None:
    """Refuse a run folder that has another run inside it: ``pandas.read_parquet`` would
    read that run's chunks as part of this one."""
    for sub in path.iterdir():
        if sub.is_dir() and not sub.name.startswith((".", "_")) and (
                manifest_path(sub) is not None or any(sub.glob("*.parquet"))):
            raise InputError(f"{sub} inside the run folder {path} holds another run's files, which "
                             "pandas.read_parquet would read as part of this run; move it out of the folder")


def _check_not_nested(path: Path, option: str) -> None:
    outer = enclosing_run(path)
    if outer is not None:
        raise InputError(f"{option} {path} is inside the run folder {outer}, whose table would then "
                         "include this run's chunks; choose a directory outside it")


def open_run(out: str | Path, key: RunKey, *, resume: bool = False, extend: bool = False, command: str = "",
             extra: Optional[dict] = None, extendable: bool = True,
             names: Optional[Mapping[str, Optional[str]]] = None) -> RunFolder:
    """Create or reopen the run folder ``out`` for the run ``key``, and take its lock.

    A new run needs an empty (or new) directory that is not inside another run. ``resume``
    continues the same run (every field of ``key`` must agree); ``extend`` grows it to
    ``key`` (more items, more groups, everything else equal). Anything else is
    :class:`InputError` saying what to do, as is a folder another command is writing. Stale
    temporary files of a killed run are removed. ``extra`` goes into a new manifest; the
    messages offer ``--extend`` only when ``extendable`` (the command has it) and name the
    fields of the key as ``names`` says (:func:`differences`). Use the result in a ``with``
    block (or :meth:`RunFolder.close` it) to release the lock.
    """
    check_out_type(out)
    key = as_played_key(key)  # as the manifest reads
    n_chunks = math.ceil(key.count / key.chunk_size)
    if n_chunks > MAX_CHUNKS:
        raise InputError(f"{key.count:,} {key.items()} in chunks of {key.chunk_size:,} make {n_chunks:,} chunk "
                         f"files; give a --chunk-size of at least {math.ceil(key.count / MAX_CHUNKS):,}")
    _check_not_nested(Path(out), "--out")
    if (resume or extend) and not os.path.lexists(out):
        raise no_run_to_continue(out, resume)  # before check_out_dir makes the folder
    path = check_out_dir(out)
    lock = _lock_folder(path)
    try:
        folder = _open_locked(path, key, resume, extend, command, extra, extendable, names)
    except BaseException:
        if lock is not None:
            if manifest_path(path) is None:  # refused: leave a folder that is not a run as it was
                (path / LOCK).unlink(missing_ok=True)
            os.close(lock)
        raise
    folder._lock = lock
    # A killed run can leave hidden temporary files behind (chunks, the manifest); they are
    # never read, and with the lock held no other command is writing them.
    for tmp in path.glob(".*.tmp"):
        tmp.unlink(missing_ok=True)
    return folder


def no_run_to_continue(path: str | Path, resume: bool) -> InputError:
    """The error for ``--resume`` (``resume``) or ``--extend`` on ``path``, which holds no run
    (a mistyped folder name would otherwise start a new run of the default size)."""
    flag = "--resume" if resume else "--extend"
    if chunk_files(path):
        # "holds no golfsolve run" would send the user looking for a mistyped name
        return InputError(f"{flag}: {path} holds chunk files but no {MANIFEST} (removed or lost), so what run "
                          "they belong to is unknown; put the manifest back, or start the run again in a new folder")
    return InputError(f"{flag}: {path} holds no golfsolve run to {flag[2:]}; check the folder name, "
                      f"or leave out {flag} to start a new run there")


def holds_a_run(path: str | Path, old: RunKey, extendable: bool = True) -> InputError:
    """The error for a new run asked for in ``path``, which holds the run ``old``: whatever
    else the command lacks, this is what the user must decide first."""
    return InputError(f"{path} already holds a run ({old.describe()}); add --resume to continue it, "
                      + ("--extend to add to it, " if extendable else "") + "or choose another --out")


def _open_locked(path: Path, key: RunKey, resume: bool, extend: bool, command: str,
                 extra: Optional[dict], extendable: bool = True,
                 names: Optional[Mapping[str, Optional[str]]] = None) -> RunFolder:
    if manifest_path(path) is None:
        if resume or extend:
            raise no_run_to_continue(path, resume)
        others = visible_names(path)
        if others:
            raise InputError(f"--out {path} is not empty ({first_names(others)}) and holds no golfsolve run; "
                             "choose an empty or new directory")
        manifest = {"format": key.fmt, **key.to_json(),
                    "blocks": [Block(key.groups, key.start, key.count).to_json()],
                    **(extra or {}), "command": command, "created": now(), "golfsolve_version": running_version(),
                    "complete": False, "invocations": []}
        folder = RunFolder(path, manifest)
        if not write_json_new(path / MANIFEST, manifest):
            # another command claimed the folder between the check above and now
            raise InputError(f"{path} was just taken by another golfsolve run started at the same time; "
                             "choose another --out")
        return folder
    manifest = read_manifest(path, key.fmt)
    check_no_nested_run(path)
    old = key_from_manifest(manifest)
    if not (resume or extend):
        raise holds_a_run(path, old, extendable)
    if extend:
        fixed_old = (old.start, old.chunk_size, old.params)
        fixed_new = (key.start, key.chunk_size, key.params)
        if fixed_old != fixed_new:
            check_chunks_made_with(path, old)
            why = differences(old, key, ignore=("count", "rules"), names=names)
            raise InputError(f"--extend: {path} holds a run ({old.describe()}) that differs from "
                             f"({key.describe()}) in {why}; keep its start, chunk size and settings, "
                             "or choose another --out")
        blocks, groups = extend_blocks([Block.from_json(b) for b in manifest["blocks"]], old.groups,
                                       old.start, old.count, key.groups, key.count, key.items())
        grown = len(blocks) > len(manifest["blocks"])
        if sum(math.ceil(b.count / key.chunk_size) for b in blocks) > MAX_CHUNKS or len(blocks) > MAX_BLOCKS:
            raise InputError(f"--extend: the run would have more than {MAX_CHUNKS:,} chunk files or "
                             f"{MAX_BLOCKS} blocks; start a new run")
        manifest = {**manifest, "rules": list(groups), "count": key.count,
                    "blocks": [b.to_json() for b in blocks], **(extra or {}),
                    "complete": manifest.get("complete", False) and not grown}
    elif old != key:
        check_chunks_made_with(path, old)
        raise InputError(f"--resume: {path} holds a different run ({old.describe()}); this command differs in "
                         f"{differences(old, key, names=names)}; repeat the run's options, "
                         + (f"use --extend to add {key.items()}{' or rule sets' if key.groups else ''}, " if extendable else "")
                         + "or choose another --out")
    folder = RunFolder(path, manifest)
    folder.check_no_strays()
    folder.save_manifest()
    return folder


def check_chunks_made_with(path: Path, old: RunKey) -> None:
    """:class:`InputError` if a chunk in ``path`` records other settings than its manifest
    (``old``): the manifest was edited after the chunks were written. Checked before a
    command is told it differs from the run, which would name the edited value as the
    run's and a difference the user never made. Only the chunks' footers are read."""
    import pyarrow.parquet as pq

    for name, chunk in sorted(chunk_files(path).items()):
        try:
            recorded = (pq.read_schema(chunk).metadata or {}).get(MADE_WITH.encode())
        except Exception:  # a damaged chunk is --resume's to redo, not a reason to refuse
            continue
        if recorded is not None:
            _check_made_with(chunk, recorded, old)
            return


def _flat(prefix: str, v: Any) -> dict[str, Any]:
    if isinstance(v, dict):
        out: dict[str, Any] = {}
        for k, x in v.items():
            out.update(_flat(f"{prefix}.{k}", x))
        return out
    return {prefix: v}


_NONE = object()


def _flat_pair(prefix: str, x: Any, y: Any, a: dict[str, Any], b: dict[str, Any]) -> None:
    # a nested setting both keys hold is compared field by field (player.samples); one only
    # one of them holds is one setting, not each of its fields "(here none)"
    if isinstance(x, dict) and isinstance(y, dict):
        for k in dict.fromkeys([*x, *y]):
            _flat_pair(f"{prefix}.{k}", x.get(k, _NONE), y.get(k, _NONE), a, b)
        return
    if x is not _NONE:
        a[prefix] = x
    if y is not _NONE:
        b[prefix] = y


#: what a setting left out of a run's key means, where it is not "none": a stats run records
#: ``fields`` and ``stride`` only when they are not the default, and a run without them has
#: all fields and consecutive deals, not "none"
_ABSENT = {"fields": "all", "stride": "1"}


def differences(old: RunKey, new: RunKey, ignore: Sequence[str] = (),
                names: Optional[Mapping[str, Optional[str]]] = None) -> str:
    """The fields in which two run keys differ, named (a nested setting as ``player.field``)
    with both values: ``chunk size 4 (here 5)``. ``ignore``: fields that may differ (an
    ``--extend`` changes the count and the rule sets, so they are not why it is refused).
    ``names``: how a field is shown where the user gave it by another name (a grid run's
    ``count`` is its ``--matches``); None for a field that follows from the others, named only
    when nothing else says why."""
    names = names or {}
    a = {"start": old.start, "count": old.count, "rules": ",".join(old.groups), "chunk_size": old.chunk_size}
    b = {"start": new.start, "count": new.count, "rules": ",".join(new.groups), "chunk_size": new.chunk_size}
    pa, pb = dict(old.params), dict(new.params)
    for k in dict.fromkeys([*pa, *pb]):
        _flat_pair(k, pa.get(k, _NONE), pb.get(k, _NONE), a, b)
    # a run of every K-th deal numbers its items from 0 and keeps its first deal in params:
    # the start a user gave is that deal: the stored start and first_deal are internal names
    for side in (a, b):
        if "first_deal" in side:
            side["start"] = side.pop("first_deal")
    def shown(v: Any) -> str:  # a whole list of tables would make a message of pages
        text = str(v)
        return text if len(text) <= 60 else text[:57] + "..."

    def one(k: str) -> str:
        name = names.get(k) or k
        if k not in a:
            return f"{name} (here {shown(b[k])}, the run has {_ABSENT.get(k, 'none')})"
        if k not in b:
            return f"{name} {shown(a[k])} (here {_ABSENT.get(k, 'none')})"
        return f"{name} {shown(a[k])} (here {shown(b[k])})"

    keys = [k for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k) and k not in ignore]
    # a whole table of settings (a study's cells), like a field ``names`` says follows from the
    # others, is named only when nothing else says why: its Python dicts beside --sets would be noise
    plain = [k for k in keys if not isinstance(a.get(k, b.get(k)), (dict, list)) and names.get(k, k) is not None]
    return ", ".join(one(k) for k in (plain or keys)) or "nothing"


def load_chunks(out: str | Path, fmt: str, schema: ChunkSchema,
                allow_incomplete: bool = True) -> tuple[dict, list[pd.DataFrame]]:
    """The manifest and every finished chunk of the run in ``out`` (as DataFrames, in chunk order).

    A chunk that cannot be read, lacks a column of ``schema`` or holds the wrong rows is
    :class:`InputError` naming it and the command that repairs it; so is a file that does
    not belong to the run, and a run inside another one.
    """
    m = read_manifest(out, fmt)
    path = Path(out)
    _check_not_nested(path, "the run folder")
    check_no_nested_run(path)
    folder = RunFolder(path, m)
    folder.check_no_strays()
    files = chunk_files(out)
    expected = {c.name: c for c in folder.chunks()}
    frames = []
    for name in sorted(files):
        c = expected[name]
        problem, table = check_chunk(files[name], c, schema, folder.key)
        if problem and not files[name].is_file():
            # --resume cannot write a chunk over a directory or a FIFO either: it refuses, naming it
            raise InputError(f"chunk {files[name]} is not a file; move it out of the folder, then repair the run "
                             f"with '{resume_command(m, out)}'")
        if problem:
            raise InputError(f"chunk {files[name]} is damaged: it {problem}; repair it with "
                             f"'{resume_command(m, out)}'")
        frames.append(table.to_pandas())
    if not allow_incomplete and len(frames) != len(expected):
        raise InputError(f"{out}: only {len(frames)} of {len(expected)} chunks are done; finish with "
                         f"'{resume_command(m, out)}'")
    if len(frames) != len(expected):
        # a chunk lost after the run finished: what is read is not the whole run, whatever the manifest says
        m = {**m, "complete": False}
    return m, frames


def latest_command(m: dict) -> str:
    """The command of the run's latest invocation that shaped it (after an --extend it covers
    the whole run, where the manifest's ``command`` is the first one); the first when none is
    recorded. A --resume only finishes what an earlier command asked for, so it is passed
    over: "... --resume" run on a new folder only says there is no run to resume."""
    for inv in reversed(m.get("invocations", [])):
        c = inv.get("command")
        if c and "--resume" not in c.split():
            return c
    return m.get("command", "")


def run_commands(m: dict) -> list[str]:
    """The commands that made the run as it stands: the first, then each --extend, in order
    (a --resume only finishes what an earlier command asked for, so it is left out)."""
    cmds = [m.get("command", "")] if m.get("command") else []
    for inv in m.get("invocations", []):
        c = inv.get("command") or ""
        if "--extend" in c.split() and c not in cmds:
            cmds.append(c)
    return cmds


def resume_command(m: dict, out: str | Path) -> str:
    """The command that finishes or repairs the run ``m`` in ``out``."""
    import shlex

    return f"{COMMANDS[m['format']]} --out {shlex.quote(str(out))} --resume"


def status(folder: RunFolder) -> dict:
    """Chunks and items done out of the total (files present; not checked for damage)."""
    files = chunk_files(folder.path)
    chunks = folder.chunks()
    done = [c for c in chunks if c.name in files]
    return {"chunks_done": len(done), "chunks_total": len(chunks),
            "items_done": sum(c.count * max(1, len(c.groups)) for c in done),
            "items_total": sum(c.count * max(1, len(c.groups)) for c in chunks),
            "complete": len(done) == len(chunks)}


# ---------------------------------------------------------------------------
# writing the chunks as they are computed (:mod:`.pool`); checking a run's options
# ---------------------------------------------------------------------------


def check_resume_extend(resume: bool, extend: bool) -> None:
    """``--resume`` continues a run as it is; ``--extend`` grows it (and finishes what is
    missing): one or the other, refused in one line before anything is read. Each is True
    or False (a library caller's resume="no" would be a true value)."""
    resume, extend = flag(resume, "resume"), flag(extend, "extend")
    if resume and extend:
        raise InputError("give --resume or --extend, not both (--extend also finishes the chunks that are missing)")


def run_folder_chunks(folder: RunFolder, todo: Sequence[Chunk], results: Iterable[tuple[Chunk, pd.DataFrame]], *,
                      command: str = "", info: Optional[dict] = None, progress: Optional[bool] = None,
                      unit: str = "item", on_chunk: Optional[Callable[[Chunk], None]] = None) -> dict:
    """Write each ``(chunk, table)`` of ``results`` as it arrives and record the invocation.

    Returns the invocation's manifest entry. On an interruption (KeyboardInterrupt) or an
    error the finished chunks stay and the invocation is recorded as interrupted.
    """

    chunks = folder.chunks()
    total = sum(c.count for c in chunks)
    # the version of this invocation, not only of the one that created the run: chunks a later
    # version wrote under --resume or --extend are its work, and a reader reproducing them needs it
    inv = {"command": command, "started": now(), "golfsolve_version": running_version(), **(info or {}),
           "chunks_before": len(chunks) - len(todo), "repaired": [name for name, _ in folder.repairs]}
    t0 = time.perf_counter()
    solved = items = 0
    bar = progress_bar(total=total, initial=total - sum(c.count for c in todo), unit=unit, desc=unit + "s",
                       smoothing=0.1, show=progress)
    failed = False
    try:
        for chunk, df in results:
            folder.write(chunk, df)
            solved += 1
            items += chunk.count
            bar.update(chunk.count)
            if on_chunk is not None:
                on_chunk(chunk)
    except BaseException:
        failed = True
        raise
    finally:
        bar.close()
        if hasattr(results, "close"):
            results.close()  # stops the workers when we leave early
        files = chunk_files(folder.path)
        complete = all(c.name in files for c in chunks) and solved == len(todo)
        inv.update(finished=now(), chunks_solved=solved, items_solved=items,
                   seconds=round(time.perf_counter() - t0, 3), status="complete" if complete else "interrupted")
        try:
            folder.record(inv, complete)
        except (OSError, InputError):
            # what stopped the work (a moved folder, a full disk, Ctrl-C) is the news, not that
            # its invocation could not be recorded for the same reason
            if not failed:
                raise
    return inv


def whole_fields(spec: Any, *names: str) -> None:
    """Make each named field of the frozen dataclass ``spec`` (a run's spec) a plain ``int``;
    :class:`InputError` for one that is not a whole number (2.5, NaN, "2", True; None is left
    alone: an optional field). A library caller's count of 2.0 was written to the manifest,
    which golfsolve then refused to read back, and a NumPy integer could not be written."""
    for name in names:
        v = getattr(spec, name)
        if v is None:
            continue
        if not is_whole_number(v):
            raise InputError(f"{name} must be a whole number, not {repr(v)[:40]}")
        object.__setattr__(spec, name, operator.index(v))


def name_list(spec: Any, name: str, example: str) -> None:
    """Make the field ``name`` of the frozen dataclass ``spec`` a tuple of names; a single
    name given as text (which would be read a name per character) is a :class:`TypeError`."""
    v = getattr(spec, name)
    # a set's order is its strings' hashes, which differ from process to process: the rule sets'
    # order (the run's key, its rows) or the bots' seats changed between two runs of one call
    if isinstance(v, (str, set, frozenset, dict)) or not isinstance(v, Iterable):
        raise TypeError(f"{name} must be a list of names, e.g. {example}, not {type(v).__name__} {repr(v)[:40]}")
    object.__setattr__(spec, name, tuple(str(n) if isinstance(n, str) else n for n in v))


def check_chunk_size(n: int) -> None:
    """A chunk size the manifest can record (from 1 to 2**63-1), refused before the run
    folder is made: a larger one would be written, then refused when the run is read."""
    if not 1 <= n <= MAX_INT64:
        raise InputError(f"--chunk-size must be from 1 to 2**63-1, not {n}")


def default_chunk_size(count: int, jobs: int, cap: int) -> int:
    """About ten chunks per worker for small runs (so progress moves and workers share the
    load evenly), at most ``cap`` items."""
    for name, v in (("count", count), ("jobs", jobs)):
        if not is_whole_number(v):  # None failed as "unsupported operand type(s) for /"
            raise InputError(f"{name} must be a whole number, not {repr(v)[:40]}")
    return max(1, min(cap, math.ceil(count / (max(1, jobs) * 10))))


__all__ = [
    "as_played_key", "bad_time", "Block", "block_chunks", "check_chunk", "check_chunk_size", "check_chunks_made_with",
    "check_no_nested_run", "check_resume_extend", "Chunk", "chunk_files", "chunk_name", "ChunkSchema",
    "default_chunk_size", "differences", "enclosing_run", "extend_blocks", "first_bad_row", "holds_a_run",
    "key_from_manifest", "latest_command", "LEFTOVER_WAIT", "load_chunks", "MADE_WITH", "made_with", "manifest_path",
    "name_list", "no_run_to_continue", "now", "open_run", "read_manifest", "resume_command", "row_values",
    "run_commands", "run_folder_chunks", "RunFolder", "RunKey", "running_version", "status", "validate_manifest",
    "whole_fields"
]

