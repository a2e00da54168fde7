"""CPU time of one call of the search's lower bound (``bounds.packed_raw_bound``), per rule set.

    python benchmarks/bench_bound.py
    PYTHONPATH=/tmp/golfsolve-before python /path/to/this/bench_bound.py   # another version's bound

The calls form a chain: which counts the next call reads depends on the last result, as in
the search, where a state waits for its bound before it goes on, so what is timed is the
program's latency rather than its throughput. The counts are random but possible ones (at
most four cards of a rank between table, stock and top), the same for every rule set and
every version (seeded), so the printed checksum must be equal wherever the bound is.
"""

from __future__ import annotations

import time

import numba as nb
import numpy as np

from golfsolve.solitaire import bounds
from golfsolve.solitaire.rules import get_rules

N = 1 << 18  # a power of two, so that the chain's index is a mask
REPEATS = 10


def random_counts(seed: int = 1) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    table = rng.integers(0, 4, (N, 13))
    stock = np.minimum(rng.integers(0, 2, (N, 13)), 4 - table)
    tops = rng.integers(-1, 13, N)
    room = np.take_along_axis(table + stock, np.maximum(tops, 0)[:, None], 1)[:, 0]
    tops[room >= 4] = -1  # the top is the fourth card of its rank at most
    shifts = np.int64(4) * np.arange(13)
    tp = (table.astype(np.int64) << shifts).sum(1)
    sp = (stock.astype(np.int64) << shifts).sum(1)
    return tp, sp, tops.astype(np.int64), rng.integers(5, 30, N)


@nb.njit
def chain(tp, sp, tops, left, lo, hi, repeats):
    acc = 0
    for _ in range(repeats):
        for i in range(tp.shape[0]):
            j = (i + (acc & 1)) & (tp.shape[0] - 1)
            acc += bounds.packed_raw_bound(tp[j], sp[j], tops[j], left[j], lo, hi)
    return acc


def main() -> None:
    counts = random_counts()
    print("| rules | ns per call | checksum |")
    print("|---|---:|---:|")
    for name in ("easy", "classic", "strict"):
        lo, hi = bounds.link_masks(bounds.rank_links(get_rules(name).fits_table()))
        chain(*counts, lo, hi, 1)  # compile
        t = time.process_time()
        checksum = chain(*counts, lo, hi, REPEATS)
        ns = (time.process_time() - t) / (REPEATS * N) * 1e9
        print(f"| {name} | {ns:.1f} | {checksum} |")


if __name__ == "__main__":
    main()
