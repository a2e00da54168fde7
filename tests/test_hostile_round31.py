"""Hostile sweep, round 31: the solitaire commands as a careless person at a terminal and in
shell scripts meets them (hand-edited layout files, process substitution, words in the wrong
place, a terminal, pipes). Each test is a flaw found, with a test that fails without its fix.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from contextlib import contextmanager

import pytest
from hostile_helpers import ROOT, one_line_error

CODE = "GO1-E-AAAAAAB"

pytestmark = pytest.mark.skipif(not os.path.isdir("/dev/fd"), reason="needs /dev/fd")


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


@pytest.mark.parametrize("command", [["deal"], ["solve", "--verdict-only"], ["replay", "1"]])
def test_a_layout_from_process_substitution_is_read(run_cli, command):
    """was: 'golfsolve solve --layout <(sed ... deal.txt)' refused: "--layout /dev/fd/63 is
    a FIFO; give a regular file" (and so was /dev/stdin fed by a pipe); the pipe a shell
    passes has its writer, so it cannot hang as a named FIFO with none can."""
    with piped(_layout_text(run_cli)) as path:
        r = run_cli([command[0], "--layout", path, *command[1:]])
    assert r.exit_code == 0, r.stderr
    assert path in r.stdout.splitlines()[0]  # named by its path, not "63"


def test_codes_from_process_substitution_are_read(run_cli):
    """was: "--codes-from /dev/fd/63 is a FIFO" for 'solve --codes-from <(grep GO1 list)'."""
    with piped(CODE + "\n") as path:
        r = run_cli(["solve", "--verdict-only", "--codes-from", path])
    assert r.exit_code == 0, r.stderr
    assert '"deal": "GO1-E-AAAAAAB"' in r.stdout


def test_a_named_fifo_no_one_writes_is_still_refused(run_cli, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert "FIFO" in one_line_error(run_cli(["deal", "--layout", str(fifo)]))


@pytest.mark.parametrize("source", [["--layout", "pysol-golf-1.board"], ["--pysol", "1"]])
def test_replay_of_a_code_beside_another_deal_says_to_give_one_deal(run_cli, data_dir, source):
    """was: "bad move 'G' in 'GO1-E-AAAAAAB'": beside --layout or --pysol the code was read
    as the first move, where every other command says to give one deal."""
    if source[0] == "--layout":
        source = ["--layout", str(data_dir / source[1])]
    assert "exactly one of a deal code" in one_line_error(run_cli(["replay", *source, " go1-e-aaaaaab", "1"]))


@pytest.mark.parametrize("discard", ["KS QS", "KS, QS 6H"])
def test_a_discard_pile_written_out_in_a_layout_is_named_so(run_cli, tmp_path, discard):
    """was: "line 3 (discard): unknown card 'KS QS'" for a discard line listing the pile
    (black-hole-solve's Foundations: line already said "shows one card")."""
    text = _layout_text(run_cli).replace("discard: KS", f"discard: {discard}")
    (tmp_path / "deal.txt").write_text(text)
    assert "the discard shows its top card only" in one_line_error(run_cli(["deal", "--layout",
                                                                             str(tmp_path / "deal.txt")]))


def test_a_choice_ending_in_a_carriage_return_is_taken_as_the_rules_are(run_cli):
    """was: "'hard\\r' is not one of 'easy', 'medium', 'hard', 'very-hard'" from a shell script
    saved with Windows line ends, whose '--rules classic\\r', '--pysol 5\\r' and '--games 10\\r'
    were all taken."""
    r = run_cli(["pick", "--difficulty", "hard\r", "--player", " FAST\r", "--count", "1", "--games", "3",
                 "--max-deals", "1", "--json"])
    assert "Invalid value" not in r.stderr and r.exit_code in (0, 1), r.stderr


@pytest.mark.parametrize("command", ["hint", "odds"])
def test_moves_given_as_words_to_hint_or_odds_are_pointed_to_moves(run_cli, command):
    """was: "Got unexpected extra arguments (d 5)": replay takes its moves as words, so
    'golfsolve hint CODE d 5' is what a user types, and the error named no way to give them."""
    assert '--moves "d 5 2"' in one_line_error(run_cli([command, CODE, "d", "5"]))


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
