"""Deal codes and the GO1 generator: parsing, golden deals, an independent reimplementation."""

from __future__ import annotations

import re
import json

import numpy as np
import pytest

from golfsolve.cards import card_str, parse_cards
from golfsolve.solitaire.dealcode import (
    N_DEALS,
    DealCodeError,
    deal_deck,
    format_code,
    number_to_letters,
    parse_code,
)
from golfsolve.solitaire.layout import layout_from_code
from golfsolve.solitaire.rules import CLASSIC, EASY
from hostile_helpers import DATA
from golfsolve.errors import InputError

MASK = (1 << 64) - 1


def go1_deck_pure(number: int, jokers: int = 0) -> list[int]:
    """GO1 written from the README's description alone, in plain Python integers.

    It shares no code with the generator, so agreement checks both the code and the
    description a reimplementer would follow.
    """
    state = number

    def next_u64() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(m: int) -> int:
        limit = (1 << 64) - ((1 << 64) % m)
        while True:
            x = next_u64()
            if x < limit:
                return x % m

    deck = list(range(52 + jokers))
    for i in range(len(deck) - 1, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.fixture(scope="module")
def golden():
    return json.loads((DATA / "golden_deals.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------
# golden deals: the cards of a code never change
# ---------------------------------------------------------------------------
def test_golden_file_covers_first_and_last_deals(golden):
    codes = [d["code"] for d in golden["deals"]]
    assert len(codes) >= 20
    assert {"GO1-E-AAAAAAA", "GO1-E-AAAAAAB", "GO1-E-ZZZZZZZ"} <= set(codes)


def test_golden_deals_match_the_generator(golden):
    for d in golden["deals"]:
        lay = layout_from_code(d["code"])
        assert lay.deal_number == d["number"]
        assert [" ".join(card_str(c) for c in col) for col in lay.columns] == d["columns"], d["code"]
        assert card_str(lay.discard) == d["discard"], d["code"]
        assert " ".join(card_str(c) for c in lay.stock) == d["stock"], d["code"]


def test_golden_decks_with_jokers_match_the_generator(golden):
    for d in golden["decks_with_jokers"]:
        deck = [int(c) for c in deal_deck(d["number"], d["jokers"])]
        assert deck == parse_cards(d["deck"])


def test_pure_python_reimplementation_agrees_with_golden_data(golden):
    # The golden data was written by the numba code; the pure version checks it
    # independently, including the dealing order (row by row, discard, stock).
    for d in golden["deals"][::4] + [golden["deals"][-1]]:
        deck = go1_deck_pure(d["number"])
        cols = [" ".join(card_str(deck[r * 7 + c]) for r in range(5)) for c in range(7)]
        assert cols == d["columns"]
        assert card_str(deck[35]) == d["discard"]
        assert " ".join(card_str(c) for c in deck[36:]) == d["stock"]


@pytest.mark.parametrize("number, jokers", [(0, 0), (1, 0), (N_DEALS - 1, 0), (987_654_321, 0), (42, 1), (43, 2)])
def test_an_independent_reimplementation_agrees(number, jokers):
    assert [int(c) for c in deal_deck(number, jokers)] == go1_deck_pure(number, jokers)


def test_first_10000_deals_are_52_distinct_cards():
    decks = np.array([deal_deck(n) for n in range(10_000)])
    assert decks.shape == (10_000, 52)
    assert (np.sort(decks, axis=1) == np.arange(52)).all()
    # and they are not all the same shuffle
    assert len({bytes(row) for row in decks}) == 10_000


def test_jokers_join_the_shuffle():
    for n in range(1000, 1005):
        assert sorted(deal_deck(n, 2).tolist()) == list(range(54))


# ---------------------------------------------------------------------------
# codes
# ---------------------------------------------------------------------------
def test_rule_letter_does_not_change_the_cards():
    e, n, c = (layout_from_code(f"GO1-{x}-AAAAAAB") for x in "ENC")
    assert e.columns == n.columns == c.columns
    assert e.discard == n.discard == c.discard and e.stock == n.stock == c.stock
    assert e.rules == EASY and n.rules == EASY and c.rules == CLASSIC


def test_letters_are_base_26():
    assert parse_code("GO1-E-AAAAAAA").number == 0
    assert parse_code("GO1-E-AAAAAAB").number == 1
    assert parse_code("GO1-E-AAAAABA").number == 26
    assert parse_code("GO1-E-ZZZZZZZ").number == N_DEALS - 1 == 26**7 - 1
    for n in (0, 1, 25, 26, 12345678, N_DEALS - 1):
        assert parse_code(format_code(n)).number == n


def test_parsing_forgives_case_and_spaces():
    dc = parse_code("  go1-c-aaaaaab \n")
    assert (dc.letter, dc.number, str(dc)) == ("C", 1, "GO1-C-AAAAAAB")


@pytest.mark.parametrize("code, words", [
    ("GO1-X-AAAAAAB", "'X'"),
    ("GO2-E-AAAAAAB", "'GO2'"),
    ("GO1-E-AAAA", "got 4"),
    ("GO1-E-AAAAAA1", "'1'"),
    ("", "empty"),
    ("   ", "empty"),
    ("GO1-E", "three parts"),
    ("GO1 E AAAAAAB", "three parts"),
    ("GO1-E-AAAAAAAB", "got 8"),
])
def test_bad_codes_name_the_problem(code, words):
    with pytest.raises(DealCodeError) as e:
        parse_code(code)
    assert words in str(e.value)
    assert "\n" not in str(e.value)


def test_deal_numbers_out_of_range():
    with pytest.raises(DealCodeError):
        number_to_letters(N_DEALS)
    with pytest.raises(DealCodeError):
        deal_deck(-1)


def test_a_numpy_deal_number_deals_what_the_int_does():
    import numpy as np

    from golfsolve.solitaire.layout import layout_from_number
    from golfsolve.solitaire.rules import CLASSIC
    from golfsolve.solitaire.solver import pack_number

    # a run folder's deal column is int64: was OverflowError ("Python int too large to convert
    # to C long") from the generator's 64-bit arithmetic on a NumPy integer
    for n in (np.int64(3), np.uint32(3), np.int64(N_DEALS - 1)):
        lay = layout_from_number(n)
        assert lay == layout_from_number(int(n)) and type(lay.deal_number) is int
        assert np.array_equal(deal_deck(n), deal_deck(int(n)))
        assert np.array_equal(pack_number(n, CLASSIC).stock, pack_number(int(n), CLASSIC).stock)
    for bad in (1.0, "3", True, None):
        with pytest.raises(TypeError, match="a deal number must be a whole number"):
            layout_from_number(bad)


def test_format_codes_writes_what_format_code_writes_for_many_deals_at_once():
    """The row check of a run's chunks makes every row's code at once (format_codes): the same
    text as format_code, deal by deal, at the ends of the code space and in between."""
    import random

    import numpy as np

    from golfsolve.solitaire.dealcode import N_DEALS, format_code, format_codes

    rng = random.Random(7)
    numbers = [0, 1, 25, 26, 26**6, N_DEALS - 1] + [rng.randrange(N_DEALS) for _ in range(500)]
    letters = [rng.choice("ECN") for _ in numbers]
    got = format_codes(np.array(numbers), np.array(letters, dtype="S1"))
    assert got.tolist() == [format_code(n, c) for n, c in zip(numbers, letters)]
    assert format_codes(np.zeros(0, dtype=np.int64), np.zeros(0, dtype="S1")).tolist() == []


CODE = "GO1-E-AAAAAAB"


@pytest.mark.parametrize("call, error, words", [
    # was: a deck of 55 cards for jokers=3 and of 51 for -1, dealt as if they were decks
    (lambda: __import__("golfsolve.solitaire.dealcode", fromlist=["x"]).deal_deck(1, 3), InputError,
     "jokers must be 0, 1 or 2, not 3"),
    (lambda: __import__("golfsolve.solitaire.dealcode", fromlist=["x"]).deal_deck(1, -1), InputError,
     "jokers must be 0, 1 or 2, not -1"),
    (lambda: __import__("golfsolve.solitaire.dealcode", fromlist=["x"]).deal_deck(1, 1.5), InputError,
     "jokers must be 0, 1 or 2, not 1.5"),
    # was: an AttributeError ('str' object has no attribute 'jokers')
    (lambda: __import__("golfsolve.solitaire.layout", fromlist=["x"]).layout_from_number(1, "easy"), TypeError,
     "rules must be a Rules, e.g. get_rules('classic')"),
    # was: an IndexError
    (lambda: __import__("golfsolve.solitaire.layout", fromlist=["x"]).layout_from_deck([1, 2, 3],
                                                                                       layout_from_code(CODE).rules), InputError,
     "a dealt deck under rules 'easy' holds 52 cards, not 3"),
    # was: an AttributeError ('NoneType' object has no attribute 'strip')
    (lambda: __import__("golfsolve.cards", fromlist=["x"]).parse_card(None), TypeError,
     "a card must be text, e.g. 'AS' or '10♠', not NoneType None"),
])
def test_the_dealing_helpers_refuse_what_is_no_deal(call, error, words):
    with pytest.raises(error, match="^" + re.escape(words)):
        call()


@pytest.mark.parametrize("call, error, words", [
    (lambda d: d.letters_to_number("AAAAAA1"), InputError, "7 letters A-Z, not 'AAAAAA1'"),
    (lambda d: d.letters_to_number("AAAAAAAA"), InputError, "7 letters A-Z"),
    (lambda d: d.letters_to_number(5), TypeError, "must be text"),
    (lambda d: d.format_code(True), TypeError, "a deal number must be a whole number, not bool True"),
    (lambda d: d.number_to_letters(1.5), TypeError, "a deal number must be a whole number, not float 1.5"),
])
def test_deal_code_letters_are_seven_letters_and_numbers_whole(call, error, words):
    """was: letters_to_number('aaaaaab') answered 10,280,717,025 (past the last deal),
    'AAAAAA1' -16 and eight A's 0; format_code(True) was GO1-E-AAAAAAB; number_to_letters(1.5)
    a TypeError from inside divmod"""
    import golfsolve.solitaire.dealcode as dealcode

    with pytest.raises(error, match=words):
        call(dealcode)
    assert dealcode.letters_to_number("aaaaaab") == 1 and dealcode.letters_to_number("ZZZZZZZ") == 26**7 - 1
