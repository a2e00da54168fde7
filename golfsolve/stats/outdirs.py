"""Checking where a command's output is to go (a run folder, a report, a file) before any
work starts, so that a bad path is one line naming the option, not a failure half-way
through a run.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..errors import InputError, clip_path
from ..inputs import check_path_text


def check_path(path: str | os.PathLike, what: str) -> None:
    """A path the file system can look up, new or not: a name too long, a loop of links or a
    folder on the way that may not be searched is :class:`InputError` naming ``what``, before
    the first step that would stumble on it half-way (``Path.exists`` raises on these). A
    name that is not UTF-8 is refused too: Arrow cannot open the chunks of such a folder."""
    check_path_text(path, what)
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{what} {clip_path(path, 60)}: the name is not UTF-8 text; choose a name in UTF-8") \
            from None
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        pass
    except OSError as e:
        raise InputError(f"{what} {clip_path(path, 60)}: {e.strerror or e}") from None


def check_out_type(out: object) -> None:
    """A :class:`TypeError` unless ``out`` is a path (text or a ``Path``): os.stat and os.open
    take a whole number as a file descriptor, so run_census(5, ...) said "--out '5': Bad file
    descriptor", and run_census(0, ...) failed deep in pathlib."""
    if not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"out must be a directory's path, e.g. 'runs/easy' or a Path, not {type(out).__name__} "
                        f"{repr(out)[:40]}")


def check_out_dir(out: str | os.PathLike, option: str = "--out", create: bool = True) -> Path:
    """The directory ``out`` after checking that results can be written there.

    Raises :class:`InputError` naming the problem (an empty name, a file in the way, no
    permission, a read-only or virtual file system) before any work is done. With
    ``create`` the directory is made and a probe file written and removed in it.
    """
    if out is not None:
        check_out_type(out)
    if out is None or not str(out).strip():
        raise InputError(f"{option} needs a directory name, not {str(out)!r}")
    if isinstance(out, str) and out.strip() == "-":
        # '-' is standard input or output wherever golfsolve reads or writes a file (--layout -,
        # --codes-from -); here it would quietly make a folder named '-'
        raise InputError(f"{option} - would make a directory named '-' here: a run folder or report cannot go to "
                         "standard output (--json prints the answer there); give a directory's name, ./- for "
                         "one named '-'")
    check_path(out, option)
    p = Path(out)
    if p.exists() and not p.is_dir():
        raise InputError(f"{option} {p} exists and is not a directory; choose a directory")
    probe = p
    while not probe.exists():
        if probe.is_symlink():  # else mkdir meets the link and says "File exists"
            raise InputError(f"{option} {p}: {probe} is a link to {os.readlink(probe)}, which does not exist; "
                             "make that directory, or choose another one")
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise InputError(f"cannot create {option} {p}: {probe} is a file, not a directory")
    if not create:
        return p
    try:
        p.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".golfsolve-probe-", dir=p)
        os.close(fd)
        os.unlink(name)
    except OSError as e:
        raise InputError(f"cannot write to {option} {p}: {e.strerror or e}; choose a writable directory") from None
    return p


def visible_names(path: Path) -> list[str]:
    """The names in ``path`` that are not hidden, sorted."""
    return sorted(n.name for n in path.iterdir() if not n.name.startswith("."))


def first_names(names: list[str]) -> str:
    """The first few names, for a one-line message."""
    return ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")


__all__ = ["check_out_dir", "check_out_type", "check_path", "first_names", "visible_names"]
