"""The deal, replay and play commands, and the SPEC §4 error conventions."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest

from golfsolve.cards import card_str
from golfsolve.solitaire.layout import layout_from_code
from hostile_helpers import ROOT, one_line_error
import os

from golfsolve.errors import InputError


# ---------------------------------------------------------------------------
# deal
# ---------------------------------------------------------------------------
def test_deal_shows_the_cards_with_suit_symbols(run_cli):
    r = run_cli(["deal", "GO1-E-AAAAAAB"])
    assert r.exit_code == 0, r.stderr
    lay = layout_from_code("GO1-E-AAAAAAB")
    assert "GO1-E-AAAAAAB" in r.stdout and "easy" in r.stdout
    for col in lay.columns:  # every free card is printed, with its symbol
        assert card_str(col[-1], symbols=True) in r.stdout
    assert f"discard: {card_str(lay.discard, symbols=True)}" in r.stdout


def test_deal_json_same_cards_for_e_n_and_c(run_cli):
    out = {x: json.loads(run_cli(["deal", f"GO1-{x}-AAAAAAB", "--json"]).stdout) for x in "ENC"}
    for key in ("columns", "discard", "stock"):
        assert out["E"][key] == out["N"][key] == out["C"][key]
    assert out["E"]["rules"] == out["N"]["rules"] == "easy"
    assert out["C"]["rules"] == "classic"
    assert len(out["E"]["stock"]) == 16 and all(len(c) == 5 for c in out["E"]["columns"])


def test_deal_text_output_reads_back_as_a_layout(run_cli, tmp_path):
    r = run_cli(["deal", "GO1-C-ZZZZZZZ", "--text"])
    path = tmp_path / "deal.txt"
    path.write_text(r.stdout, encoding="utf-8")
    a = json.loads(run_cli(["deal", "GO1-C-ZZZZZZZ", "--json"]).stdout)
    b = json.loads(run_cli(["deal", "--layout", str(path), "--json"]).stdout)
    assert (a["columns"], a["discard"], a["stock"], a["rules"]) == (b["columns"], b["discard"], b["stock"], b["rules"])


def test_deal_pysol(run_cli, data_dir):
    """was: only the discard, TH, with no source; now the whole deal against PySol's own board
    (shared/reference/boards, dealt by pysol-cards), read here line by line"""
    r = run_cli(["deal", "--pysol", "1", "--json"])
    assert r.exit_code == 0
    talon, foundation, *columns = (data_dir / "pysol-golf-1.board").read_text().splitlines()
    d = json.loads(r.stdout)
    assert d["discard"] == foundation.removeprefix("Foundations: ")
    assert d["stock"] == talon.removeprefix("Talon: ").split()
    assert d["columns"] == [line.split() for line in columns]


@pytest.mark.parametrize("code, words", [
    ("GO1-X-AAAAAAB", "rule letter 'X'"),
    ("GO2-E-AAAAAAB", "version 'GO2'"),
    ("GO1-E-AAAA", "7 letters"),
    ("GO1-E-AAAAAA1", "'1' is not a letter"),
    ("", "empty deal code"),
])
def test_bad_codes_exit_2_with_one_line(run_cli, code, words):
    r = run_cli(["deal", code])
    assert r.exit_code == 2
    assert words in r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize("change, words", [
    (("9C", "9X"), "'9X'"),
    (("5C", "8S"), "duplicate card 8S"),
    (("7: 3S 7S 3H 9S 5C\n", ""), "column 7 is missing"),
])
def test_bad_layouts_exit_2_naming_the_problem(run_cli, data_dir, tmp_path, change, words):
    text = (data_dir / "seed000_start.txt").read_text(encoding="utf-8").replace(*change)
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    r = run_cli(["deal", "--layout", str(path)])
    assert r.exit_code == 2 and words in r.stderr and r.stderr.count("\n") == 1


def test_missing_layout_file_and_two_sources_exit_2(run_cli):
    assert run_cli(["deal", "--layout", "/nonexistent/x.txt"]).exit_code == 2
    r = run_cli(["deal", "GO1-E-AAAAAAB", "--pysol", "3"])
    assert r.exit_code == 2 and "exactly one" in r.stderr


# ---------------------------------------------------------------------------
# replay
# ---------------------------------------------------------------------------
def test_replay_seed000_steps(run_cli, data_dir):
    r = run_cli(["replay", "--layout", str(data_dir / "seed000_start.txt"), "d", "5", "2"])
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    # SPEC §2's worked example: draw 8S, 9C (col 5) fits, then 8C (col 2); two removes, 10 each
    assert any("draw" in ln and "8♠" in ln and "stock 15" in ln for ln in lines)
    assert any("col 2" in ln and "8♣" in ln and "score  20" in ln for ln in lines)
    assert "result: playing, score 20" in r.stdout


def test_replay_rejected_move_exits_1_with_the_reason(run_cli, data_dir):
    r = run_cli(["replay", "--layout", str(data_dir / "seed000_start.txt"), "1d52"])
    assert r.exit_code == 1
    assert "rejected: Must be one rank higher or lower" in r.stdout
    assert "1 rejected" in r.stdout


def test_replay_json(run_cli, data_dir):
    r = run_cli(["replay", "--layout", str(data_dir / "seed000_move35.txt"), "--rules", "classic", "3", "--json"])
    assert r.exit_code == 1
    out = json.loads(r.stdout)
    assert out["rules"] == "classic" and out["rejected"] == 1
    assert out["steps"][0]["ok"] is False and out["steps"][0]["message"] == "Must be one rank higher or lower"
    r = run_cli(["replay", "--layout", str(data_dir / "seed000_move35.txt"), "3", "--json"])
    out = json.loads(r.stdout)
    assert r.exit_code == 0 and out["steps"][0]["card"] == "AH" and out["steps"][0]["discard"] == "AH"


def test_replay_json_names_the_deal_and_the_moves_played_as_hint_and_odds_do(run_cli, data_dir):
    """was: the deal under "layout" and "moves_played" a count, where deal, solve, hint and
    odds give "deal" and the moves' text; now "moves_played" is the moves the game took (a
    rejected one changed nothing), so hint --moves and odds --moves take it as it is."""
    r = run_cli(["replay", "GO1-E-AAAAAAB", "1 1 7 5 d", "--json"])
    out = json.loads(r.stdout)
    assert r.exit_code == 1 and out["deal"] == "GO1-E-AAAAAAB" and "layout" not in out
    assert out["moves_played"] == "1 1 7 d" and out["moves_given"] == 5 and out["rejected"] == 1
    hint = json.loads(run_cli(["hint", "GO1-E-AAAAAAB", "--moves", out["moves_played"], "--json"]).stdout)
    assert hint["deal"] == out["deal"] and hint["moves_played"] == out["moves_played"]
    assert "4 of 5 moves played, 1 rejected" in run_cli(["replay", "GO1-E-AAAAAAB", "1 1 7 5 d"]).stdout
    # a layout file has no deal name: null, as deal --json gives it
    r = run_cli(["replay", "--layout", str(data_dir / "seed000_move35.txt"), "3", "--json"])
    assert json.loads(r.stdout)["deal"] == json.loads(
        run_cli(["deal", "--layout", str(data_dir / "seed000_move35.txt"), "--json"]).stdout)["deal"]


# the whole stock drawn: deal 1's last stock card 7S fits column 3's 6C (the only fit);
# deal 2's last, 9H, fits none of 3H 9D 6D JS AS 5C JC, so the game locks
@pytest.mark.parametrize("code, locked", [("GO1-E-AAAAAAB", False), ("GO1-E-AAAAAAC", True)])
def test_replay_with_a_code_and_a_lock(run_cli, code, locked):
    """was: one deal, which never locks, so the lock's branch never ran"""
    r = run_cli(["replay", code, "d" * 16, "--json"])
    out = json.loads(r.stdout)
    assert r.exit_code == 0 and out["stock_left"] == 0 and out["move_counter"] == 16
    last = out["steps"][-1]
    assert (out["status"] == "locked") == locked
    if locked:
        # SPEC: a lock with nothing removed scores max(0, 0 - 35 x 10) = 0
        assert last["message"] == "No more possible moves" and out["score"] == 0
    else:
        assert out["final"]["legal_moves"] == ["3"]


def test_replay_bad_move_exits_2(run_cli):
    r = run_cli(["replay", "GO1-E-AAAAAAB", "d", "9"])
    assert r.exit_code == 2 and "'9'" in r.stderr


# ---------------------------------------------------------------------------
# play
# ---------------------------------------------------------------------------
def test_play_through_a_pipe(run_cli, data_dir):
    commands = "t 1 4\nt 1 5\nd\n5\n2\nu\nh\nq\n"
    r = run_cli(["play", "--layout", str(data_dir / "seed000_start.txt")], input=commands)
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "This card is blocked" in out
    assert "Must be one rank higher or lower" in out
    assert "score: 20   moves: 3" in out  # after d, 5, 2
    assert "score: 10   moves: 3" in out  # undo took the points back, not the move
    assert "t COL ROW" in out  # the help
    assert out.rstrip().endswith("final: playing, score 10, moves 3, 34 cards left")


def test_play_ends_cleanly_at_end_of_input_and_reports_bad_commands(run_cli):
    r = run_cli(["play", "GO1-E-AAAAAAB", "--ascii"], input="x\nt 1\n")
    assert r.exit_code == 0
    assert "bad move 'x'" in r.stdout and "usage: t COL ROW" in r.stdout
    assert "final: playing, score 0, moves 0" in r.stdout


# ---------------------------------------------------------------------------
# the real entry point
# ---------------------------------------------------------------------------
def test_installed_entry_point_exits_2_with_one_stderr_line():
    exe = shutil.which("golfsolve")
    cmd = [exe] if exe else [sys.executable, "-m", "golfsolve"]
    p = subprocess.run(cmd + ["deal", "GO1-X-AAAAAAB"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.count("\n") == 1 and "rule letter 'X'" in p.stderr


def test_ci_runs_exactly_the_readme_test_command():
    # The README promises that .ci/run is its second line; keep the two from drifting.
    root = ROOT
    readme = (root / "README.md").read_text(encoding="utf-8").splitlines()
    ci = [ln for ln in (root / ".ci" / "run").read_text(encoding="utf-8").splitlines()
          if ln.strip() and not ln.startswith("#") and not ln.startswith(("set ", "cd "))]
    assert readme[1].strip() == "pip install -e '.[test]' && python -m pytest -q"
    # before it, only what the machine needs (the browser of the browser test)
    assert ci[-1] == readme[1].strip() and all("apt-get install" in ln for ln in ci[:-1])


WIN_1 = "1 1 5 d 4 3 6 2 d 2 7 d 5 3 1 4 d d 7 3 7 2 4 4 1 1 4 2 6 3 d 5 6 5 d 7 6 3 6 d d d d 2 5 d 7"


def test_hint_on_a_finished_game_is_an_answer_exit_0(run_cli):
    r = run_cli(["hint", "GO1-E-AAAAAAB", "--moves", WIN_1])
    assert r.exit_code == 0, r.stderr
    assert r.stdout == "the game is already over: You won! Score 350\n" and r.stderr == ""
    r = run_cli(["hint", "GO1-E-AAAAAAB", "--moves", WIN_1, "--json"])
    assert r.exit_code == 0
    j = json.loads(r.stdout)
    assert j["best"] is None and j["ranked"] == [] and j["message"].startswith("the game is already over")


@pytest.mark.parametrize("extra", [[], ["--fair", "--player", "fast"]])
@pytest.mark.parametrize("moves", ["d 4", WIN_1])
def test_every_hint_answer_has_the_same_core_fields(run_cli, extra, moves):
    # was: the peeking hint had no "rules" or "fair", the fair hint no "moves_played", and a fair
    # hint on a finished game was the peeking answer's shape, without "fair"
    r = run_cli(["hint", "GO1-E-AAAAAAB", "--moves", moves, "--json", *extra])
    assert r.exit_code == 0, r.stderr
    j = json.loads(r.stdout)
    assert {"deal", "rules", "fair", "moves_played", "game_over", "best", "ranked"} <= set(j), sorted(j)
    assert (j["deal"], j["rules"], j["fair"], j["moves_played"]) == ("GO1-E-AAAAAAB", "easy", bool(extra), moves)
    # was: no "game_over" where odds and rate have it; a script told a finished game only by "best": null
    assert j["game_over"] is (moves == WIN_1) and (j["best"] is None) is j["game_over"]


def test_hint_at_the_node_limit_says_how_many_cards_its_best_line_leaves(run_cli):
    r = run_cli(["hint", "GO1-C-AAAAAAB", "--node-limit", "3", "--all"])
    assert r.exit_code == 1, r.stderr  # as solve at its node limit: an answer, not known to be the best
    lines = r.stdout.splitlines()
    assert len(lines) >= 2 and all("node limit; the best line found leaves" in ln and ln.endswith(" cards")
                                   for ln in lines)


def test_hint_exits_1_only_where_its_node_limit_leaves_the_best_move_unproven(run_cli):
    # every move's search finished: exact, exit 0 (the limit never reached)
    assert run_cli(["hint", "GO1-C-AAAAAAD", "--node-limit", "1000000"]).exit_code == 0
    # a proven win is best whatever the moves whose search stopped would have given
    r = run_cli(["hint", "GO1-E-AAAAAAB", "--node-limit", "60", "--all", "--json"])
    j = json.loads(r.stdout)
    outcomes = [m["outcome"] for m in j["ranked"]]
    assert outcomes[0] == "won" and "unknown" in outcomes and r.exit_code == 0, (outcomes, r.exit_code)
    r = run_cli(["hint", "GO1-C-AAAAAAD", "--node-limit", "1", "--json"])
    assert r.exit_code == 1 and json.loads(r.stdout)["best"]["outcome"] == "unknown"


def test_semicolons_separate_moves_as_spaces_do(run_cli):
    spaced = run_cli(["replay", "GO1-E-AAAAAAB", "1 1 d 5"])
    semi = run_cli(["replay", "GO1-E-AAAAAAB", "1;1;d;5"])
    assert semi.exit_code == spaced.exit_code == 1  # column 5 is rejected
    assert semi.stdout == spaced.stdout


def test_replay_counts_are_grouped(run_cli):
    r = run_cli(["replay", "GO1-E-AAAAAAB", "--quiet", "4" * 1200])  # 7♣ never fits the K♠ on the discard
    assert r.exit_code == 1
    assert r.stdout.rstrip().endswith("0 of 1,200 moves played, 1,200 rejected")


def test_rules_on_the_command_line_count_the_jokers_of_a_layouts_dots(run_cli, data_dir):
    # was: a 16-card stock without the joker, and odds refused the file
    path = str(data_dir / "seed000_start.txt")
    r = run_cli(["deal", "--layout", path, "--rules", "easy+jokers1", "--json"])
    assert r.exit_code == 0 and len(json.loads(r.stdout)["stock"]) == 17, r.stderr
    r = run_cli(["solve", "--pysol", "1", "--rules", "easy+jokers1"])  # was: a jokerless deal solved
    assert r.exit_code == 2 and "PySol FC's Golf deals have no jokers" in r.stderr and r.stderr.count("\n") == 1


def test_play_reads_moves_saved_with_a_byte_order_mark(run_cli):
    # was: "bad move '\ufeff' in '\ufeffd'" for the first line of a moves file a Windows editor saved
    r = run_cli(["play", "GO1-E-AAAAAAB", "--ascii"], input="\ufeffd\r\n1\r\n")
    assert r.exit_code == 0 and "bad move" not in r.stdout, r.stdout
    assert "final: playing, score 0, moves 1" in r.stdout


def test_an_illegal_move_in_a_long_list_is_named_by_its_place(run_cli):
    # was: "move '4' is not legal here: ..." for the second of "1 4", with no word on which 4 of a long list
    r = run_cli(["hint", "GO1-E-AAAAAAB", "--moves", "1 4 d"])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert "move 2 of 3 ('4') is not legal here: Must be one rank higher or lower" in r.stderr, r.stderr
    r = run_cli(["hint", "GO1-E-AAAAAAB", "--moves", "4"])  # one move: its place says nothing
    assert "move '4' is not legal here" in r.stderr, r.stderr


def test_hint_on_a_stock_of_unknown_order_counts_the_positions_stock(run_cli, data_dir):
    # was: "the stock order is unknown (15 of 15 stock cards)" for a stock of 16 whose first card
    # (8S) is known: the count of the position after the draw whose search met the unknown cards
    path = str(data_dir / "seed000_start.txt")
    r = run_cli(["hint", "--layout", path])
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.stderr
    assert "seed000_start.txt: the stock order is unknown (15 of 16 stock cards)" in r.stderr, r.stderr
    assert "try 'golfsolve hint --fair'" in r.stderr
    r = run_cli(["hint", "--layout", path, "--moves", "d"])  # after the draw: 15 left, all unknown
    assert "(15 of 15 stock cards)" in r.stderr, r.stderr


def test_every_json_answer_names_its_deal_under_deal(run_cli):
    # was: 'deal --json' alone named it "name", where solve, hint, odds, rate and /api/play say "deal"
    cheap = {"odds": ["--samples", "1", "--games", "0"], "rate": ["--games", "1"]}
    for command in ("deal", "solve", "hint", "odds", "rate"):
        r = run_cli([command, "GO1-C-AAAAAAB", "--json", *cheap.get(command, [])])
        assert r.exit_code == 0, r.stderr
        answer = json.loads(r.stdout)
        answer = answer[0] if command == "rate" else answer  # rate answers a list
        assert answer["deal"] == "GO1-C-AAAAAAB", command


@pytest.mark.parametrize("args", [["hint", "GO1-E-AAAAAAB", "--moves", "d", "--all"],
                                  ["hint", "GO1-E-AAAAAAB", "--moves", "d", "--all", "--fair"],
                                  ["deal", "GO1-E-AAAAAAB"], ["replay", "GO1-E-AAAAAAB", "d 4"]])
def test_every_answer_shows_cards_one_way(run_cli, args):
    """Cards read 7♣ in every human-readable answer (moves, layouts and JSON write 7C)."""
    r = run_cli(args)
    assert r.exit_code == 0, r.stderr
    assert "7♣" in r.stdout or "Q♣" in r.stdout
    assert not re.search(r"\b(10|[2-9TJQKA])[CDHS]\b", r.stdout), r.stdout


def test_a_bad_move_is_named_as_it_was_typed(run_cli):
    """golfsolve replay --pysol 1 GO1-E-AAAAAAB d said "bad move 'g' in 'GO1-E-AAAAAAB'": a
    lower-case g the user never typed"""
    r = run_cli(["replay", "--pysol", "1", "d", "Gx"])
    assert one_line_error(r) == ("golfsolve: bad move 'G' in 'Gx' (moves are d = draw, "
                                  "1-7 = remove from that column, u = undo)")
    # a deal code there is a second deal, not a move
    r = run_cli(["replay", "--pysol", "1", "GO1-E-AAAAAAB", "d"])
    assert one_line_error(r) == "golfsolve: give exactly one of a deal code, --layout FILE or --pysol N"
    from golfsolve.solitaire.engine import parse_moves

    assert parse_moves("D 5 U") == ["d", "5", "u"]
    with pytest.raises(InputError, match="^bad move 'İ' in 'dİ'"):
        parse_moves("dİ")


@pytest.mark.skipif(not os.path.isdir('/dev/fd'), reason='needs /dev/fd')
@pytest.mark.parametrize("source", [["--layout", "pysol-golf-1.board"], ["--pysol", "1"]])
def test_replay_of_a_code_beside_another_deal_says_to_give_one_deal(run_cli, data_dir, source):
    """was: "bad move 'G' in 'GO1-E-AAAAAAB'": beside --layout or --pysol the code was read
    as the first move, where every other command says to give one deal."""
    if source[0] == "--layout":
        source = ["--layout", str(data_dir / source[1])]
    assert "exactly one of a deal code" in one_line_error(run_cli(["replay", *source, " go1-e-aaaaaab", "1"]))


def test_solve_prints_a_lost_line_to_the_end_of_the_game(run_cli):
    r = run_cli(["solve", "GO1-C-AAAAAAZ", "--json"])
    got = json.loads(r.stdout)
    out = run_cli(["replay", "GO1-C-AAAAAAZ", got["moves"]])
    assert out.exit_code == 0
    assert out.stdout.rstrip().splitlines()[-1].startswith(
        f"result: locked, score {got['best_app_score']}, {got['best_cards_left']} cards left")


def test_solve_says_one_state_in_the_singular(run_cli):
    """was: 'searched 1 states in 0.0 ms' (a node limit of 1, or a cleared table)"""
    r = run_cli(["solve", "GO1-E-AAAAAAB", "--node-limit", "1"])
    assert r.exit_code == 1 and r.stdout.splitlines()[-1].startswith("searched 1 state in "), r.stdout
    r = run_cli(["solve", "GO1-E-AAAAAAB", "--node-limit", "2"])
    assert r.stdout.splitlines()[-1].startswith("searched 2 states in "), r.stdout
