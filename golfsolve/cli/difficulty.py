"""Difficulty commands: rate a deal, pick deals of a chosen difficulty."""

from __future__ import annotations

import click

from ..solitaire.dealcode import N_DEALS, parse_code
from ..solitaire.difficulty import BANDS, LABELS, pick as pick_deals, rate as rate_deal
from ..solitaire.layout import load_layout
from ..solitaire.rules import get_rules
from ..solitaire.solver import Solver
from .common import Command, SEED, echo_json, effort

_BANDS_HELP = ", ".join(f"{name} from {100 * low:.0f}%" for name, low in BANDS)


@click.command(cls=Command)
@click.argument("codes", nargs=-1, required=True)
@click.option("--rules", "rules_spec", default=None, metavar="NAME", help="Rule set (default: each code's letter).")
@click.option("--games", type=effort(), default=16, show_default=True,
              help="Fair-player games on stock orders consistent with the opening.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (a list).")
def rate(codes, rules_spec, games, seed, as_json):
    """Difficulty of deals: exact winnability, the fair chance and a label.

    The fair chance is the search fair player's win rate on the opening with the stock
    order forgotten, over --games orders (95% Wilson interval). Labels by fair chance:
    easy 60% and up, medium 35-60%, hard 15-35%, very-hard under 15%.

    Example: golfsolve rate GO1-C-AAAAAAB GO1-C-AAAAAAC
    """
    rules = get_rules(rules_spec) if rules_spec is not None else None
    layouts = [load_layout(c, None, None, rules) for c in codes]  # every code checked before any work
    solver = Solver()
    out = [rate_deal(lay, lay.rules, games, seed, solver) for lay in layouts]
    if as_json:
        echo_json([r.to_json() for r in out])
    else:
        for r in out:
            click.echo(f"{r.render()}  ({r.rules.name})")


@click.command(cls=Command)
@click.option("--rules", "rules_spec", default="easy", show_default=True, metavar="NAME", help="Rule set.")
@click.option("--difficulty", type=click.Choice(LABELS), required=True, help=f"Wanted label ({_BANDS_HELP}).")
@click.option("--count", type=click.IntRange(min=1), default=10, show_default=True, help="Deals to find.")
@click.option("--winnable", is_flag=True, help="Only deals the exact solver wins.")
@click.option("--start", "start_code", default=None, metavar="CODE", help="First deal code to examine (default deal 0).")
@click.option("--games", type=effort(), default=16, show_default=True,
              help="Fair-player games per deal (see 'golfsolve rate').")
@click.option("--max-deals", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Stop after examining this many deals.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def pick(rules_spec, difficulty, count, winnable, start_code, games, max_deals, seed, as_json, quiet):
    """Deal codes of a chosen difficulty, scanning forward from a start deal.

    Example: golfsolve pick --rules classic --winnable --difficulty hard --count 20
    """
    rules = get_rules(rules_spec)
    start = parse_code(start_code).number if start_code else 0
    found = []
    examined = 0
    bar = None
    if not quiet and not as_json:
        import sys

        if sys.stderr.isatty():
            from tqdm import tqdm

            bar = tqdm(total=count, desc="deals found", unit="deal", delay=0.5, leave=False)
    for examined, r in pick_deals(rules, difficulty, count, start, winnable, games, seed, max_deals):
        if r is not None:
            found.append(r)
            if bar is not None:
                bar.update(1)
            if not as_json:
                click.echo(r.render())
    if bar is not None:
        bar.close()
    if as_json:
        echo_json({"rules": rules.name, "difficulty": difficulty, "winnable_only": winnable, "games": games,
                   "seed": seed, "start": start, "examined": examined, "found": len(found),
                   "deals": [r.to_json() for r in found]})
    else:
        click.echo(f"found {len(found)} {difficulty} deal{'s' if len(found) != 1 else ''} "
                   f"({rules.name}{', winnable' if winnable else ''}) after examining {examined:,} deals "
                   f"from deal {start}" + (" (the last deal there is)" if start + examined >= N_DEALS else ""))
    if len(found) < count:
        raise SystemExit(1)
