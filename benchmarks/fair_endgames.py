"""Exact fair value against the exact clairvoyant value on small endgames of won GO1 deals.

    python benchmarks/fair_endgames.py --rules easy --start 0 --count 282

For each deal of the range that can be won, follow the solver's winning line until at most
``--table`` table cards and ``--stock`` stock cards remain (the cards played so far known, as
the player knows them), then compute both values exactly (``golfsolve.fair.exact``). A line
that wins before reaching such a position gives no endgame. Prints the number of endgames,
the mean of each value, and the endgames where they differ. The lines followed are the
solver's, so another solver version can pick other endgames (docs/fair.md).
"""

from __future__ import annotations

import argparse
import sys

from golfsolve.fair import player_view
from golfsolve.fair.exact import clairvoyant_value, fair_value
from golfsolve.solitaire.engine import Game
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import Solver


def endgame(number: int, rules, solver: Solver, table: int, stock: int):
    """The position of the deal's winning line with at most ``table`` table cards and
    ``stock`` stock cards left, as (view, played); None for a lost deal or a line that wins first."""
    deal = layout_from_number(number, rules)
    sol = solver.solve(deal, rules)
    if sol.outcome != "won":
        return None
    game = Game(deal, rules)
    for move in sol.moves:
        if game.traditional_score() <= table and len(game.stock) <= stock:
            return player_view(deal, game)
        game.play(move)
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="easy")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=282)
    ap.add_argument("--table", type=int, default=8)
    ap.add_argument("--stock", type=int, default=6)
    args = ap.parse_args(argv)
    rules = get_rules(args.rules)
    solver = Solver()
    fair_sum = clair_sum = 0.0
    found, gaps = 0, []
    for n in range(args.start, args.start + args.count):
        pos = endgame(n, rules, solver, args.table, args.stock)
        if pos is None:
            continue
        view, played = pos
        f = fair_value(view, rules, played).value
        c = clairvoyant_value(view, rules, played, solver).value
        found += 1
        fair_sum += f
        clair_sum += c
        if c - f > 1e-9:
            gaps.append((n, f, c))
    last = args.start + args.count - 1
    print(f"{args.rules}, deals {args.start}..{last}: {found} endgames (at most {args.table} table and {args.stock} stock cards)")
    if found:
        print(f"mean exact fair value {100 * fair_sum / found:.2f}%, clairvoyant {100 * clair_sum / found:.2f}%")
    print(f"{len(gaps)} with a gap" + "".join(f"\n  deal {n}: {100 * f:.1f}% against {100 * c:.1f}%" for n, f, c in gaps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
