"""A hand-made PackedPosition is checked before the kernels read it; one that pack() or
pack_number() made is checked against the rules it is solved under (its jokers)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from golfsolve.errors import InputError
from golfsolve.solitaire.layout import layout_from_code, layout_from_number
from golfsolve.solitaire.rules import get_rules
from golfsolve.solitaire.solver import PackedPosition, Solver, pack, pack_number

CLASSIC = get_rules("classic")
JOKERS2 = get_rules("classic+jokers2")


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


@pytest.fixture(scope="module")
def packed() -> PackedPosition:
    return pack(layout_from_code("GO1-C-AAAAAAB"))


def _bad(p: PackedPosition) -> dict:
    # each a position the kernels would have read past an array with, and answered
    c, h, s, t = p.cols, p.heights, p.stock, p.top
    return {
        "heights": PackedPosition(c, np.array([9, 5, 5, 5, 5, 5, 5], np.int8), s, t),
        "heights from 0": PackedPosition(c, np.array([-1, 5, 5, 5, 5, 5, 5], np.int8), s, t),
        "ranks": PackedPosition(np.where(c == 3, 20, c).astype(np.int8), h, s, t),
        "top": PackedPosition(c, h, s, 30),
        "int8 array of shape": PackedPosition(c[:6], h, s, t),
        "stock holds": PackedPosition(c, h, np.zeros(60, np.int8), t),
        "cols must be an int8": PackedPosition(c.astype(float), h, s, t),
    }


@pytest.mark.parametrize("what", list(_bad(pack(layout_from_code("GO1-C-AAAAAAB")))))
def test_a_malformed_hand_made_position_is_refused_by_name(solver, packed, what):
    """solve_packed on a PackedPosition with a height of 9 answered 'lost, 11 cards left' (it
    read past column 1's five cards), a rank of 20 'lost, 6', a top of 30 'lost, 4'"""
    with pytest.raises(InputError, match=what.split()[0]):
        solver.solve_packed(_bad(packed)[what], CLASSIC)


def test_a_well_formed_hand_made_position_is_solved_as_pack_makes_it(solver, packed):
    hand = PackedPosition(packed.cols.copy(), packed.heights.copy(), packed.stock.copy(), packed.top)
    a, b = solver.solve_packed(hand, CLASSIC), solver.solve_packed(packed, CLASSIC)
    assert (a.outcome, a.best_left, a.moves) == (b.outcome, b.best_left, b.moves)


@pytest.mark.parametrize("make", ["pack_number", "pack", "by hand"])
def test_jokers_the_rules_do_not_deal_are_refused(solver, make):
    """A deal of classic+jokers2 solved under classic answered 'won': its jokers have no row in
    classic's table of what fits"""
    if make == "pack_number":
        p = pack_number(1, JOKERS2)
    else:
        p = pack(layout_from_number(1, JOKERS2, "C"))
        if make == "by hand":
            p = PackedPosition(p.cols, p.heights, p.stock, p.top)
    assert p.jokers in (2, -1)
    with pytest.raises(InputError, match="holds 2 jokers but rules 'classic' deal no jokers"):
        solver.solve_packed(p, CLASSIC)
    with pytest.raises(InputError, match="holds 2 jokers but rules 'classic\\+jokers1' deal 1 joker$"):
        solver.solve_packed(p, get_rules("classic+jokers1"))
    assert solver.solve_packed(p, JOKERS2).outcome in ("won", "lost")


def test_a_deal_without_jokers_is_solved_under_rules_that_deal_them(solver, packed):
    # a position whose jokers are gone (played, or never dealt) is a position of those rules
    assert packed.jokers == 0
    assert solver.solve_packed(packed, JOKERS2).best_left == solver.solve_packed(packed, CLASSIC).best_left


def test_line_wins_checks_the_position_as_solve_packed_does(solver, packed):
    """line_wins read a hand-made position with a height of 9 past its column too"""
    line = solver.solve_packed(pack(layout_from_code("GO1-E-AAAAAAB")), get_rules("easy")).moves
    from golfsolve.solitaire.solver import line_wins

    easy = pack(layout_from_code("GO1-E-AAAAAAB"))
    assert line_wins(easy, get_rules("easy"), line)
    with pytest.raises(InputError, match="heights"):
        line_wins(_bad(easy)["heights"], get_rules("easy"), line)
    with pytest.raises(InputError, match="jokers"):
        line_wins(pack_number(1, JOKERS2), CLASSIC, line)


def test_packed_positions_compare_and_hash_by_their_cards(packed):
    # was: == compared the arrays elementwise ("truth value of an array is ambiguous"), hash failed
    same = pack_number(1, CLASSIC)
    other = pack(layout_from_code("GO1-C-AAAAAAC"))
    assert packed == same and hash(packed) == hash(same)
    assert packed != other and len({packed, same, other}) == 2
    moved = PackedPosition(packed.cols, packed.heights, packed.stock, packed.top + 1)
    assert packed != moved
    assert (packed == "GO1-C-AAAAAAB") is False


#: GO1-C-AAAAAAZ is lost under Classic whatever is played (its fewest cards left is 5)
LOST = "GO1-C-AAAAAAZ"


def _packed():
    from golfsolve.solitaire.rules import get_rules
    from golfsolve.solitaire.solver import pack_number

    return pack_number(25, get_rules("classic")), get_rules("classic")


@pytest.mark.parametrize("kw, error, words", [
    ({"rules": "classic"}, TypeError, "rules must be a Rules"),
    ({"rules": None}, TypeError, "rules must be a Rules"),
    ({"p": "layout"}, TypeError, "p must be a PackedPosition"),
    ({"node_limit": -1}, InputError, "node_limit must be from 0"),
    ({"node_limit": 2.5}, InputError, "node_limit must be a whole number"),
    ({"node_limit": float("nan")}, InputError, "node_limit must be a whole number"),
    ({"verdict_only": "no"}, TypeError, "verdict_only must be True or False"),
    ({"at_least": 99}, InputError, "at_least must be from 0 to 35"),
    ({"at_least": -3}, InputError, "at_least must be from 0 to 35"),
    ({"lost": "x"}, TypeError, "lost must be a LostStates or None"),
])
def test_solve_packed_checks_its_arguments_as_solve_does(kw, error, words):
    """Solver().solve_packed(p, "classic") failed as "'str' object has no attribute
    'draw_any_time'" (None the same), a Layout for p as "'Layout' object has no attribute 'cols'",
    node_limit=NaN as "cannot convert float NaN to integer"; node_limit=-1 searched without a
    limit and 2.5 stopped at 2 states, verdict_only="no" answered a verdict only (lost, cards
    left None), and at_least=99 answered "lost, best 35 cards left" for a deal whose best is 5"""
    from golfsolve.solitaire.layout import layout_from_code
    from golfsolve.solitaire.solver import Solver

    p, rules = _packed()
    args = {"p": p, "rules": rules, **kw}
    if args["p"] == "layout":
        args["p"] = layout_from_code(LOST)
    with pytest.raises(error, match="^" + re.escape(words)):
        Solver().solve_packed(**args)


@pytest.mark.parametrize("call, words", [
    (lambda s, p, r: s.solve_given(p, r, [None]), "each known answer must be a Solution"),
    (lambda s, p, r: s.solve_given(p, r, None), "known must be a list of Solutions"),
    (lambda s, p, r: __import__("golfsolve.solitaire.solver", fromlist=["x"]).pack_number(3, "easy"),
     "rules must be a Rules"),
    (lambda s, p, r: __import__("golfsolve.solitaire.solver", fromlist=["x"]).pack(None), "layout must be a Layout"),
])
def test_the_packed_solves_name_what_is_no_answer_rules_or_layout(call, words):
    """solve_given(p, rules, [None]) failed as "'NoneType' object has no attribute 'outcome'",
    pack_number(3, "easy") as "'str' object has no attribute 'jokers'", pack(None) as
    "'NoneType' object has no attribute 'stock_known'" """
    from golfsolve.solitaire.solver import Solver

    p, rules = _packed()
    with pytest.raises(TypeError, match="^" + re.escape(words)):
        call(Solver(), p, rules)


def test_solve_packed_still_takes_numpy_counts_and_answers_as_before():
    from golfsolve.solitaire.solver import Solver

    p, rules = _packed()
    s = Solver()
    plain = s.solve_packed(p, rules)
    again = s.solve_packed(p, rules, node_limit=np.int64(0), verdict_only=np.bool_(False), at_least=np.int64(0))
    assert (plain.outcome, plain.best_left, plain.moves) == (again.outcome, again.best_left, again.moves) == \
        ("lost", 5, plain.moves)
    known = s.solve_given(p, rules, (plain,))
    assert (known.outcome, known.best_left) == ("lost", 5)
