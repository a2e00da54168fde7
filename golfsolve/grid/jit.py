"""The decorator for the grid's compiled kernels that take arrays but never create one.

Every grid kernel module imports this one, so their caches are keyed on every grid
source they use (:mod:`golfsolve.jitcache`), not only on their own file.

numba's runtime counts references to every array a compiled function receives: each call
between kernels that are not inlined increments and decrements every array argument, with
atomic instructions. The play-out kernels pass a dozen arrays down four levels of calls
every turn, and that bookkeeping was two thirds of a play-out's time. A kernel that never
allocates has nothing for the runtime to free, so it is compiled without it
(``_nrt=False``; allocating there is then a compile error, not a leak). The entry points
that allocate (``np.zeros``, copies) keep the ordinary ``njit``.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from numba import njit

from .. import jitcache  # noqa: F401  (kernels that call another module's kernels go stale with it: before any njit)


def kernel(fn: Optional[Callable] = None, **options: Any) -> Any:
    """``njit(cache=True)`` without reference counting; ``@kernel`` or ``@kernel(inline="always")``."""
    decorate = njit(cache=True, _nrt=False, **options)
    return decorate if fn is None else decorate(fn)
