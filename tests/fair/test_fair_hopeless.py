"""The strong player's decisions that look lost (``PlayerSettings.hopeless``): when no state
wins on any of its first orders it draws more, a batch at a time with every state on each,
until one wins or the cap is reached, and chooses on them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from golfsolve.errors import InputError
from golfsolve.fair import PRESETS, PlayerSettings, play
from golfsolve.fair.player import Player
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import CLASSIC
from golfsolve.solitaire.solver import Solver

STRONG = PRESETS["strong"]


def _decisions(monkeypatch, settings, numbers) -> list:
    """Every sampled decision's roots won or lost per order, over games of ``numbers``, as they
    stood before a race (the race that follows a won order adds orders of its own)."""
    seen: list = []
    choose, race = Player._choose, Player._race
    before_race: list = []

    def raced(self, cv, *args):
        before_race.append(list(cv.root_won))
        return race(self, cv, *args)

    def recorded(self, view, gone):
        before_race.clear()
        best, cv = choose(self, view, gone)
        seen.append(before_race[0] if before_race else list(cv.root_won))
        return best, cv

    monkeypatch.setattr(Player, "_race", raced)
    monkeypatch.setattr(Player, "_choose", recorded)
    solver = Solver()
    for n in numbers:
        play(layout_from_number(n, CLASSIC), CLASSIC, settings, n, solver, referee=False)
    return seen


def test_a_decision_with_no_order_won_takes_more_until_one_is(monkeypatch):
    assert STRONG.hopeless == 64
    # deal 5's game meets a decision that looks lost and then finds a win (was: deals 0-2 only,
    # whose lost-looking decisions all ran to the cap, so the check of the stop at a win never
    # ran; run, it failed: it counted the orders of the race that follows a win as the search's)
    seen = _decisions(monkeypatch, STRONG, (0, 1, 2, 5))
    first = STRONG.samples
    lost = [rw for rw in seen if not any(w is True for w in rw[:first])]
    assert lost, "these games met no decision that looked lost"
    stops = {"win" if any(w is True for w in rw[first:]) else "cap" for rw in lost}
    assert stops == {"win", "cap"}
    for rw in lost:
        more = rw[first:]
        # every further order had its root searched (every state valued), a batch at a time,
        # and the player stopped at the first batch with a win, or at the cap
        won = [i for i, w in enumerate(more) if w is True]
        if won:  # the batch holding the first win is the last one
            assert len(rw) == first + (won[0] // STRONG.race_batch + 1) * STRONG.race_batch
            assert all(w is not None for w in more)
        else:
            assert len(rw) == STRONG.hopeless and all(w is False for w in more)
    assert any(len(rw) > first for rw in lost)


def test_without_it_a_decision_that_looks_lost_stays_on_its_first_orders(monkeypatch):
    off = replace(STRONG, hopeless=0)
    seen = _decisions(monkeypatch, off, range(3))
    lost = [rw for rw in seen if not any(w is True for w in rw[: off.samples])]
    assert lost and all(len(rw) == off.samples for rw in lost)


@pytest.mark.parametrize("bad", [-1, 2.5, "64", True, None])
def test_hopeless_is_a_checked_count(bad):
    with pytest.raises(InputError, match="hopeless"):
        PlayerSettings(hopeless=bad)
    assert PlayerSettings(hopeless=0).hopeless == 0
