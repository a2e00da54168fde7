"""`odds`' fair chance: the product interval, when the games stop, and the command's answer."""

from __future__ import annotations

import json
import random

import pytest

from golfsolve.fair.odds import MIN_GAMES, WIDTH, WORK_BUDGET, play_until
from golfsolve.intervals import product_interval, wilson


def test_product_interval_at_its_edges():
    # an exact first factor scales the second one's Wilson interval
    est, lo, hi = product_interval(3, 4, 7, 20, exact1=True)
    _, wlo, whi = wilson(7, 20)
    assert (est, lo, hi) == pytest.approx((0.75 * 0.35, 0.75 * wlo, 0.75 * whi))
    # no fair win: from 0 to the first factor times the second's upper end
    est, lo, hi = product_interval(150, 200, 0, 12)
    assert est == lo == 0.0 and hi == pytest.approx(0.75 * wilson(0, 12)[2])
    # both factors uncertain: wider than either factor's interval alone, scaled by the other
    est, lo, hi = product_interval(150, 200, 6, 20)
    _, clo, chi = wilson(150, 200)
    _, wlo, whi = wilson(6, 20)
    assert lo < min(0.75 * wlo, clo * 0.3) and hi > max(0.75 * whi, chi * 0.3) and lo < est < hi
    # every sampled order won, every game won: the top is 1, the bottom below both factors' bottoms
    est, lo, hi = product_interval(200, 200, 20, 20)
    assert est == hi == 1.0 and lo < min(wilson(200, 200)[1], wilson(20, 20)[1])


def _naive(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    # the first factor taken as exact: what ignoring the clairvoyant chance's own error gives
    return product_interval(k1, n1, k2, n2, exact1=True)


def _coverage(pc: float, q: float, reps: int, rng: random.Random, interval=product_interval) -> float:
    """How often odds' rule (200 clairvoyant samples, games on winnable orders until the
    interval is at most WIDTH wide or the budget is spent) ends with ``interval`` holding pc * q."""
    hits = 0
    for _ in range(reps):
        wins = sum(rng.random() < pc for _ in range(200))
        if wins == 0:
            hits += 0.0 <= pc * q <= wilson(0, 200)[2]
            continue
        # each synthetic game costs 1/60 of the budget: the budget stops the hardest cases at 60 games
        games = ((rng.random() < q, WORK_BUDGET // 60) for _ in range(wins))
        fw, m, _, _ = play_until(games, wins, 200)
        _, lo, hi = interval(wins, 200, fw, m)
        hits += lo <= pc * q <= hi
    return hits / reps


def test_odds_interval_covers_by_simulation():
    """Synthetic Bernoulli orders with a known clairvoyant chance pc and win rate q on winnable
    orders, stopped by odds' own sequential rule: the interval holds pc * q about 95% of the
    time across the grid (Wilson's coverage oscillates a little around 95% at small n)."""
    rng = random.Random(19)
    grid = [(pc, q) for pc in (0.3, 0.75, 0.97) for q in (0.05, 0.3, 0.5, 0.8)]
    cover = {cell: _coverage(*cell, reps=300, rng=rng) for cell in grid}
    assert sum(cover.values()) / len(cover) >= 0.94, cover
    assert min(cover.values()) >= 0.90, cover
    # the check has power: taking the clairvoyant chance as exact (ignoring its sampling error)
    # undercovers where the win rate on winnable orders is high and pc is uncertain
    assert _coverage(0.5, 0.9, reps=300, rng=rng, interval=_naive) < 0.9


def test_play_until_stops_at_the_width_goal_or_the_budget():
    def width(k: int, m: int) -> float:
        _, lo, hi = product_interval(200, 200, k, m)
        return hi - lo

    # every game won, or every other one: narrow at the first game from MIN_GAMES on where it can be
    for won in (lambda i: True, lambda i: i % 2 == 0):
        fw, m, _, stopped = play_until(((won(i), 1) for i in range(1000)), 200, 200)
        assert stopped == "narrow" and m >= MIN_GAMES and width(fw, m) <= WIDTH
        assert fw == sum(won(i) for i in range(m))
        assert all(width(sum(won(i) for i in range(j)), j) > WIDTH for j in range(MIN_GAMES, m))
    # costly games: the budget stops them, even before MIN_GAMES, counting the work done before
    # the first game
    fw, m, work, stopped = play_until(((i % 2 == 0, WORK_BUDGET // 8) for i in range(1000)), 200, 200,
                                      work=WORK_BUDGET // 2)
    assert (m, stopped) == (4, "budget") and work == WORK_BUDGET
    # no stop rule: every game is counted
    assert play_until(((True, WORK_BUDGET) for _ in range(30)), 200, 200, stop=False)[1:] == (30, 30 * WORK_BUDGET,
                                                                                             "games")


def test_the_progress_bar_is_drawn_on_a_terminal_only_unless_told(capsys, monkeypatch):
    import sys

    from golfsolve.progress import progress_bar

    def drawn(show) -> bool:
        assert list(progress_bar(range(3), total=3, unit="deal", desc="deals", show=show)) == [0, 1, 2]
        return "deals: 100%" in capsys.readouterr().err

    assert (drawn(None), drawn(False), drawn(True)) == (False, False, True)  # stderr is captured: no terminal
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert (drawn(None), drawn(False), drawn(True)) == (True, False, True)


@pytest.mark.parametrize("flags, show", [([], None), (["--quiet"], False), (["--json"], False)])
def test_odds_draws_the_shared_progress_bar(run_cli, data_dir, monkeypatch, flags, show):
    import importlib

    odds_module = importlib.import_module("golfsolve.fair.odds")  # the package's name 'odds' is the function
    bars: list = []
    real = odds_module.progress_bar

    def spy(iterable, **kw):
        bars.append((kw["desc"], kw["show"]))
        return real(iterable, **kw)

    monkeypatch.setattr(odds_module, "progress_bar", spy)
    r = run_cli(["odds", "--layout", str(data_dir / "seed000_start.txt"), "--samples", "4", "--games", "2", *flags])
    assert r.exit_code == 0, r.stderr
    assert bars == [("solving samples", show), ("fair games", show)]
    assert "samples" not in r.stderr  # stderr is not a terminal here: no bar
