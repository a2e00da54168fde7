"""Small helpers for the words of messages and reports (bottom of the house: imports nothing)."""

from __future__ import annotations

import unicodedata
from typing import Iterable


def pad(text: str, width: int, align: str = ">") -> str:
    """``text`` padded with spaces to ``width`` columns of a terminal, as ``format(text,
    align + str(width))`` but counting a wide character as the two columns a terminal gives
    it: the joker 🃏 is one character drawn two columns wide, and padded by its length every
    joker pushed the rest of its row one column right, out from under the column numbers."""
    room = max(0, width - sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text))
    if align == "<":
        return text + " " * room
    if align == ">":
        return " " * room + text
    return " " * (room // 2) + text + " " * (room - room // 2)  # "^": the odd space on the right, as format's


def plural(n: int, noun: str, nouns: str = "") -> str:
    """``"1 chunk"``, ``"2 chunks"``, ``"1 match"``/``"3 matches"`` (give ``nouns`` when
    the English plural is irregular): a count with its noun in the right number."""
    return f"{n:,} {noun if n == 1 else (nouns or plural_of(noun))}"


def plural_of(noun: str) -> str:
    """``deal`` -> ``deals``, ``match`` -> ``matches`` (regular English plurals only)."""
    return noun + ("es" if noun.endswith(("s", "x", "z", "ch", "sh")) else "s")


def ordinal(n: int) -> str:
    """``"1st"``, ``"22nd"``, ``"113th"``, ``"4,015th"``: a count as an English ordinal."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n:,}{suffix}"


def interval(lo: float, hi: float, fmt: str = ".1f", scale: float = 1) -> str:
    """``"[60.7, 73.6]"``: a 95% interval as every human-readable output writes it (brackets,
    a comma, the bounds in the unit of the value before it; ``scale=100`` for a share in
    percent). Brackets, unlike ``60.7-73.6``, stay clear for negative bounds: ``[-0.40, +0.10]``."""
    return f"[{scale * lo:{fmt}}, {scale * hi:{fmt}}]"


def estimate(value: float, lo: float, hi: float, fmt: str = ".1f", percent: bool = False,
             value_fmt: str = "") -> str:
    """``"67.5% [60.7, 73.6]"`` (``percent``: a share shown in percent, the sign written once)
    or ``"+0.25 [-0.10, +0.60]"``: a value and its :func:`interval`; ``value_fmt`` formats the
    value alone (a column width: ``"5.1f"``)."""
    scale = 100 if percent else 1
    return f"{scale * value:{value_fmt or fmt}}{'%' if percent else ''} {interval(lo, hi, fmt, scale)}"


def stretches(numbers: Iterable[int], most: int = 4, sep: str = "..") -> str:
    """Whole numbers as stretches of consecutive ones, ``0..9, 14..39`` (``sep`` between the
    ends); with more than ``most`` stretches, the span and their count; ``none`` for none."""
    ordered = sorted(int(n) for n in numbers)
    if not ordered:
        return "none"
    runs: list[list[int]] = []
    for n in ordered:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    if len(runs) > most:
        return f"{ordered[0]}{sep}{ordered[-1]} in {len(runs)} stretches"
    return ", ".join(f"{a}{sep}{b}" if a != b else f"{a}" for a, b in runs)
