"""The grid's kernels are compiled once, up front, and the notice hears of it first.

A first grid command used to compile for a minute of CPU without a word, and a run's
worker processes each compiled the same kernels. :func:`golfsolve.grid.compiling.warm`
plays a short hole per bot in the parent with a listener on numba's compile event.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from golfsolve import compilenotice
from golfsolve.grid import compiling, tournament
from golfsolve.grid.rules import GridRules


class Recorder(compilenotice.Notice):
    def __init__(self) -> None:
        self.events: list[tuple] = []

    def start(self, kernels, seconds, what=compilenotice.SOLVER) -> None:
        self.events.append(("start", tuple(kernels), what))

    def done(self, seconds) -> None:
        self.events.append(("done", seconds))


@pytest.fixture
def recorder(monkeypatch):
    rec = Recorder()
    compilenotice.set_notice(rec)
    monkeypatch.setattr(compiling, "_warm", set())
    yield rec
    compilenotice.set_notice(None)


def test_a_kernel_compiled_during_the_warm_up_is_told_once_before_it_compiles(recorder, monkeypatch):
    played = []

    @njit  # not cached: this process compiles it at its first call, as a fresh install would
    def fresh_kernel(a):
        return a.sum() + 1

    def simulate(rules, bots, matches, seed, samples=None):
        # the notice must have heard before numba started compiling
        played.append((rules.players, rules.holes, tuple(bots), [e[0] for e in recorder.events]))
        fresh_kernel(np.arange(3))

    monkeypatch.setattr(tournament, "simulate", simulate)
    spent = compiling.warm(GridRules(players=4), ["heuristic", "ismcts:50", "heuristic"])
    # one two-player hole per distinct bot, each against itself, a bot with a count at its least
    assert [p[:3] for p in played] == [(2, 1, ("heuristic", "heuristic")), (2, 1, ("ismcts:1", "ismcts:1"))]
    assert played[0][3] == []
    starts = [e for e in recorder.events if e[0] == "start"]
    assert starts == [("start", ("grid",), compiling.WHAT)]
    assert recorder.events[-1][0] == "done" and spent > 0
    # the same bots again: nothing played, nothing told
    assert compiling.warm(GridRules(), ["heuristic"]) == 0.0
    assert len(played) == 2 and len(recorder.events) == 2


def test_nothing_is_told_when_every_kernel_is_ready(recorder, monkeypatch):
    @njit
    def ready_kernel(a):
        return a.sum()

    ready_kernel(np.arange(3))  # compiled before the warm-up, as a warm cache would give it
    monkeypatch.setattr(tournament, "simulate", lambda rules, bots, matches, seed, samples=None: ready_kernel(np.arange(3)))
    assert compiling.warm(GridRules(), ["heuristic"]) == 0.0
    assert recorder.events == []


def test_a_run_folder_warms_its_bots_in_the_parent_before_its_matches(monkeypatch, tmp_path):
    from golfsolve.grid import compiling
    from golfsolve.stats.gridruns import GRID, GridSpec, run_grid_simulate

    calls = []
    monkeypatch.setattr(compiling, "warm", lambda rules, bots, samples=None: calls.append((rules, tuple(bots), samples)))
    spec = GRID.complete({"rules": GridRules(players=2, holes=1), "bots": ("greedy", "random"), "matches": 2,
                          "seed": 3, "samples": None, "chunk_size": None}, jobs=1)
    assert isinstance(spec, GridSpec)
    run_grid_simulate(tmp_path / "run", spec, jobs=1, command="test", progress=False)
    assert calls == [(spec.rules, ("greedy", "random"), None)]
    # a resumed finished run plays nothing and compiles nothing
    run_grid_simulate(tmp_path / "run", spec, resume=True, jobs=1, command="test", progress=False)
    assert len(calls) == 1
