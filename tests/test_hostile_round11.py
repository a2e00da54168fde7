"""Hostile-user sweep, round 11: the flaws rounds 8-10 found and left, each fixed with a test
that fails without its fix. Fast: nothing here solves more than one small position."""

from __future__ import annotations

import os
import subprocess
import sys
from types import MappingProxyType

import pytest

from hostile_helpers import ROOT

WON = "discard: KC\nstock: 2C 3C\n" + "".join(f"{c}:\n" for c in range(1, 8))
LOCKED = "discard: KC\nstock:\n1: 5C\n" + "".join(f"{c}:\n" for c in range(2, 8))


@pytest.mark.parametrize("text, chance, message", [
    (WON, 1.0, "the game is already over: You won! Score 350"),
    (LOCKED, 0.0, "the game is already over: No more possible moves"),
])
def test_rate_of_a_finished_opening_is_exact_as_odds_says_it(text, chance, message, tmp_path, run_cli):
    """rate on a won layout said "100.0% [81, 100] (16/16)", an estimate of a chance that is
    exactly 100% (odds: "exact: the game is won"), and a locked one "0.0% [0, 19]" """
    f = tmp_path / "end.txt"
    f.write_text(text)
    r = run_cli(["rate", "--layout", str(f)])
    assert r.exit_code == 0, r.stderr
    assert f"{100 * chance:5.1f}% exact ({message})" in r.stdout, r.stdout
    assert "[" not in r.stdout.split("fair chance")[1], r.stdout  # no interval: nothing was sampled
    from golfsolve.fair import rate
    from golfsolve.solitaire.layout import parse_layout_text

    got = rate(parse_layout_text(text))
    assert (got.fair_chance, got.interval, got.exact, got.over) == (chance, (chance, chance), True, message)
    assert got.as_json()["game_over"] is True and got.as_json()["message"] == message


def test_a_cors_preflight_for_a_path_that_is_no_endpoint_is_not_approved():
    """with --cors, OPTIONS /api/nope from the allowed origin answered 200 with the CORS headers,
    approving a call to an endpoint that does not exist (a GET there is a 404)"""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from golfsolve.serve.app import create_app

    ask = {"Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST"}
    with TestClient(create_app(workers=1, warm=False, cors="http://localhost:3000")) as c:
        r = c.options("/api/nope", headers=ask)
        assert r.status_code == 404 and r.json() == {"error": "no such page or endpoint: '/api/nope'"}
        assert "access-control-allow-origin" not in r.headers
        for path in ("/api/solve", "/api/health"):  # the endpoints are still approved
            r = c.options(path, headers=ask)
            assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "http://localhost:3000"


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


def test_the_presets_cannot_be_changed_by_a_caller():
    """golfsolve.fair.PRESETS["strong"] = PRESETS["fast"] was taken, and every later fair-stats
    run of this process recorded "strong" with fast's settings; the rule and grid presets alike"""
    from golfsolve.fair import PRESETS as FAIR
    from golfsolve.grid.rules import PRESETS as GRID
    from golfsolve.solitaire.rules import PRESETS as RULES

    for presets in (FAIR, RULES, GRID, GRID["danish"]):
        assert isinstance(presets, MappingProxyType)
        with pytest.raises(TypeError):
            presets["strong"] = None
    assert FAIR["strong"].samples == 16 and RULES["wrap"] is RULES["easy"] and GRID["seed003"] == GRID["danish"]


def test_a_stock_card_turned_and_put_back_by_undo_stays_known_to_the_fair_answers():
    """after --moves "d u" the fair answers forgot the card the player had just seen (odds said
    16 unknown stock cards, and the fair hint valued a draw of it as a draw of any unseen card);
    twins that differ only beyond the seen card still get the same answer"""
    from golfsolve.fair import fair_hint_for_player, player_view
    from golfsolve.fair.odds import odds_for_player
    from golfsolve.solitaire.hint import position_after
    from golfsolve.solitaire.layout import layout_from_code, trusted_layout

    lay = layout_from_code("GO1-E-AAAAAAB")
    game = position_after(lay, ["d", "u"])
    assert game.seen_stock == 1 and position_after(lay, ["d", "u", "d"]).seen_stock == 0
    view, played = player_view(lay, game)
    assert view.stock[0] == lay.stock[0] and set(view.stock[1:]) == {None} and played == ()
    twin = trusted_layout(lay.columns, lay.discard, lay.stock[:1] + lay.stock[:0:-1], lay.rules, lay.name)
    answers = []
    for deal in (lay, twin):
        hint = fair_hint_for_player(deal, position_after(deal, ["d", "u"]), player="fast").as_json()
        chance = odds_for_player(deal, samples=20, games=4, moves="d u").as_json()
        for j in (hint, chance):
            for k in [k for k in j if "cpu" in k or "seconds" in k]:
                del j[k]
        answers.append((hint, chance))
    assert answers[0] == answers[1]
    assert answers[0][1]["unknown_stock_cards"] == 15, answers[0][1]


def test_report_of_a_fair_stats_or_grid_folder_names_the_command_that_reports_it(tmp_path, run_cli):
    """golfsolve report FAIR_DIR said only "holds a 'golfsolve fair-stats' run, not a 'golfsolve
    stats' run; choose another directory", not that such a run joins a stats run's report with
    --fair; a grid run's folder likewise, not that grid report reports it"""
    fair, grid = tmp_path / "fair", tmp_path / "grid"
    assert run_cli(["fair-stats", "--count", "1", "--rules", "classic", "--out", str(fair), "-q"]).exit_code == 0
    assert run_cli(["grid", "simulate", "--bots", "greedy,random", "--holes", "1", "--matches", "2",
                    "--out", str(grid), "-q"]).exit_code == 0
    from hostile_helpers import one_line_error

    assert one_line_error(run_cli(["report", str(fair)])) == (
        f"golfsolve: {fair} holds a 'golfsolve fair-stats' run: its table joins the report of a stats run, as in "
        f"golfsolve report STATS_DIR --fair {fair}")
    assert one_line_error(run_cli(["report", str(grid)])) == (
        f"golfsolve: {grid} holds a 'golfsolve grid simulate' run: golfsolve grid report {grid} reports it")
    assert not (fair / "_report").exists() and not (grid / "_report").exists()
