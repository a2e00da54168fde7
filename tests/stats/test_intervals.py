"""The intervals every report draws from (golfsolve.intervals): Wilson at the edges and its coverage,
Student t of values that never vary, counts that are no counts."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

from golfsolve.errors import InputError
from golfsolve.intervals import mean_ci, wilson


def test_a_mean_of_values_that_never_vary_has_no_interval():
    """mean_ci([3, 3, 3, 3]) answered (3.0, 3.0, 3.0): a Student t "95% interval" of no width,
    claiming the mean is known exactly from four values, because their sample spread is 0.
    Every report that takes a mean over matches or deals (grid paired differences, the study's
    measures, fair-stats comparisons) drew that certainty from data that only happened not
    to vary. Now there is no interval (NaN ends), as for a single value; the mean stays."""
    from golfsolve.intervals import no_spread

    m, lo, hi = mean_ci(np.array([3, 3, 3, 3]))
    assert m == 3.0 and math.isnan(lo) and math.isnan(hi)
    assert no_spread([0.0, 0.0]) and not no_spread([0.0, 1.0]) and not no_spread([5.0])
    m, lo, hi = mean_ci(np.array([3, 3, 3, 4]))  # any spread: the t interval, as before
    assert lo < m < hi


def test_two_fair_players_that_won_the_same_deals_get_no_zero_width_difference(tmp_path, run_cli):
    """compare_fair_runs on two fair-stats runs whose players won and lost the same deals (here
    one run against itself) gave the difference of their win rates as 0 with ci95 [0.0, 0.0]:
    a difference known to be exactly nothing, from two deals. Now ci95 has no ends (None
    in JSON terms, NaN here): the deals give no spread to draw an interval from."""
    from golfsolve.stats.fairstats import compare_fair_runs

    out = tmp_path / "s"
    r = run_cli(["fair-stats", "--start-number", "3", "--count", "2", "--rules", "easy", "--player", "fast",
                 "--workers", "1", "--chunk-size", "1", "--out", str(out), "-q"])
    assert r.exit_code == 0, r.stderr
    (c,) = compare_fair_runs(out, out)
    assert c["difference"] == 0 and c["deals"] == 2
    assert all(math.isnan(v) for v in c["ci95"]), c


def test_wilson_at_the_edges_and_its_coverage_on_a_small_sample():
    """The edges a report meets (0 of n, n of n, n = 1, n = 0) and, by simulation, that the
    Wilson interval at n = 20, p = 0.1 holds p about as often as it claims (an interval that
    collapsed at 0 of n, as the normal one does, would cover p = 0.1 at n = 20 only ~88%)."""
    assert wilson(0, 1)[1] == 0.0 and wilson(1, 1)[2] == 1.0
    z = NormalDist().inv_cdf(0.975)
    assert wilson(0, 20)[1:] == pytest.approx((0.0, z * z / (20 + z * z)), abs=1e-9)  # 0 of n: [0, z²/(n + z²)]
    assert all(math.isnan(v) for v in wilson(0, 0))
    rng = np.random.default_rng(15)
    n, p = 20, 0.1
    ks = rng.binomial(n, p, 4000)
    table = {k: wilson(int(k), n)[1:] for k in np.unique(ks)}
    covered = np.mean([table[k][0] <= p <= table[k][1] for k in ks])
    assert 0.93 <= covered <= 0.99, covered


def test_an_interval_of_a_numpy_count_is_that_of_the_same_python_count():
    """was: wilson(3, np.int64(2**40)) computed 4 * n * n in 64-bit integers, which wrapped round:
    an interval of [0, 1] for 3 successes in 2**40 trials, where the same count as a Python int
    gives [9.3e-13, 8.0e-12] (a run's counts come out of pandas as NumPy integers)."""
    from golfsolve.intervals import product_interval, wilson

    for n in (2**40, 2**62, 8_031_810_176):
        assert wilson(3, np.int64(n)) == wilson(3, n)
        assert product_interval(3, np.int64(n), 1, np.int64(4)) == product_interval(3, n, 1, 4)
    assert wilson(3, np.uint64(2**63))[2] < 1e-17


@pytest.mark.parametrize("call, words", [
    (lambda I: I.wilson(5, 3), r"k is a number of successes from 0 to n \(3\), not 5"),
    (lambda I: I.wilson(-1, 5), "not -1"),
    (lambda I: I.wilson(float("nan"), 3), "not nan"),
    (lambda I: I.wilson(True, 3), "not True"),
    (lambda I: I.wilson(1, 3.0), "n is a number of trials, a whole number from 0, not 3.0"),
    (lambda I: I.wilson(1, 3, 0), "z is a positive number"),
    (lambda I: I.product_interval(5, 3, 1, 1), "not 5"),
    (lambda I: I.product_interval(0, 0, 0, 0), "at least one trial of each factor"),
])
def test_the_intervals_refuse_counts_that_are_none(call, words):
    """was: wilson(5, 3) and product_interval(5, 3, 1, 1) raised 'math domain error', and
    wilson(nan, 3) answered (nan, 0.0, 1.0), wilson(True, 3) a third; product_interval(0, 0,
    0, 0) answered (nan, 0.0, 1.0)"""
    import golfsolve.intervals as intervals

    with pytest.raises(InputError, match=words):
        call(intervals)
    assert intervals.wilson(1.5, 3)[0] == 0.5  # a grid match's shared wins count in halves
    assert all(x != x for x in intervals.wilson(0, 0))  # no trials: no proportion, as before
