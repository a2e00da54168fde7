"""The card model: ids, text forms in and out, decks."""

from __future__ import annotations

import numpy as np
import pytest

from golfsolve.cards import (
    JOKER_RANK,
    RANK_OF,
    CardError,
    card_str,
    cards_str,
    deck,
    is_joker,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)


def test_ids_are_suit_times_13_plus_rank():
    assert parse_card("AC") == 0 and parse_card("KC") == 12
    assert parse_card("AD") == 13 and parse_card("KS") == 51
    assert make_card(9, 3) == parse_card("TS")
    assert (rank_of(parse_card("TS")), suit_of(parse_card("TS"))) == (9, 3)


@pytest.mark.parametrize("text", ["TS", "ts", "10S", "10♠", " 10s ", "T♤"])
def test_ten_of_spades_in_every_accepted_form(text):
    assert parse_card(text) == parse_card("TS")


def test_every_card_reads_back_in_both_forms():
    for c in range(54):
        assert parse_card(card_str(c)) == c
        assert parse_card(card_str(c, symbols=True)) == c


def test_output_forms():
    assert card_str(parse_card("TS")) == "TS"
    assert card_str(parse_card("TS"), symbols=True) == "10♠"
    assert card_str(parse_card("QH"), symbols=True) == "Q♥"
    assert cards_str(parse_cards("AC 2D,3H")) == "AC 2D 3H"


def test_jokers():
    assert parse_card("JK") == 52 and parse_card("jk2") == 53 and parse_card("🃏") == 52
    assert is_joker(52) and not is_joker(51)
    assert rank_of(53) == JOKER_RANK and suit_of(52) == -1
    assert card_str(52) != card_str(53)  # two jokers must stay apart in a layout file


@pytest.mark.parametrize("text", ["1S", "TX", "ZZ", "11H", "AS2", "K"])
def test_bad_cards_are_named(text):
    with pytest.raises(CardError, match=repr(text)):
        parse_card(text)


def test_empty_card_and_bad_ids():
    with pytest.raises(CardError):
        parse_card("  ")
    with pytest.raises(CardError):
        card_str(54)
    with pytest.raises(CardError):
        make_card(13, 0)


def test_decks_and_rank_table():
    assert deck() == list(range(52))
    assert deck(2)[-2:] == [52, 53]
    with pytest.raises(CardError):
        deck(3)
    assert [int(RANK_OF[c]) for c in range(54)] == [rank_of(c) for c in range(54)]


@pytest.mark.parametrize("call, words", [
    (lambda c: c.make_card(1.5, 0), "no card with rank 1.5 and suit 0"),
    (lambda c: c.make_card(True, 0), "no card with rank True"),
    (lambda c: c.card_str(True), "no card with id True"),
    (lambda c: c.card_str(2.0), "no card with id 2.0"),
    (lambda c: c.deck(True), "not True"),
])
def test_cards_are_made_of_whole_numbers(call, words):
    """was: make_card(1.5, 0) answered the card id 1.5, card_str(True) '2C', card_str(2.0) an
    IndexError, deck(True) a deck of 53"""
    import golfsolve.cards as cards

    with pytest.raises(cards.CardError, match=words):
        call(cards)
    assert cards.card_str(np.int8(5)) == "6C" and cards.make_card(np.int64(0), 3) == 39
