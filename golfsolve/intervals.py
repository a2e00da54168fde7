"""95% intervals used by every report: Wilson for proportions, Student's t for means, and a
product of two independent proportions."""

from __future__ import annotations

import functools
import math
import operator

import numpy as np

from .errors import InputError, shown
from .inputs import is_whole_number

Z95 = 1.959963984540054


def _check(k: float, n: int, z: float = Z95) -> int:
    """A count of ``n`` trials with ``k`` successes (a real number: a grid match's shared wins
    count in halves) from 0 to ``n``, and a positive ``z``; else one clear error, where the
    formulas would raise 'math domain error' (k above n) or answer for a bool or NaN."""
    if not is_whole_number(n) or n < 0:
        raise InputError(f"n is a number of trials, a whole number from 0, not {shown(n)}")
    if isinstance(k, bool) or not isinstance(k, (int, float, np.integer, np.floating)) or not 0 <= k <= n:
        raise InputError(f"k is a number of successes from 0 to n ({n}), not {k!r}")
    if isinstance(z, bool) or not isinstance(z, (int, float, np.integer, np.floating)) or not 0 < z < math.inf:
        raise InputError(f"z is a positive number (1.96 for 95%), not {z!r}")
    # a NumPy count as a Python int: 4 * n * n of an int64 above 1.5e9 trials (the census of every
    # GO1 deal has 8e9) wraps round, and 3 wins in 2**40 trials read as an interval of [0, 1]
    return operator.index(n)


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Proportion ``k / n`` and its Wilson score interval (95% by default); NaN for ``n = 0``."""
    n = _check(k, n, z)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At k = 0 or k = n one end is exactly 0 or 1; rounding must not move it.
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return p, lo, hi


@functools.lru_cache(maxsize=1024)
def t_quantile(df: int, z: float = Z95) -> float:
    """The Student t quantile of ``df`` degrees of freedom with the coverage that ``±z`` has
    under the normal (12.71 at one degree of freedom for 95%, 2.26 at nine, 1.98 at 99): the
    normal quantile alone makes a mean's interval from a few values far too narrow, a "95%"
    interval from two values holding the mean about 70% of the time. SciPy's, imported here
    only: the solver's processes never load SciPy."""
    from scipy.stats import norm, t

    return float(t.ppf(norm.cdf(z), df))


def mean_ci(x: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): the Student t 95% interval (:func:`t_quantile` at ``len(x) - 1``
    degrees of freedom) for the mean of independent values; no interval (NaN ends) from one
    value, nor from values that are all the same (:func:`no_spread`)."""
    x = np.asarray(x, dtype=float)
    m = float(x.mean()) if len(x) else float("nan")
    if len(x) < 2 or no_spread(x):
        return m, float("nan"), float("nan")
    half = t_quantile(len(x) - 1, z) * float(x.std(ddof=1)) / math.sqrt(len(x))
    return m, m - half, m + half


def no_spread(x: np.ndarray) -> bool:
    """True when two or more values are all equal. Their sample spread is zero, so a t
    interval would have no width: two bots that played to the same strokes in every match
    would be shown as differing by exactly 0, "known" to the last decimal, and a constant
    difference of one stroke as certain. The data say nothing about the spread, so no
    interval is drawn from them (the mean is still reported)."""
    x = np.asarray(x, dtype=float)
    return len(x) >= 2 and bool(np.all(x == x[0]))


def product_interval(k1: int, n1: int, k2: int, n2: int, exact1: bool = False,
                     z: float = Z95) -> tuple[float, float, float]:
    """``(k1/n1) * (k2/n2)`` and a 95% interval for the product of two independent proportions.

    Each factor gets its Wilson interval (``exact1``: the first factor is exact, a share of
    every case rather than of a sample); the two are combined by MOVER (Zou and Donner's
    method of variance estimates recovery: each side's distance from the estimate is the
    root of the sum of the squared distances each factor's own interval implies, scaled by
    the other factor). Where a factor's interval is lopsided, so is the product's. Where a
    factor is 0 the interval is ``[0, high1 * high2]``: MOVER scales each factor's error by
    the other's estimate, so a 0 would drop the other factor's error altogether (with 2 of
    200 orders winnable and none of their 2 games won, the top would be 1% of 0.66 where the
    clairvoyant chance alone may be 3.6%). The second factor needs ``n2 >= 1``.
    """
    _check(k1, n1, z)
    _check(k2, n2, z)
    if n1 < 1 or n2 < 1:
        raise InputError(f"a product interval needs at least one trial of each factor, not n1 {n1} and n2 {n2}")
    p1, lo1, hi1 = (k1 / n1, k1 / n1, k1 / n1) if exact1 else wilson(k1, n1, z)
    p2, lo2, hi2 = wilson(k2, n2, z)
    est = p1 * p2
    if est == 0.0:
        return 0.0, 0.0, hi1 * hi2
    lo = est - math.hypot(p1 * (p2 - lo2), p2 * (p1 - lo1))
    hi = est + math.hypot(p1 * (hi2 - p2), p2 * (hi1 - p1))
    return est, max(0.0, lo), min(1.0, hi)
