"""``golfsolve play`` as a person at the terminal (or a pipe of moves) meets it: refused moves named as
typed, unplayed moves listed, Ctrl-C and unreadable input summing up the game, taps after the game
is over, the board's columns."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hostile_helpers import ROOT, answers_then_ctrl_c


def _play(stdin: bytes) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "golfsolve", "play", "GO1-E-AAAAAAB", "--ascii"], input=stdin,
                          capture_output=True, env=env, timeout=120)


@pytest.mark.parametrize("bad, error", [
    (b"\xff\n", "golfsolve: the input is not UTF-8 text (byte b'\\xff' at position 0)"),
    (b"x" * 70_000 + b"\n", "golfsolve: a line of the input is longer than 65,536 characters; give one answer "
                            "per line"),
], ids=["not-utf8", "long-line"])
def test_play_sums_up_the_game_when_its_input_turns_unreadable(bad, error):
    """play fed a byte that is not UTF-8 (or a line past the limit) after some moves ended with
    exit 2 and no final: line, and the bad byte failed the moves before it too (stdin was
    decoded a block at a time, so "d" on the line before was never played)"""
    r = _play(b"d\r\n" + bad + b"d\n")
    assert r.returncode == 2, r.stderr
    assert r.stderr.decode().strip() == error
    out = r.stdout.decode()
    assert out.rstrip().endswith("final: playing, score 0, moves 1, 35 cards left"), out[-300:]
    assert "stock: 15" in out  # the draw before the bad line was played


def test_play_sums_up_the_game_at_ctrl_c(run_cli, monkeypatch):
    """A player drew, then pressed Ctrl-C at the prompt to leave: play exited 130 with no
    final: line (the game's score was lost, where q, Ctrl-D and unreadable input all sum it
    up), and "golfsolve: interrupted" followed the prompt on its line. Now the prompt's line
    is ended, the game summed up, and the exit is still 130."""
    answers_then_ctrl_c(monkeypatch, "golfsolve.cli.solitaire", ["d\n"])
    r = run_cli(["play", "GO1-E-AAAAAAB", "--ascii"])
    assert r.exit_code == 130, (r.stdout[-300:], r.stderr)
    assert r.stderr.strip() == "golfsolve: interrupted"
    assert r.stdout.endswith("> \nfinal: playing, score 0, moves 1, 35 cards left\n"), r.stdout[-200:]


def test_play_shows_a_piped_escape_sequence_instead_of_sending_it_to_the_terminal(run_cli):
    """A file of moves holding an escape sequence (ESC ]0;...BEL renames a terminal's window,
    ESC [2J clears it) was echoed raw by play, which repeats each piped command for the
    transcript: the terminal obeyed it while the game went on. Now the echo writes such
    characters as escapes (\\x1b), as the error message beside it already did."""
    r = run_cli(["play", "GO1-E-AAAAAAB", "--ascii"], input="d\x1b]0;pwned\x07\n\x00\r5\n")
    assert r.exit_code == 0, r.stderr
    assert "\x1b" not in r.stdout and "\x07" not in r.stdout and "\x00" not in r.stdout
    assert "> d\\x1b]0;pwned\\x07\n" in r.stdout and "> \\x00\\r5\n" in r.stdout


def test_play_names_the_refused_move_of_several_and_the_moves_left_unplayed(run_cli):
    """The player typed d52: the draw was played, the 5 refused and the 2 dropped, and play said
    only "Must be one rank higher or lower", naming neither the move refused nor the 2 never
    played. Now it says "col 5: Must be one rank higher or lower; not played: 2"; a single
    move's refusal reads as before."""
    r = run_cli(["play", "GO1-E-AAAAAAB", "--ascii"], input="d52\n5\nuuu\n")
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "> d52\ncol 5: Must be one rank higher or lower; not played: 2\n" in out
    assert "> 5\nMust be one rank higher or lower\n" in out
    assert "> uuu\nundo: Nothing to undo; not played: u\n" in out
    assert out.rstrip().endswith("final: playing, score 0, moves 1, 35 cards left")


def test_play_names_a_bad_move_as_it_was_typed(run_cli):
    """The player typed D5X and play answered "bad move 'x' in 'd5x'": a lower-case x and a
    token never typed, since play lowered the line before reading its moves (replay and the
    library name the character as typed). Now: "bad move 'X' in 'D5X'"."""
    r = run_cli(["play", "GO1-E-AAAAAAB", "--ascii"], input="D5X\n")
    assert r.exit_code == 0, r.stderr
    assert "bad move 'X' in 'D5X'" in r.stdout


def _columns_drawn(line: str) -> int:
    """How many columns a terminal draws ``line`` in (the joker 🃏 is two wide)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def test_a_joker_keeps_the_cards_after_it_under_their_column_numbers(run_cli):
    """Playing with jokers (--rules easy+jokers2), the board padded each card by its length:
    the joker 🃏 is one character a terminal draws two columns wide, so every joker pushed the
    rest of its row one column right, off the column numbers (and grid play's cells, replay's
    steps and hint --all's lines alike). Now cards are padded by the columns they take."""
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.view import grid_rows
    from golfsolve.solitaire.engine import Game
    from golfsolve.solitaire.layout import layout_from_code
    from golfsolve.solitaire.rules import get_rules

    lay = layout_from_code("GO1-E-AAAAAAC", get_rules("easy+jokers2"))  # both jokers on the table
    for text in (lay.render(), Game(lay).render()):
        rows = [ln for ln in text.splitlines() if "♦" in ln or "♠" in ln][:5]
        assert any("🃏" in ln for ln in rows), text
        # the last card of every row ends in the same column (rows are right-stripped)
        assert len({_columns_drawn(ln) for ln in rows}) == 1, rows
    rules = parse_rules("default+jokers", players=2, grid=4)
    joker, two = 52, 1
    assert _columns_drawn(grid_rows([joker, two, None, None], rules)[0]) == \
        _columns_drawn(grid_rows([two, two, None, None], rules)[0])
    r = run_cli(["play", "GO1-E-AAAAAAC", "--rules", "easy+jokers2"], input="q\n")
    rows = [ln for ln in r.stdout.splitlines() if ln.startswith("row ")]
    assert len({_columns_drawn(ln) for ln in rows}) == 1, rows


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


# a winning line of GO1-E-AAAAAAB (golfsolve solve GO1-E-AAAAAAB)
WIN = "1 1 5 d 4 3 6 2 d 2 7 d 5 3 1 4 d d 7 3 7 2 4 4 1 1 4 2 6 3 d 5 6 5 d 7 6 3 6 d d d d 2 5 d 7"


@pytest.mark.parametrize("tap", ["t 1 1", "t 1 5", "t 7 3"])
def test_play_a_tap_after_the_game_is_won_says_the_game_is_over(run_cli, tap):
    """was: 'There is no card in column 1, row 1' for a tap on the emptied table, where any
    other move after the end says the game is won"""
    from golfsolve.solitaire.engine import MSG_WON

    r = run_cli(["play", "GO1-E-AAAAAAB", "--ascii"], input=f"{WIN}\n{tap}\n1\n")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    after_tap = lines[lines.index(f"> {tap}") + 1]
    after_remove = lines[lines.index("> 1") + 1]
    assert after_tap == after_remove == MSG_WON, r.stdout


def test_a_tap_after_the_game_is_locked_says_the_game_is_over():
    from golfsolve.errors import InputError
    from golfsolve.solitaire.engine import MSG_LOCKED, Game
    from golfsolve.solitaire.layout import layout_from_code

    g = Game(layout_from_code("GO1-E-AAAAAAB"))
    while g.legal_moves():  # the first legal move each time: this deal locks with two cards in column 6
        assert g.play(g.legal_moves()[0]).ok
    assert g.locked and [len(c) for c in g.columns] == [0, 0, 0, 0, 0, 2, 0]
    res = g.tap(1, 1)  # no card, the free card, a blocked card: the game is over for each
    assert not res.ok and res.message == MSG_LOCKED and res.move == "t1,1"
    assert g.tap(6, 2).message == g.tap(6, 1).message == MSG_LOCKED
    # bad input is still bad input
    with pytest.raises(InputError, match="row 6 is outside"):
        g.tap(1, 6)


def _in_a_terminal(args: list[str]) -> tuple[int, subprocess.Popen]:
    """``golfsolve ARGS`` with a pseudo-terminal for its stdin, stdout and stderr; the
    terminal's other end, to type into and read from."""
    main, sub = os.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "golfsolve", *args], stdin=sub, stdout=sub, stderr=sub, env=env,
                            start_new_session=True)
    os.close(sub)
    return main, proc


def _read_until(fd: int, end: bytes, seen: bytes = b"") -> bytes:
    import select

    while not seen.endswith(end):
        assert select.select([fd], [], [], 120)[0], seen[-300:]
        seen += os.read(fd, 4096)
    return seen


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("args, prompt, typed, next_prompt", [
    (["play", "GO1-E-AAAAAAB", "--ascii"], b"\n> ", b"d", b"\n> "),
    (["grid", "play", "--seed", "1", "--holes", "1", "--grid", "4", "--bots", "random", "--ascii"],
     b"turns none): ", b"1 2", b"[d]iscard: "),
], ids=["play", "grid-play"])
def test_an_answer_ended_with_ctrl_d_at_a_terminal_ends_its_line(args, prompt, typed, next_prompt):
    """An answer typed at a terminal and ended with Ctrl-D (twice) instead of Enter was played,
    but the cursor stayed after it, so the next board began on the prompt's line:
    "> d       1     2     3 ..." and "...'done' turns none): 1 2  random (P2) turns ..."."""
    main, proc = _in_a_terminal(args)
    try:
        _read_until(main, prompt)
        os.write(main, typed + b"\x04\x04")
        after = _read_until(main, next_prompt)
        os.write(main, b"q\n")
    finally:
        os.close(main)
    proc.wait(timeout=60)
    assert after.startswith(typed + b"\r\n"), after[:200]  # the terminal's echo, then the line ended


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("args, prompt", [
    (["play", "GO1-E-AAAAAAB"], b"\n> "),
    (["grid", "play", "--seed", "1", "--holes", "1", "--grid", "4", "--bots", "random"], b"turns none): "),
], ids=["play", "grid-play"])
def test_a_game_whose_terminal_closes_exits_130(args, prompt):
    """A terminal closed (its window shut, an ssh session dropped) while play or grid play
    waited for an answer: reading it failed with EIO and the game ended as a machine failure,
    "golfsolve: cannot go on: Input/output error", exit 1, where the README promises 130 for a
    closed terminal (and under a terminal that also sent its SIGHUP, the line "interrupted"
    could not be written either: a traceback, exit 1)."""
    main, proc = _in_a_terminal(args)
    try:
        _read_until(main, prompt)
    finally:
        os.close(main)  # the terminal goes away
    assert proc.wait(timeout=60) == 130


@pytest.mark.parametrize("args, code, out_end, err", [
    (["play", "GO1-E-AAAAAAB", "--ascii"], 0, "> \nfinal: playing, score 0, moves 0, 35 cards left\n", ""),
    (["grid", "play", "--seed", "1", "--holes", "1", "--grid", "4", "--bots", "random", "--ascii"], 1,
     "turns none): \nMatch left unfinished: the input ended.\n",
     "golfsolve: the match was not finished: the input ended during hole 1 of 1\n"),
], ids=["play", "grid-play"])
def test_a_game_under_nohup_reads_its_input_as_ended(args, code, out_end, err):
    """nohup gives a command a stdin open for writing only ("nohup: ignoring input"): play and
    grid play ended with "golfsolve: cannot go on: Bad file descriptor", exit 1, as if the
    machine had failed, where a closed stdin ('<&-') is an input that ended."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(os.devnull, "wb") as write_only:
        r = subprocess.run([sys.executable, "-m", "golfsolve", *args], stdin=write_only, capture_output=True, env=env,
                           timeout=120)
    assert (r.returncode, r.stderr.decode()) == (code, err)
    assert r.stdout.decode().endswith(out_end), r.stdout[-200:]
