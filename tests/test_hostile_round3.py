"""Hostile-user sweep, round 3: each test is a bug a user met, fixed where every caller
passes. Fast: no test here solves more than a deal or plays more than a hole."""

from __future__ import annotations

import numpy as np
import pytest

from golfsolve.errors import InputError
from golfsolve.solitaire.layout import Layout, layout_from_code

CODE = "GO1-E-AAAAAAB"


def _lay():
    return layout_from_code(CODE)


# A Layout built by hand, as its fields are documented: (fields changed, error, words).
# was: accepted; the solver answered 'won' for a deal holding a card twice or six columns,
# a card id 99 or a sixth row failed as an IndexError in pack(), rules given by name as an
# AttributeError inside the search
BAD_LAYOUTS = [
    (lambda L: dict(columns=((1, 1, 2, 3, 4),) + L.columns[1:]), InputError,
     "duplicate card 2C: in column 1 row 1 and in column 1 row 2"),
    (lambda L: dict(columns=L.columns[:6]), InputError, "a layout has 7 columns, this one has 6"),
    (lambda L: dict(columns=((0, 1, 2, 3, 4, 5),) + L.columns[1:]), InputError,
     "column 1 has 6 cards; a column holds at most 5"),
    (lambda L: dict(columns=((99,),) + L.columns[1:]), InputError, "column 1 row 1: 99 is not a card id"),
    (lambda L: dict(columns=((0.5,),) + L.columns[1:]), InputError, "column 1 row 1: 0.5 is not a card id"),
    (lambda L: dict(discard=L.stock[0]), InputError, "duplicate card"),
    (lambda L: dict(discard=True), InputError, "the discard: True is not a card id"),
    (lambda L: dict(stock=L.stock + (99,)), InputError, "stock position 17: 99 is not a card id"),
    (lambda L: dict(stock="6H QS"), TypeError, "a layout's stock must be a sequence of card ids"),
    (lambda L: dict(columns=None), TypeError, "a layout's columns must be a sequence of 7 columns"),
    (lambda L: dict(columns=("7D 6D",) + L.columns[1:]), TypeError, "column 1 must be a sequence of card ids"),
    (lambda L: dict(rules="classic"), TypeError, "rules must be a Rules or None, e.g. get_rules('classic')"),
    (lambda L: dict(name=5), TypeError, "a layout's name must be text"),
    (lambda L: dict(deal_number=-1), InputError, "a deal number is a whole number from 0"),
]


@pytest.mark.parametrize("change, error, words", BAD_LAYOUTS)
def test_a_layout_built_by_hand_is_checked_as_make_layout_checks_one(change, error, words):
    L = _lay()
    fields = dict(columns=L.columns, discard=L.discard, stock=L.stock, rules=L.rules, name=L.name,
                  deal_number=L.deal_number)
    fields.update(change(L))
    with pytest.raises(error, match="^" + _escape(words)):
        Layout(**fields)


def test_a_layout_built_by_hand_keeps_plain_ints_and_tuples():
    L = _lay()
    lay = Layout([list(np.array(c, dtype=np.int64)) for c in L.columns], np.int8(L.discard),
                 list(np.array(L.stock, dtype=np.int16)), L.rules, L.name, np.int64(1))
    assert lay == L and hash(lay) == hash(L)
    assert type(lay.columns) is tuple and all(type(c) is tuple for c in lay.columns)
    assert all(type(c) is int for c in lay.seen_cards()) and type(lay.deal_number) is int
    partial = Layout(L.columns, None, (None,) * 16)  # an empty discard, an unknown stock: still a layout
    assert partial.discard is None and not partial.stock_known


def _escape(words: str) -> str:
    import re

    return re.escape(words)


@pytest.mark.parametrize("keep, error, words", [
    (-1, InputError, "keep is how many stock cards stay known, a whole number from 0; not -1"),  # was: a stock of
    (1.5, InputError, "keep is how many stock cards stay known, a whole number from 0; not 1.5"),  # 32; TypeError
    (None, InputError, "keep is how many"),
    (True, InputError, "keep is how many"),
])
def test_forget_stock_keeps_a_count_of_the_stock_it_has(keep, error, words):
    with pytest.raises(error, match="^" + _escape(words)):
        _lay().forget_stock(keep)


def test_forget_stock_takes_numpy_counts_and_keeps_the_stock_size():
    L = _lay()
    assert L.forget_stock(np.int64(3)).stock == L.stock[:3] + (None,) * 13
    assert L.forget_stock(16) == L == L.forget_stock(99) and L.forget_stock().stock == (None,) * 16
