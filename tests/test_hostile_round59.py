"""Round 59: a hostile user against the day's changes: the ``openers-exact`` and
``openers-up-to`` switches (``danish`` turning exactly its openers, old danish tables read
as ``danish+openers-up-to``), the ``cyclic`` seating scheme's library calls, and the table
options' help.

With 0 openers nothing is turned before play, so ``openers_exact`` cannot change the game:
parse_rules refuses either switch there, yet ``danish --openers 0`` recorded
``openers_exact`` true while every ``danish --openers 0`` table recorded before the field
existed reads it as false, which only ``danish+openers-up-to`` (refused) could name.
"""

from __future__ import annotations

import json

import pytest

from run_helpers import as_before_setting, made_here

from golfsolve.errors import InputError
from golfsolve.grid.rules import _SWITCHES, PRESETS, GridRules, parse_rules

#: the fields ``danish`` sets, as a table written before ``openers_exact`` existed holds them
_OLD_DANISH = {k: v for k, v in PRESETS["danish"].items() if k != "openers_exact"}


def test_a_table_with_no_openers_has_one_spec_that_parses_back():
    """was: ``GridRules`` with 0 openers kept ``openers_exact`` either way, so the same game was
    two tables (danish --openers 0 true, the same table recorded before the field false), and
    ``spec()`` named one of them ``danish+openers-up-to`` (or ``default+openers-exact``), which
    ``parse_rules(spec())`` refused: "grid rule 'openers-up-to' changes nothing with 0 openers"."""
    for grid in (4, 6, 8, 9):
        for players in (2, 5, 6):
            for base in ({}, _OLD_DANISH):
                for exact in (False, True):
                    r = GridRules(**base, players=players, grid=grid, openers=0, openers_exact=exact)
                    assert not r.openers_exact and "openers_exact" not in r.to_dict()
                    assert parse_rules(r.spec(), players=players, grid=grid, openers=0, holes=r.holes) == r
                    assert GridRules(**r.to_dict()) == r
                    assert r.spec() == ("danish" if base else "default")
    assert parse_rules("danish", openers=0) == GridRules(**_OLD_DANISH, openers=0)


def _old_danish_run(out, openers: int):
    """A two-player danish run as golfsolve wrote it before ``openers_exact`` existed."""
    made_here("grid", "simulate", "--rules", "danish", "--openers", str(openers), "--bots", "random,random",
              "--holes", "1", "--matches", "2", "--jobs", "1", "--out", str(out), "-q")
    if "openers_exact" in json.loads((out / "_manifest.json").read_text())["params"]["table"]:
        as_before_setting(out, "openers_exact", key="table", chunks=True)
    return out


def test_an_old_danish_run_with_no_openers_goes_on_when_its_table_is_named(run_cli, tmp_path):
    """was: extending it while repeating any table option (``--players 2``) was refused with
    "grid rule 'openers-up-to' changes nothing with 0 openers" (the run's own rules were read
    back through ``danish+openers-up-to``), ``--rules danish --openers 0`` was refused as
    another table (``table.openers_exact``), and the run's command and report named it
    ``danish+openers-up-to``, a spec golfsolve refuses with ``--openers 0``."""
    out = _old_danish_run(tmp_path / "run", 0)
    r = run_cli(["grid", "simulate", "--out", str(out), "--extend", "--matches", "3", "--players", "2", "-q"])
    assert r.exit_code == 0, r.stderr
    r = run_cli(["grid", "simulate", "--out", str(out), "--extend", "--matches", "4", "--rules", "danish",
                 "--openers", "0", "-q"])
    assert r.exit_code == 0, r.stderr
    data = json.loads(run_cli(["grid", "report", str(out), "--json"]).stdout)
    assert data["meta"]["rules_spec"] == "danish" and data["meta"]["matches"] == 4
    commands = [i["command"] for i in json.loads((out / "_manifest.json").read_text())["invocations"]]
    assert all("openers-up-to" not in c for c in commands), commands
    # a new danish run with 0 openers is that same table: the same key as the old run's
    made_here("grid", "simulate", "--rules", "danish", "--openers", "0", "--bots", "random,random",
              "--holes", "1", "--matches", "2", "--jobs", "1", "--out", str(tmp_path / "new"), "-q")
    assert json.loads((tmp_path / "new" / "_manifest.json").read_text())["params"]["table"] == \
        json.loads((out / "_manifest.json").read_text())["params"]["table"]
    # with two openers the old run let a player stop early: still another table than danish's
    two = _old_danish_run(tmp_path / "two", 2)
    r = run_cli(["grid", "simulate", "--out", str(two), "--extend", "--matches", "3", "--rules", "danish", "-q"])
    assert r.exit_code == 2 and "openers_exact" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = run_cli(["grid", "simulate", "--out", str(two), "--extend", "--matches", "3", "--players", "2", "-q"])
    assert r.exit_code == 0, r.stderr
    assert json.loads(run_cli(["grid", "report", str(two), "--json"]).stdout)["meta"]["rules_spec"] == \
        "danish+openers-up-to"


def test_the_openspiel_game_of_a_table_with_no_openers_loads_back():
    """was: the game made from an old danish table with 0 openers was named
    ``...rules=danish+openers-up-to`` and ``pyspiel.load_game`` of its own string refused it."""
    pyspiel = pytest.importorskip("pyspiel")
    from golfsolve.grid.spiel import GridGolfGame

    for rules in (GridRules(**_OLD_DANISH, players=2, openers=0), GridRules(players=3, openers=0, openers_exact=True)):
        game = GridGolfGame(rules=rules)
        assert "openers-" not in str(game)
        assert pyspiel.load_game(str(game)).rules == rules


@pytest.mark.parametrize("command", [["grid", "simulate"], ["grid", "play"]])
def test_the_rules_help_names_every_switch(run_cli, command):
    """was: ``--rules``'s help listed every switch but +openers-exact and +openers-up-to, the
    only way to play the default's openers under danish or danish's under default."""
    text = "".join(run_cli(command + ["--help"]).stdout.split())  # as wrapped, '+by-' ending a line
    for name in _SWITCHES:
        assert f"+{name}" in text, name


@pytest.mark.parametrize("call", ["seating_orders", "cyclic_orders"])
def test_the_seating_orders_refuse_a_list_in_one_line(call):
    """was: ``seating_orders([6])`` (and ``cyclic_orders([3])``) failed in their cache as
    "TypeError: unhashable type: 'list'", naming neither the argument nor what it should be."""
    from golfsolve.grid import tournament

    for bad in ([6], {"n": 6}):
        with pytest.raises(InputError, match="n must be a whole number"):
            getattr(tournament, call)(bad)
    assert len(tournament.seating_orders(6)) == 10 and len(tournament.cyclic_orders(4)) == 6


def test_the_opener_prompt_gives_an_example_of_the_allowance(run_cli):
    """was: with one opener the prompt read "Turn up to 1 of your cards (slot numbers, e.g.
    '1 2')", an example of an answer it refuses."""
    r = run_cli(["grid", "play", "--players", "2", "--grid", "4", "--holes", "1", "--openers", "1",
                 "--bots", "heuristic"], input="1\nq\n")
    assert "Turn up to 1 of your cards (slot numbers, e.g. '1'; 'done' turns none): 1\n" in r.stdout


def test_a_grid_run_whose_manifest_lost_its_seating_is_called_edited_not_a_rotation_run(run_cli, tmp_path):
    """was: ``--extend`` on a run whose manifest had ``params.seating`` deleted by hand said it
    "was made with the 'rotation' seating", which it never was; its chunks record the scheme
    they were played with, and now say the manifest was edited, as ``grid report`` does."""
    out = tmp_path / "run"
    args = ["grid", "simulate", "--players", "2", "--bots", "greedy,random", "--holes", "1", "-q", "--out", str(out)]
    assert run_cli(args + ["--matches", "2"]).exit_code == 0
    path = out / "_manifest.json"
    m = json.loads(path.read_text())
    del m["params"]["seating"]
    path.write_text(json.dumps(m))
    r = run_cli(["grid", "simulate", "--out", str(out), "--extend", "--matches", "3", "-q"])
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "the manifest was edited" in r.stderr and "rotation" not in r.stderr
