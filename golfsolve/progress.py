"""The progress bar every long command draws on stderr (bottom of the house: imports nothing of golfsolve)."""

from __future__ import annotations

import sys
import time
from typing import Any, Iterable, Optional


def check_show(show: object) -> None:
    """A :class:`TypeError` unless ``show`` is True, False or None: every library call's
    ``progress`` lands in :func:`progress_bar`, where "no" or 0 would have been read as a wish;
    a run checks it before it makes its folder."""
    kind = type(show)  # NumPy's bool is named bool_ before NumPy 2 and bool since (as inputs.flag takes it)
    if show is not None and kind is not bool and not (kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool")):
        raise TypeError(f"progress must be True, False or None (on a terminal only), not {type(show).__name__} "
                        f"{repr(show)[:40]}")


def progress_bar(iterable: Optional[Iterable] = None, *, total: Optional[float] = None, unit: str = "item",
                 desc: Optional[str] = None, show: Optional[bool] = None, **options: Any) -> Any:
    """A tqdm bar on stderr, wrapping ``iterable`` if given (else call ``update``); typed
    ``Any`` because tqdm loads only when a bar is made.

    ``show``: ``None`` draws it only when stderr is a terminal (a log or a pipe stays clean),
    ``False`` never (``--quiet``, ``--json``), ``True`` always. ``options`` go to tqdm
    (``delay=0.5`` keeps quick runs quiet, ``leave=False`` clears the bar at its end).
    """
    check_show(show)
    return _bar_class()(iterable, total=total, unit=unit, desc=desc, file=sys.stderr, dynamic_ncols=True,
                        disable=None if show is None else not show, **options)


_BAR: Any = None


def _bar_class() -> Any:
    """tqdm timing its bar by the monotonic clock. tqdm reads the wall clock, so a clock
    stepped back mid-run (NTP, a virtual machine resumed) showed a negative elapsed time and
    rate; tqdm sets ``_time`` itself, so it is a property here that keeps the monotonic one."""
    global _BAR
    if _BAR is None:
        from tqdm import tqdm

        class Bar(tqdm):
            @property
            def _time(self) -> Any:
                return time.monotonic

            @_time.setter
            def _time(self, value: Any) -> None:
                pass

        _BAR = Bar
    return _BAR


def report_bar(command: str, run: Any, show: Optional[bool] = None) -> Any:
    """A report command's bar: ``COMMAND: reading RUN...`` at once (a large run takes a while
    to read), then one step per plot after :func:`drawing_plots`."""
    return progress_bar(desc=f"{command}: reading {run}", unit="step", leave=False, bar_format="{desc}...", show=show)


def drawing_plots(bar: Any, command: str, plots: int) -> None:
    """Turn :func:`report_bar`'s ``bar`` from reading the run (one step, done) to drawing ``plots`` plots."""
    bar.bar_format, bar.total = None, 1 + plots
    bar.set_description_str(f"{command}: drawing the plots", refresh=False)
    bar.update(1)
