"""``golfsolve serve`` as a hostile or careless HTTP client meets it over a real socket: malformed,
slow, half or pipelined requests, huge heads, compressed or form bodies, clients that leave, Ctrl-C
with requests in flight."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import sys
import threading
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx")

from hostile_helpers import exchange, status_and_json, uvicorn_thread  # noqa: E402
from run_helpers import wait_for  # noqa: E402


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


@pytest.fixture(scope="module")
def guarded():
    """The server's app behind uvicorn with the protocol ``golfsolve serve`` uses, its deadline
    for a request to arrive cut to a second; yields the port."""
    from golfsolve.serve.app import create_app
    from golfsolve.serve.guard import guarded_protocol

    with uvicorn_thread(create_app(workers=1, warm=False), http=guarded_protocol(seconds=1.0)) as (_, port):
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
    status, answer = status_and_json(exchange(guarded, half))
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
    status, answer = status_and_json(exchange(guarded, request_bytes))
    assert status == 431 and "larger than 64 KB" in answer["error"]


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
        status, answer = status_and_json(exchange(int(url.rsplit(":", 1)[1]), b"GET /api/health HTTP/1.1\r\n"
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

    with uvicorn_thread(create_app(workers=1, warm=False), timeout_graceful_shutdown=0.2) as (server, port):
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
