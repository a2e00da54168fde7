"""`odds` and `hint --fair` at their defaults on ten openings: CPU of the whole command and
the fair chance's interval width, beside a reference commit, interleaved item by item.

    python benchmarks/bench_fair.py [--baseline 52838a4] [--deals 5] [--odds-only]
    python benchmarks/bench_fair.py --baseline main --odds-only   # odds against the main branch
    python benchmarks/bench_fair.py --baseline none --odds-only --deals 120   # this checkout alone, 240 openings
    python benchmarks/bench_fair.py --baseline none --hint-only --deals 120   # hint --fair alone, the same openings

Openings: GO1 deals START..START+N-1 (0..4 by default) under Easy and under Classic (ten by default), as a deal code
(the stock order forgotten). Each item runs `python -m golfsolve odds CODE --json` and
`python -m golfsolve hint CODE --fair --json` in a fresh process, on this checkout and on
the reference (exported with `git archive` to a temporary directory), one right after the
other, so both see the same load; CPU time is the child's user + system time, start-up
included. The reference by default is the last commit of round 2 (6 fair games for `odds`,
the blind-draw ranking for `hint --fair`). Goals: `odds` at most 6 s of CPU with an interval
at most 20 points wide; `hint --fair` at most 2 s of CPU for the whole command.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child(cmd: list[str], tree: str) -> tuple[float, dict]:
    """CPU seconds (user + system) of one command run under ``tree``, and its JSON answer."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": tree}
    # cwd too: `python -m` puts the working directory first on the path
    out = subprocess.run([sys.executable, "-m", "golfsolve", *cmd], env=env, cwd=tree, capture_output=True,
                         text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), json.loads(out)


def width(answer: dict) -> float:
    fair = answer["fair"]
    return 100 * (fair["ci95"][1] - fair["ci95"][0]) if fair.get("chance") is not None else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=5, help="openings per rule set")
    ap.add_argument("--start", type=int, default=0, help="the first GO1 deal number")
    ap.add_argument("--baseline", default="52838a4", help="git commit of the reference, or none: this checkout alone")
    ap.add_argument("--odds-only", action="store_true", help="measure odds only, not hint --fair")
    ap.add_argument("--hint-only", action="store_true", help="measure hint --fair only, not odds")
    a = ap.parse_args()
    if a.odds_only and a.hint_only:
        ap.error("--odds-only and --hint-only leave nothing to measure")
    from golfsolve.solitaire.dealcode import format_code

    nan = float("nan")
    with tempfile.TemporaryDirectory() as old:
        trees = {"new": str(ROOT)}
        if a.baseline != "none":
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", a.baseline, "golfsolve"],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
            trees = {"ref": old, **trees}
        for tree in trees.values():  # compile or load every kernel once before timing
            child(["odds", "GO1-E-AAAAAAA", "--games", "1", "--json"], tree)
            if not a.odds_only:
                child(["hint", "GO1-E-AAAAAAA", "--fair", "--json"], tree)
            child(["odds", "GO1-C-AAAAAAA", "--games", "1", "--json"], tree)
        print(f"{'opening':16} {'odds CPU ref/new':>17} {'width ref/new':>14} {'games ref/new':>13} "
              f"{'fair chance new':>24} {'hint CPU ref/new':>17}")
        tot = {k: [] for k in ("odds_ref", "odds_new", "hint_ref", "hint_new", "w_new")}
        budget = []  # the openings the work budget stopped short of the width goal
        for letter in ("E", "C"):
            for n in range(a.start, a.start + a.deals):
                code = format_code(n, letter)
                odds, hint, w, games = {"ref": nan}, {"ref": nan}, {"ref": nan}, {"ref": 0}
                chance = ""
                for name, tree in trees.items():  # interleaved: the same item on both trees back to back
                    hint[name] = float("nan") if a.odds_only else child(["hint", code, "--fair", "--json"], tree)[0]
                    if a.hint_only:
                        odds[name], w[name], games[name] = nan, nan, 0
                        continue
                    odds[name], ans = child(["odds", code, "--json"], tree)
                    w[name] = width(ans)
                    games[name] = ans["fair"].get("games", 0)
                    if name == "new":
                        f = ans["fair"]
                        chance = f"{100 * f['chance']:.1f}% ({f['games']} g, {f.get('stopped', '')})"
                        if f.get("stopped") == "budget":
                            budget.append(f"{code} {w['new']:.1f}")
                tot["odds_ref"].append(odds["ref"])
                tot["odds_new"].append(odds["new"])
                tot["hint_ref"].append(hint["ref"])
                tot["hint_new"].append(hint["new"])
                tot["w_new"].append(w["new"])
                print(f"{code:16} {odds['ref']:7.2f} / {odds['new']:5.2f} s {w['ref']:5.1f} / {w['new']:4.1f} "
                      f"{games['ref']:6d} / {games['new']:4d} {chance:>24} {hint['ref']:7.2f} / {hint['new']:5.2f} s",
                      flush=True)

        def mean(x: list[float]) -> float:
            return sum(x) / len(x)

        print()
        if not a.hint_only:
            print(f"odds: CPU ref {mean(tot['odds_ref']):.2f} s, new {mean(tot['odds_new']):.2f} s (max "
                  f"{max(tot['odds_new']):.2f}; {mean(tot['odds_new']) / mean(tot['odds_ref']):.2f}x ref); interval "
                  f"width new {mean(tot['w_new']):.1f} points (max {max(tot['w_new']):.1f}); stopped by the work "
                  f"budget: {len(budget)} of {len(tot['w_new'])}"
                  f"{' (' + ', '.join(budget) + ' points)' if budget else ''}")
        if not a.odds_only:
            slow = sum(t > 2 for t in tot["hint_new"])
            print(f"hint --fair: CPU ref {mean(tot['hint_ref']):.2f} s, new {mean(tot['hint_new']):.2f} s (max "
                  f"{max(tot['hint_new']):.2f}; {mean(tot['hint_new']) / mean(tot['hint_ref']):.2f}x ref); over 2 s: "
                  f"{slow} of {len(tot['hint_new'])}")


if __name__ == "__main__":
    main()
