"""``golfsolve grid play`` as a person at the terminal (or a pipe of answers) meets it: prompts,
answers, play-offs, Ctrl-C, the board and the score card."""

from __future__ import annotations

import re

import pytest
from hostile_helpers import answers_then_ctrl_c

#: A grid hole ended at once: the 2x2 grid, a knock allowed, and the first answer a knock.
KNOCK_TABLE = ["grid", "play", "--players", "2", "--grid", "4", "--seed", "1", "--ascii", "--rules", "default+knock10"]


def test_grid_play_says_the_match_was_left_at_ctrl_c(run_cli, monkeypatch):
    """Ctrl-C at a grid play prompt printed "golfsolve: interrupted" after the prompt, on its
    line, and nothing on the table's side said the match was left, as q and the end of input
    do. Now the prompt's line ends and "Match left unfinished: interrupted." precedes the exit 130."""
    answers_then_ctrl_c(monkeypatch, "golfsolve.cli.gridplay", ["1 2\n"])
    r = run_cli(KNOCK_TABLE + ["--holes", "1"])
    assert r.exit_code == 130, (r.stdout[-300:], r.stderr)
    assert r.stderr.strip() == "golfsolve: interrupted"
    assert r.stdout.endswith("[k]nock: \nMatch left unfinished: interrupted.\n"), r.stdout[-200:]


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


def test_play_with_six_opponents_says_you_make_seven(run_cli):
    # was: "grid Golf is for 2 to 6 players, not 7" to a user who named 6 bots and no 7
    r = run_cli(["grid", "play", "--bots", ",".join(["random"] * 6), "--seed", "1"])
    assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert "--bots names 6 opponents" in r.stderr and "with you 7 players" in r.stderr, r.stderr


@pytest.mark.parametrize("answer", ["sure", "done", "keep"])
def test_grid_play_takes_a_draw_answer_as_written(run_cli, answer):
    # was: any word was read by its first letter: 'sure' drew from the stock, 'done' took the
    # discard (where 'pass' at the next question was refused): a guess, not the answer given
    r = run_cli(["grid", "play", "--bots", "random", "--seed", "1", "--holes", "1", "--openers", "0"],
                input=f"{answer}\nq\n")
    assert r.exit_code == 0, r.stderr
    after = r.stdout.split("Draw from", 1)[1]
    assert "not allowed" in after.split("Match left unfinished")[0], r.stdout[-600:]


@pytest.mark.parametrize("answer", ["s", "stock", "D", "discard"])
def test_grid_play_takes_the_draw_answers_it_names(run_cli, answer):
    r = run_cli(["grid", "play", "--bots", "random", "--seed", "1", "--holes", "1", "--openers", "0"],
                input=f"{answer}\nq\n")
    assert r.exit_code == 0, r.stderr
    # was: only "You hold" checked, so an answer read as the other pile passed; the discard's
    # card is the one shown on the table before the answer
    top = re.search(r"^discard: (\S+) ", r.stdout, re.MULTILINE).group(1)
    held = re.search(r"You hold (\S+) \(from the (stock|discard)\)", r.stdout)
    assert held, r.stdout[-600:]
    assert held.group(2) == ("stock" if answer.lower().startswith("s") else "discard")
    assert (held.group(1) == top) == (held.group(2) == "discard")


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


def test_the_opener_prompt_gives_an_example_of_the_allowance(run_cli):
    """was: with one opener the prompt read "Turn up to 1 of your cards (slot numbers, e.g.
    '1 2')", an example of an answer it refuses."""
    r = run_cli(["grid", "play", "--players", "2", "--grid", "4", "--holes", "1", "--openers", "1",
                 "--bots", "heuristic"], input="1\nq\n")
    assert "Turn up to 1 of your cards (slot numbers, e.g. '1'; 'done' turns none): 1\n" in r.stdout


def _refusal(stdout: str) -> str:
    """The first 'not allowed' answer of a grid play transcript, from 'not allowed' on."""
    line = next(x for x in stdout.splitlines() if "not allowed:" in x)
    return line[line.index("not allowed:"):]


@pytest.mark.parametrize("rules, draw, offered", [
    ("default", "s", "a slot number or 'f N'"),
    ("default+no-flip", "s", "a slot number, 'f N' or 'p'"),
    ("default+no-turn", "s", "a slot number"),
    ("default", "d", "a slot number"),
])
def test_grid_play_answers_an_unreadable_placement_with_only_what_is_allowed_there(run_cli, rules, draw, offered):
    """was: 'not allowed: answer with a slot number, 'f N' or 'p'' wherever a placement was
    not understood, though 'p' (and 'f N') are allowed only by some rules and only for a
    stock card"""
    r = run_cli(["grid", "play", "--seed", "1", "--ascii", "--holes", "1", "--rules", rules],
                input=f"1 2\n{draw}\nxyz\nq\n")
    assert r.exit_code == 0, r.stderr
    assert _refusal(r.stdout).startswith(f"not allowed: answer with {offered} (answer: "), r.stdout


def test_grid_play_says_the_match_was_left_at_ctrl_c_while_a_bot_thinks(run_cli, monkeypatch):
    """Ctrl-C while a bot's numba kernel ran (an ismcts bot thinks for seconds) comes out of
    the kernel as a SystemError the KeyboardInterrupt caused: grid play exited 130 with
    "golfsolve: interrupted" but never said "Match left unfinished: interrupted.", as it does
    at a prompt."""
    from golfsolve.grid.bots import HeuristicBot

    def thinking(self, view, count):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as k:
            raise SystemError("CPUDispatcher(<function ismcts>) returned a result with an exception set") from k

    monkeypatch.setattr(HeuristicBot, "choose_openers", thinking)
    r = run_cli(KNOCK_TABLE + ["--holes", "1"], input="1 2\n")
    assert r.exit_code == 130, (r.stdout[-300:], r.stderr)
    assert r.stderr.strip() == "golfsolve: interrupted"
    assert r.stdout.endswith("'done' turns none): 1 2\nMatch left unfinished: interrupted.\n"), r.stdout[-200:]


def test_grid_play_shows_the_card_the_player_throws_from_a_face_down_slot(run_cli):
    """Swapping a card into a face-down slot throws the card that lay there onto the discard,
    for everyone to see (a bot's view holds the whole pile), but grid play never showed it to
    the player: their own moves are not retold, and by their next board the next seat had
    thrown onto it. Seed 2: slot 1 held 2C, which the bot took; slot 2 held JS, which the bot's
    throw covered, and it was never named at all."""
    r = run_cli(["grid", "play", "--openers", "0", "--seed", "2", "--ascii", "--holes", "1"],
                input="s\n1\ns\n2\ns\n2\n")
    out = r.stdout
    first = out.split("slot N: 1\n", 1)[1]
    assert first.startswith("  you throw 2C, face down in slot 1 until now\n  heuristic (P2) takes 2C"), first[:200]
    second = out.split("slot N: 2\n", 2)
    assert second[1].startswith("  you throw JS, face down in slot 2 until now\n  heuristic (P2) draws"), second[1][:200]
    # a face-up card thrown again was on the board already: not told twice
    assert second[2].startswith("  heuristic (P2)"), second[2][:200]
