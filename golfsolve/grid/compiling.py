"""Compiling the grid's kernels once, before a run's matches start, and saying so first.

The grid's kernels come from numba's JIT and its on-disk cache (:mod:`golfsolve.jitcache`);
a fresh install, an empty ``NUMBA_CACHE_DIR`` or an edited kernel source makes the first
command compile them: up to a minute or more of CPU (every bot's kernels: about 90 s on a
loaded 2-core machine, the heuristic's alone about 35 s) that would otherwise pass in
silence. :func:`warm` plays one short hole per bot of golfsolve's in this process with a
listener on numba's compile event, so the installed :class:`golfsolve.compilenotice.Notice`
hears of it before the first kernel compiles, and a run's worker processes started
afterwards find everything in the cache instead of each compiling the same kernels.
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

#: the bots (at their least count) whose kernels this process has loaded
_warm: set[str] = set()


def warm(rules: GridRules, bots: Sequence[str], samples: Optional[int] = None) -> float:
    """Load or compile the kernels ``bots`` use; return the CPU seconds spent compiling (0
    when all were in the cache). The notice hears of it first when anything compiles.

    Each of golfsolve's own bots (not one registered with ``register_bot``) plays one hole
    against itself at a two-player table with ``rules``' switches: the kernels take the
    rules as arrays, so what is compiled serves every table. A bot with a count (samples,
    iterations, play-outs) plays it at the least count it takes: the count is a number the
    kernels are given, not compiled in, and at the bot's own count the hole took as long as
    the bot thinks (``grid play --bots ismcts:200000`` waited 20 s before its first board).
    So ``samples``, the count of ``mc`` bots named without one, changes nothing here; it is
    taken so that a run passes what it plays with."""
    from .tournament import simulate  # here: the tournament imports the bots, and they the kernels

    # golfsolve's own bots only: a hole of a bot of one's own compiles nothing of golfsolve's, and
    # its failure there was reported as the run's "match 0 (seed 0)", whatever the seed
    todo = [b for b in dict.fromkeys(_cheapest(b) for b in bots if _own(b)) if b not in _warm]
    if not todo:
        return 0.0
    listener = _Listener()
    t0 = _cpu()
    event.register("numba:compile", listener)
    try:
        table = dataclasses.replace(rules, players=2, holes=1)
        for b in todo:
            simulate(table, [b, b], 1, seed=0)
            _warm.add(b)
    finally:
        event.unregister("numba:compile", listener)
    if not listener.told:
        return 0.0
    spent = _cpu() - t0
    notice().done(spent)
    return spent


def _cheapest(bot: str) -> str:
    """The bot ``bot`` names at the least count its kind takes (``ismcts:1`` for
    ``ismcts:300``), or as it is when it takes no count: the same kernels, the least work."""
    from .botnames import bot_entry, registry_kind

    entry, _ = bot_entry(bot)
    return bot if entry.count is None else f"{registry_kind(entry)}:{entry.least}"


def _own(bot: str) -> bool:
    """Whether ``bot`` is one of golfsolve's own (not one registered with ``register_bot``)."""
    from .botnames import OWN_BOTS, bot_entry, registry_kind

    return registry_kind(bot_entry(bot)[0]) in OWN_BOTS


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
