"""The progress bar every long command draws on stderr (bottom of the house: imports nothing of golfsolve)."""

from __future__ import annotations

import sys
from typing import Any, Iterable, Optional


def progress_bar(iterable: Optional[Iterable] = None, *, total: Optional[float] = None, unit: str = "item",
                 desc: Optional[str] = None, show: Optional[bool] = None, **options: Any) -> Any:
    """A tqdm bar on stderr, wrapping ``iterable`` if given (else call ``update``); typed
    ``Any`` because tqdm loads only when a bar is made.

    ``show``: ``None`` draws it only when stderr is a terminal (a log or a pipe stays clean),
    ``False`` never (``--quiet``, ``--json``), ``True`` always. ``options`` go to tqdm
    (``delay=0.5`` keeps quick runs quiet, ``leave=False`` clears the bar at its end).
    """
    if show is not None and type(show) is not bool and type(show).__name__ != "bool_":
        # every library call's ``progress`` lands here: "no" or 0 would have been read as a wish
        raise TypeError(f"progress must be True, False or None (on a terminal only), not {type(show).__name__} "
                        f"{repr(show)[:40]}")
    from tqdm import tqdm

    return tqdm(iterable, total=total, unit=unit, desc=desc, file=sys.stderr, dynamic_ncols=True,
                disable=None if show is None else not show, **options)


def report_bar(command: str, run: Any, show: Optional[bool] = None) -> Any:
    """A report command's bar: ``COMMAND: reading RUN...`` at once (a large run takes a while
    to read), then one step per plot after :func:`drawing_plots`."""
    return progress_bar(desc=f"{command}: reading {run}", unit="step", leave=False, bar_format="{desc}...", show=show)


def drawing_plots(bar: Any, command: str, plots: int) -> None:
    """Turn :func:`report_bar`'s ``bar`` from reading the run (one step, done) to drawing ``plots`` plots."""
    bar.bar_format, bar.total = None, 1 + plots
    bar.set_description_str(f"{command}: drawing the plots", refresh=False)
    bar.update(1)
