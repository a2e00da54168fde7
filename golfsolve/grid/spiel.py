"""Grid Golf as an OpenSpiel game, and OpenSpiel's ISMCTS as a golfsolve bot.

Optional: needs the ``spiel`` extra (``pip install -e '.[spiel]'``, package
``open_spiel``). Importing this module registers the game ``python_golfsolve_grid``.

The game's state wraps a :class:`~.state.HoleState` and uses only its public methods, so
the adapter cannot drift from the rules: the actions and chance outcomes are the hole
state's (see :mod:`.state`: chance deals every grid card and the discard one at a time,
and draws each stock card when it is drawn; the stock is a multiset until then, so a
recycled stock needs no order). Returns are minus strokes (OpenSpiel maximises). An
information state is the player's :class:`~.view.PlayerView` (public facts and the card
in hand) with the public step of the turn (phase and seat), as a string and a tensor, so
:meth:`GridGolfState.resample_from_infostate` deals the unseen cards anew.
"""

from __future__ import annotations

import dataclasses
import struct
from typing import Any, Optional, Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as spiel_ismcts
from open_spiel.python.algorithms import mcts as spiel_mcts

from ..cards import N_CARDS_MAX
from ..errors import InputError
from . import search as S
from .policy import DEFAULT_HP
from .bots import Bot, HeuristicBot, view_arrays
from .rules import GridRules, parse_rules
from .state import (DEAL, DRAW, MAX_TURNS, OPEN, OVER, PLACE, STOCK_DRAW, HoleState, action_name, decode, encode,
                    num_actions)
from .view import DISCARD, STOCK, Placement, PlayerView

GAME_NAME = "python_golfsolve_grid"

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="golfsolve grid Golf",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=True,
    parameter_specification={"rules": "default", "players": 4, "grid": 6, "openers": 2})
#: The parameters the game takes (OpenSpiel's ``parameter_specification``).
_PARAMS = ("rules", "players", "grid", "openers")


class GridGolfGame(pyspiel.Game):
    """One hole of grid Golf under a golfsolve rule spec (``rules``, ``players``, ``grid``,
    ``openers``: every rule that changes a hole, so the game string names the game)."""

    def __init__(self, params: Optional[dict[str, Any]] = None, rules: Optional[GridRules] = None) -> None:
        if params is not None and not isinstance(params, dict):
            raise TypeError(f"params must be a dict of {', '.join(_PARAMS)}, not {type(params).__name__} "
                            f"{repr(params)[:40]}")
        params = dict(params or {})
        unknown = sorted(set(params) - set(_PARAMS), key=str)
        if unknown:  # {"player": 3} would seat the default four, and name the game with the typo in it
            raise InputError(f"unknown parameter {unknown[0]!r} for {GAME_NAME} (it takes {', '.join(_PARAMS)}), "
                             "as pyspiel.load_game refuses it")
        if rules is not None:  # an exact table (openers, holes) rather than its spec
            params = {"rules": rules.spec(), "players": rules.players, "grid": rules.grid,
                      "openers": rules.openers}
        spec = params.get("rules", "default")
        if rules is None and not isinstance(spec, str):  # None would be read as the rule 'none'
            raise InputError(f"rules must be a grid rule spec such as 'default+putt', not {spec!r}")
        # the counts as the rules check them: int() would make 3.7 players 3, True openers 1
        self.rules: GridRules = rules or parse_rules(spec, players=params.get("players", 4),
                                                     grid=params.get("grid", 6),
                                                     openers=params.get("openers", 2))
        r = self.rules
        # Strokes lie between a grid of minus twos and one of tens (10 a card), a failed
        # knock doubled or plus 10; a hole is at most two decisions a turn up to the turn
        # limit, after every seat's openers.
        worst = 10 * r.grid * (2 if r.knock == "double" else 1) + (10 if r.knock == "plus10" else 0)
        info = pyspiel.GameInfo(num_distinct_actions=num_actions(r.grid), max_chance_outcomes=N_CARDS_MAX,
                                num_players=r.players, min_utility=-float(worst), max_utility=2.0 * r.grid,
                                utility_sum=None, max_game_length=2 * MAX_TURNS + r.players * r.openers)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> "GridGolfState":
        return GridGolfState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "_Observer":
        """An observer (OpenSpiel's ``make_observation``): by default a seat's information
        state (public facts and its own card), with or without perfect recall asked for, as
        the view keeps everything that bears on the unseen cards; or, factored, the public
        facts alone or the seat's card in hand alone. Every seat's cards at once are not
        offered."""
        if params:
            raise ValueError(f"{GAME_NAME} takes no observation parameters, not {params}")
        if iig_obs_type is None:
            return _Observer(self.rules, public=True, private=True)
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(f"{GAME_NAME} observes as one seat sees, or as every seat does, not all seats at once")
        return _Observer(self.rules, public=iig_obs_type.public_info,
                         private=iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER)


_PHASES = (DEAL, OPEN, DRAW, STOCK_DRAW, PLACE, OVER)
_SOURCES = (None, STOCK, DISCARD)


class _Observer:
    """What a seat observes, as a string and a tensor.

    With public facts and the seat's own card (the default: the information state), the
    string is :meth:`GridGolfState.information_state_string` and the tensor is made from the
    same facts only (the view, the phase and its seat), so it cannot tell apart what the
    string does not. Cards are one-hot over the 54 ids plus one for none (face down, no
    card); counts and numbers are plain values; the discard pile is its counts and its top
    card. The public facts alone are the same for every seat: the view any seat has
    without a card in hand, and the card in the mover's hand only when everyone knows it
    (taken from the discard; one drawn from a recycled stock is one of the stock's public
    contents, but which one only the mover knows). The private part alone is the seat and
    the card in its hand."""

    def __init__(self, rules: GridRules, public: bool = True, private: bool = True) -> None:
        n, g, c = rules.players, rules.grid, N_CARDS_MAX
        self.public, self.private = public, private
        pieces = [("me", (n,))] if private else []
        if public:
            pieces += [("seat", (n,)), ("phase", (len(_PHASES),)), ("grids", (n, g, c + 1)),
                       ("discard_top", (c + 1,)), ("discard", (c,)), ("unseen", (c,)), ("stock_known", (c,)),
                       ("stock_size", (1,))]
        if public or private:
            pieces.append(("drawn", (c + 1,)))
        if public:
            pieces += [("source", (len(_SOURCES),)), ("turn", (1,)), ("first", (n,)), ("ending", (1,)),
                       ("closer", (n + 1,)), ("knocker", (n + 1,)), ("stall", (1,)), ("turns_left", (1,)),
                       ("totals", (n,))]
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        i = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[i:i + size].reshape(shape)
            i += size

    def _facts(self, state: "GridGolfState", player: int) -> tuple[PlayerView, Optional[int], Optional[str]]:
        """The view this observer shows, with the card in hand it shows and that card's source."""
        h = state.hole
        if self.public and self.private:
            v = h.observation(player)
            return v, v.drawn, v.source
        if self.public:
            known = h.phase == PLACE and h.source == DISCARD
            return h.view(player), h.drawn if known else None, h.source if h.phase == PLACE else None
        return h.view(player), h.drawn if h.phase == PLACE and h.cur == player else None, None

    def set_from(self, state: "GridGolfState", player: int) -> None:
        """Fill the tensor with what ``player`` observes in ``state``."""
        h, d = state.hole, self.dict
        v, drawn, source = self._facts(state, player)
        none = N_CARDS_MAX
        self.tensor.fill(0)
        if self.private:
            d["me"][v.me] = 1
        if self.public or self.private:
            d["drawn"][none if drawn is None else drawn] = 1
        if not self.public:
            return
        d["seat"][h.cur] = 1
        d["phase"][_PHASES.index(h.phase)] = 1
        cards = [none if c is None else c for grid in v.grids for c in grid]
        d["grids"].reshape(len(cards), none + 1)[np.arange(len(cards)), cards] = 1
        d["discard_top"][none if v.top is None else v.top] = 1
        d["discard"][:] = np.bincount(np.array(v.discard, dtype=np.int64), minlength=none)
        d["unseen"][:] = v.unseen
        d["stock_known"][:] = v.stock_known
        d["stock_size"][0] = v.stock_size
        d["source"][_SOURCES.index(source)] = 1
        d["turn"][0] = v.turn
        d["first"][v.first] = 1
        d["ending"][0] = v.ending
        d["closer"][_seat_index(v.closer, h.rules)] = 1
        d["knocker"][_seat_index(v.knocker, h.rules)] = 1
        d["stall"][0] = v.stall
        d["turns_left"][0] = v.turns_left
        d["totals"][:] = v.totals

    def string_from(self, state: "GridGolfState", player: int) -> str:
        """What ``player`` observes in ``state``, as a string."""
        if self.public and self.private:
            return state.information_state_string(player)
        h = state.hole
        v, drawn, source = self._facts(state, player)
        if self.public:
            return f"public {info_key(dataclasses.replace(v, me=-1), h.phase, h.cur)} hand {drawn} from {source}"
        return f"p{player} hand {drawn}" if self.private else ""


def _seat_index(seat: Optional[int], rules: GridRules) -> int:
    """A seat or none as an index: the seat, or ``rules.players`` for none."""
    return rules.players if seat is None else seat


def view_key(v: PlayerView) -> str:
    """A string that is equal for two states exactly when the player's views are (the unseen
    counts included: they tell which card another seat took from the discard)."""
    return repr((v.me, v.grids, v.discard, v.stock_size, v.stock_known, v.drawn, v.source, v.turn, v.first,
                 v.ending, v.closer, v.knocker, v.stall, v.turns_left, v.unseen, v.totals))


def info_key(v: PlayerView, phase: str, seat: int) -> str:
    """An information state: the view (:func:`view_key`) at step ``phase`` of ``seat``'s
    turn (at a seat's own decision, ``draw`` or ``place`` and its own seat)."""
    return f"{view_key(v)} {phase} {seat}"


class GridGolfState(pyspiel.State):
    """A hole in progress: OpenSpiel's face of a :class:`~.state.HoleState` (``hole``)."""

    def __init__(self, game: GridGolfGame, hole: Optional[HoleState] = None) -> None:
        super().__init__(game)
        self.hole = hole if hole is not None else HoleState(game.rules)
        #: Played from the start by OpenSpiel (not built around a given hole), so the
        #: history leads to the state.
        self.played = hole is None

    @property
    def rules(self) -> GridRules:
        """The hole's rules (not a field: OpenSpiel's clone deep-copies every field)."""
        return self.hole.rules

    # -- OpenSpiel API ---------------------------------------------------------
    def current_player(self) -> int:
        return self.hole.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.hole.legal_actions() if player == self.hole.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The card dealt or drawn and its odds at a chance node; none elsewhere (the
        chance node's legal actions)."""
        return self.hole.chance_outcomes() if self.hole.is_chance_node() else []

    def _apply_action(self, action: int) -> None:
        self.hole.apply(action)

    def is_terminal(self) -> bool:
        return self.hole.is_terminal()

    def returns(self) -> list[float]:
        if not self.hole.is_terminal():
            return [0.0] * self.rules.players
        return [-float(s) for s in self.hole.returns()]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {action}"
        return action_name(action, self.rules.grid)

    def information_state_string(self, player: Optional[int] = None) -> str:
        """The player's view (:func:`view_key`) and the public step of the turn: the phase
        and the seat it belongs to. The view alone does not say whether a seat that turned
        some openers is still turning them, nor that a seat asked for a stock card."""
        h = self.hole
        p = self.current_player() if player is None else player
        if not 0 <= p < self.rules.players:
            raise ValueError(f"no seat {p} in a {self.rules.players}-player game")
        return info_key(h.observation(p), h.phase, h.cur)

    def observation_string(self, player: Optional[int] = None) -> str:
        return self.information_state_string(player)

    def __str__(self) -> str:
        """The whole state (OpenSpiel compares clones and serialized states by it): the
        stock's contents are the deck's other cards, and its order does not matter."""
        h = self.hole
        end = "" if h.ending_left < 0 else f" last lap {h.ending_left} closer {h.closer} knocker {h.knocker}"
        return (f"{h.phase} player {h.cur} turn {h.turn} grids {h.grid} up {h.up} discard {h.discard} "
                f"hand {h.drawn} stock {len(h.stock)} stall {h.stall}{end}")

    def resample_from_infostate(self, player_id: int, probability_sampler=None,
                                rng: Optional[np.random.Generator] = None) -> "GridGolfState":
        """A state the player cannot tell from this one: the unseen cards dealt anew, at
        random by ``rng``, else by OpenSpiel's ``probability_sampler`` (as OpenSpiel's own
        games take their randomness from it: a seeded one deals the same world every time)."""
        rng = rng if rng is not None else _sampler_generator(probability_sampler)
        world = self.hole.resample(player_id, rng)
        if not self.played:  # built around a given hole: no history leads to it
            return GridGolfState(self.get_game(), world)
        # The same play with the chance outcomes the player did not see dealt as in the
        # world: the cards still face down (never turned, so never moved) and a stock card
        # in another seat's hand. Every other card dealt or drawn was shown, and stays.
        h, g = self.hole, self.rules.grid
        history = list(self.history())
        for i in range(min(len(history), self.rules.players * g)):
            if not h.up[i // g][i % g]:
                history[i] = world.grid[i // g][i % g]
        if world.drawn != h.drawn:
            history[-1] = world.drawn
        new = self.get_game().new_initial_state()
        for a in history:
            new.apply_action(a)
        return new


def _sampler_generator(sampler) -> np.random.Generator:
    """A generator seeded by four draws of OpenSpiel's probability sampler (a callable giving
    floats, e.g. ``pyspiel.UniformProbabilitySampler(seed, 0., 1.)``), or a fresh one without."""
    if sampler is None:
        return np.random.default_rng()
    if not callable(sampler):
        raise TypeError(f"probability_sampler must be a callable giving numbers, e.g. "
                        f"pyspiel.UniformProbabilitySampler(7, 0., 1.), or None; not {type(sampler).__name__}")
    # every bit of each float, whatever its range
    return np.random.default_rng([struct.unpack("<Q", struct.pack("<d", float(sampler())))[0] for _ in range(4)])


def encode_place(a: Placement, g: int) -> int:
    """A placement as an action code on a ``g``-card grid (:func:`.state.encode`)."""
    return encode(a[0], a[1], g)


def decode_place(action: int, g: int) -> Placement:
    """The placement of an action code (the inverse of :func:`encode_place`)."""
    return decode(action, g)


pyspiel.register_game(_GAME_TYPE, GridGolfGame)


def state_from_view(game: GridGolfGame, view: PlayerView, rng: np.random.Generator) -> GridGolfState:
    """A state consistent with ``view`` (hidden cards dealt at random), at the viewer's decision."""
    return GridGolfState(game, HoleState.from_view(view, rng))


class HeuristicEvaluator(spiel_mcts.Evaluator):
    """Evaluates a state by playing the hole out with golfsolve's compiled heuristic
    (uniform priors): OpenSpiel's search with golfsolve's play-outs.

    It plays out the state it is given, face-down cards and stock order included, so it is
    fair only where the state is a sampled world (OpenSpiel's ISMCTS, as ``spiel-ismcts``
    uses it); under OpenSpiel's plain MCTS, which searches the real state, it peeks."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.helper = HeuristicBot(rng)

    def prior(self, state: GridGolfState):
        acts = state.legal_actions()
        return [(a, 1.0 / len(acts)) for a in acts]

    def evaluate(self, state: GridGolfState) -> np.ndarray:
        s = state.hole.clone()
        # Finish the turn in progress (chance by its odds, openers and the placement by the
        # heuristic), then hand the hole to the compiled play-out.
        while not s.is_terminal() and s.phase != DRAW:
            if s.is_chance_node():
                outs = s.chance_outcomes()
                k = self.rng.choice(len(outs), p=[q for _, q in outs])
                s.apply(outs[k][0])
            elif s.phase != PLACE:
                s.apply(s.legal_actions()[0])  # openers: the first face-down slot, then done
            else:
                s.apply(encode_place(self.helper.choose_place(s.observation(s.cur)), s.rules.grid))
        if s.is_terminal():
            return -np.array(s.returns(), dtype=np.float64)
        v = s.observation(s.cur)
        tables = self.helper.tables(s.rules)
        prm, kt, vt = tables
        grid0, up0, disc0, st0, _pool, _known, ucnt, pub = view_arrays(v, tables)
        n = s.rules.players
        grid = np.array(s.grid, dtype=np.int64)
        stock = np.zeros(disc0.shape[0], np.int64)
        order = self.rng.permutation(np.array(s.stock, dtype=np.int64))
        stock[:len(order)] = order
        out = S.play_out_scores(grid, up0, stock, disc0, st0, ucnt, pub, prm, self.helper.hp, kt, vt,
                                int(self.rng.integers(2**31 - 1)))
        return -out[:n].astype(np.float64)


#: OpenSpiel ISMCTS's UCT constant, in strokes (returns are minus strokes).
SPIEL_UCT_C = 4.0
DEFAULT_SIMULATIONS = 40


class SpielISMCTSBot(Bot):
    """OpenSpiel's own ISMCTS (``open_spiel.python.algorithms.ismcts``) on this game,
    with golfsolve's heuristic play-outs as its evaluator and ``simulations`` per move."""

    kind = "spiel-ismcts"
    #: OpenSpiel's UCT constant (:data:`SPIEL_UCT_C`), recorded with a run
    uct_c = SPIEL_UCT_C
    #: the heuristic parameters of its play-outs (:class:`HeuristicEvaluator`'s heuristic bot)
    hp = DEFAULT_HP
    fixed_settings = ("uct_c", "hp")

    def __init__(self, rng: Optional[np.random.Generator] = None, name: Optional[str] = None,
                 simulations: Optional[int] = None) -> None:
        super().__init__(rng, name)
        self.simulations = simulations if simulations is not None else DEFAULT_SIMULATIONS
        if self.simulations < 2:  # the first only expands the root: one leaves no visit to choose by
            raise InputError(f"spiel-ismcts simulations must be at least 2, not {self.simulations}")
        self._games: dict[GridRules, GridGolfGame] = {}
        self.decisions = 0

    def _game(self, rules: GridRules) -> GridGolfGame:
        if rules not in self._games:
            self._games[rules] = GridGolfGame(rules=rules)
        return self._games[rules]

    def _search(self, view: PlayerView) -> int:
        game = self._game(view.rules)
        seed = int(self.rng.integers(2**31 - 1))
        rng = np.random.default_rng(seed)
        state = state_from_view(game, view, rng)
        bot = spiel_ismcts.ISMCTSBot(game, HeuristicEvaluator(rng), self.uct_c, self.simulations,
                                     random_state=np.random.RandomState(seed % (2**31)))
        bot.set_resampler(lambda st, pl: st.resample_from_infostate(pl, rng=rng))
        self.decisions += 1
        return int(bot.step(state))

    def choose_openers(self, view: PlayerView, count: int) -> Sequence[int]:
        return list(range(count))

    def choose_draw(self, view: PlayerView) -> str:
        return decode(self._search(view), view.rules.grid)[0]

    def choose_place(self, view: PlayerView) -> Placement:
        return decode_place(self._search(view), view.rules.grid)
