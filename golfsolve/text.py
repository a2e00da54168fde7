"""Small helpers for the words of messages and reports (bottom of the house: imports nothing)."""

from __future__ import annotations


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
