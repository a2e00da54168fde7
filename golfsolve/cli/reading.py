"""How a command reads what the user gives it: the deal (a code, a layout file, a PySol
number, the first deal of a range) and the answers of a game played on stdin. Every input
is checked before any work starts, and a file or a stdin that could hang the command (a
FIFO with no writer, a line with no end) or fill the memory is refused, not waited on.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Optional

import click

from ..errors import InputError
from ..inputs import check_path_text

if TYPE_CHECKING:  # imported when used: 'golfsolve solve --help' must not load the solver (numba)
    from ..solitaire.layout import Layout
    from ..solitaire.rules import Rules


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


def echo_answer(line: str) -> None:
    """Show an answer just read (a line :func:`read_answer` gave, not its end) in the game's
    transcript. A piped answer is not echoed by a terminal: it is shown after its prompt, as
    :func:`shown_answer` writes it. One typed at a terminal is on the screen already, but
    ended with Ctrl-D instead of Enter it left the cursor after it, and the next board or
    narration began on the prompt's line ("> d       1     2 ..."): that line is ended."""
    if not sys.stdin.isatty():
        click.echo(shown_answer(line))
    elif not line.endswith("\n"):
        click.echo("")


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


def start_deal(start_code: Optional[str], start_number: Optional[int]) -> Optional[int]:
    """The first deal's number from ``--start CODE`` or ``--start-number N`` (at most one of them)."""
    from ..solitaire.dealcode import parse_code

    if start_code is not None and start_number is not None:
        raise InputError("give --start CODE or --start-number N, not both")
    if start_code is not None:
        return parse_code(start_code).number
    return start_number
