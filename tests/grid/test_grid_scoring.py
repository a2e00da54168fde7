"""Hand-worked scores for every scoring rule of grid Golf."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from itertools import product

import pytest

from golfsolve.cards import parse_card, parse_cards
from golfsolve.errors import InputError
from golfsolve.grid.rules import _SWITCHES, DEFAULT, GRID_SHAPES, PRESETS, GridRules, parse_rules
from golfsolve.grid.scoring import ScoreCard, cancel_mask, grid_score, hole_strokes, knock_penalty
from golfsolve.grid.view import STOCK, can_pass


def score(cards: str, rules_spec: str | None = None, **kw) -> int:
    if rules_spec is not None:
        rules = parse_rules(rules_spec, **kw)
    else:
        rules = GridRules(**kw) if kw else DEFAULT
    return grid_score(parse_cards(cards.replace("/", " ")), rules)


def test_card_values_default():
    v = DEFAULT.card_value
    assert [v(parse_card(t)) for t in "KS AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS".split()] == \
        [0, 1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10]


def test_no_cancel_sums_values():
    # columns (K,J) (A,Q) (2,5): nothing matches -> 0 + 1 - 2 + 10 + 10 + 5
    assert score("KC AC 2C / JD QD 5H") == 24


@pytest.mark.parametrize("grid,cards,expected", [
    (4, "QC 7D / QH 9S", 16),                       # 2x2: queens cancel, 7 + 9
    (6, "JC 3D 4H / JD 5S 6C", 18),                 # 2x3: jacks cancel, 3+4+5+6
    (8, "5C 6D 7H 8S / 5D 9C 7S TC", 33),           # 2x4: fives and sevens cancel, 6+8+9+10
    (9, "4C 5C 6C / 4D 7D 8D / 4H 9H KH", 35),      # 3x3: three fours, 5+6+7+8+9+0
])
def test_column_cancels_on_each_grid(grid, cards, expected):
    assert score(cards, grid=grid) == expected


def test_two_of_three_in_a_3x3_column_do_not_cancel():
    assert score("4C 5C 6C / 4D 7D 8D / 3H 9H KH", grid=9) == 4 + 5 + 6 + 4 + 7 + 8 + 3 + 9 + 0


def test_3x3_row_cancels():
    assert score("8C 8D 8H / 3C 4C 5C / 6D 7D 9D", grid=9) == 3 + 4 + 5 + 6 + 7 + 9


def test_rows_do_not_cancel_on_two_row_grids_unless_chosen():
    assert score("8C 8D 8H / 3C 4C 5C") == 24 + 12
    assert score("8C 8D 8H / 3C 4C 5C", cancel="rows") == 12


def test_a_card_cancels_once():
    # The 9C corner is in a cancelled row and a cancelled column: it scores 0, not less.
    assert score("9C 9D 9H / 9S 4C 5C / 9C 7D KD", grid=9) == 4 + 5 + 7 + 0


def test_matching_twos_cancel_to_zero_not_minus_four():
    assert score("2C 5D 6H / 2D 7S 8C") == 5 + 6 + 7 + 8


def test_twos_plus_option():
    assert score("2C 5D 6H / 3D 7S 8C") == -2 + 29
    assert score("2C 5D 6H / 3D 7S 8C", twos_plus=True) == 2 + 29


def test_jokers_minus_two_and_cancel_in_pairs():
    assert score("JK 5D 6H / 3D 7S 8C", jokers=True) == -2 + 29
    assert score("JK 5D 6H / JK2 7S 8C", jokers=True) == 5 + 6 + 7 + 8


def test_cancel_by_value_matches_jack_queen_and_ten():
    assert score("JC 5D 6H / QD 7S 8C") == 20 + 26
    assert score("JC 5D 6H / QD 7S 8C", cancel_by_value=True) == 26
    assert score("TC 5D 6H / JD 7S 8C", cancel_by_value=True) == 26


def test_cancel_anywhere():
    # 5C (column 0) and 5S (column 1) are in different columns.
    assert score("5C 7D 9H / 3D 5S KC") == 29
    assert score("5C 7D 9H / 3D 5S KC", cancel="anywhere") == 7 + 9 + 3 + 0


def test_failed_knock_plus_ten():
    r = GridRules(knock="plus10")
    assert knock_penalty(5, [3, 8], r) == 15       # not lowest
    assert knock_penalty(3, [3, 8], r) == 13       # tie for lowest is a failed knock
    assert knock_penalty(2, [3, 8], r) == 2        # unique lowest: no penalty


def test_failed_knock_doubling():
    r = GridRules(knock="double")
    assert knock_penalty(5, [3], r) == 10
    assert knock_penalty(4, [4], r) == 8
    assert knock_penalty(-2, [-4], r) == -2        # doubling would reward it
    assert knock_penalty(1, [2], r) == 1


def test_hole_strokes_applies_penalty_only_to_knocker():
    r = GridRules(players=2, grid=4, knock="plus10")
    grids = [parse_cards("5C 6C 7C 8C"), parse_cards("KD AD 2S 4D")]
    # SPEC §3: 5+6+7+8 = 26 and K 0 + A 1 + 2 (−2) + 4 = 3; the knocker not lowest: +10
    assert hole_strokes(grids, r, knocker=0) == ([26, 3], [26 + 10, 3])
    assert hole_strokes(grids, r, knocker=1) == ([26, 3], [26, 3])


def test_score_card_standings_lowest_first():
    card = ScoreCard(["a", "b", "c"])
    card.add([10, 5, 7])
    card.add([0, 8, 1])
    assert card.totals == [10, 13, 8]
    assert [row[0] for row in card.standings()] == [2, 0, 1]
    lines = card.render().splitlines()
    assert "hole 2" in lines[0]
    assert [ln.split()[1] for ln in lines[2:]] == ["c", "a", "b"]
    assert lines[2].split()[2:] == ["1", "8"]


@pytest.mark.parametrize("players,grid,decks", [(4, 6, 1), (5, 6, 2), (6, 4, 1), (3, 9, 2), (6, 9, 2), (2, 9, 1)])
def test_deck_count_by_dealt_cards(players, grid, decks):
    r = GridRules(players=players, grid=grid)
    assert r.n_decks == decks
    assert len(r.deck_cards()) == 52 * decks


def test_deck_count_by_players_option():
    assert GridRules(players=5, grid=4, decks_by_players=True).n_decks == 2
    assert GridRules(players=4, grid=9, decks_by_players=True).n_decks == 1
    assert len(GridRules(players=5, grid=6, jokers=True).deck_cards()) == 108


def test_parse_rules_presets_and_switches():
    r = parse_rules("default+putt+knock-double+rows", players=3, grid=None)
    assert (r.final_putt, r.knock, r.cancel, r.players, r.grid) == (True, "double", "rows", 3, 6)
    d = parse_rules("danish")
    assert d.twos_plus and d.jokers and d.knock == "plus10" and d.decks_by_players
    assert parse_rules(r.spec(), players=3) == r


@pytest.mark.parametrize("kw,msg", [
    ({"grid": 7}, "4, 6, 8 or 9"), ({"players": 7}, "2 to 6"), ({"players": 1}, "2 to 6"),
    ({"openers": 6}, "openers"), ({"knock": "triple"}, "knock"),
])
def test_bad_rules_are_input_errors(kw, msg):
    with pytest.raises(InputError, match=msg):
        GridRules(**kw)


def test_unknown_switch_is_input_error():
    with pytest.raises(InputError, match="unknown grid rule 'bogus'"):
        parse_rules("default+bogus")


# -- seed 003's pairwise cancelling ------------------------------------------------
# "Anvend derefter udligning: to kort af samme værdi i samme kolonne giver begge 0 ...
# En kolonne med to damer er altså 0 og ikke 20. I gitteret med ni kort udligner tre ens i
# en kolonne også til nul. Kort udligner kun én gang - i en kolonne på fire ens kort giver
# alle fire nul."

def test_seed003_two_queens_in_a_column_score_zero():
    assert score("QC 5D 6H / QD 7S 8C", pairwise=True) == 5 + 6 + 7 + 8
    assert score("QC 5D 6H / QD 7S 8C", rules_spec="danish") == 5 + 6 + 7 + 8


def test_seed003_a_3x3_column_five_five_nine_scores_nine():
    grid = "5C 3D 4H / 5D 6S 7C / 9H 8S TC"
    assert score(grid, rules_spec="danish", grid=9) == 9 + 3 + 6 + 8 + 4 + 7 + 10
    assert score(grid, grid=9) == 5 + 5 + 9 + 3 + 6 + 8 + 4 + 7 + 10  # seed 001: the whole column must match


def test_seed003_three_alike_in_a_3x3_column_score_zero():
    assert score("5C 3D 4H / 5D 6S 7C / 5H 8S TC", rules_spec="danish", grid=9) == 3 + 6 + 8 + 4 + 7 + 10


def test_seed003_four_alike_in_a_column_all_score_zero():
    # No grid shape has a column four cards tall, so the rule is checked on the cancel
    # function directly, and on the four-card grid, where four alike fill two columns.
    assert cancel_mask([7, 7, 7, 7], rows=4, cols=1, row_cancel=False, anywhere=False, pairwise=True) == [True] * 4
    assert score("9C 9D / 9H 9S", rules_spec="danish", grid=4) == 0
    assert score("9C 9D 5H 6S / 9H 9S 7C 8D", rules_spec="danish", grid=8) == 5 + 6 + 7 + 8


def test_pairwise_is_a_switch_for_any_preset():
    r = parse_rules("default+pairs+rows", grid=8)
    assert r.pairwise and not r.twos_plus
    assert score("5C 6D 5H 8S / 4D 9C 7S TC", rules_spec="default+pairs+rows", grid=8) == 6 + 8 + 4 + 9 + 7 + 10
    assert score("5C 6D 5H 8S / 4D 9C 7S TC", rules_spec="default+rows", grid=8) == 5 + 6 + 5 + 8 + 4 + 9 + 7 + 10
    assert score("5C 3D 4H / 5D 6S 7C / 9H 8S TC", rules_spec="default+pairs", grid=9) == 9 + 3 + 6 + 8 + 4 + 7 + 10


def test_danish_reads_seed003():
    d = parse_rules("danish")
    assert d.pairwise and not d.throw_and_turn and d.discard_without_flip and not d.row_cancel
    assert d.holes == 9
    assert parse_rules("danish", grid=4).holes == 18           # "Atten huller ... fire kort"
    assert parse_rules("danish", grid=4, holes=3).holes == 3
    assert parse_rules("default", grid=4).holes == 18          # and the rules: "18 for the 4-card game"
    assert parse_rules("danish", grid=9).row_cancel is False
    assert parse_rules("danish+rows", grid=9).row_cancel is True
    assert parse_rules(d.spec()) == GridRules(**{**d.to_dict(), "holes": 9})


def test_an_unknown_rule_lists_the_documented_names_only():
    with pytest.raises(InputError) as e:
        parse_rules("foo")
    assert "default, danish, putt" in str(e.value) and "seed00" not in str(e.value)
    assert parse_rules("seed003") == parse_rules("danish")  # the rule text's number still reads


@pytest.mark.parametrize("override", [{"players": 2.5}, {"grid": 6.0}, {"holes": "9"}, {"openers": True},
                                      {"jokers": "no"}, {"final_putt": 0.0}])
def test_table_fields_of_the_wrong_type_are_refused(override):
    # a float player count passed the range check and failed inside a kernel
    with pytest.raises(InputError, match=next(iter(override))):
        parse_rules("default", **override)


# -- a switch that changes nothing is refused ------------------------------------------
_BASES = ("default", "danish", "default+rows", "default+anywhere", "default+no-flip", "default+no-nine-rows",
          "default+putt")


@lru_cache(maxsize=None)
def _cancels(rows: int, cols: int, row_cancel: bool, anywhere: bool, pairwise: bool) -> tuple:
    # two keys are enough to tell every cancelling rule apart: a line is all alike, or holds a pair, or not
    return tuple(tuple(cancel_mask(list(keys), rows, cols, row_cancel, anywhere, pairwise))
                 for keys in product((0, 1), repeat=rows * cols))


def _plays(r: GridRules) -> tuple:
    """What a rule set does at the table: its deck, values, cancels, passes and endings."""
    return (r.players, r.grid, r.openers, r.holes, tuple(r.deck_counts()), tuple(r.value_table()),
            tuple(r.key_table()), _cancels(r.rows, r.cols, r.row_cancel, r.cancel == "anywhere", r.pairwise),
            tuple(can_pass(r, STOCK, h) for h in range(r.grid + 1)), r.throw_and_turn, r.knock, r.ties,
            r.openers_exact and r.openers > 0)


@pytest.mark.parametrize("grid", sorted(GRID_SHAPES))
@pytest.mark.parametrize("base", _BASES)
def test_a_switch_is_refused_exactly_when_it_changes_nothing(grid, base):
    """Every switch on every grid shape (and player count), after each base: parse_rules
    takes a spec only if taking out any one of its switches changes the game played, and a
    refusal names a switch whose absence plays the same."""
    head = base.split("+")[0]
    start = replace(DEFAULT, **PRESETS[head])
    for players in range(2, 7):
        for switch in _SWITCHES:
            spec = f"{base}+{switch}"
            switches = spec.split("+")[1:]
            fields = [f for s in switches for f in _SWITCHES[s]]
            if len(set(fields)) < len(fields):  # given twice, or contradicting: refused as such
                continue
            held = replace(start, players=players, grid=grid, **{f: v for s in switches for f, v in _SWITCHES[s].items()})

            def without(s):
                return replace(held, **{f: getattr(start, f) for f in _SWITCHES[s]})

            try:
                r = parse_rules(spec, players=players, grid=grid, holes=9)
            except InputError as e:
                named = re.match(r"grid rule '([a-z0-9-]+)'", str(e)).group(1)
                assert _plays(without(named)) == _plays(held), f"{spec}, {grid} cards, {players} players: {e}"
                continue
            assert r == held
            for s in switches:
                assert _plays(without(s)) != _plays(held), f"{s} in {spec}, {grid} cards, {players} players: idle"


@pytest.mark.parametrize("spec, grid, words", [
    ("default+pairs", 4, "two cards long"), ("default+pairs", 6, "two cards tall"), ("default+pairs", 8, "+rows"),
    ("default+no-nine-rows", 6, "only the 3x3 grid"), ("default+rows", 9, "rows cancel already"),
    ("danish+pairs", 6, "part of danish"), ("danish+putt", 6, "no-flip"), ("default+anywhere+pairs", 9, "+anywhere"),
    ("default+decks-by-players", 6, "1 deck either way"), ("default+openers-up-to", 6, "part of default"),
    ("danish+openers-exact", 6, "part of danish")])
def test_an_idle_switch_says_why(spec, grid, words):
    with pytest.raises(InputError, match=re.escape(words)):
        parse_rules(spec, grid=grid)


@pytest.mark.parametrize("spec", ["default+openers-exact", "danish+openers-up-to"])
def test_the_openers_switches_change_nothing_with_no_openers(spec):
    """was: no such switch; with 0 openers nobody turns a card, exact or not."""
    parse_rules(spec, openers=1)
    with pytest.raises(InputError, match="changes nothing with 0 openers"):
        parse_rules(spec, openers=0)


def test_a_table_recorded_before_openers_exact_reads_as_it_was_played():
    """A manifest's table holds openers_exact only when true, so a run recorded before the field
    keeps its run key; an old danish table (without it) reads back as danish+openers-up-to, which
    parse_rules takes. was: danish could not say "each player turns exactly two"."""
    assert "openers_exact" not in parse_rules("default+putt").to_dict()
    assert parse_rules("danish").to_dict()["openers_exact"] is True
    for grid in GRID_SHAPES:
        old = parse_rules("danish", grid=grid).to_dict()
        del old["openers_exact"]
        r = GridRules(**old)
        assert not r.openers_exact and r.spec() == "danish+openers-up-to" and "openers-exact" not in r.describe()
        assert parse_rules(r.spec(), grid=grid) == r and r.to_dict() == old
        assert GridRules(**parse_rules("danish", grid=grid).to_dict()) == parse_rules("danish", grid=grid)


def test_every_rule_set_spec_reads_back():
    for grid in GRID_SHAPES:
        for base in _BASES:
            try:
                r = parse_rules(base, grid=grid, players=5)
            except InputError:
                continue
            assert parse_rules(r.spec(), grid=grid, players=5, holes=r.holes) == r
    assert parse_rules("danish", grid=4).spec() == "danish"
    assert parse_rules("danish+rows+sudden-death", grid=9).spec() == "danish+rows+sudden-death"
