"""Grid Golf as an OpenSpiel game, and OpenSpiel's ISMCTS as a golfsolve bot.

Optional: needs the ``spiel`` extra (``pip install -e '.[spiel]'``, package
``open_spiel``). Importing this module registers the game ``python_golfsolve_grid``.

The state wraps the referee's :class:`~.engine.Hole` and uses its own turn procedure
(``Hole._end_turn``, ``Hole.view``), so the adapter cannot drift from the rules. Chance
nodes deal every grid card and the discard one at a time, and draw each stock card when it
is drawn (the stock is a multiset until then, so a recycled stock needs no order).

Actions, for a grid of ``g`` cards: ``0..g-1`` swap into a slot, ``g..2g-1`` throw the
card away and turn a slot, ``2g`` throw it away, ``2g+1`` draw from the stock, ``2g+2``
take the discard, ``2g+3`` knock, ``2g+4..3g+3`` turn an opener, ``3g+4`` stop turning
openers. Chance outcomes are card ids. Returns are minus strokes (OpenSpiel maximises).
An information state is the player's :class:`~.view.PlayerView` (public facts and the card
in hand), so :meth:`GridGolfState.resample_from_infostate` deals the unseen cards anew.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as spiel_ismcts
from open_spiel.python.algorithms import mcts as spiel_mcts

from ..errors import InputError
from . import search as S
from .bots import Bot, HeuristicBot, view_arrays
from .engine import Hole
from .rules import GridRules, parse_rules
from .view import DISCARD, FLIP, KNOCK, PASS, STOCK, SWAP, Placement, PlayerView

GAME_NAME = "python_golfsolve_grid"
DEAL, OPEN, DRAW, STOCK_CHANCE, PLACE, OVER = range(6)
MAX_GRID = 9

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
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"rules": "default", "players": 4, "grid": 6})


class GridGolfGame(pyspiel.Game):
    """One hole of grid Golf under a golfsolve rule spec (``rules``, ``players``, ``grid``)."""

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        params = dict(params or {})
        self.rules: GridRules = parse_rules(str(params.get("rules", "default")), players=int(params.get("players", 4)),
                                            grid=int(params.get("grid", 6)))
        g = self.rules.grid
        info = pyspiel.GameInfo(num_distinct_actions=3 * g + 5, max_chance_outcomes=54,
                                num_players=self.rules.players, min_utility=-400.0, max_utility=40.0,
                                utility_sum=None, max_game_length=20000)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> "GridGolfState":
        return GridGolfState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer()


class _Observer:
    """Information states as strings: the player's view (see :func:`view_key`)."""

    def __init__(self) -> None:
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: "GridGolfState", player: int) -> None:
        pass

    def string_from(self, state: "GridGolfState", player: int) -> str:
        return view_key(state.player_view(player))


def view_key(v: PlayerView) -> str:
    """A string that is equal for two states exactly when the player's views are."""
    return repr((v.me, v.grids, v.discard, v.stock_size, v.stock_known, v.drawn, v.source, v.turn, v.first,
                 v.ending, v.closer, v.knocker, v.stall, v.turns_left))


class GridGolfState(pyspiel.State):
    """A hole in progress: a referee :class:`Hole` plus the phase of the current turn."""

    def __init__(self, game: GridGolfGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.hole = Hole(self.rules, [None] * self.rules.players, np.random.default_rng(0),
                         deck=[0] * (self.rules.players * self.rules.grid + 1))
        self.hole.grid = [[-1] * self.rules.grid for _ in range(self.rules.players)]
        self.hole.discard = []
        self.hole.stock = list(self.rules.deck_cards())  # undealt cards, as a multiset
        self.hole.deck_counts = self.rules.deck_counts()
        self.phase = DEAL
        self.dealt = 0
        self.cur = 0
        self.opened = 0
        self.openers_done = 0
        self.drawn: Optional[int] = None
        self.source: Optional[str] = None
        self.hidden_before = 0
        self.result: Optional[list[int]] = None

    # -- what a player knows ---------------------------------------------------
    def player_view(self, p: int) -> PlayerView:
        held = self.cur == p and self.phase == PLACE
        return self.hole.view(p, drawn=self.drawn if held else None, source=self.source if held else None)

    # -- OpenSpiel API ---------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == OVER:
            return pyspiel.PlayerId.TERMINAL
        if self.phase in (DEAL, STOCK_CHANCE):
            return pyspiel.PlayerId.CHANCE
        return self.cur

    def _legal_actions(self, player: int) -> list[int]:
        g = self.rules.grid
        if self.phase == OPEN:
            return [2 * g + 4 + i for i in range(g) if not self.hole.up[player][i]] + [3 * g + 4]
        v = self.player_view(player)
        if self.phase == DRAW:
            code = {STOCK: 2 * g + 1, DISCARD: 2 * g + 2, KNOCK: 2 * g + 3}
            return sorted(code[d] for d in v.legal_draws())
        return sorted(encode_place(a, g) for a in v.legal_placements())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        counts = np.bincount(np.array(self.hole.stock, dtype=np.int64), minlength=54)
        total = counts.sum()
        return [(int(c), float(k) / total) for c, k in enumerate(counts) if k]

    def _apply_action(self, action: int) -> None:
        h, g, n = self.hole, self.rules.grid, self.rules.players
        if self.phase == DEAL:
            h.stock.remove(action)
            if self.dealt < n * g:
                h.grid[self.dealt // g][self.dealt % g] = int(action)
            else:
                h.discard.append(int(action))
            self.dealt += 1
            if self.dealt == n * g + 1:
                self.cur = h.first
                self.phase = OPEN if self.rules.openers else DRAW
                if self.phase == DRAW:
                    self._start_play()
            return
        if self.phase == OPEN:
            if action == 3 * g + 4 or self.opened == self.rules.openers:
                self._next_opener()
            else:
                h.up[self.cur][action - 2 * g - 4] = True
                self.opened += 1
                if self.opened == self.rules.openers:
                    self._next_opener()
            return
        if self.phase == DRAW:
            self.hidden_before = h.hidden_count(self.cur)
            if action == 2 * g + 3:
                h._end_turn(self.cur, self.hidden_before, knocked=True)
                self._after_turn()
            elif action == 2 * g + 1:
                self.phase = STOCK_CHANCE
            else:
                self.drawn, self.source, self.phase = h.discard.pop(), DISCARD, PLACE
            return
        if self.phase == STOCK_CHANCE:
            h.stock.remove(action)
            self.drawn, self.source, self.phase = int(action), STOCK, PLACE
            return
        kind, slot = decode_place(action, g)
        p, card = self.cur, self.drawn
        if kind == SWAP:
            h.discard.append(h.grid[p][slot])
            h.grid[p][slot] = card
            h.up[p][slot] = True
        else:
            h.discard.append(card)
            if kind == FLIP:
                h.up[p][slot] = True
        self.drawn = self.source = None
        h._end_turn(p, self.hidden_before, knocked=False)
        self._after_turn()

    def _next_opener(self) -> None:
        self.opened = 0
        self.openers_done += 1
        self.cur = (self.cur + 1) % self.rules.players
        if self.openers_done == self.rules.players:
            self._start_play()

    def _start_play(self) -> None:
        self.phase = DRAW
        self.cur = self.hole.first
        if not self.hole.stock:
            self.hole._refill()
            self._check_over()

    def _after_turn(self) -> None:
        self.cur = (self.cur + 1) % self.rules.players
        self.phase = DRAW
        self._check_over()

    def _check_over(self) -> None:
        if self.hole.reason is not None:
            self.result = self.hole._finish().strokes
            self.phase = OVER

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        if self.result is None:
            return [0.0] * self.rules.players
        return [-float(s) for s in self.result]

    def _action_to_string(self, player: int, action: int) -> str:
        g = self.rules.grid
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {action}"
        if action >= 2 * g + 4:
            return "openers done" if action == 3 * g + 4 else f"open {action - 2 * g - 4}"
        if action > 2 * g:
            return {2 * g + 1: "stock", 2 * g + 2: "discard", 2 * g + 3: "knock"}[action]
        return "%s %d" % decode_place(action, g)

    def information_state_string(self, player: Optional[int] = None) -> str:
        return view_key(self.player_view(self.cur if player is None else player))

    def observation_string(self, player: Optional[int] = None) -> str:
        return self.information_state_string(player)

    def __str__(self) -> str:
        return f"phase {self.phase} player {self.cur} grids {self.hole.grid} up {self.hole.up} discard {self.hole.discard}"

    def clone(self) -> "GridGolfState":
        return _copy_state(self, self.hole.grid, self.hole.stock)

    def resample_from_infostate(self, player_id: int, probability_sampler=None,
                                rng: Optional[np.random.Generator] = None) -> "GridGolfState":
        """A state the player cannot tell from this one: the unseen cards dealt anew."""
        rng = rng if rng is not None else np.random.default_rng()
        v = self.player_view(player_id)
        pool = [c for c, k in enumerate(v.unseen) for _ in range(k)]
        rng.shuffle(pool)
        grid = [list(gr) for gr in self.hole.grid]
        it = iter(pool)
        for p in range(self.rules.players):
            for i in range(self.rules.grid):
                if not self.hole.up[p][i]:
                    grid[p][i] = next(it)
        stock = list(it) + [c for c, k in enumerate(v.stock_known) for _ in range(k)]
        return _copy_state(self, grid, stock)


def _copy_state(s: GridGolfState, grid, stock) -> GridGolfState:
    new = GridGolfState(s.get_game())
    h, o = new.hole, s.hole
    h.grid = [list(gr) for gr in grid]
    h.up = [list(u) for u in o.up]
    h.discard = list(o.discard)
    h.stock = list(stock)
    for k in ("recycled", "first", "totals", "turn", "ending_left", "closer", "knocker", "stall", "recycles",
              "reason"):
        setattr(h, k, getattr(o, k))
    for k in ("phase", "dealt", "cur", "opened", "openers_done", "drawn", "source", "hidden_before", "result"):
        setattr(new, k, getattr(s, k))
    return new


def encode_place(a: Placement, g: int) -> int:
    """A placement as an OpenSpiel action on a ``g``-card grid: swap 0..g-1, flip g..2g-1, pass 2g."""
    kind, slot = a
    return slot if kind == SWAP else g + slot if kind == FLIP else 2 * g


def decode_place(action: int, g: int) -> Placement:
    """The placement of an OpenSpiel action (the inverse of :func:`encode_place`)."""
    if action < g:
        return SWAP, int(action)
    if action < 2 * g:
        return FLIP, int(action - g)
    return PASS, -1


pyspiel.register_game(_GAME_TYPE, GridGolfGame)


def state_from_view(game: GridGolfGame, view: PlayerView, rng: np.random.Generator) -> GridGolfState:
    """A state consistent with ``view`` (hidden cards dealt at random), at the viewer's decision."""
    s = GridGolfState(game)
    h = s.hole
    h.grid = [[c if c is not None else -1 for c in gr] for gr in view.grids]
    h.up = [[c is not None for c in gr] for gr in view.grids]
    h.discard = list(view.discard)
    h.stock = []
    h.recycled = any(view.stock_known)
    h.first, h.totals, h.turn, h.stall = view.first, view.totals, view.turn, view.stall
    h.ending_left, h.closer, h.knocker = view.turns_left, view.closer, view.knocker
    s.dealt = view.rules.players * view.rules.grid + 1
    s.cur = view.me
    s.phase = PLACE if view.drawn is not None else DRAW
    s.drawn, s.source = view.drawn, view.source
    if view.drawn is not None:
        s.hidden_before = sum(1 for c in view.my_grid if c is None)
    # Deal the unseen cards: the same procedure as resampling.
    pool = [c for c, k in enumerate(view.unseen) for _ in range(k)]
    rng.shuffle(pool)
    it = iter(pool)
    for p in range(view.rules.players):
        for i in range(view.rules.grid):
            if not h.up[p][i]:
                h.grid[p][i] = next(it)
    h.stock = list(it) + [c for c, k in enumerate(view.stock_known) for _ in range(k)]
    return s


class HeuristicEvaluator(spiel_mcts.Evaluator):
    """Evaluates a state by playing the hole out with golfsolve's compiled heuristic
    (uniform priors): OpenSpiel's search with golfsolve's play-outs."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.helper = HeuristicBot(rng)

    def prior(self, state: GridGolfState):
        acts = state.legal_actions()
        return [(a, 1.0 / len(acts)) for a in acts]

    def evaluate(self, state: GridGolfState) -> np.ndarray:
        s = state.clone()
        g = s.rules.grid
        # Finish the turn in progress, then hand the hole to the compiled play-out.
        while not s.is_terminal() and (s.phase != DRAW):
            if s.is_chance_node():
                outs = s.chance_outcomes()
                k = self.rng.choice(len(outs), p=[q for _, q in outs])
                s.apply_action(outs[k][0])
            elif s.phase == OPEN:
                hidden = [i for i in range(g) if not s.hole.up[s.cur][i]]
                s.apply_action(2 * g + 4 + hidden[0] if s.opened < s.rules.openers and hidden else 3 * g + 4)
            else:
                s.apply_action(encode_place(self.helper.choose_place(s.player_view(s.cur)), g))
        if s.is_terminal():
            return np.array(s.returns())
        v = s.player_view(s.cur)
        tables = self.helper.tables(s.rules)
        prm, kt, vt = tables
        grid0, up0, disc0, st0, _pool, _known, ucnt, pub = view_arrays(v, tables)
        n = s.rules.players
        grid = np.array(s.hole.grid, dtype=np.int64)
        stock = np.zeros(disc0.shape[0], np.int64)
        order = self.rng.permutation(np.array(s.hole.stock, dtype=np.int64))
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

    def __init__(self, rng: Optional[np.random.Generator] = None, name: Optional[str] = None,
                 simulations: Optional[int] = None) -> None:
        super().__init__(rng, name)
        self.simulations = simulations if simulations is not None else DEFAULT_SIMULATIONS
        if self.simulations < 1:
            raise InputError(f"spiel-ismcts simulations must be at least 1, not {self.simulations}")
        self._games: dict[GridRules, GridGolfGame] = {}
        self.decisions = 0

    def _game(self, rules: GridRules) -> GridGolfGame:
        if rules not in self._games:
            game = GridGolfGame({"rules": rules.spec(), "players": rules.players, "grid": rules.grid})
            game.rules = rules  # the exact table (openers, holes) rather than its spec
            self._games[rules] = game
        return self._games[rules]

    def _search(self, view: PlayerView) -> int:
        game = self._game(view.rules)
        seed = int(self.rng.integers(2**31 - 1))
        rng = np.random.default_rng(seed)
        state = state_from_view(game, view, rng)
        bot = spiel_ismcts.ISMCTSBot(game, HeuristicEvaluator(rng), SPIEL_UCT_C, self.simulations,
                                     random_state=np.random.RandomState(seed % (2**31)))
        bot.set_resampler(lambda st, pl: st.resample_from_infostate(pl, rng=rng))
        self.decisions += 1
        return int(bot.step(state))

    def choose_openers(self, view: PlayerView, count: int) -> Sequence[int]:
        return list(range(count))

    def choose_draw(self, view: PlayerView) -> str:
        g = view.rules.grid
        return {2 * g + 1: STOCK, 2 * g + 2: DISCARD, 2 * g + 3: KNOCK}[self._search(view)]

    def choose_place(self, view: PlayerView) -> Placement:
        return decode_place(self._search(view), view.rules.grid)
