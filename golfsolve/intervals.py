"""95% intervals used by every report: Wilson for proportions, normal for means."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Proportion ``k / n`` and its Wilson score interval (95% by default)."""
    if n <= 0:
        return float("nan"), float("nan"), float("nan")
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At k = 0 or k = n one end is exactly 0 or 1; rounding must not move it.
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return p, lo, hi


def mean_ci(x: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): a normal 95% interval for the mean of independent values."""
    x = np.asarray(x, dtype=float)
    m = float(x.mean()) if len(x) else float("nan")
    if len(x) < 2:
        return m, float("nan"), float("nan")
    half = z * float(x.std(ddof=1)) / math.sqrt(len(x))
    return m, m - half, m + half
