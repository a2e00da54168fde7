"""Compiling the solver's kernels once, before any timing starts, and saying so first.

numba compiles a kernel the first time a process calls it while its on-disk cache lacks
it (a fresh install, an empty ``NUMBA_CACHE_DIR``, or an edited kernel source, see
:mod:`golfsolve.jitcache`): seconds of CPU that nothing would otherwise explain. Here:

* :func:`ensure_compiled` loads or compiles the named kernels now. When any must be
  compiled, it first tells the :class:`Notice` (:func:`set_notice`; the ``golfsolve``
  command prints one line on stderr) with an estimate, then each kernel as it goes (the
  command shows a progress line on a terminal).
* :class:`~golfsolve.solitaire.solver.Solver` calls it before its clock starts, so a
  solve's ``seconds`` never include compiling; a batch run calls :func:`warm` in the
  parent before its workers start, so they load the cache (or, forked, inherit the
  compiled code) instead of each compiling the same kernels.
* :func:`warm` is the public "ready" step (a server calls it before saying it is up).

Kernels by name (:data:`KERNELS`): ``hunt`` (draw-any-time rules), ``search``
(draw-when-stuck rules, and every rule set with ``level_search``), ``line_wins`` (a
known line checked under other rules), ``deal`` (dealing GO1 codes).
"""

from __future__ import annotations

import time
from typing import Iterable, Optional, Sequence

#: What each kernel is for, as the progress line names it.
KERNELS = {
    "hunt": "the depth-first search (draw any time)",
    "search": "the level search (draw when stuck)",
    "line_wins": "the line checker",
    "deal": "the deal generator",
}
#: Rough CPU seconds to compile each, measured on a 2-core machine (docs/performance.md);
#: only the notice's estimate uses them.
COMPILE_SECONDS = {"hunt": 8.0, "search": 2.5, "line_wins": 1.0, "deal": 0.5}


class Notice:
    """What is told about compiling; the default tells nothing. A command subclasses it."""

    def start(self, kernels: Sequence[str], seconds: float) -> None:
        """Before compiling ``kernels``, estimated to take ``seconds`` of CPU."""

    def kernel(self, name: str, i: int, n: int) -> None:
        """Compiling kernel ``name``, the ``i``-th (from 1) of ``n``."""

    def done(self, seconds: float) -> None:
        """Compiling is over after ``seconds`` of CPU."""


_notice = Notice()
_ready: set[str] = set()


def set_notice(notice: Optional[Notice]) -> None:
    """Install what is told about compiling (None: nothing is)."""
    global _notice
    _notice = notice or Notice()


def notice_line(seconds: float) -> str:
    """The one line a command prints before compiling."""
    return f"compiling the solver's kernels once, about {max(1, round(seconds))} s; later runs start at once"


def kernels_for(rules: Iterable, level_search: bool = False, given: bool = False) -> tuple[str, ...]:
    """The kernels solving under ``rules`` needs (``given``: with answers under other rules,
    as a census does)."""
    need = []
    for r in rules:
        name = "hunt" if r.draw_any_time and not level_search else "search"
        if name not in need:
            need.append(name)
    return tuple(need) + (("line_wins",) if given else ())


def _dispatcher(name: str):
    from . import dealcode, kernel

    return {"hunt": kernel.hunt, "search": kernel.search, "line_wins": kernel.line_wins,
            "deal": dealcode.deal_cards}[name]


def _cached(name: str) -> bool:
    """Is the kernel compiled in this process, or fresh in numba's cache? (True when it
    cannot tell: then no notice is given.)"""
    disp = _dispatcher(name)
    if disp.signatures:
        return True
    try:
        return bool(disp._cache._cache_file._load_index())
    except Exception:  # a numba without this layout, or caching off
        return True


def needs_compiling(names: Iterable[str]) -> list[str]:
    """The kernels of ``names`` that the next call would compile."""
    return [n for n in names if n not in _ready and not _cached(n)]


def _touch(name: str) -> None:
    # one small call with the argument types real use passes, so that what is compiled
    # (or loaded) is the signature every later call finds
    from .layout import layout_from_number
    from .rules import get_rules
    from .solver import Solver, line_wins, pack

    if name == "deal":
        from .dealcode import deal_deck

        deal_deck(0)
        return
    rules = get_rules("strict" if name == "search" else "easy")
    p = pack(layout_from_number(0, rules))
    if name == "line_wins":
        line_wins(p, rules, ("d",))
        return
    Solver(level_search=name == "search", capacity=1024).solve_packed(p, rules, node_limit=1)


def ensure_compiled(names: Sequence[str] = tuple(KERNELS)) -> float:
    """Load or compile the kernels ``names`` now; return the CPU seconds spent compiling
    (0 when all were cached). The notice hears of it first when any must be compiled."""
    todo = [n for n in names if n not in _ready]
    if not todo:
        return 0.0
    cold = needs_compiling(todo)
    if cold:
        _notice.start(tuple(cold), sum(COMPILE_SECONDS.get(n, 1.0) for n in cold))
    t0 = time.process_time()
    for n in todo:
        _ready.add(n)  # before the call: the solve it makes must not come back here
        if n in cold:
            _notice.kernel(n, cold.index(n) + 1, len(cold))
        try:
            _touch(n)
        except BaseException:
            _ready.discard(n)
            raise
    if not cold:
        return 0.0
    spent = time.process_time() - t0
    _notice.done(spent)
    return spent


def warm(rules: Iterable = (), level_search: bool = False) -> float:
    """Make every kernel solving under ``rules`` needs ready (all kernels when none are
    given), compiling only those missing from the cache; return the seconds compiling took."""
    rules = list(rules)
    names = (kernels_for(rules, level_search, given=len(rules) > 1) + ("deal",)) if rules else tuple(KERNELS)
    return ensure_compiled(names)


__all__ = ["KERNELS", "Notice", "ensure_compiled", "kernels_for", "needs_compiling", "notice_line", "set_notice", "warm"]
