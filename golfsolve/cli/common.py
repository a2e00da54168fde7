"""Options and helpers shared by the solitaire commands."""

from __future__ import annotations

import json
from typing import Optional

import click

from ..solitaire.layout import Layout, load_layout
from ..solitaire.rules import Rules, get_rules


#: ``--rules NAME``, the rule set overriding what the deal's source says
rules_option = click.option(
    "--rules", "rules_spec", default=None, metavar="NAME",
    help="easy, classic, strict, dead-king (or wrap/queen-on-king/no-card-on-king), "
         "plus switches like +jokers2, +empty, +stuck. Default: the code's letter, else easy.")


def layout_options(f):
    """``CODE`` argument plus ``--layout``, ``--pysol`` and ``--rules``."""
    f = rules_option(f)
    f = click.option("--pysol", type=int, default=None, metavar="N", help="PySol FC's Golf deal number N.")(f)
    f = click.option("--layout", "layout_file", default=None, metavar="FILE",
                     help="A layout file (golfsolve text or black-hole-solve board); - reads stdin.")(f)
    f = click.argument("code", required=False)(f)
    return f


def get_layout(code: Optional[str], layout_file: Optional[str], pysol: Optional[int],
               rules_spec: Optional[str]) -> Layout:
    rules: Optional[Rules] = get_rules(rules_spec) if rules_spec else None
    return load_layout(code, layout_file, pysol, rules)


def echo_json(obj) -> None:
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False))
