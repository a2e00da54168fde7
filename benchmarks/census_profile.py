"""Where a census's CPU goes: each rule set's solves split by deal class and search pass.

    nice -n 5 python benchmarks/census_profile.py --start 50000 --count 1000

Solves each deal under Easy, Classic and Strict in the order ``golfsolve stats`` does
(``census.solve_order``, each solve given the answers before it, as ``census.solve_deals``
does), in one process, and charges CPU time (``time.process_time``) and expanded states
to a class: the rule set and its verdict, with Easy's verdict for the stricter rule sets
(``classic:lost(easy won)``), then split by search pass: ``verdict`` (the search for a
win, cut at one card) and ``left`` (the search for the fewest cards left). To see the
passes, the solver's two search kernels are wrapped for the run (a timer around each
call); what is left of a class's CPU beyond its passes is the Python around them.
Also prints how heavy the tail of Easy's won deals is (the top 5% by CPU).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time

from golfsolve.solitaire import compiling
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import pack_number
from golfsolve.stats import census

RULES = ["easy", "classic", "strict"]
#: where each search kernel takes its ``cut`` (1: the search for a win)
CUT_ARG = {"hunt": 11, "search": 19}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", type=int, default=50000, help="first deal (default 50000)")
    ap.add_argument("--count", type=int, default=1000, help="how many deals (default 1000)")
    a = ap.parse_args(argv)
    if a.count < 1 or a.start < 0:
        ap.error("--start must be at least 0 and --count at least 1")

    census._warm(RULES)
    passes: list[tuple[str, float, int]] = []
    kernel = compiling.function

    def timed(name: str):
        f = kernel(name)
        if name not in CUT_ARG:
            return f

        def call(*args):
            t = time.process_time()
            out = f(*args)
            passes.append(("verdict" if int(args[CUT_ARG[name]]) == 1 else "left",
                           time.process_time() - t, int(out[3])))
            return out
        return call

    compiling.function = timed
    solver = census._solver()
    rule_sets = [get_rules(r) for r in RULES]
    order = census.solve_order(rule_sets, False)
    tally: dict[tuple, list] = collections.defaultdict(lambda: [0, 0.0, 0])  # solves, CPU s, states
    easy_won: list[tuple[float, int]] = []
    total = 0.0
    try:
        for n in range(a.start, a.start + a.count):
            p = pack_number(n, rule_sets[0])  # the three share one deal (same jokers, same start)
            done, got = [], {}
            for i in order:
                passes.clear()
                t = time.process_time()
                sol = solver.solve_given(p, rule_sets[i], done)
                got[RULES[i]] = (sol, time.process_time() - t, list(passes))
                done.append(sol)
            easy = got["easy"][0].outcome
            for name, (sol, cpu, ps) in got.items():
                cls = f"{name}:{sol.outcome}" + ("" if name == "easy" else f"(easy {easy})")
                for key, c, states in [((cls, "all"), cpu, sol.nodes)] + [((cls, ph), c, s) for ph, c, s in ps]:
                    tally[key][0] += 1
                    tally[key][1] += c
                    tally[key][2] += states
                total += cpu
            if easy == "won":
                easy_won.append((got["easy"][1], got["easy"][0].nodes))
    finally:
        compiling.function = kernel

    print(f"deals {a.start}..{a.start + a.count - 1}, {', '.join(RULES)} in the census's order, "
          f"full answers: {total:.2f} s of CPU")
    print("| class | pass | solves | CPU s | share | states per solve |")
    print("|---|---|---:|---:|---:|---:|")
    for cls, ph in sorted(tally, key=lambda k: (k[0], k[1] != "all", k[1])):
        k, cpu, states = tally[cls, ph]
        print(f"| {cls} | {ph} | {k} | {cpu:.3f} | {100 * cpu / total:.1f}% | {states / k:,.0f} |")
    if easy_won:
        easy_won.sort(reverse=True)
        top = easy_won[:max(1, len(easy_won) // 20)]
        print(f"Easy's won deals: {len(easy_won)}; the top 5% by CPU take "
              f"{100 * sum(c for c, _ in top) / sum(c for c, _ in easy_won):.0f}% of their CPU and "
              f"{100 * sum(s for _, s in top) / sum(s for _, s in easy_won):.0f}% of their states")
    return 0


if __name__ == "__main__":
    sys.exit(main())
