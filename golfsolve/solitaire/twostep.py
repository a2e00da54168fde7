"""Two fair steps: value a pre-draw state by the best fair choice after its blind draw.

The one-step ("blind-draw") value of a pre-draw state (:mod:`golfsolve.solitaire.infoset`)
commits to the state, draws blind, and then solves with the whole stock visible: from the
second draw on the solver chooses knowing the stock ("strategy fusion"). In Easy most
states keep a win in every sampled order that way, and the value cannot tell a robust
state from one that needs an exact guess at the next decision.

The two-step value moves the fusion one draw later. After committing to ``s`` the next
card's *rank* is a chance event (suits do not matter for moves): for each rank ``r`` that
can come, with its exact probability over the unseen cards, the player sees ``r`` and picks
the next pre-draw state ``s'`` with the best one-step value, estimated on a few orders of
the remaining unseen cards. So

    value(s) = sum over ranks r of P(r) * max over s' of one-step value(s' | s, r)

which is still an upper bound on the fair value of ``s`` (the second step is clairvoyant),
but no looser than the one-step value in expectation.

Shared work: the continuation orders for a rank are drawn once and used for every
candidate (common random numbers); states with the same table have the same position
after the draw (the drawn card covers the top), so they share one valuation per rank; and
candidates are valued best-first with branch and bound over the ranks, so a candidate is
dropped as soon as it cannot catch the best.
"""

from __future__ import annotations

import random
from itertools import permutations
from typing import Optional, Sequence

from ..cards import rank_of
from .fair import arrangements, unknown_pool
from .infoset import ChainValues, PreDraw, predraw_states
from .layout import Layout
from .rules import Rules
from .solver import Solver


def next_rank_draws(view: Layout, rules: Rules, gone: Sequence[int]) -> list[tuple[float, int, list[int]]]:
    """``(probability, card, rest_pool)`` per rank the next stock card can have, most likely first.

    ``card`` stands for its rank (the smallest unseen card of that rank); ``rest_pool`` is
    what may fill the stock's other unknown places after it. A known next card is certain.
    """
    if not view.stock:
        return []
    _, pool = unknown_pool(view, rules, gone)
    if view.stock[0] is not None:
        return [(1.0, view.stock[0], list(pool))]
    by_rank: dict[int, list[int]] = {}
    for c in sorted(pool):
        by_rank.setdefault(rank_of(c), []).append(c)
    out = []
    for cards in by_rank.values():
        rest = list(pool)
        rest.remove(cards[0])
        out.append((len(cards) / len(pool), cards[0], rest))
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


class TwoStep:
    """Two-step values of pre-draw states of one position (see the module docstring).

    ``per_rank``: continuation orders sampled per rank of the next card (every order when
    there are no more than that, which makes the value exact). ``solves`` counts the
    exact solves made.
    """

    def __init__(self, view: Layout, rules: Rules, gone: Sequence[int], solver: Solver,
                 rng: random.Random, per_rank: int = 4) -> None:
        self.view, self.rules, self.solver = view, rules, solver
        self.draws = next_rank_draws(view, rules, gone)
        rest_stock = tuple(view.stock[1:])
        positions = [i for i, c in enumerate(rest_stock) if c is None]
        self.orders: list[list[tuple[int, ...]]] = []
        for _, _, pool in self.draws:
            if arrangements(len(pool), len(positions)) <= per_rank:
                fills = list(permutations(pool, len(positions)))  # every order: exact
            else:
                fills = [rng.sample(pool, len(positions)) for _ in range(per_rank)]
            orders = []
            for fill in fills:
                st = list(rest_stock)
                for i, c in zip(positions, fill):
                    st[i] = c
                orders.append(tuple(st))
            self.orders.append(orders)
        self.per_rank = per_rank
        self.solves = 0
        self._cache: dict[tuple, float] = {}

    def after(self, s: PreDraw, k: int) -> float:
        """The best one-step value after committing to ``s`` and drawing the ``k``-th rank."""
        key = (s.key[0], k)
        got = self._cache.get(key)
        if got is None:
            _, card, _ = self.draws[k]
            lay = Layout(s.columns, card, tuple(self.view.stock[1:]), self.view.rules)
            states = predraw_states(lay, self.rules)
            cv = ChainValues(lay, self.rules, states, self.solver)
            cv.extend(self.orders[k])
            _, n, _ = cv.best_of(states)
            self.solves += cv.solves
            got = n / max(len(self.orders[k]), 1)
            self._cache[key] = got
        return got

    def value(self, s: PreDraw, floor: float = -1.0) -> Optional[float]:
        """The two-step value of ``s``, or None as soon as it cannot exceed ``floor``."""
        if s.table == 0:
            return 1.0
        if not self.draws:
            return 0.0
        acc, left = 0.0, 1.0
        for k, (p, _, _) in enumerate(self.draws):
            left -= p
            acc += p * self.after(s, k)
            if acc + left < floor - 1e-12:
                return None
        return acc

    def best_of(self, states: Sequence[PreDraw]) -> tuple[list[PreDraw], dict]:
        """``(tied, values)``: the states with the highest two-step value, in the given order.

        States are valued in the order given (put the most promising first); one that
        cannot reach the best so far is dropped (it has no entry in ``values``).
        """
        best, tied, values = -1.0, [], {}
        for s in states:
            v = self.value(s, best)
            if v is None:
                continue
            values[s.key] = v
            if v > best + 1e-12:
                best, tied = v, [s]
            elif v > best - 1e-12:
                tied.append(s)
        return tied, values


__all__ = ["TwoStep", "next_rank_draws"]
