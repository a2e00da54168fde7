"""Every human-readable output writes a 95% interval one way: ``value [lo, hi]``, the bounds
in the value's unit (golfsolve.text.estimate and interval)."""

from __future__ import annotations

import re

import pytest

from golfsolve.text import estimate, interval

#: Any other way an interval was written: "7%-24%", "(14-56%", "(60.7–73.6)", "[7%, 24%]".
OTHER_NOTATIONS = re.compile(r"\d%?-\d+(\.\d+)?%|\(\d+(\.\d+)?%?[-–]\d|\[[-+]?\d+(\.\d+)?%, ")


def test_a_value_and_its_interval():
    assert estimate(0.675, 0.607, 0.736, ".1f", percent=True) == "67.5% [60.7, 73.6]"
    assert estimate(0.25, -0.1, 0.6, "+.2f") == "+0.25 [-0.10, +0.60]"
    assert estimate(0.3125, 0.14, 0.56, ".0f", percent=True, value_fmt="5.1f") == " 31.2% [14, 56]"
    assert interval(0, 0.12, ".0f", 100) == "[0, 12]"


def test_an_interval_with_a_width_never_reads_as_none():
    """was: "[15, 15]" for a rating on 30,000 games, as an exact share's "interval" reads"""
    from golfsolve.intervals import wilson

    _, lo, hi = wilson(4500, 30000)
    assert interval(lo, hi, ".0f", 100) == "[14.6, 15.4]"
    assert interval(0.15, 0.15, ".0f", 100) == "[15, 15]"  # an exact share keeps its one number
    assert interval(0.2501, 0.2502, "+.2f") == "[+0.2501, +0.2502]"
    assert interval(0.3, 0.3 + 1e-12, ".1f") == "[0.300000, 0.300000]"  # six decimals at most


@pytest.mark.parametrize("args", [["odds", "GO1-C-AAAAAAB", "--samples", "20", "--games", "4"],
                                  ["hint", "GO1-E-AAAAAAB", "--fair", "--player", "fast", "--all"],
                                  ["rate", "GO1-E-AAAAAAB", "--games", "8"],
                                  ["grid", "simulate", "--bots", "heuristic,random", "--holes", "1", "--matches", "4",
                                   "-q"]])
def test_every_command_writes_intervals_one_way(run_cli, args):
    r = run_cli(args)
    assert r.exit_code == 0, r.stderr
    assert re.search(r"\d%? \[[-+]?\d+(\.\d+)?, [-+]?\d+(\.\d+)?\]", r.stdout), r.stdout
    assert not OTHER_NOTATIONS.search(r.stdout), r.stdout
