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


def percent(share: float, fmt: str = ".1f") -> str:
    """A share from 0 to 1 in percent, without the sign: ``format(100 * share, fmt)``, but a
    share strictly between 0 and 1 never reads as 0 or 100: it gets the decimals that tell it
    apart (``0.9996`` as ``99.96``, ``0.005`` at ``.0f`` as ``0.5``). "100.0%" is a certainty
    to a reader: an exact chance of 0.9996 shown so, or a player that lost one game in 200
    shown as winning "100%" of them, said what was not so. A negative zero reads as ``0``."""
    share = share + 0.0  # -0.0 as 0.0: "-0%" is no share
    text = format(100 * share, fmt)
    if 0 < share < 1:
        head, _, tail = fmt.rpartition(".")
        digits = int(tail[:-1]) if tail[:-1].isdigit() else 6
        while float(text) in (0.0, 100.0) and digits < 12:
            digits += 1
            text = format(100 * share, f"{head}.{digits}{tail[-1]}")
    return text


_percent = percent  # by another name where a switch is called percent


def interval(lo: float, hi: float, fmt: str = ".1f", scale: float = 1) -> str:
    """``"[60.7, 73.6]"``: a 95% interval as every human-readable output writes it (brackets,
    a comma, the bounds in the unit of the value before it; ``scale=100`` for a share in
    percent). Brackets, unlike ``60.7-73.6``, stay clear for negative bounds: ``[-0.40, +0.10]``.
    In percent an upper bound above 0 never reads as 0, nor a lower bound below 1 as 100
    (:func:`percent`): "[0, 0]" is an interval of no width, which only an exact share has; nor
    does any interval with a width read as none: a decimal more until its bounds differ ("[15,
    15]" for a rating on 30,000 games reads "[14.6, 15.4]")."""
    head, _, tail = fmt.rpartition(".")  # as percent reads a format's decimals
    digits = int(tail[:-1]) if tail[:-1].isdigit() else 6
    while True:
        if scale == 100:
            low = percent(lo, fmt) if float(format(100 * lo, fmt)) == 100 else format(100 * lo + 0.0, fmt)
            high = percent(hi, fmt) if float(format(100 * hi, fmt)) == 0 else format(100 * hi + 0.0, fmt)
        else:
            low, high = format(scale * lo, fmt), format(scale * hi, fmt)
        if low != high or not lo < hi or digits >= 6:
            return f"[{low}, {high}]"
        digits += 1
        fmt = f"{head}.{digits}{tail[-1]}"


def estimate(value: float, lo: float, hi: float, fmt: str = ".1f", percent: bool = False,
             value_fmt: str = "") -> str:
    """``"67.5% [60.7, 73.6]"`` (``percent``: a share shown in percent, the sign written once)
    or ``"+0.25 [-0.10, +0.60]"``: a value and its :func:`interval`; ``value_fmt`` formats the
    value alone (a column width: ``"5.1f"``)."""
    if percent:  # a share short of certain never reads as 0% or 100% (:func:`percent`)
        return f"{_percent(value, value_fmt or fmt)}% {interval(lo, hi, fmt, 100)}"
    return f"{value:{value_fmt or fmt}} {interval(lo, hi, fmt)}"


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
