"""The fair player's orders carried from one decision to the next (``PlayerSettings.carry``,
the ``fast`` preset): a decision's sampled orders are the last sampled decision's with the
cards drawn since taken out, looked up with the decision from a shared table, and fresh
where there are none to carry."""

from __future__ import annotations

from dataclasses import replace

import pytest

from golfsolve.errors import InputError
from golfsolve.fair import PRESETS, PlayerSettings, play
from golfsolve.fair.player import Player
from golfsolve.solitaire.layout import Layout, layout_from_number
from golfsolve.solitaire.rules import CLASSIC, EASY
from golfsolve.solitaire.solver import Solver

FAST = PRESETS["fast"]


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


def _recording(monkeypatch) -> list:
    """Each sampled decision's (unseen cards, orders), in the order the games took them."""
    seen: list = []
    choose = Player._choose

    def recorded(self, view, gone):
        carrying = bool(self._pool)
        best, cv = choose(self, view, gone)
        unseen = {c for c in view.unseen_cards(self.rules.jokers) if c not in set(gone)}
        seen.append((self, frozenset(unseen), list(cv.stocks), carrying))
        return best, cv

    monkeypatch.setattr(Player, "_choose", recorded)
    return seen


@pytest.mark.parametrize("rules", [EASY, CLASSIC], ids=lambda r: r.name)
def test_each_decision_decides_on_the_last_ones_orders_without_the_cards_drawn_since(monkeypatch, solver, rules):
    seen = _recording(monkeypatch)
    for n in range(3):
        play(layout_from_number(n, rules), rules, FAST, n, solver, referee=False)
    carried = 0
    for (p0, u0, o0, _), (p1, u1, o1, carrying) in zip(seen, seen[1:]):
        if p0 is not p1:
            continue  # another game
        if len(u1) > FAST.exact_unknown:
            assert carrying  # no exact decision can have come between
        if not carrying:
            continue
        drawn = u0 - u1
        expect = [tuple(c for c in o if c not in drawn) for o in o0]
        # the first orders are the last decision's, in their order; more are fresh
        k = min(len(expect), len(o1))
        assert o1[:k] == expect[:k]
        assert all(set(o) == u1 for o in o1)
        carried += 1
    assert carried >= 10


def test_a_shared_decisions_table_gives_the_games_a_player_plays_alone(solver):
    """odds' games share one table; a game that looks a decision up must go on with the
    orders that decision carries, as the game that took it did."""
    decisions: dict = {}
    lay = layout_from_number(5, EASY)
    for n in range(6):
        # the same opening with other real stocks: games meet at the first decisions
        real = Layout(lay.columns, lay.discard, lay.stock[n:] + lay.stock[:n], lay.rules)
        shared = play(real, EASY, FAST, 1, solver, referee=False, decisions=decisions)
        alone = play(real, EASY, FAST, 1, solver, referee=False)
        assert shared.moves == alone.moves, n
    assert len(decisions) > 6


def test_carry_is_a_recorded_setting_and_only_true_or_false():
    assert FAST.carry is True and PRESETS["strong"].carry is False
    assert FAST.as_dict()["carry"] is True
    assert PlayerSettings.from_dict(FAST.as_dict()) == FAST
    assert replace(FAST, carry=False).preset == "custom"
    with pytest.raises(InputError, match="carry must be True or False"):
        PlayerSettings(carry="yes")
