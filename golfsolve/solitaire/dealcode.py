"""Deal codes ``GO1-<E|C|N>-<7 letters>`` and the GO1 deal generator.

The generator is this project's own and fixed forever (see README, "The GO1 generator"):

1. The deal number ``n`` (0 .. 26**7 - 1) seeds SplitMix64: ``state = n``.
2. ``next()``: ``state += 0x9E3779B97F4A7C15`` (mod 2**64); ``z = state``;
   ``z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9``; ``z = (z ^ (z >> 27)) * 0x94D049BB133111EB``;
   return ``z ^ (z >> 31)`` (all mod 2**64).
3. ``below(m)``: an unbiased integer in ``[0, m)``: draw ``x = next()`` until
   ``x < 2**64 - (2**64 mod m)``, return ``x mod m``.
4. The deck starts in id order (``suit * 13 + rank``: AC 2C .. KC AD .. KS, then any
   jokers) and is shuffled by Fisher-Yates from the end: for ``i`` from ``len-1`` down
   to 1, swap ``deck[i]`` with ``deck[below(i + 1)]``.
5. Dealing: ``deck[0..34]`` go out row by row, ``deck[i]`` to column ``i mod 7``, row
   ``i div 7`` (row 0 is the covered top of the column, row 4 the free card); ``deck[35]``
   is the discard (with an empty starting discard it is the first stock card instead);
   the rest is the stock in drawing order, first drawn first.

The rule letter does not touch the cards. :func:`deal_deck` is plain Python (about 40 µs
a deal): a single answer deals without numba's start-up, and a batch's cost per deal is
its solving, not its dealing.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

import numpy as np

from ..errors import InputError, clip, shown
from ..inputs import ascii_upper, expect, is_whole_number
from .rules import CODE_LETTER_RULES, Rules

N_LETTERS = 7
N_DEALS = 26**N_LETTERS  # 8,031,810,176
PREFIX = "GO1"
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


class DealCodeError(InputError):
    """A deal code or deal number is not valid."""


@dataclass(frozen=True)
class DealCode:
    """A parsed deal code: the rule letter as written and the deal number."""

    letter: str
    number: int

    @property
    def rules(self) -> Rules:
        """The rule set the code's letter names."""
        return CODE_LETTER_RULES[self.letter]

    def __str__(self) -> str:
        return format_code(self.number, self.letter)


def number_to_letters(n: int) -> str:
    """Deal number to its 7 base-26 letters (A = 0, most significant first)."""
    n = deal_number(n)  # True would be deal 1, 1.5 fail inside divmod
    out = []
    for _ in range(N_LETTERS):
        n, d = divmod(n, 26)
        out.append(chr(ord("A") + d))
    return "".join(reversed(out))


def letters_to_number(letters: str) -> int:
    """The deal number of 7 letters A-Z (either case), base 26, most significant first (A = 0)."""
    text = expect(letters, str, "a deal code's letters", "text, e.g. 'AAAAAAB'")
    letters = ascii_upper(text)
    # lower case would count from 'a' (10,280,717,025 for 'aaaaaab'), a digit below 'A', eight letters past the end
    if len(letters) != N_LETTERS or not all("A" <= ch <= "Z" for ch in letters):
        raise DealCodeError(f"a deal code's letters are {N_LETTERS} letters A-Z, not {clip(text)}")
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - ord("A"))
    return n


def format_code(number: int, letter: str = "E") -> str:
    """``GO1-<letter>-<letters>`` for a deal number."""
    # a list failed as "unhashable type"
    if not isinstance(letter, str) or letter not in CODE_LETTER_RULES:
        raise DealCodeError(f"rule letter must be E, C or N, not {letter!r}")
    return f"{PREFIX}-{letter}-{number_to_letters(number)}"


def format_codes(numbers: np.ndarray, letters: np.ndarray) -> np.ndarray:
    """:func:`format_code` of many deals at once: ``numbers`` (integers from 0 to
    ``N_DEALS - 1``) and ``letters`` (their rule letters, one-character text), as an array
    of text. For checking a run's millions of rows (a code per row), which one call each
    made seconds slower."""
    numbers = np.asarray(numbers, dtype=np.int64)
    n = len(numbers)
    head = len(PREFIX) + 1
    out = np.empty((n, head + 2 + N_LETTERS), dtype=np.uint8)
    out[:, :head] = np.frombuffer(f"{PREFIX}-".encode(), dtype=np.uint8)
    out[:, head] = np.frombuffer(np.asarray(letters, dtype="S1").tobytes(), dtype=np.uint8) if n else 0
    out[:, head + 1] = ord("-")
    places = 26 ** np.arange(N_LETTERS - 1, -1, -1, dtype=np.int64)  # most significant first, as number_to_letters
    out[:, head + 2:] = numbers[:, None] // places % 26 + ord("A")
    return out.view(f"S{out.shape[1]}").ravel().astype(f"U{out.shape[1]}")


def parse_code(text: str) -> DealCode:
    """Read a deal code, forgiving about case and surrounding spaces only."""
    raw = expect(text, str, "a deal code", "text, e.g. 'GO1-E-AAAAAAB'").strip()
    if not raw:
        raise DealCodeError("empty deal code (expected GO1-E-AAAAAAB)")
    parts = ascii_upper(raw).split("-")
    if len(parts) != 3:
        raise DealCodeError(f"deal code {clip(raw)} must have three parts, like GO1-E-AAAAAAB")
    version, letter, letters = parts
    if version != PREFIX:
        raise DealCodeError(f"deal code {clip(raw)}: unknown generator version {clip(version, 10)} (only GO1)")
    if letter not in CODE_LETTER_RULES:
        raise DealCodeError(f"deal code {clip(raw)}: rule letter {clip(letter, 10)} must be E, C or N")
    if len(letters) != N_LETTERS:
        raise DealCodeError(f"deal code {clip(raw)}: needs {N_LETTERS} letters after the rule, got {len(letters)}")
    bad = [ch for ch in letters if not ("A" <= ch <= "Z")]
    if bad:
        raise DealCodeError(f"deal code {clip(raw)}: {bad[0]!r} is not a letter A-Z")
    return DealCode(letter, letters_to_number(letters))


# ---------------------------------------------------------------------------
# the generator
# ---------------------------------------------------------------------------
_MASK = (1 << 64) - 1


def deal_number(number: object) -> int:
    """``number`` as a plain ``int`` if it is a GO1 deal number (an ``int`` or a NumPy
    integer, as a run folder's ``deal`` column holds them, from 0 to ``N_DEALS - 1``);
    :class:`DealCodeError` out of range, :class:`TypeError` for what is not a whole number
    (a NumPy ``int64`` would overflow in the generator, a float fail on ``&``)."""
    if not is_whole_number(number):
        raise TypeError(f"a deal number must be a whole number, not {type(number).__name__} {shown(number)}")
    number = operator.index(number)
    if not 0 <= number < N_DEALS:
        raise DealCodeError(f"deal number {number} is outside 0..{N_DEALS - 1}")
    return number


def deal_deck(number: int, jokers: int = 0) -> np.ndarray:
    """The dealt deck of one deal number (int8 card ids), as described in the module docstring.

    ``deck[0:35]`` is the tableau dealt row by row (``deck[i]`` is column ``i % 7``, row
    ``i // 7``), ``deck[35]`` the discard, ``deck[36:]`` the stock, first drawn first.
    """
    number = deal_number(number)
    if not is_whole_number(jokers) or jokers not in (0, 1, 2):  # 3 would make a 55-card deck, -1 one of 51
        raise InputError(f"jokers must be 0, 1 or 2, not {repr(jokers)[:40]}")
    deck = list(range(52 + int(jokers)))
    state = number
    for i in range(len(deck) - 1, 0, -1):
        m = i + 1
        limit = (1 << 64) - (1 << 64) % m  # below(m) rejects draws at or above it
        while True:
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            x = z ^ (z >> 31)
            if x < limit:
                break
        j = x % m
        deck[i], deck[j] = deck[j], deck[i]
    return np.array(deck, dtype=np.int8)
