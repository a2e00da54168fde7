"""Layouts: the text format, black-hole-solve boards, PySol deals, partial stocks, errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hostile_helpers import one_line_error, run_python

from golfsolve.cards import card_str, parse_card, parse_cards
from golfsolve.errors import InputError
from golfsolve.solitaire.layout import (
    Layout,
    LayoutError,
    layout_from_code,
    layout_from_pysol,
    load_layout,
    make_layout,
    parse_layout_text,
    read_layout_file,
)
from golfsolve.solitaire.rules import CLASSIC, EASY, get_rules


def test_seed000_start_reads_with_a_partial_stock(seed000_start):
    lay = seed000_start
    assert lay.columns[0] == tuple(parse_cards("6C 5S QS TS 6H"))
    assert lay.discard == parse_card("AC")
    assert len(lay.stock) == 16 and lay.known_stock_prefix == (parse_card("8S"),)
    assert not lay.stock_known
    # the 15 unknown cards are exactly those the layout does not show
    assert len(lay.unseen_cards()) == 15


def test_seed000_move35_reads(seed000_move35):
    lay = seed000_move35
    assert lay.tableau_count == 11 and lay.stock == (None,) * 6
    assert lay.columns[2] == tuple(parse_cards("TC AH"))


def test_text_round_trip_of_a_full_deal():
    lay = layout_from_code("GO1-C-ABCDEFG")
    back = parse_layout_text(lay.to_text(), lay.name)
    assert back.columns == lay.columns and back.discard == lay.discard and back.stock == lay.stock
    assert back.rules == CLASSIC


def test_text_round_trip_with_two_jokers():
    lay = layout_from_code("GO1-E-AAAAAAB", get_rules("easy+jokers2"))
    back = parse_layout_text(lay.to_text())
    assert back.seen_cards() == lay.seen_cards()


def test_column_key_spellings_and_comments():
    text = """
    # an empty table: every card but the discard in the stock, order unknown
    discard: AC   # comments may follow an item
    stock: ...
    col 1:
    column 2:
    Col 3:
    4:
    COLUMN 5:
    col 6:
    col 7:
    """
    lay = parse_layout_text(text)
    assert lay.columns == ((),) * 7 and len(lay.stock) == 51 and lay.discard == parse_card("AC")


def test_black_hole_solve_board_and_pysol_deal(data_dir):
    board = read_layout_file(data_dir / "pysol-golf-1.board")
    assert board.stock[0] == parse_card("8H") and board.discard == parse_card("TH")
    assert board.columns[0] == tuple(parse_cards("JD 5H KH AS 4H"))  # free card last
    assert board.stock_known and len(board.stock) == 16
    pysol = layout_from_pysol(1)  # dealt by pysol-cards, must equal the reference board
    assert (pysol.columns, pysol.discard, pysol.stock) == (board.columns, board.discard, board.stock)


def test_load_layout_sources_and_rules(data_dir):
    assert load_layout(code="GO1-C-AAAAAAB").rules == CLASSIC
    assert load_layout(layout_file=str(data_dir / "seed000_start.txt")).rules == EASY  # silent source
    assert load_layout(code="GO1-E-AAAAAAB", rules=CLASSIC).rules == CLASSIC
    with pytest.raises(LayoutError, match="exactly one"):
        load_layout()
    with pytest.raises(LayoutError, match="exactly one"):
        load_layout(code="GO1-E-AAAAAAB", pysol=1)
    with pytest.raises(LayoutError, match="'X'"):
        load_layout(code="GO1-X-AAAAAAB")  # a bad code reaches the user as a layout error


def test_forget_stock_keeps_only_the_first_cards():
    lay = layout_from_code("GO1-E-AAAAAAB")
    part = lay.forget_stock(keep=2)
    assert part.stock[:2] == lay.stock[:2] and part.stock[2:] == (None,) * 14


@pytest.mark.parametrize("change, words", [
    (("9C", "9X"), "'9X'"),                       # an invalid card is named
    (("5C", "8S"), "duplicate card 8S"),          # a duplicate is named, with both places
    (("stock: 8S ...", "stock: 8S"), "missing cards"),
    (("discard: AC\n", ""), "discard"),
    (("7: 3S 7S 3H 9S 5C\n", ""), "column 7 is missing"),
    (("1: 6C 5S QS TS 6H", "1: 6C 5S QS TS 6H 2H"), "column 1 has 6 cards"),
    (("stock: 8S ...", "stock: 8S ... ?"), "'...' must be the last"),
    (("discard: AC", "discard: AC\nfoo: 1"), "unknown key 'foo'"),
    (("discard: AC", "rules: bogus\ndiscard: AC"), "unknown rule set"),
    # a card left out between commas (was: skipped, and with "stock: 8S ..." the card went
    # to the unknown stock without a word)
    (("1: 6C 5S QS TS 6H", "1: 6C,,5S,QS,TS,6H"), r"line \d+ \(column 1\) has an empty card"),
    (("stock: 8S ...", "stock: 8S, , ..."), r"\(stock\) has an empty card"),
])
def test_bad_layouts_name_the_problem(data_dir, change, words):
    text = (data_dir / "seed000_start.txt").read_text(encoding="utf-8").replace(*change)
    with pytest.raises(LayoutError, match=words):
        parse_layout_text(text)


@pytest.mark.parametrize("key", ["1" * 5000, "col " + "1" * 5000])
def test_a_column_key_of_thousands_of_digits_is_an_unknown_key(key):
    # was: "internal error: ValueError: Exceeds the limit (4300 digits) for integer string conversion"
    with pytest.raises(LayoutError, match=r"line 2: unknown key '(col )?1111.*\(5,00\d characters\)"):
        parse_layout_text(f"discard: AC\n{key}: AS\n")


def test_cards_may_be_comma_separated(data_dir):
    text = (data_dir / "seed000_start.txt").read_text(encoding="utf-8")
    assert parse_layout_text(text.replace("1: 6C 5S QS TS 6H", "1: 6C, 5S,QS , TS,6H")) == parse_layout_text(text)


def test_missing_cards_are_listed():
    lay = layout_from_code("GO1-E-AAAAAAB")
    with pytest.raises(LayoutError) as e:
        make_layout(lay.columns, lay.discard, lay.stock[:-1])
    assert card_str(lay.stock[-1]) in str(e.value)


def test_unreadable_file_is_a_layout_error(tmp_path):
    with pytest.raises(LayoutError, match="cannot read"):
        read_layout_file(tmp_path / "nope.txt")
    p = tmp_path / "bin.txt"
    p.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(LayoutError, match="UTF-8"):
        read_layout_file(p)


def test_rules_given_apart_from_the_text_decide_what_its_dots_stand_for(data_dir):
    """``--rules easy+jokers1`` on a layout file whose stock ends in "..." was applied after
    the "..." had been counted for Easy: a 16-card stock without the joker, which
    ``odds`` then refused ("a full deal with 15 unknown stock cards must leave exactly that
    many cards unseen, not 16") and ``deal`` showed without a word. The same rules on the
    file's own ``rules:`` line gave 17 cards."""
    text = (data_dir / "seed000_start.txt").read_text(encoding="utf-8")
    jokers1 = get_rules("easy+jokers1")
    on_the_line = parse_layout_text("rules: easy+jokers1\n" + text)
    assert len(on_the_line.stock) == 17
    assert parse_layout_text(text, rules=jokers1) == on_the_line
    assert load_layout(layout_file=str(data_dir / "seed000_start.txt"), rules=jokers1).stock == on_the_line.stock
    # and the other way: rules given apart override the line's, for the dots too
    assert len(load_layout(layout_file=str(data_dir / "seed000_start.txt"), rules=EASY).stock) == 16
    assert parse_layout_text("rules: easy+jokers1\n" + text, rules=EASY).stock == parse_layout_text(text).stock


def test_a_full_deal_given_other_rules_is_checked_as_if_they_were_its_own():
    """A whole 52-card deal under ``--rules easy+jokers1`` (a layout file, a PySol deal) was
    solved as it was and labelled +jokers1, though the same file with that ``rules:`` line
    is refused: "missing cards: JK"."""
    text = layout_from_code("GO1-E-AAAAAAB").to_text().replace("rules: easy\n", "")
    jokers1 = get_rules("easy+jokers1")
    with pytest.raises(LayoutError, match="missing cards: JK"):
        parse_layout_text("rules: easy+jokers1\n" + text)
    with pytest.raises(LayoutError, match="missing cards: JK"):
        parse_layout_text(text).with_rules(jokers1)
    with pytest.raises(LayoutError, match="PySol FC's Golf deals have no jokers: --rules easy\\+jokers1 needs"):
        load_layout(pysol=1, rules=jokers1)  # was: "missing cards: JK", which left a user guessing
    # a deal with its joker, given rules without one: too many cards, not a 17-card stock
    with pytest.raises(LayoutError, match="too many cards|joker"):
        layout_from_code("GO1-E-AAAAAAB", jokers1).forget_stock().with_rules(EASY)


def test_a_stock_of_more_unknown_cards_than_are_unseen_is_refused(data_dir):
    """30 '?' in the stock of a game in progress were shown by ``deal`` and ``play`` as a
    30-card stock; only ``odds`` and ``hint --fair`` refused it. As many '?' as cards are
    unseen is refused too: the stock holds at most the 16 cards Easy deals to it."""
    text = (data_dir / "seed000_move35.txt").read_text(encoding="utf-8")
    lay = parse_layout_text(text)
    unseen = len(lay.unseen_cards())
    for n in (unseen + 1, unseen, EASY.stock_size + 1):
        many = " ".join(["?"] * n)
        bad = "\n".join(f"stock: {many}" if ln.lower().startswith("stock:") else ln for ln in text.splitlines())
        with pytest.raises(LayoutError, match=f"the stock has {n} cards, but rules 'easy' deal only 16"):
            parse_layout_text(bad).with_rules(EASY)
    most = bad.replace(many, " ".join(["?"] * EASY.stock_size))
    assert len(parse_layout_text(most).with_rules(EASY).stock) == EASY.stock_size


@pytest.mark.parametrize("extra, words", [
    ("Talon: 8H\n", "talon is given twice"),
    ("Foundations: 4H\n", "foundation is given twice"),
])
def test_a_black_hole_solve_boards_talon_or_foundation_twice_is_refused(data_dir, extra, words):
    """The golfsolve format refuses a key given twice; a board's second Talon: line
    replaced the first without a word: with a column short (a game in progress) the
    fifteen other talon cards were gone and another deal was solved."""
    text = (data_dir / "pysol-golf-1.board").read_text(encoding="utf-8").replace("JD 5H KH AS 4H", "JD 5H KH AS")
    parse_layout_text(text)  # a game in progress: the board reads
    with pytest.raises(LayoutError, match=words):
        parse_layout_text(text + extra)


def test_the_second_joker_under_rules_of_one_is_refused():
    """A layout of one joker written JK2 under +jokers1 was solved as it was, and odds said
    "a full deal with 17 unknown stock cards must leave exactly that many cards unseen, not
    18"; with a stock of "..." the deal then had "too many cards: ... 54"."""
    text = layout_from_code("GO1-E-AAAAAAB", get_rules("easy+jokers1")).to_text().replace("JK", "JK2")
    with pytest.raises(LayoutError, match="JK2, the second joker, .* deal one joker"):
        parse_layout_text(text)
    assert parse_layout_text(text.replace("easy+jokers1", "easy+jokers2").replace("stock: KD", "stock: JK KD"))


def test_talon_in_golfsolves_format_and_rules_on_a_board(data_dir):
    """The golfsolve format takes ``talon:`` for ``stock:`` (as it takes ``foundation:`` for
    ``discard:``), but any Talon: line made the whole file a black-hole-solve board: its
    ``rules: easy`` line was then column 1 ("line 2 (column 1): unknown card 'rules'"). And
    a board given a ``rules:`` line had it read as an eighth column."""
    text = layout_from_code("GO1-C-AAAAAAB").to_text()
    assert parse_layout_text(text.replace("stock:", "Talon:")) == parse_layout_text(text)
    board = (data_dir / "pysol-golf-1.board").read_text(encoding="utf-8")
    ruled = parse_layout_text(board + "rules: classic\n")
    assert ruled.rules == CLASSIC and ruled.stock == parse_layout_text(board).stock
    with pytest.raises(LayoutError, match="rules is given twice"):
        parse_layout_text(board + "rules: classic\nrules: easy\n")


def _after_draws(k: int, stock: str) -> str:
    """GO1-E-AAAAAAB's layout file after ``k`` draws and no remove: the k-th stock card on
    the discard, the stock written as ``stock`` ("?" for one ? per card left, else the cards)."""
    lay = layout_from_code("GO1-E-AAAAAAB")
    rest = lay.stock[k:]
    text = " ".join("?" for _ in rest) if stock == "?" else " ".join(card_str(c) for c in rest)
    lines = lay.to_text().splitlines()
    return "\n".join(f"discard: {card_str(lay.stock[k - 1])}" if ln.startswith("discard:") else
                     f"stock: {text}" if ln.startswith("stock:") else ln for ln in lines) + "\n"


@pytest.mark.parametrize("k", [1, 3])
def test_a_game_after_draws_only_is_written_with_a_stock_of_question_marks(k):
    """was: every column whole, so taken for a full deal: "missing cards: AC (a full deal
    shows 52 cards, this one 51)", a card that was not missing, and no way to write the position."""
    from golfsolve.fair.orders import unknown_pool

    lay = parse_layout_text(_after_draws(k, "?"))
    assert len(lay.stock) == 16 - k and all(c is None for c in lay.stock)
    positions, pool = unknown_pool(lay)
    # the cards under the discard's top are unseen as well: the stock's places draw from them too
    assert len(positions) == 16 - k and len(pool) == 16


def test_a_short_stock_given_in_full_on_a_whole_table_is_still_refused_and_says_how_to_write_a_game():
    with pytest.raises(LayoutError, match=r"missing cards: .*this one 51; a game after draws.* one \? per card left"):
        parse_layout_text(_after_draws(1, "cards"))


def test_odds_and_the_fair_hint_answer_a_game_after_draws_from_its_layout_file(run_cli, tmp_path):
    import json

    f = tmp_path / "after2.txt"
    f.write_text(_after_draws(2, "?"))
    odds = run_cli(["odds", "--layout", str(f), "--games", "4", "--json"])
    assert odds.exit_code == 0, odds.stderr
    j = json.loads(odds.stdout)
    assert j["game_over"] is False and 0 <= j["fair"]["chance"] <= j["clairvoyant"]["chance"] <= 1
    hint = run_cli(["hint", "--fair", "--player", "fast", "--layout", str(f), "--json"])
    assert hint.exit_code == 0, hint.stderr
    assert json.loads(hint.stdout)["best"]["move"] in {"d", *"1234567"}


CODE = "GO1-E-AAAAAAB"


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
    L = layout_from_code(CODE)
    fields = dict(columns=L.columns, discard=L.discard, stock=L.stock, rules=L.rules, name=L.name,
                  deal_number=L.deal_number)
    fields.update(change(L))
    with pytest.raises(error, match="^" + re.escape(words)):
        Layout(**fields)


def test_a_layout_built_by_hand_keeps_plain_ints_and_tuples():
    L = layout_from_code(CODE)
    lay = Layout([list(np.array(c, dtype=np.int64)) for c in L.columns], np.int8(L.discard),
                 list(np.array(L.stock, dtype=np.int16)), L.rules, L.name, np.int64(1))
    assert lay == L and hash(lay) == hash(L)
    assert type(lay.columns) is tuple and all(type(c) is tuple for c in lay.columns)
    assert all(type(c) is int for c in lay.seen_cards()) and type(lay.deal_number) is int
    partial = Layout(L.columns, None, (None,) * 16)  # an empty discard, an unknown stock: still a layout
    assert partial.discard is None and not partial.stock_known


@pytest.mark.parametrize("keep, error, words", [
    (-1, InputError, "keep is how many stock cards stay known, a whole number from 0; not -1"),  # was: a stock of
    (1.5, InputError, "keep is how many stock cards stay known, a whole number from 0; not 1.5"),  # 32; TypeError
    (None, InputError, "keep is how many"),
    (True, InputError, "keep is how many"),
])
def test_forget_stock_keeps_a_count_of_the_stock_it_has(keep, error, words):
    with pytest.raises(error, match="^" + re.escape(words)):
        layout_from_code(CODE).forget_stock(keep)


def test_forget_stock_takes_numpy_counts_and_keeps_the_stock_size():
    L = layout_from_code(CODE)
    assert L.forget_stock(np.int64(3)).stock == L.stock[:3] + (None,) * 13
    assert L.forget_stock(16) == L == L.forget_stock(99) and L.forget_stock().stock == (None,) * 16


@pytest.mark.parametrize("name", ["odd\n1: AS", "a\rrules: classic", "b\u2028discard: AC", "c\x0bstock: ..."])
def test_a_layout_named_with_a_line_break_still_writes_a_file_that_reads_back(name, tmp_path, run_cli):
    # was: the name went into the '# name' comment as it was, and its second line was read
    # back as a line of the layout ("column 1 is given twice", or other rules); a layout file
    # whose own name holds a line break did the same through 'deal --layout F --text'
    from golfsolve.solitaire.layout import parse_layout_text

    L = layout_from_code(CODE)
    named = Layout(L.columns, L.discard, L.stock, L.rules, name)
    back = parse_layout_text(named.to_text())
    assert (back.columns, back.discard, back.stock, back.rules) == (L.columns, L.discard, L.stock, L.rules)
    f = tmp_path / name.replace("\x0b", "v")
    f.write_text(L.to_text())
    r = run_cli(["deal", "--layout", str(f), "--text"])
    assert r.exit_code == 0, r.stderr
    again = parse_layout_text(r.stdout)
    assert (again.columns, again.discard, again.stock, again.rules) == (L.columns, L.discard, L.stock, L.rules)


@pytest.mark.parametrize("args", [["deal", "--pysol", "5", "--json"], ["solve", "--pysol", "5", "--json"],
                                  ["solve", "--pysol", "5-6", "--json"]])
def test_a_pysol_deal_under_an_empty_start_starts_with_an_empty_discard(run_cli, args):
    """was: ``--pysol 5 --rules easy+empty`` kept PySol's foundation card on the discard (16
    cards in the stock), said "empty starting discard" above it, and solved the plain game"""
    r = run_cli([*args, "--rules", "easy+empty"])
    assert r.exit_code == 0, r.stderr
    first = json.loads(r.stdout.splitlines()[0]) if "5-6" in args else json.loads(r.stdout)
    if args[0] == "deal":
        plain = layout_from_pysol(5)
        assert first["discard"] is None and len(first["stock"]) == 17
        assert first["stock"][0] == json.loads(run_cli(["deal", "--pysol", "5", "--json"]).stdout)["discard"]
        assert plain.discard is not None  # the library's plain deal is PySol's own
    else:
        assert first["rules"] == "easy+empty"
        lay = load_layout(pysol=5, rules=get_rules("easy+empty"))
        assert lay.discard is None and len(lay.stock) == 17


def test_the_library_deals_a_pysol_deal_under_rules_as_the_commands_do():
    empty = get_rules("classic+empty")
    lay = layout_from_pysol(7, empty)
    plain = layout_from_pysol(7)
    assert lay.rules == empty and lay.discard is None and lay.stock == (plain.discard,) + plain.stock
    assert layout_from_pysol(7, get_rules("classic")).discard == plain.discard
    with pytest.raises(TypeError, match="^rules must be a Rules or None"):
        layout_from_pysol(7, "classic")


DEAL = "GO1-E-AAAAAAB"


def test_forget_stock_of_a_huge_count_keeps_the_whole_stock():
    """was: layout.forget_stock(2**63) failed as "OverflowError: cannot fit 'int' into an index-sized
    integer"; keeping more cards than the stock holds keeps them all, as forget_stock(99) does."""
    lay = layout_from_code(DEAL)
    assert lay.forget_stock(2**63) == lay.forget_stock(99) == lay


@pytest.mark.parametrize("jokers, error", [(3, InputError), (-1, InputError), ("1", InputError), (True, InputError)])
def test_a_layouts_unseen_cards_are_of_a_deck_there_is(jokers, error):
    """was: unseen_cards(3) listed card id 54, which no deck has; unseen_cards(-1) left out
    the King of Spades (and every other card: []); '1' was a TypeError about '+'"""
    lay = layout_from_code("GO1-E-AAAAAAB")
    with pytest.raises(error, match="jokers must be"):
        lay.unseen_cards(jokers)
    assert lay.unseen_cards(2) == [52, 53] and lay.forget_stock(0).unseen_cards(0) == sorted(lay.stock)


@pytest.mark.parametrize("path", ["0", "1", "True", "b'deal.txt'"])
def test_read_layout_file_takes_a_path_not_a_file_descriptor(path):
    """was: read_layout_file(0) read all of stdin as a layout and closed it (open() takes a
    whole number as a file descriptor), then failed in pathlib ('expected str, bytes or
    os.PathLike object, not int'); read_layout_file(1) closed stdout"""
    r = run_python("import sys\n"
                "from golfsolve.solitaire.layout import read_layout_file\n"
                f"try:\n    read_layout_file({path})\n"
                "except TypeError as e:\n    print('refused:', e)\n"
                "print('stdin still open:', not sys.stdin.closed and sys.stdin.read() == 'rules: easy\\n')\n",
                stdin=b"rules: easy\n")
    assert r.returncode == 0, r.stderr
    assert "refused: path must be a layout file's path" in r.stdout.decode(), r.stdout
    assert "stdin still open: True" in r.stdout.decode(), r.stdout


def test_read_layout_file_checks_its_rules_before_reading(tmp_path):
    from golfsolve.solitaire.layout import read_layout_file

    with pytest.raises(TypeError, match="^rules must be a Rules or None"):
        read_layout_file(tmp_path / "absent.txt", rules="classic")  # not "cannot read layout file"


_EMPTY_COLUMNS = "".join(f"{i}:\n" for i in range(2, 8))


@pytest.mark.parametrize("rules_line, stock, error", [
    # was: "holds 2 joker(s) but rules 'easy+jokers1' allow 1 (add +jokers1 or +jokers2 to the rules)":
    # +jokers1 is given already, and easy+jokers1+jokers2 is refused as contradictory switches
    ("rules: easy+jokers1\n", "JK JK2 ...", "the layout holds 2 jokers but rules 'easy+jokers1' allow 1 "
                                           "(use +jokers2 instead of +jokers1)"),
    # was: "(add +jokers1 or +jokers2 ...)", where +jokers1 deals one joker of the two
    ("", "JK JK2 ...", "the layout holds 2 jokers but rules 'easy' allow 0 (add +jokers2 to the rules)"),
    ("", "JK ...", "the layout holds 1 joker but rules 'easy' allow 0 (add +jokers1 or +jokers2 to the rules)"),
])
def test_a_layout_with_more_jokers_than_its_rules_says_which_switch_deals_them(run_cli, tmp_path, monkeypatch,
                                                                                 rules_line, stock, error):
    monkeypatch.chdir(tmp_path)  # a short name: a long path is clipped in the message
    Path("jokers.txt").write_text(f"{rules_line}discard: AC\nstock: {stock}\n1:\n{_EMPTY_COLUMNS}")
    line = one_line_error(run_cli(["deal", "--layout", "jokers.txt"]))
    assert line == f"golfsolve: layout file 'jokers.txt': {error}", line
