"""Run folders: how every long batch run (``stats``, ``fair-stats``, ``grid simulate``) keeps its results.

A run folder holds

* ``_manifest.json``: what the run covers (its kind, its item range, its groups such as rule
  sets, its chunk size and any other parameter that must not change), the command that made
  it and one entry per invocation. The leading underscore makes pyarrow and pandas skip it,
  so ``pd.read_parquet(DIR)`` reads the folder as one table. Runs made before this name
  have ``manifest.json``; they are read as they are and renamed when written again.
* one chunk file per fixed range of items (:mod:`.runblocks`), written to a hidden temporary
  name, flushed and renamed into place, so a chunk file is complete or absent whatever
  happens (Ctrl-C, ``kill -9``, a power cut).

Here a run folder is opened (new, resumed or extended), written and read. Resuming re-does
every chunk that is missing, cannot be read (truncated) or does not match its run kind's
:class:`~.chunkschema.ChunkSchema` (a column missing or of another type, the wrong rows) and
says which; extending adds blocks (:mod:`.runblocks`), so what is there is never redone.
A folder is never shared by two different runs (:mod:`.runkey` says how two runs differ),
never holds another run and never sits inside one; the manifest is checked
(:class:`~.manifestmodel.ManifestModel`) before anything uses it, and the command writing a
folder holds its advisory lock (:mod:`.runlock`). Its file names, kinds of run and limits
are plain constants in :mod:`.runlayout`.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import operator
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional, Sequence

from ..errors import MAX_INT64, InputError
from ..inputs import flag, is_whole_number
from ..progress import progress_bar
from .atomic import remove_temporaries, write_json_atomic, write_json_new, write_parquet_atomic
from .chunkschema import ChunkSchema, check_chunk
from .outdirs import check_out_dir, check_out_type, first_names, visible_names
from .runblocks import Block, Chunk, block_chunks, extend_blocks
from .runkey import (MADE_WITH, MARKERS, RunKey, as_played_key, check_made_with, differences, key_from_manifest,
                     made_with)
from .runlayout import CHUNK_PREFIX, COMMANDS, LOCK, MANIFEST, MAX_BLOCKS, MAX_CHUNKS, MAX_MANIFEST_BYTES, OLD_MANIFEST
from .runlock import BEING_WRITTEN, lock_folder

if TYPE_CHECKING:  # pandas and pydantic load when a run is read or written: bad arguments are refused before
    import pandas as pd


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


# ---------------------------------------------------------------------------
# the open folder
# ---------------------------------------------------------------------------
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
        """Write one chunk atomically, with the settings it was made with (:func:`~.runkey.made_with`)."""
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


# ---------------------------------------------------------------------------
# opening a folder: new, resumed or extended
# ---------------------------------------------------------------------------
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
    fields of the key as ``names`` says (:func:`~.runkey.differences`). Use the result in a ``with``
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
    lock = lock_folder(path)
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
    remove_temporaries(path)
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
    recorded = dict(old.params)
    otherwise = [k for k, v in key.params if k in MARKERS and recorded.get(k) != v]
    if otherwise:  # "repeat the run's options" would not help: no option of this golfsolve plays as it did
        check_chunks_made_with(path, old)
        raise InputError(f"{'--extend' if extend else '--resume'}: {path} holds a run ({old.describe()}) that an "
                         f"older golfsolve made, which recorded its games otherwise ({', '.join(otherwise)}); this "
                         "golfsolve cannot continue it: start a new run in another --out")
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
            check_made_with(chunk, recorded, old)
            return


# ---------------------------------------------------------------------------
# reading a run, and what made it
# ---------------------------------------------------------------------------
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


def how_to_finish(m: dict, out: str | Path, writing: bool) -> str:
    """What finishes the unfinished run ``m`` in ``out``, for a report: its ``--resume``, or
    with ``writing`` (another command is playing it now, so a ``--resume`` would be refused)
    that command."""
    return BEING_WRITTEN if writing else f"'{resume_command(m, out)}' finishes it"


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
    "check_chunk_size", "check_chunks_made_with", "check_no_nested_run", "check_resume_extend", "chunk_files",
    "default_chunk_size", "enclosing_run", "holds_a_run", "how_to_finish", "latest_command", "load_chunks",
    "manifest_path", "name_list", "no_run_to_continue", "now", "open_run", "read_manifest", "resume_command", "run_commands", "run_folder_chunks",
    "RunFolder", "running_version", "status", "validate_manifest", "whole_fields"
]
