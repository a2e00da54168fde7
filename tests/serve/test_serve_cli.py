"""The ``serve`` command as a user meets it: its options checked before anything starts,
and nothing of the server loaded by the other commands; the event loop answering while
every worker is busy."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest
from hostile_helpers import ROOT


@pytest.mark.parametrize("args, words", [
    (["--workers", "0"], "--jobs must be from 1 to"),
    (["--port", "70000"], "70000 is not in the range"),
    (["--cpu-budget", "0"], "--cpu-budget"),
    (["--cpu-budget", "nan"], "--cpu-budget must be from 0.1 to 3600 seconds, not nan"),  # was: served, no budget
    (["--host", ""], "--host needs an address"),  # was: exit 1, "cannot listen on :8000"
    (["--host", "a" * 300], "is not a host name or an address"),  # was: internal error, UnicodeError (idna)
    (["--host", "no.such.host.invalid"], "--host 'no.such.host.invalid' does not resolve"),  # was: exit 1
    # was: served with a CORS rule no browser's origin could match
    (["--cors", "localhost:3000"], "--cors 'localhost:3000' is not an origin"),
    (["--cors", "http://localhost:3000/"], "is not an origin"),
    (["--cors", ""], "is not an origin"),
])
def test_bad_options_are_one_line_and_exit_2(run_cli, args, words):
    r = run_cli(["serve", *args])
    assert r.exit_code == 2 and words in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr


def test_other_commands_do_not_load_the_server():
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "golfsolve", "deal", "GO1-E-AAAAAAB"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "GO1-E-AAAAAAB" in proc.stdout
    modules = {ln.rsplit("|", 1)[1].strip() for ln in proc.stderr.splitlines() if ln.startswith("import time:")}
    assert "golfsolve.cli.main" in modules
    assert not {m for m in modules if m.split(".")[0] in ("starlette", "uvicorn") or m.startswith("golfsolve.serve")}


def test_cheap_answers_come_while_every_worker_is_busy():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from golfsolve.serve.app import create_app

    with TestClient(create_app(workers=1)) as c:
        slow = threading.Thread(target=lambda: c.post("/api/odds", json={"code": "GO1-E-AAAAAAB", "samples": 600,
                                                                         "games": 12}))
        slow.start()
        while c.get("/api/health").json()["busy"] == 0 and slow.is_alive():
            pass  # until the odds are in the only worker
        answered_while_busy = []
        for code in ("GO1-E-AAAAAAC", "GO1-C-AAAAAAD", "GO1-E-AAAAAAE"):
            r = c.get("/api/deal", params={"code": code})
            answered_while_busy.append(r.status_code == 200 and r.json()["name"] == code
                                       and c.get("/api/health").json()["busy"] == 1)
        slow.join()
    # the event loop answered the deals while the only worker was computing the odds
    assert answered_while_busy == [True, True, True]


def test_a_port_in_use_is_one_line_before_any_worker_starts():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run([sys.executable, "-m", "golfsolve", "serve", "--port", str(port)],
                              capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.strip() == f"golfsolve: cannot listen on 127.0.0.1:{port}: Address already in use"


def test_an_ipv6_address_in_brackets_is_taken_as_the_ready_line_writes_it():
    """was: --host '[::1]', copied from 'ready on http://[::1]:8000/', was refused: "does not
    resolve to an address" (exit 2). Shown here by a port in use, said before any worker starts."""
    import socket

    try:
        taken = socket.socket(socket.AF_INET6)
        taken.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    with taken:
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run([sys.executable, "-m", "golfsolve", "serve", "--host", "[::1]", "--port", str(port)],
                              capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.strip() == f"golfsolve: cannot listen on [::1]:{port}: Address already in use"


def test_it_listens_on_loopback_and_its_workers_go_when_it_is_killed():
    pytest.importorskip("uvicorn")
    import os
    import signal
    import time
    from pathlib import Path

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from load_serve import running_server, workers_of

    with running_server(workers=2) as (url, proc):
        assert url.startswith("http://127.0.0.1:")  # loopback unless --host says otherwise
        workers = workers_of(proc.pid)
        assert len(workers) == 2
        _bad_requests(url, 20)
        os.kill(proc.pid, signal.SIGKILL)  # no shutdown at all: the workers see their pipe close
        proc.wait()
        deadline = time.monotonic() + 60
        while any(Path(f"/proc/{w}").exists() for w in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = [w for w in workers if Path(f"/proc/{w}").exists()
                and "zombie" not in Path(f"/proc/{w}/status").read_text().lower()]
    assert left == []
    # a burst of requests that are not HTTP is one line in its terminal, not one each
    assert sum("Invalid HTTP request" in line for line in proc.log) == 1, proc.log
    assert not any("WebSocket" in line for line in proc.log), proc.log


def _bad_requests(url: str, n: int) -> None:
    """``n`` requests the server cannot read (TLS bytes on the HTTP port), then one asking for
    an upgrade; each waits for its 400, which the server sends after its warning."""
    import socket
    from urllib.parse import urlsplit

    where = urlsplit(url)
    for k in range(n + 1):
        with socket.create_connection((where.hostname, where.port), timeout=30) as s:
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n"
                      if k == n else b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03garbage\r\n\r\n")
            assert s.recv(100).startswith(b"HTTP/1.1 ")


def test_bad_request_warnings_are_one_line_a_minute_with_a_count_and_errors_all_pass():
    import logging

    from golfsolve.serve.logs import QuietBadRequests

    now = [100.0]
    f = QuietBadRequests(60, clock=lambda: now[0])

    def said(level: int, msg: str):
        record = logging.LogRecord("uvicorn.error", level, __file__, 1, msg, (), None)
        return record.getMessage() if f.filter(record) else None

    first = said(logging.WARNING, "Invalid HTTP request received.")
    assert first == "Invalid HTTP request received (bad requests are shown at most once every 60 s, with a count)"
    assert [said(logging.WARNING, "Invalid HTTP request received.") for _ in range(5)] == [None] * 5
    assert said(logging.WARNING, "Unsupported upgrade request.") is None
    assert said(logging.WARNING, "No supported WebSocket library detected. Please use ...") is None  # never: no use here
    assert said(logging.ERROR, "Exception in ASGI application") == "Exception in ASGI application"
    assert said(logging.WARNING, "Exceeded concurrency limit.") == "Exceeded concurrency limit."
    now[0] += 61
    assert said(logging.WARNING, "Unsupported upgrade request.") == \
        "Unsupported upgrade request (and 6 more bad requests in the last 61 s)"
    now[0] += 61
    assert said(logging.WARNING, "Invalid HTTP request received.") == "Invalid HTTP request received."  # none held


def test_a_busy_server_says_when_to_ask_again():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from golfsolve.serve.app import RETRY_AFTER, create_app

    app = create_app(workers=1, warm=False)
    with TestClient(app) as c:
        app.state.pool.max_waiting = 0  # every request that needs a worker is turned away
        r = c.get("/api/solve", params={"code": "GO1-E-AAAAAAB"})
        assert r.status_code == 503 and "busy" in r.json()["error"]
        assert r.headers["retry-after"] == str(RETRY_AFTER)  # was: no Retry-After
        assert c.get("/api/deal", params={"code": "GO1-E-AAAAAAB"}).status_code == 200  # no worker needed


def test_the_pages_rule_choices_are_every_rule_set_the_commands_name():
    # was: easy, classic and strict only; dead-king, in the README's table and every --rules, was missing
    import re
    from importlib.resources import files

    from golfsolve.solitaire.rules import PRESETS

    page = files("golfsolve.serve").joinpath("static/index.html").read_text(encoding="utf-8")
    select = page[page.index('<select id="rules">'):page.index("</select>")]
    values = re.findall(r'<option value="([^"]*)"', select)
    assert values[0] == ""  # as the code says
    presets = {name for name, rules in PRESETS.items() if rules.name == name}
    assert presets <= set(values[1:])
    # and beside them the joker rule sets (else the page could not play one), each a rule set the commands take
    from golfsolve.solitaire.rules import get_rules

    assert {v for v in values[1:] if v not in presets} == {"easy+jokers1", "easy+jokers2", "classic+jokers1",
                                                           "classic+jokers2"}
    assert all(get_rules(v).jokers for v in values[1:] if v not in presets)


def test_serve_names_an_ipv6_address_in_brackets_as_a_url_writes_it():
    # was: "golfsolve serve: ready on http://::1:33417/", an address no browser opens
    from golfsolve.cli.serve import url

    assert url("::1", 8000) == "http://[::1]:8000/"
    assert url("127.0.0.1", 8000) == "http://127.0.0.1:8000/" and url("localhost", 0) == "http://localhost:0/"


_WORKER_FAILS = """
import errno, sys
if __name__ == "__main__":  # a spawned worker imports this file again: only the server patches
    import golfsolve.serve.pool as pool
    real, made = pool._Worker, []

    def worker(*args, **kwargs):  # the first worker starts; the second finds no file descriptor left
        if made:
            raise OSError(errno.EMFILE, "Too many open files")
        made.append(real(*args, **kwargs))
        return made[0]

    pool._Worker = worker
    sys.argv = ["golfsolve", "serve", "--port", "0", "--jobs", "2"]
    from golfsolve.cli.main import main
    try:
        main()
    finally:
        print(made[0].proc.is_alive() if made else None)
"""


def _serve_script(tmp_path, text: str) -> subprocess.CompletedProcess:
    """``text``, a script that patches the server and runs ``golfsolve serve``, run to its end."""
    pytest.importorskip("uvicorn")
    script = tmp_path / "serve_script.py"
    script.write_text(text)
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_a_worker_that_cannot_start_is_one_line_and_exit_1(tmp_path):
    """was: Starlette's traceback of the failed start, "ERROR: Application startup failed. Exiting."
    and exit code 3, when a worker could not start (out of memory, of file descriptors)"""
    proc = _serve_script(tmp_path, _WORKER_FAILS)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.splitlines() == ["golfsolve serve: starting the workers and warming the kernels...",
                                        "golfsolve: a worker process failed to start: Too many open files"]
    assert proc.stdout.strip() == "False"  # the worker that did start was stopped


_CTRL_C_WHILE_WARMING = """
import os, signal, sys
if __name__ == "__main__":
    import golfsolve.serve.pool as pool
    real = pool.WorkerPool.start

    async def start(self):  # stopped (as Ctrl-C stops it) while the workers warm up
        os.kill(os.getpid(), signal.SIGTERM)  # not SIGINT, which a shell's background job may ignore
        await real(self)

    pool.WorkerPool.start = start
    sys.argv = ["golfsolve", "serve", "--port", "0", "--jobs", "1"]
    from golfsolve.cli.main import main
    main()
"""


def test_ctrl_c_while_the_workers_warm_up_does_not_say_ready(tmp_path):
    """was: "golfsolve serve: ready on http://..." once the workers were warm, then "interrupted":
    a script waiting for that line went on to a server already stopping"""
    proc = _serve_script(tmp_path, _CTRL_C_WHILE_WARMING)
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr.splitlines() == ["golfsolve serve: starting the workers and warming the kernels...",
                                        "golfsolve: interrupted"]


_STOPPED_TWICE = """
import os, signal, sys
if __name__ == "__main__":
    import golfsolve.serve.pool as pool
    real, sent = pool.WorkerPool.stop, []

    def stop(self):  # the second Ctrl-C, as the server begins to stop after the first
        if not sent:
            sent.append(os.kill(os.getpid(), signal.SIGINT))  # uvicorn forces its exit on a second SIGINT only
        real(self)

    pool.WorkerPool.stop = stop
    sys.argv = ["golfsolve", "serve", "--port", "0", "--jobs", "1"]
    from golfsolve.cli.main import main
    main()
"""


def test_ctrl_c_twice_stops_it_in_one_line(tmp_path):
    """was: uvicorn, stopped twice, skipped the app's shutdown; its task was cancelled as the event
    loop ended, and Starlette's traceback (KeyboardInterrupt, then CancelledError) filled the terminal"""
    import signal

    pytest.importorskip("uvicorn")
    script = tmp_path / "twice.py"
    script.write_text(_STOPPED_TWICE)
    # SIGINT as a terminal's Ctrl-C sends it, not ignored as a shell's background job may have it
    proc = subprocess.Popen([sys.executable, str(script)], stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        lines = [proc.stderr.readline(), proc.stderr.readline()]
        assert "ready on" in lines[1], lines
        proc.send_signal(signal.SIGINT)
        _, rest = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130 and rest == "golfsolve: interrupted\n", rest
