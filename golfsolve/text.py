"""Small helpers for the words of messages and reports (bottom of the house: imports nothing)."""

from __future__ import annotations


def plural(n: int, noun: str, nouns: str = "") -> str:
    """``"1 chunk"``, ``"2 chunks"``, ``"1 match"``/``"3 matches"`` (give ``nouns`` when
    the English plural is irregular): a count with its noun in the right number."""
    return f"{n:,} {noun if n == 1 else (nouns or plural_of(noun))}"


def plural_of(noun: str) -> str:
    """``deal`` -> ``deals``, ``match`` -> ``matches`` (regular English plurals only)."""
    return noun + ("es" if noun.endswith(("s", "x", "z", "ch", "sh")) else "s")
