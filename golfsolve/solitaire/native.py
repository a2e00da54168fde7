"""The solver's kernels compiled ahead of time: a single answer without numba's start-up.

A warm ``golfsolve solve CODE`` spent most of its time in numba itself: importing it
(about 0.2 s) and readying its CPU target to load the first cached kernel (another 0.2 s),
for a search of a millisecond (docs/performance.md). So the first time a process needs the
solver's kernels (:func:`golfsolve.solitaire.compiling.ensure_compiled`) they are compiled
once more, ahead of time, into one extension module in numba's cache folder, and every
later process loads that module without importing numba (:mod:`golfsolve.aotcache` has
how, where, and what happens without a C compiler: numba's JIT, as before).

:data:`SPEC` lists :data:`EXPORTS` of :mod:`.kernel` with the one signature each the
solver calls them with. Its digest covers this file and all it imports, :mod:`.kernel`
included, so editing any kernel source makes the module stale.
"""

from __future__ import annotations

from typing import Callable, Optional

from .. import aotcache

#: The kernels the module holds, by their names in :mod:`.kernel`.
EXPORTS = ("hunt", "search", "line_wins", "load_rows", "take_rows", "order_verdicts", "state_value", "draw_value")


def _signatures() -> dict:
    """The numba signature of each exported kernel: the argument types the solver passes."""
    from numba.core import types as T

    from . import kernel  # noqa: F401  (the module compiled: its sources salt the build)

    i8_1, i8_2 = T.Array(T.int8, 1, "C"), T.Array(T.int8, 2, "C")
    i32_1, i64_1 = T.Array(T.int32, 1, "C"), T.Array(T.int64, 1, "C")
    u64_2 = T.Array(T.uint64, 2, "C")
    u8_1, u16_1, u16_2 = T.Array(T.uint8, 1, "C"), T.Array(T.uint16, 1, "C"), T.Array(T.uint16, 2, "C")
    links = T.Array(T.int64, 2, "C")
    i64_2, f64_1 = T.Array(T.int64, 2, "C"), T.Array(T.float64, 1, "C")
    fits = T.Array(T.bool_, 2, "C", readonly=True)
    answer = T.UniTuple(T.int64, 4)  # outcome, best cards left, path length, nodes
    return {
        "hunt": answer(i8_2, i8_1, i8_1, T.int64, fits, T.int64, u16_2, i32_1, i8_1, links, T.boolean,
                       T.int64, T.int64, T.int64, i64_1, T.int64),
        "search": answer(i8_2, i8_1, i8_1, T.int64, fits, T.boolean, T.int64, u8_1, u8_1, i32_1, i32_1, i8_1, i8_1,
                         i32_1, i32_1, i32_1, i8_1, links, T.boolean, T.int64, T.int64, T.int64),
        "line_wins": T.boolean(i8_2, i8_1, i8_1, T.int64, fits, T.boolean, i8_1),
        "load_rows": T.none(u16_2, i64_1, u16_2),
        "take_rows": T.Tuple((i64_1, u16_2))(u16_2, i64_1, i32_1, T.int64, T.boolean),
        "order_verdicts": T.Tuple((T.int64, T.int64, i64_1, u64_2))(i8_2, i8_1, i8_1, T.int64, fits, links, i8_2,
                                                                     i8_1, u16_2, u8_1, i32_1, i32_1, i32_1, u16_1,
                                                                     T.boolean, i64_1, u64_2, T.boolean),
        "state_value": T.float64(i64_2, i64_1, T.int64, T.int64, i64_1, T.int64, i64_1, T.int64, fits, T.boolean,
                                 i64_1, f64_1, i64_1),
        "draw_value": T.float64(i64_2, i64_1, T.int64, i64_1, T.int64, i64_1, T.int64, fits, T.boolean, i64_1, f64_1,
                                i64_1),
    }


#: Per exported kernel, the (dtype, ndim) of each array argument by position.
_ARRAYS = {
    "hunt": {0: ("int8", 2), 1: ("int8", 1), 2: ("int8", 1), 4: ("bool", 2), 6: ("uint16", 2), 7: ("int32", 1),
             8: ("int8", 1), 9: ("int64", 2), 14: ("int64", 1)},
    "search": {0: ("int8", 2), 1: ("int8", 1), 2: ("int8", 1), 4: ("bool", 2), 7: ("uint8", 1), 8: ("uint8", 1),
               9: ("int32", 1), 10: ("int32", 1), 11: ("int8", 1), 12: ("int8", 1), 13: ("int32", 1),
               14: ("int32", 1), 15: ("int32", 1), 16: ("int8", 1), 17: ("int64", 2)},
    "line_wins": {0: ("int8", 2), 1: ("int8", 1), 2: ("int8", 1), 4: ("bool", 2), 6: ("int8", 1)},
    "load_rows": {0: ("uint16", 2), 1: ("int64", 1), 2: ("uint16", 2)},
    "take_rows": {0: ("uint16", 2), 1: ("int64", 1), 2: ("int32", 1)},
    "order_verdicts": {0: ("int8", 2), 1: ("int8", 1), 2: ("int8", 1), 4: ("bool", 2), 5: ("int64", 2),
                       6: ("int8", 2), 7: ("int8", 1), 8: ("uint16", 2), 9: ("uint8", 1), 10: ("int32", 1),
                       11: ("int32", 1), 12: ("int32", 1), 13: ("uint16", 1), 15: ("int64", 1), 16: ("uint64", 2)},
    "state_value": {0: ("int64", 2), 1: ("int64", 1), 4: ("int64", 1), 6: ("int64", 1), 8: ("bool", 2),
                    10: ("int64", 1), 11: ("float64", 1), 12: ("int64", 1)},
    "draw_value": {0: ("int64", 2), 1: ("int64", 1), 3: ("int64", 1), 5: ("int64", 1), 7: ("bool", 2),
                   9: ("int64", 1), 10: ("float64", 1), 11: ("int64", 1)},
}

SPEC = aotcache.Spec(owner=__name__, kernels=f"{__package__}.kernel", source=__file__, prefix="golfsolve_solver_",
                     signatures=_signatures, arrays=_ARRAYS)


def load() -> Optional[aotcache.Kernels]:
    """The solver's ahead-of-time kernels, when a fresh build is in the cache."""
    return aotcache.load(SPEC)


def buildable() -> bool:
    """Can (and should) this process build them?"""
    return aotcache.buildable(SPEC)


def build(building: Optional[Callable[[], None]] = None,
          waiting: Optional[Callable[[], None]] = None) -> Optional[aotcache.Kernels]:
    """Build them now (seconds of CPU), or wait for the process building them; None when
    that fails (the JIT then serves). ``building`` and ``waiting``: see :func:`golfsolve.aotcache.build`."""
    return aotcache.build(SPEC, building, waiting)


def failure() -> Optional[str]:
    """Why the last build of these sources failed (None: none did)."""
    return aotcache.failure(SPEC)


__all__ = ["EXPORTS", "SPEC", "build", "buildable", "failure", "load"]
