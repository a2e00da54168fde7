"""A fair player of this checkout against round 2's strong player, paired on the same deals:
win rates, the paired difference and the CPU per game, interleaved game by game.

    git archive 52838a4 | tar -x -C /tmp/round2        # the last commit of round 2
    nice -n 5 python benchmarks/fair_round2.py /tmp/round2 --rules easy --start 0 --count 1000 \\
        --player strong --jobs 2 --out results/round2-easy.csv
    python benchmarks/fair_paired.py --summary results/round2-easy.csv

Round 2's strong player is ``solitaire.fairplayer.play_search`` with 16 orders, 16 for ties
and its ``STRONG_KNOBS`` (a budgeted race of 64 orders, the compiled exact endgame from 8
unknown cards), each game seeded ``0-{rules}-{n}`` as round 2's fair-stats seeded it; this
checkout's player (``--player``, a preset) seeds every game 0, as fair-stats does now. Both
play each deal's real stock. Each tree runs in its own long-lived worker process
(:mod:`abtrees`), warmed up before any timing; the deal goes to both in turn, which one first
alternating deal by deal, and each times its game in CPU seconds (``time.process_time``).
``--jobs N`` runs N such pairs of workers on alternate deals. One CSV row per deal, in
``fair_paired.py``'s columns (a: this checkout, b: round 2) and ``same_moves`` (1 when both
played the same moves), appended as it finishes, so a stopped run resumes where it stopped;
``fair_paired.py --summary`` prints the table.

``--player round2`` is this checkout's player with round 2's settings (16 orders, 16 for
ties, a race of up to 64, the compiled exact endgame from 8 unknown cards at most 500,000
states) and each game seeded as round 2 seeded it: the same player, so it should play the
same moves, and the CPU ratio is then the speed of this code alone:

    python benchmarks/fair_round2.py /tmp/round2 --rules classic --count 1000 --player round2 --jobs 2 \
        --out results/round2-same-classic.csv
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import threading
import time
from pathlib import Path

from abtrees import THIS, start

FIELDS = ["rules", "deal", "clairvoyant_won", "a_won", "b_won", "a_cpu", "b_cpu", "a", "b", "same_moves"]
ROUND2 = "round2-strong"
#: Round 2's strong player's settings in this checkout's terms (its STRONG_KNOBS, 16 and 16 orders).
ROUND2_SETTINGS = {"samples": 16, "extra": 16, "race_budget": 64, "exact_unknown": 8, "exact_states": 500_000,
                   "compiled_exact": True}


def worker() -> None:
    """Play the deals read from stdin (``rules deal player``), one JSON line per game, with
    this tree's API (``golfsolve.fair.play``) or round 2's (``play_search``)."""
    from golfsolve.solitaire.layout import layout_from_number
    from golfsolve.solitaire.rules import get_rules
    from golfsolve.solitaire.solver import Solver

    try:
        from golfsolve.fair import PlayerSettings, play

        def game(lay, rules, name, n, player, solver):
            if player == "round2":  # round 2's player, seeded as round 2 seeded its games
                return play(lay, rules, PlayerSettings(**ROUND2_SETTINGS), f"0-{name}-{n}", solver)
            return play(lay, rules, player, 0, solver)
    except ImportError:  # round 2's tree
        from golfsolve.solitaire.fairplayer import STRONG_KNOBS, play_search

        def game(lay, rules, name, n, player, solver):
            return play_search(lay, rules, 16, 16, f"0-{name}-{n}", solver, **STRONG_KNOBS)

    solver = Solver()
    for name in ("easy", "classic"):  # every kernel compiled or loaded before any timing
        rules = get_rules(name)
        game(layout_from_number(1, rules, "E" if rules.wrap else "C"), rules, name, 1, "strong", solver)
    print("ready", flush=True)
    for line in sys.stdin:
        name, n, player = line.split()
        rules = get_rules(name)
        lay = layout_from_number(int(n), rules, "E" if rules.wrap else "C")
        t0 = time.process_time()
        g = game(lay, rules, name, int(n), player, solver)
        moves = getattr(g, "moves", None) or getattr(g, "line", ())
        print(json.dumps({"cpu": time.process_time() - t0, "won": bool(g.won),
                          "clairvoyant_won": bool(g.clairvoyant_won), "moves": " ".join(moves)}), flush=True)


def ask(proc, line: str) -> dict:
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", nargs="?", help="round 2's source tree (git archive 52838a4)")
    ap.add_argument("--rules", default="easy", choices=["easy", "classic"])
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--player", default="strong",
                    help="this checkout's preset, or round2: round 2's settings and seeds (the same player)")
    ap.add_argument("--jobs", "-j", type=int, default=1, help="pairs of workers")
    ap.add_argument("--out", default="results/round2.csv")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        return worker()
    if not a.base or not (Path(a.base) / "golfsolve" / "solitaire" / "fairplayer.py").is_file():
        ap.error("give round 2's source tree: git archive 52838a4 | tar -x -C DIR")
    done = set()
    if os.path.exists(a.out):
        with open(a.out, newline="") as f:
            done = {(r["rules"], int(r["deal"])) for r in csv.DictReader(f)}
    deals = [n for n in range(a.start, a.start + a.count) if (a.rules, n) not in done]
    script = Path(__file__).resolve()
    new_file = not os.path.exists(a.out)
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    lock = threading.Lock()
    with open(a.out, "a", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        if new_file:
            w.writeheader()

        def pair(mine: list[int]) -> None:
            procs = {"b": start(script, Path(a.base).resolve()), "a": start(script, THIS)}
            for n in mine:
                row = {"rules": a.rules, "deal": n, "a": a.player, "b": ROUND2}
                moves = {}
                for k in (("a", "b") if n % 2 == 0 else ("b", "a")):
                    got = ask(procs[k], f"{a.rules} {n} {a.player}")
                    row[f"{k}_cpu"] = round(got["cpu"], 4)
                    row[f"{k}_won"] = int(got["won"])
                    row["clairvoyant_won"] = int(got["clairvoyant_won"])
                    moves[k] = got["moves"]
                row["same_moves"] = int(moves["a"] == moves["b"])
                with lock:
                    w.writerow(row)
                    f.flush()
            for p in procs.values():
                p.stdin.close()
                p.wait()

        threads = [threading.Thread(target=pair, args=(deals[i::a.jobs],)) for i in range(a.jobs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


if __name__ == "__main__":
    main()
