"""Where a fair player's CPU goes: its order searches by phase, the exact endgame, the rest.

    nice -n 5 python benchmarks/fair_profile.py --rules easy --start 0 --count 30 --player round2

Plays each deal as ``fair-stats`` does (``golfsolve.fair.play``), in one process, and
charges CPU time (``time.process_time``) to what the player does: each compiled order search
(``ChainValues._decide``: one stock order, the tables asked for on it) by the order's place
in the decision, ``first`` for the first ``samples`` orders (with ``+root`` where the root
was searched too) and ``more`` for those the race, the tie break or the hopeless rule added;
each exact endgame attempt (``Player.exact_values``), split into those that passed the state
cap and gave up and the others; what is left of the games' CPU is the Python around them
(the referee's solves included). For the order searches it also prints how heavy their tail
is: the share of their states in their top 1%, 5% and 20% of calls. ``--player`` is a preset
name, PlayerSettings as JSON, or ``round2``: round 2's settings, each game seeded as round 2
seeded it (benchmarks/fair_round2.py).
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np

from golfsolve.fair import PlayerSettings, play
from golfsolve.fair import infoset, player
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import code_letter, get_rules
from golfsolve.solitaire.solver import Solver

from fair_paired import settings_of
from fair_round2 import ROUND2_SETTINGS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="easy")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--player", default="strong", help="a preset, PlayerSettings as JSON, or round2")
    a = ap.parse_args()
    rules = get_rules(a.rules)
    round2 = a.player == "round2"
    settings = PlayerSettings(**ROUND2_SETTINGS) if round2 else settings_of(a.player)
    first_orders = settings.for_rules(rules).samples
    solver = Solver()
    play(layout_from_number(1, rules, code_letter(rules)), rules, settings, "warm-up", solver)  # kernels loaded

    calls: list[tuple[str, int, float]] = []  # (phase, states, CPU seconds) per order search
    exact = collections.defaultdict(lambda: [0, 0.0])  # "gave up" / "played": attempts, CPU seconds

    decide = infoset.ChainValues._decide

    def timed_decide(self, i, tables, root):
        t, n = time.process_time(), self.nodes
        decide(self, i, tables, root)
        phase = ("first" if i < first_orders else "more") + ("+root" if root else "")
        calls.append((phase, self.nodes - n, time.process_time() - t))

    compiled_move = player.Player._compiled_move

    def timed_exact(self, view, gone, unknown):
        t, failed = time.process_time(), self._exact_failed_at
        got = compiled_move(self, view, gone, unknown)
        k = "gave up at the cap" if self._exact_failed_at != failed else "played"
        exact[k][0] += 1
        exact[k][1] += time.process_time() - t
        return got

    infoset.ChainValues._decide = timed_decide
    player.Player._compiled_move = timed_exact
    total = 0.0
    for n in range(a.start, a.start + a.count):
        t = time.process_time()
        seed = f"0-{a.rules}-{n}" if round2 else 0
        play(layout_from_number(n, rules, code_letter(rules)), rules, settings, seed, solver)
        total += time.process_time() - t

    print(f"{a.rules} deals {a.start}..{a.start + a.count - 1}, player {a.player}: {total:.2f} s of CPU, "
          f"{total / a.count:.3f} s a game")
    searched = sum(c[2] for c in calls)
    print(f"  order searches   {searched:6.2f} s  {100 * searched / total:4.1f}%  {len(calls):,} calls, "
          f"{sum(c[1] for c in calls) / 1e6:.1f} M states")
    for phase in sorted({c[0] for c in calls}):
        x = [c for c in calls if c[0] == phase]
        cpu = sum(c[2] for c in x)
        print(f"    {phase:<12}   {cpu:6.2f} s  {100 * cpu / total:4.1f}%  {len(x):,} calls, "
              f"{sum(c[1] for c in x) / 1e6:.1f} M states")
    states = np.sort(np.array([c[1] for c in calls], dtype=float))[::-1]
    if states.sum() > 0:
        share = np.cumsum(states) / states.sum()
        top = ", ".join(f"top {p}% of calls {100 * share[max(len(states) * p // 100 - 1, 0)]:.0f}%"
                        for p in (1, 5, 20))
        print(f"    their states: {top}")
    ex = sum(v[1] for v in exact.values())
    print(f"  exact endgame    {ex:6.2f} s  {100 * ex / total:4.1f}%")
    for k, (count, cpu) in sorted(exact.items()):
        print(f"    {k:<18} {cpu:6.2f} s  {count} attempts")
    rest = total - searched - ex
    print(f"  the rest         {rest:6.2f} s  {100 * rest / total:4.1f}%  (Python, the referee's solves)")


if __name__ == "__main__":
    main()
