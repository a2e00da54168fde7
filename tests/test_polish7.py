"""Small user-facing flaws a hostile-user round noticed (tests/test_hostile_round7.py): each
test asserts what the user is shown now."""

from __future__ import annotations

import pytest

# a winning line of GO1-E-AAAAAAB (golfsolve solve GO1-E-AAAAAAB)
WIN = "1 1 5 d 4 3 6 2 d 2 7 d 5 3 1 4 d d 7 3 7 2 4 4 1 1 4 2 6 3 d 5 6 5 d 7 6 3 6 d d d d 2 5 d 7"


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


@pytest.mark.parametrize("rules", ["easy+jokers1", "classic+jokers2"])
def test_the_api_names_its_own_parameters_for_a_pysol_deal_under_rules_with_jokers(client, rules):
    """was: 'PySol FC's Golf deals have no jokers: --rules easy+jokers1 needs a deal code or a
    layout file', the CLI's option and file to an HTTP client that has neither"""
    r = client.post("/api/deal", json={"pysol": 3, "rules": rules})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == (f"PySol FC's Golf deals have no jokers: rules {rules} needs code (a deal code) "
                                 "or layout (a layout's text)")


def test_grid_simulate_resumed_with_other_matches_names_matches_not_count(run_cli, tmp_path):
    """was: '--resume: DIR holds a different run (...); this command differs in count 2 (here 3)',
    the run key's internal name for what the user gave as --matches"""
    out = tmp_path / "run"
    base = ["grid", "simulate", "--out", str(out), "--bots", "greedy,random", "--holes", "1", "-q"]
    assert run_cli([*base, "--matches", "2"]).exit_code == 0
    r = run_cli([*base, "--matches", "3", "--resume"])
    assert r.exit_code == 2 and r.stdout == "", r.stderr
    assert "; this command differs in matches 2 (here 3); repeat the run's options" in r.stderr, r.stderr
    assert "count" not in r.stderr


@pytest.mark.parametrize("again, differs", [
    (["--matches", "2"], "matches 1 (here 2)"),
    (["--sets", "base,putt"], "sets base (here base,putt)"),
    (["--matches", "2", "--seed", "3"], "matches 1 (here 2), seed 0 (here 3)"),
])
def test_grid_study_resumed_with_other_options_names_only_the_options(run_cli, tmp_path, again, differs):
    """was: 'this command differs in count 2 (here 4), matches 1 (here 2)': the study's matches
    in all, which follow from --matches and --sets, under the run key's internal name"""
    out = tmp_path / "study"
    base = ["grid", "study", "--out", str(out), "--strong", "greedy", "-q"]
    assert run_cli([*base, "--sets", "base", "--matches", "1"]).exit_code == 0
    r = run_cli([*base, "--resume", *again])
    assert r.exit_code == 2 and r.stdout == "", r.stderr
    assert f"; this command differs in {differs}; repeat the run's options" in r.stderr, r.stderr
    assert "count" not in r.stderr


def test_differences_names_each_field_as_its_kind_names_it():
    """The library: a field may be shown by the option's name, or, following from the others,
    named only when nothing else says why"""
    from golfsolve.stats.runfolder import RunKey, differences

    old = RunKey("golfsolve-grid-study/1", 0, 2, (), 1, (("matches", 1), ("seed", 0)))
    new = RunKey("golfsolve-grid-study/1", 0, 4, (), 1, (("matches", 2), ("seed", 0)))
    assert differences(old, new, names={"count": None}) == "matches 1 (here 2)"
    assert differences(old, new, names={"count": "matches in all"}) == "matches in all 2 (here 4), matches 1 (here 2)"
    alone = RunKey("golfsolve-grid-study/1", 0, 4, (), 1, old.params)
    assert differences(old, alone, names={"count": None}) == "count 2 (here 4)"


def test_a_refused_draw_names_the_rule_that_refuses_it_under_any_rule_set():
    """Classic and Easy with ``+stuck`` refuse a draw while a card can go, as Strict does; the
    message named "the strict rule" though the rule set is not Strict."""
    from golfsolve.solitaire.engine import Game
    from golfsolve.solitaire.layout import layout_from_number
    from golfsolve.solitaire.rules import get_rules

    for name in ("classic+stuck", "easy+stuck", "strict"):
        rules = get_rules(name)
        game = next(g for g in (Game(layout_from_number(n, rules), rules) for n in range(50))
                    if any(m != "d" for m in g.legal_moves()))
        res = game.play("d")
        assert not res.ok and res.message.startswith("You may draw only when no card can be removed")
        assert ("strict" in res.message) == (name == "strict"), res.message
