"""Ctrl-C or SIGTERM while a bot's compiled numba kernel runs: "interrupted", exit 130.

A signal handled while a numba kernel runs comes back as ``SystemError: ... returned a
result with an exception set`` (the KeyboardInterrupt as its cause); it used to print
"internal error" and exit 1, even inside a run folder that says how to resume.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from golfsolve.errors import interrupted

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")


def test_an_error_caused_by_an_interrupt_is_an_interruption():
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as k:
            raise SystemError("CPUDispatcher(<function ismcts>) returned a result with an exception set") from k
    except SystemError as e:
        assert interrupted(e)
    assert interrupted(KeyboardInterrupt())
    assert not interrupted(SystemError("a real one"))
    try:
        try:
            raise ValueError("inner")
        except ValueError:
            raise SystemError("outer")  # noqa: B904 - the context chain, without a KeyboardInterrupt
    except SystemError as e:
        assert not interrupted(e)


_started: list[subprocess.Popen] = []


@pytest.fixture(autouse=True)
def _no_leftover_process():
    # a failed assertion must not leave a thousand-match run going in its own session
    yield
    while _started:
        proc = _started.pop()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _golfsolve(*args: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "golfsolve", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    _started.append(proc)
    return proc


def _wait_for(cond, timeout: float = 120) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.1)


def _cpu_seconds(pid: int) -> float:
    """CPU time the process has used so far (Linux); a wall-clock wait instead elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("inf")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_ctrl_c_during_a_search_bot_says_interrupted():
    proc = _golfsolve("grid", "simulate", "--bots", "ismcts:3000,heuristic", "--matches", "1000", "-q")
    # past start-up (about 1.5 s of CPU warm) by its own CPU time, not a wall clock a loaded
    # machine stretches: the ISMCTS kernel takes nearly all the time from here on
    start = time.monotonic()
    _wait_for(lambda: _cpu_seconds(proc.pid) >= 6 and time.monotonic() - start >= 6, timeout=300)
    assert proc.poll() is None
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err == "golfsolve: interrupted\n"


def test_sigterm_during_a_study_keeps_its_chunks_and_says_how_to_finish(tmp_path: Path):
    out = tmp_path / "study"
    proc = _golfsolve("grid", "study", "--out", str(out), "--sets", "base", "--matches", "960", "-q")
    _wait_for(lambda: any(out.glob("chunk-*.parquet")))
    time.sleep(1)
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert len(err.splitlines()) == 1 and err.startswith("golfsolve: interrupted: ") and "--resume" in err, err


def test_the_report_of_an_interrupted_run_says_it_is_unfinished(tmp_path: Path, run_cli):
    # was: "68 matches, 612 holes" as if the run had asked for 68
    out = tmp_path / "run"
    proc = _golfsolve("grid", "simulate", "--bots", "ismcts:300,heuristic", "--matches", "200", "--chunk-size", "1",
                      "--out", str(out), "-q")
    _wait_for(lambda: len(list(out.glob("chunk-*.parquet"))) >= 2)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    assert proc.returncode == 130
    done = len(list(out.glob("chunk-*.parquet")))
    rep = run_cli(["grid", "report", str(out)])  # the report is the command under test here, not the interrupt
    assert rep.exit_code == 0, rep.stderr
    note = f"{done} of 200 matches so far; the same command with --resume finishes it"
    assert f"unfinished: {note}" in rep.stdout
    assert f"**The run is unfinished**: {note}." in (out / "_report" / "report.md").read_text(encoding="utf-8")
