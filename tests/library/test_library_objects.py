"""The library's objects as a notebook uses them: equal when they answer one question, pickled as their
settings, shared between threads."""

from __future__ import annotations

import pickle
import threading

import numpy as np
import pytest

from golfsolve.fair import play
from golfsolve.solitaire.layout import layout_from_code, layout_from_number
from golfsolve.solitaire.rules import CLASSIC
from golfsolve.solitaire.solver import Solver


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


def test_two_solves_or_games_of_one_question_are_equal_answers(solver):
    """was: Solution and FairGame compared their wall-clock seconds, so the same solve done
    twice, or the same fair game with the same seed, was unequal (OddsResult and FairHint
    already left the clock out)."""
    lay = layout_from_code("GO1-C-AAAAAAC")
    a, b = solver.solve(lay), Solver().solve(lay)
    assert a == b and hash(a) == hash(b) and pickle.loads(pickle.dumps(a)) == a
    g, h = play(lay, player="fast", seed=3, solver=solver), play(lay, player="fast", seed=3, solver=Solver())
    assert g == h and hash(g) == hash(h) and pickle.loads(pickle.dumps(g)) == g


def test_one_solver_shared_by_two_threads_gives_each_solve_its_own_answer():
    """was: two threads solving with one Solver wrote into each other's work tables and path,
    and answers came back with another deal's move line (about one in five, without a word)."""
    lays = [layout_from_number(n, CLASSIC, "C") for n in range(40)]
    ref = [Solver().solve(lay) for lay in lays]
    shared = Solver()
    wrong: list = []

    def work() -> None:
        for lay, want in zip(lays, ref):
            if shared.solve(lay) != want:
                wrong.append(lay.name)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong, wrong[:5]


def test_a_solver_pickles_as_its_settings():
    """was: pickling a Solver (a process pool's argument) wrote its 70 MB of scratch tables;
    now its settings, and the copy solves alike."""
    s = Solver(bounds=False, capacity=1000)
    data = pickle.dumps(s)
    copy = pickle.loads(data)
    assert len(data) < 1000 and (copy.bounds, copy.level_search) == (False, False)
    lay = layout_from_code("GO1-C-AAAAAAC")
    assert copy.solve(lay) == s.solve(lay)


def test_a_tournament_compares_equal_to_its_replay_and_its_pickle():
    """was: two Tournaments compared their tables with the dataclass's ==, which failed as "The
    truth value of a DataFrame is ambiguous": a replayed tournament, or one read back from a pickle,
    could not be checked against the first."""
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.tournament import simulate

    rules = parse_rules("danish", players=2, grid=4, holes=1)
    t = simulate(rules, ["random", "greedy"], 2, 5)
    assert t == simulate(rules, ["random", "greedy"], 2, 5) == pickle.loads(pickle.dumps(t))
    assert t != simulate(rules, ["random", "greedy"], 2, 6)


def test_solves_of_two_solvers_sharing_one_lost_states_take_turns(monkeypatch):
    """was: two ``Solver``s in two threads sharing one ``LostStates`` could both be inside it
    at once: one read the rows of one update and the values of another (arrays of two lengths
    for the compiled kernel) or wrote its rows over the other's. A solve now holds it."""
    import pickle

    from golfsolve.solitaire.layout import layout_from_number
    from golfsolve.solitaire.rules import get_rules
    from golfsolve.solitaire.solver import LostStates, Solver

    rules = get_rules("classic")
    lay = layout_from_number(3, rules, "C")
    lost = LostStates()
    inside, overlap = threading.Event(), []
    real = LostStates.check_family

    def slow_check(self, p, r):
        if threading.current_thread().name == "first":
            inside.set()
            # the second solve may enter now only if nothing keeps it out
            overlap.append(entered.wait(1.0))
        else:
            entered.set()
        return real(self, p, r)

    entered = threading.Event()
    monkeypatch.setattr(LostStates, "check_family", slow_check)
    answers = {}

    def solve(name):
        answers[name] = Solver().solve(lay, rules, verdict_only=True, lost=lost).outcome

    first = threading.Thread(target=solve, args=("first",), name="first")
    first.start()
    assert inside.wait(60)
    second = threading.Thread(target=solve, args=("second",), name="second")
    second.start()
    first.join(120)
    second.join(120)
    assert overlap == [False]  # the second waited for the first solve to end
    assert answers["first"] == answers["second"] == Solver().solve(lay, rules, verdict_only=True).outcome
    again = pickle.loads(pickle.dumps(lost))  # its lock is not pickled, a new one is made
    assert np.array_equal(again.rows, lost.rows) and again._busy is not lost._busy
