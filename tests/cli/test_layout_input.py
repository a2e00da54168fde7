"""Layout files and deal lists as the commands read them: process substitution and FIFOs, several files
with one bad, long and non-UTF-8 names, a discard pile written out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from contextlib import contextmanager

import pytest
from hostile_helpers import ROOT, one_line_error

CODE = "GO1-E-AAAAAAB"


@contextmanager
def piped(text: str):
    """``text`` behind a pipe this process holds open, named as a shell's ``<(command)``
    names it: ``/dev/fd/N``."""
    r, w = os.pipe()
    try:
        os.write(w, text.encode())
        os.close(w)
        yield f"/dev/fd/{r}"
    finally:
        os.close(r)


def _layout_text(run_cli) -> str:
    r = run_cli(["deal", CODE, "--text"])
    assert r.exit_code == 0, r.stderr
    return r.stdout


@pytest.mark.skipif(not os.path.isdir('/dev/fd'), reason='needs /dev/fd')
@pytest.mark.parametrize("command", [["deal"], ["solve", "--verdict-only"], ["replay", "1"]])
def test_a_layout_from_process_substitution_is_read(run_cli, command):
    """was: 'golfsolve solve --layout <(sed ... deal.txt)' refused: "--layout /dev/fd/63 is
    a FIFO; give a regular file" (and so was /dev/stdin fed by a pipe); the pipe a shell
    passes has its writer, so it cannot hang as a named FIFO with none can."""
    with piped(_layout_text(run_cli)) as path:
        r = run_cli([command[0], "--layout", path, *command[1:]])
    assert r.exit_code == 0, r.stderr
    assert path in r.stdout.splitlines()[0]  # named by its path, not "63"


@pytest.mark.skipif(not os.path.isdir('/dev/fd'), reason='needs /dev/fd')
def test_codes_from_process_substitution_are_read(run_cli):
    """was: "--codes-from /dev/fd/63 is a FIFO" for 'solve --codes-from <(grep GO1 list)'."""
    with piped(CODE + "\n") as path:
        r = run_cli(["solve", "--verdict-only", "--codes-from", path])
    assert r.exit_code == 0, r.stderr
    assert '"deal": "GO1-E-AAAAAAB"' in r.stdout


@pytest.mark.skipif(not os.path.isdir('/dev/fd'), reason='needs /dev/fd')
def test_a_named_fifo_no_one_writes_is_still_refused(run_cli, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert "FIFO" in one_line_error(run_cli(["deal", "--layout", str(fifo)]))


@pytest.mark.skipif(not os.path.isdir('/dev/fd'), reason='needs /dev/fd')
@pytest.mark.parametrize("discard", ["KS QS", "KS, QS 6H"])
def test_a_discard_pile_written_out_in_a_layout_is_named_so(run_cli, tmp_path, discard):
    """was: "line 3 (discard): unknown card 'KS QS'" for a discard line listing the pile
    (black-hole-solve's Foundations: line already said "shows one card")."""
    text = _layout_text(run_cli).replace("discard: KS", f"discard: {discard}")
    (tmp_path / "deal.txt").write_text(text)
    assert "the discard shows its top card only" in one_line_error(run_cli(["deal", "--layout",
                                                                             str(tmp_path / "deal.txt")]))


@pytest.mark.skipif(not os.path.isdir('/dev/fd'), reason='needs /dev/fd')
def test_a_layout_file_name_that_is_not_utf8_is_named_in_utf8(run_cli, tmp_path):
    """was: the name's raw byte (b'\\xff.txt') written into the answers, so that under the C.UTF-8
    locale 'deal --json' printed bytes that are not UTF-8: no JSON a strict reader (jq) takes."""
    path = bytes(tmp_path) + b"/\xff.txt"
    with open(path, "w") as f:
        f.write(_layout_text(run_cli))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LC_ALL": "C.UTF-8"}
    r = subprocess.run([sys.executable, "-m", "golfsolve", "deal", "--layout", path, "--json"], capture_output=True,
                       env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.decode("utf-8"))["deal"] == "\ufffd.txt"


GOOD_BOARD = "pysol-golf-1.board"


@pytest.mark.parametrize("command", ["solve", "rate", "deal"])
@pytest.mark.parametrize("text, words", [
    ("GO1-E-AAAAAAB\n", "line 1: expected 'key: value'"),
    ("discard: AS\nstock: ...\n1: AS\n2:\n3:\n4:\n5:\n6:\n7:\n", "duplicate card AS"),
    # no rules: line, so Easy, which deals no joker
    ("discard: JK\nstock: ...\n1: AS\n2:\n3:\n4:\n5:\n6:\n7:\n", "the layout holds 1 joker but rules 'easy'"),
])
def test_a_bad_layout_file_among_several_is_named(run_cli, data_dir, tmp_path, command, text, words):
    """was: 'golfsolve: line 1: expected 'key: value', got ...' with no file named, when
    solve or rate read several --layout files, so the user could not tell which one"""
    # a long path, as pytest's own can be: its end, the file's name, is what the message keeps
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    bad = deep / "second.txt"
    bad.write_text(text, encoding="utf-8")
    files = [str(bad)] if command == "deal" else [str(data_dir / GOOD_BOARD), str(bad)]
    r = run_cli([command, *(a for f in files for a in ("--layout", f))])
    line = one_line_error(r)
    assert "second.txt" in line and words in line, line


def test_a_long_path_is_clipped_at_its_start():
    """was: 'layout file '/tmp/pytest-of-root/.../second.t'... (82 characters)': a long path
    cut at its end lost the file's name, the one part that tells files apart"""
    from golfsolve.errors import clip_path

    long = "/tmp/" + "x" * 100 + "/second.txt"
    assert "second.txt" in clip_path(long) and "(116 characters)" in clip_path(long)
    assert len(clip_path(long)) < 110 and clip_path("/tmp/a.txt") == repr("/tmp/a.txt")
