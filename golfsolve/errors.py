"""The one base class for bad input, so the CLI can map it to exit code 2.

This module is the bottom of the house: it imports nothing from golfsolve. Every domain
error that means "the user gave us something wrong" (a card, a deal code, a layout, a rule
name, a grid option, an output path) derives from :class:`InputError`.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: the CLI prints its message on one line and exits with code 2."""


#: Kept for callers that catch a tuple; every bad-input error is an :class:`InputError`.
BAD_INPUT = (InputError,)


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
        raise InputError(f"{what} must be from {low:,} to {high:,}, not {value:,}")
    return value


def clip(text: str, limit: int = 40) -> str:
    """``repr(text)``, cut to about ``limit`` characters: user input quoted in a one-line
    message stays readable however long it was."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text):,} characters)"
