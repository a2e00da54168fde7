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


#: seed 1, 2x2 grid, one hole against a random bot: these answers tie the hole at 22 each
TIED_HOLE = "1 2\ns\n4\ns\n2\ns\n4\n"
SUDDEN_DEATH = ["grid", "play", "--seed", "1", "--ascii", "--holes", "1", "--grid", "4",
                "--rules", "default+sudden-death", "--bots", "random"]


def test_grid_play_a_sudden_death_play_off_is_announced_as_one_and_its_hole_is_scored(run_cli):
    """was: the tie went unsaid, the extra hole was headed '=== Hole 2 of 1 ...' and ended on
    'Hole over (closed).' then 'Match over. Winner: you' with neither its grids nor its strokes:
    the player never saw why the match was won or lost"""
    r = run_cli(SUDDEN_DEATH, input=TIED_HOLE + "\n" + "1 2\n" + "s\n1\n" * 40)
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "Hole 2 of 1" not in out
    assert ("you and random (P2) are tied on 22: a sudden-death play-off hole follows (everyone plays it; only "
            "their strokes count)") in out
    assert "\n=== Play-off hole 1: random (P2) plays first (sudden death: only the strokes of you and random (P2) "\
           "count) ===\n" in out
    playoff = out[out.index("=== Play-off hole 1"):]
    assert "Final grids (= cancels):" in playoff
    lines = playoff.splitlines()
    strokes = {name: int(n) for name, n in
               (part.rsplit(" ", 1) for part in lines[-2].removeprefix("Play-off hole 1: ").split(", "))}
    assert set(strokes) == {"you", "random (P2)"} and strokes["you"] != strokes["random (P2)"], lines[-2]
    winner = min(strokes, key=strokes.get)
    assert lines[-1] == f"Match over. Winner: {winner} (on play-off hole 1)"


@pytest.mark.parametrize("answers, when", [(TIED_HOLE, "after hole 1 of 1"),
                                           (TIED_HOLE + "\n1 2\n", "during play-off hole 1")],
                         ids=["at-the-play-off-prompt", "in-the-play-off"])
def test_grid_play_input_ending_around_a_play_off_names_the_play_off(run_cli, answers, when):
    """was: 'the input ended during hole 2 of 1'"""
    r = run_cli(SUDDEN_DEATH, input=answers)
    assert r.exit_code == 1
    assert r.stderr == f"golfsolve: the match was not finished: the input ended {when}\n"


def test_grid_warm_up_plays_each_bot_at_its_least_count(monkeypatch):
    """was: the warm-up before the first board played a hole at the bot's own count, so
    'grid play --bots ismcts:200000' sat 20 s without a word before showing the table (and
    Ctrl-C there left no word of the match); the kernels take the count as a number"""
    from golfsolve.grid import compiling, tournament
    from golfsolve.grid.rules import GridRules

    played = []
    monkeypatch.setattr(compiling, "_warm", set())
    monkeypatch.setattr(tournament, "simulate", lambda rules, bots, matches, seed, samples=None:
                        played.append((tuple(bots), samples)))
    compiling.warm(GridRules(), ["ismcts:200000", "mc", "paired-rel:5000", "heuristic", "ismcts"], samples=900)
    assert played == [(("ismcts:1", "ismcts:1"), None), (("mc:1", "mc:1"), None),
                      (("paired-rel:1", "paired-rel:1"), None), (("heuristic", "heuristic"), None)]
    compiling.warm(GridRules(), ["ismcts:5", "mc:7"])  # the same kernels: nothing more to play
    assert len(played) == 4


def test_grid_score_card_numbers_the_places_not_the_seats():
    """was: '2. heuristic (P2)' atop '1. you': the number was the seat, read as second place
    leading the table"""
    from golfsolve.grid.scoring import ScoreCard

    card = ScoreCard(["you", "heuristic (P2)", "random (P3)", "greedy (P4)"])
    card.add([20, 13, 13, 30])
    rows = [line.split()[:2] for line in card.render().splitlines()[2:]]
    assert rows == [["1.", "heuristic"], ["1.", "random"], ["3.", "you"], ["4.", "greedy"]]


def test_play_help_does_not_offer_a_layout_from_stdin_that_play_refuses(run_cli):
    """was: 'play --help' said '--layout FILE ... - reads stdin', and 'play --layout -' was
    refused (play reads its commands there)"""
    r = run_cli(["play", "--help"])
    assert r.exit_code == 0
    assert "--layout FILE" in r.stdout and "reads stdin" not in " ".join(r.stdout.split())
    assert "reads stdin" in " ".join(run_cli(["replay", "--help"]).stdout.split())


def test_grid_play_a_play_off_still_tied_says_so_and_after_the_last_shares_the_win(run_cli, monkeypatch):
    """Every hole tied (a stand-in hole that deals and scores 5 each): the play-off holes say
    who is still tied and ask before the next; after the last the win is shared."""
    from golfsolve.grid import engine
    from golfsolve.grid.state import HoleResult

    def tied_hole(self):
        self._emit([{"type": "deal", "first": self.state.first, "discard": 0, "stock": 30}])
        return HoleResult(grids=[list(range(6)), list(range(6, 12))], raw=[5, 5], strokes=[5, 5], reason="closed",
                          closer=0, knocker=None, turns=1, recycles=0, first=self.state.first)

    monkeypatch.setattr(engine.Hole, "play", tied_hole)
    r = run_cli(["grid", "play", "--seed", "1", "--ascii", "--holes", "1", "--rules", "default+sudden-death",
                 "--bots", "random"], input="\n" * (engine.MAX_PLAYOFF + 1))
    assert r.exit_code == 0, r.stderr
    out = r.stdout.splitlines()
    assert out.count("Play-off hole 1: you 5, random (P2) 5; still tied: you and random (P2)") == 1
    assert sum(line.startswith("Press Enter for the next play-off hole") for line in out) == engine.MAX_PLAYOFF - 1
    last = engine.MAX_PLAYOFF
    assert out[-2:] == [f"Play-off hole {last}: you 5, random (P2) 5; still tied after {last} play-off holes: the "
                        "win is shared", "Match over. Winners: you, random (P2)"]
