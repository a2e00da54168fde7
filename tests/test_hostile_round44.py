"""Round 44: things happening at the same time.

The web server under parallel clients, the library from several threads, and two commands
on one run folder. Each test is a flaw found and fixed ("was: ..."), or the strongest check
of a part that held, kept where a lock or an isolation removed would make it fail.
Interleavings are forced with events and barriers, never with timings.
"""

from __future__ import annotations

import fcntl
import threading

import numpy as np

import pytest

from golfsolve.errors import InputError
from golfsolve.stats.runfolder import RunKey, open_run
from test_serve_api import _no_timings


# -- two commands on one run folder ---------------------------------------------------------
def test_a_refused_command_removing_the_lock_file_lets_no_two_commands_write_one_folder(tmp_path, monkeypatch):
    """was: a command refused on a folder that holds no run (``--resume`` on an empty one)
    removes the lock file it made; a command that had opened that file just before took its
    lock on the removed file, and a third one then locked the new file and wrote the same
    folder at the same time as the second (two writers of one run)."""
    out = tmp_path / "run"
    out.mkdir()
    key = RunKey("golfsolve-stats/1", 0, 4, ("easy",), 2)
    real_flock = fcntl.flock
    opened, go = threading.Event(), threading.Event()

    def flock_after_the_refusal(fd, op):
        # the second command: its lock file is open, its flock waits for the refusal to happen
        if threading.current_thread().name == "second" and not go.is_set():
            opened.set()
            assert go.wait(60)
        return real_flock(fd, op)

    monkeypatch.setattr(fcntl, "flock", flock_after_the_refusal)
    second = {}

    def start_second():
        try:
            second["folder"] = open_run(out, key)
        except InputError as e:
            second["folder"] = e

    t = threading.Thread(target=start_second, name="second")
    t.start()
    try:
        assert opened.wait(60)
        with pytest.raises(InputError, match="no golfsolve run to resume"):
            open_run(out, key, resume=True)  # the first: refused, its lock file removed
    finally:
        go.set()
        t.join(60)
    folder = second["folder"]
    assert not isinstance(folder, Exception), folder
    try:
        with pytest.raises(InputError, match="being written by another golfsolve command"):
            open_run(out, key, resume=True).close()  # the third, while the second writes
    finally:
        folder.close()
    open_run(out, key, resume=True).close()  # and once the second is done, it may


# -- the web server under parallel clients ------------------------------------------------
def test_parallel_clients_some_leaving_get_their_own_answers_and_the_pool_goes_back_to_idle():
    """Held (kept as the strongest check; without the pool's shield of a begun job it fails):
    40 requests in flight on two workers, solve, hint (peeking and fair), odds, rate, deal
    and play on two deals, the first four clients and every third leaving before their
    answers. Each answer equals the one the same request got alone (none carries another
    request's data; a worker's solver, reused by every job, leaks nothing from one into the
    next), and afterwards every worker is back in the pool, nobody counted as waiting or
    running, and the server has no thread it did not have before."""
    pytest.importorskip("uvicorn")
    httpx = pytest.importorskip("httpx")
    import asyncio

    from hostile_helpers import uvicorn_thread
    from run_helpers import wait_for

    from golfsolve.serve.app import create_app

    asks = []
    for code in ("GO1-E-AAAAAAB", "GO1-C-AAAAAAD"):
        asks += [("deal", {"code": code}), ("solve", {"code": code}), ("solve", {"code": code, "node_limit": "3"}),
                 ("hint", {"code": code, "moves": "d"}), ("hint", {"code": code, "fair": "true", "player": "fast"}),
                 ("odds", {"code": code, "samples": "6", "games": "1", "seed": "2"}),
                 ("rate", {"code": code, "games": "1"}), ("play", {"code": code, "action": "d"})]
    app = create_app(workers=2)
    with uvicorn_thread(app) as (_server, port):
        base = f"http://127.0.0.1:{port}"
        pool = app.state.pool
        with httpx.Client(base_url=base, timeout=120) as c:
            alone = []
            for endpoint, params in asks:
                r = c.get(f"/api/{endpoint}", params=params)
                alone.append((r.status_code, _no_timings(r.json())))
        assert all(status == 200 for status, _ in alone), alone
        threads = {t.ident for t in threading.enumerate()}

        async def together():
            async with httpx.AsyncClient(base_url=base, timeout=120, limits=httpx.Limits(max_connections=64)) as ac:
                async def ask(i):
                    endpoint, params = asks[i]
                    r = await ac.get(f"/api/{endpoint}", params=params)
                    return r.status_code, _no_timings(r.json())

                # the slow ones first: the clients that leave first are likely those a worker has begun
                order = sorted([i for _ in range(3) for i in range(len(asks))][:40],
                               key=lambda i: asks[i][0] not in ("odds", "rate"))
                tasks = [asyncio.ensure_future(ask(i)) for i in order]
                for _ in range(2400):  # until the workers are busy and requests wait for them
                    if pool.busy == 2 and pool._waiting >= 4:
                        break
                    await asyncio.sleep(0.005)
                for t in tasks[:4] + tasks[::3]:
                    t.cancel()
                got = await asyncio.gather(*tasks, return_exceptions=True)
                return [(i, g) for i, g in zip(order, got) if not isinstance(g, asyncio.CancelledError)]

        answered = asyncio.run(together())
        assert len(answered) >= 24
        for i, got in answered:
            assert got == alone[i], asks[i]
        wait_for(lambda: pool._idle.qsize() == 2 and pool.busy == 0 and pool._waiting == 0, "the pool to be idle", timeout=60)
        assert pool.replaced == 0 and len(pool.pids) == 2
        assert {t.ident for t in threading.enumerate()} <= threads


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
