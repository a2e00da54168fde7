"""What a command tells about compiling kernels: one hook shared by the game domains.

The solver's kernels (:mod:`golfsolve.solitaire.compiling`) and the grid's
(:mod:`golfsolve.grid.compiling`) are compiled the first time a process needs them while
numba's cache lacks them: seconds to a minute of CPU that nothing would otherwise explain.
The domains tell the installed :class:`Notice`; the library's default tells nothing, and
the ``golfsolve`` command installs one that prints a line on stderr. No numba here, so the
command can install it before it knows whether anything will be compiled.
"""

from __future__ import annotations

from typing import Optional, Sequence

#: What the solver's kernels are called in the notice line.
SOLVER = "the solver's kernels"


class Notice:
    """What is told about compiling; the default tells nothing. A command subclasses it."""

    def start(self, kernels: Sequence[str], seconds: float, what: str = SOLVER) -> None:
        """Before compiling ``kernels`` (``what`` names them for a person), estimated to take
        ``seconds`` of CPU."""

    def kernel(self, name: str, i: int, n: int) -> None:
        """Compiling kernel ``name``, the ``i``-th (from 1) of ``n``."""

    def wait(self, seconds: float, what: str = SOLVER) -> None:
        """Another process is compiling ``what`` (estimated ``seconds`` of CPU): this one
        waits for it, then loads what it compiled."""

    def done(self, seconds: float) -> None:
        """Compiling (or waiting for it) is over after ``seconds`` of this process's CPU."""


_notice = Notice()
#: False once the kernels' cache is a folder of this process's own, removed at its exit
#: (:mod:`golfsolve.jitcache` falls back to it when no folder it may keep can be written).
_cache_kept = True


def set_notice(notice: Optional[Notice]) -> None:
    """Install what is told about compiling (None: nothing is)."""
    global _notice
    _notice = notice or Notice()


def notice() -> Notice:
    """The installed notice."""
    return _notice


def cache_not_kept() -> None:
    """Say that compiled kernels will not outlive this process, so the notice does not promise
    that later runs start at once."""
    global _cache_kept
    _cache_kept = False


#: What the notice says in place of "later runs start at once" when the cache is not kept.
NOT_KEPT = "no folder to keep them in, so every run compiles them (set NUMBA_CACHE_DIR to a folder of your own)"


def notice_line(seconds: float, what: str = SOLVER) -> str:
    """The one line a command prints before compiling."""
    if not _cache_kept:
        return f"compiling {what}, about {max(1, round(seconds))} s; {NOT_KEPT}"
    return f"compiling {what} once, about {max(1, round(seconds))} s; later runs start at once"


def wait_line(seconds: float, what: str = SOLVER) -> str:
    """The one line a command prints before waiting for another process's compiling."""
    return f"waiting for another process compiling {what} once, about {max(1, round(seconds))} s; later runs start at once"
