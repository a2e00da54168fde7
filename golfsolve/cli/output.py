"""How a command writes its answer and how it fails: one JSON document (or one JSON list,
printed as it grows) on stdout that any parser reads, and one ``golfsolve: ...`` line on
stderr with the exit code, even when stderr itself cannot be written.
"""

from __future__ import annotations

import json
import math
import os
import sys
import textwrap
from typing import Iterable, NoReturn

import click


def _finite(x):
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def json_text(obj) -> str:
    """``obj`` as indented JSON (non-ASCII cards kept as they are). A value that is not a
    finite number (an interval from one match) is null: strict JSON, which every parser
    reads (``NaN`` is not JSON)."""
    return json.dumps(_finite(obj), indent=2, ensure_ascii=False, allow_nan=False)


def echo_json(obj) -> None:
    """Print the answer ``obj`` as :func:`json_text` on stdout, stamped with the version and
    rules that made it (:func:`~golfsolve.stats.runkind.stamped`)."""
    from ..stats.runkind import stamped

    click.echo(json_text(stamped(obj)))


def echo_json_items(items: Iterable) -> None:
    """Print the JSON list of ``items`` on stdout exactly as :func:`echo_json` prints the
    whole list, each item as soon as it is made: a long list shows its answers as they come,
    not all at the end (nor none, when it is stopped). Stopped (Ctrl-C, or an error while
    making an item), the list is closed after the items made: what was printed is still one
    JSON list a script can read, and the exit code and stderr say it was stopped."""
    from ..stats.runkind import stamped

    first = True
    try:
        for item in items:
            click.echo(("[\n" if first else ",\n") + textwrap.indent(json_text(stamped(item)), "  "), nl=False)
            first = False
    except BaseException:
        try:
            click.echo("[]" if first else "\n]")
        except OSError:  # a reader gone: the first error is the one to report
            pass
        raise
    click.echo("[]" if first else "\n]")


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``golfsolve: message`` on stderr and exit with ``code``; a stderr that cannot
    be written (a full disk, a reader gone) loses the message, not the exit code."""
    try:
        click.echo(f"golfsolve: {message}", err=True)
    except OSError:
        _drop_stderr()
    sys.exit(code)


def _drop_stderr() -> None:
    # what stderr still holds would fail again at exit, which Python reports on that same stderr
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stderr.fileno())
    except (OSError, ValueError, AttributeError):
        pass
