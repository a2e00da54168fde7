"""A seeded fuzzer of the public Python library.

Every public function, constructor and method a notebook reaches (README "Library", docs/fair.md,
docs/grid.md) is called with its valid arguments, one of them at a time swapped for a hostile
value: the wrong type (text for a number, a float, a bool, None, NumPy scalars and arrays, pandas
values, bytes), a boundary number (0, -1, 2**63, NaN, inf), an empty or long sequence, and objects
of the other API (a solitaire ``Rules`` where grid Golf's go, a ``Layout`` where a Solver goes).
The contract: an answer, or an ``InputError`` or ``TypeError`` whose message is one line; never
another exception from inside, and a result that pickles and compares equal. The few calls that
reach the compiled kernels with odd but valid input run in a subprocess, whose death by a signal
would otherwise take the test run with it; their answers are checked against the CLI's --json.

An exploratory run made about 10,000 calls (every target, every hostile value, over 100 functions
and methods); the fuzz test here is its fixed-seed, bounded form (about 1,300 calls). The flaws it
found have their own tests beside the functions they are of (tests/library/test_library_arguments.py
and the folders' input tests).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import pickle
import random
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from hostile_helpers import _AMBIGUOUS, ROOT, run_python

from golfsolve.errors import InputError
from golfsolve.solitaire.layout import layout_from_code, layout_from_number
from golfsolve.solitaire.rules import CLASSIC, EASY

DEAL = "GO1-E-AAAAAAB"


def _hostile() -> list:
    from golfsolve.grid.rules import parse_rules

    return ["3", 2.5, 3.0, True, False, None, np.int64(3), np.float64(2.0), np.array([1, 2]), pd.NA,
            pd.Series([1, 2]), b"xy", 0, -1, 10**30, 2**63, 2**64, math.nan, math.inf, -math.inf, [], (),
            "x" * 10_000, object(), list(range(200)), np.bool_(True), {}, np.int8(-3), np.uint64(2**64 - 1),
            EASY, parse_rules("danish", players=2, grid=4), layout_from_code(DEAL)]


def _targets() -> list:
    """(label, function, valid keyword arguments): the public API, each call cheap."""
    import golfsolve.fair as F
    from golfsolve import cards, intervals
    from golfsolve.fair import view as fv
    from golfsolve.grid import bots as gb
    from golfsolve.grid import rules as gr
    from golfsolve.grid import scoring as gs
    from golfsolve.grid import state as gst
    from golfsolve.grid import tournament as gt
    from golfsolve.solitaire import answers as an
    from golfsolve.solitaire import dealcode as dc
    from golfsolve.solitaire import engine as en
    from golfsolve.solitaire import layout as ly
    from golfsolve.solitaire import rules as ru
    from golfsolve.solitaire.solver import Solver, app_score

    lay = layout_from_code(DEAL)
    game = en.Game(lay)
    for m in "1 1 5 d 4 3 6 2 d 2 7 d 5 3 1 4 d d 7 3 7 2 4 4 1 1 4 2 6 3 d 5 6".split():
        assert game.play(m).ok
    view, played = F.player_view(lay, game)  # an endgame: the fair answers are quick
    grid = gr.parse_rules("danish", players=2, grid=4)
    solver = Solver()
    return [
        ("parse_card", cards.parse_card, {"text": "AS"}),
        ("make_card", cards.make_card, {"rank": 1, "suit": 2}),
        ("deck", cards.deck, {"jokers": 1}),
        ("deal_deck", dc.deal_deck, {"number": 1, "jokers": 0}),
        ("format_code", dc.format_code, {"number": 1, "letter": "E"}),
        ("parse_code", dc.parse_code, {"text": DEAL}),
        ("get_rules", ru.get_rules, {"spec": "classic"}),
        ("Rules", ru.Rules, {"name": "x", "wrap": True, "king_takes": "neighbours", "jokers": 0}),
        ("code_letter", ru.code_letter, {"rules": EASY}),
        ("wilson", intervals.wilson, {"k": 3, "n": 10}),
        ("app_score", app_score, {"cards_left": 3}),
        ("layout_from_code", ly.layout_from_code, {"code": DEAL, "rules": None}),
        ("layout_from_number", ly.layout_from_number, {"number": 1, "rules": EASY, "letter": "E"}),
        ("layout_from_pysol", ly.layout_from_pysol, {"number": 1, "rules": None}),
        ("make_layout", ly.make_layout, {"columns": lay.columns, "discard": lay.discard, "stock": lay.stock,
                                         "rules": None, "name": "", "deal_number": None}),
        ("parse_layout_text", ly.parse_layout_text, {"text": lay.to_text(), "name": ""}),
        ("forget_stock", lay.forget_stock, {"keep": 2}),
        ("Game", en.Game, {"layout": lay, "rules": None, "undo_limit": 100}),
        ("Game.tap", en.Game(lay).tap, {"col": 2, "row": 4}),
        ("replay", en.replay, {"layout": lay, "moves": ["1", "1"], "rules": None}),
        ("solve", solver.solve, {"layout": layout_from_number(1, CLASSIC, "C"), "rules": CLASSIC}),
        ("solve_layout", an.solve_layout, {"layout": lay, "solver": solver}),
        ("hint_position", an.hint_position, {"layout": lay, "moves": ["d"]}),
        ("play_answer", an.play_answer, {"layout": lay, "moves_text": "d", "action": None, "tap": None}),
        ("player_view", F.player_view, {"layout": lay, "game": game}),
        ("odds", F.odds, {"layout": view, "samples": 4, "played": played, "solver": solver, "games": 2,
                          "exact_states": 2000}),
        ("fair_hint", F.fair_hint, {"layout": view, "played": played, "solver": solver, "player": "fast"}),
        ("rate", F.rate, {"layout": lay, "games": 2, "solver": solver, "want": None}),
        ("stock_orders", F.stock_orders, {"layout": view, "rules": None, "n": 3, "rng": 0, "played": played}),
        ("PlayerSettings", F.PlayerSettings, {"samples": 8, "race_z": 1.5, "compiled_exact": False}),
        ("label_of", F.label_of, {"chance": 0.5}),
        ("legal_moves", fv.legal_moves, {"layout": view, "rules": EASY}),
        ("parse_rules", lambda players: gr.parse_rules("danish", players=players), {"players": 3}),
        ("HoleState", gst.HoleState, {"rules": grid, "rng": np.random.default_rng(1), "max_turns": 1000}),
        ("encode", gst.encode, {"kind": "swap", "slot": 1, "g": 4}),
        ("needed_cards", gst.needed_cards, {"rules": grid}),
        ("grid_score", gs.grid_score, {"cards": [1, 2, 3, 4], "rules": grid}),
        ("make_bot", gb.make_bot, {"spec": "greedy", "rng": np.random.default_rng(1), "samples": None}),
        ("ISMCTSBot", gb.ISMCTSBot, {"rng": None, "name": None, "iterations": 10, "c_ucb": 10.0, "horizon": 0}),
        ("MCBot", gb.MCBot, {"rng": None, "name": None, "samples": 10, "horizon": 0}),
        ("seating", gt.seating, {"n": 3, "match": 1, "seed": 0, "scheme": "balanced"}),
    ]


def _outcome(fn, kw) -> str:
    """"ok", or "refused" for a one-line InputError or TypeError; anything else fails the test."""
    try:
        result = fn(**kw)
    except (InputError, TypeError) as e:
        msg = str(e)
        assert "\n" not in msg and _AMBIGUOUS not in msg, msg
        return "refused"
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        assert pickle.loads(pickle.dumps(result)) == result
        params = type(result).__dataclass_params__
        if params.frozen:
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(result, dataclasses.fields(result)[0].name, None)
    return "ok"


def test_fuzz_the_public_library_with_hostile_arguments():
    """Each target once with valid arguments (an answer), then 6 of its parameters (or all) each
    swapped for 12 hostile values drawn with a fixed seed: every call answers, or refuses with one
    line; none fails from inside (a KeyError, IndexError, AttributeError, 'ambiguous' ValueError)."""
    rnd = random.Random(43)
    hostile = _hostile()
    calls = 0
    for label, fn, base in _targets():
        assert _outcome(fn, dict(base)) == "ok", label
        params = list(base)
        for p in rnd.sample(params, min(6, len(params))):
            for value in rnd.sample(hostile, 12):
                kw = dict(base, **{p: value})
                try:
                    _outcome(fn, kw)
                except AssertionError:
                    raise
                except Exception as e:  # the flaw: name the call in the failure
                    raise AssertionError(f"{label}({p}={value!r:.40}) raised {type(e).__name__}: {e}"[:300]) from e
                calls += 1
    assert calls > 1000


# the compiled kernels, fed odd but valid positions, in a process of their own: a kernel reading
# past its tables may kill the process (a signal) or answer garbage, never raise
_KERNELS = r"""
import json
from golfsolve.cards import parse_card
from golfsolve.fair.exact import fair_value
from golfsolve.solitaire.answers import solve_layout
from golfsolve.solitaire.layout import layout_from_number, make_layout
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import Solver
out = {}
# the longest stock the rules deal (two jokers and no discard: 19 cards), solved
r = get_rules("easy+jokers2+empty")
lay = layout_from_number(5, r)
out["long"] = [len(lay.stock), solve_layout(lay).outcome]
# a table of three cards and a stock of one
p = lambda t: [parse_card(c) for c in t.split()]
cols = [p("KS"), p("QH"), [], [], [], [], p("5D")]
few = make_layout(cols, parse_card("AC"), p("2C"))
out["few"] = Solver().solve(few).outcome
out["fair"] = fair_value(make_layout(cols, parse_card("AC"), [None])).value
for capacity in (1, 2**20):
    out[f"cap{capacity}"] = Solver(capacity=capacity).solve(layout_from_number(2)).outcome
print(json.dumps(out))
"""


def test_the_kernels_answer_odd_positions_without_dying_and_as_the_cli_does():
    """The longest stock the rules deal, a near-empty table, a tiny Solver table: answered in a
    process that does not die by a signal; and solve answers of a seeded sample of deals equal the
    CLI's --json for them (times aside)."""
    r = run_python(_KERNELS)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])  # negative: killed by a signal
    out = json.loads(r.stdout.decode().strip().splitlines()[-1])
    assert out["long"][0] == 19 and out["long"][1] in ("won", "lost")
    # KS on AC (Easy's wrap), QH on it, then only the drawn card may free 5D: 2C cannot, and of the
    # 48 unseen cards the eight 4s and 6s can
    assert out["few"] == "lost" and out["fair"] == pytest.approx(8 / 48)
    assert out["cap1"] == out["cap1048576"]

    from golfsolve.solitaire.answers import solve_answer, solve_layout

    rnd = random.Random(43)
    codes = [f"GO1-{rnd.choice('EC')}-AAAA{''.join(rnd.choice('ABCDEFGHIJ') for _ in range(3))}" for _ in range(3)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cli = subprocess.run([sys.executable, "-m", "golfsolve", "solve", *codes, "--json"], capture_output=True,
                         text=True, env=env, timeout=120)
    assert cli.returncode == 0, cli.stderr
    from golfsolve.stats.runkind import stamped

    times = ("seconds", "cpu_seconds")
    for code, line in zip(codes, cli.stdout.splitlines()):
        lay = layout_from_code(code)
        mine = stamped(solve_answer(lay, solve_layout(lay)))  # as the command prints it
        theirs = json.loads(line)
        assert {k: v for k, v in mine.items() if k not in times} == {k: v for k, v in theirs.items()
                                                                      if k not in times}, code
