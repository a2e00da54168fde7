"""The one base class for bad input, so the CLI can map it to exit code 2.

This module is the bottom of the house: it imports nothing from golfsolve. Every domain
error that means "the user gave us something wrong" (a card, a deal code, a layout, a rule
name, a grid option, an output path) derives from :class:`InputError`.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: the CLI prints its message on one line and exits with code 2."""

    def __init__(self, *args: object) -> None:
        # A value quoted in the message may print on several lines (a pandas Series, a NumPy
        # array of rows, text holding a newline): the message stays one line for the library
        # caller too, whose log or notebook shows str(error).
        super().__init__(*(one_line(a) if isinstance(a, str) else a for a in args))


#: Kept for callers that catch a tuple; every bad-input error is an :class:`InputError`.
BAD_INPUT = (InputError,)


def install_extra(extra: str) -> str:
    """The command that installs golfsolve's optional ``extra``, for a message: it works for an
    install from a wheel and from a checkout alike (pip reads the extra's packages from the
    installed golfsolve), where ``pip install -e '.[extra]'`` needs the checkout as the
    current folder."""
    return f"pip install 'golfsolve[{extra}]'"


def need_package(name: str, why: str) -> None:
    """Raise :class:`ModuleNotFoundError` naming ``name``, a package golfsolve depends on, when
    it cannot be found, so a command stops before it writes anything rather than at the first
    use (a report's folder made, then left empty when its first plot found no matplotlib).
    ``why`` says what it is needed for. The CLI says so in one line (exit 1)."""
    import importlib.util

    try:
        found = importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a parent package missing, or a module without a spec
        found = False
    if not found:
        raise ModuleNotFoundError(f"No module named {name!r}, needed {why}", name=name)


#: The most samples, games, iterations or simulations one option may ask for. Far above any
#: measurement in this project (they use at most a few thousand), and low enough that a
#: typo cannot fill the memory with sampled orders or overflow a compiled kernel's
#: 64-bit integers.
MAX_EFFORT = 1_000_000

#: The largest value a state or node limit may take: a compiled kernel's signed 64-bit integer.
MAX_INT64 = 2**63 - 1


def interrupted(e: BaseException) -> bool:
    """Is ``e`` an interruption: a KeyboardInterrupt (Ctrl-C, or SIGTERM turned into one),
    or an error a KeyboardInterrupt caused? A signal that arrives while a compiled numba
    kernel runs surfaces as ``SystemError: ... returned a result with an exception set``
    with the KeyboardInterrupt as its cause."""
    seen = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, KeyboardInterrupt):
            return True
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return False


def check_count(value: int, what: str, low: int = 1, high: int = MAX_EFFORT) -> int:
    """``value`` if ``low <= value <= high``, else an :class:`InputError` naming ``what``."""
    if not low <= value <= high:
        raise InputError(f"{what} must be from {low:,} to {high:,}, not {shown_int(value)}")
    return value


def shown_int(value: int) -> str:
    """``value`` with thousands separators, or its sign and length when it is too long to
    show (Python refuses to write an int of more than 4,300 digits, and a message of
    thousands of digits is no message)."""
    if abs(value) < 10**40:
        return f"{value:,}"
    v = abs(value)
    digits = int((v.bit_length() - 1) * 0.30102999566398) + 1  # at most one short
    digits += v >= 10**digits
    return f"a {'negative ' if value < 0 else ''}number of {digits:,} digits"


#: The most digits a number typed or sent to golfsolve may have: more than any count, seed
#: or deal number it takes (2**64 has 20), far below the 4,300 Python's ``int()`` refuses.
MAX_DIGITS = 40


def one_line(text: str) -> str:
    """``text`` with each line break (and the spaces round it) made one space."""
    if "\n" not in text and "\r" not in text:
        return text
    return " ".join(part for part in (line.strip() for line in text.splitlines()) if part)


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` on one line, cut to about ``limit`` characters: any value a caller
    passed, quoted in a message (a pandas Series' repr has a line per row)."""
    text = one_line(repr(value))
    return text if len(text) <= limit else text[:limit] + "..."


def clip(text: str, limit: int = 40) -> str:
    """``repr(text)``, cut to about ``limit`` characters: user input quoted in a one-line
    message stays readable however long it was."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text):,} characters)"


def clip_path(path: object, limit: int = 80) -> str:
    """A path quoted in a one-line message, its start cut to about ``limit`` characters when
    long: the end (the file's own name) is what tells one file from another."""
    text = str(path)
    if len(text) <= limit:
        return repr(text)
    return f"...{text[-limit:]!r} ({len(text):,} characters)"
