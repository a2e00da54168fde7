"""Compiling the grid's kernels once, before a run's matches start, and saying so first.

The grid's kernels come from numba's JIT and its on-disk cache (:mod:`golfsolve.jitcache`);
a fresh install, an empty ``NUMBA_CACHE_DIR`` or an edited kernel source makes the first
command compile them: up to a minute or more of CPU (every bot's kernels: about 90 s on a
loaded 2-core machine, the heuristic's alone about 35 s) that would otherwise pass in
silence. :func:`warm` plays one short hole per bot in this process with a listener on
numba's compile event, so the installed :class:`golfsolve.compilenotice.Notice` hears of
it before the first kernel compiles, and a run's worker processes started afterwards find
everything in the cache instead of each compiling the same kernels.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Optional, Sequence

from numba.core import event

from ..compilenotice import notice
from .rules import GridRules

#: What the notice line calls the grid's kernels.
WHAT = "the grid's kernels"
#: Rough CPU seconds to compile every grid kernel (the notice's estimate only).
COMPILE_SECONDS = 60.0

_warm: set[tuple[str, Optional[int]]] = set()


def warm(rules: GridRules, bots: Sequence[str], samples: Optional[int] = None) -> float:
    """Load or compile the kernels ``bots`` use; return the CPU seconds spent compiling (0
    when all were in the cache). The notice hears of it first when anything compiles.

    Each bot plays one hole against itself at a two-player table with ``rules``' switches:
    the kernels take the rules as arrays, so what is compiled serves every table."""
    from .botnames import takes_mc_samples
    from .tournament import simulate  # here: the tournament imports the bots, and they the kernels

    todo = [b for b in dict.fromkeys(bots) if (b, samples) not in _warm]
    if not todo:
        return 0.0
    listener = _Listener()
    t0 = _cpu()
    event.register("numba:compile", listener)
    try:
        table = dataclasses.replace(rules, players=2, holes=1)
        for b in todo:
            simulate(table, [b, b], 1, seed=0, samples=samples if takes_mc_samples(b) else None)
            _warm.add((b, samples))
    finally:
        event.unregister("numba:compile", listener)
    if not listener.told:
        return 0.0
    spent = _cpu() - t0
    notice().done(spent)
    return spent


class _Listener(event.Listener):
    """Tells the notice once, at the first kernel numba compiles (a cache hit is no event)."""

    def __init__(self) -> None:
        self.told = False

    def on_start(self, ev: event.Event) -> None:
        if not self.told:
            self.told = True
            notice().start(("grid",), COMPILE_SECONDS, what=WHAT)

    def on_end(self, ev: event.Event) -> None:
        pass


def _cpu() -> float:
    t = os.times()
    return t.user + t.system
