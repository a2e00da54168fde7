"""Honesty audit of grid Golf: what a searcher deals itself must come from what
its seat sees, through every door the library opens, not only through a bot's view.

* A resampled world (:meth:`HoleState.resample`, which OpenSpiel's resampling uses) kept the
  referee's generator: the order its next refill would give the stock, which no seat sees.
  Twins a seat cannot tell apart (and that differ only in that generator) gave worlds whose
  refilled stocks differed, and stepping a world drew from the real hole's generator.
* OpenSpiel's ``resample_from_infostate`` ignored the probability sampler OpenSpiel hands
  it, so a seeded sampler dealt another world at every call, and twins other worlds.
* spiel-ismcts, which builds its worlds its own way (``HoleState.from_view``), decides
  alike in twin holes on the tables the side-by-side probes of test_grid_honesty_midgame.py
  leave out: two decks with jokers, the 9-card grid with the putt and a knock, and stocks
  refilled from the discard pile.
* OpenSpiel's observers (information state, private part, public part) show twins alike on
  holes whose stock is refilled again and again, a card drawn from a refilled stock in hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from golfsolve.grid.rules import parse_rules
from golfsolve.grid.state import DRAW, PLACE, HoleState, encode
from golfsolve.grid.view import STOCK, SWAP
from hostile_helpers import random_step


def _short_hole(rules, stock: int, seed: int, referee_seed: int) -> HoleState:
    """A hole dealt from a deck with ``stock`` stock cards, shuffled when refilled by a
    generator seeded ``referee_seed``, after the openers (first slots) are turned."""
    deck = [int(c) for c in np.random.default_rng(seed).permutation(rules.deck_cards())]
    s = HoleState(rules, deck=deck[:rules.players * rules.grid + 1 + stock],
                  rng=np.random.default_rng(referee_seed))
    while s.is_chance_node():
        s.apply(s.next_card())
    while s.phase != DRAW:
        s.apply(s.legal_actions()[0])
    return s


def _to_the_refill(w: HoleState) -> list[int]:
    """Step ``w`` as a referee does (stock draws swapped into a face-up slot) until its
    stock has been refilled from the discard pile, and return that stock in order."""
    g = w.rules.grid
    while not w.recycled:
        assert not w.is_terminal()
        if w.is_chance_node():
            w.apply(w.next_card())
        elif w.phase == DRAW:
            w.apply(encode(STOCK, -1, g))
        elif w.phase == PLACE:
            w.apply(encode(SWAP, w.up[w.cur].index(True), g))
        else:
            w.apply(w.legal_actions()[0])
    return list(w.stock)


@pytest.mark.parametrize("spec, players, grid, stock", [("default", 2, 4, 3), ("default", 3, 6, 4),
                                                        ("danish", 4, 8, 3)])
def test_resampled_worlds_refill_their_stock_with_the_callers_generator_not_the_referees(spec, players, grid,
                                                                                          stock):
    """Twin holes that every seat sees alike, their referees' generators in other states
    (the order of the next refilled stock: hidden), resampled for a seat with equally seeded
    generators: the same worlds, which refill their stocks alike, and stepping a world leaves
    the real hole's generator where it was. Fails with the world sharing the referee's generator."""
    rules = parse_rules(spec, players=players, grid=grid, holes=1, openers=1)
    real = _short_hole(rules, stock, seed=3, referee_seed=1)
    twin = real.clone()
    twin.rng = np.random.default_rng(2)
    for p in range(players):
        assert real.observation(p) == twin.observation(p)
    before = real.rng.bit_generator.state
    for p in range(players):
        worlds = [s.resample(p, np.random.default_rng(5 + p)) for s in (real, twin)]
        assert (worlds[0].grid, worlds[0].stock) == (worlds[1].grid, worlds[1].stock)
        refilled = [_to_the_refill(w) for w in worlds]
        assert refilled[0] == refilled[1], (spec, p)
        assert len(refilled[0]) > 1  # an order to tell apart
    assert real.rng.bit_generator.state == before


def test_a_world_resampled_from_a_state_without_a_generator_keeps_none():
    """States that OpenSpiel plays (chance by counts) have no generator: their worlds get none
    either, so nothing in how they are sampled changes."""
    rules = parse_rules("default", players=2, grid=4, holes=1, openers=1)
    s = _short_hole(rules, 2, seed=4, referee_seed=0)
    s.rng = None
    assert s.resample(1, np.random.default_rng(3)).rng is None


# -- the OpenSpiel adapter -------------------------------------------------------------------

pyspiel = pytest.importorskip("pyspiel")


def _twin_states(game, seat: int):
    """A state of a hole in progress wrapped for OpenSpiel, and a twin ``seat`` cannot tell
    from it (its hidden cards dealt anew)."""
    from golfsolve.grid.engine import Hole
    from golfsolve.grid.bots import make_bot
    from golfsolve.grid.spiel import GridGolfState

    rules = game.rules
    hole = Hole(rules, [make_bot("greedy") for _ in range(rules.players)], np.random.default_rng(8))
    s = hole.state
    while s.phase != DRAW:
        s.apply(s.legal_actions()[0])
    for _ in range(3):  # a few turns in: some cards turned, some swapped out
        s.apply(encode(STOCK, -1, rules.grid))
        s.apply(s.next_card())
        s.apply(encode(SWAP, s.hidden_slots(s.cur)[0] if s.hidden_slots(s.cur) else 0, rules.grid))
    twin = s.resample(seat, np.random.default_rng(11))
    assert (twin.grid, twin.stock) != (s.grid, s.stock)
    return GridGolfState(game, s), GridGolfState(game, twin)


@pytest.mark.parametrize("players, grid", [(2, 4), (4, 6)])
def test_openspiel_resampling_follows_a_seeded_probability_sampler(players, grid):
    """``resample_from_infostate(player, sampler)`` as OpenSpiel calls it (its ISMCTS passes a
    ``UniformProbabilitySampler``): one information state, asked twice or by a twin, with
    samplers seeded alike, gives one world; other seeds other worlds. Fails with the sampler
    ignored (a fresh generator at every call)."""
    from golfsolve.grid.spiel import GridGolfGame

    game = GridGolfGame({"players": players, "grid": grid, "openers": 2})
    seat = 1
    a, b = _twin_states(game, seat)
    assert a.information_state_string(seat) == b.information_state_string(seat)
    worlds = [st.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(7, 0., 1.)) for st in (a, a, b)]
    assert str(worlds[0]) == str(worlds[1]) == str(worlds[2])
    assert all(w.information_state_string(seat) == a.information_state_string(seat) for w in worlds)
    others = {str(a.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(k, 0., 1.))) for k in range(6)}
    assert len(others) > 1


def test_openspiel_resampling_refuses_a_sampler_that_is_not_callable():
    from golfsolve.grid.spiel import GridGolfGame

    a, _ = _twin_states(GridGolfGame({"players": 2, "grid": 4, "openers": 1}), 0)
    with pytest.raises(TypeError, match="probability_sampler must be a callable"):
        a.resample_from_infostate(0, 7)


@pytest.mark.parametrize("spec, players, grid", [("default+jokers+twos-plus", 6, 6), ("default+putt+knock10", 2, 9)])
def test_spiel_ismcts_decides_alike_in_twin_holes_on_two_decks_and_the_nine_card_grid(spec, players, grid):
    """spiel-ismcts side by side in twin holes (stocks, and face-down cards no opener turns,
    dealt otherwise) on two jokered decks of six players and on the 9-card grid with the
    putt and a knock: the same decisions until a differing card is turned."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_grid_honesty_midgame import _lockstep

    compared = [_lockstep("spiel-ismcts:6", spec, players, grid, seed, face_down=fd)
                for seed in range(2) for fd in (False, True)]
    assert sum(compared) > 20, compared


def _observers(game):
    """The public observer, and the observers of one seat's view: OpenSpiel's default (the
    information state), the seat's private part alone and the public part."""
    def observer(public: bool, private):
        return game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False, public_info=public,
                                                                private_info=private))

    public = observer(True, pyspiel.PrivateInfoType.NONE)
    return public, [game.make_py_observer(), observer(False, pyspiel.PrivateInfoType.SINGLE_PLAYER), public]


def seen(obs, state, p: int) -> tuple:
    """What ``obs`` shows seat ``p`` of ``state``: its string and a copy of its tensor."""
    obs.set_from(state, p)
    return obs.string_from(state, p), obs.tensor.copy()


def alike(a: tuple, b: tuple) -> bool:
    return a[0] == b[0] and np.array_equal(a[1], b[1])


def test_openspiel_observers_show_twins_alike_strings_and_tensors():
    """Probe (no leak found): at every point of random holes, a twin a seat cannot tell apart
    (its hidden cards dealt anew) gives that seat the same observation from each observer
    OpenSpiel builds: the information state (the default), the seat's private part alone,
    and the public part alone, which must be the same for a twin of any seat. The honesty
    tests before compared the information state's string only; an algorithm that reads
    the tensor would see whatever the tensor holds."""
    from golfsolve.grid.spiel import GridGolfGame, GridGolfState
    from golfsolve.grid.state import DEAL, HoleState

    rules = parse_rules("default+jokers", players=3, grid=6, holes=1)
    game = GridGolfGame(rules=rules)

    public, seat_views = _observers(game)

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


@pytest.mark.parametrize("spec, players, grid, stock", [("default", 2, 4, 3), ("default+jokers", 3, 6, 5),
                                                        ("default+knock10+putt", 2, 9, 3)])
def test_openspiel_observers_show_twins_alike_after_the_stock_is_refilled(spec, players, grid, stock):
    """Probe (no leak found): the observers' test above on holes dealt from short decks, so the
    stock is refilled from the discard pile again and again: once its contents are public, a
    card a seat draws from it is that seat's alone, and a twin any seat cannot tell apart (its
    hidden cards dealt anew) shows that seat the same string and tensor from each observer,
    and every seat the same public part, also while a card drawn from a refilled stock is in
    a hand. The test above plays one hole from a full deck, where a refill is rare."""
    from golfsolve.grid.spiel import GridGolfGame, GridGolfState
    from golfsolve.grid.state import DEAL

    rules = parse_rules(spec, players=players, grid=grid, holes=1)
    game = GridGolfGame(rules=rules)

    public, seat_views = _observers(game)

    checked = refilled = 0
    for seed in range(3):
        deck = [int(c) for c in np.random.default_rng(seed).permutation(rules.deck_cards())]
        s = HoleState(rules, deck=deck[:players * grid + 1 + stock], rng=np.random.default_rng(seed))
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            if s.phase != DEAL:
                real = GridGolfState(game, s)
                for p in range(players):
                    twin = GridGolfState(game, s.resample(p, np.random.default_rng(checked)))
                    for obs in seat_views:
                        assert alike(seen(obs, real, p), seen(obs, twin, p)), (s.phase, p, obs.public, obs.private)
                    for q in range(players):
                        assert alike(seen(public, real, q), seen(public, twin, q)), (s.phase, p, q)
                    checked += 1
                    refilled += s.recycled and s.phase == PLACE and s.source == STOCK
            random_step(s, rng)
    assert refilled > 5 and checked > 50
