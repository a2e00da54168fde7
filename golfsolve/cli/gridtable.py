"""The table options that ``grid simulate`` and ``grid play`` share: players, grid, holes,
rules and openers."""

from __future__ import annotations

import click


def table_options(holes_default: str = "9; 18 on the 4-card grid",
                  players_default: str = "one per bot; 4 without --bots"):
    """The table options (players, grid, holes, rules, openers) of simulate and play."""

    def add(f):
        f = click.option("--openers", type=int, default=None, metavar="N", help="Cards each player turns before play (default 2).")(f)
        f = click.option("--rules", "rules_spec", default=None, metavar="SPEC",
                         help="default or danish, plus switches: +putt +twos-plus +jokers +by-value +no-flip "
                              "+decks-by-players +knock10 +knock-double +rows +anywhere +sudden-death +pairs +no-nine-rows "
                              "+no-turn +openers-exact +openers-up-to.")(f)
        f = click.option("--holes", type=int, default=None, metavar="N", help=f"Holes per match (default {holes_default}).")(f)
        f = click.option("--grid", type=int, default=None, metavar="N", help="Cards per grid: 4, 6, 8 or 9 (default 6).")(f)
        f = click.option("--players", type=int, default=None, metavar="N", help=f"2 to 6 (default: {players_default}).")(f)
        return f

    return add
