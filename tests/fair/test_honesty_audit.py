"""Honesty audit of Golf solitaire: probes the other honesty tests leave out.

* A shared solver whose searches of the real deal stopped at node limits (the peeking hint's
  and solve's ``node_limit``, which the server's workers take between fair requests): the
  twin's fair hint, odds and rating are a fresh solver's.
* Whole processes: the fair answers of a twin asked in a fresh process, and in a process
  that first answered a worker's worth of other questions about the real deal and others
  (solver tables, the compiled expectimax kept per thread, the order searches' work
  tables), under other hash seeds (``PYTHONHASHSEED``), are byte for byte the same.
* The command line as a script uses it: twins piped to ``--layout -`` (so no name tells
  them apart), each in its own process, print the same text but for the CPU seconds and
  the rating's winnability, after moves with draws, removes and an undo too.
* Mid-game layouts (the cards played under the top shown nowhere): twins whose stocks hold
  other cards (a joker or a card in its place), not only another order.
* A partial layout naming the next two stock cards, and its deal after ``d d u u``.
* Odds deep in random games, under the rule switches the other random twins leave out.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from golfsolve.fair import PlayerSettings, fair_hint, fair_hint_for_player, odds, odds_for_player, player_view, rate
from golfsolve.solitaire.answers import peeking_hint_answer
from golfsolve.solitaire.engine import Game
from golfsolve.solitaire.layout import Layout, layout_from_number
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import Solver

from fair_helpers import mid_game, other_contents
from test_fair_honesty import reshuffled, strip
from hostile_helpers import ROOT


def _answers(lay: Layout, moves: list[str], rules, solver: Solver) -> list:
    """The fair hint after ``moves``, and at the opening the odds and the rating's fair part."""
    tiny = PlayerSettings(samples=3, extra=1)
    game = Game(lay, rules)
    for m in moves:
        assert game.play(m).ok
    out = [strip(fair_hint_for_player(lay, game, seed=2, player=tiny, solver=solver).as_json())]
    if not moves:
        rating = rate(lay, rules, games=2, seed=1, solver=solver, player=tiny).as_json()
        rating.pop("winnable")
        out += [strip(odds(lay, rules, samples=8, games=2, seed=1, solver=solver, player=tiny).as_json()),
                strip(rating)]
    return out


@pytest.mark.parametrize("spec, number, moves", [("strict", 11, []), ("easy", 12, ["d"]), ("classic", 10, [])])
def test_a_solver_whose_searches_of_the_real_deal_stopped_at_node_limits_keeps_nothing(spec, number, moves):
    """A worker's solver after solves and peeking hints of the real deal stopped at node limits
    (searches cut off half-way, the strict rules' level search and the others' hunt): the
    twin's fair answers are those of a fresh solver. A table an aborted search left filled
    would show as other node counts, solves or verdicts."""
    rules = get_rules(spec)
    real = layout_from_number(number, rules)
    twin = reshuffled(real, len(moves), number)
    fresh = _answers(twin, moves, rules, Solver())
    for limit in (1, 40, 2_000):
        shared = Solver()
        shared.solve(real, rules, node_limit=limit)
        shared.solve(real, rules, node_limit=limit, verdict_only=True)
        peeking_hint_answer(real, " ".join(moves), limit, shared)
        assert _answers(twin, moves, rules, shared) == fresh, (spec, limit)


#: What a process asks (its first argument "busy": after a worker's worth of other questions):
#: the server's jobs about twin ``sys.argv[2]`` of GO1 deal 9 under Classic, as JSON.
_ASK = r"""
import json, sys
sys.path.insert(0, sys.argv[3])
from test_fair_honesty import reshuffled
from golfsolve.serve import jobs
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import get_rules

classic = get_rules("classic")
real = layout_from_number(9, classic, "C")
if sys.argv[1] == "busy":
    for n in (9, 4):
        other = layout_from_number(n, classic, "C")
        jobs.solve(other, node_limit=50)
        jobs.hint(other, "d d", node_limit=30)
        jobs.hint(other, "d")
        jobs.fair_hint(other, "d", seed=5, player="strong")
        jobs.odds(other, "d d", samples=10, games=2, player="strong")
        jobs.rate(other, games=2, seed=4, player="fast")
lay = reshuffled(real, 2, int(sys.argv[2]))
out = [jobs.fair_hint(lay, "d 1 d u d", seed=1, player="strong"), jobs.fair_hint(lay, "d", seed=3, player="fast"),
       jobs.odds(lay, "d d", samples=30, games=3, seed=2, player="fast"), jobs.rate(lay, games=3, seed=2)[0]]
for o in out:
    for k in ("seconds", "cpu_seconds", "winnable"):
        o.pop(k, None)
print(json.dumps(out, sort_keys=True))
"""


def _ask(*args: str, hash_seed: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": hash_seed}
    r = subprocess.run([sys.executable, "-c", _ASK, *args, str(ROOT / "tests" / "fair")], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_a_fresh_process_and_a_busy_one_give_twins_byte_identical_fair_answers():
    """The server's jobs (fair hint, odds, rating) about two twins, asked in fresh processes
    and in processes that first answered other questions about the real deal and another
    (node-limited solves and peeking hints, fair answers of both presets), under four hash
    seeds: one output, byte for byte, but for the time each took and the rating's winnability."""
    outs = {_ask("fresh", "7", hash_seed="0"), _ask("busy", "7", hash_seed="1"),
            _ask("fresh", "8", hash_seed="2"), _ask("busy", "8", hash_seed="3")}
    assert len(outs) == 1
    (out,) = outs
    assert [a["moves_played"] for a in json.loads(out)[:3]] == ["d 1 d u d", "d", "d d"]


def _cli(args: list[str], layout: Layout, hash_seed: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": hash_seed}
    r = subprocess.run([sys.executable, "-m", "golfsolve", *args, "--layout", "-"], input=layout.to_text(),
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    # the rating's winnability is the real stock's: the one word allowed to differ
    return re.sub(r"\b(not )?winnable +", "WINNABLE ", re.sub(r"[\d.]+ s of CPU", "", r.stdout))


@pytest.mark.parametrize("spec, number, moves, keep", [("easy+jokers2", 6, "", 0), ("classic", 9, "d 1 d u d", 2)])
def test_cli_text_of_twins_piped_in_is_the_same_in_separate_processes(spec, number, moves, keep):
    """``hint --fair`` (both presets), ``odds`` and ``rate`` on twin layouts piped to
    ``--layout -``, each command in a process of its own with its own hash seed: the same
    stdout, but for the CPU seconds and, in the rating, whether the real stock can be won."""
    rules = get_rules(spec)
    real = layout_from_number(number, rules)
    real = Layout(real.columns, real.discard, real.stock, rules)  # no name: piped in, each is "stdin"
    twins = [real, reshuffled(real, keep, 3)]
    commands = [["hint", "--fair", "--player", "fast", "--all"], ["hint", "--fair", "--player", "strong", "--seed", "4"],
                ["odds", "--samples", "12", "--games", "2", "--seed", "5"]]
    if moves:
        commands = [c + ["--moves", moves] for c in commands]
    else:
        commands.append(["rate", "--games", "2", "--seed", "6"])
    for cmd in commands:
        a, b = (_cli(cmd, t, str(k)) for k, t in enumerate(twins))
        assert a == b, cmd


JOKERS2 = get_rules("easy+jokers2")


#: GO1 deal 0 under easy+jokers2 shows the first joker in column 1 and has the second on top
#: of its stock: after the draw it takes anything and anything takes it, so these lines reach
#: one table, discard top and stock with the cards under the top in four orders
LINES = ["d 1 3 d d", "d 3 1 d d", "d 3 d 1 d", "d d 1 3 d"]


def _without(answer: dict, *keys: str) -> dict:
    return {k: v for k, v in answer.items() if k not in keys}


def test_the_exact_fair_and_clairvoyant_values_forget_a_whole_stock_order_as_every_fair_answer_does():
    """was: ``fair_value`` (documented as the win chance of the best player who cannot see the
    stock), the compiled one and ``clairvoyant_value`` (over every possible stock order) took a
    code's or full layout's stock order as seen: an endgame whose 6 stock cards are the only
    unseen ones was worth 1.0 with its own order and 0.0 with another, where the fair hint and
    odds answer 2/3 and 41/60 for both. Now they forget it as those do (``seen``: the first
    cards the player has seen; all of them is the peeking value, which stays at hand)."""

    from golfsolve.cards import parse_card
    from golfsolve.fair.exact import CompiledExpectimax, clairvoyant_value, fair_value

    from fair_helpers import ENDGAME, endgame

    real, played = endgame(ENDGAME)
    twin = Layout(real.columns, real.discard, tuple(parse_card(c) for c in "3S TD 5S JH QD JS".split()), real.rules)
    assert sorted(twin.stock) == sorted(real.stock) and twin.stock != real.stock
    rules, n = real.rules, len(real.stock)
    assert [fair_value(lay, rules, played, seen=n).value for lay in (real, twin)] == [1.0, 0.0]  # peeking
    for lay in (real, twin):
        assert fair_value(lay, rules, played).value == pytest.approx(2 / 3)
        assert fair_value(lay, rules, played).moves == fair_value(real.forget_stock(0), rules, played).moves
        assert CompiledExpectimax(rules, 1 << 16).fair_value(lay, played, 20_000).value == pytest.approx(2 / 3)
        assert clairvoyant_value(lay, rules, played).value == pytest.approx(41 / 60)
    # the first card seen (turned and put back by undo): the orders that start with it only
    firsts = [fair_value(lay, rules, played, seen=1).value for lay in (real, twin)]
    assert firsts[0] == fair_value(real.forget_stock(1), rules, played).value and firsts[1] == firsts[0]


def test_one_position_reached_by_lines_that_stack_the_discard_pile_otherwise_gets_one_fair_answer():
    """Probe (no leak found): the fair hint and odds of a position are a function of what the
    player sees there (the table, the top, the turned cards and which cards lie under the
    top), not of the line that reached it. The player names cards by rank in the order they
    lie under the top, and carries its sampled orders from decision to decision, so an order
    of the pile that reached a seed, a name or a carried order would show here."""
    lay = layout_from_number(0, JOKERS2)
    tiny = PlayerSettings(samples=4, extra=2, carry=True, by_rank=True)
    views, piles, answers = set(), set(), []
    for line in LINES:
        game = Game(lay, JOKERS2)
        for m in line.split():
            assert game.play(m).ok
        view, played = player_view(lay, game)
        views.add((view, frozenset(played)))
        piles.add(played)
        answers.append((_without(fair_hint_for_player(lay, game, seed=1, player=tiny).as_json(), "seconds"),
                        _without(odds_for_player(lay, samples=6, games=1, seed=1, player=tiny, moves=line).as_json(),
                                 "seconds", "cpu_seconds", "moves_played")))
    assert len(views) == 1 and len(piles) == len(LINES)  # one position, four orders under its top
    assert all(a == answers[0] for a in answers[1:])
    assert answers[0][0]["method"] == "sampled" and answers[0][1]["fair"]["games"] == 1


def _jokers_swapped(lay: Layout) -> Layout:
    def swap(c):
        return {52: 53, 53: 52}.get(c, c)

    return Layout(tuple(tuple(map(swap, col)) for col in lay.columns), swap(lay.discard),
                  tuple(map(swap, lay.stock)), lay.rules)


@pytest.mark.parametrize("cmd", [["hint", "--fair", "--player", "fast", "--moves", "d"],
                                 ["odds", "--samples", "6", "--games", "2"],
                                 ["rate", "--games", "2"]], ids=["hint", "odds", "rate"])
def test_cli_twins_that_swap_which_joker_is_hidden_get_one_fair_answer(cmd, run_cli, tmp_path):
    """Probe (no leak found): the two jokers look alike, so a layout with JK in column 1 and JK2
    on top of the stock, and its twin with JK2 in column 1 and JK in the stock, are one
    position to a player (after a draw, one joker on the table and one on the discard in
    both). ``--json`` of each fair command gives one answer, but for the jokers' names, the
    time and the real stock's winnability; a card id used to sample, break a tie or seed the
    player would show here."""
    real = layout_from_number(0, JOKERS2)
    assert 52 in real.columns[0] and real.stock[0] == 53
    outs = []
    for i, lay in enumerate((real, _jokers_swapped(real))):
        f = tmp_path / f"twin{i}.txt"
        f.write_text(lay.to_text(), encoding="utf-8")
        r = run_cli([cmd[0], "--layout", str(f), *cmd[1:], "--json"])
        assert r.exit_code == 0, r.stderr
        out = json.loads(r.stdout.replace('"JK2"', '"JK"'))
        outs.append([_without(o, "deal", "code", "seconds", "cpu_seconds", "winnable")
                     for o in (out if isinstance(out, list) else [out])])
    assert outs[0] == outs[1]


# -- mid-game layouts: the stock's cards, not only its order, are hidden --------------------------

#: three or more legal moves each; a joker in the stock (classic+jokers1), and one played (easy+jokers2)
MID_GAME = [("easy", 0, 12), ("classic+jokers1", 2, 13), ("easy+jokers2", 0, 13), ("strict+empty", 0, 17)]


@pytest.mark.parametrize("spec, number, moves", MID_GAME)
def test_mid_game_layouts_whose_stocks_hold_other_unseen_cards_get_one_fair_answer(spec, number, moves):
    """Probe (no leak found): a layout of a game in progress shows the table and the discard's
    top; the cards played under the top are not on it, so which of the cards it does not show
    are in the stock is hidden too, not only their order. Twins whose stocks hold other such
    cards (a joker or a card in its place, under jokers) get the same fair hint (a small player
    and fast), odds and rating's fair part; the real one is asked with a solver that has
    solved it and peeked at it. The other twin probes only reorder one stock."""
    real = mid_game(spec, number, moves)
    twin = other_contents(real, number)
    rules = real.rules
    assert real.unseen_cards(rules.jokers)  # cards played under the top are hidden
    tiny = PlayerSettings(samples=3, extra=1)

    def answers(lay: Layout, solver: Solver) -> list:
        out = [strip(fair_hint(lay, rules, seed=3, solver=solver, player=p).as_json()) for p in (tiny, "fast")]
        rating = rate(lay, rules, games=2, seed=1, solver=solver, player=tiny).as_json()
        rating.pop("winnable")
        return out + [strip(odds(lay, rules, samples=10, games=2, seed=1, solver=solver, player=tiny).as_json()),
                      strip(rating)]

    shared = Solver()
    shared.solve(real, rules)
    peeking_hint_answer(real, "", 0, shared)
    got = answers(real, shared)
    assert got == answers(twin, Solver())
    assert got[0]["method"] == "sampled" and got[2]["unknown_stock_cards"] == len(real.stock)


@pytest.mark.parametrize("spec, number, moves", MID_GAME[:2])
def test_cli_mid_game_layout_files_whose_stocks_hold_other_unseen_cards_answer_alike(spec, number, moves, run_cli,
                                                                                      tmp_path):
    """The same twins as layout files on the command line: ``hint --fair`` (text, every move's
    plan), ``odds`` and ``rate`` (JSON) answer alike, but for the files' names and the real
    stock's winnability."""
    real = mid_game(spec, number, moves)
    files = []
    for i, lay in enumerate((real, other_contents(real, number + 1))):
        files.append(tmp_path / f"mid{i}.txt")
        files[-1].write_text(lay.to_text(), encoding="utf-8")
    for cmd in (["hint", "--fair", "--player", "fast", "--all"], ["odds", "--samples", "10", "--games", "2", "--json"],
                ["rate", "--games", "2", "--json"]):
        outs = []
        for f in files:
            r = run_cli([cmd[0], "--layout", str(f), *cmd[1:]])
            assert r.exit_code == 0, r.stderr
            if "--json" in cmd:
                out = json.loads(r.stdout)
                outs.append([_without(o, "deal", "code", "seconds", "cpu_seconds", "winnable")
                             for o in (out if isinstance(out, list) else [out])])
            else:
                outs.append(r.stdout)
        assert outs[0] == outs[1], cmd


def test_a_partial_layout_naming_the_next_cards_is_the_deal_after_they_were_turned_and_put_back(run_cli, tmp_path):
    """Probe (no leak found): a partial layout that names the stock's first two cards (``stock:
    6H QS ...``) and its deal after ``d d u u`` (the two cards turned and put back by undo) show
    a player the same: the table, the discard and the next two cards. The fair hint (both
    presets, every move's plan) and odds answer alike, from the library and the command line,
    but for the moves played; the next card is named on the draw's line."""
    from golfsolve.cards import card_str

    real = layout_from_number(1, get_rules("easy"), "E")
    shown = " ".join(card_str(c) for c in real.stock[:2])
    text = real.to_text().replace(" ".join(card_str(c) for c in real.stock), shown + " ...")
    partial = tmp_path / "partial.txt"
    partial.write_text(text, encoding="utf-8")
    game = Game(real, real.rules)
    for m in "d d u u".split():
        assert game.play(m).ok
    assert player_view(real, game)[0].stock[:3] == real.stock[:2] + (None,)
    tiny = PlayerSettings(samples=3, extra=1)
    from golfsolve.solitaire.layout import read_layout_file

    lay = read_layout_file(partial)
    assert _without(fair_hint_for_player(real, game, seed=2, player=tiny).as_json(), "deal", "seconds") == \
        _without(fair_hint(lay, seed=2, player=tiny).as_json(), "deal", "seconds")
    assert _without(odds_for_player(real, samples=8, games=2, seed=2, player=tiny, moves="d d u u").as_json(),
                    "deal", "seconds", "cpu_seconds", "moves_played") == \
        _without(odds(lay, samples=8, games=2, seed=2, player=tiny).as_json(), "deal", "seconds", "cpu_seconds",
                 "moves_played")
    for cmd in (["hint", "--fair", "--player", "fast", "--all"], ["hint", "--fair", "--player", "strong", "--json"],
                ["odds", "--samples", "12", "--games", "2", "--json"]):
        a = run_cli([cmd[0], "GO1-E-AAAAAAB", "--moves", "d d u u", *cmd[1:]])
        b = run_cli([cmd[0], "--layout", str(partial), *cmd[1:]])
        assert a.exit_code == b.exit_code == 0, a.stderr + b.stderr
        if "--json" in cmd:
            assert _without(json.loads(a.stdout), "deal", "seconds", "cpu_seconds", "moves_played") == \
                _without(json.loads(b.stdout), "deal", "seconds", "cpu_seconds", "moves_played"), cmd
        else:
            assert a.stdout == b.stdout and f"d   {card_str(real.stock[0], True)}" in a.stdout, cmd


#: the rule switches test_fair_honesty's random twins leave out
OTHER_SPECS = ["easy+nowrap", "classic+king-neighbours", "easy+king-nothing+jokers1", "strict+jokers2+empty",
               "dead-king+anytime+wrap"]


@pytest.mark.parametrize("spec", OTHER_SPECS)
def test_random_twins_deep_in_games_get_the_same_odds_under_the_other_rule_switches(spec):
    """Probe (no leak found): random positions deep in random games (draws, removes, undos),
    each with a twin whose stock differs only in cards never turned, under the rule switches
    the random twins of test_fair_honesty.py leave out: the same fair hint and the same odds
    from the position (that test asks odds at openings only), with a small player, one that
    carries its orders and names cards by rank, and one that races; the real deal asked with
    a solver that has solved it, its twin with a fresh one."""
    import random

    from test_fair_honesty import _random_position, position_after_moves

    rules = get_rules(spec)
    rng = random.Random(spec)
    players = [PlayerSettings(samples=3, extra=1, exact_unknown=4),
               PlayerSettings(samples=2, extra=2, exact_unknown=5, compiled_exact=True, carry=True, by_rank=True),
               PlayerSettings(samples=4, extra=0, race_budget=8, race_batch=2, race_width=3, card_cost=0.02,
                              hopeless=8)]
    checked = deep = 0
    while checked < 6:
        real, moves, turned = _random_position(rules, rng)
        if len(set(real.stock[turned:])) < 2 or Game(real, rules).over or \
                position_after_moves(real, moves, rules).over or (not moves and checked - deep >= 2):
            continue
        twin = reshuffled(real, turned, checked)
        player, seed = players[checked % 3], rng.randrange(9)
        outs = []
        for lay, solver in ((real, Solver()), (twin, Solver())):
            if lay is real:
                solver.solve(real, rules)
            game = position_after_moves(lay, moves, rules)
            outs.append([strip(fair_hint_for_player(lay, game, seed=seed, player=player, solver=solver).as_json()),
                         strip(odds_for_player(lay, samples=5 + seed, seed=seed, games=1 + seed % 3, player=player,
                                               solver=solver, moves=moves).as_json())])
        assert outs[0] == outs[1], (spec, moves, turned, player)
        checked += 1
        deep += bool(moves)
    assert deep >= 4
