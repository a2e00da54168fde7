"""Solitaire commands that need no solver: deal, replay, play."""

from __future__ import annotations

import click

from .common import echo_json, get_layout, layout_options
from .main import cli


@cli.command()
@layout_options
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--text", "as_text", is_flag=True, help="The layout in golfsolve's layout-file format.")
def deal(code, layout_file, pysol, rules_spec, as_json, as_text):
    """Show the layout of a deal code, a layout file or a PySol deal.

    Example: golfsolve deal GO1-E-AAAAAAB
    """
    lay = get_layout(code, layout_file, pysol, rules_spec)
    if as_json:
        echo_json(lay.to_json())
    elif as_text:
        click.echo(lay.to_text(), nl=False)
    else:
        title = lay.name or "layout"
        click.echo(f"{title}  ({lay.rules.describe()})")
        click.echo(lay.render(symbols=True))
