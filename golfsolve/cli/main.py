"""The ``golfsolve`` command: a click group whose commands live one module per topic.

Every command is thin (parse, call the library, print). Errors from bad input become
one line on stderr and exit code 2; click's own usage errors are shortened to one line
too. ``GOLFSOLVE_DEBUG=1`` shows tracebacks for unexpected errors.
"""

from __future__ import annotations

import codecs
import errno
import os
import sys
from typing import NoReturn, Optional

import click

from .. import __version__
from ..errors import InputError
from .interrupts import install_interrupt_hook, settle_dropped_interrupts, stop_signals_interrupt, was_interrupted
from .output import fail
from .lazy import LazyCommand, LazyGroup
from .startup import install_compile_notice, skip_blas_check

#: Every command: its name, where it lives and its one-line help (shown by 'golfsolve --help'
#: without importing the command). To add a command, add one line here.
COMMANDS: dict[str, LazyCommand] = {
    "deal": LazyCommand("golfsolve.cli.solitaire:deal", "Show the layout of a deal code, a layout file or a PySol deal."),
    "replay": LazyCommand("golfsolve.cli.solitaire:replay", "Play a move list and show every step."),
    "play": LazyCommand("golfsolve.cli.solitaire:play",
                        "Play a deal in the terminal (commands are read from stdin, so a pipe works too)."),
    "solve": LazyCommand("golfsolve.cli.solve:solve",
                         "Is the deal winnable, and how? Exact: a win with its moves, or the fewest cards left."),
    "hint": LazyCommand("golfsolve.cli.solve:hint", "The best next move from a position, and why."),
    "stats": LazyCommand("golfsolve.cli.stats:stats",
                         "Solve every deal of a range (or every K-th deal) under several rule sets; write Parquet "
                         "chunks to DIR."),
    "report": LazyCommand("golfsolve.cli.stats:report",
                          "Markdown and self-contained HTML report, with plots, of a 'golfsolve stats' run."),
    "odds": LazyCommand("golfsolve.cli.fair:odds",
                        "Win chances without seeing the stock: fair and clairvoyant, each with a 95% interval."),
    "fair-stats": LazyCommand("golfsolve.cli.fair:fair_stats",
                              "The fair player's win rate against the clairvoyant rate over a deal range."),
    "rate": LazyCommand("golfsolve.cli.difficulty:rate",
                        "Difficulty of deals: exact winnability, the fair chance and a label."),
    "pick": LazyCommand("golfsolve.cli.difficulty:pick",
                        "Deal codes of a chosen difficulty, scanning forward from a start deal."),
    "grid": LazyCommand("golfsolve.cli.grid:grid",
                        "Grid Golf (2-6 players): simulate bots, study the table options, report, or play against bots."),
    "serve": LazyCommand("golfsolve.cli.serve:serve",
                         "Answer deal, solve, hint, odds and rate over HTTP, and serve a page to play a deal."),
}


class _Interrupted(Exception):
    """A Ctrl-C (or SIGTERM) that left a command: reported by :func:`_run` as one line."""


class _RootGroup(LazyGroup):
    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as e:
            # click answers a KeyboardInterrupt with a bare newline on stderr before its Abort;
            # the contract is the one line "golfsolve: interrupted" (see _run)
            raise _Interrupted() from e


@click.group(cls=_RootGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="golfsolve")
def cli() -> None:
    """Solve and analyse Golf solitaire, and simulate grid Golf with bots.

    Examples: golfsolve deal GO1-E-AAAAAAB; golfsolve solve GO1-E-AAAAAAB;
    golfsolve hint GO1-E-AAAAAAB --moves d --all. 'golfsolve COMMAND --help' explains
    a command and its options.
    """


def _missing_package(e: BaseException) -> Optional[str]:
    """The package, not golfsolve's own, whose import raised ``e``; None for any other error."""
    name = getattr(e, "name", None) if isinstance(e, ImportError) else None
    top = name.split(".")[0] if isinstance(name, str) and name else None
    return None if top is None or top == "golfsolve" else top


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


def _write_only(stream) -> bool:
    """Is ``stream`` a file descriptor open for writing only? ``nohup`` hands a command such a
    stdin in place of a terminal ("ignoring input"): reading it failed as "cannot go on: Bad
    file descriptor", exit 1, in ``play`` and ``grid play``, where an input that gives nothing is
    an input that ended."""
    try:
        import fcntl

        return fcntl.fcntl(stream.fileno(), fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY
    except (ImportError, OSError, ValueError, AttributeError):  # no fcntl (Windows), no descriptor
        return False


def _standard_streams() -> None:
    """A closed stdin (or one open for writing only) reads as empty input; a closed stdout is
    refused before any work; a closed stderr writes to /dev/null;
    output a terminal's encoding cannot show gets letters for the suits, not an error;
    stdin is read as UTF-8 whatever the locale, and bytes that are not UTF-8 are an error
    (under the C locale Python would otherwise let them through as surrogates)."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and hasattr(stream, "reconfigure") and (stream.errors or "strict") == "strict":
            stream.reconfigure(errors="golfsolve-suits")
    if sys.stderr is None:  # started with '2>&-' (a cron job, a daemon): the messages are lost, not the work
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # else the progress bar's first write is an internal error
    if sys.stdin is None or _write_only(sys.stdin):  # started with '<&-', or under nohup ("ignoring input")
        sys.stdin = open(os.devnull, encoding="utf-8")
    elif hasattr(sys.stdin, "reconfigure"):
        try:
            sys.stdin.reconfigure(encoding="utf-8", errors="strict")
        except (ValueError, OSError):  # already read from (an embedding caller): leave it as it is
            pass
    if sys.stdout is None:  # started with '>&-': every answer would be lost
        fail("standard output is closed; send it to a file or a pipe (or /dev/null)", 2)


#: The exit code when the reader of standard output goes away (``golfsolve ... | head -1``):
#: the reader has what it wanted, so every command ends quietly and successfully.
CLOSED_PIPE_EXIT = 0


def _drop_stdout() -> None:
    # Nothing more can be written to stdout; point it at /dev/null so that the flush at
    # exit does not fail a second time (which would turn the exit code into 120).
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _closed_pipe() -> "NoReturn":
    _drop_stdout()
    sys.exit(CLOSED_PIPE_EXIT)


#: The standard streams (0, 1, 2) that were a terminal as the command started.
_terminals: list[int] = []


def _terminal_closed(e: OSError) -> bool:
    """Did ``e`` come from the command's terminal going away (its window closed, its ssh
    session dropped)? Reading or writing a terminal that hung up fails with EIO, and it is a
    terminal no more. Asked of an OSError as the command ends: such a stop is the closed
    terminal's, exit 130 as its SIGHUP gives, not "cannot go on: Input/output error" and exit 1
    (what ``play`` and ``grid play``, waiting on the terminal for an answer, ended with)."""
    if e.errno != errno.EIO or not _terminals:
        return False
    try:
        return any(not os.isatty(fd) for fd in _terminals)
    except OSError:
        return True


def _record_terminals() -> None:
    _terminals[:] = [fd for fd in (0, 1, 2) if os.isatty(fd)]


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI with one-line errors."""
    _standard_streams()
    if argv is None:  # the golfsolve process itself; a caller's own process is left as it is
        skip_blas_check()
        install_compile_notice()
        install_interrupt_hook()
        stop_signals_interrupt()  # kill and a closed terminal stop every command as Ctrl-C does
        _record_terminals()
    try:
        rv = _run(argv)
        if settle_dropped_interrupts():  # Ctrl-C came, Python dropped it, and the command ended first
            fail("interrupted", 130)  # fail: a stderr that cannot be written (a closed terminal) still exits 130
        sys.stdout.flush()  # a closed pipe shows here when the output was small
    except BrokenPipeError:
        _closed_pipe()
    except SystemExit:
        # click turns a closed pipe into exit code 1 after wrapping stdout; make it ours. By the
        # wrapper's name: click 8.2 deprecates the public class and 8.5 names it _PacifyFlushWrapper
        if "PacifyFlushWrapper" in type(sys.stdout).__name__:
            _closed_pipe()
        raise
    sys.exit(rv if isinstance(rv, int) else 0)


def _run(argv: list[str] | None):
    try:
        return cli.main(args=argv, prog_name="golfsolve", standalone_mode=False)
    except click.exceptions.Abort:
        settle_dropped_interrupts()
        fail("interrupted", 130)
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
        settle_dropped_interrupts()  # a dropped one's delivery would add a second line
        fail("interrupted", 130)
    except BrokenPipeError:
        _closed_pipe()
    except OSError as e:
        if _terminal_closed(e):
            _drop_stdout()
            fail("interrupted", 130)
        # the machine's fault, not ours and not the input's: a full disk, an I/O error
        if os.environ.get("GOLFSOLVE_DEBUG"):
            raise
        sys.stdout = open(os.devnull, "w")  # nothing more to write where the writing failed
        fail(f"cannot go on: {e.strerror or e}" + (f" ({e.filename})" if e.filename else ""), 1)
    except Exception as e:  # an internal error: one line unless debugging
        # Ctrl-C or SIGTERM inside a numba kernel (a SystemError caused by KeyboardInterrupt), or
        # while numba compiled (the interrupt dropped, the compile failing for it)
        if was_interrupted(e):
            fail("interrupted", 130)
        if os.environ.get("GOLFSOLVE_DEBUG"):
            raise
        missing = _missing_package(e)
        if missing is not None:
            # the install's fault, not golfsolve's nor the input's: say what to install
            fail(f"cannot go on: the package {missing} that golfsolve needs is not installed (or does not load): "
                 f"pip install {missing}, or install golfsolve again ({e})", 1)
        engine = sys.modules.get("golfsolve.grid.engine")  # only a game played can have raised one
        if engine is not None and isinstance(e, engine.BotError):
            # a bot's failure (a bot of one's own, registered with register_bot), not golfsolve's
            fail(f"{_one_line(str(e))} (set GOLFSOLVE_DEBUG=1 for the bot's traceback)", 1)
        fail(f"internal error: {type(e).__name__}: {e} (set GOLFSOLVE_DEBUG=1 for details)", 1)
