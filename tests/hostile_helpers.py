"""What the hostile-user sweeps (test_hostile_round7.py and later) check a refusal with."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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
