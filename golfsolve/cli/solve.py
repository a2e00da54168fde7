"""Solver commands: solve and hint."""

from __future__ import annotations

import click

from ..solitaire.engine import parse_moves
from ..solitaire.hint import position_after, rank_moves
from ..solitaire.solver import Solver, StockUnknownError
from .common import echo_json, fail, get_layout, layout_options, plural


@click.command()
@layout_options
@click.option("--node-limit", type=click.IntRange(min=0), default=0,
              help="Stop after this many states and answer 'unknown' (0: no limit).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def solve(code, layout_file, pysol, rules_spec, node_limit, as_json):
    """Is the deal winnable, and how? Exact: a win with its moves, or the fewest cards left.

    Example: golfsolve solve GO1-E-AAAAAAB
    """
    lay = get_layout(code, layout_file, pysol, rules_spec)
    try:
        sol = Solver().solve(lay, lay.rules, node_limit)
    except StockUnknownError as e:
        fail(f"{lay.name or 'layout'}: {e}", 1)
    if as_json:
        echo_json({"deal": lay.name, **sol.to_json()})
    else:
        verdict = {"won": "winnable", "lost": "not winnable", "unknown": "unknown (node limit reached)"}[sol.outcome]
        click.echo(f"{lay.name or 'layout'} ({lay.rules.describe()}): {verdict}")
        if sol.outcome == "won":
            click.echo(f"moves ({len(sol.moves)}): {' '.join(sol.moves)}")
        else:
            label = "best line found" if sol.outcome == "unknown" else "best play"
            click.echo(f"{label}: {plural(sol.best_left, 'card')} left, app score {sol.app_score}")
            click.echo(f"moves ({len(sol.moves)}): {' '.join(sol.moves)}")
        click.echo(f"searched {sol.nodes:,} states in {sol.seconds * 1000:.1f} ms")
    if sol.outcome == "unknown":
        raise SystemExit(1)


@click.command()
@layout_options
@click.option("--moves", "moves_text", default="", metavar="MOVES",
              help="Moves already played, e.g. \"d 5 2\" (d draws, 1-7 remove from a column).")
@click.option("--all", "show_all", is_flag=True, help="Rank every legal move, not just the best.")
@click.option("--fair", is_flag=True,
              help="Don't peek at the stock: sample the unseen cards (see 'golfsolve odds').")
@click.option("--samples", type=click.IntRange(min=1), default=200, help="Samples for --fair.")
@click.option("--seed", type=int, default=0, help="Random seed for --fair.")
@click.option("--node-limit", type=click.IntRange(min=0), default=0, help="Per-move state limit (0: none).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def hint(code, layout_file, pysol, rules_spec, moves_text, show_all, fair, samples, seed, node_limit, as_json):
    """The best next move from a position, and why.

    Example: golfsolve hint GO1-E-AAAAAAB --moves "d 5 2" --all
    """
    lay = get_layout(code, layout_file, pysol, rules_spec)
    game = position_after(lay, parse_moves(moves_text), lay.rules)
    if game.over:
        fail(f"the game is already over: {game.status_message()}", 2)
    if fair:
        from ..solitaire.fair import fair_hint

        # the cards under the discard's top are known to be out of the stock
        result = fair_hint(game.to_layout(), game.rules, samples=samples, seed=seed, played=game.pile[:-1])
        if as_json:
            echo_json(result.to_json())
        else:
            click.echo(result.render(show_all))
        return
    try:
        ranked = rank_moves(game, node_limit=node_limit)
    except StockUnknownError as e:
        fail(f"{e}; try 'golfsolve hint --fair'", 1)
    if as_json:
        echo_json({"deal": lay.name, "moves_played": " ".join(parse_moves(moves_text)),
                   "best": ranked[0].to_json(), "ranked": [a.to_json() for a in ranked]})
        return
    best = ranked[0]
    what = "draw" if best.move == "d" else f"remove {best.card} from column {best.move}"
    click.echo(f"best move: {best.move} ({what}): {best.reason}")
    if show_all:
        for a in ranked:
            click.echo(f"  {a.move:>2}  {a.card or '':>3}  {a.reason}")
