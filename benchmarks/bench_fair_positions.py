"""`odds`, `hint --fair` and `rate` at their defaults on positions nobody tuned for: seeded
random openings, mid-game positions, layouts with an unknown stock, finished games.

    nice -n 10 python benchmarks/bench_fair_positions.py [--seed 49] [--openings 40] [--midgames 40]
    nice -n 10 python benchmarks/bench_fair_positions.py --baseline main --only o07,m12   # against main

Positions (all from ``--seed``, so the table can be reproduced):

* openings: GO1 numbers drawn across the whole code space and PySol numbers, in turn, under
  Easy, Classic and a third rule set (dead-king, strict, easy+jokers1 in turn), in turn;
* mid-game positions: a seeded random legal game played into such a deal (``--moves``), in
  three kinds in turn: near the end (at most 6 stock cards left: the exact endgame's
  territory), the stock nearly full with several removes made, and anywhere between;
* layouts with an unknown stock (a mid-game position written as a ``--layout`` file whose
  stock is ``? ? ...``), and finished games (a won line, a locked random game).

Each command is run as ``python -m golfsolve`` in a fresh process (start-up included); CPU
is the child's user + system time, not wall. Per position: `odds --json` (the fair chance's
95% interval width in points, CPU), `odds` as text (CPU again, and whether the interval is
printed), `hint --fair --json` (CPU), and for openings `rate CODE --json` (CPU). With
``--honesty K`` the first K positions of each kind are asked again with their hidden cards
changed (the stock cards the player has not seen shuffled, written as a full layout) and
every fair answer must be the same. Goals (issue 19): `odds` at most 20 points wide and at
most 6 s of CPU; `hint --fair` at most 2 s. The worst cases are printed last; ``--baseline``
runs each command of a position on a reference tree (``git archive``) right after this one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from golfsolve.solitaire.dealcode import format_code  # noqa: E402
from golfsolve.solitaire.engine import Game  # noqa: E402
from golfsolve.solitaire.layout import layout_from_code, layout_from_pysol, make_layout  # noqa: E402
from golfsolve.solitaire.rules import get_rules  # noqa: E402

CODES = 26 ** 7
OTHER = ("dead-king", "strict", "easy+jokers1")
ODDS_CPU, ODDS_WIDTH, HINT_CPU = 6.0, 20.0, 2.0


@dataclass
class Position:
    name: str
    kind: str  # opening, near-end, full-stock, mid, unknown-stock, finished
    source: list[str]  # the command line's deal: a code, --pysol N, or --layout FILE
    rules: str
    moves: str = ""
    rate: list[str] = field(default_factory=list)  # what rate rates (openings only)
    twin: list[str] = field(default_factory=list)  # the same view, other hidden cards


def deal_of(i: int, rng: random.Random) -> tuple[list[str], str, object]:
    """The i-th deal: (its command-line source, its rules' name, its layout)."""
    rules = ("easy", "classic", OTHER[(i // 3) % len(OTHER)])[i % 3]
    if i % 2 == 0 or "jokers" in rules:  # PySol's deals have no jokers
        number = rng.randrange(CODES)
        letter = "C" if rules == "classic" else "E"
        code = format_code(number, letter)
        src = [code] + ([] if rules in ("easy", "classic") else ["--rules", rules])
        return src, rules, layout_from_code(code, get_rules(rules))
    number = rng.randrange(1, 1_000_000)
    return ["--pysol", str(number), "--rules", rules], rules, layout_from_pysol(number, get_rules(rules))


def random_game(layout, rules, rng: random.Random, kind: str):
    """A random legal game into ``layout`` ending in a position of ``kind`` that is not over, or None."""
    game = Game(layout, rules)
    moves: list[str] = []
    stock0 = len(layout.stock)
    for _ in range(200):
        legal = game.legal_moves()
        if not legal:
            return None
        removes = [m for m in legal if m != "d"]
        left = len(game.stock)
        if kind == "near-end":
            if left <= rng.randint(2, 6) and removes:
                return moves
            p_remove = 0.8
        elif kind == "full-stock":
            if stock0 - left <= 3 and game.removed >= rng.randint(4, 8):
                return moves
            p_remove = 0.95
        else:  # mid
            if len(moves) >= 6 and rng.random() < 0.08:
                return moves
            p_remove = 0.7
        move = rng.choice(removes) if removes and (rng.random() < p_remove or "d" not in legal) else "d"
        game.play(move)
        moves.append(move)
        if game.over:
            return None
    return None


def twin_layout(layout, rules, moves: str, rng: random.Random, folder: str, name: str) -> list[str]:
    """A full layout file of the same deal with the stock cards the player has not seen after
    ``moves`` shuffled: the same view, other hidden cards."""
    game = Game(layout, rules)
    for m in moves.split():
        game.play(m)
    seen = len(layout.stock) - len(game.stock) + game.seen_stock
    hidden = list(layout.stock[seen:])
    for _ in range(20):  # a shuffle that moves something
        rng.shuffle(hidden)
        if len(hidden) < 2 or tuple(hidden) != tuple(layout.stock[seen:]):
            break
    twin = make_layout(layout.columns, layout.discard, tuple(layout.stock[:seen]) + tuple(hidden), rules, "twin")
    path = Path(folder) / f"{name}-twin.txt"
    path.write_text(twin.to_text(), encoding="utf-8")
    return ["--layout", str(path)]


def positions(seed: int, n_open: int, n_mid: int, folder: str) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    for i in range(n_open):
        src, rules, lay = deal_of(i, rng)
        out.append(Position(f"o{i:02d}", "opening", src, rules, rate=src,
                            twin=twin_layout(lay, get_rules(rules), "", rng, folder, f"o{i:02d}")))
    kinds = ("near-end", "full-stock", "mid")
    i = 0
    while sum(p.kind in kinds for p in out) < n_mid:
        src, rules, lay = deal_of(1000 + i, rng)
        kind = kinds[sum(p.kind in kinds for p in out) % 3]
        moves = random_game(lay, get_rules(rules), rng, kind)
        i += 1
        if moves is None:
            continue
        name = f"m{sum(p.kind in kinds for p in out):02d}"
        text = " ".join(moves)
        out.append(Position(name, kind, src, rules, text, twin=twin_layout(lay, get_rules(rules), text, rng,
                                                                          folder, name)))
    # a mid-game position written as a layout whose stock is unknown, one of each kind, and
    # the app's own example (its first stock card known)
    for p in [q for q in out if q.kind in kinds][:6]:
        lay = (layout_from_code(p.source[0], get_rules(p.rules)) if not p.source[0].startswith("--")
               else layout_from_pysol(int(p.source[1]), get_rules(p.rules)))
        game = Game(lay, get_rules(p.rules))
        for m in p.moves.split():
            game.play(m)
        path = Path(folder) / f"u-{p.name}.txt"
        path.write_text(game.to_layout().forget_stock(0).to_text(), encoding="utf-8")
        out.append(Position(f"u-{p.name}", "unknown-stock", ["--layout", str(path)], p.rules))
    for rules in ("easy", "classic"):
        out.append(Position(f"seed000-{rules}", "unknown-stock",
                            ["--layout", str(ROOT / "tests/data/seed000_start.txt"), "--rules", rules], rules))
    # finished games: the solver's winning line, and a random game played until it locks
    from golfsolve.solitaire.solver import Solver

    solver = Solver()
    won = locked = 0
    i = 0
    while won < 2 or locked < 2:
        src, rules, lay = deal_of(2000 + i, rng)
        i += 1
        sol = solver.solve(lay, get_rules(rules))
        if sol.outcome == "won" and won < 2:
            out.append(Position(f"f-won{won}", "finished", src, rules, " ".join(sol.moves)))
            won += 1
        elif locked < 2:
            game, moves = Game(lay, get_rules(rules)), []
            while not game.over:
                m = rng.choice(game.legal_moves())
                game.play(m)
                moves.append(m)
            if game.locked:
                out.append(Position(f"f-lock{locked}", "finished", src, rules, " ".join(moves)))
                locked += 1
    return out


def child(cmd: list[str], tree: str) -> tuple[float, str]:
    """CPU seconds (user + system) of one command run under ``tree``, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": tree}
    # cwd too: `python -m` puts the working directory first on the path
    done = subprocess.run([sys.executable, "-m", "golfsolve", *cmd], env=env, cwd=tree, capture_output=True,
                          text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def width(answer: dict) -> float:
    fair = answer["fair"]
    return 100 * (fair["ci95"][1] - fair["ci95"][0]) if fair.get("chance") is not None else float("nan")


def fair_part(odds: dict) -> tuple:
    """What an odds answer says that must not depend on the hidden cards."""
    f, c = odds["fair"], odds["clairvoyant"]
    return f["chance"], f["ci95"], f["games"], f["wins"], f["stopped"], c["chance"], c["wins"], odds["work"]


def hint_part(hint: dict) -> tuple:
    return json.dumps(hint.get("best"), sort_keys=True), json.dumps(hint.get("ranked"), sort_keys=True)


def measure(p: Position, tree: str) -> dict:
    moves = ["--moves", p.moves] if p.moves else []
    r: dict = {}
    r["odds_cpu"], out = child(["odds", *p.source, *moves, "--json"], tree)
    ans = json.loads(out)
    r["width"], r["games"], r["stopped"], r["work"] = width(ans), ans["fair"]["games"], ans["fair"]["stopped"], ans["work"]
    r["exact"], r["odds"] = ans["fair"]["exact"], ans
    r["text_cpu"], text = child(["odds", *p.source, *moves], tree)
    # a sampled fair chance shows its interval; an exact or finished one says it is exact
    r["text_ok"] = "(95% interval)" in text or "exact" in text.split("clairvoyant")[0] or "0%" in text
    r["hint_cpu"], out = child(["hint", *p.source, *moves, "--fair", "--json"], tree)
    r["hint"] = json.loads(out)
    if p.rate:
        r["rate_cpu"], _ = child(["rate", *p.rate, "--json"], tree)
    return r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=49)
    ap.add_argument("--openings", type=int, default=40)
    ap.add_argument("--midgames", type=int, default=40)
    ap.add_argument("--honesty", type=int, default=3, help="positions of each kind asked again with other hidden cards")
    ap.add_argument("--only", default="", help="comma-separated position names (o03,m12,...): only those")
    ap.add_argument("--baseline", default="", help="git commit of a reference tree to run beside this one")
    ap.add_argument("--list", action="store_true", help="print the positions and stop")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        pos = positions(a.seed, a.openings, a.midgames, folder)
        if a.only:
            keep = set(a.only.split(","))
            pos = [p for p in pos if p.name in keep]
        if a.list:
            for p in pos:
                print(p.name, p.kind, " ".join(p.source), p.rules, repr(p.moves))
            return
        trees = {"new": str(ROOT)}
        if a.baseline:
            ref = Path(folder) / "ref"
            ref.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", a.baseline, "golfsolve"],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(ref)], input=archive, check=True)
            trees["ref"] = str(ref)
        for tree in trees.values():  # compile or load every kernel once before timing
            child(["odds", "GO1-E-AAAAAAA", "--games", "1", "--json"], tree)
        head = f"{'position':16} {'kind':13} {'rules':12} {'odds s':>6} {'text s':>6} {'width':>5} {'games':>5} " \
               f"{'stopped':>7} {'work M':>6} {'hint s':>6} {'rate s':>6}"
        print(head + ("   ref: odds s width hint s" if a.baseline else ""), flush=True)
        rows, lies = [], []
        asked_twins: dict[str, int] = {}
        for p in pos:
            r = measure(p, trees["new"])
            rows.append((p, r))
            line = (f"{p.name:16} {p.kind:13} {p.rules:12} {r['odds_cpu']:6.2f} {r['text_cpu']:6.2f} "
                    f"{r['width']:5.1f} {r['games']:5d} {str(r['stopped']):>7} {r['work'] / 1e6:6.1f} "
                    f"{r['hint_cpu']:6.2f} {r.get('rate_cpu', float('nan')):6.2f}")
            if not r["text_ok"]:
                line += "  NO INTERVAL TEXT"
            if "ref" in trees:
                q = measure(p, trees["ref"])
                line += f"   {q['odds_cpu']:6.2f} {q['width']:5.1f} {q['hint_cpu']:6.2f}"
                r["ref"] = q
            if p.twin and asked_twins.get(p.kind, 0) < a.honesty:
                asked_twins[p.kind] = asked_twins.get(p.kind, 0) + 1
                moves = ["--moves", p.moves] if p.moves else []
                rules = ["--rules", p.rules]
                _, out = child(["odds", *p.twin, *rules, *moves, "--json"], trees["new"])
                _, hout = child(["hint", *p.twin, *rules, *moves, "--fair", "--json"], trees["new"])
                same = fair_part(json.loads(out)) == fair_part(r["odds"]) and \
                    hint_part(json.loads(hout)) == hint_part(r["hint"])
                line += "  twin: same" if same else "  twin: DIFFERS"
                if not same:
                    lies.append(p.name)
            print(line, flush=True)

        def worst(key: str, n: int = 5) -> str:
            got = sorted(((r[key], p.name) for p, r in rows if key in r and r[key] == r[key]), reverse=True)[:n]
            return ", ".join(f"{name} {v:.2f}" for v, name in got)

        print(f"\n{len(rows)} positions. worst odds CPU: {worst('odds_cpu')}")
        print(f"worst width: {worst('width')}")
        print(f"worst hint --fair CPU: {worst('hint_cpu')}")
        print(f"worst rate CPU: {worst('rate_cpu')}")
        cpu_per_m = sorted(((r["odds_cpu"] / max(r["work"], 1) * 1e6, p.name) for p, r in rows if r["work"] > 5e6),
                           reverse=True)[:5]
        print("odds CPU per million states of work (work over 5 M): "
              + ", ".join(f"{n} {v:.3f} s" for v, n in cpu_per_m))
        over = [p.name for p, r in rows if r["odds_cpu"] > ODDS_CPU or r["width"] > ODDS_WIDTH
                or r["hint_cpu"] > HINT_CPU or not r["text_ok"]]
        print(f"over a goal (odds > {ODDS_CPU:.0f} s or > {ODDS_WIDTH:.0f} points, hint > {HINT_CPU:.0f} s, "
              f"no interval text): {', '.join(over) or 'none'}")
        print(f"hidden cards changed the answer: {', '.join(lies) or 'none'} "
              f"({sum(asked_twins.values())} positions asked twice)")


if __name__ == "__main__":
    main()
