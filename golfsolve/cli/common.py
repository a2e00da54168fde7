"""Options and helpers shared by the commands."""

from __future__ import annotations

import json
import math
import os
import re
import shlex
import textwrap
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, NoReturn, Optional, TypeVar

import click

from ..errors import MAX_EFFORT, MAX_INT64, InputError, interrupted
from ..inputs import check_path_text, check_seed
from ..text import plural  # noqa: F401 - shared by the command modules

if TYPE_CHECKING:  # imported when used: 'golfsolve solve --help' must not load the solver (numba)
    from ..solitaire.layout import Layout
    from ..solitaire.rules import Rules

T = TypeVar("T")


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


def check_input_file(path: Optional[str], option: str) -> None:
    """A file to read must be a regular file (or ``-``, stdin), or a pipe this process holds
    open (``<(command)``): a named FIFO with no writer, a directory or a device would hang or
    fail half-way, so it is refused before reading."""
    import stat

    if path is None or path == "-":
        return
    check_path_text(path, option)
    try:
        st = os.stat(path)
    except OSError:
        return  # a missing file: the reader says so in its own words
    mode = st.st_mode
    if stat.S_ISFIFO(mode) and _held_open(st):
        # a pipe this process holds already (the shell's '<(command)', /dev/stdin from a pipe)
        # has its writer, or its writer has been and gone: it is read, never waited on
        return
    if not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "not a regular file"
        raise InputError(f"{option} {path} is {kind}; give a regular file, or - for stdin")


def _held_open(st: os.stat_result) -> bool:
    """Is the file ``st`` describes open in this process already (``/dev/fd/63``, what a
    shell's process substitution passes)? A named FIFO no one has opened is not."""
    try:
        fds = os.listdir("/dev/fd")
    except OSError:  # no /dev/fd: no way to tell, so the FIFO stays refused
        return False
    for name in fds:
        try:
            held = os.fstat(int(name))
        except (OSError, ValueError):  # the listing's own descriptor, closed by now
            continue
        if (held.st_dev, held.st_ino) == (st.st_dev, st.st_ino):
            return True
    return False


#: The longest line ``play`` and ``grid play`` take as one answer: far above anything typed
#: or scripted, and low enough that a stdin with no line breaks (/dev/zero) cannot fill the memory.
MAX_ANSWER_LINE = 64 * 1024


def read_answer() -> str:
    """One line of stdin ('' at its end), read in a bounded piece: :class:`InputError` when
    it is longer than :data:`MAX_ANSWER_LINE` characters. Read as bytes and decoded line by
    line where stdin has a byte buffer, so that bytes that are not UTF-8 fail on their own
    line (:class:`UnicodeDecodeError`), not on the lines before them that were read in the
    same block."""
    buffer = getattr(sys.stdin, "buffer", None)  # the one stdin object (CliRunner swaps it in tests)
    if buffer is None:
        line = sys.stdin.readline(MAX_ANSWER_LINE + 1)
    else:
        raw = buffer.readline(4 * MAX_ANSWER_LINE + 1)  # UTF-8 takes at most 4 bytes a character
        if len(raw) > 4 * MAX_ANSWER_LINE and not raw.endswith(b"\n"):
            raw += b"x"  # longer than any line allowed, whatever it decodes to
        line = raw.decode("utf-8")
        if line.endswith("\r\n"):  # as text mode reads it
            line = line[:-2] + "\n"
    if len(line) > MAX_ANSWER_LINE and not (len(line) == MAX_ANSWER_LINE + 1 and line.endswith("\n")):
        raise InputError(f"a line of the input is longer than {MAX_ANSWER_LINE:,} characters; give one answer "
                         "per line")
    # a byte-order mark (what a Windows editor puts first in a file of moves) is no answer, as in a
    # layout file or --codes-from, not a "bad move '\ufeff'"
    return line.lstrip("\ufeff")


def shown_answer(line: str) -> str:
    """A piped answer as the transcript shows it: its characters that print as they are, the
    rest (an escape sequence, a carriage return, a NUL) written as Python escapes. Echoed raw,
    a file of moves holding ``ESC ]0;...`` renamed the terminal's window and ``ESC [2J``
    cleared the screen while the game went on."""
    return "".join(ch if ch.isprintable() or ch == "\t" else repr(ch)[1:-1] for ch in line.rstrip("\n"))


def check_waiting_stdin() -> None:
    """Check the bytes already waiting on a piped or redirected stdin as UTF-8, now: a
    command that compiles or computes before it reads its first line (``grid play``) then
    refuses bad bytes at once instead of after the work. Nothing is consumed, and a terminal
    or a pipe with nothing in it yet is left alone: the game never waits for input here.
    Raises :class:`UnicodeDecodeError` (the entry point's one-line "not UTF-8" error)."""
    import codecs
    import select

    buffer = getattr(sys.stdin, "buffer", None)
    try:
        if buffer is None or not hasattr(buffer, "peek") or sys.stdin.isatty():
            return
        if not select.select([sys.stdin.fileno()], [], [], 0)[0]:
            return
        waiting = buffer.peek(1 << 16)  # at most one read, of what is there; the reader still gets it all
    except (OSError, ValueError):  # no file descriptor (an embedding caller's stream)
        return
    codecs.getincrementaldecoder("utf-8")().decode(waiting, final=False)  # a character cut in two is fine


def get_layout(code: Optional[str], layout_file: Optional[str], pysol: Optional[int],
               rules_spec: Optional[str]) -> Layout:
    """The one deal a command names (a code, a layout file or a PySol number), checked."""
    check_input_file(layout_file, "--layout")
    from ..solitaire.layout import load_layout
    from ..solitaire.rules import get_rules

    rules: Optional[Rules] = get_rules(rules_spec) if rules_spec is not None else None
    return load_layout(code, layout_file, pysol, rules)


def start_options(f):
    """``--start CODE`` and ``--start-number N``, the first deal of a range (read by :func:`start_deal`)."""
    f = click.option("--start-number", type=int, default=None, metavar="N", help="First deal as a number (default 0).")(f)
    f = click.option("--start", "start_code", default=None, metavar="CODE",
                     help="First deal as a code, e.g. GO1-E-AAAAAAA.")(f)
    return f


def start_deal(start_code: Optional[str], start_number: Optional[int]) -> Optional[int]:
    """The first deal's number from ``--start CODE`` or ``--start-number N`` (at most one of them)."""
    from ..solitaire.dealcode import parse_code

    if start_code is not None and start_number is not None:
        raise InputError("give --start CODE or --start-number N, not both")
    if start_code is not None:
        return parse_code(start_code).number
    return start_number


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


def _raise_interrupt(signum, frame):  # noqa: ARG001 - signal handler signature
    raise KeyboardInterrupt


#: The signals that stop a command as Ctrl-C does (one line "interrupted", exit 130, a run's
#: finished chunks kept and its invocation recorded): ``kill`` and a batch system's SIGTERM,
#: and the SIGHUP of a closed terminal or a dropped ssh session, which killed a run outright
#: (exit 129, no line, its invocation never recorded) and every other command silently.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def stop_signals_interrupt() -> dict:
    """Make :data:`STOP_SIGNALS` raise KeyboardInterrupt; returns the handlers they had, for
    :func:`restore_handlers`. A signal left ignored (``nohup`` ignores SIGHUP) stays ignored."""
    old = {}
    for s in STOP_SIGNALS:
        try:
            if signal.getsignal(s) is signal.SIG_IGN:
                continue
            old[s] = signal.signal(s, _raise_interrupt)
        except ValueError:  # not the main thread (an embedding caller's worker thread): left as it is
            pass
    return old


def restore_handlers(old: dict) -> None:
    """Give each signal of ``old`` (what :func:`stop_signals_interrupt` returned) its handler back."""
    for s, h in old.items():
        signal.signal(s, h)


#: KeyboardInterrupts that Python could only drop: raised by Ctrl-C or SIGTERM while a C
#: library ran a Python callback (numba's compiler does, as it caches each kernel). The
#: compile then fails with an error of its own, which is the interruption's doing.
_dropped_interrupts: list[KeyboardInterrupt] = []


def install_interrupt_hook() -> None:
    """Keep a dropped KeyboardInterrupt off stderr (Python prints a traceback for it) and
    remember it, so that the error it causes is reported as the interruption it is."""
    previous = sys.unraisablehook

    def hook(unraisable) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            _dropped_interrupts.append(unraisable.exc_value)
            return
        previous(unraisable)

    sys.unraisablehook = hook


def was_interrupted(e: BaseException) -> bool:
    """Did ``e`` come from an interruption: :func:`~golfsolve.errors.interrupted`, or any
    error after an interruption that Python dropped (see :func:`install_interrupt_hook`)."""
    return interrupted(e) or bool(_dropped_interrupts)


def run_long(job: Callable[[], T], out: Path) -> T:
    """Run ``job``, a batch run writing into the run folder ``out``.

    SIGTERM (kill, a batch system) and SIGHUP (the terminal closed) stop it as cleanly as
    Ctrl-C does; either way the finished chunks stay, and one line says how many and how to
    finish (exit 130). The machine failing it (a full disk, a folder made read-only) says
    the same with the cause (exit 1).
    """
    from ..stats.pool import WorkerLost

    old = stop_signals_interrupt()
    try:
        return job()
    except (KeyboardInterrupt, Exception) as e:
        interrupted = was_interrupted(e)
        lost = not interrupted and isinstance(e, WorkerLost)
        machine = not (interrupted or lost) and isinstance(e, OSError) and not isinstance(e, BrokenPipeError)
        if not (interrupted or lost or machine):
            raise
        if os.environ.get("GOLFSOLVE_DEBUG") and machine:
            raise
        if machine:
            what, code = f"cannot go on: {e.strerror or e}" + (f" writing {e.filename}" if e.filename else ""), 1
        else:
            what, code = (e.what, e.exit_code) if lost else ("interrupted", 130)
        saved = _saved(out)
        if saved is None:
            fail(f"{what} before the run started; nothing was written", code)
        fail(f"{what}: {saved}; {_fix_first(e) if machine else ''}run the same command with --resume to finish", code)
    finally:
        restore_handlers(old)


def _saved(out: Path) -> Optional[str]:
    """How many chunks of the run in ``out`` are saved, as the last line says it (None when
    no run is there yet)."""
    from ..stats.runfolder import RunFolder, manifest_path, read_manifest, status

    try:
        if manifest_path(out) is None:  # stopped before the run folder was made (reaching a Dask scheduler)
            return None
        st = status(RunFolder(out, read_manifest(out)))
    except (OSError, InputError):  # the folder unreadable now: what stopped the run is the news, not this
        return f"the finished chunks are kept in {out}"
    return f"{st['chunks_done']:,} of {plural(st['chunks_total'], 'chunk')} are saved in {out}"


def _fix_first(e: OSError) -> str:
    """What to set right before ``--resume``, for the errors a machine gives a long run."""
    import errno

    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return "free some space, then "
    if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "make the folder writable, then "
    return ""


def check_workers(n: Optional[int], option: str) -> None:
    """Worker processes: at least 1, and not so many that the machine drowns in them."""
    from ..stats.pool import MAX_WORKERS

    if n is not None and not 1 <= n <= MAX_WORKERS:
        raise InputError(f"{option} must be from 1 to {MAX_WORKERS}, not {n}")


def check_run_dir(path: str, what: str) -> None:
    """A run folder to read must have a name ('' would mean the current directory), exist
    and be a folder."""
    from ..stats.outdirs import check_path

    if not path.strip():
        raise InputError(f"{what} needs a run folder's name, not {path!r}")
    check_path(path, what)
    if not os.path.exists(path):  # a missing folder is named so, not as a folder holding "no golfsolve stats run (no
        # _manifest.json)" or "no results directory"
        raise InputError(f"{what} {path!r}: no such folder; check its name")
    if not os.path.isdir(path):
        raise InputError(f"{what} {path} is a file, not a run folder")


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


# ---------------------------------------------------------------------------
# parsing: every option once, numbers in ASCII digits, the command line recorded as parsed
# ---------------------------------------------------------------------------
_ASCII_INT = re.compile(r"[+-]?[0-9]+\Z")
#: a decimal number as a user types it; inf and nan are left to the option's own range check
_ASCII_FLOAT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\Z|[+-]?(inf|infinity|nan)\Z",
                          re.IGNORECASE)


def _is_int_type(t: click.ParamType) -> bool:
    return isinstance(t, click.types.IntParamType) or getattr(t, "name", "") == "integer"


def _is_float_type(t: click.ParamType) -> bool:
    return isinstance(t, click.types.FloatParamType)


class Command(click.Command):
    """A click command that refuses what click lets through silently: a single-valued option
    given twice (click keeps the last; ``--layout A --layout B``), a number (whole or
    decimal) written with other than ASCII digits (Python's ``int`` and ``float`` read ``٣``
    as 3 and ``1_0`` as 10), and an
    input ``FILE`` that is not a regular file (a FIFO with no writer would hang)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing:
            parser = self.make_parser(ctx)
            try:
                opts, _, order = parser.parse_args(args=list(args))
            except click.UsageError:
                opts, order = {}, []  # click's own parse below says what is wrong
            seen: set[str] = set()
            for param in order:
                if not isinstance(param, click.Option) or param.multiple or param.count or param.is_flag:
                    continue
                if param.name in seen:
                    raise click.UsageError(f"{_opt(param)} is given more than once; give it once", ctx)
                seen.add(param.name)
            for param in self.params:
                raw = opts.get(param.name)
                if raw is None:
                    continue
                for v in raw if isinstance(raw, (list, tuple)) else [raw]:
                    if _is_int_type(param.type) and isinstance(v, str) and not _ASCII_INT.match(v.strip()):
                        raise click.BadParameter(f"{v!r} is not a whole number in digits 0-9", ctx, param)
                    if _is_float_type(param.type) and isinstance(v, str) and not _ASCII_FLOAT.match(v.strip()):
                        # float() reads other digits: 'serve --cpu-budget ٣' would serve with a 3 s budget
                        raise click.BadParameter(f"{v!r} is not a number in digits 0-9", ctx, param)
                    if getattr(param, "metavar", None) == "FILE" and isinstance(v, str):
                        # before click opens it: a FIFO without a writer would block for ever
                        check_input_file(v, _opt(param))
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as e:
            moves = next((p for p in self.params if p.name == "moves_text"), None)
            if moves is None or "unexpected extra argument" not in e.message:
                raise
            # replay takes its moves as words, hint and odds take them in --moves: 'hint CODE d 5'
            # was "Got unexpected extra arguments (d 5)", naming no way to give them
            e.message += f"; give the moves played as {_opt(moves)}, e.g. {_opt(moves)} \"d 5 2\""
            raise


class Group(click.Group):
    """A click group whose commands are :class:`Command` (and whose subgroups are groups of it)."""

    command_class = Command


Group.group_class = Group


def _opt(param: click.Parameter) -> str:
    longs = [o for o in param.opts if o.startswith("--")]
    return (longs or param.opts)[0]


def command_line(ctx: click.Context, **resolved) -> str:
    """The command as click parsed it, for a run's manifest: every option given (on the
    command line or from the environment) and every option in ``resolved`` (what the run
    resolved it to: a resumed run records all its parameters, so its command stands alone).

    ``resolved`` maps click parameter names to values; None or False leaves an option out.
    """
    names = []
    c: Optional[click.Context] = ctx
    while c is not None:
        names.append(c.info_name or "")
        c = c.parent
    argv = ["golfsolve"] + names[::-1][1:]
    given = (click.core.ParameterSource.COMMANDLINE, click.core.ParameterSource.ENVIRONMENT)
    for param in ctx.command.params:
        name = param.name or ""
        if name in resolved:
            value = resolved[name]
        elif ctx.get_parameter_source(name) in given:
            value = ctx.params.get(name)
        else:
            continue
        if value is None or value is False or value == ():
            continue
        if isinstance(param, click.Argument):
            argv += [str(v) for v in (value if isinstance(value, (list, tuple)) else [value])]
        elif isinstance(param, click.Option) and param.is_flag:
            argv.append(_opt(param))
        else:
            for v in value if isinstance(value, (list, tuple)) else [value]:
                argv += [_opt(param), getattr(v, "name", None) or str(v)]
    return shlex.join(argv)
