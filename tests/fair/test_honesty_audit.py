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
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from golfsolve.fair import PlayerSettings, fair_hint_for_player, odds, odds_for_player, player_view, rate
from golfsolve.solitaire.answers import peeking_hint_answer
from golfsolve.solitaire.engine import Game
from golfsolve.solitaire.layout import Layout, layout_from_number
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import Solver

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
