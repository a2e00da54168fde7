"""Checks of what a user writes: a list (``easy,classic``, ``1-10,50``, ``d,5,2``, a tap
``3,5``) and a count given to the library.

Bottom of the house: it imports only :mod:`golfsolve.errors`. Deliberately not part of
``errors.py``, which the solver's compiled kernels depend on (their cache key is a digest
of it), so that the rules of user input can change without recompiling them.
"""

from __future__ import annotations

import operator
import os
from typing import Any, Optional

from .errors import MAX_EFFORT, InputError, check_count, clip, shown

_SEPARATOR_NAMES = {",": "commas", ";": "semicolons"}


def split_items(text: str, what: str, noun: str = "item", seps: str = ",",
                error: type[InputError] = InputError) -> list[str]:
    """The items of a list such as ``"easy,classic"``, each stripped of spaces; ``[]`` for a
    blank ``text``. Every character of ``seps`` separates items.

    An empty item (two separators in a row, or one at an end: ``"3,,5"``, ``"3,5,"``) raises
    ``error`` (an :class:`InputError`) naming ``what`` and its ``noun``; it is never
    skipped, since a list read as other than it was written gives an answer to another
    question without a word. The lists of rule sets, option sets, PySol ranges, moves and
    the server's tap are all split here, so they refuse it alike.
    """
    if not text.strip():
        return []
    items = [text]
    for sep in seps:
        items = [piece for item in items for piece in item.split(sep)]
    items = [item.strip() for item in items]
    if "" in items:
        names = " or ".join(_SEPARATOR_NAMES.get(s, repr(s)) for s in seps)
        raise error(f"{what} has an empty {noun} in {clip(text)} (two {names} in a row, or one at an end?)")
    return items


_TO_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_TO_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def ascii_lower(text: str) -> str:
    """``text`` with A-Z made a-z and nothing else changed. Names, codes and cards are ASCII:
    ``str.lower`` and ``upper`` would read other letters as theirs (the Kelvin sign as k,
    the long s as S, 'ß' as 'SS'), so that 'GO1-E-AAAAAß' was deal AAAAASS and 'Aſ' the ace
    of spades."""
    return text.translate(_TO_LOWER)


def ascii_upper(text: str) -> str:
    """``text`` with a-z made A-Z and nothing else changed (see :func:`ascii_lower`)."""
    return text.translate(_TO_UPPER)


def is_whole_number(value: object) -> bool:
    """An ``int`` or a NumPy integer; not a bool, a float (NaN, 2.5, 6.0), text or an array.

    A NumPy array has ``__index__`` too, which fails unless it holds one number: taken as a
    whole number, an array of counts met ``0 <= value`` as "the truth value of an array
    is ambiguous" (a ValueError naming nothing the caller gave)."""
    if type(value) is int:  # the common case, first: the grid engine asks this per action
        return True
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        return False
    try:
        operator.index(value)
    except TypeError:
        return False
    return True


def whole_count(value: object, what: str, low: int = 1, high: int = MAX_EFFORT) -> int:
    """``value`` as an ``int`` if it is a whole number (an ``int`` or a NumPy integer; not a
    bool, a float such as NaN or 2.5, or text) from ``low`` to ``high``, else an
    :class:`InputError` naming ``what``. The library's entry points check their counts with
    it, as the commands' options do: a count of a billion sampled orders is refused, not
    left to fill the memory."""
    if not is_whole_number(value):
        raise InputError(f"{what} must be a whole number, not {shown(value)}")
    return check_count(operator.index(value), what, low, high)


def expect(value: object, kind: type | tuple[type, ...], what: str, must: str) -> Any:
    """``value`` if it is an instance of ``kind``, else a :class:`TypeError` that says what
    ``what`` must be (``must``, with an example) and what it was. The library's entry points
    check their arguments' types with it: a deal code passed where a Layout goes is named at
    the call, not met as an AttributeError deep inside the solver."""
    if isinstance(value, kind):
        return value
    raise TypeError(f"{what} must be {must}, not {type(value).__name__} {shown(value)}")


def callback(value: object, what: str, example: str) -> Any:
    """``value`` if it is a function or None, else a :class:`TypeError` naming ``what``: a
    callback is called only once work is done, where "'int' object is not callable" names
    nothing the caller gave."""
    if value is None or callable(value):
        return value
    raise TypeError(f"{what} must be a function {example}, or None; not {type(value).__name__} {shown(value)}")


def flag(value: object, what: str) -> bool:
    """``value`` as True or False if it is a bool (or a NumPy bool); a :class:`TypeError`
    for anything else: "no" is a true value to Python, so a switch given as text would be on."""
    kind = type(value)
    # NumPy's bool, without importing NumPy: named bool_ before NumPy 2 and bool since
    if kind is bool or (kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool")):
        return bool(value)
    raise TypeError(f"{what} must be True or False, not {type(value).__name__} {shown(value)}")


def one_of(value: object, options: "tuple[str, ...] | list[str]", what: str) -> str:
    """``value`` if it is one of the texts ``options``, else an :class:`InputError` naming
    ``what`` and the options: ``value in options`` of a NumPy array or pandas Series fails as
    "the truth value of an array is ambiguous", and of a list as "unhashable type" in a set."""
    if isinstance(value, str) and value in options:
        return value
    raise InputError(f"{what} must be one of {', '.join(options)}, not {shown(value)}")


def check_path_text(path: object, what: str) -> None:
    """An :class:`InputError` naming ``what`` if the path ``path`` (text or a ``PathLike``)
    holds a NUL character: no file system takes one, and every call that looks the path up
    (``os.stat``, ``open``) raises a bare ValueError ("embedded null byte") for it, which the
    commands reported as an internal error. A command line cannot carry one; a caller of
    ``main([...])`` or of the library can."""
    text = os.fspath(path) if isinstance(path, os.PathLike) else path
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if isinstance(text, str) and "\x00" in text:
        raise InputError(f"{what} {clip(text)}: a path cannot hold a NUL character")


def check_seed(seed: Optional[int], option: str = "--seed") -> None:
    """A seed must be from 0 to 2**64 - 1 (what numpy and the deal generator take); None is
    no seed given."""
    if seed is not None and not 0 <= seed < 2**64:
        raise InputError(f"{option} must be from 0 to 2**64-1, not {seed}")


def seed_value(seed: object, what: str = "seed") -> int:
    """A fair answer's seed: a whole number from 0 to 2**64 - 1, as ``--seed`` takes it.
    Python's ``random.Random`` would take -1 as 1 and a float or text as a hash of it, so
    that an answer recorded with seed -1 would be seed 1's."""
    return whole_count(seed, what, 0, 2**64 - 1)


__all__ = ["split_items", "check_path_text", "is_whole_number", "whole_count", "expect", "one_of", "check_seed", "seed_value",
           "ascii_lower", "ascii_upper"]
