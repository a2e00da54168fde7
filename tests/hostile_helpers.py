"""What the tests of every folder check a refusal with, and where the checkout and its test data are."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import click
import pytest

from golfsolve.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
#: tests/data: the layouts, boards and published verdicts the tests read
DATA = ROOT / "tests" / "data"


def commands(group: click.Group, path: list[str]):
    """Every command below ``group`` (subgroups' too), with its words after ``golfsolve``."""
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        yield path + [name], command
        if isinstance(command, click.Group):
            yield from commands(command, path + [name])


#: The lines a command prints on stderr while the kernels it needs are compiled (or while it
#: waits for another process compiling them): the first test in a fresh checkout to start a
#: command that needs some kernel meets them, whichever test that is, so a test that checks
#: a command's stderr is quiet leaves them out (tests/solitaire/test_native.py checks them).
_COMPILE_LINE = re.compile(r"^(compiling|waiting for another process compiling) .+, about \d+ s; "
                           r"(later runs start at once|no folder to keep them in, .+)$")


def quiet_stderr(stderr: "str | bytes") -> "str | bytes":
    """``stderr`` without the compile notice's lines (see :data:`_COMPILE_LINE`)."""
    text = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else stderr
    kept = "".join(line for line in text.splitlines(keepends=True) if not _COMPILE_LINE.match(line.rstrip("\n")))
    return kept.encode() if isinstance(stderr, bytes) else kept


def one_line_error(r) -> str:
    """The one line a refused command printed on stderr (exit 2, nothing on stdout, no traceback)."""
    assert r.exit_code == 2 and r.stdout == "", (r.exit_code, r.stdout)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    return lines[0]


def one_line_exit_2(r, *needles: str) -> None:
    """Exit 2 with one ``golfsolve: `` line on stderr that holds every one of ``needles``
    (stdout is not checked: a run may have printed before it was refused)."""
    assert r.exit_code == 2, (r.exit_code, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("golfsolve: "), r.stderr
    for n in needles:
        assert n in lines[0], lines[0]


def run_python(code: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    """``python -c code`` with this checkout's golfsolve first on the path."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, env=env, timeout=120)


# the server over a real socket (uvicorn in a thread), for what a test client cannot send
def exchange(port: int, data: bytes, wait: float = 30) -> bytes:
    """Send ``data`` on a new connection and read until the server closes it."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as s:
        s.sendall(data)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out


def status_and_json(raw: bytes) -> tuple[int, dict]:
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


@contextmanager
def uvicorn_thread(app, **config):
    """``app`` served by uvicorn in a thread on a free loopback port; yields the port."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="critical", **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            assert thread.is_alive(), "uvicorn stopped before it started"
            time.sleep(0.05)
        yield server, server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(60)


def random_step(state, rng) -> None:
    """One step of a random walk through a grid Golf hole (:class:`~golfsolve.grid.state.HoleState`
    or OpenSpiel's state): a chance node's outcome or a legal action, each uniformly from ``rng``
    (a NumPy generator)."""
    if state.is_chance_node():
        outs = state.chance_outcomes()
        state.apply(outs[int(rng.integers(len(outs)))][0])
    else:
        acts = state.legal_actions()
        state.apply(acts[int(rng.integers(len(acts)))])


def answers_then_ctrl_c(monkeypatch, module: str, answers: list[str]) -> None:
    """Make ``module``'s read_answer give ``answers``, then raise KeyboardInterrupt as Ctrl-C
    at the next prompt does."""
    import importlib

    mod = importlib.import_module(module)
    left = list(answers)

    def read_answer() -> str:
        if left:
            return left.pop(0)
        raise KeyboardInterrupt

    monkeypatch.setattr(mod, "read_answer", read_answer)


_AMBIGUOUS = "truth value"


def library_refusal(call, *needles: str, kinds=(InputError, TypeError)) -> str:
    """The one-line message of the InputError or TypeError ``call`` raises, holding ``needles``."""
    with pytest.raises(kinds) as e:
        call()
    msg = str(e.value)
    assert "\n" not in msg and _AMBIGUOUS not in msg, msg
    for n in needles:
        assert n in msg, msg
    return msg
