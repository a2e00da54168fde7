"""A small run of the load test: the real ``golfsolve serve`` on loopback, 16 concurrent
clients sending good and bad requests (and runaway ones the CPU budget stops).

The server must answer every request with the status its kind expects, stay up, keep
exactly its workers (none leaked, none missing after the runaways) and keep its memory
flat from one round to the next. ``python benchmarks/load_serve.py`` runs it bigger.
"""

from __future__ import annotations

import sys
import threading

import pytest
from hostile_helpers import ROOT
from test_serve_api import _no_timings

pytest.importorskip("uvicorn")
pytest.importorskip("httpx")

sys.path.insert(0, str(ROOT / "benchmarks"))
from load_serve import load_test  # noqa: E402


def test_sixteen_clients_mixed_requests_no_crash_no_leaked_worker_memory_flat():
    rep = load_test(clients=16, requests=8, workers=2, cpu_budget=1.0, rounds=2)
    first, last = rep["rounds"][0], rep["rounds"][-1]
    for r in rep["rounds"]:
        assert r["requests"] == 16 * 8 and not r["unexpected"], r["unexpected"][:5]
        assert {200, 400, 413} <= set(r["statuses"])  # good and bad requests were both made
    assert rep["alive"] and rep["health"]["ok"]
    assert len(rep["worker_pids"]) == 2 and sorted(rep["health"]["workers"]) == rep["worker_pids"]
    # flat: a second round of the same load does not grow the memory of the first by more than a tenth
    assert last["rss_mb"] <= first["rss_mb"] * 1.10 + 20, (first["rss_mb"], last["rss_mb"])


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
