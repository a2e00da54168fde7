"""Round 34: information honesty, probed as an outside auditor would.

One leak: the exact values of :mod:`golfsolve.fair.exact` played a deal code's (or a full
layout's) stock order as if the player saw it. Elsewhere no leak was found; each test after
the first is the strongest probe of its area that the honesty tests before it
(test_fair_honesty.py, test_honesty_audit.py, tests/grid/) lacked:

* Golf solitaire, the library: one position reached by lines that stack the discard pile in
  other orders (jokers are wild, so the same cards can go under the top in any order).
* The command line: twin layouts that swap the two jokers, so the joker on the table in one
  is the hidden one in the other (a player cannot tell JK from JK2).
* Grid Golf, the OpenSpiel adapter: what its observers hand any OpenSpiel algorithm (the
  strings and the tensors, the information state and the public and private parts alone).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from golfsolve.fair import PlayerSettings, fair_hint_for_player, odds_for_player, player_view
from golfsolve.solitaire.engine import Game
from golfsolve.solitaire.layout import Layout, layout_from_number
from golfsolve.solitaire.rules import get_rules
from hostile_helpers import random_step

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
    import sys
    from pathlib import Path

    from golfsolve.cards import parse_card
    from golfsolve.fair.exact import CompiledExpectimax, clairvoyant_value, fair_value

    sys.path.insert(0, str(Path(__file__).parent))
    from test_fair import ENDGAME, endgame

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


def test_openspiel_observers_show_twins_alike_strings_and_tensors():
    """Probe (no leak found): at every point of random holes, a twin a seat cannot tell apart
    (its hidden cards dealt anew) gives that seat the same observation from each observer
    OpenSpiel builds: the information state (the default), the seat's private part alone,
    and the public part alone, which must be the same for a twin of any seat. The honesty
    tests before compared the information state's string only; an algorithm that reads
    the tensor would see whatever the tensor holds."""
    pyspiel = pytest.importorskip("pyspiel")
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.spiel import GridGolfGame, GridGolfState
    from golfsolve.grid.state import DEAL, HoleState

    rules = parse_rules("default+jokers", players=3, grid=6, holes=1)
    game = GridGolfGame(rules=rules)

    def observer(public: bool, private):
        return game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False, public_info=public,
                                                                private_info=private))

    public = observer(True, pyspiel.PrivateInfoType.NONE)
    seat_views = [game.make_py_observer(), observer(False, pyspiel.PrivateInfoType.SINGLE_PLAYER), public]

    def seen(obs, state, p):
        obs.set_from(state, p)
        return obs.string_from(state, p), obs.tensor.copy()

    def alike(a, b):
        return a[0] == b[0] and np.array_equal(a[1], b[1])

    checked = differed = 0
    rng = np.random.default_rng(3)
    s = HoleState(rules, rng=np.random.default_rng(4))
    while not s.is_terminal():
        if s.phase != DEAL:
            real = GridGolfState(game, s)
            for p in range(rules.players):
                twin = GridGolfState(game, s.resample(p, np.random.default_rng(checked)))
                differed += twin.hole.grid != s.grid
                for obs in seat_views:
                    assert alike(seen(obs, real, p), seen(obs, twin, p)), (s.phase, p, obs.public, obs.private)
                for q in range(rules.players):
                    assert alike(seen(public, real, q), seen(public, twin, q)), (s.phase, p, q)
                checked += 1
        random_step(s, rng)
    assert checked > 50 and differed > checked // 2  # the twins really hid other cards


def test_an_exact_fair_value_asked_of_a_whole_deal_says_what_it_is_for():
    """was: since a deal code's order is forgotten (above), ``fair_value`` of a whole deal
    searched its 16 unknown cards up to the state cap (about 20 s at the default) and said
    only "too large"; it now says how many cards were unknown and where to look instead."""
    from golfsolve.fair.exact import TooLargeError, fair_value

    with pytest.raises(TooLargeError, match=r"\(16 unknown stock cards: it is for endgames, .*golfsolve\.fair\.odds"):
        fair_value(layout_from_number(3, get_rules("classic"), "C"), max_states=2000)
