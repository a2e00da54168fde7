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


def clip(text: str, limit: int = 40) -> str:
    """``repr(text)``, cut to about ``limit`` characters: user input quoted in a one-line
    message stays readable however long it was."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text):,} characters)"
