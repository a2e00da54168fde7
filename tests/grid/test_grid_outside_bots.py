"""Bots written outside golfsolve, seated through its public API: their errors and odd answers named,
their names and settings kept apart from golfsolve's, the deck kept from them."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

import golfsolve.grid.engine as engine
from golfsolve.errors import InputError
from golfsolve.grid.botnames import BOTS, register_bot
from golfsolve.grid.bots import Bot, make_bot, RandomBot
from golfsolve.grid.engine import bot_rng, BotError, Hole, RuleViolation
from golfsolve.grid.rules import parse_rules
from golfsolve.grid.tournament import simulate
from golfsolve.grid.view import STOCK, SWAP

from run_helpers import one_hole_grid_rules


class Plain(Bot):
    """A small honest bot: openers 0 and 1, always the stock, swap into slot 0."""

    kind = "plain"

    def choose_openers(self, view, count):
        return list(range(count))

    def choose_draw(self, view):
        return STOCK

    def choose_place(self, view):
        return (SWAP, 0)


def _hole(bot, players=3, seed=5):
    rules = parse_rules("default", players=players, grid=6)
    others = [make_bot("greedy", np.random.default_rng(1 + k)) for k in range(players - 1)]
    return Hole(rules, [bot, *others], np.random.default_rng(seed), first=0)


@pytest.mark.parametrize("question", ["choose_openers", "choose_draw", "choose_place"])
def test_a_bot_that_raises_is_named_with_its_seat_and_question(question):
    """An outside bot with a bug (a KeyError in choose_place, an IndexError in choose_draw)
    stopped the hole with that bare KeyError from the bot's code: a tournament of six bots
    said neither which bot nor which seat nor which question failed."""

    def broken(self, *args):
        return {}["missing"]

    bot = type("Broken", (Plain,), {question: broken})(np.random.default_rng(0), name="mine")
    with pytest.raises(BotError, match=rf"^mine \(seat 0\) failed in {question} on turn 0: KeyError: 'missing'") as e:
        _hole(bot).play()
    assert isinstance(e.value.__cause__, KeyError)  # the bot's own traceback is kept
    assert isinstance(e.value, RuleViolation)  # what caught a bad answer before still catches it


@pytest.mark.parametrize("answer", [{"swap": 1, 2: 3}, {0: "swap", 1: 2}])
def test_a_placement_given_as_a_dict_is_refused_naming_the_bot(answer):
    """choose_place answering a dict of two entries failed inside the referee as 'KeyError: 0'
    (it read answer[0]), naming no bot; {0: 'swap', 1: 2} was even played as ('swap', 2)."""
    bot = type("Dicty", (Plain,), {"choose_place": lambda self, view: answer})(np.random.default_rng(0), name="dicty")
    with pytest.raises(BotError, match=r"^dicty \(seat 0\): cannot place \{"):
        _hole(bot).play()


def test_openers_given_as_a_dict_are_refused():
    """choose_openers answering {0: 'a', 1: 'b'} had slots 0 and 1 turned (a dict read as its
    keys): a wrong answer played silently."""
    bot = type("Dicty", (Plain,), {"choose_openers": lambda self, view, count: {0: "a", 1: "b"}})(
        np.random.default_rng(0), name="dicty")
    with pytest.raises(BotError, match=r"^dicty \(seat 0\): openers must be up to 2 distinct slots"):
        _hole(bot).play()


def test_a_tournament_names_the_failing_bot_and_its_match(registered):
    """A registered bot that fails some matches into simulate() raised its own error with no
    bot, seat or match to find it by; now the match is named, so it replays alone
    (first_match=M, matches=1, the same seed)."""
    from golfsolve.grid.tournament import simulate

    class Late(Plain):
        calls = 0

        def choose_draw(self, view):
            Late.calls += 1  # fails some matches in, as a bug that needs a rare position
            if Late.calls > 40:
                raise ValueError("out of ideas")
            return STOCK

    registered("late", Late)
    rules = parse_rules("default", players=2, grid=4, holes=3)
    with pytest.raises(BotError, match=r"^match [1-9]\d* \(seed 3\): late \(seat [01]\) failed in choose_draw on turn \d+: "
                                       r"ValueError: out of ideas$"):
        simulate(rules, ["late", "random"], 20, 3)


def test_make_bot_names_a_registered_bot_it_cannot_make(registered):
    """A registered class whose constructor takes no name failed in make_bot as "__init__() got
    an unexpected keyword argument 'name'"; a factory answering None was seated and failed at
    the table as 'every player must be a bot ... not NoneType'. Neither named the bot."""

    class NoName(Plain):
        def __init__(self, rng=None):
            super().__init__(rng)

    registered("noname", NoName)
    registered("nothing", lambda rng, name: None)
    with pytest.raises(TypeError, match=r"^bot 'noname' \(.*NoName\) could not be made as every bot is, "
                                        r".*NoName\(rng, name='noname'\): .*unexpected keyword argument 'name'"):
        make_bot("noname")
    with pytest.raises(TypeError, match=r"^bot 'nothing' \(.*<lambda>\) made NoneType None, which is no bot"):
        make_bot("nothing")


def test_the_command_line_reports_a_bot_failure_as_the_bot_s(registered, run_cli):
    """golfsolve's CLI run (from a program that registered its bot) with a failing bot said
    'internal error: KeyError: ...', golfsolve's fault by its words; now one line names the bot."""

    class Boom(Plain):
        def choose_draw(self, view):
            raise KeyError("oops")

    registered("boom", Boom)
    r = run_cli(["grid", "simulate", "--bots", "boom,random", "--grid", "4", "--holes", "1", "--matches", "1",
                 "--quiet"])
    assert r.exit_code == 1
    assert "internal error" not in r.stderr
    assert re.search(r"golfsolve: match 0 \(seed 0\): boom \(seat [01]\) failed in choose_draw on turn \d+: "
                     r"KeyError: 'oops'", r.stderr), r.stderr


def test_a_run_with_an_outside_bot_is_read_and_reported_without_its_code(registered, run_cli, tmp_path):
    """A run folder made by a program that registered its bot could not be reported:
    'golfsolve grid report DIR' and load_tournament refused the manifest ('unknown bot
    'mine' ... (a value in the manifest)'), though reading a run needs only the bots' names.
    Resuming it without the bot now says to register it first."""
    from golfsolve.stats.gridruns import GridSpec, load_tournament, run_grid_simulate

    registered("mine", Plain)
    out = tmp_path / "run"
    rules = parse_rules("default", players=2, grid=4, holes=1)
    run_grid_simulate(out, GridSpec(rules, ("mine", "greedy"), 2, 1, chunk_size=1), progress=False)
    BOTS.pop("mine")  # another program, that has not registered it

    t = load_tournament(out)
    assert t.bots == ["mine", "greedy"] and t.bot_settings["mine"] == {"kind": "mine", "class": "Plain"}
    r = run_cli(["grid", "report", str(out), "--json"])
    assert r.exit_code == 0, r.stderr
    r = run_cli(["grid", "simulate", "--out", str(out), "--extend", "--matches", "3", "--quiet"])
    assert r.exit_code == 2 and "unknown bot 'mine'" in r.stderr and "register_bot" in r.stderr, r.stderr
    assert len(load_tournament(out).matches) == 4  # the run is as it was


def test_a_bot_changing_or_keeping_its_view_changes_nothing():
    """Guard (no flaw found): a bot forcing a change into its frozen view (object.__setattr__)
    or reading an old view later sees only its own copy; the hole plays as with an honest bot,
    and the view holds no field beyond the public ones."""

    class Meddler(Plain):
        kept = []

        def choose_draw(self, view):
            Meddler.kept.append(view)
            object.__setattr__(view, "stock_size", 0)
            object.__setattr__(view, "grids", ())
            return STOCK

    clean = _hole(Plain(np.random.default_rng(0), name="p")).play()
    meddled = _hole(Meddler(np.random.default_rng(0), name="p")).play()
    assert meddled.strokes == clean.strokes
    fields = {f.name for f in dataclasses.fields(Meddler.kept[0])}
    assert set(vars(Meddler.kept[0])) == fields  # no engine, no state, nothing hidden by attribute
    assert "stock" not in fields and all(isinstance(getattr(Meddler.kept[0], f), (int, tuple, type(None), str, bool))
                                         or f == "rules" for f in fields)


def test_a_person_at_the_terminal_still_leaves_the_match_as_before(run_cli):
    """Guard for the change above: the person's 'q' (an exception of the command's own) is not
    turned into a bot failure."""
    r = run_cli(["grid", "play", "--bots", "random", "--grid", "4", "--holes", "1", "--seed", "1"], input="q\n")
    assert r.exit_code == 0 and "Match left unfinished: you quit." in r.stdout, (r.stdout, r.stderr)


def test_an_unknown_bot_of_ones_own_says_how_it_becomes_known():
    """'unknown bot' for a name of the form register_bot allows now says a bot of one's own is
    known once registered; a misspelt count of a known bot does not say so."""
    with pytest.raises(InputError, match="register_bot"):
        make_bot("my-bot")
    with pytest.raises(InputError) as e:
        make_bot("greedy:3")
    assert "register_bot" not in str(e.value)


def test_a_bot_s_settings_of_any_kind_leave_its_run_readable(registered, tmp_path):
    """An outside bot with the constructor keywords order=['a', 'b'] and cut=nan had them
    written into the run's manifest, which golfsolve then refused to read ('field
    bot_settings.p.order: a number, text, true/false or a list of numbers'): the run it had
    just played could not be reported. weights=(1, 2, 3), a tuple, was not recorded at all."""
    from golfsolve.grid.bots import bot_settings
    from golfsolve.stats.gridruns import GridSpec, load_tournament, run_grid_simulate

    class Tuned(Plain):
        def __init__(self, rng=None, name=None, weights=(1, 2, 3), style="x", order=["a", "b"], cut=float("nan"),
                     limit=None):
            super().__init__(rng, name)
            self.weights, self.style, self.order, self.cut, self.limit = weights, style, order, cut, limit

    registered("tuned", Tuned)
    expected = {"kind": "tuned", "class": "Tuned", "weights": [1, 2, 3], "style": "x"}
    assert bot_settings("tuned") == expected
    out = tmp_path / "run"
    run_grid_simulate(out, GridSpec(parse_rules("default", players=2, grid=4, holes=1), ("tuned", "greedy"), 1, 1),
                      progress=False)
    assert load_tournament(out).bot_settings["tuned"] == expected


def test_a_bot_s_own_settings_method_cannot_spoil_the_record(registered):
    """An outside bot overriding settings() to answer {'kind': 'heuristic', 'table': {'a': 1}}
    had its registry kind replaced in the run's record and a dict written where the manifest's
    reader refuses one; an answer that is no dict failed as 'not a mapping'."""
    from golfsolve.grid.bots import bot_settings

    class Own(Plain):
        def settings(self):
            return {"kind": "heuristic", "class": "Own", "table": {"a": 1}, "depth": 3}

    class Odd(Plain):
        def settings(self):
            return ["depth", 3]

    registered("own", Own)
    registered("odd", Odd)
    assert bot_settings("own") == {"kind": "own", "class": "Own", "depth": 3}
    assert bot_settings("odd") == {"kind": "odd", "class": "Odd"}


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


_AS_RANDOM = object()


def _seat_odd_bot(openers=_AS_RANDOM, place=_AS_RANDOM):
    """A hole whose first seat answers ``openers`` and ``place`` (by default, as the random bot does)."""
    from golfsolve.grid.bots import RandomBot, make_bot
    from golfsolve.grid.engine import Hole

    class Odd(RandomBot):
        def choose_openers(self, view, count):
            return super().choose_openers(view, count) if openers is _AS_RANDOM else openers

        def choose_place(self, view):
            return super().choose_place(view) if place is _AS_RANDOM else place

    return Hole(one_hole_grid_rules(), [Odd(np.random.default_rng(0), "odd"), make_bot("random", np.random.default_rng(1))],
                np.random.default_rng(0))


@pytest.mark.parametrize("answer", [[0.5, 1.7], [True, 2], "ab", 3, None])
def test_the_referee_refuses_openers_that_are_no_slots(answer):
    """a bot of one's own answering choose_openers with [0.5, 1.7] had slots 0 and 1 turned (and
    [True, 2] slots 1 and 2): the referee read what is no slot as one instead of refusing it; 'ab'
    failed as "'<=' not supported between instances of 'int' and 'str'" """
    from golfsolve.grid.engine import RuleViolation

    with pytest.raises(RuleViolation, match=r"^odd \(seat 0\): openers must be up to 2 distinct slots, whole numbers 0 to 3; "
                                            r"got " + re.escape(repr(answer))):
        _seat_odd_bot(openers=answer).play()


@pytest.mark.parametrize("answer", [("swap", 1.0), ("swap", True), "swap", None])
def test_the_referee_names_a_placement_that_is_none(answer):
    """choose_place answering ('swap', 1.0) was refused as "slot 1.0 is outside 0..3 on a 4-card
    grid" (ValueError), false of slot 1; 'swap' was read a placement per character, ('s', 'w', 'a',
    'p'), and None failed as "'NoneType' object is not iterable" """
    from golfsolve.grid.engine import RuleViolation

    with pytest.raises(RuleViolation, match=r"^odd \(seat 0\): cannot place " + re.escape(repr(answer)) +
                       r" \(drew .* a placement is \(kind, slot\), e\.g\. \('swap', 2\)\)"):
        _seat_odd_bot(place=answer).play()


def test_the_referee_still_takes_numpy_slots_and_fewer_openers():
    for openers, turned in [((np.int64(0), np.int64(1)), [0, 1]), ((3,), [3]), ([], [])]:
        hole = _seat_odd_bot(openers=openers)
        hole.play()
        assert next(e for e in hole.events if e["type"] == "open" and e["player"] == 0)["slots"] == turned
    hole = _seat_odd_bot(place=("swap", np.int64(0)))
    hole.play()
    assert any(e["type"] == "swap" and e["player"] == 0 and e["slot"] == 0 for e in hole.events)


@pytest.mark.parametrize("kind, target, words", [
    ("My-Bot", "golfsolve.grid.bots:MCBot", "a bot's name is lower-case letters, digits, '-' and '_'"),  # unreachable
    ("mc:fast", "golfsolve.grid.bots:MCBot", "a bot's name is lower-case letters"),  # read as mc with a count
    ("a,b", "golfsolve.grid.bots:MCBot", "a bot's name is lower-case letters"),  # split by --bots
    ("", "golfsolve.grid.bots:MCBot", "a bot's name is lower-case letters"),
    ("mine", "golfsolve.grid.bots.MCBot", "a bot's class is 'module:attribute' text or a callable"),
    ("mine", 5, "a bot's class is 'module:attribute' text or a callable"),
])
def test_register_bot_refuses_a_name_no_bot_list_can_reach(kind, target, words):
    # was: registered, then 'My-Bot' was unknown to make_bot (names are read in lower case), and
    # a target without a colon failed only when the bot was first made
    from golfsolve.grid.botnames import BOTS, register_bot

    with pytest.raises((InputError, TypeError), match="^" + re.escape(words)):
        register_bot(kind, target)
    assert kind not in BOTS
