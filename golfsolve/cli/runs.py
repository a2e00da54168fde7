"""The long batch runs (``stats``, ``fair-stats``, ``grid simulate``...) as a command sees
them: a run stopped by the user, by a lost worker or by the machine (a full disk) ends
with one line saying how much is saved and how to finish it with ``--resume``; and a run
folder named to read is checked before it is read.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Optional, TypeVar

from ..errors import InputError
from ..text import plural
from .interrupts import restore_handlers, stop_signals_interrupt, was_interrupted
from .output import fail

T = TypeVar("T")


def run_long(job: Callable[[], T], out: Path) -> T:
    """Run ``job``, a batch run writing into the run folder ``out``.

    SIGTERM (kill, a batch system) and SIGHUP (the terminal closed) stop it as cleanly as
    Ctrl-C does; either way the finished chunks stay, and one line says how many and how to
    finish (exit 130). The machine failing it (a full disk, a folder made read-only) says
    the same with the cause (exit 1).
    """
    from ..stats.pool import WorkerLost

    old = stop_signals_interrupt()
    try:
        return job()
    except (KeyboardInterrupt, Exception) as e:
        interrupted = was_interrupted(e)
        lost = not interrupted and isinstance(e, WorkerLost)
        machine = not (interrupted or lost) and isinstance(e, OSError) and not isinstance(e, BrokenPipeError)
        if not (interrupted or lost or machine):
            raise
        if os.environ.get("GOLFSOLVE_DEBUG") and machine:
            raise
        if machine:
            what, code = f"cannot go on: {e.strerror or e}" + (f" writing {e.filename}" if e.filename else ""), 1
        else:
            what, code = (e.what, e.exit_code) if lost else ("interrupted", 130)
        saved = _saved(out)
        if saved is None:
            fail(f"{what} before the run started; nothing was written", code)
        fail(f"{what}: {saved}; {_fix_first(e) if machine else ''}run the same command with --resume to finish", code)
    finally:
        restore_handlers(old)


def _saved(out: Path) -> Optional[str]:
    """How many chunks of the run in ``out`` are saved, as the last line says it (None when
    no run is there yet)."""
    from ..stats.runfolder import RunFolder, manifest_path, read_manifest, status

    try:
        if manifest_path(out) is None:  # stopped before the run folder was made (reaching a Dask scheduler)
            return None
        st = status(RunFolder(out, read_manifest(out)))
    except (OSError, InputError):  # the folder unreadable now: what stopped the run is the news, not this
        return f"the finished chunks are kept in {out}"
    return f"{st['chunks_done']:,} of {plural(st['chunks_total'], 'chunk')} are saved in {out}"


def _fix_first(e: OSError) -> str:
    """What to set right before ``--resume``, for the errors a machine gives a long run."""
    import errno

    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return "free some space, then "
    if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "make the folder writable, then "
    return ""


def check_run_dir(path: str, what: str) -> None:
    """A run folder to read must have a name ('' would mean the current directory), exist
    and be a folder."""
    from ..stats.outdirs import check_path

    if not path.strip():
        raise InputError(f"{what} needs a run folder's name, not {path!r}")
    check_path(path, what)
    if not os.path.exists(path):  # a missing folder is named so, not as a folder holding "no golfsolve stats run (no
        # _manifest.json)" or "no results directory"
        raise InputError(f"{what} {path!r}: no such folder; check its name")
    if not os.path.isdir(path):
        raise InputError(f"{what} {path} is a file, not a run folder")


def check_reported_here(path: str, command: str) -> None:
    """:class:`InputError` naming the command that reports the run in ``path`` when it is a
    kind of run ``command`` (``report`` or ``grid report``) does not report, before anything
    else is read; nothing for a folder holding no run or a damaged one (reading it says which)."""
    from ..stats.runfolder import read_manifest
    from ..stats.runlayout import COMMANDS, FAIR_STATS, GRID_SIMULATE, GRID_STUDY, STATS

    try:
        kind = read_manifest(path)["format"]
    except InputError:
        return
    grid = kind in (GRID_SIMULATE, GRID_STUDY)
    if kind == FAIR_STATS:  # no report of its own: its table joins a stats run's
        raise InputError(f"{path} holds a 'golfsolve fair-stats' run: its table joins the report of a stats "
                         f"run, as in golfsolve report STATS_DIR --fair {path}")
    if grid != (command == "grid report") and kind in (STATS, GRID_SIMULATE, GRID_STUDY):
        raise InputError(f"{path} holds a '{COMMANDS[kind]}' run: golfsolve {'grid report' if grid else 'report'} "
                         f"{path} reports it")
