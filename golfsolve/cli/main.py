"""The ``golfsolve`` command: a click group whose commands live one module per topic.

Every command is thin (parse, call the library, print). Errors from bad input become
one line on stderr and exit code 2; click's own usage errors are shortened to one line
too. ``GOLFSOLVE_DEBUG=1`` shows tracebacks for unexpected errors.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

import click

from ..errors import BAD_INPUT


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="golfsolve")
def cli() -> None:
    """Solve and analyse Golf solitaire, and simulate grid Golf with bots."""


def _register() -> None:
    # Imported here so that a broken optional module cannot stop --help from working.
    from . import solitaire as _sol  # noqa: F401

    for mod in ("solve", "stats", "fair", "difficulty", "grid"):
        try:
            __import__(f"{__package__}.{mod}")
        except ModuleNotFoundError as e:
            if e.name != f"{__package__}.{mod}":
                raise


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``golfsolve: message`` on stderr and exit with ``code``."""
    click.echo(f"golfsolve: {message}", err=True)
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI with one-line errors."""
    _register()
    try:
        rv = cli.main(args=argv, prog_name="golfsolve", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("golfsolve: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        msg = " ".join(e.format_message().split())
        ctx = getattr(e, "ctx", None)
        where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        fail(msg + where, e.exit_code)
    except BAD_INPUT as e:
        fail(str(e), 2)
    except KeyboardInterrupt:
        click.echo("golfsolve: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    except Exception as e:  # an internal error: one line unless debugging
        if os.environ.get("GOLFSOLVE_DEBUG"):
            raise
        fail(f"internal error: {type(e).__name__}: {e} (set GOLFSOLVE_DEBUG=1 for details)", 1)
    sys.exit(rv if isinstance(rv, int) else 0)
