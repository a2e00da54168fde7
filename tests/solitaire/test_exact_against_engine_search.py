"""The exactness of every exact answer, checked against a slow, obvious search that plays the
game engine itself (play, take back by undo, memoised on what the engine shows), which shares no
move generation, bound or dominance rule with the solver's kernels.

The same checks ran by hand on tens of thousands of positions and found no wrong answer; these
two seeded subsets keep the strongest probes: mid-game positions of every shape (one column left,
a stock of 0 or 1, a long stock over a small table, a tall table over a short one, games played
on from real deals, a discard of K, A or a joker, an empty discard) under every kind of rule set
(asymmetric King rules too), and the fair player's order searches and carried lost states on
every pre-draw table.
"""

from __future__ import annotations

import random

import pytest

from golfsolve.cards import JOKERS, rank_of
from golfsolve.fair.infoset import ChainValues, predraw_states
from golfsolve.solitaire import solver as solver_mod
from golfsolve.solitaire.engine import Game, replay
from golfsolve.solitaire.hint import rank_moves
from golfsolve.solitaire.layout import Layout, layout_from_number, make_layout
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import app_score, cards_left_bound, LostStates, Solver


#: every kind of rule set: wrap or not, each King rule (Easy with only a Queen, or nothing, on a
#: King still takes a King on an Ace: the asymmetric links), draw when stuck, jokers, empty start
SPECS = ["easy", "classic", "strict", "dead-king", "easy+stuck", "classic+stuck", "easy+jokers1", "easy+jokers2",
         "classic+jokers2", "strict+jokers1", "easy+empty", "classic+empty+jokers1", "strict+empty",
         "easy+king-queen", "easy+king-nothing+stuck", "classic+king-neighbours", "dead-king+wrap+jokers1",
         "easy+jokers2+empty+stuck"]


def engine_best_left(layout: Layout, rules) -> int:
    """The fewest cards any line leaves: every legal move the engine offers, played and taken back."""
    game = Game(layout, rules, undo_limit=None)
    memo: dict = {}

    def best() -> int:
        if game.won:
            return 0
        key = (tuple(len(c) for c in game.columns), len(game.stock), game.top())
        if key not in memo:
            left = game.traditional_score()
            for m in game.legal_moves():
                game.play(m)
                left = min(left, best())
                game.undo()
                if left == 0:
                    break
            memo[key] = left
        return memo[key]

    return best()


def _position(rng: random.Random, rules) -> Layout:
    """A mid-game position of one of the shapes the sweep fuzzed."""
    shape = rng.randrange(4)
    if shape == 3:  # a real deal played on at random: removes mostly, the stock drawn down
        game = Game(layout_from_number(rng.randrange(26 ** 7), rules), rules)
        table, stock = rng.randint(8, 20), rng.randint(0, 8)
        while not game.over and (game.traditional_score() > table or len(game.stock) > stock):
            moves = game.legal_moves()
            removes = [m for m in moves if m != "d"]
            game.play(rng.choice(removes) if removes and (rng.random() < 0.85 or "d" not in moves) else "d")
        return game.to_layout()
    deck = list(range(52)) + list(JOKERS[:rules.jokers])
    rng.shuffle(deck)
    if shape == 0:  # all columns empty but one, a stock of 0 or 1
        heights = [0] * 7
        heights[rng.randrange(7)] = rng.randint(1, 5)
        n_stock = rng.randint(0, 1)
    elif shape == 1:  # a long stock over a small table
        heights = [rng.choice([0, 0, 1, 2]) for _ in range(7)]
        n_stock = rng.randint(8, rules.stock_size)
    else:  # a tall table over a short stock
        heights = [rng.choice([2, 3, 4, 5]) for _ in range(7)]
        n_stock = rng.randint(0, 3)
    discard = None
    if not (rules.empty_start and rng.random() < 0.3):
        ranks = rng.choice([(12,), (0,), (13,) if rules.jokers else (0, 12), tuple(range(14))])
        discard = rng.choice([c for c in deck if rank_of(c) in ranks])
        deck.remove(discard)
    cols, k = [], 0
    for h in heights:
        cols.append(deck[k:k + h])
        k += h
    return make_layout(cols, discard, deck[k:k + n_stock], rules)


def _check_line(layout: Layout, rules, sol) -> None:
    """The line replays in the engine to the promised cards left; a verdict's line ends the game
    (won, or locked with its stock drawn out) on the promised app score."""
    game, results = replay(layout, sol.moves, rules)
    assert all(r.ok for r in results), (layout.to_text(), sol.moves)
    assert game.traditional_score() == sol.best_left and game.won == (sol.best_left == 0), layout.to_text()
    if sol.outcome != "unknown":
        assert game.over and game.score == app_score(sol.best_left), layout.to_text()


@pytest.mark.parametrize("spec", SPECS)
def test_solve_hint_and_node_limits_match_an_engine_search_on_mid_game_positions(spec, monkeypatch):
    """Solve (the hunt, with restarts after 1 state or none; the level search; verdict only),
    hint's value of every legal move, both cards-left bounds, and solves stopped at a node limit
    (an answer it gives must be the true one) against the engine's own search."""
    rules = get_rules(spec)
    rng = random.Random("round38 " + spec)
    hunt, level = Solver(), Solver(level_search=True)
    answers = set()
    for i in range(20):
        lay = _position(rng, rules)
        truth = engine_best_left(lay, rules)
        verdict = "won" if truth == 0 else "lost"
        answers.add(verdict)
        monkeypatch.setattr(solver_mod, "RESTART", i % 2)  # 0: no restarts
        for sol in (hunt.solve(lay, rules), level.solve(lay, rules)):
            assert (sol.outcome, sol.best_left) == (verdict, truth), lay.to_text()
            _check_line(lay, rules, sol)
        assert hunt.solve(lay, rules, verdict_only=True).outcome == verdict, lay.to_text()
        assert cards_left_bound(lay, rules) <= cards_left_bound(lay, rules, blocking=True) <= truth
        limit = rng.randint(1, hunt.solve(lay, rules).nodes + 1)
        for solver in (hunt, level):
            cut = solver.solve(lay, rules, node_limit=limit)
            assert cut.outcome == "unknown" or (cut.outcome, cut.best_left) == (verdict, truth), lay.to_text()
            assert cut.best_left >= truth
            _check_line(lay, rules, cut)
        game = Game(lay, rules)
        want = {}
        for m in game.legal_moves():
            child = Game(lay, rules)
            child.play(m)
            want[m] = engine_best_left(child.to_layout(), rules)
        ranked = rank_moves(game, hunt)
        assert {a.move: a.solution.best_left for a in ranked} == want, lay.to_text()
        assert not ranked or ranked[0].solution.best_left == min(want.values())
    assert answers == {"won", "lost"}  # the sample must hold both answers to test anything


@pytest.mark.parametrize("spec", [s for s in SPECS if get_rules(s).draw_any_time])
def test_order_searches_and_carried_lost_states_match_an_engine_search_on_every_table(spec):
    """The fair player's compiled order search (orderhunt.order_verdicts through ChainValues:
    every table at once, or a few at a time with what earlier calls proved carried over) and
    verdict solves carrying LostStates between the tables of one order, against the engine's
    own search of each position after the table and one draw."""
    rules = get_rules(spec)
    rng = random.Random("round38 orders " + spec)
    solver = Solver()
    checked = {True: 0, False: 0}
    for i in range(40):  # until both answers were checked a few times
        if i >= 8 and min(checked.values()) >= 3:
            break
        lay = _position(rng, rules)
        if not lay.stock or not lay.tableau_count:
            continue
        states = predraw_states(lay, rules)
        orders = [tuple(lay.stock)] + [tuple(rng.sample(lay.stock, len(lay.stock))) for _ in range(2)]
        values = ChainValues(lay, rules, states, solver)
        if i % 2:
            values.extend(orders)
        else:  # the root left out, the tables decided a few at a time
            values.extend(orders, states=[], root=False)
            for o in range(len(orders)):
                for k in range(0, len(states), 3):
                    values.decide(o, rng.sample(states, len(states))[:k + 1])
        for o, stock in enumerate(orders):
            root = Layout(lay.columns, lay.discard, stock, rules)
            if values.root_won[o] is not None:
                assert values.root_won[o] == (engine_best_left(root, rules) == 0), root.to_text()
            lost = LostStates()
            for s in rng.sample(states, len(states)):
                if not s.table:
                    continue
                child = Layout(s.columns, stock[0], stock[1:], rules)
                won = engine_best_left(child, rules) == 0
                assert values.won(o, s) == won, (root.to_text(), s.chain)
                assert (solver.solve(child, rules, verdict_only=True, lost=lost).outcome == "won") == won
                checked[won] += 1
    assert min(checked.values()) >= 3
