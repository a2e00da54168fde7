"""Round 30: Grid Golf as an outside bot author and a careless user meet it.

Each test is a flaw found by playing the part of someone writing a bot against the
documented API (``golfsolve.grid.bots.Bot``, ``register_bot``, the ``PlayerView`` it is
handed) or running ``golfsolve grid`` with odd options.
"""

from __future__ import annotations

import numpy as np
import pytest
from hostile_helpers import one_line_error

import golfsolve.grid.engine as engine
from golfsolve.grid.botnames import BOTS, register_bot
from golfsolve.grid.bots import RandomBot
from golfsolve.grid.engine import bot_rng
from golfsolve.grid.rules import parse_rules
from golfsolve.grid.tournament import simulate


class _Recorded(engine.HoleState):
    """The referee's hole state, keeping the deck each hole was dealt from."""

    decks: list[list[int]] = []

    def __init__(self, rules, deck=None, **kw):
        _Recorded.decks.append(list(deck))
        super().__init__(rules, deck=deck, **kw)


class Peek(RandomBot):
    """Plays at random, but first works out the deck the way the referee shuffles it, from
    nothing but the seed sequence its own generator keeps."""

    kind = "peek"
    guesses: list[list[int]] = []

    def choose_openers(self, view, count):
        seq = getattr(self.rng.bit_generator, "seed_seq", None)
        if isinstance(seq, np.random.SeedSequence) and seq.spawn_key:
            referee = np.random.SeedSequence(seq.entropy, spawn_key=seq.spawn_key[:-1] + (0,))
            deck = np.random.default_rng(referee).permutation(np.array(view.rules.deck_cards()))
            Peek.guesses.append([int(c) for c in deck])
        return super().choose_openers(view, count)


def test_a_bot_cannot_rebuild_the_deck_from_its_own_generator(registered, monkeypatch):
    """was: a tournament handed each bot ``default_rng(child)``, a generator that keeps its
    seed sequence, whose entropy is the run's seed and whose spawn key names the match and
    seat: three lines rebuilt the referee's generator and shuffled the hole's deck exactly,
    every face-down card and the stock in draw order (the brief's "through the RNG")."""
    registered("peek", Peek)
    _Recorded.decks, Peek.guesses = [], []
    monkeypatch.setattr(engine, "HoleState", _Recorded)
    simulate(parse_rules("default", players=2, holes=1), ["peek", "random"], 2, 12345)
    assert len(_Recorded.decks) == 2
    assert not any(g in _Recorded.decks for g in Peek.guesses)


def test_the_sealed_generator_draws_as_before_so_runs_are_unchanged():
    """was: (the fix must not move any seeded result) the bot's generator draws exactly what
    ``default_rng`` of its seed sequence drew, and spawns the same children on every run; its
    seed sequence is not the one it came from."""
    seq = np.random.SeedSequence(99, spawn_key=(7, 2))
    a, b = bot_rng(seq), np.random.default_rng(seq)
    assert a.integers(2**62, size=20).tolist() == b.integers(2**62, size=20).tolist()
    assert a.random(5).tolist() == b.random(5).tolist()
    sealed = bot_rng(seq).bit_generator.seed_seq
    assert sealed.entropy != 99 and sealed.spawn_key == ()
    assert bot_rng(seq).spawn(1)[0].random() == bot_rng(seq).spawn(1)[0].random()
    with pytest.raises(TypeError, match="SeedSequence"):
        bot_rng(7)


@pytest.mark.parametrize("name", ["random", "heuristic", "mc", "ismcts"])
def test_a_bot_of_ones_own_cannot_take_the_name_of_golfsolve_s(name):
    """was: ``register_bot('random', MyBot)`` silently replaced golfsolve's random bot, so every
    table of a ``grid study`` (which seats ``random`` and ``heuristic`` by name) and any run of
    ``--bots random`` played the author's bot under golfsolve's name."""
    from golfsolve.errors import InputError
    from golfsolve.grid.bots import make_bot

    before = BOTS[name]
    try:
        with pytest.raises(InputError, match=f"^'{name}' is one of golfsolve's own bots"):
            register_bot(name, Peek)
        assert BOTS[name] is before and type(make_bot(name)).__name__ != "Peek"
    finally:  # without the fix, the other tests would play Peek as golfsolve's bot
        BOTS[name] = before


def test_a_change_forced_into_the_view_s_rules_rescores_nothing():
    """was: every view held the referee's own ``GridRules``, so a bot forcing a change into
    them (``object.__setattr__(view.rules, 'twos_plus', True)``; the docs promise a forced
    change touches only the bot's copy) rescored the hole for every seat: greedy's 6 strokes
    became 14, and the referee's rules read ``default+twos-plus+no-flip``."""
    from golfsolve.grid.bots import GreedyBot
    from golfsolve.grid.engine import Hole

    class Meddler(GreedyBot):
        def choose_draw(self, view):
            object.__setattr__(view.rules, "twos_plus", True)
            object.__setattr__(view.rules, "discard_without_flip", True)
            return super().choose_draw(view)

    def play(first):
        rules = parse_rules("default", players=2, holes=1)
        seats = [first(np.random.default_rng(0)), GreedyBot(np.random.default_rng(1))]
        return rules, Hole(rules, seats, np.random.default_rng(4)).play()

    _, clean = play(GreedyBot)
    rules, meddled = play(Meddler)
    assert meddled.strokes == clean.strokes and rules.spec() == "default"


@pytest.fixture(scope="module")
def mc_run(tmp_path_factory):
    """A finished two-match run of mc (with --mc-samples 2) and random."""
    from golfsolve.cli.main import main

    out = tmp_path_factory.mktemp("r30") / "run"
    with pytest.raises(SystemExit) as e:
        main(["grid", "simulate", "--bots", "mc,random", "--mc-samples", "2", "--holes", "1", "--matches", "2",
              "--out", str(out), "-q"])
    assert e.value.code in (0, None)
    return out


@pytest.mark.parametrize("flag, bots", [("--extend", "mc:2,random"), ("--resume", "greedy,random")])
def test_continuing_an_mc_run_with_other_bots_names_the_bots(mc_run, run_cli, flag, bots):
    """was: "golfsolve: samples sets the sample count of mc and mc-greedy bots named without one
    ..., and the bots mc:2,random include none; leave samples out or add such a bot": the
    run's --mc-samples, which this command did not give, was blamed under a name no option
    has, and could not be left out."""
    r = run_cli(["grid", "simulate", "--out", str(mc_run), flag, "--matches", "3", "--bots", bots, "-q"])
    line = one_line_error(r)
    assert f"{flag}: " in line and "the bots mc,random with --mc-samples 2" in line and bots in line
    assert "leave samples out" not in line


def test_continuing_a_run_at_another_player_count_names_the_run_s_bots(mc_run, run_cli):
    """was: "golfsolve: 2 bots for 3 players", naming neither the run's bots nor that the
    run, not this command, brings them."""
    r = run_cli(["grid", "simulate", "--out", str(mc_run), "--extend", "--matches", "3", "--players", "3", "-q"])
    line = one_line_error(r)
    assert "its own bots, mc,random: 2 players, not 3" in line


def test_openers_given_as_an_endless_iterator_are_refused_not_waited_for():
    """was: the referee read a bot's openers with ``list(answer)``, so a bot answering
    ``itertools.cycle([0, 1])`` (or ``itertools.count()``) hung the tournament for ever,
    filling the memory, where any other malformed answer is a BotError."""
    import itertools

    from golfsolve.grid.bots import GreedyBot
    from golfsolve.grid.engine import BotError, Hole

    class Endless(GreedyBot):
        def choose_openers(self, view, count):
            return itertools.count()

    rules = parse_rules("default", players=2, holes=1)
    hole = Hole(rules, [Endless(np.random.default_rng(0)), GreedyBot(np.random.default_rng(1))],
                np.random.default_rng(4))
    with pytest.raises(BotError, match="openers must be up to 2 distinct slots"):
        hole.play()


class Failing(RandomBot):
    """A bot of one's own with a bug at its first draw."""

    kind = "failing"

    def choose_draw(self, view):
        return {}["x"]


def test_a_failing_bot_of_ones_own_is_named_in_the_run_s_own_match_and_seed(registered, run_cli):
    """was: before a run, the kernels' warm-up played a hole of every bot named, one's own too,
    at seed 0, so ``grid simulate --seed 5`` with a failing bot of one's own said "match 0
    (seed 0): failing (seat 0) failed ...", a match of no run, which does not replay with the
    run's seed (and ``grid play`` failed so before its first board)."""
    registered("failing", Failing)
    r = run_cli(["grid", "simulate", "--bots", "random,failing", "--holes", "1", "--matches", "2", "--seed", "5",
                 "-q"])
    assert r.exit_code == 1 and "(seed 5): failing (seat " in r.stderr and "seed 0" not in r.stderr
