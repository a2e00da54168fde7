"""Hostile-user sweep, round 7: each test is a bug a user met from outside (the commands and
the public library). Fast: no test here solves more than a few deals."""

from __future__ import annotations

import pytest
from hostile_helpers import one_line_error as _one_line_error

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
    line = _one_line_error(r)
    assert "second.txt" in line and words in line, line


def test_a_long_path_is_clipped_at_its_start():
    """was: 'layout file '/tmp/pytest-of-root/.../second.t'... (82 characters)': a long path
    cut at its end lost the file's name, the one part that tells files apart"""
    from golfsolve.errors import clip_path

    long = "/tmp/" + "x" * 100 + "/second.txt"
    assert "second.txt" in clip_path(long) and "(116 characters)" in clip_path(long)
    assert len(clip_path(long)) < 110 and clip_path("/tmp/a.txt") == repr("/tmp/a.txt")


def test_a_fair_run_started_by_code_records_a_command_that_runs(run_cli, tmp_path):
    """was: 'golfsolve fair-stats --start GO1-E-AAAAAAB --start-number 1 ...' in the manifest
    and _fair.md's "Command:", which fails as given ('give --start CODE or --start-number N,
    not both'); stats records the start once"""
    import json
    import shlex

    out = tmp_path / "f"
    r = run_cli(["fair-stats", "--start", "GO1-C-AAAAAAB", "--count", "1", "--rules", "classic", "--player", "fast",
                 "-j", "1", "--out", str(out), "-q"])
    assert r.exit_code == 0, r.stderr
    command = json.loads((out / "_manifest.json").read_text())["command"]
    assert "--start-number 1" in command and "--start " not in command, command
    assert command in (out / "_fair.md").read_text(encoding="utf-8")
    args = shlex.split(command)[1:]
    args[args.index("--out") + 1] = str(tmp_path / "again")
    r = run_cli(args)
    assert r.exit_code == 0, r.stderr


def _grid_hole():
    import numpy as np

    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.state import HoleState

    return HoleState(parse_rules("danish", players=2, grid=4), rng=np.random.default_rng(1))


@pytest.mark.parametrize("call, error, words", [
    # was: IndexError 'list index out of range'
    (lambda s: s.hidden_count(5), "InputError", "a seat is a whole number from 0 to 1, not 5"),
    # was: seat 1's slots (Python's index from the end), with no word
    (lambda s: s.hidden_slots(-1), "InputError", "a seat is a whole number from 0 to 1, not -1"),
    # was: AttributeError "'int' object has no attribute 'shuffle'"
    (lambda s: s.resample(0, 5), "TypeError", "rng must be a numpy Generator"),
    # was: ValueError 'operands could not be broadcast together with shapes (54,) (100,)'
    (lambda s: s.view(0, drawn=99), "InputError", "drawn must be a card id these rules deal, or None; not 99"),
    (lambda s: s.view(0, drawn=-1), "InputError", "drawn must be a card id these rules deal, or None; not -1"),
])
def test_a_hole_state_names_a_seat_a_card_or_a_generator_that_is_none(call, error, words):
    """The hole state's public methods check a seat as view and observation do (round 3)."""
    import re

    with pytest.raises(Exception, match="^" + re.escape(words)) as e:
        call(_grid_hole())
    assert type(e.value).__name__ == error


def test_a_hole_state_still_takes_numpy_seats_and_cards():
    import numpy as np

    s = _grid_hole()
    assert s.hidden_count(np.int64(1)) == 4 and s.hidden_slots(np.int64(0)) == [0, 1, 2, 3]
    assert s.view(0, drawn=np.int64(5)).drawn == 5
    s.resample(1, np.random.default_rng(0))


def _callbacks(tmp_path):
    import numpy as np

    from golfsolve.fair import pick
    from golfsolve.grid.bots import make_bot
    from golfsolve.grid.engine import play_match
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.tournament import simulate
    from golfsolve.solitaire.rules import EASY
    from golfsolve.stats.census import CensusSpec, run_census

    grid = parse_rules("default", players=2, holes=1)
    return {
        "on_deal": lambda v: pick(EASY, "easy", 1, games=1, on_deal=v),
        "on_hole": lambda v: play_match(grid, [make_bot("random"), make_bot("random")], np.random.default_rng(0),
                                        on_hole=v),
        "progress": lambda v: simulate(grid, ["random", "random"], 1, 0, progress=v),
        "on_chunk": lambda v: run_census(tmp_path / "run", CensusSpec(0, 1, ("easy",)), jobs=1, progress=False,
                                         on_chunk=v),
    }


@pytest.mark.parametrize("name", ["on_deal", "on_hole", "progress", "on_chunk"])
@pytest.mark.parametrize("value", [5, True])
def test_a_library_callback_that_is_no_function_is_named_at_the_call(tmp_path, name, value):
    """was: TypeError "'int' object is not callable" after the first deal, hole, match or
    chunk was done (run_census had written its folder by then); simulate(progress=True), a
    switch everywhere else, failed the same way"""
    with pytest.raises(TypeError, match=f"^{name} must be a function"):
        _callbacks(tmp_path)[name](value)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("out", ["rep", None])
def test_report_of_a_run_with_no_finished_chunk_writes_no_folder(run_cli, tmp_path, out):
    """was: exit 2 'no chunk is finished yet, so there is nothing to report', after making
    the empty --out folder (or DIR/_report); grid report made none"""
    run = tmp_path / "run"
    r = run_cli(["stats", "--count", "1", "--rules", "easy", "-j", "1", "--out", str(run), "-q"])
    assert r.exit_code == 0, r.stderr
    for chunk in run.glob("chunk-*.parquet"):
        chunk.unlink()
    where = tmp_path / out if out else run / "_report"
    r = run_cli(["report", str(run), *(["--out", str(where)] if out else [])])
    assert "no chunk is finished yet" in _one_line_error(r)
    assert not where.exists()


@pytest.mark.parametrize("kind", ["stats", "grid"])
def test_extend_that_would_shrink_a_run_names_what_it_counts(run_cli, tmp_path, kind):
    """was: '--extend cannot shrink the run from 2 to 1 items': deals, or matches"""
    out = str(tmp_path / "run")
    if kind == "stats":
        made = ["stats", "--count", "2", "--rules", "easy", "-j", "1", "--out", out, "-q"]
        again = ["stats", "--out", out, "--extend", "--count", "1", "-q"]
    else:
        made = ["grid", "simulate", "--players", "2", "--bots", "random,random", "--holes", "1", "--matches", "2",
                "--out", out, "-q"]
        again = ["grid", "simulate", "--out", out, "--extend", "--matches", "1", "-q"]
    assert run_cli(made).exit_code == 0
    line = _one_line_error(run_cli(again))
    assert line.endswith(f"cannot shrink the run from 2 {'deals' if kind == 'stats' else 'matches'} to 1"), line


def test_too_many_chunk_files_names_what_the_run_counts(run_cli, tmp_path):
    """was: '8,031,810,176 items in chunks of 1 make ...'"""
    r = run_cli(["stats", "--count", "8031810176", "--chunk-size", "1", "--out", str(tmp_path / "run")])
    assert _one_line_error(r).startswith("golfsolve: 8,031,810,176 deals in chunks of 1 make")
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("kind", ["fair-stats", "stats"])
def test_a_run_made_before_a_player_setting_existed_resumes_when_its_player_is_the_same(run_cli, tmp_path, kind):
    """A fast-player run made before ``hopeless`` existed (its player had 0, the fast preset's
    value) records none. was: '--resume: ... differs in player.hopeless (here 0, the run has
    none)', and the same for --extend and a --difficulty census, though nothing differs"""
    run = tmp_path / "run"
    if kind == "fair-stats":
        args = ["fair-stats", "--count", "2", "--rules", "classic", "--player", "fast"]
        key, again = "player", ["fair-stats", "--out", str(run)]
    else:
        args = ["stats", "--count", "2", "--rules", "classic", "--difficulty", "--difficulty-games", "1"]
        key, again = "difficulty_player", ["stats", "--out", str(run), "-j", "1"]
    r = run_cli([*args, "--chunk-size", "1", "-j", "1", "--out", str(run), "-q"])
    assert r.exit_code == 0, r.stderr
    from run_helpers import as_before_setting

    as_before_setting(run, "hopeless", key, chunks=True)
    (run / "chunk-0000000001.parquet").unlink()
    r = run_cli([*again, "--resume", "-q"])
    assert r.exit_code == 0 and (run / "chunk-0000000001.parquet").is_file(), r.stderr
    r = run_cli([*again, "--extend", "--count", "3", "-q"])
    assert r.exit_code == 0 and len(list(run.glob("chunk-*.parquet"))) == 3, r.stderr
    # the old chunks and the new ones are read as one run
    if kind == "fair-stats":
        other = str(tmp_path / "other")
        assert run_cli(["stats", "--count", "1", "--rules", "classic", "-j", "1", "--out", other, "-q"]).exit_code == 0
        r = run_cli(["report", other, "--fair", str(run), "--json"])
    else:
        r = run_cli(["report", str(run), "--json"])
    assert r.exit_code == 0, r.stderr


@pytest.mark.parametrize("decks", [5, "abc", b"ab"])
def test_play_match_names_decks_that_are_no_list_of_decks(decks):
    """was: TypeError "object of type 'int' has no len()" at the first hole, and the text 'abc'
    read as three decks ('a stacked deck holds card ids 0 to 53, not 'a'')"""
    import numpy as np

    from golfsolve.grid.bots import make_bot
    from golfsolve.grid.engine import play_match
    from golfsolve.grid.rules import parse_rules

    with pytest.raises(TypeError, match="^decks must be a list of stacked decks, one a hole"):
        play_match(parse_rules("default", players=2, holes=1), [make_bot("random"), make_bot("random")],
                   np.random.default_rng(0), decks=decks)


# A position with one unknown stock card and one card unseen (the 7D the "?" must be), and one
# with one unknown stock card among 48 unseen: every stock order is played, so no interval.
ONE_ORDER = ("rules: easy\ndiscard: KS\nstock: ? QS QH QD 9D 3D 3S AC 4C 2H 8C TC 3H 2S 9H 7S\n1: 6H 6D JH KC QC\n"
             "2: 9C 9S 5H KH 4S\n3: 4D JC 7H TH 6C\n4: 8H 5D 4H TS 7C\n5: 8D KD 2C JS AS\n6: 5S 3C AD TD 5C\n"
             "7: JD 2D 6S 8S AH\n")
FEW_ORDERS = "rules: classic\ndiscard: 5C\nstock: ?\n1: 4C 3C\n2: 6C\n3:\n4:\n5:\n6:\n7:\n"


def test_a_fair_hint_over_every_stock_order_promises_no_interval(run_cli, tmp_path):
    """was: "each legal move's value and 95% interval, over all 1 possible stock orders:" above
    values printed, rightly, without one"""
    f = tmp_path / "pos.txt"
    f.write_text(ONE_ORDER, encoding="utf-8")
    r = run_cli(["hint", "--layout", str(f), "--fair", "--player", "fast"])
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines()[2] == "each legal move's value over the one possible stock order:", r.stdout


@pytest.mark.parametrize("text, words", [
    (ONE_ORDER, "clairvoyant chance: 100.0%  (exact: the one possible stock order can be won with the stock visible"),
    (FEW_ORDERS, "clairvoyant chance: 14.6%  (exact: 7 of all 48 possible stock orders can be won with the stock"),
], ids=["one-order", "48-orders"])
def test_an_exact_clairvoyant_chance_is_shown_without_an_interval(run_cli, tmp_path, text, words):
    """was: 'clairvoyant chance: 14.6% [14.6, 14.6]  (95% interval; 7 of all 48 possible stock
    orders (exact) can be won ...)', a confidence interval for a count of every order (rate
    shows its exact chances without one)"""
    f = tmp_path / "pos.txt"
    f.write_text(text, encoding="utf-8")
    r = run_cli(["odds", "--layout", str(f), "-q"])
    assert r.exit_code == 0, r.stderr
    flat = " ".join(r.stdout.split())
    assert " ".join(words.split()) in flat and "95% interval" not in flat, r.stdout


def test_odds_fair_games_let_the_player_see_the_stock_places_its_layout_declares(run_cli, tmp_path):
    """A partial layout declares the stock places its player knows; hint --fair used them, the
    fair games of odds forgot them at every decision. was: ONE_ORDER (one unknown place, one
    card unseen: nothing hidden) had 'fair chance: 0.0% (exact: the fast fair player ...
    played every one of the 1 possible stock orders and won 0)' beside a clairvoyant 100%
    and a fair hint that valued every move at 100%"""
    import json

    f = tmp_path / "pos.txt"
    f.write_text(ONE_ORDER, encoding="utf-8")
    j = json.loads(run_cli(["odds", "--layout", str(f), "--json"]).stdout)
    assert j["clairvoyant"]["chance"] == 1.0 and j["fair"]["chance"] == 1.0, j["fair"]


def test_the_fair_player_sees_the_places_it_is_told_and_no_others():
    """The library: play(..., seen=) is the stock as the player sees it; a card it is told
    that is not the referee's is refused, and by default it sees none"""
    from golfsolve.cards import parse_card
    from golfsolve.errors import InputError
    from golfsolve.fair import play
    from golfsolve.solitaire.layout import Layout, parse_layout_text

    part = parse_layout_text(ONE_ORDER)
    full = Layout(part.columns, part.discard, (parse_card("7D"),) + part.stock[1:], part.rules)
    assert play(full, player="fast", seen=part.stock).won
    with pytest.raises(InputError, match="seen must be"):
        play(full, player="fast", seen=(parse_card("8D"),) + part.stock[1:])
    with pytest.raises(InputError, match="seen must be"):
        play(full, player="fast", seen=part.stock[:3])
