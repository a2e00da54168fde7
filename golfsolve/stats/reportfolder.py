"""Report folders: where a report may be written, and how writing one again replaces only
golfsolve's own files (never a run's chunks, never a user's files, never the earlier
report's text before the new one is whole).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional, Sequence

from ..errors import InputError, need_package
from .atomic import write_text_atomic
from .outdirs import check_out_dir, check_path, first_names, visible_names
from .runfolder import enclosing_run, manifest_path


def check_report_dir(out: str | os.PathLike, option: str = "--out", run: Optional[str | os.PathLike] = None,
                     create: bool = True) -> Path:
    """Where a report of the run in ``run`` may go: a new or empty directory, or one holding
    an earlier report; made unless ``create`` is False (a command checks it so before it reads
    the run, and makes it once the run is read whole).

    Never a run folder (its plots would sit among the chunks, where ``pandas.read_parquet``
    trips over them, and its report would replace another's), never inside another run's
    folder (its ``_report`` belongs to that run), inside ``run`` only in a folder pandas
    skips (``_report``), and never a directory of other files; each is :class:`InputError`
    before anything is written.
    """
    # every report draws plots: said before its folder is made, not once it stands empty
    need_package("matplotlib", "to draw the report's plots")
    if not str(out).strip():
        return check_out_dir(out, option, create)  # which says what an empty name is
    p = Path(out)
    check_path(out, option)
    outer = enclosing_run(p)
    if outer is not None:
        inside = p.resolve().relative_to(outer)
        if run is None or outer != Path(run).resolve():
            raise InputError(f"{option} {p} is inside the run folder {outer}, not the run reported on; "
                             "write the report into a new directory or the run's own _report folder")
        if not inside.parts[0].startswith(("_", ".")):
            raise InputError(f"{option} {p} is inside the run folder {outer}, where pandas would read its "
                             "files as part of the run; use a folder whose name starts with _ (the default "
                             "is _report)")
        if len(inside.parts) > 1:
            # the run's own _report (holding that folder) would then refuse every default report
            raise InputError(f"{option} {p} is a folder inside {outer / inside.parts[0]}; a report inside the run "
                             "folder goes directly in it, in a folder whose name starts with _ (the default is "
                             "_report)")
    if p.is_dir():
        if manifest_path(p) is not None:
            raise InputError(f"{option} {p} holds a golfsolve run, not a report; write the report into a "
                             "new directory or into the run's _report folder (the default)")
        others = visible_names(p)
        # a report is written over the earlier one in place: through a FIFO it would wait for ever
        odd = [n for n in others if not (p / n).is_file()]
        if odd:
            raise InputError(f"{option} {p} holds {first_names(odd)}, which is not a regular file; a report folder holds "
                             "only the report's files: move it out, or choose an empty or new directory")
        if others and not is_report_dir(p):
            # a stray report.md is not an earlier report: the user's files would be overwritten
            raise InputError(f"{option} {p} is not empty ({first_names(others)}) and holds no golfsolve report; "
                             "choose an empty or new directory")
    return check_out_dir(out, option, create)


#: The hidden file that marks a folder as holding a golfsolve report: written before any of
#: the report's files, so a report cut short (Ctrl-C, ``kill``) is still known as golfsolve's.
REPORT_MARKER = ".golfsolve-report"


#: The first line of the ``report.md`` of each kind of report: how a report written before
#: the marker existed is known.
REPORT_TITLES = ("# Golf solitaire win-rate statistics", "# Grid Golf tournament report",
                 "# Grid Golf: a study of the table options")


def is_report_dir(path: str | os.PathLike) -> bool:
    """Whether the folder ``path`` holds a report golfsolve wrote (its marker, or a
    ``report.md`` with a golfsolve report's title from before the marker), so that writing a
    report there replaces only golfsolve's own files."""
    p = Path(path)
    if (p / REPORT_MARKER).is_file():
        return True
    md = p / "report.md"
    if not md.is_file():
        return False
    try:
        with open(md, "rb") as f:
            first = f.read(200).split(b"\n", 1)[0].decode("utf-8", "replace").rstrip()
    except OSError:
        return False
    return first in REPORT_TITLES


#: What every report writes, so never removed ahead of time: a report cut short keeps the
#: text of the one before.
_REPORT_TEXTS = ("report.md", "report.html")


def start_report(out: str | os.PathLike, run: Optional[str | os.PathLike] = None, plots: Sequence[str] = ()) -> Path:
    """Make the folder ``out`` for a report of the run in ``run`` and mark it as golfsolve's
    before any file of the report is written. The library's report writers call this, so
    they refuse what the commands refuse (:func:`check_report_dir`: a run folder, another
    run's folder, a folder of other files or of someone else's ``report.md``).

    ``plots``: the files this report may draw besides its text. The marker lists them with
    the plots the earlier report's marker lists; :func:`finish_report`, once the new text is
    written, removes those of them the new report did not draw, so a report of another kind
    (or one that draws fewer) leaves none of the earlier report's figures beside it, and one
    cut short (Ctrl-C, a kill) leaves the earlier text with every plot it shows (removing
    them first would leave an earlier report.md showing plots that are gone)."""
    p = check_report_dir(out, "the report folder", run)  # a library caller could write a report among the run's chunks
    listed = _report_plots(p)
    try:
        _write_marker(p, listed + [n for n in plots if n not in listed])
    except OSError as e:
        raise InputError(f"cannot write the report into {p}: {e.strerror or e}") from None
    return p


def finish_report(out: str | os.PathLike, drawn: Sequence[str]) -> None:
    """After a report's text is written: remove the plots the marker lists that this report
    did not draw (``drawn``: the names of the plots it wrote), and list only its own."""
    p = Path(out)
    for name in _report_plots(p):
        f = p / name
        # only a plain name in this folder, as the marker was written (a hand-edited one removes nothing else)
        if name not in drawn and name == Path(name).name and not name.startswith(".") \
                and name not in _REPORT_TEXTS and f.is_file() and not f.is_symlink():
            try:
                f.unlink()
            except OSError:
                pass
    try:
        _write_marker(p, list(drawn))
    except OSError as e:
        raise InputError(f"cannot write the report into {p}: {e.strerror or e}") from None


def _report_plots(p: Path) -> list[str]:
    """The plots the report marker in ``p`` lists (none without a readable marker)."""
    marker = p / REPORT_MARKER
    try:
        return [n for n in marker.read_text(encoding="utf-8").splitlines()[1:] if n] if marker.is_file() else []
    except (OSError, UnicodeDecodeError):
        return []


def _write_marker(p: Path, plots: Sequence[str]) -> None:
    write_text_atomic(p / REPORT_MARKER, "golfsolve report: this folder's report.md, report.html and plots "
                                         "are written again by the next report\n" + "".join(f"{n}\n" for n in plots))


__all__ = ["REPORT_MARKER", "check_report_dir", "finish_report", "is_report_dir", "start_report"]
