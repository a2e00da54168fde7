"""Difficulty commands: rate a deal, pick deals of a chosen difficulty."""

from __future__ import annotations

import click

from ..fair.settings import BANDS, LABELS, PRESETS  # plain data: the solver loads after the checks
from .command import Command
from .options import SEED, AsciiChoice, effort, rules_option, start_options
from .output import echo_json, echo_json_items, fail
from .reading import start_deal

_BANDS_HELP = ", ".join(f"{name} from {100 * low:.0f}%" for name, low in BANDS)

#: ``--player``: a fair player preset (docs/fair.md says what each costs)
player_option = click.option(
    "--player", type=AsciiChoice(list(PRESETS), case_sensitive=False), default="fast", show_default=True,
    help="The fair player's preset: fast (cheap) or strong (stronger, about 4 times the CPU per game, 6 under "
         "Easy).")


@click.command(cls=Command)
@click.argument("codes", nargs=-1)
@click.option("--layout", "layout_files", multiple=True, metavar="FILE",
              help="A layout file with its whole stock (golfsolve text or black-hole-solve board); - reads stdin. "
                   "Repeatable.")
@click.option("--pysol", "pysol", multiple=True, metavar="RANGE",
              help="PySol FC's Golf deals: N, A-B or A..B (both ends included), or a comma list. Repeatable.")
@rules_option
@click.option("--games", type=effort(), default=16, show_default=True, metavar="N",
              help="Fair-player games on stock orders consistent with the opening.")
@player_option
@click.option("--seed", type=SEED, default=0, show_default=True, metavar="N", help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (a list).")
def rate(codes, layout_files, pysol, rules_spec, games, player, seed, as_json):
    """Difficulty of deals: exact winnability, the fair chance and a label.

    The fair chance is the fair player's win rate on the opening with the stock
    order forgotten, over --games orders (95% Wilson interval). Labels by fair chance:
    easy from 60%, medium from 35%, hard from 15%, very-hard below. "winnable" is
    the real deal's exact verdict, its stock order seen (as 'golfsolve solve' gives
    it): deals that look alike get the same fair chance and label, winnable or not.

    A rating costs about 0.9 s of CPU per Easy deal and 0.45 s per Classic deal at
    16 games (the fast player; docs/stats.md), in proportion to --games.

    Example: golfsolve rate GO1-C-AAAAAAB GO1-C-AAAAAAC
    """
    from ..solitaire.deals import DealBatch
    from ..solitaire.rules import get_rules
    from ..solitaire.solver import ODDS_INSTEAD, Solver, StockUnknownError

    rules = get_rules(rules_spec) if rules_spec is not None else None
    if not (codes or layout_files or pysol):
        fail("give a deal code, --layout FILE or --pysol N")
    try:
        batch = DealBatch.build(codes, layout_files, pysol, rules)  # every deal checked before any work
    except StockUnknownError as e:
        # odds' advice is for a position; a rating is of a deal, from its opening
        fail(f"{str(e).replace(', ' + ODDS_INSTEAD, '')}, and rating needs the real stock: give a deal code "
             "or a full layout")
    # a cleared table solves without its stock order, so the batch lets it through: it is
    # over (rated as odds answers it); any other table's fair games need the real stock's cards
    for lay in batch.layouts:
        if not lay.stock_known and any(lay.columns):
            fail(f"{lay.name or 'layout'}: the stock order is unknown; rating needs the real stock: "
                 "give a deal code or a full layout")
    from ..fair import rate as rate_deal

    solver = Solver()
    # each deal's answer as soon as it is rated: a long --pysol range shows its answers as
    # they come (and keeps those when stopped), as solve's JSON Lines do
    ratings = (rate_deal(lay, lay.rules, games, seed, solver, player) for lay in batch)
    if as_json:
        echo_json_items(r.as_json() for r in ratings)
    else:
        for r in ratings:
            click.echo(f"{r.render()}  ({r.rules.name})")


@click.command(cls=Command)
@click.option("--rules", "rules_spec", default=None, metavar="NAME",
              help="easy, classic, strict, dead-king (or wrap/queen-on-king/no-card-on-king), plus switches like "
                   "+jokers2, +empty, +stuck. Default: the --start code's letter, else easy.")
@click.option("--difficulty", type=AsciiChoice(LABELS, case_sensitive=False), required=True,
              help=f"Wanted label ({_BANDS_HELP}).")
@click.option("--count", type=click.IntRange(min=1), default=10, show_default=True, metavar="N", help="Deals to find.")
@click.option("--winnable", is_flag=True, help="Only deals the exact solver wins.")
@start_options
@click.option("--games", type=effort(), default=16, show_default=True, metavar="N",
              help="Fair-player games per deal (see 'golfsolve rate').")
@player_option
@click.option("--max-deals", type=click.IntRange(min=1), default=100_000, show_default=True, metavar="N",
              help="Stop after examining this many deals.")
@click.option("--seed", type=SEED, default=0, show_default=True, metavar="N", help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def pick(rules_spec, difficulty, count, winnable, start_code, start_number, games, player, max_deals, seed, as_json,
         quiet):
    """Deal codes of a chosen difficulty, scanning forward from a start deal.

    Example: golfsolve pick --rules classic --winnable --difficulty hard --count 20
    """
    from ..solitaire.dealcode import parse_code
    from ..solitaire.rules import EASY, get_rules

    start = start_deal(start_code, start_number) or 0
    # as a deal code's letter decides for every other command; easy by default would make
    # '--start GO1-C-AAAAAAA' pick GO1-E-... deals
    rules = (get_rules(rules_spec) if rules_spec is not None
             else parse_code(start_code).rules if start_code is not None else EASY)
    from ..fair import PickStopped, pick as pick_deals

    from ..progress import progress_bar

    bar = progress_bar(total=count, desc="deals found", unit="deal", delay=0.5, leave=False,
                       show=False if quiet or as_json else None)

    examined = 0

    def on_deal(r):
        nonlocal examined
        examined += 1
        # a rare difficulty finds nothing for a long while: the deals examined show the scan goes on
        bar.set_postfix_str(f"{examined:,} of at most {max_deals:,} deals examined", refresh=r is None)
        if r is None:
            return
        bar.update(1)
        if not as_json:
            click.echo(r.render())

    try:
        res = pick_deals(rules, difficulty, count, start, winnable, games, seed, max_deals, player=player,
                         on_deal=on_deal)
    except PickStopped as e:
        bar.close()
        if as_json:
            # the deals found so far as the one JSON answer (their lines are on screen without
            # --json); the exit code and stderr say it was stopped
            echo_json(e.result.as_json() | {"stopped": "interrupted"})
        raise
    bar.close()
    if as_json:
        echo_json(res.as_json())
    else:
        click.echo(res.render())
    if len(res.deals) < count:  # exit 1 with its one line on stderr, saying what to do next
        why = ("reached the last deal there is; start earlier with --start" if res.last_deal else
               f"stopped at --max-deals {max_deals:,}; raise --max-deals, or start elsewhere with --start")
        click.echo(f"golfsolve: fewer than --count {count}: the scan {why}", err=True)
        raise SystemExit(1)
