"""Bots behind one small interface: random, greedy, heuristic, Monte Carlo and ISMCTS.

A bot answers three questions, each given only its :class:`~.view.PlayerView`:
``choose_openers`` (which cards to turn before play), ``choose_draw`` (stock, discard or
knock) and ``choose_place`` (what to do with the drawn card).

* :class:`RandomBot` picks uniformly among the legal choices.
* :class:`GreedyBot` plays like a good casual player: it values a face-down card at the
  deck's mean, takes the discard when it lowers its estimate by a point or more (a
  cancelling or low card), swaps into the slot that gains most, turns a card when the draw
  helps nowhere, closes only when not behind, and knocks when well ahead.
* :class:`HeuristicBot` is the strong heuristic of :mod:`.policy` (the rollout policy
  of the searches below), run by the same compiled code the rollouts use.
* :class:`MCBot` samples the hidden cards consistent with its view, plays every candidate
  action out ``samples`` times with the heuristic (:mod:`.search`), and picks the lowest
  mean strokes. :class:`GreedyMCBot` (``mc-greedy``) is the earlier version with greedy
  rollouts (:mod:`.greedy`), kept as a yardstick.
* :class:`ISMCTSBot` is information-set Monte Carlo tree search over its own turn.

``paired-rel`` (:mod:`.paired`, sequential halving over common worlds, playing for the
table) and ``spiel-ismcts`` (:mod:`.spiel`) live in their own modules, loaded by name.
"""

from __future__ import annotations

import inspect
import math
from functools import lru_cache
from typing import Any, ClassVar, Optional, Sequence

import numpy as np

from ..cards import N_CARDS_MAX
from ..errors import MAX_EFFORT, InputError, shown
from ..inputs import expect, whole_count
from . import policy as P
from . import layout as L
from .greedy import mc_evaluate
from . import search as S
from .botnames import (BOTS, BotKind, bot_entry, bot_name, known_bots, parse_bots, register_bot,  # noqa: F401 - the
                       resolve_bot, split_bots, takes_mc_samples)  # registry and its checks, by their old address
from .botnames import is_recordable, registry_kind
from .engine import MAX_TURNS, RNG_MUST
from .rules import GridRules
from .scoring import estimate100
from .view import DISCARD, FLIP, KNOCK, PASS, STOCK, SWAP, Placement, PlayerView

#: Greedy takes the discard when it lowers the estimate by at least this (hundredths).
TAKE_GAIN = 100
#: Greedy knocks when its estimate is this far (hundredths) below every opponent's.
KNOCK_MARGIN = 500


class Bot:
    """Base class: a name and a seeded generator; subclasses answer the three questions."""

    kind = "bot"
    #: What decides the bot's play beyond its constructor's keywords, by attribute name: values
    #: its class or this version of golfsolve fixes (a heuristic's parameters, a constant of a
    #: search). :meth:`settings` records them, so a run's manifest names every one.
    fixed_settings: ClassVar[tuple[str, ...]] = ()

    def __init__(self, rng: Optional[np.random.Generator] = None, name: Optional[str] = None) -> None:
        # checked here, where every bot is made: a seed or text given as the generator failed at the
        # bot's first decision, in the middle of a match
        self.rng = rng if expect(rng, (np.random.Generator, type(None)), "rng", RNG_MUST) is not None \
            else np.random.default_rng()
        self.name = expect(name, (str, type(None)), "a bot's name", "text, e.g. 'mine', or None") or self.kind

    def settings(self) -> dict[str, Any]:
        """Every setting that decides this bot's play, as plain JSON values: ``class`` (its
        class's name), each keyword of its constructor (``iterations``, ``samples``, ...)
        with the value it plays with, and each of :attr:`fixed_settings` (an array as a list).
        The generator and the name are not settings: they change no decision rule."""
        out: dict[str, Any] = {"class": type(self).__name__}
        for k in (*constructor_settings(type(self)), *self.fixed_settings):
            v = getattr(self, k, None)
            if isinstance(v, np.ndarray):
                v = v.tolist()
            elif isinstance(v, np.generic):
                v = v.item()
            elif isinstance(v, tuple):  # weights=(1, 2, 3) as the list JSON has
                v = list(v)
            if isinstance(v, list):
                v = [x.item() if isinstance(x, np.generic) else x for x in v]
            # only what a run's manifest reads back: an outside bot's order=['a', 'b'] or cut=nan
            # was written into the manifest, which then refused it, and the run could not be read
            if is_recordable(v):
                out[k] = v
        return out

    def choose_openers(self, view: PlayerView, count: int) -> Sequence[int]:
        """The ``count`` distinct slots to turn face up before play."""
        raise NotImplementedError

    def choose_draw(self, view: PlayerView) -> str:
        """Where to draw from: one of ``view.legal_draws()`` (stock, discard, knock)."""
        raise NotImplementedError

    def choose_place(self, view: PlayerView) -> Placement:
        """What to do with the drawn card: one of ``view.legal_placements()``."""
        raise NotImplementedError


class RandomBot(Bot):
    """Uniformly random legal choices (knocking rarely, or every hole would end at once)."""

    kind = "random"
    #: the chance of knocking when a knock is legal
    knock_chance = 0.05
    fixed_settings = ("knock_chance",)

    def choose_openers(self, view: PlayerView, count: int) -> Sequence[int]:
        return [int(x) for x in self.rng.choice(view.rules.grid, size=count, replace=False)]

    def choose_draw(self, view: PlayerView) -> str:
        legal = view.legal_draws()
        if KNOCK in legal and self.rng.random() < self.knock_chance:
            return KNOCK
        legal = [d for d in legal if d != KNOCK]
        return legal[int(self.rng.integers(len(legal)))]

    def choose_place(self, view: PlayerView) -> Placement:
        legal = view.legal_placements()
        return legal[int(self.rng.integers(len(legal)))]


@lru_cache(maxsize=64)
def _hidden100(rules: GridRules) -> int:
    return rules.hidden_estimate100()


def greedy_place(view: PlayerView, card: int, from_discard: bool) -> tuple[Placement, int]:
    """The greedy placement of ``card`` and its estimated gain in hundredths.

    Mirrors :func:`.greedy.place_choice` exactly (same order, same ties).
    """
    rules = view.rules
    h = _hidden100(rules)
    me = view.me
    mine = list(view.grids[me])
    g = rules.grid
    hidden = [i for i, c in enumerate(mine) if c is None]
    nh = len(hidden)
    now = estimate100(mine, rules, h)
    opp = min(estimate100(gr, rules, h) for q, gr in enumerate(view.grids) if q != me)
    best_i, best_gain, any_i, any_gain = -1, None, -1, None
    for i in range(g):
        trial = list(mine)
        trial[i] = card
        after = estimate100(trial, rules, h)
        gain = now - after
        if any_gain is None or gain > any_gain:
            any_gain, any_i = gain, i
        closes = (not view.ending) and mine[i] is None and nh == 1
        if closes and after > opp:
            continue
        if best_gain is None or gain > best_gain:
            best_gain, best_i = gain, i
    if from_discard:
        return ((SWAP, best_i), best_gain) if best_i >= 0 else ((SWAP, any_i), any_gain)  # type: ignore[return-value]
    if best_i >= 0 and best_gain is not None and best_gain > 0:
        return (SWAP, best_i), best_gain
    flip_closes = (not view.ending) and nh == 1
    can_flip = rules.throw_and_turn
    if can_flip and hidden and ((not flip_closes) or now <= opp):
        return (FLIP, hidden[0]), 0
    if rules.discard_without_flip or (rules.final_putt and nh == 1):
        return (PASS, -1), 0
    if best_i >= 0:
        return (SWAP, best_i), best_gain  # type: ignore[return-value]
    if can_flip and hidden:
        return (FLIP, hidden[0]), 0
    return (SWAP, any_i), any_gain  # type: ignore[return-value]


def greedy_knock(view: PlayerView) -> bool:
    """Knock with at most one card face down and an estimate well below everyone's."""
    rules = view.rules
    if rules.knock == "off" or view.ending or len(view.hidden_slots) > 1:
        return False
    h = _hidden100(rules)
    now = estimate100(view.my_grid, rules, h)
    opp = min(estimate100(gr, rules, h) for q, gr in enumerate(view.grids) if q != view.me)
    return now + KNOCK_MARGIN <= opp


class GreedyBot(Bot):
    """The heuristic a good casual player uses; the compiled rollouts play the same way."""

    kind = "greedy"
    #: the module's constants, which greedy_place, greedy_knock and the compiled rollouts read;
    #: recorded with a run (a later version may change them), not settable per bot
    take_gain = TAKE_GAIN
    knock_margin = KNOCK_MARGIN
    fixed_settings = ("take_gain", "knock_margin")

    def choose_openers(self, view: PlayerView, count: int) -> Sequence[int]:
        # Row-major order turns one card per column before doubling up on any column.
        return list(range(count))

    def choose_draw(self, view: PlayerView) -> str:
        if greedy_knock(view):
            return KNOCK
        top = view.top
        if top is None:
            return STOCK
        _, gain = greedy_place(view, top, True)
        return DISCARD if gain >= TAKE_GAIN else STOCK

    def choose_place(self, view: PlayerView) -> Placement:
        assert view.drawn is not None
        action, _ = greedy_place(view, view.drawn, view.source == DISCARD)
        return action


def kernel_tables(rules: GridRules, max_turns: int = MAX_TURNS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(prm, key_tab, val100): the rules as the arrays the compiled kernels read."""
    prm = np.zeros(L.N_PRM, dtype=np.int64)
    prm[L.P_N] = rules.players
    prm[L.P_G] = rules.grid
    prm[L.P_ROWS] = rules.rows
    prm[L.P_COLS] = rules.cols
    prm[L.P_ROWC] = int(rules.row_cancel)
    prm[L.P_ANY] = int(rules.cancel == "anywhere")
    prm[L.P_H] = _hidden100(rules)
    prm[L.P_PUTT] = int(rules.final_putt)
    prm[L.P_NOFL] = int(rules.discard_without_flip)
    prm[L.P_KNOCK] = {"off": 0, "plus10": 1, "double": 2}[rules.knock]
    prm[L.P_CAP] = max_turns
    prm[L.P_TAKE] = TAKE_GAIN
    prm[L.P_KMARGIN] = KNOCK_MARGIN
    prm[L.P_OPENERS] = rules.openers
    prm[L.P_PAIR] = int(rules.pairwise)
    prm[L.P_TURN] = int(rules.throw_and_turn)
    key_tab = rules.key_table()
    val100 = rules.value_table() * 100
    return prm, key_tab, val100


#: Default Monte Carlo samples per candidate action.
DEFAULT_SAMPLES = 100
#: Default ISMCTS iterations per decision, and its exploration constant (in strokes).
DEFAULT_ITERATIONS = 1000
UCB_C = 10.0
#: Play-outs of ``mc`` and ``ismcts`` stop after this many turns (0: at the end of the
#: hole) and score the searcher's grid as it then lies; see docs/grid.md for the trade.
DEFAULT_HORIZON = 0


def _horizon(horizon: object) -> int:
    # A bot's counts reach a compiled kernel's 64-bit integers: 2**63 samples wrapped round to a
    # search of none, answered as a decision; 2.5 or NaN were played as some other count.
    return whole_count(horizon, "horizon (turns a play-out runs; 0: to the end of the hole)", 0, MAX_EFFORT)


def view_arrays(view: PlayerView, tables: tuple[np.ndarray, np.ndarray, np.ndarray]) -> tuple[np.ndarray, ...]:
    """The view as kernel arrays: (grid0, up0, disc0, st0, pool, known, ucnt, pub).

    Face-down cards are 0 with ``up`` False; ``pool`` lists the unseen cards and
    ``known`` the recycled cards known to be in the stock; ``ucnt``/``pub`` summarise the
    unseen pool for the heuristic. Only public facts and the player's drawn card go in.
    """
    rules = view.rules
    prm, key_tab, val100 = tables
    n, g = rules.players, rules.grid
    grid0 = np.zeros((n, g), np.int64)
    up0 = np.zeros((n, g), np.bool_)
    for p, gr in enumerate(view.grids):
        for i, c in enumerate(gr):
            if c is not None:
                grid0[p, i] = c
                up0[p, i] = True
    cap = len(rules.deck_cards()) + 2
    disc0 = np.zeros(cap, np.int64)
    disc0[:len(view.discard)] = view.discard
    st0 = np.zeros(L.N_ST, np.int64)
    st0[L.S_SL] = view.stock_size
    st0[L.S_DL] = len(view.discard)
    st0[L.S_CUR] = view.me
    st0[L.S_ENDS] = view.turns_left
    st0[L.S_KNOCKER] = -1 if view.knocker is None else view.knocker
    st0[L.S_CLOSER] = -1 if view.closer is None else view.closer
    st0[L.S_STALL] = view.stall
    st0[L.S_TURN] = view.turn
    unseen = np.array(view.unseen, dtype=np.int64)
    pool = np.repeat(np.arange(N_CARDS_MAX, dtype=np.int64), unseen)
    known = np.repeat(np.arange(N_CARDS_MAX, dtype=np.int64), np.array(view.stock_known, dtype=np.int64))
    n_hidden = int((~up0).sum())
    if len(pool) - n_hidden + len(known) != view.stock_size:
        raise AssertionError("view is inconsistent: unseen cards do not fill the hidden slots and stock")
    ucnt = np.zeros(P.N_KEYS, np.int64)
    np.add.at(ucnt, key_tab[pool] + P.KEY_OFF, 1)
    pub = np.zeros(P.N_PUB, np.int64)
    pub[P.U_N] = len(pool)
    pub[P.U_SUM] = int(val100[pool].sum())
    pub[P.U_KNOWN] = int(len(known) > 0)
    return grid0, up0, disc0, st0, pool, known, ucnt, pub


class _Compiled(Bot):
    """A bot whose decisions come from the compiled kernels, fed its view as arrays."""

    #: the heuristic's parameters (its own play, or the play-outs of a search)
    fixed_settings = ("hp",)

    def __init__(self, rng: Optional[np.random.Generator] = None, name: Optional[str] = None) -> None:
        super().__init__(rng, name)
        self._tables: dict[GridRules, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.hp = P.DEFAULT_HP.copy()
        self.decisions = 0

    def choose_openers(self, view: PlayerView, count: int) -> Sequence[int]:
        # Row-major order turns one card per column before doubling up on any column.
        return list(range(count))

    def tables(self, rules: GridRules):
        if rules not in self._tables:
            self._tables[rules] = kernel_tables(rules)
        return self._tables[rules]

    def _arrays(self, view: PlayerView):
        return view_arrays(view, self.tables(view.rules))


def _h_scratch(g: int):
    return (np.zeros(g, np.int64), np.zeros(g, np.bool_), np.zeros(g, np.bool_), np.zeros(g, np.int64),
            np.zeros(g, np.bool_), np.zeros(2 * g + 1, np.float64))


class HeuristicBot(_Compiled):
    """The strong heuristic (:mod:`.policy`): unknown cards at the unseen mean with their
    chances of matching, discard taken only when it beats an average draw, closing and
    knocking weighed against the opponents' visible grids. It is the rollout policy of
    ``mc`` and ``ismcts``, and runs the very same compiled code."""

    kind = "heuristic"

    def choose_draw(self, view: PlayerView) -> str:
        grid0, up0, disc0, st0, _pool, _known, ucnt, pub = self._arrays(view)
        prm, kt, vt = self.tables(view.rules)
        kind, slot = P.h_draw(grid0, up0, disc0, st0, view.me, prm, self.hp, kt, vt, ucnt, pub,
                              *_h_scratch(view.rules.grid))
        if kind == L.A_KNOCK:
            return KNOCK
        return DISCARD if kind == L.A_DISCARD_SWAP else STOCK

    def choose_place(self, view: PlayerView) -> Placement:
        assert view.drawn is not None
        grid0, up0, _disc0, _st0, _pool, _known, ucnt, pub = self._arrays(view)
        prm, kt, vt = self.tables(view.rules)
        kind, slot, _gain = P.h_place(grid0, up0, view.me, view.drawn, view.source == DISCARD, view.ending, prm,
                                      self.hp, kt, vt, ucnt, pub, *_h_scratch(view.rules.grid))
        return {L.A_SWAP: SWAP, L.A_FLIP: FLIP, L.A_PASS: PASS}[int(kind)], int(slot)


def _draw_candidates(view: PlayerView) -> tuple[list[int], list[int]]:
    legal = view.legal_draws()
    kinds, slots = [L.A_STOCK], [-1]
    if DISCARD in legal:
        kinds += [L.A_DISCARD_SWAP] * view.rules.grid
        slots += list(range(view.rules.grid))
    if KNOCK in legal:
        kinds.append(L.A_KNOCK)
        slots.append(-1)
    return kinds, slots


_PLACE_CODE = {SWAP: L.A_SWAP, FLIP: L.A_FLIP, PASS: L.A_PASS}


class Searcher(_Compiled):
    """Shared draw/placement plumbing: score candidates, remember a chosen discard slot."""

    def __init__(self, rng: Optional[np.random.Generator] = None, name: Optional[str] = None) -> None:
        super().__init__(rng, name)
        self._plan: Optional[tuple[int, int]] = None

    def _best(self, view: PlayerView, kinds: list[int], slots: list[int], drawn: int) -> int:
        raise NotImplementedError

    @staticmethod
    def _place_mask(view: PlayerView, drawn: int) -> np.ndarray:
        """The placements (swap slot, flip g + slot, pass 2g) a stock card may make, as the
        searches' tree below the stock draw reads them."""
        g = view.rules.grid
        legal = np.zeros(2 * g + 1, np.bool_)
        legal[:g] = True
        if drawn < 0:
            # What a stock card may do next is public: the same in every determinization.
            probe = PlayerView(**{**view.__dict__, "drawn": 0, "source": STOCK})
            for k, s in probe.legal_placements():
                legal[{SWAP: s, FLIP: g + s, PASS: 2 * g}[k]] = True
        return legal

    def choose_draw(self, view: PlayerView) -> str:
        kinds, slots = _draw_candidates(view)
        best = self._best(view, kinds, slots, -1)
        if kinds[best] == L.A_DISCARD_SWAP:
            self._plan = (view.turn, slots[best])
            return DISCARD
        self._plan = None
        return KNOCK if kinds[best] == L.A_KNOCK else STOCK

    def choose_place(self, view: PlayerView) -> Placement:
        assert view.drawn is not None
        if view.source == DISCARD and self._plan is not None and self._plan[0] == view.turn:
            return (SWAP, self._plan[1])
        legal = view.legal_placements()
        best = self._best(view, [_PLACE_CODE[k] for k, _ in legal], [s for _, s in legal], view.drawn)
        return legal[best]


class MCBot(Searcher):
    """Flat Monte Carlo: ``samples`` worlds consistent with the view, every candidate
    action played out in each with the heuristic policy; the lowest mean strokes wins."""

    kind = "mc"

    def __init__(self, rng: Optional[np.random.Generator] = None, name: Optional[str] = None,
                 samples: int = DEFAULT_SAMPLES, horizon: int = DEFAULT_HORIZON) -> None:
        super().__init__(rng, name)
        self.samples = whole_count(samples, "Monte Carlo samples")
        self.horizon = _horizon(horizon)

    def evaluate(self, view: PlayerView, kinds: list[int], slots: list[int], drawn: int) -> np.ndarray:
        """Mean strokes of each candidate."""
        grid0, up0, disc0, st0, pool, known, ucnt, pub = self._arrays(view)
        prm, kt, vt = self.tables(view.rules)
        seed = int(self.rng.integers(2**31 - 1))
        self.decisions += 1
        return S.h_mc_evaluate(grid0, up0, disc0, st0, pool, known, ucnt, pub, view.me, drawn,
                               np.array(kinds, np.int64), np.array(slots, np.int64), self.samples, seed,
                               prm, self.hp, kt, vt, self.horizon)

    def _best(self, view, kinds, slots, drawn) -> int:
        return int(np.argmin(self.evaluate(view, kinds, slots, drawn)))


class ISMCTSBot(Searcher):
    """Information-set MCTS (:func:`.search.ismcts`) with ``iterations`` determinizations
    per decision; the most visited action is played."""

    kind = "ismcts"
    #: the placement tree's exploration constant, a share of ``c_ucb`` (:data:`.search.PLACE_C`)
    place_c = S.PLACE_C
    fixed_settings = ("hp", "place_c")

    def __init__(self, rng: Optional[np.random.Generator] = None, name: Optional[str] = None,
                 iterations: int = DEFAULT_ITERATIONS, c_ucb: float = UCB_C, horizon: int = DEFAULT_HORIZON) -> None:
        super().__init__(rng, name)
        self.iterations = whole_count(iterations, "ISMCTS iterations")
        if isinstance(c_ucb, bool) or not isinstance(c_ucb, (int, float, np.integer, np.floating)) \
                or not 0 <= c_ucb < math.inf:  # NaN or -5 explored by a rule no one chose, without a word
            raise InputError(f"c_ucb, the exploration constant in strokes, must be a number from 0, not {shown(c_ucb)}")
        self.c_ucb = c_ucb
        self.horizon = _horizon(horizon)

    def _best(self, view, kinds, slots, drawn) -> int:
        grid0, up0, disc0, st0, pool, known, ucnt, pub = self._arrays(view)
        prm, kt, vt = self.tables(view.rules)
        legal = self._place_mask(view, drawn)
        seed = int(self.rng.integers(2**31 - 1))
        self.decisions += 1
        visits, total = S.ismcts(grid0, up0, disc0, st0, pool, known, ucnt, pub, view.me, drawn,
                                 np.array(kinds, np.int64), np.array(slots, np.int64), legal, self.iterations,
                                 self.c_ucb, seed, prm, self.hp, kt, vt, self.horizon)
        # Most visits; ties to the lower mean.
        mean = np.where(visits > 0, total / np.maximum(visits, 1), np.inf)
        return int(np.lexsort((mean, -visits))[0])


class GreedyMCBot(Searcher):
    """The plain Monte Carlo bot, kept as a yardstick (``mc-greedy``): like :class:`MCBot`
    but the rollouts are played by the greedy policy (:mod:`.greedy`)."""

    kind = "mc-greedy"
    # its play-outs are greedy's (the heuristic's parameters play no part)
    take_gain = TAKE_GAIN
    knock_margin = KNOCK_MARGIN
    fixed_settings = ("take_gain", "knock_margin")

    def __init__(self, rng: Optional[np.random.Generator] = None, name: Optional[str] = None,
                 samples: int = DEFAULT_SAMPLES) -> None:
        super().__init__(rng, name)
        self.samples = whole_count(samples, "Monte Carlo samples")

    def _arrays(self, view: PlayerView):
        """The view as the greedy kernel's arrays (no unseen-pool summary)."""
        grid0, up0, disc0, st0, pool, known, _ucnt, _pub = view_arrays(view, self.tables(view.rules))
        return (grid0, up0, disc0, st0, pool, known) + self.tables(view.rules)

    def _best(self, view, kinds, slots, drawn) -> int:
        grid0, up0, disc0, st0, pool, known, prm, key_tab, val100 = self._arrays(view)
        seed = int(self.rng.integers(2**31 - 1))
        self.decisions += 1
        means = mc_evaluate(grid0, up0, disc0, st0, pool, known, view.stock_size, view.me, drawn,
                              np.array(kinds, np.int64), np.array(slots, np.int64), self.samples, seed,
                              prm, key_tab, val100)
        return int(np.argmin(means))


def make_bot(spec: str, rng: Optional[np.random.Generator] = None, samples: Optional[int] = None) -> Bot:
    """A bot from its name (:data:`~.botnames.BOTS`): ``random``, ``greedy``, ``heuristic``,
    ``mc[:SAMPLES]``, ``mc-greedy[:SAMPLES]``, ``ismcts[:ITERATIONS]``, ``paired-rel[:PLAYOUTS]``, or, with the
    ``spiel`` extra, ``spiel-ismcts[:SIMULATIONS]``; ``samples`` is the Monte Carlo
    sample count where the name gives none."""
    entry, kw = bot_entry(spec, samples)
    # a seed where the generator goes would fail at the bot's first decision
    expect(rng, (np.random.Generator, type(None)), "rng", RNG_MUST)
    name = bot_name(spec)
    factory = resolve_bot(entry)
    # a class registered with register_bot whose constructor takes no name failed as "__init__()
    # got an unexpected keyword argument 'name'", naming neither the bot nor how it is called
    where = entry.target if isinstance(entry.target, str) else getattr(entry.target, "__qualname__",
                                                                       repr(entry.target))
    call = ", ".join(["rng", f"name={name!r}", *(f"{k}={v}" for k, v in kw.items())])
    try:
        bot = factory(rng, name=name, **kw)
    except TypeError as e:
        raise TypeError(f"bot {name!r} ({where}) could not be made as every bot is, {where}({call}): "
                        f"{e}") from e
    # a factory answering None (or a class that is no bot) was seated, and failed at the table
    if not all(callable(getattr(bot, m, None)) for m in ("choose_openers", "choose_draw", "choose_place")):
        raise TypeError(f"bot {name!r} ({where}) made {type(bot).__name__} {shown(bot)}, which is no bot: "
                        "a bot has choose_openers, choose_draw and choose_place (subclass golfsolve.grid.bots.Bot)")
    return bot


def constructor_settings(cls: type) -> list[str]:
    """The keywords of ``cls``'s constructor that are settings (all but the generator and the name)."""
    try:
        params = inspect.signature(cls.__init__).parameters
    except (TypeError, ValueError):  # a constructor without a signature Python can read
        return []
    return [k for k, p in params.items() if k not in ("self", "rng", "name")
            and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def bot_settings(spec: str, samples: Optional[int] = None) -> dict[str, Any]:
    """The full settings the bot ``spec`` names plays with in this version of golfsolve:
    ``kind`` (its name in the registry, :data:`~.botnames.BOTS`), then :meth:`Bot.settings`
    (``class``, every constructor keyword, every fixed setting); ``samples`` is the Monte
    Carlo sample count where the name gives none, as :func:`make_bot` takes it. Plain JSON
    values that :func:`bot_from_settings` turns back into the same bot."""
    entry, _ = bot_entry(spec, samples)
    bot = make_bot(spec, samples=samples)
    own = bot.settings() if isinstance(bot, Bot) else {}
    # an outside bot may override settings(): what it answers must not replace the registry's
    # kind, nor put into a run's manifest what the manifest's reader refuses
    own = {k: v for k, v in own.items() if isinstance(k, str) and k != "kind" and is_recordable(v)} \
        if isinstance(own, dict) else {}
    return {"kind": registry_kind(entry), "class": type(bot).__name__, **own}


def bot_from_settings(settings: dict[str, Any], rng: Optional[np.random.Generator] = None,
                      name: Optional[str] = None) -> Bot:
    """The bot ``settings`` (:func:`bot_settings`, as a run's manifest records it) describe:
    its registry ``kind``'s class made with the recorded constructor keywords and the recorded
    values of its settable fixed settings (the heuristic's parameters). :class:`InputError`
    naming the setting when this version of golfsolve cannot make that bot (an unknown kind, a
    constant of this version that differs, a setting its bot does not have)."""
    from .botnames import settings_difference

    expect(settings, dict, "settings", "a bot's settings as bot_settings() gives them")
    kind = settings.get("kind")
    if kind not in BOTS:
        raise InputError(f"these settings name no bot this golfsolve has (kind {kind!r}; known: {known_bots()})")
    factory = resolve_bot(BOTS[kind])
    keywords = constructor_settings(factory) if isinstance(factory, type) else []
    bot = factory(rng, name=name or kind, **{k: settings[k] for k in keywords if k in settings})
    for k, v in settings.items():
        # an instance's own value (the heuristic's parameters) is set; a class's constant is compared below
        if k in getattr(bot, "fixed_settings", ()) and k in vars(bot):
            setattr(bot, k, np.array(v, dtype=getattr(vars(bot)[k], "dtype", None)) if isinstance(v, list) else v)
    made = {"kind": kind, **(bot.settings() if isinstance(bot, Bot) else {"class": type(bot).__name__})}
    diff = settings_difference(settings, made, every=True)
    if diff is not None:
        key, said, has = diff
        raise InputError(f"this golfsolve cannot make the bot these settings describe: its {kind} has {key} {has} "
                         f"where the settings say {said}")
    return bot
