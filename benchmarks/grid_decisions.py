"""Grid search bots decision by decision: CPU per decision and regret against a long search.

    python benchmarks/grid_decisions.py --bots ismcts,ismcts:3000,mc:140 --decisions 400 --truth 6000

Decision points are the draw decisions and the placements of a stock card of one seat in
four-player six-card games of heuristics (default rules), sampled over whole holes. Each
bot answers every decision, interleaved bot by bot (CPU time, ``time.process_time``; a
search is timed on its search, which is all but the whole of its decision, any other bot
on its ``choose_draw`` or ``choose_place``).
With ``--truth N`` every candidate action of every decision is also valued by flat Monte
Carlo over N common sampled worlds (heuristic play-outs, as ``mc:N``); a bot's regret at a
decision is the value of its choice minus the best value, in strokes, and the paired
difference of regrets against the first bot (searches only) is printed with a 95% interval. The truth
shares the play-out policy of the searches, so regret measures how well a bot spends its
budget, not how good the play-outs are; and below a stock draw the truth places the card
as the heuristic does, which ``ismcts``'s placement tree may beat: a bot with half
``ismcts``'s regret here still lost to it at the table (docs/experiments.md, "halving"), so
regret screens a search's use of its budget, and only a paired tournament says which bot
is stronger.
"""

from __future__ import annotations

import argparse
from time import process_time as clock

import numpy as np

from golfsolve.grid import bots as B
from golfsolve.grid.engine import Hole
from golfsolve.grid.rules import GridRules
from golfsolve.grid.view import STOCK, PlayerView


class _Recorder(B.HeuristicBot):
    """The heuristic, keeping its draw decisions and its placements of stock cards."""

    def __init__(self, sink: list) -> None:
        super().__init__(name="rec")
        self.sink = sink

    def choose_draw(self, view: PlayerView) -> str:
        self.sink.append(view)
        return super().choose_draw(view)

    def choose_place(self, view: PlayerView):
        if view.source == STOCK:
            self.sink.append(view)
        return super().choose_place(view)


def decision_points(rules: GridRules, count: int, seed: int) -> list[PlayerView]:
    """``count`` decisions with at least two candidates, sampled from heuristic games."""
    sink: list = []
    rng = np.random.default_rng(seed)
    h = 0
    while len(sink) < 3 * count:
        Hole(rules, [_Recorder(sink)] + [B.HeuristicBot() for _ in range(rules.players - 1)], rng, first=h).play()
        h += 1
    sink = [v for v in sink if len(candidates(v)[0]) > 1]
    idx = np.random.default_rng(seed).choice(len(sink), count, replace=False)
    return [sink[i] for i in sorted(idx)]


def candidates(view: PlayerView) -> tuple[list[int], list[int], int]:
    """(kinds, slots, drawn) as the searchers' ``_best`` takes them."""
    if view.drawn is None:
        kinds, slots = B._draw_candidates(view)
        return kinds, slots, -1
    legal = view.legal_placements()
    return [B._PLACE_CODE[k] for k, _ in legal], [s for _, s in legal], view.drawn


def _decide(bot, view: PlayerView):
    """The bot's decision: a search's candidate index (for the regret), else its answer."""
    if hasattr(bot, "_best"):
        return bot._best(view, *candidates(view))
    return bot.choose_draw(view) if view.drawn is None else bot.choose_place(view)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bots", default="ismcts,mc:140")
    ap.add_argument("--decisions", type=int, default=400)
    ap.add_argument("--truth", type=int, default=0, help="common worlds per candidate for the regret (0: none)")
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()
    rules = GridRules(players=4, grid=6)
    views = decision_points(rules, a.decisions, a.seed)
    bots = {s: B.make_bot(s, np.random.default_rng(3)) for s in a.bots.split(",")}
    for b in bots.values():
        _decide(b, views[0])  # compile
    spent = {s: 0.0 for s in bots}
    picks = {s: [] for s in bots}
    for v in views:
        for s, b in bots.items():
            t0 = clock()
            picks[s].append(_decide(b, v))
            spent[s] += clock() - t0
    print(f"{len(views)} decisions ({sum(v.drawn is None for v in views)} draws), CPU per decision, interleaved:")
    base = next(iter(bots))
    for s, t in spent.items():
        print(f"  {s:<16} {1e3 * t / len(views):8.3f} ms  {t / spent[base]:5.2f}x {base}")
    if not a.truth:
        return
    truth = B.MCBot(np.random.default_rng(1), samples=a.truth)
    t0 = clock()
    values = [truth.evaluate(v, *candidates(v)) for v in views]
    print(f"regret against {a.truth} common worlds per candidate (truth: {clock() - t0:.0f} s CPU), strokes per decision:")
    searchers = [s for s, b in bots.items() if hasattr(b, "_best")]
    regret = {s: np.array([val[k] - val.min() for val, k in zip(values, picks[s])]) for s in searchers}
    for s, r in regret.items():
        d = r - regret[base]
        half = 1.96 * d.std(ddof=1) / np.sqrt(len(d)) if s != base else 0.0
        print(f"  {s:<16} {r.mean():.4f}  (wrong by over 0.05: {np.mean(r > 0.05):5.1%})"
              f"  - {base}: {d.mean():+.4f} [{d.mean() - half:+.4f}, {d.mean() + half:+.4f}]")


if __name__ == "__main__":
    main()
