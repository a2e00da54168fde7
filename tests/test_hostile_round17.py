"""Hostile sweep, round 17: a person playing at the terminal (``play``, ``replay``, ``grid
play``). Each test is a flaw a player met, fixed with a test that fails without its fix."""

from __future__ import annotations

import re

#: A grid hole ended at once: the 2x2 grid, a knock allowed, and the first answer a knock.
KNOCK_TABLE = ["grid", "play", "--players", "2", "--grid", "4", "--seed", "1", "--ascii", "--rules", "default+knock10"]


def _answers_then_ctrl_c(monkeypatch, module: str, answers: list[str]) -> None:
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


def test_play_sums_up_the_game_at_ctrl_c(run_cli, monkeypatch):
    """A player drew, then pressed Ctrl-C at the prompt to leave: play exited 130 with no
    final: line (the game's score was lost, where q, Ctrl-D and unreadable input all sum it
    up), and "golfsolve: interrupted" followed the prompt on its line. Now the prompt's line
    is ended, the game summed up, and the exit is still 130."""
    _answers_then_ctrl_c(monkeypatch, "golfsolve.cli.solitaire", ["d\n"])
    r = run_cli(["play", "GO1-E-AAAAAAB", "--ascii"])
    assert r.exit_code == 130, (r.stdout[-300:], r.stderr)
    assert r.stderr.strip() == "golfsolve: interrupted"
    assert r.stdout.endswith("> \nfinal: playing, score 0, moves 1, 35 cards left\n"), r.stdout[-200:]


def test_grid_play_says_the_match_was_left_at_ctrl_c(run_cli, monkeypatch):
    """Ctrl-C at a grid play prompt printed "golfsolve: interrupted" after the prompt, on its
    line, and nothing on the table's side said the match was left, as q and the end of input
    do. Now the prompt's line ends and "Match left unfinished: interrupted." precedes the exit 130."""
    _answers_then_ctrl_c(monkeypatch, "golfsolve.cli.gridplay", ["1 2\n"])
    r = run_cli(KNOCK_TABLE + ["--holes", "1"])
    assert r.exit_code == 130, (r.stdout[-300:], r.stderr)
    assert r.stderr.strip() == "golfsolve: interrupted"
    assert r.stdout.endswith("[k]nock: \nMatch left unfinished: interrupted.\n"), r.stdout[-200:]


def test_play_shows_a_piped_escape_sequence_instead_of_sending_it_to_the_terminal(run_cli):
    """A file of moves holding an escape sequence (ESC ]0;...BEL renames a terminal's window,
    ESC [2J clears it) was echoed raw by play, which repeats each piped command for the
    transcript: the terminal obeyed it while the game went on. Now the echo writes such
    characters as escapes (\\x1b), as the error message beside it already did."""
    r = run_cli(["play", "GO1-E-AAAAAAB", "--ascii"], input="d\x1b]0;pwned\x07\n\x00\r5\n")
    assert r.exit_code == 0, r.stderr
    assert "\x1b" not in r.stdout and "\x07" not in r.stdout and "\x00" not in r.stdout
    assert "> d\\x1b]0;pwned\\x07\n" in r.stdout and "> \\x00\\r5\n" in r.stdout


def test_grid_play_shows_the_piped_answers_in_its_transcript(run_cli):
    """grid play fed its answers through a pipe showed none of them: the transcript read "Draw
    from [s]tock or [d]iscard or [k]nock: heuristic (P2) draws ...", with no way to tell what was
    answered, where play repeats each piped command. Now each piped answer follows its prompt,
    control characters written as escapes."""
    r = run_cli(KNOCK_TABLE + ["--holes", "1"], input="1 2\nx\x1b[2J\nk\n")
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "(slot numbers, e.g. '1 2'; 'done' turns none): 1 2\n" in out
    assert "[k]nock: x\\x1b[2J\n  not allowed" in out and "\x1b" not in out
    assert "[k]nock: k\n" in out


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


def test_grid_play_draws_a_long_bot_names_final_grid_and_score_card_in_columns(run_cli):
    """Against heuristic-fit (or mc-greedy, paired-rel, mc:500: any seat name past 14
    characters) the final grids drew that bot's first row a few columns right of its second,
    and the score card's numbers left their columns (even 'heuristic (P2)', the default
    opponent, pushed its row one column off). Now both are as wide as the longest name."""
    r = run_cli(KNOCK_TABLE + ["--holes", "1", "--bots", "heuristic-fit"], input="1 2\nk\n")
    assert r.exit_code == 0, r.stderr
    final = r.stdout.split("Final grids (= cancels):\n")[1].split("Score card")[0].splitlines()
    assert len(final) == 4 and "heuristic-fit (P2)" in final[2]
    first_cards = {re.search(r"\b[2-9TJQKA][CDHS]\b", line).start() for line in final}
    assert len(first_cards) == 1, final  # every row of every grid starts its cards in one column
    card = r.stdout.split("Score card after hole 1\n")[1].splitlines()[:3]
    assert len({len(line) for line in card}) == 1, card  # right-aligned numbers end together


def test_the_score_card_keeps_its_columns_for_any_seat_name():
    """ScoreCard.render padded each seat to 16 characters, so '2. heuristic (P2)' (17) and
    longer names pushed their strokes out of the 'hole' and 'total' columns."""
    from golfsolve.grid.scoring import ScoreCard

    card = ScoreCard(["you", "heuristic (P2)", "spiel-ismcts:200 (P3)"])
    card.add([12, 3, 140])
    lines = card.render().splitlines()[1:]
    assert len({len(line) for line in lines}) == 1, lines  # right-aligned numbers end together


def test_grid_play_whose_input_ends_between_holes_says_after_which_hole(run_cli):
    """A pipe of answers that ran dry at "Press Enter for the next hole" was reported as "the
    input ended during hole 1 of 2", though hole 1 was played out and scored. Now: "after
    hole 1 of 2" (still exit 1: the match is not finished)."""
    r = run_cli(KNOCK_TABLE + ["--holes", "2"], input="1 2\nk\n")
    assert r.exit_code == 1, r.stderr
    assert "Score card after hole 1" in r.stdout
    assert r.stderr.strip() == "golfsolve: the match was not finished: the input ended after hole 1 of 2"
    r = run_cli(KNOCK_TABLE + ["--holes", "2"], input="1 2\nk\n\n")  # into hole 2, then dry
    assert r.exit_code == 1 and "the input ended during hole 2 of 2" in r.stderr, r.stderr


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


def test_grid_play_tells_the_answers_to_a_draw_prompt_once(run_cli):
    """An answer that is no draw at all was refused with the answers twice: "not allowed: answer
    s (stock), d (discard) or k (knock); answer [s]tock or [d]iscard or [k]nock"; a draw the
    hole does not allow still gets its reason and the answers"""
    r = run_cli(KNOCK_TABLE + ["--holes", "1"], input="1 2\nx\nk\n")
    assert r.exit_code == 0, r.stderr
    refusal = next(line for line in r.stdout.splitlines() if "not allowed" in line)
    assert refusal == "  not allowed: answer s (stock), d (discard) or k (knock)", refusal


def test_grid_play_tells_the_player_what_their_own_knock_sets_off(run_cli):
    """A player who knocked saw the bots' last turns follow with no word of why: a bot's knock
    was announced ("everyone else has one last turn"), the player's own was not. Now it is."""
    r = run_cli(KNOCK_TABLE + ["--holes", "1"], input="1 2\nk\n")
    assert r.exit_code == 0, r.stderr
    after = r.stdout.split("[k]nock: k\n", 1)[1]
    assert after.startswith("  you knock: everyone else has one last turn\n"), after[:200]
    assert after.index("you knock") < after.index("heuristic (P2) draws")


def test_grid_play_tells_the_player_their_last_card_turned_ends_the_round(capsys):
    """Turning one's last face-down card gives everyone else one last turn; a bot doing it
    was announced, the player doing it was not."""
    from golfsolve.cli.gridplay import _narrate

    tell = _narrate(["you", "heuristic (P2)"], 0, False, {"hole": 1, "holes": 1, "totals": [0, 0], "between": False})
    tell({"type": "close", "player": 0})
    tell({"type": "close", "player": 1})
    assert capsys.readouterr().out.splitlines() == [
        "  you have every card face up: everyone else has one last turn",
        "  heuristic (P2) has every card face up: everyone else has one last turn"]
