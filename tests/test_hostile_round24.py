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
