"""Writing a file so that it is whole or absent whatever stops the writing (Ctrl-C, a kill, a
full disk, a power cut), and never through a link or a FIFO left under its name: the run
folders' chunks and manifests and the reports' text and figures are all written here, so a
reader never meets half a file.
"""

from __future__ import annotations

import json
import os
import re
import stat
import textwrap
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Optional

from ..errors import InputError

if TYPE_CHECKING:  # pandas loads when a chunk is written
    import pandas as pd


def check_replaceable(path: Path) -> None:
    """Refuse (:class:`InputError`) a directory at ``path``, where a file is to be written:
    a rename cannot replace it (a link to one is replaced as a link)."""
    if path.is_dir() and not path.is_symlink():
        raise InputError(f"{path} is a directory, so the file cannot be written there; move it out of the folder "
                         "and run the command again")


#: The names of the hidden temporary files written here (:func:`_replacing`, :func:`write_json_new`)
_TEMPORARY = re.compile(r"\..+\.\d+(\.new)?\.tmp")


def remove_temporaries(folder: Path) -> None:
    """Remove the hidden temporary files a killed command left in ``folder`` (call it holding the
    folder's lock: no other command is writing them). Only regular files of the names written
    here: a folder under such a name stopped every --resume ("cannot go on: Is a directory"), and
    any hidden ``.*.tmp`` of the user's went with them."""
    for p in folder.iterdir():
        if _TEMPORARY.fullmatch(p.name):
            try:
                if stat.S_ISREG(os.lstat(p).st_mode):
                    p.unlink()
            except FileNotFoundError:
                pass


@contextmanager
def _replacing(path: Path) -> Iterator[Path]:
    """The hidden temporary name beside ``path`` to write in the block; renamed over ``path``
    when the block ends, removed whatever stops it (a full disk, Ctrl-C, a kill's signal)."""
    check_replaceable(path)  # else the rename fails naming the temporary file, after the writing
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException as e:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:  # a folder made read-only meanwhile: the error that stopped the writing is the one to tell
            pass
        if isinstance(e, OSError) and (e.filename is None or str(e.filename) == str(tmp)):
            # a full disk names no file, and the hidden temporary name is none the user knows
            e.filename = str(path)
        raise


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename (the temporary file
    is removed whatever stops the writing: a full disk, Ctrl-C); whatever was at ``path``
    (a FIFO would block a plain write) is replaced, not written through."""
    with _replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json_atomic(path: Path, obj: dict) -> None:
    """Write ``obj`` as JSON to ``path`` as :func:`write_text_atomic` does."""
    write_text_atomic(path, json.dumps(obj, indent=2) + "\n")


def write_json_new(path: Path, obj: dict) -> bool:
    """Write ``obj`` as JSON to ``path`` only if nothing is there yet, in one step (a hard
    link of a finished temporary file); False, writing nothing, when ``path`` exists."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.new.tmp")
    text = json.dumps(obj, indent=2) + "\n"
    try:
        # a full disk fails here and is raised: it was taken for "no hard links" below, which
        # then wrote the unfinished temporary file's nothing as the manifest
        tmp.write_text(text, encoding="utf-8")
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        except OSError:  # a file system without hard links: an exclusive create instead
            try:
                f = open(path, "x", encoding="utf-8")
            except FileExistsError:
                return False
            try:
                with f:
                    f.write(text)
            except BaseException:
                path.unlink(missing_ok=True)  # ours, half written: no manifest rather than a broken one
                raise
    finally:
        tmp.unlink(missing_ok=True)
    return True


def write_parquet_atomic(final: Path, df: pd.DataFrame, metadata: Optional[dict[str, str]] = None) -> Path:
    """Write ``df`` to ``final`` through a hidden temporary file, fsync and a rename;
    ``metadata`` joins the file's key-value metadata."""
    with _replacing(final) as tmp, open(tmp, "wb") as f:
        schema = None
        if metadata:
            import pyarrow as pa

            schema = pa.Schema.from_pandas(df, preserve_index=False)
            schema = schema.with_metadata({**(schema.metadata or {}),
                                           **{k.encode(): v.encode() for k, v in metadata.items()}})
        df.to_parquet(f, index=False, schema=schema)
        f.flush()
        # On disk before the rename, so that even a power cut leaves either the whole
        # chunk or no chunk under the final name.
        os.fsync(f.fileno())
    return final


def save_figure_atomic(fig: Any, path: Path, dpi: int = 110) -> Path:
    """Save the matplotlib figure ``fig`` as a PNG at ``path`` as :func:`write_text_atomic`
    writes text: whatever was at ``path`` (a link to another file, which a plain save would
    write through) is replaced, and a kill leaves no half image under the name."""
    with _replacing(path) as tmp:
        fig.savefig(tmp, dpi=dpi, format="png")
    return path


def figure_footer(head: str, command: Optional[str]) -> str:
    """The provenance footer of a report's figures: ``head`` (what the run covers), then
    each line of the command that made the run as ``$ ...``, wrapped at 120 characters."""
    cmds = (command or "").splitlines() or ["(command not recorded)"]
    # never at a hyphen: "--chunk-" and "size 1" on two lines, pasted, run as no command
    return head + "\n" + "\n".join(line for c in cmds
                                   for line in textwrap.wrap("$ " + c, 120, break_on_hyphens=False))


def _fit_footer(footer: str, fig: Any, size: float) -> str:
    """``footer`` with every line too wide for ``fig`` (at ``size`` points, monospace) wrapped
    to what fits: a line of 120 characters ran past the right edge of a 6.5-inch figure and was
    cut off there, and a long first line (many rule sets or bots) past any figure."""
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.font_manager import FontProperties

    sample = "0" * 100
    width, _, _ = RendererAgg(10, 10, 72).get_text_width_height_descent(
        sample, FontProperties(family="monospace", size=size), ismath=False)
    per_char = width / len(sample) / 72  # inches: at 72 dpi a point is a pixel
    fits = max(20, int(fig.get_figwidth() * 0.97 / per_char))  # the text starts at 1% of the width
    # never at a hyphen: "--chunk-" and "size 1" on two lines, pasted, run as no command
    return "\n".join(piece for line in footer.splitlines()
                     for piece in (textwrap.wrap(line, fits, break_on_hyphens=False) or [""]))


def save_footed_figure(fig: Any, footer: str, path: Path) -> Path:
    """Save a report's figure as :func:`save_figure_atomic` does, ``footer`` (see
    :func:`figure_footer`) printed small along its bottom edge, where the plot leaves room."""
    size = 6.5
    footer = _fit_footer(footer, fig, size)
    # The figure grows by the footer's height, line by line: a fixed strip held three lines,
    # and an extended run's several commands ran over the axis labels.
    room = (footer.count("\n") + 1) * size * 1.25 / 72 + 0.12  # inches
    height = fig.get_figheight() + room
    fig.set_figheight(height)
    fig.text(0.01, 0.04 / height, footer, fontsize=size, family="monospace", va="bottom", ha="left",
             color="#444444")
    for ax in fig.axes:
        # a title wider than the figure was cut off at its edges; wrapped, it is read whole
        ax.title.set_wrap(True)
    fig.tight_layout(rect=(0, room / height, 1, 1))
    return save_figure_atomic(fig, path)  # replaces a link there, never writes through it


__all__ = ["check_replaceable", "figure_footer", "remove_temporaries", "save_figure_atomic", "save_footed_figure",
           "write_json_atomic", "write_json_new", "write_parquet_atomic", "write_text_atomic"]
