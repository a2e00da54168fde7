"""Hostile-user sweep, round 14: ``golfsolve serve`` from outside (HTTP requests, slow and
oversized ones, a trailing slash, Ctrl-C with requests in flight). Each test is a flaw a user
met; fast: no test solves more than a few deals."""

from __future__ import annotations

import json
import signal
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx")

ROOT = Path(__file__).resolve().parents[1]

from hostile_helpers import exchange as _exchange  # noqa: E402
from hostile_helpers import status_and_json as _status_and_json  # noqa: E402
from hostile_helpers import uvicorn_thread as _uvicorn  # noqa: E402


# ---------------------------------------------------------------------------
# paths
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_an_endpoint_with_a_slash_at_the_end_is_a_json_404_naming_the_endpoint(client, method):
    """curl -d '{"code": ...}' http://127.0.0.1:8000/api/solve/ printed nothing and exited 0:
    the server answered a 307 redirect with an empty body (to a URL built from the Host header
    the client sent), not an answer and not an error."""
    kwargs = {"json": {"code": "GO1-E-AAAAAAB"}} if method == "POST" else {"params": {"code": "GO1-E-AAAAAAB"}}
    r = client.request(method, "/api/solve/", headers={"host": "elsewhere.example"}, follow_redirects=False, **kwargs)
    assert r.status_code == 404 and "location" not in r.headers
    assert r.json() == {"error": "no such page or endpoint: '/api/solve/'; it is /api/solve, without the '/' at the end"}
    assert client.get("/api/health/").json()["error"].endswith("it is /api/health, without the '/' at the end")
    assert client.get("/api/nothing/").json() == {"error": "no such page or endpoint: '/api/nothing/'"}


# ---------------------------------------------------------------------------
# slow and oversized requests
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def guarded():
    """The server's app behind uvicorn with the protocol ``golfsolve serve`` uses, its deadline
    for a request to arrive cut to a second; yields the port."""
    from golfsolve.serve.app import create_app
    from golfsolve.serve.guard import guarded_protocol

    with _uvicorn(create_app(workers=1, warm=False), http=guarded_protocol(seconds=1.0)) as (_, port):
        yield port


@pytest.mark.parametrize("half", [
    b"",  # connected, and nothing sent
    b"GET /api/deal?code=GO1-E-AAAAAAB HTTP/1.1\r\nHost: x\r\n",  # the head, not its end
    b'POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{"code": "GO1',  # the head, half the body
], ids=["nothing", "half-a-head", "half-a-body"])
def test_a_client_that_sends_half_a_request_and_waits_is_answered_408_and_let_go(guarded, half):
    """A client that sent half a request (or nothing) and waited kept its connection, and
    mid-body a request handler, for ever: the server never timed it out, so a few thousand
    such clients used up its connections."""
    status, answer = _status_and_json(_exchange(guarded, half))
    assert status == 408 and answer == {"error": "the request did not arrive whole within 1 s; send it all at once"}


def test_the_deadline_is_for_the_request_to_arrive_not_for_its_answer(guarded):
    """(With the deadline above.) A request whose answer takes longer than the deadline, and
    two requests on one connection, the second sent after the first one's deadline would
    have passed, are answered as ever."""
    with socket.create_connection(("127.0.0.1", guarded), timeout=60) as s:
        for _ in range(2):
            s.sendall(b'POST /api/odds HTTP/1.1\r\nHost: x\r\nContent-Length: 51\r\n\r\n'
                      b'{"code": "GO1-E-AAAAAAB", "samples": 3, "games": 1}')
            head = b""
            while b"\r\n\r\n" not in head:
                head += s.recv(1)
            length = int(next(h.split(b":")[1] for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")))
            body = b""
            while len(body) < length:
                body += s.recv(length - len(body))
            assert head.startswith(b"HTTP/1.1 200 ") and json.loads(body)["clairvoyant"]["samples"] == 3
            time.sleep(1.2)  # past the first request's deadline, within uvicorn's keep-alive


@pytest.mark.parametrize("request_bytes", [
    b"GET /api/deal?code=GO1-E-AAAAAAB HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"a" * 100_000 + b"\r\n\r\n",
    b"GET /api/deal?code=GO1-E-AAAAAAB HTTP/1.1\r\nHost: x\r\n" + b"X-A: 1\r\n" * 20_000 + b"\r\n",
    # was: uvicorn's plain-text 400 "Invalid HTTP request received."
    b"GET /api/deal?layout=" + b"A" * 70_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
], ids=["a-long-header", "many-headers", "a-long-url"])
def test_a_request_head_over_64_kb_is_a_json_431(guarded, request_bytes):
    """Header lines without end were all kept: 90 MB of headers on one connection grew the
    server by 90 MB, and a few such clients would have filled its memory."""
    status, answer = _status_and_json(_exchange(guarded, request_bytes))
    assert status == 431 and "larger than 64 KB" in answer["error"]


# ---------------------------------------------------------------------------
# the command: Ctrl-C with requests in flight
# ---------------------------------------------------------------------------
def test_ctrl_c_with_requests_in_flight_answers_them_and_stops_quietly():
    """Ctrl-C while one request ran in the only worker and another waited for it: after
    uvicorn's 5 s graceful wait the waiting one got a plain-text "Internal Server Error" (500)
    and the terminal a traceback (CancelledError); and since a worker stopped mid-job (as one
    stopped for its CPU budget is) leaves tqdm's semaphore behind, the terminal's last words
    were "resource_tracker: There appear to be 1 leaked semaphore objects". The command's own
    protocol (the head ceiling above) is checked on the way."""
    import re
    import subprocess

    import httpx

    from golfsolve.serve.pool import STOPPING

    proc = subprocess.Popen([sys.executable, "-m", "golfsolve", "serve", "--port", "0", "--jobs", "1"],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        said = []
        while not (m := re.search(r"ready on (http://[^/\s]+)/", said[-1] if said else "")):
            line = proc.stderr.readline()
            assert line, "".join(said)
            said.append(line)
        url = m.group(1)
        log: list[str] = []
        reader = threading.Thread(target=lambda: log.extend(proc.stderr))  # until every writer has gone
        reader.start()
        status, answer = _status_and_json(_exchange(int(url.rsplit(":", 1)[1]), b"GET /api/health HTTP/1.1\r\n"
                                                     b"Host: x\r\nX-Padding: " + b"a" * 100_000 + b"\r\n\r\n"))
        assert status == 431 and "larger than 64 KB" in answer["error"]

        answers = []

        def ask():
            r = httpx.post(f"{url}/api/odds", json={"code": "GO1-E-AAAAAAB", "games": 5000}, timeout=120)
            answers.append((r.status_code, r.text))

        askers = [threading.Thread(target=ask) for _ in range(2)]
        for a in askers:
            a.start()
        while httpx.get(f"{url}/api/health").json()["busy"] == 0:
            time.sleep(0.05)
        time.sleep(0.3)  # the second request waits for the worker
        proc.send_signal(signal.SIGINT)
        code = proc.wait(60)
        for a in askers:
            a.join(60)
        reader.join(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    stopped = json.dumps({"error": STOPPING}, separators=(",", ":"))
    assert len(answers) == 2 and all(s == 200 or (s, text) == (503, stopped) for s, text in answers), answers
    assert any(s == 503 for s, _ in answers)
    # Ctrl-C's one line, as every command says it (none when the server was started with SIGINT ignored)
    assert (code, log) in ((130, ["golfsolve: interrupted\n"]), (0, [])), (code, log)


def test_a_request_the_server_cancels_as_it_stops_is_a_json_503():
    """The app under a plain uvicorn (as a library user runs it): a search still running when
    uvicorn's graceful wait ran out was cancelled, and its client got uvicorn's plain-text
    "Internal Server Error" (500), its terminal a traceback."""
    import httpx

    from golfsolve.serve.app import create_app
    from golfsolve.serve.pool import STOPPING

    with _uvicorn(create_app(workers=1, warm=False), timeout_graceful_shutdown=0.2) as (server, port):
        answers = []
        asker = threading.Thread(target=lambda: answers.append(httpx.post(
            f"http://127.0.0.1:{port}/api/odds", json={"code": "GO1-E-AAAAAAB", "games": 5000}, timeout=120)))
        asker.start()
        while httpx.get(f"http://127.0.0.1:{port}/api/health").json()["busy"] == 0:
            time.sleep(0.05)
        server.should_exit = True
        asker.join(60)
    (r,) = answers
    assert r.status_code == 503 and r.json() == {"error": STOPPING}


def test_a_request_cancelled_while_it_waits_for_a_worker_leaves_the_worker_in_the_pool():
    """(The stop above lets a request wait for a worker and for a stop at once.) A caller
    cancelled while it waited must not leave a task behind that takes the next free worker
    out of the pool for nobody: the pool would shrink by one worker each time."""
    import asyncio

    from golfsolve.serve.pool import WorkerPool

    async def scenario():
        pool = WorkerPool(1, warm=False)
        await pool.start()
        try:
            w = await pool._idle.get()  # the only worker is busy
            waiter = asyncio.ensure_future(pool.run("solve", layout=None))
            await asyncio.sleep(0.05)
            waiter.cancel()
            await asyncio.gather(waiter, return_exceptions=True)
            pool._idle.put_nowait(w)  # the worker comes back ...
            await asyncio.sleep(0.05)
            return pool._idle.qsize()  # ... and stays for the next request
        finally:
            await pool.close()

    assert asyncio.run(scenario()) == 1
