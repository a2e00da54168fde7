"""Hostile-user sweep, round 8: each test is a flaw a user met from outside (the commands and
the public library). Fast: no test here solves more than a few deals."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _one_line_error(r) -> str:
    assert r.exit_code == 2 and r.stdout == "", (r.exit_code, r.stdout)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    return lines[0]


def _python(code: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    """``python -c code`` with this checkout's golfsolve first on the path."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, env=env, timeout=120)


@pytest.mark.parametrize("path", ["0", "1", "True", "b'deal.txt'"])
def test_read_layout_file_takes_a_path_not_a_file_descriptor(path):
    """was: read_layout_file(0) read all of stdin as a layout and closed it (open() takes a
    whole number as a file descriptor), then failed in pathlib ('expected str, bytes or
    os.PathLike object, not int'); read_layout_file(1) closed stdout"""
    r = _python("import sys\n"
                "from golfsolve.solitaire.layout import read_layout_file\n"
                f"try:\n    read_layout_file({path})\n"
                "except TypeError as e:\n    print('refused:', e)\n"
                "print('stdin still open:', not sys.stdin.closed and sys.stdin.read() == 'rules: easy\\n')\n",
                stdin=b"rules: easy\n")
    assert r.returncode == 0, r.stderr
    assert "refused: path must be a layout file's path" in r.stdout.decode(), r.stdout
    assert "stdin still open: True" in r.stdout.decode(), r.stdout


def test_read_layout_file_checks_its_rules_before_reading(tmp_path):
    from golfsolve.solitaire.layout import read_layout_file

    with pytest.raises(TypeError, match="^rules must be a Rules or None"):
        read_layout_file(tmp_path / "absent.txt", rules="classic")  # not "cannot read layout file"
