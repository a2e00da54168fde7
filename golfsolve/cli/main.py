"""The ``golfsolve`` command: a click group whose commands live one module per topic.

Every command is thin (parse, call the library, print). Errors from bad input become
one line on stderr and exit code 2; click's own usage errors are shortened to one line
too. ``GOLFSOLVE_DEBUG=1`` shows tracebacks for unexpected errors.
"""

from __future__ import annotations

import codecs
import os
import sys

import click

from ..errors import InputError
from . import difficulty, fair, grid, serve, solitaire, solve, stats
from .common import fail


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="golfsolve")
def cli() -> None:
    """Solve and analyse Golf solitaire, and simulate grid Golf with bots."""


# The command modules know nothing of this group; it attaches them here, in one place.
for _command in (
    solitaire.deal, solitaire.replay, solitaire.play,
    solve.solve, solve.hint,
    stats.stats, stats.report,
    fair.odds, fair.fair_stats,
    difficulty.rate, difficulty.pick,
    grid.grid,
    serve.serve,
):
    cli.add_command(_command)


def _one_line(message: str, limit: int = 500) -> str:
    # The contract for bad input is one readable line, whatever the input held.
    message = " ".join(message.split())
    return message if len(message) <= limit else message[:limit] + "..."


#: Card symbols in letters, for a terminal whose encoding has no ♠ (latin-1, cp1252): 10♠ reads 10S.
_SUIT_LETTERS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "🃏": "JK"}


def _suit_letters(err: UnicodeError) -> tuple[str, int]:
    if not isinstance(err, UnicodeEncodeError):
        raise err
    bad = err.object[err.start:err.end]
    return "".join(_SUIT_LETTERS.get(ch, "?") for ch in bad), err.end


codecs.register_error("golfsolve-suits", _suit_letters)


def _standard_streams() -> None:
    """A closed stdin reads as empty input; a closed stdout is refused before any work;
    output a terminal's encoding cannot show gets letters for the suits, not an error."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and hasattr(stream, "reconfigure") and (stream.errors or "strict") == "strict":
            stream.reconfigure(errors="golfsolve-suits")
    if sys.stdin is None:  # started with '<&-'
        sys.stdin = open(os.devnull, encoding="utf-8")
    if sys.stdout is None:  # started with '>&-': every answer would be lost
        fail("standard output is closed; send it to a file or a pipe (or /dev/null)", 2)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI with one-line errors."""
    _standard_streams()
    try:
        rv = cli.main(args=argv, prog_name="golfsolve", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("golfsolve: interrupted", err=True)
        sys.exit(130)
    except click.exceptions.NoArgsIsHelpError as e:
        # a bare 'golfsolve' or 'golfsolve grid' asks for the help: the whole page, as --help prints it
        click.echo(e.ctx.get_help())
        sys.exit(0)
    except click.ClickException as e:
        msg = " ".join(e.format_message().split())
        ctx = getattr(e, "ctx", None)
        where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        fail(_one_line(msg) + where, e.exit_code)
    except InputError as e:
        fail(_one_line(str(e)), 2)
    except UnicodeDecodeError as e:
        # only what the user typed or piped in is decoded as text; files have their own checks
        fail(f"the input is not UTF-8 text (byte {e.object[e.start:e.start + 1]!r} at position {e.start})", 2)
    except KeyboardInterrupt:
        click.echo("golfsolve: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    except OSError as e:
        # the machine's fault, not ours and not the input's: a full disk, an I/O error
        if os.environ.get("GOLFSOLVE_DEBUG"):
            raise
        sys.stdout = open(os.devnull, "w")  # nothing more to write where the writing failed
        fail(f"cannot go on: {e.strerror or e}" + (f" ({e.filename})" if e.filename else ""), 1)
    except Exception as e:  # an internal error: one line unless debugging
        if os.environ.get("GOLFSOLVE_DEBUG"):
            raise
        fail(f"internal error: {type(e).__name__}: {e} (set GOLFSOLVE_DEBUG=1 for details)", 1)
    sys.exit(rv if isinstance(rv, int) else 0)
