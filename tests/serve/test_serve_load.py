"""A small run of the load test: the real ``golfsolve serve`` on loopback, 16 concurrent
clients sending good and bad requests (and runaway ones the CPU budget stops).

The server must answer every request with the status its kind expects, stay up, keep
exactly its workers (none leaked, none missing after the runaways) and keep its memory
flat from one round to the next. ``python benchmarks/load_serve.py`` runs it bigger.
"""

from __future__ import annotations

import sys

import pytest
from hostile_helpers import ROOT

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
