"""The option types and options the commands share, so that one option means one thing,
with one name and one help, on every command that takes it (``--rules``, ``--layout``,
``--seed``, ``--jobs``, ``--node-limit``...); the checks of their values that click's own
types miss are here too.

Kept light (click and golfsolve's plain checks only): every command module imports it, and
``golfsolve solve --help`` must not load the solver.
"""

from __future__ import annotations

from typing import Optional

import click

from ..errors import MAX_EFFORT, MAX_INT64, InputError
from ..inputs import check_seed


#: ``--rules NAME``, the rule set overriding what the deal's source says
rules_option = click.option(
    "--rules", "rules_spec", default=None, metavar="NAME",
    help="easy, classic, strict, dead-king (or wrap/queen-on-king/no-card-on-king), "
         "plus switches like +jokers2, +empty, +stuck. Default: the code's letter or the layout "
         "file's rules: line, else easy.")


def effort(low: int = 1) -> click.IntRange:
    """A count of samples, games or iterations: from ``low`` to :data:`~golfsolve.errors.MAX_EFFORT`."""
    return click.IntRange(min=low, max=MAX_EFFORT)


class _NodeLimit(click.ParamType):
    """``--node-limit``'s type: 0 (none) or a state count a compiled kernel can hold. Not an
    ``IntRange``, whose help would print the 19-digit maximum on every command."""

    name = "integer"

    def convert(self, value, param, ctx):
        n = click.INT.convert(value, param, ctx)
        if not 0 <= n <= MAX_INT64:
            self.fail(f"{n} is not from 0 (no limit) to 2**63-1", param, ctx)
        return n


#: ``--node-limit``: 0 (none) or a state count a compiled kernel can hold
NODE_LIMIT = _NodeLimit()


def jobs_option(name: str = "jobs", default: Optional[int] = None, what: str = ""):
    """``-j/--jobs N`` (``--workers N`` the same): the worker processes of a batch command,
    one name on every command; ``name`` is the command function's parameter."""
    default_text = "all cores" if default is None else str(default)
    return click.option("--jobs", "-j", "--workers", name, type=int, default=default, metavar="N",
                        help=f"Worker processes{what} (default: {default_text}).")


def check_workers(n: Optional[int], option: str) -> None:
    """Worker processes: at least 1, and not so many that the machine drowns in them."""
    from ..stats.pool import MAX_WORKERS

    if n is not None and not 1 <= n <= MAX_WORKERS:
        raise InputError(f"{option} must be from 1 to {MAX_WORKERS}, not {n}")


def layout_options(f=None, *, stdin: bool = True):
    """``CODE`` argument plus ``--layout``, ``--pysol`` and ``--rules``; ``stdin=False`` for a
    command that reads its own input from stdin (``play``), whose ``--layout`` cannot be ``-``."""
    def add(f):
        f = rules_option(f)
        f = click.option("--pysol", type=int, default=None, metavar="N", help="PySol FC's Golf deal number N.")(f)
        f = click.option("--layout", "layout_file", default=None, metavar="FILE",
                         help="A layout file (golfsolve text or black-hole-solve board)"
                              + ("; - reads stdin." if stdin else "."))(f)
        return click.argument("code", required=False)(f)

    return add if f is None else add(f)


def start_options(f):
    """``--start CODE`` and ``--start-number N``, the first deal of a range (read by
    :func:`~golfsolve.cli.reading.start_deal`)."""
    f = click.option("--start-number", type=int, default=None, metavar="N", help="First deal as a number (default 0).")(f)
    f = click.option("--start", "start_code", default=None, metavar="CODE",
                     help="First deal as a code, e.g. GO1-E-AAAAAAA.")(f)
    return f


class AsciiChoice(click.Choice):
    """click's Choice, any case of the names but ASCII letters only: click matches by
    ``casefold``, which took 'ſtrong' (a long s) for strong and 'eaſy' for easy. Spaces
    around a name are dropped, as ``--rules`` and the numbers drop them: a shell script saved
    with Windows line ends passes 'hard\r'."""

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            value = value.strip()
        if isinstance(value, str) and not value.isascii():
            self.fail(f"{value!r} is not one of {', '.join(repr(c) for c in self.choices)}.", param, ctx)
        return super().convert(value, param, ctx)


class _Seed(click.ParamType):
    """A ``--seed`` option's type: an integer that :func:`check_seed` accepts, checked as it is parsed."""

    name = "integer"

    def convert(self, value, param, ctx):
        n = click.INT.convert(value, param, ctx)
        check_seed(n, param.opts[0] if param is not None else "--seed")
        return n


#: a seed: what numpy and the deal generator take
SEED = _Seed()
