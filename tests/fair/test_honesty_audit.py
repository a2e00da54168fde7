"""Honesty audit (round 26) of Golf solitaire: probes the other honesty tests leave out.

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

from golfsolve.fair import PlayerSettings, fair_hint_for_player, odds, rate
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
