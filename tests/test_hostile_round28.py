"""Hostile-user sweep, round 28: ``golfsolve serve`` as a hostile or careless HTTP client uses
it (raw sockets: malformed requests, pipelining without reading the answers, leaving mid-answer).
Each test is a flaw a client met; fast: no test solves a deal."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx")

from hostile_helpers import exchange, status_and_json, uvicorn_thread  # noqa: E402
from run_helpers import wait_for  # noqa: E402


@pytest.fixture(scope="module")
def served():
    """The server's app behind uvicorn with the protocol ``golfsolve serve`` uses; yields
    the uvicorn server (its connections are looked at) and the port."""
    from golfsolve.serve.app import create_app

    with uvicorn_thread(create_app(workers=1, warm=False), http=_guarded()) as (server, port):
        yield server, port


def _protocols(server) -> list:
    for _ in range(100):  # the server's thread may change the set while it is copied
        try:
            return list(server.server_state.connections)
        except RuntimeError:
            continue
    return []


@pytest.mark.parametrize("request_bytes", [
    b"POST /api/deal HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n{}",
    b"POST /api/deal HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}",
    b"POST /api/deal HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
    b"GET /api/deal?code=GO1-E-AAAAAAB HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n",
    b"BREW /api/deal HTTP/1.1\r\nHost: x\r\n\r\n",
], ids=["negative-length", "length-and-chunked", "bad-chunk", "nul-in-a-header", "unknown-method"])
def test_a_malformed_request_is_a_json_400_as_every_error_is(served, request_bytes):
    """was: uvicorn's plain-text 400 "Invalid HTTP request received." (text/plain), where
    docs/serve.md promises every error as {"error": "..."}: a client reading the error as
    JSON failed on it."""
    _, port = served
    raw = exchange(port, request_bytes)
    assert b"\r\ncontent-type: application/json\r\n" in raw.partition(b"\r\n\r\n")[0].lower()
    status, answer = status_and_json(raw)
    assert status == 400 and set(answer) == {"error"} and "not valid HTTP/1.1" in answer["error"]


def test_pipelined_requests_are_not_read_ahead_of_their_answers_without_end(served):
    """was: every request a client pipelined (sent before reading the answers) was parsed and
    queued as soon as it arrived, and uvicorn read on after every answer: a client sending
    tiny requests without reading grew the server by about 100 MB a second (one connection,
    eight seconds: 950 MB). Now a few are queued and the rest waits unread; all are answered,
    in order."""
    from golfsolve.serve.guard import MAX_QUEUED, SLICE

    server, port = served
    one = b"GET /api/deal?pysol=%d HTTP/1.1\r\nHost: x\r\n\r\n"
    n = 1500
    last = b"GET /api/deal?pysol=%d HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % n  # then the server closes
    burst = b"".join(one % i for i in range(1, n)) + last
    deepest = 0
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        s.sendall(burst)  # the answers are not read yet: they fill the buffers and the server waits
        wait_for(lambda: any(len(p.pipeline) for p in _protocols(server)), "a request to be queued")
        for _ in range(50):
            deepest = max([deepest, *(len(p.pipeline) for p in _protocols(server))])
            time.sleep(0.01)
        got = b""
        s.settimeout(60)
        while chunk := s.recv(1 << 20):
            got += chunk
    # a slice of tiny requests may queue a few past the limit before it is looked at
    assert deepest <= MAX_QUEUED + SLICE // len(one)
    numbers = [json.loads(part.partition(b"\r\n\r\n")[2])["deal_number"] for part in got.split(b"HTTP/1.1 ")[1:]]
    assert numbers == list(range(1, n + 1))


def test_a_pipelining_client_that_leaves_mid_answer_leaves_no_traceback(served):
    """was: a client that pipelined requests, read none of the answers and left while one
    was being written: uvicorn told only the last request read that its client was gone,
    so the one being answered wrote to the closed connection: "Exception in ASGI
    application" and a traceback in the server's terminal."""
    server, port = served
    errors: list[logging.LogRecord] = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = errors.append
    log = logging.getLogger("uvicorn.error")
    level = log.level
    log.addHandler(handler)
    log.setLevel(logging.ERROR)
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=60)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(b"GET /static/app.js HTTP/1.1\r\nHost: x\r\n\r\n" * 400)  # 8 MB of answers, none read
        wait_for(lambda: any(p.flow.write_paused for p in _protocols(server)), "the answers to fill the buffers")
        s.close()
        wait_for(lambda: not _protocols(server) and not server.server_state.tasks, "the connection to end")
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
    assert [r.getMessage() for r in errors] == []


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="stops the worker with SIGSTOP")
def test_a_request_whose_client_left_while_it_waited_for_a_worker_is_not_run():
    """was: a request whose client had gone (a script's timeout, a page reloaded, a click on
    Odds five times) still waited for a worker and then ran its search for nobody: with one
    worker, six abandoned odds requests held up the next client for the time of all six.
    (The job a worker has begun still runs to its end, as docs/serve.md says.)"""
    from golfsolve.serve.app import create_app

    app = create_app(workers=1, warm=False)
    with uvicorn_thread(app, http=_guarded()) as (_, port):
        pool = app.state.pool
        (worker,) = pool._workers.values()
        os.kill(worker.pid, signal.SIGSTOP)  # the next job is handed to it and not begun until SIGCONT
        try:
            ask = b'GET /api/solve?code=GO1-E-AAAAAAB&verdict_only=true HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
            first = socket.create_connection(("127.0.0.1", port), timeout=60)
            first.sendall(ask)
            wait_for(lambda: pool.busy == 1, "the first request to take the worker")
            with socket.create_connection(("127.0.0.1", port), timeout=60) as second:
                second.sendall(ask)
                wait_for(lambda: pool._waiting == 1, "the second request to wait for the worker")
            wait_for(lambda: pool._waiting == 0, "the second request, its client gone, to stop waiting")
            assert pool.busy == 1  # the worker is still the first one's
        finally:
            os.kill(worker.pid, signal.SIGCONT)
        with first:
            status, answer = status_and_json(_read_all(first))
        assert status == 200 and answer["winnable"] is True
        assert pool._idle.qsize() == 1 and pool.busy == 0  # the worker is back, not running the second's job


def _guarded():
    from golfsolve.serve.guard import guarded_protocol

    return guarded_protocol()


def _read_all(s: socket.socket) -> bytes:
    out = b""
    while chunk := s.recv(65536):
        out += chunk
    return out


def test_a_form_posted_as_curl_d_sends_it_is_told_to_send_json(client):
    """was: curl -d code=GO1-E-AAAAAAB (a form, curl's default) got "the request body is not
    JSON: Expecting value at line 1, column 1", which names neither the form nor what to send."""
    for body in ("code=GO1-E-AAAAAAB", "code=GO1-E-AAAAAAB&fair=true&moves=d+1"):
        r = client.post("/api/hint", content=body, headers={"content-type": "application/x-www-form-urlencoded"})
        assert r.status_code == 400 and r.json()["error"].startswith(f"the request body is a form ('{body}'), not JSON")
    r = client.post("/api/hint", content="{code=GO1-E-AAAAAAB")
    assert r.status_code == 400 and r.json()["error"].startswith("the request body is not JSON: ")


def test_a_compressed_body_is_named_so(client):
    """was: a gzip-compressed body (Content-Encoding: gzip) was read as it came: "the request
    body is not UTF-8 text", for a body that was UTF-8 once uncompressed."""
    import gzip

    body = b'{"code": "GO1-E-AAAAAAB"}'
    r = client.post("/api/deal", content=gzip.compress(body), headers={"content-encoding": "gzip"})
    assert r.status_code == 400 and r.json() == {"error": "the request body is compressed ('gzip'); send the JSON "
                                                          "as it is"}
    assert client.post("/api/deal", content=body, headers={"content-encoding": "identity"}).status_code == 200
