"""Grid Golf speed: compiled (numba) kernels against the plain-Python engine, same run.

    python benchmarks/bench_grid.py                  # 4 players, 6 cards, 100 MC samples
    python benchmarks/bench_grid.py --samples 200 --players 3 --grid 9

1. Greedy-only tables: holes per second of :func:`simulate_holes` (the compiled greedy
   play-out of :mod:`golfsolve.grid.greedy` over whole dealt holes) against the
   referee (``engine.Hole`` with ``GreedyBot`` at every seat) on the same decks; the
   holes that did not recycle must score identically, which the script checks.
2. Monte Carlo decisions per second at a stated sample count: today's ``mc-greedy``
   (compiled greedy rollouts) against a plain-Python Monte Carlo that does the same work -
   sample the hidden cards from the view, play each candidate out with the referee and
   greedy bots - on the same decision points, taken from real games.
3. Milliseconds per 1,000 rollouts (one rollout = one candidate action played out in one
   sampled world) at real draw decisions: today's ``mc-greedy`` against the new ``mc``
   (heuristic play-outs, :mod:`golfsolve.grid.search`), with play-outs to the end of the
   hole and cut after one lap (``--horizon``), timed decision by decision in turn.
4. CPU per draw decision of the search bots at their budgets (``--search-bots``, e.g.
   ``ismcts:1000`` and ``spiel-ismcts:23`` with the ``spiel`` extra), on the same draw
   decisions, interleaved, so "equal time per decision" can be read off.

Compilation happens before the clock starts. Times are CPU time of this process
(``time.process_time``), so other load on the machine matters less; the ratios are the
figures to compare.
"""

from __future__ import annotations

import argparse
from time import process_time as clock

import numpy as np
from numba import njit

from golfsolve.errors import InputError
from golfsolve.grid.bots import GreedyBot, GreedyMCBot, MCBot, kernel_tables, make_bot
from golfsolve.grid.engine import Hole
from golfsolve.grid.greedy import play_out
from golfsolve.grid.layout import P_G, P_N, deal_hole, final_scores, record_hole, world_arrays
from golfsolve.grid.state import HoleState
from golfsolve.grid.rules import GridRules
from golfsolve.grid.view import DISCARD, KNOCK, STOCK, PlayerView


class _Recorder(GreedyBot):
    """Greedy, keeping the view at each of its draw decisions."""

    def __init__(self, sink: list) -> None:
        super().__init__(name="rec")
        self.sink = sink

    def choose_draw(self, view: PlayerView) -> str:
        self.sink.append(view)
        return super().choose_draw(view)


class _Forced(GreedyBot):
    """Plays one given first move (draw and placement), then greedy."""

    def __init__(self, draw: str, place) -> None:
        super().__init__(name="forced")
        self.first = (draw, place)

    def choose_draw(self, view: PlayerView) -> str:
        if self.first is not None:
            return self.first[0]
        return super().choose_draw(view)

    def choose_place(self, view: PlayerView):
        if self.first is not None:
            place, self.first = self.first[1], None
            if place is not None:
                return place
        return super().choose_place(view)


@njit(cache=True)
def simulate_holes(decks, firsts, prm, key_tab, val100, seed):
    """Play whole holes with the greedy policy at every seat.

    ``decks[h]`` is dealt like the engine deals (grids in blocks, discard, stock in draw
    order); greedy openers are the first ``P_OPENERS`` slots, one per column first.
    Returns strokes ``(m, n)`` and per hole: end reason, turns, recycles.
    """
    np.random.seed(seed)
    m = decks.shape[0]
    L = decks.shape[1]
    n = prm[P_N]
    g = prm[P_G]
    scores = np.zeros((m, n), np.int64)
    info = np.zeros((m, 3), np.int64)
    _, grid, up, stock, disc, st, out = world_arrays(prm, L)
    keys = np.zeros(g, np.int64)
    vals = np.zeros(g, np.int64)
    canc = np.zeros(g, np.bool_)
    for h in range(m):
        deal_hole(decks[h], firsts[h], prm, grid, up, stock, disc, st)
        play_out(grid, up, stock, disc, st, prm, key_tab, val100, keys, vals, canc)
        final_scores(grid, st, prm, key_tab, val100, keys, vals, canc, out)
        record_hole(st, out, h, scores, info)
    return scores, info


def python_mc_draw(view: PlayerView, rules: GridRules, samples: int, rng: np.random.Generator) -> str:
    """The draw decision MCBot makes, done in plain Python with the referee for rollouts."""
    cands: list[tuple[str, object]] = [(STOCK, None)]
    if view.discard:
        cands += [(DISCARD, ("swap", i)) for i in range(rules.grid)]
    if KNOCK in view.legal_draws():
        cands.append((KNOCK, None))
    totals = np.zeros(len(cands))
    for _ in range(samples):
        world = HoleState.from_view(view, rng)  # one world for every candidate
        world.rng = rng
        for k, (draw, place) in enumerate(cands):
            players = [GreedyBot() for _ in range(rules.players)]
            players[view.me] = _Forced(draw, place)
            res = Hole.from_state(world.clone(), players).play()
            totals[k] += res.strokes[view.me]
    return cands[int(np.argmin(totals))][0]


def decision_points(rules: GridRules, count: int, seed: int) -> list[PlayerView]:
    """Draw decisions of a greedy seat in real games, spread over whole holes."""
    sink: list = []
    rng = np.random.default_rng(seed)
    h = 0
    while len(sink) < count:
        rec = _Recorder(sink)
        players = [rec] + [GreedyBot() for _ in range(rules.players - 1)]
        Hole(rules, players, rng, first=h).play()
        h += 1
    return sink[:count]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--grid", type=int, default=6)
    ap.add_argument("--samples", type=int, default=100, help="Monte Carlo samples per candidate action")
    ap.add_argument("--holes", type=int, default=20000, help="compiled greedy holes")
    ap.add_argument("--py-holes", type=int, default=400, help="plain-Python greedy holes")
    ap.add_argument("--decisions", type=int, default=60, help="compiled MC decisions")
    ap.add_argument("--py-decisions", type=int, default=3, help="plain-Python MC decisions")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rollout-decisions", type=int, default=200, help="decisions for the ms per 1,000 rollouts")
    ap.add_argument("--horizon", type=int, default=None, help="turns before a cut play-out is scored (default: players)")
    ap.add_argument("--search-bots", default="ismcts:100,ismcts:300,ismcts:1000,mc,spiel-ismcts:23",
                    help="bots timed per decision in section 4 (spiel ones skipped without open_spiel)")
    ap.add_argument("--search-decisions", type=int, default=30, help="draw decisions for section 4")
    a = ap.parse_args()
    rules = GridRules(players=a.players, grid=a.grid)
    print(f"grid Golf benchmark: {rules.describe()}")

    # -- greedy-only tables --------------------------------------------------------
    rng = np.random.default_rng(a.seed)
    decks = np.array([rng.permutation(rules.deck_cards()) for _ in range(a.holes)], dtype=np.int64)
    firsts = (np.arange(a.holes) % rules.players).astype(np.int64)
    prm, kt, vt = kernel_tables(rules)
    simulate_holes(decks[:10], firsts[:10], prm, kt, vt, 0)  # compile
    t0 = clock()
    scores, info = simulate_holes(decks, firsts, prm, kt, vt, a.seed)
    t_nb = clock() - t0
    t0 = clock()
    agree = compared = 0
    for h in range(a.py_holes):
        res = Hole(rules, [GreedyBot() for _ in range(rules.players)], np.random.default_rng(h),
                   deck=list(decks[h]), first=int(firsts[h])).play()
        if res.recycles == 0 and info[h, 2] == 0:
            compared += 1
            agree += list(scores[h]) == res.strokes
    t_py = clock() - t0
    nb_rate, py_rate = a.holes / t_nb, a.py_holes / t_py
    print(f"greedy-only tables: compiled {nb_rate:,.0f} holes/s ({a.holes} holes), "
          f"plain Python {py_rate:,.0f} holes/s ({a.py_holes} holes): {nb_rate / py_rate:,.0f}x")
    print(f"  same strokes on {agree}/{compared} holes compared; mean strokes per player-hole "
          f"{scores.mean():.2f} (compiled)")

    # -- Monte Carlo decisions -----------------------------------------------------
    views = decision_points(rules, a.decisions, a.seed)
    bot = GreedyMCBot(np.random.default_rng(a.seed), samples=a.samples)
    bot.choose_draw(views[0])  # compile
    t0 = clock()
    picks = [bot.choose_draw(v) for v in views]
    t_mc = clock() - t0
    py_rng = np.random.default_rng(a.seed)
    t0 = clock()
    py_picks = [python_mc_draw(v, rules, a.samples, py_rng) for v in views[:a.py_decisions]]
    t_pmc = clock() - t0
    mc_rate, pmc_rate = len(views) / t_mc, a.py_decisions / t_pmc
    cands = 1 + rules.grid
    print(f"Monte Carlo draw decisions at {a.samples} samples x ~{cands} candidates: compiled {mc_rate:,.1f}/s "
          f"({len(views)} decisions), plain Python {pmc_rate:,.3f}/s ({a.py_decisions} decisions): "
          f"{mc_rate / pmc_rate:,.0f}x")
    same = sum(p == q for p, q in zip(picks, py_picks))
    print(f"  same draw choice on {same}/{len(py_picks)} decisions (different random worlds, so near-ties may differ)")

    # -- ms per 1,000 rollouts: today's against the new, decision by decision -----------
    horizon = a.horizon if a.horizon is not None else rules.players
    views = decision_points(rules, a.rollout_decisions, a.seed + 1)
    sides = {"today (mc-greedy, greedy play-outs to the end)": GreedyMCBot(np.random.default_rng(a.seed), samples=a.samples),
             "new mc, heuristic play-outs to the end": MCBot(np.random.default_rng(a.seed), samples=a.samples),
             f"new mc, heuristic play-outs cut after {horizon} turns": MCBot(np.random.default_rng(a.seed),
                                                                           samples=a.samples, horizon=horizon)}
    for b in sides.values():
        b.choose_draw(views[0])  # compile
    spent = {k: 0.0 for k in sides}
    rollouts = 0
    for v in views:
        rollouts += a.samples * (1 + (rules.grid if v.discard else 0) + (1 if KNOCK in v.legal_draws() else 0))
        for k, b in sides.items():
            t0 = clock()
            b.choose_draw(v)
            spent[k] += clock() - t0
    base = spent[next(iter(sides))]
    print(f"ms per 1,000 rollouts at {len(views)} draw decisions ({rollouts:,} rollouts each side), CPU time:")
    for k, t in spent.items():
        print(f"  {k:<55} {1e6 * t / rollouts:7.2f} ms   {base / t:5.2f}x today's speed")

    # -- CPU per decision of the search bots ----------------------------------------------
    bots = {}
    for spec in a.search_bots.split(","):
        try:
            bots[spec] = make_bot(spec, np.random.default_rng(a.seed))
        except InputError as e:
            print(f"  {spec}: skipped ({e})")
    views = decision_points(rules, a.search_decisions, a.seed + 2)
    for b in bots.values():
        b.choose_draw(views[0])  # compile
    spent = {k: 0.0 for k in bots}
    for v in views:
        for k, b in bots.items():
            t0 = clock()
            b.choose_draw(v)
            spent[k] += clock() - t0
    print(f"CPU per draw decision over {len(views)} draw decisions, interleaved:")
    for k, t in spent.items():
        print(f"  {k:<20} {1e3 * t / len(views):8.2f} ms")


if __name__ == "__main__":
    main()
