"""The card model shared by solitaire and grid Golf.

A card is a small integer so that compiled kernels can work on plain arrays:

* ``0..51``: ``suit * 13 + rank`` with rank ``0`` = Ace ... ``12`` = King and suits
  in the order Clubs, Diamonds, Hearts, Spades;
* ``52`` and ``53``: the first and second joker.

Text forms: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` then suit ``C D H S`` (``TS``), or
``10`` for the ten and a suit symbol (``10♠``); jokers are ``JK`` (also ``JK1``,
``🃏``) and ``JK2``. Parsing is case-insensitive.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from .errors import InputError, clip, shown
from .inputs import ascii_upper, is_whole_number

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = ("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")

N_RANKS = 13
N_STANDARD = 52
JOKER_RANK = 13  # the rank index a joker carries in rank arrays
JOKERS = (52, 53)
N_CARDS_MAX = 54

ACE, KING, QUEEN, TWO = 0, 12, 11, 1


class CardError(InputError):
    """A card's text could not be read."""


def make_card(rank: int, suit: int) -> int:
    """The card id of ``rank`` (0 = Ace .. 12 = King) and ``suit`` (0..3 = C D H S)."""
    # 1.5 or True would make an id no card has, or another card's
    if not (is_whole_number(rank) and is_whole_number(suit) and 0 <= rank < N_RANKS and 0 <= suit < 4):
        raise CardError(f"no card with rank {rank!r} and suit {suit!r}")
    return suit * N_RANKS + rank


def is_joker(card: int) -> bool:
    """Whether the card id is one of the jokers (ids past the 52 standard cards)."""
    return card >= N_STANDARD


def rank_of(card: int) -> int:
    """Rank index 0..12, or ``JOKER_RANK`` for a joker."""
    return JOKER_RANK if card >= N_STANDARD else card % N_RANKS


def suit_of(card: int) -> int:
    """Suit index 0..3 (C D H S); -1 for a joker."""
    return -1 if card >= N_STANDARD else card // N_RANKS


#: ``RANK_OF[card]`` for every card id, for vectorised and compiled code.
RANK_OF = np.array([rank_of(c) for c in range(N_CARDS_MAX)], dtype=np.int8)


def card_str(card: int, symbols: bool = False) -> str:
    """``TS`` (or ``10♠`` with ``symbols``); the jokers print as ``JK`` and ``JK2``.

    The second joker needs its own name so that a layout with two jokers reads back.
    """
    if not (is_whole_number(card) and 0 <= card < N_CARDS_MAX):  # True would print as 2C, 1.5 fail on an index
        raise CardError(f"no card with id {card!r}")
    if card >= N_STANDARD:
        if symbols:
            return "🃏" if card == JOKERS[0] else "🃏2"
        return "JK" if card == JOKERS[0] else "JK2"
    r, s = card % N_RANKS, card // N_RANKS
    if symbols:
        return ("10" if r == 9 else RANKS[r]) + SUIT_SYMBOLS[s]
    return RANKS[r] + SUITS[s]


_SYMBOL_TO_SUIT = {sym: SUITS[i] for i, sym in enumerate(SUIT_SYMBOLS)}
_SYMBOL_TO_SUIT.update({"♧": "C", "♢": "D", "♡": "H", "♤": "S"})


def parse_card(text: str) -> int:
    """Read one card: ``TS``, ``ts``, ``10♠``, ``10S``, ``JK``. Raises CardError naming it."""
    if not isinstance(text, str):  # None would fail as an AttributeError on .strip()
        raise TypeError(f"a card must be text, e.g. 'AS' or '10♠', not {type(text).__name__} {shown(text)}")
    t = text.strip()
    if not t:
        raise CardError("empty card")
    up = ascii_upper(t).replace("\ufe0f", "")
    if up in ("JK", "JK1", "JOKER", "🃏", "*"):
        return JOKERS[0]
    if up in ("JK2", "🃏2"):
        return JOKERS[1]
    suit_ch = _SYMBOL_TO_SUIT.get(up[-1], up[-1])
    rank_txt = up[:-1]
    if rank_txt == "10":
        rank_txt = "T"
    if len(rank_txt) != 1 or rank_txt not in RANKS or suit_ch not in SUITS:
        raise CardError(f"unknown card {clip(text.strip())}")
    return make_card(RANKS.index(rank_txt), SUITS.index(suit_ch))


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Read cards separated by white space or commas."""
    if isinstance(text, str):
        text = text.replace(",", " ").split()
    return [parse_card(t) for t in text]


def cards_str(cards: Iterable[int], symbols: bool = False) -> str:
    """Cards as text separated by spaces (``TS`` or, with ``symbols``, ``10♠``)."""
    return " ".join(card_str(c, symbols) for c in cards)


def show_card(name: str) -> str:
    """A card's name (``7C``, as moves, layouts and JSON write it) as every human-readable
    answer shows it: ``7♣`` (a terminal without ♣ gets ``7C`` back from the CLI's encoding
    fallback)."""
    return card_str(parse_card(name), symbols=True)


def deck(jokers: int = 0) -> list[int]:
    """One deck in id order: 52 cards, then ``jokers`` jokers (0, 1 or 2)."""
    if not (is_whole_number(jokers) and 0 <= jokers <= 2):  # True would be one joker, 1.5 fail on a slice
        raise CardError(f"a deck holds 0, 1 or 2 jokers, not {jokers!r}")
    return list(range(N_STANDARD)) + list(JOKERS[:jokers])
