"""The fair player: information-set search before every blind draw, with named settings.

At each point where it may draw, the player knows the table, the discard pile (so which
cards may still be in the stock) and the stock cards already turned, nothing else. It
picks the pre-draw state (:mod:`golfsolve.fair.infoset`) that keeps a win in the most
sampled stock orders, plays the chain of removes that reaches it, and draws. States near
the best are then told apart on more orders (ties raced on ``extra`` more orders, or,
with ``race_budget``, a budgeted race of every state within ``race_slack`` orders of the
best, whose last ranking takes ``card_cost`` of the orders off a state's wins for each card
on its table); remaining ties go to the state with fewer cards on the table. When at most
``exact_unknown`` stock cards are unknown it plays the exact expectimax
(:mod:`golfsolve.fair.exact`) instead, in Python or by the compiled kernel.

Its settings are one frozen :class:`PlayerSettings`; :data:`PRESETS` names the ones a
user chooses from (``fast`` and ``strong``). Every answer records the full settings.

:func:`play` plays a deal whose real stock the referee knows; the player never sees it
(the view it decides on has the stock forgotten, with the drawn cards known).
"""

from __future__ import annotations

import random
import threading
import time
import weakref
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

import numpy as np

from ..cards import N_STANDARD, card_str
from ..errors import InputError, shown
from ..inputs import expect, seed_value
from ..solitaire.engine import Game, parse_moves
from ..solitaire.layout import Layout, layout_rules, trusted_layout
from ..solitaire.rules import Rules
from ..solitaire.solver import MOVE_DRAW, Solver, line_wins, pack, solver_arg
from .exact import CompiledExpectimax, ExactValue, TooLargeError, fair_value
from .infoset import ChainValues, PreDraw, fewest_cards, predraw_states
from .orders import arrangements, check_played, check_played_not_held, sample_stocks, stock_orders, unknown_pool
from .settings import PRESETS, PlayerSettings, player_settings  # noqa: F401 - by their old address too
from .view import rank_names


class Player:
    """A fair player's memory across the decisions of one game (reused work lives here)."""

    def __init__(self, rules: Rules, settings: "str | PlayerSettings" = "strong", seed: int | str = 0,
                 solver: Optional[Solver] = None, decisions: Optional[dict] = None) -> None:
        self.rules = rules
        self.decisions = decisions
        self.settings = player_settings(settings).for_rules(rules)
        # what a shared decisions table's keys hold besides the position: a table filled under
        # other rules or settings gave their moves here (an illegal one failed as an AssertionError)
        self._tag = (rules.meaning, self.settings)
        self.rng = random.Random(seed)
        self.solver = solver or Solver()
        self.solves = 0
        self.nodes = 0
        self.exact_memo: dict = {}
        self._exact_failed = False
        self._compiled: Optional[CompiledExpectimax] = None
        self._exact_failed_at = 0  # compiled: the unknown count where the state cap was last hit
        # with settings.carry: the last sampled decision's unseen cards, its stock's length and
        # its orders; and this decision's carried orders not used yet
        self._carried: Optional[tuple[frozenset, int, list]] = None
        self._pool: list[tuple[int, ...]] = []

    def _exact_eligible(self, view: Layout) -> bool:
        # the exact endgame is tried here (it may still fail on its state cap)
        unknown = sum(1 for c in view.stock if c is None)
        if self._exact_failed or unknown > self.settings.exact_unknown:
            return False
        return not (self.settings.compiled_exact and self._exact_failed_at and unknown > self._exact_failed_at - 2)

    def exact_values(self, view: Layout, gone: tuple[int, ...]) -> Optional[ExactValue]:
        """Every legal move's exact value (expectimax), or None when the player does not play
        exactly here (too many unknown cards, or the position passed the state cap)."""
        s = self.settings
        if not self._exact_eligible(view):
            return None
        unknown = sum(1 for c in view.stock if c is None)
        if s.compiled_exact:
            return self._compiled_move(view, gone, unknown)
        try:
            # a view: every stock card it names was seen
            ev = fair_value(view, self.rules, gone, max_states=s.exact_states, memo=self.exact_memo,
                            seen=len(view.stock))
        except TooLargeError:
            # not tried again in this game: the next decision would pay nearly the same again
            self._exact_failed = True
            self.exact_memo.clear()
            return None
        return ev if ev.moves else None

    def _compiled_move(self, view: Layout, gone: tuple[int, ...], unknown: int) -> Optional[ExactValue]:
        # a cap hit with k unknown cards is tried again two draws later, not at once (see
        # _exact_eligible): the next decision would pay nearly the same again, but two cards
        # fewer is far smaller
        states = self.settings.exact_states
        if self._compiled is None:
            self._compiled = _expectimax(self.rules, 1 << max(20, (4 * states - 1).bit_length()), self)
        try:
            ev = self._compiled.fair_value(view, gone, max_states=states, seen=len(view.stock))
        except TooLargeError:
            self._exact_failed_at = unknown
            self._compiled.clear()
            return None
        return ev if ev.moves else None

    def choose(self, view: Layout, gone: tuple[int, ...]) -> tuple[PreDraw, ChainValues]:
        """The pre-draw state to play to (then draw), and the values it was chosen on."""
        unseen = self._carry_in(view, gone)
        best, cv = self._choose(view, gone)
        self._carried = None if unseen is None else (unseen, len(view.stock), list(cv.stocks))
        self._pool = []
        return best, cv

    def _carry_in(self, view: Layout, gone: tuple[int, ...]) -> Optional[frozenset]:
        """With ``carry``: this position's unseen cards, and in ``_pool`` the last sampled
        decision's orders with the cards drawn since taken out. None, and nothing carried,
        unless every stock place is unknown and the orders are sampled (not every one).

        An order of the unseen cards drawn uniformly at random, with some of its cards taken
        out, is a uniform order of the rest: the carried orders are as fair a sample of what
        the player cannot see as fresh ones, and a function of what it has seen."""
        self._pool = []
        prev, self._carried = self._carried, None
        if not self.settings.carry or not view.stock or any(c is not None for c in view.stock):
            return None
        positions, pool = unknown_pool(view, self.rules, gone)
        if len(pool) != len(positions) or arrangements(len(pool), len(positions)) <= self.settings.samples:
            return None
        unseen = frozenset(pool)
        if prev is not None:
            was, n_was, orders = prev
            drawn = was - unseen
            # only cards drawn since (the stock shorter by as many) leave the unseen cards
            if unseen <= was and len(drawn) == n_was - len(view.stock):
                self._pool = [tuple(c for c in o if c not in drawn) for o in orders]
        return unseen

    def _orders(self, view: Layout, gone: tuple[int, ...], n: int) -> list[tuple[int, ...]]:
        """``n`` more sampled orders: the carried ones first, then fresh ones."""
        took = self._pool[:n]
        del self._pool[:n]
        if len(took) < n:
            took += sample_stocks(view, self.rng, n - len(took), self.rules, gone)
        return took

    def _choose(self, view: Layout, gone: tuple[int, ...]) -> tuple[PreDraw, ChainValues]:
        s = self.settings
        states = predraw_states(view, self.rules)
        cv = ChainValues(view, self.rules, states, self.solver)
        if self._pool:
            stocks, every = self._orders(view, gone, s.samples), False
        else:
            stocks, every = stock_orders(view, self.rules, s.samples, self.rng, gone)
        racing = s.race_budget > len(stocks) and not every
        if racing and cv.per_order:
            # the race needs the leading tables only (Player._leaders): every table on the
            # first few orders, then the leaders so far on the others first
            cv.extend(stocks[:_SCOUT])
            cv.extend(stocks[_SCOUT:], _by_rank(cv, states)[: s.race_width])
            # no order won yet: more orders, every table on each, until one is won
            while s.hopeless > len(cv.stocks) and not any(cv.root_won):
                cv.extend(self._orders(view, gone, min(s.race_batch, s.hopeless - len(cv.stocks))))
        elif cv.per_order and not racing:
            return self._sampled(cv, states, stocks, every, view, gone), cv
        else:
            cv.extend(stocks)
        if racing and any(cv.root_won):
            best = self._race(cv, states, view, gone)
            self.solves += cv.solves
            self.nodes += cv.nodes
            return best, cv
        best, _, tied = cv.best_of(states)
        if len(tied) > 1 and not every and s.extra and any(cv.root_won):
            # race the tied states on more orders; only they are valued there
            first = len(cv.stocks)
            cv.extend(self._orders(view, gone, s.extra), tied, root=False)
            best, _, tied = cv.best_of(tied, range(first, len(cv.stocks)))
        if len(tied) > 1:
            best = min(tied, key=lambda st: (st.table, st.chain))
        self.solves += cv.solves
        self.nodes += cv.nodes
        return best, cv

    def _sampled(self, cv: ChainValues, states: list[PreDraw], stocks: list, every: bool, view: Layout,
                 gone: tuple[int, ...]) -> PreDraw:
        """The state to play without a race, with draw-any-time rules: the most orders won,
        ties told apart on ``extra`` more orders, then the fewest cards and the chain: the
        choice the rest of :meth:`choose` makes, by branch and bound over tables (a table
        is decided on an order only while it can still be among the best)."""
        s = self.settings
        cv.extend(stocks, (), root=False)  # the orders listed; leaders decides what it needs
        reps, n_best = cv.leaders(fewest_cards(states), range(len(stocks)), _SCOUT)
        tables = {st.key[0] for st in reps}
        tied = [st for st in states if st.key[0] in tables]
        # a won order has a won state (the root's winning line draws from one), so n_best > 0
        # says some root is won, as in choose
        if len(tied) > 1 and not every and s.extra and n_best:
            first = len(cv.stocks)
            cv.extend(self._orders(view, gone, s.extra), (), root=False)
            if len(reps) > 1:
                # as in the race: every tied table on the first orders, then the leader on the
                # others, so that top gives the rest up as soon as they cannot pass it
                extra = range(first, len(cv.stocks))
                for i in extra[:_SCOUT]:
                    cv.decide(i, reps)
                won = {st.key[0]: sum(bool(cv.known(i, st)) for i in extra[:_SCOUT]) for st in reps}
                lead = min(reps, key=lambda st: (-won[st.key[0]], st.table, st.chain))
                for i in extra[_SCOUT:]:
                    cv.decide(i, [lead])
                reps = [cv.top(reps, extra, 1, totals=False)[0][0]]
        self.solves += cv.solves
        self.nodes += cv.nodes
        return min(reps, key=lambda st: (st.table, st.chain))

    def move(self, view: Layout, gone: tuple[int, ...]) -> tuple[str, ...]:
        """The moves the player makes from ``view`` before its next decision: one exact move,
        or the chain of removes to the chosen pre-draw state and the draw after it.

        With a ``decisions`` table (shared by the games of one question, each game's player
        seeded alike), a decision already taken from the same view, seen cards and random
        state is looked up with the random state and the orders it left, so the game goes on
        exactly as if it had been computed again.
        """
        if self.settings.by_rank:
            view, gone = rank_names(view, gone)
        if self.decisions is None or self._exact_eligible(view):
            # exact decisions are not shared: their memo lives in this game's player
            return self._decide(view, gone).chain
        key = (self._tag, view.columns, view.discard, view.stock, gone, self.rng.getstate(), self._exact_failed,
               self._exact_failed_at)
        got = self.decisions.get(key)
        if got is None:
            chain = self._decide(view, gone).chain
            got = self.decisions[key] = (chain, self.rng.getstate(), self._exact_failed, self._exact_failed_at,
                                         self._carried)
        else:
            # the orders it carries on are, like the decision, a function of the key's history
            self.rng.setstate(got[1])
            self._exact_failed, self._exact_failed_at, self._carried = got[2], got[3], got[4]
        return got[0]

    def decide(self, view: Layout, gone: tuple[int, ...]) -> "Decision":
        """The player's decision from ``view`` (``gone``: the cards under the discard's top),
        with what it was made on: the exact values, or the chosen pre-draw state and the
        values of the states over the sampled orders (with ``by_rank``, of the view with the
        cards named by rank: :func:`~golfsolve.fair.view.by_rank`)."""
        if self.settings.by_rank:
            view, gone = rank_names(view, gone)
        return self._decide(view, gone)

    def _decide(self, view: Layout, gone: tuple[int, ...]) -> "Decision":
        ev = self.exact_values(view, gone)
        if ev is not None:
            self._carried = None  # the next sampled decision draws fresh orders
            return Decision((ev.moves[0][0],), exact=ev)
        best, cv = self.choose(view, gone)
        return Decision(best.chain + ((MOVE_DRAW,) if best.table and view.stock else ()), state=best, values=cv)

    def _race(self, cv: ChainValues, states: list[PreDraw], view: Layout, gone: tuple[int, ...]) -> PreDraw:
        """A budgeted race: the states near the best get more orders until one leads clearly.

        Contenders are the states within ``race_slack`` orders of the best on the first
        orders (at most ``race_width`` of them, one per table: states with the same table
        have the same value on every order). Each round adds ``race_batch`` common orders,
        valued for the contenders only, and drops a state when the leader's lead over it
        exceeds ``race_z`` times the square root of the orders where exactly one of the
        two wins (a sign test), until one is left or ``race_budget`` orders are used. The
        states left are then ranked by orders won less ``card_cost`` times the orders used for
        each card on the table.
        """
        s = self.settings
        cont = self._leaders(cv, states)
        if len(cont) == 1:
            return cont[0]
        wins = {st.key[0]: [cv.won(i, st) for i in range(len(cv.stocks))] for st in cont}
        while len(cont) > 1 and len(cv.stocks) < s.race_budget:
            first = len(cv.stocks)
            last = first + s.race_batch >= s.race_budget
            # the last batch's states are decided by _race_last, only as far as it needs
            cv.extend(self._orders(view, gone, min(s.race_batch, s.race_budget - first)),
                      () if last else cont, root=False)
            if last:
                # the last batch: no drop follows, only the leader counts (every state tied
                # with it survives the drop), so a state that cannot reach it is not finished
                base = {st.key[0]: sum(wins[st.key[0]]) - self._card_cost(cv, st.key[0]) for st in cont}
                return self._race_last(cv, cont, base, first)
            for st in cont:
                wins[st.key[0]].extend(cv.won(i, st) for i in range(first, len(cv.stocks)))
            lead = max(cont, key=lambda st: (sum(wins[st.key[0]]), -st.table))
            lw = wins[lead.key[0]]
            kept = []
            for st in cont:
                d = [a - b for a, b in zip(lw, wins[st.key[0]])]
                if st is lead or sum(d) <= s.race_z * sum(x * x for x in d) ** 0.5:
                    kept.append(st)
            cont = kept
        return min(cont, key=lambda st: (self._card_cost(cv, st.key[0]) - sum(wins[st.key[0]]), st.table, st.chain))

    def _card_cost(self, cv: ChainValues, table: tuple) -> float:
        """What the race's last ranking takes off a state's orders won for the cards on its
        ``table`` (column heights): ``card_cost`` of the orders raced per card."""
        return self.settings.card_cost * len(cv.stocks) * sum(table)

    def _leaders(self, cv: ChainValues, states: list[PreDraw]) -> list[PreDraw]:
        """The race's contenders on the orders so far: the first ``race_width`` tables by
        (most orders won, fewest cards, chain), one state per table (the least chain), of
        them those within ``race_slack`` orders of the best (see :meth:`ChainValues.top`)."""
        s = self.settings
        ranked = cv.top(fewest_cards(states), range(len(cv.stocks)), s.race_width)
        best = ranked[0][1]
        return [st for st, n in ranked if n >= best - s.race_slack]

    @staticmethod
    def _race_last(cv: ChainValues, cont: list[PreDraw], base: dict, first: int) -> PreDraw:
        """The race's winner after its last batch (orders ``first`` on; ``base``: each table's
        score before them): the most orders won less the cost of the cards, then the fewest
        cards on the table, then the chain, as :meth:`_race` ends, by branch and bound: a
        state is given up once it cannot reach the best total so far."""
        return cv.top(cont, range(first, len(cv.stocks)), 1, base, totals=False)[0][0]


#: Orders on which the race's first ranking, and the sampled choice's, decide every table
#: (see Player.choose and ChainValues.leaders).
_SCOUT = 4


def _by_rank(cv: ChainValues, states: Iterable[PreDraw]) -> list[PreDraw]:
    """One state per table, by the orders won so far (the decided ones), then fewest cards."""
    reps = fewest_cards(states)
    won = {st.key[0]: sum(bool(cv.known(i, st)) for i in range(len(cv.stocks))) for st in reps}
    return sorted(reps, key=lambda st: (-won[st.key[0]], st.table, st.chain))


_POOL = threading.local()


def _expectimax(rules: Rules, capacity: int, owner: object) -> CompiledExpectimax:
    """A compiled expectimax for ``owner``'s game, its memo empty: one per rules, capacity
    and thread is reused game after game (allocating its tables costs several times clearing
    them), unless its last owner is still alive (then a new one: no two players share a memo)."""
    pool = _POOL.__dict__.setdefault("by_key", {})
    key = (rules.meaning, capacity)
    got = pool.get(key)
    if got is not None and got[1]() is None:
        got[0].clear()
        cx = got[0]
    else:
        cx = CompiledExpectimax(rules, capacity=capacity)
    pool[key] = (cx, weakref.ref(owner))
    return cx


@dataclass(frozen=True)
class Decision:
    """One decision of the fair player: the moves it makes before its next decision (one
    exact move, or a chain of removes and a draw), and what it chose them on."""

    chain: tuple[str, ...]
    exact: Optional[ExactValue] = None
    state: Optional[PreDraw] = None
    values: Optional[ChainValues] = None


@dataclass(frozen=True)
class FairGame:
    """A game played by the fair player on a deal with a real (hidden) stock.

    ``won`` is the real result. ``clairvoyant_won``: is the deal winnable at all (exact
    solve with the real stock)? ``lost_at``: the number of moves played when the real
    position first became unwinnable (None if it never did); play stops there, since no
    continuation can win. ``lost_on_draw``: that move was a draw (the card turned up
    broke the win) rather than a remove. ``decisions`` counts the steps with a choice,
    ``solves`` and ``nodes`` the exact searches (with draw-any-time rules one per sampled order
    decides its root and states) and the states they searched.
    """

    won: bool
    clairvoyant_won: bool
    clairvoyant_left: int
    moves: tuple[str, ...]
    lost_at: Optional[int]
    lost_on_draw: bool
    decisions: int
    solves: int
    seconds: float = field(compare=False)  # the clock: two games of one seed are equal games
    settings: PlayerSettings = PRESETS["strong"]
    nodes: int = 0  # states the exact solves searched (the referee's included)

    def as_json(self) -> dict:
        """The game as ``golfsolve`` prints it under ``--json``."""
        return {"won": self.won, "clairvoyant_won": self.clairvoyant_won, "clairvoyant_left": self.clairvoyant_left,
                "moves": " ".join(self.moves), "lost_at": self.lost_at, "lost_on_draw": self.lost_on_draw,
                "decisions": self.decisions, "solves": self.solves, "nodes": self.nodes,
                "player": self.settings.as_dict(),
                "seconds": round(self.seconds, 3)}


def play(
    layout: Layout,
    rules: Optional[Rules] = None,
    player: "str | PlayerSettings" = "strong",
    seed: int | str = 0,
    solver: Optional[Solver] = None,
    played: Iterable[int] = (),
    referee: bool = True,
    decisions: Optional[dict] = None,
    winnable: bool = False,
    won_line: Sequence[str] = (),
    seen: Optional[Sequence[Optional[int]]] = None,
    locate_loss: bool = True,
) -> FairGame:
    """Play ``layout`` (stock known to the referee, hidden from the player) with the fair player.

    ``player`` is a preset name or :class:`PlayerSettings`. ``played`` lists cards the
    player knows to be under the discard's top already. With ``referee`` the deal is first
    solved with its real stock; an unwinnable deal is not played out (the player's line is
    a line of the real deal, so it cannot win), and a game is stopped as lost at the first
    decision where the real position is lost, its line cut back to the move that lost it
    (:attr:`FairGame.lost_at`). ``decisions`` is a table shared by games of
    the same opening and seed (see :meth:`Player.move`): the same games, less work.
    ``winnable``: the caller has solved the real deal and it can be won, so the referee
    does not solve it again; ``won_line`` is then the winning line it found (moves as in
    :attr:`~golfsolve.solitaire.solver.Solution.moves`), if it kept one. The referee takes
    every position on a winning line it knows (that one and those of its own won solves)
    as won without solving it again: the same games, less work. ``seen``: the stock as the
    player sees it at the start, a card where it knows one (the places a partial layout
    declares) and None elsewhere; by default it knows none. ``locate_loss``: with the referee,
    a lost game is cut back to the move that lost it, which takes a few more solves; False
    leaves it where the referee found it lost (``lost_at`` the moves played by then), for a
    caller that needs the result alone (``odds``' games, whose work budget those solves spent).
    """
    rules = layout_rules(layout, rules)
    for what, value in (("referee", referee), ("winnable", winnable), ("locate_loss", locate_loss)):  # any text is true to Python
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{what} must be True or False, not {type(value).__name__} {shown(value)}")
    if not isinstance(seed, str):  # text seeds name a game (as fair-stats' did: "0-easy-17"); numbers as --seed takes them
        seed = seed_value(seed)
    settings = player_settings(player)
    expect(decisions, (dict, type(None)), "decisions",
           "a dict shared by games of one opening and seed, or None")  # else an AttributeError at the first decision
    if not layout.stock_known:
        raise InputError("the fair player needs the real stock order: give a deal code or a full layout")
    seen = _seen_places(layout, seen)
    solver_arg(solver)  # else an AttributeError at its first solve
    solver = solver or Solver()
    t0 = time.perf_counter()
    me = Player(rules, settings, seed, solver, decisions)
    solves = nodes = 0
    known = check_played(played)
    # a played card the layout holds (its discard's top: an IndexError deep in the first decision;
    # a table or stock card: "only 15 cards are unseen" after the referee's solve) is bad input
    check_played_not_held(layout, known)
    beyond = sorted(c for c in known if c >= N_STANDARD + rules.jokers)
    if beyond:  # a joker the rules do not deal
        raise InputError(f"card {card_str(beyond[0])} is listed as played but rules {rules.name!r} deal "
                         f"{rules.jokers or 'no'} joker{'' if rules.jokers == 1 else 's'}")
    if isinstance(won_line, str):  # its text, as replay takes moves: tuple() made it one move per character
        won_line = parse_moves(won_line)
    # None failed as "'NoneType' object is not iterable"
    expect(won_line, (list, tuple), "won_line", "the winning line's moves, e.g. Solution.moves, or their text")
    won_line = tuple(won_line)
    if won_line and not (winnable and all(isinstance(m, str) for m in won_line)
                         and line_wins(pack(layout), rules, won_line)):
        raise InputError("won_line must be a winning line of the real deal, given with winnable=True")
    # the real positions known won (column heights, top, stock left): those on a winning line
    # from a position the referee solved (its stock order is the game's: heights name the cards)
    on_line: set = set()
    if referee and not winnable:
        sol = solver.solve(layout, rules)
        solves, nodes = 1, sol.nodes
        if sol.outcome != "won":
            return FairGame(False, False, sol.best_left, (), 0, False, 0, solves, time.perf_counter() - t0, settings,
                            nodes)
        won_line = sol.moves
    if referee:
        _remember(on_line, layout, won_line)
    game = Game(layout, rules)
    line: list[str] = []
    decisions = 0
    safe = 0  # moves played to the last position the referee knows won

    def first_lost() -> int:
        # The referee looks at decisions only, and a chain of removes and a draw is played
        # whole: any move since the last won position may be the one that lost, a remove as
        # well as the draw (taking the last one read almost every loss as a draw's).
        nonlocal solves, nodes
        probe = Game(layout, rules, undo_limit=0)
        for m in line[:safe]:
            probe.play(m)
        for k in range(safe, len(line) - 1):
            probe.play(line[k])
            now = probe.to_layout()
            if (tuple(len(c) for c in now.columns), now.discard, len(now.stock)) in on_line:
                continue
            sol = solver.solve(now, rules, verdict_only=True)
            solves, nodes = solves + 1, nodes + sol.nodes
            if sol.outcome != "won":
                return k + 1
        return len(line)

    def lost() -> FairGame:
        if referee and locate_loss:  # play stops where the game was lost
            del line[first_lost():]
        return FairGame(False, True, 0, tuple(line), len(line), bool(line) and line[-1] == MOVE_DRAW, decisions,
                        solves + me.solves, time.perf_counter() - t0, settings, nodes + me.nodes)

    while not game.over:
        moves = game.legal_moves()
        if len(moves) == 1:
            chain: tuple[str, ...] = (moves[0],)
        else:
            if referee and line:
                # the referee (not the player) stops a game whose real position is lost
                now = game.to_layout()
                if (tuple(len(c) for c in now.columns), now.discard, len(now.stock)) not in on_line:
                    sol = solver.solve(now, rules, verdict_only=True)
                    solves, nodes = solves + 1, nodes + sol.nodes
                    if sol.outcome != "won":
                        return lost()
                    _remember(on_line, now, sol.moves)
                safe = len(line)
            decisions += 1
            now = game.to_layout()
            drawn = len(layout.stock) - len(now.stock)
            view = trusted_layout(now.columns, now.discard, tuple(c if seen[drawn + i] else None
                                                                  for i, c in enumerate(now.stock)),
                                  now.rules, now.name, now.deal_number)
            chain = me.move(view, known + tuple(game.pile[:-1]))
        for m in chain:
            res = game.play(m)
            assert res.ok, (m, res.message)
            line.append(m)
            if game.over:
                break
    if game.won:
        return FairGame(True, True, 0, tuple(line), None, False, decisions, solves + me.solves,
                        time.perf_counter() - t0, settings, nodes + me.nodes)
    return lost()


def _seen_places(layout: Layout, seen: Optional[Sequence[Optional[int]]]) -> tuple[bool, ...]:
    """Which places of ``layout``'s stock the player sees, from ``seen`` (see :func:`play`)."""
    if seen is None:
        return (False,) * len(layout.stock)
    if isinstance(seen, (str, bytes)) or not hasattr(seen, "__len__") or len(seen) != len(layout.stock) \
            or any(c is not None and c != real for c, real in zip(seen, layout.stock)):
        raise InputError("seen must be the stock as the player sees it: one place for each of the "
                         f"{len(layout.stock)} stock cards, the real card or None; not {repr(seen)[:60]}")
    return tuple(c is not None for c in seen)


def _remember(on_line: set, start: Layout, moves: Sequence[str]) -> None:
    """Add to ``on_line`` every position of the winning line ``moves`` from ``start``, as
    (column heights, discard's top, stock cards left): a position on a winning line is won
    (the line's rest wins from it)."""
    if not moves:
        return
    cols, top, stock = start.columns, start.discard, start.stock
    h = [len(c) for c in cols]
    s = 0
    on_line.add((tuple(h), top, len(stock)))
    for m in moves:
        if m == MOVE_DRAW:
            top = stock[s]
            s += 1
        else:
            i = int(m) - 1
            h[i] -= 1
            top = cols[i][h[i]]
        on_line.add((tuple(h), top, len(stock) - s))


__all__ = ["PlayerSettings", "PRESETS", "player_settings", "Player", "Decision", "FairGame", "play"]
