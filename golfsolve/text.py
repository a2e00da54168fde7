"""Small helpers for the words of messages and reports (bottom of the house: imports nothing)."""

from __future__ import annotations


def plural(n: int, noun: str, nouns: str = "") -> str:
    """``"1 chunk"``, ``"2 chunks"``, ``"1 match"``/``"3 matches"`` (give ``nouns`` when
    adding an ``s`` is wrong): a count with its noun in the right number."""
    return f"{n:,} {noun if n == 1 else (nouns or noun + 's')}"
