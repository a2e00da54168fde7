"""Compiling the solver's kernels once, before any timing starts, and saying so first.

The solver's kernels come ready-made from the ahead-of-time compiled module in the cache
(:mod:`.native`: no numba start-up), or, when it cannot be built, from numba's JIT and its
on-disk cache (:mod:`golfsolve.jitcache`). Either way they are compiled the first time a
process needs them while the cache lacks them (a fresh install, an empty
``NUMBA_CACHE_DIR``, or an edited kernel source): seconds of CPU that nothing would
otherwise explain. Here:

* :func:`ensure_compiled` loads or compiles the named kernels now, :func:`ready` says
  whether one is, and :func:`function` then gives each. When anything must be compiled, it
  first tells the :class:`~golfsolve.compilenotice.Notice`
  (:func:`golfsolve.compilenotice.set_notice`; the ``golfsolve`` command prints one line on stderr) with an
  estimate, then each step as it goes (the command shows a progress line on a terminal).
  The ahead-of-time module holds every kernel, so one build serves every later command;
  a process that finds another building it waits for that build (the notice hears of the
  wait) and loads it.
* It imports nothing above it: numba's JIT compiles a kernel for the argument types of its
  first call, so the layer that calls the kernels gives :func:`ensure_compiled` its
  warm-up (``touch``: one small call as real use makes it).
  :func:`golfsolve.solitaire.solver.ensure_kernels` passes the solver's, and
  :class:`~golfsolve.solitaire.solver.Solver` calls it before its clock starts, so a
  solve's ``seconds`` never include compiling; a batch run calls
  :func:`golfsolve.solitaire.solver.warm` in the parent before its workers start, so they
  load the cache (or, forked, inherit the compiled code) instead of each compiling the
  same kernels, and a server calls it before saying it is up.

Kernels by name (:data:`KERNELS`): ``hunt`` (draw-any-time rules), ``search``
(draw-when-stuck rules, and every rule set with ``level_search``), ``line_wins`` (a
known line checked under other rules). Dealing a GO1 code needs none (plain Python).
"""

from __future__ import annotations

import os
from typing import Callable, Iterable, Sequence

from ..compilenotice import notice

#: What each kernel is for, as the progress line names it.
KERNELS = {
    "hunt": "the depth-first search (draw any time)",
    "search": "the level search (draw when stuck)",
    "line_wins": "the line checker",
}
#: What the progress line calls the ahead-of-time build (all kernels at once).
NATIVE = "native"
_LABELS = {**KERNELS, NATIVE: "the solver's kernels, ahead of time (one module)"}
#: Kernels that come along with one (the hunt's lost-state rows, :class:`.solver.LostStates`;
#: the fair player's search over one stock order, :mod:`.orderhunt`, and its exact endgame,
#: :mod:`.expectimax`).
_COMPANIONS = {"hunt": ("load_rows", "take_rows", "order_verdicts", "state_value", "draw_value")}
#: Rough CPU seconds to compile each, measured on a 2-core machine (docs/performance.md;
#: the ahead-of-time build, with the fair player's order search and endgame: 39-62 s, median
#: 53, five cold ``golfsolve solve GO1-E-AAAAAAB``, 2026-12-03); only the notice's estimate uses them.
COMPILE_SECONDS = {"hunt": 8.0, "search": 8.0, "line_wins": 1.5, NATIVE: 50.0}


_ready: set[str] = set()
_functions: dict[str, Callable] = {}


def describe(name: str) -> str:
    """What the progress line calls compiling step ``name``."""
    return _LABELS.get(name, name)


def ready(name: str) -> bool:
    """Is kernel ``name`` loaded (or compiled) in this process already? Then
    :func:`function` gives it without compiling anything."""
    return name in _ready


def function(name: str) -> Callable:
    """Kernel ``name`` (or a companion of it: ``load_rows``, ``take_rows``,
    ``order_verdicts``, ``state_value`` and ``draw_value`` come with ``hunt``), ahead-of-time
    compiled or numba's; call :func:`ensure_compiled` first."""
    return _functions[name]


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
    from . import kernel

    return getattr(kernel, name)


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
    """The kernels of ``names`` that the next call would compile (all of them when the
    ahead-of-time module is to be built: it holds every kernel)."""
    from . import native  # here, not above: the command imports this module for --help too (no numpy)

    todo = [n for n in names if n not in _ready]
    if not todo or native.load() is not None:
        return []
    if native.buildable():
        return todo
    return [n for n in todo if not _cached(n)]


def ensure_compiled(names: Sequence[str], touch: Callable[[str], None]) -> float:
    """Load or compile the kernels ``names`` now; return the CPU seconds spent compiling
    (0 when all were cached). The notice hears of it first when any must be compiled.

    The ahead-of-time module is loaded when it is in the cache, else built (every kernel
    at once) when it can be; only when it cannot do the kernels come from numba's JIT, each
    compiled by ``touch(name)``: one small call of it with the argument types real use
    passes, so that what is compiled is the signature every later call finds (the solver's
    is :func:`golfsolve.solitaire.solver.ensure_kernels`'s). The kernel counts as ready
    during that call, so a touch that solves does not come back here."""
    todo = [n for n in names if n not in _ready]
    if not todo:
        return 0.0
    from . import native

    t0 = _cpu()
    told = False
    kernels = native.load()
    if kernels is None and native.buildable():

        def building() -> None:
            nonlocal told
            notice().start((NATIVE,), COMPILE_SECONDS[NATIVE])
            notice().kernel(NATIVE, 1, 1)
            told = True

        def waiting() -> None:  # another process builds it (it holds the lock): this one loads it after
            nonlocal told
            notice().wait(COMPILE_SECONDS[NATIVE])
            told = True

        kernels = native.build(building, waiting)
    if kernels is not None:
        for n in todo:
            for f in (n, *_COMPANIONS.get(n, ())):
                _functions[f] = getattr(kernels, f)
            _ready.add(n)
        return _finish(told, t0)
    cold = [n for n in todo if not _cached(n)]
    if cold and not told:
        notice().start(tuple(cold), sum(COMPILE_SECONDS.get(n, 1.0) for n in cold))
        told = True
    for n in todo:
        for f in (n, *_COMPANIONS.get(n, ())):
            _functions[f] = _dispatcher(f)
        _ready.add(n)  # before the call: the solve it makes must not come back here
        if n in cold:
            notice().kernel(n, cold.index(n) + 1, len(cold))
        try:
            touch(n)
        except BaseException:
            _ready.discard(n)
            raise
    return _finish(told, t0)


def _cpu() -> float:
    # this process and the children it waited for (the ahead-of-time build and its C compiler)
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _finish(told: bool, t0: float) -> float:
    if not told:
        return 0.0
    spent = _cpu() - t0
    notice().done(spent)
    return spent


__all__ = ["KERNELS", "describe", "ensure_compiled", "function", "kernels_for", "needs_compiling", "ready"]
