"""A hostile user of the interactive and move-list surfaces: ``play``, ``replay``, the
``--moves`` of ``hint`` and ``odds``, and ``grid play``. Each test names what the user did
and what went wrong."""

from __future__ import annotations

import pytest


def test_play_a_refused_move_on_a_huge_line_names_the_unplayed_moves_by_count(run_cli):
    """was: 'd' and 60,000 undos on one line answered 'undo: Nothing to undo; not played: u u
    u ...' with all 59,998 moves left over, a 120 kB line"""
    r = run_cli(["play", "GO1-E-AAAAAAB", "--ascii"], input="d" + "u" * 60_000 + "\nq\n")
    assert r.exit_code == 0, r.stderr
    refusal = next(line for line in r.stdout.splitlines() if line.startswith("undo: Nothing to undo"))
    assert refusal == "undo: Nothing to undo; not played: " + " ".join("u" * 20) + " ... (59,998 moves)"


def test_play_a_refused_move_names_a_few_unplayed_moves_all(run_cli):
    r = run_cli(["play", "GO1-E-AAAAAAB", "--ascii"], input="d5 1 1\nq\n")
    assert r.exit_code == 0, r.stderr
    assert "col 5: Must be one rank higher or lower; not played: 1 1" in r.stdout.splitlines()


@pytest.mark.parametrize("bad, error", [
    (b"\xff\xfe", "the input is not UTF-8 text"),
    (b"s" * 70_000, "a line of the input is longer than 65,536 characters"),
], ids=["not-utf8", "long-line"])
def test_grid_play_an_unreadable_answer_mid_match_ends_the_prompt_line_and_says_the_match_is_left(run_cli, bad,
                                                                                                   error):
    """was: the one-line error came right after the prompt, on its line ('Draw from [s]tock or
    [d]iscard: golfsolve: the input is not UTF-8 text ...' at a terminal), and the transcript
    never said the match was left, as it does at q, at the end of the input and at Ctrl-C"""
    r = run_cli(["grid", "play", "--seed", "2", "--ascii", "--holes", "1", "--grid", "4", "--bots", "random"],
                input=b"1 2\n" + bad + b"\n")
    assert r.exit_code == 2
    assert r.stderr.startswith(f"golfsolve: {error}") and len(r.stderr.splitlines()) == 1, r.stderr
    lines = r.stdout.splitlines()
    assert lines[-2].rstrip() == "Draw from [s]tock or [d]iscard:", lines[-2:]
    assert lines[-1] == "Match left unfinished: an answer could not be read."
