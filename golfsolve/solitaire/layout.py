"""Golf solitaire layouts: the cards on the table, read from codes, files and PySol.

A :class:`Layout` is a position: seven columns (covered top card first, free card last),
the discard pile's top card (``None`` when empty) and the stock in drawing order, where
``None`` stands for a card whose identity is unknown (a partial layout).

Text format (``golfsolve`` layout files), one item a line, ``#`` starts a comment::

    rules: easy                 # optional: a rule set name as --rules takes it
    discard: AC                 # or "-" for an empty discard
    stock: 8S ...               # drawing order; "?" is one unknown card,
                                # "..." all the cards not shown anywhere else
    1: 6C 5S QS TS 6H           # column 1, covered card first, free card last
    ...
    7: 3S 7S 3H 9S 5C

Column lines may also be written ``col 1:`` or ``column 1:``. The board format of
``black-hole-solve`` (``Talon:``, ``Foundations:`` and seven column lines) is read too.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional, Sequence

from ..cards import N_CARDS_MAX, N_STANDARD, CardError, card_str, cards_str, parse_card
from ..errors import InputError, clip, clip_path
from ..inputs import ascii_lower, expect, flag, is_whole_number, split_items, whole_count
from ..text import pad, plural
from .dealcode import DealCodeError, deal_deck, deal_number, format_code, parse_code
from .rules import EASY, Rules, RulesError, get_rules, rules_arg

N_COLUMNS = 7
COLUMN_HEIGHT = 5
N_TABLEAU = N_COLUMNS * COLUMN_HEIGHT


class LayoutError(InputError):
    """A layout is malformed; the message names the card or line at fault."""


@dataclass(frozen=True)
class Layout:
    """A Golf solitaire position.

    ``stock`` lists the stock in drawing order; ``None`` entries are unknown cards.
    ``rules`` is the rule set the source asked for (a deal code's letter, a layout
    file's ``rules:`` line), or ``None`` when the source is silent.
    """

    columns: tuple[tuple[int, ...], ...]
    discard: Optional[int]
    stock: tuple[Optional[int], ...]
    rules: Optional[Rules] = None
    name: str = ""
    deal_number: Optional[int] = field(default=None, compare=False)

    def __post_init__(self) -> None:
        """A layout built by hand is checked as :func:`make_layout` checks one's cards: seven
        columns of at most five, card ids 0 to 53 each shown once, ``rules`` a Rules or None
        (the solver would answer 'won' for a deal holding a card twice or six columns, and fail
        on a card id 99 as an IndexError). Fields are kept as tuples of plain
        ints, so a layout of NumPy integers or lists equals and hashes as the same layout."""
        columns, discard, stock = _checked_cards(self.columns, self.discard, self.stock)
        if rules_arg(self.rules) is not None:  # its jokers and empty discard, as make_layout checks them
            _check_rules([c for col in columns for c in col] + ([] if discard is None else [discard])
                         + [c for c in stock if c is not None], discard, columns, self.rules, stock)
        expect(self.name, str, "a layout's name", "text, e.g. 'my deal'")
        number = self.deal_number
        if number is not None:
            if not is_whole_number(number) or number < 0:
                raise LayoutError(f"a deal number is a whole number from 0, or None; not {repr(number)[:40]}")
            number = operator.index(number)
        for key, value in (("columns", columns), ("discard", discard), ("stock", stock), ("deal_number", number)):
            object.__setattr__(self, key, value)

    # -- facts ---------------------------------------------------------------
    @property
    def stock_known(self) -> bool:
        """True when every stock card's identity and place are known."""
        return all(c is not None for c in self.stock)

    @property
    def known_stock_prefix(self) -> tuple[int, ...]:
        """The stock cards known from the top down, up to the first unknown place."""
        out = []
        for c in self.stock:
            if c is None:
                break
            out.append(c)
        return tuple(out)

    @property
    def tableau_count(self) -> int:
        """Cards left on the table."""
        return sum(len(c) for c in self.columns)

    def seen_cards(self) -> list[int]:
        """Every card whose place is known: tableau, discard and known stock cards."""
        out = [c for col in self.columns for c in col]
        if self.discard is not None:
            out.append(self.discard)
        out.extend(c for c in self.stock if c is not None)
        return out

    def unseen_cards(self, jokers: int = 0) -> list[int]:
        """Cards of a deck with ``jokers`` jokers that this layout does not show."""
        # a deck holds 0, 1 or 2 jokers: 3 would count a card id 54 that no deck has, -1 leave out the King of Spades
        jokers = whole_count(jokers, "jokers", 0, 2)
        seen = set(self.seen_cards())
        return [c for c in range(N_STANDARD + jokers) if c not in seen]

    def with_rules(self, rules: Rules) -> "Layout":
        """The same layout under ``rules``, checked as :func:`make_layout` checks a layout
        given its rules: its jokers, an empty discard, a whole deal's count of cards (a
        52-card deal under +jokers1 is refused as "missing cards: JK", as the same layout
        with that ``rules:`` line is, not answered as it was)."""
        expect(rules, Rules, "rules", "a Rules, e.g. get_rules('classic')")  # a name would fail as an AttributeError
        return make_layout(self.columns, self.discard, self.stock, rules, self.name, self.deal_number)

    def forget_stock(self, keep: int = 0) -> "Layout":
        """The same position with the stock order unknown beyond its first ``keep`` cards."""
        if not is_whole_number(keep) or keep < 0:  # type: ignore[operator]
            # -1 would make a stock of 32 cards (15 known, 17 unknown), 1.5 fail on a slice
            raise LayoutError(f"keep is how many stock cards stay known, a whole number from 0; not {repr(keep)[:40]}")
        # 2**63 would fail on the slice as "cannot fit 'int' into an index-sized integer"
        keep = min(operator.index(keep), len(self.stock))  # type: ignore[arg-type]
        stock = tuple(self.stock[:keep]) + (None,) * (len(self.stock) - keep)
        return trusted_layout(self.columns, self.discard, stock, self.rules, self.name, self.deal_number)

    # -- output --------------------------------------------------------------
    def to_text(self) -> str:
        """The layout in golfsolve's text format (reads back to an equal layout)."""
        lines = []
        if self.name:
            # on one line: a name's line break (a file name may hold one) was read back as a layout line
            lines.append("# " + " ".join(self.name.splitlines()))
        if self.rules is not None:
            lines.append(f"rules: {self.rules.name}")
        lines.append("discard: " + ("-" if self.discard is None else card_str(self.discard)))
        lines.append("stock: " + " ".join("?" if c is None else card_str(c) for c in self.stock))
        for i, col in enumerate(self.columns):
            lines.append(f"{i + 1}: {cards_str(col)}".rstrip())
        return "\n".join(lines) + "\n"

    def render(self, symbols: bool = True) -> str:
        """A picture for a terminal: columns side by side, free cards in the last row."""
        symbols = flag(symbols, "symbols")  # "no" would draw the suit symbols
        w = 4
        head = "  ".join(f"{i + 1:^{w}}" for i in range(N_COLUMNS))
        rows = []
        height = max((len(c) for c in self.columns), default=0)
        for r in range(height):
            cells = []
            for col in self.columns:
                cells.append(pad(card_str(col[r], symbols), w, "^") if r < len(col) else " " * w)
            rows.append("  ".join(cells).rstrip())
        top = "--" if self.discard is None else card_str(self.discard, symbols)
        unknown = sum(1 for c in self.stock if c is None)
        stock = f"{len(self.stock)} cards"
        if unknown:
            stock += f" ({unknown} of unknown order)"
        nxt = self.stock[0] if self.stock else None
        lines = [head, *rows, "", f"discard: {top}    stock: {stock}"]
        if nxt is not None and unknown < len(self.stock):
            lines[-1] += f"    next: {card_str(nxt, symbols)}"
        return "\n".join(lines)

    def to_json(self) -> dict:
        """The layout as ``golfsolve deal --json`` prints it (cards as text, None where unknown),
        which leads with the name again as ``deal``, the key every answer gives it under."""
        return {
            "name": self.name,
            "deal_number": self.deal_number,
            "rules": None if self.rules is None else self.rules.name,
            "columns": [[card_str(c) for c in col] for col in self.columns],
            "discard": None if self.discard is None else card_str(self.discard),
            "stock": [None if c is None else card_str(c) for c in self.stock],
            "stock_known": self.stock_known,
        }

    as_json = to_json  # the name golfsolve.fair's results use: either works


# ---------------------------------------------------------------------------
# construction and validation
# ---------------------------------------------------------------------------
def _check_rules(seen: Iterable[int], discard: Optional[int], columns: Sequence[Sequence[int]], rules: Rules,
                 stock: Sequence[Optional[int]] = ()) -> None:
    """A layout's cards must fit its rules: no more jokers than they deal, an empty discard
    at the start only under an empty-start rule, and no more stock cards than the rules deal
    to the stock (``stock``). Checked whenever rules are set, also when ``--rules``
    overrides what a layout file says."""
    jokers = sum(1 for c in seen if c >= N_STANDARD)
    if jokers > rules.jokers:
        # two jokers need +jokers2: "add +jokers1" would be refused as the switch given already, or deal too few
        advice = ("add +jokers1 or +jokers2 to the rules" if jokers == 1 else
                  "add +jokers2 to the rules" if not rules.jokers else "use +jokers2 instead of +jokers1")
        raise LayoutError(f"the layout holds {plural(jokers, 'joker')} but rules {rules.name!r} allow {rules.jokers} "
                          f"({advice})")
    if rules.jokers == 1 and any(c > N_STANDARD for c in seen):
        # solve would take it, while odds counts one card too many ("not 18", "this one has 54")
        raise LayoutError(f"the layout holds {card_str(N_STANDARD + 1)}, the second joker, but rules {rules.name!r} "
                          f"deal one joker: write it {card_str(N_STANDARD)} (or add +jokers2 for two)")
    if discard is None and not rules.empty_start and all(len(col) == COLUMN_HEIGHT for col in columns):
        raise LayoutError("the discard is empty but the rules do not start with an empty discard (add +empty)")
    gone = N_TABLEAU - sum(len(col) for col in columns)
    if gone == N_TABLEAU:
        return  # a cleared table is won, whatever the stock and the discard (a layout of a won game may say "...")
    if discard is None and not rules.empty_start:
        # every card removed goes onto the discard pile, so no game of these rules reaches this
        # position, and nothing fits an empty discard under them, so every answer would be 0%. (An
        # empty-start rule set takes any card on it, and its empty discard stands for a start.)
        raise LayoutError(f"the discard is empty but {plural(gone, 'card')} {'has' if gone == 1 else 'have'} left "
                          "the table, onto the discard pile: give the discard's top card")
    if len(stock) > rules.stock_size:
        # the stock only shrinks, so no game reaches a longer one, and its fair odds are those of
        # a game nobody can play
        hint = (" (in a game in progress, write one ? per card left in the stock: '...' stands for every card "
                "not shown, the cards under the discard's top too)" if None in stock else "")
        raise LayoutError(f"the stock has {len(stock)} cards, but rules {rules.name!r} deal only {rules.stock_size} "
                          f"to the stock{hint}")


def make_layout(
    columns: Sequence[Sequence[int]],
    discard: Optional[int],
    stock: Sequence[Optional[int]],
    rules: Optional[Rules] = None,
    name: str = "",
    deal_number: Optional[int] = None,
) -> Layout:
    """Build and validate a layout; raises LayoutError naming the fault."""
    lay = Layout(columns, discard, stock, rules, name, deal_number)  # checks the cards (see Layout)
    columns, discard, stock = lay.columns, lay.discard, lay.stock
    seen = set(lay.seen_cards())
    jokers = sum(1 for c in seen if c >= N_STANDARD)
    if rules is not None:  # the cards fit the rules (Layout checks that)
        # 30 '?' in a stock were shown by deal and play as a 30-card stock; only odds refused them
        unknown = sum(1 for c in stock if c is None)
        unseen = sum(1 for c in range(N_STANDARD + rules.jokers) if c not in seen)
        if unknown > unseen:
            raise LayoutError(f"the stock has {plural(unknown, 'unknown card')} but only {plural(unseen, 'card')} "
                              f"{'is' if unseen == 1 else 'are'} not shown elsewhere")
    deck_jokers = max(jokers, rules.jokers if rules else 0)
    full_deal = all(len(col) == COLUMN_HEIGHT for col in columns)
    if full_deal:
        total = len(seen) + sum(1 for c in stock if c is None)
        expected = N_STANDARD + deck_jokers
        # A game in progress after draws only (every column still whole) shows fewer: the cards
        # under the discard's top. With its stock written as '?', as the README says such a game
        # is written, they are unknown; with the stock given in full, a short one is a typo.
        drawn_only = total < expected and discard is not None and None in stock
        if total != expected and not drawn_only:
            missing = [c for c in range(expected) if c not in seen]
            if total < expected:
                after_draws = ("; a game after draws, whose drawn cards lie under the discard, writes its stock "
                               "as one ? per card left" if discard is not None else "")
                raise LayoutError(
                    f"missing cards: {cards_str(missing[: expected - total])} "
                    f"(a full deal shows {expected} cards, this one {total}{after_draws})"
                )
            raise LayoutError(f"too many cards: a full deal has {expected}, this one has {total}")
    return lay


def _is_sequence(value: object) -> bool:
    """A list, tuple or NumPy array (not text, a set or a dict, whose order or items are no cards)."""
    return not isinstance(value, (str, bytes, dict, set, frozenset)) and hasattr(value, "__len__") \
        and hasattr(value, "__getitem__")


def _checked_cards(columns: object, discard: object, stock: object
                   ) -> tuple[tuple[tuple[int, ...], ...], Optional[int], tuple[Optional[int], ...]]:
    """A layout's columns, discard and stock as tuples of plain ints, checked: seven columns
    of at most five cards, card ids 0 to 53, none shown twice; else the error names the place."""
    if not _is_sequence(columns):
        raise TypeError(f"a layout's columns must be a sequence of {N_COLUMNS} columns, each a sequence of card ids "
                        f"(covered card first), not {type(columns).__name__} {repr(columns)[:40]}")
    if not _is_sequence(stock):
        raise TypeError(f"a layout's stock must be a sequence of card ids (or None for an unknown card) in drawing "
                        f"order, not {type(stock).__name__} {repr(stock)[:40]}")
    if len(columns) != N_COLUMNS:
        raise LayoutError(f"a layout has {N_COLUMNS} columns, this one has {len(columns)}")
    for i, col in enumerate(columns):
        if not _is_sequence(col):
            raise TypeError(f"column {i + 1} must be a sequence of card ids (parse_card('AS') gives one), "
                            f"not {type(col).__name__} {repr(col)[:40]}")
        if len(col) > COLUMN_HEIGHT:
            raise LayoutError(f"column {i + 1} has {len(col)} cards; a column holds at most {COLUMN_HEIGHT}")
    seen: dict[int, str] = {}

    def note(card: object, where: str) -> int:
        # a library caller's 99, -1 or 0.5 (read as card 0) was taken as a card
        if not is_whole_number(card) or not 0 <= card < N_CARDS_MAX:  # type: ignore[operator]
            raise LayoutError(f"{where}: {card!r} is not a card id (0 to {N_CARDS_MAX - 1}; "
                              "parse_card('AS') gives one)")
        card = operator.index(card)  # type: ignore[arg-type]
        if card in seen:
            raise LayoutError(f"duplicate card {card_str(card)}: in {seen[card]} and in {where}")
        seen[card] = where
        return card

    cols = tuple(tuple(note(c, f"column {i + 1} row {r + 1}") for r, c in enumerate(col))
                 for i, col in enumerate(columns))
    top = None if discard is None else note(discard, "the discard")
    rest = tuple(None if c is None else note(c, f"stock position {k + 1}") for k, c in enumerate(stock))
    return cols, top, rest


def trusted_layout(columns: tuple[tuple[int, ...], ...], discard: Optional[int], stock: tuple[Optional[int], ...],
                   rules: Optional[Rules] = None, name: str = "", deal_number: Optional[int] = None) -> Layout:
    """A :class:`Layout` of parts taken from layouts already checked, built without checking
    them again: golfsolve's own inner loops (the fair player's sampled stock orders, the
    position after a move) build thousands. Not for a caller's own cards: use
    :class:`Layout` or :func:`make_layout`."""
    lay = object.__new__(Layout)
    for key, value in (("columns", columns), ("discard", discard), ("stock", stock), ("rules", rules),
                       ("name", name), ("deal_number", deal_number)):
        object.__setattr__(lay, key, value)
    return lay


def layout_rules(layout: object, rules: object = None) -> Rules:
    """The rules a call plays ``layout`` under: ``rules`` if given, else the layout's own,
    else Easy; checked to fit the layout's cards (its jokers, an empty discard) unless they
    are the layout's own, which it was checked against when made. Was: a layout holding a
    joker was solved, played and given odds under rules without jokers, the joker wild."""
    lay = layout_arg(layout)
    chosen = rules_arg(rules) or lay.rules or EASY
    if chosen != lay.rules:
        _check_rules(lay.seen_cards(), lay.discard, lay.columns, chosen, lay.stock)
    return chosen


def layout_from_deck(deck: Sequence[int], rules: Rules, name: str = "", deal_number: Optional[int] = None) -> Layout:
    """Lay out a dealt deck (see :mod:`dealcode` for the dealing order)."""
    expect(rules, Rules, "rules", "a Rules, e.g. get_rules('classic')")
    if len(deck) != N_STANDARD + rules.jokers:  # a short one would fail as an IndexError
        raise LayoutError(f"a dealt deck under rules {rules.name!r} holds {N_STANDARD + rules.jokers} cards, "
                          f"not {len(deck)}")
    cols = [[int(deck[r * N_COLUMNS + c]) for r in range(COLUMN_HEIGHT)] for c in range(N_COLUMNS)]
    rest = [int(c) for c in deck[N_TABLEAU:]]
    if rules.empty_start:
        return make_layout(cols, None, rest, rules, name, deal_number)
    return make_layout(cols, rest[0], rest[1:], rules, name, deal_number)


def layout_arg(layout: object, what: str = "layout") -> "Layout":
    """``layout`` if it is a :class:`Layout`; a :class:`TypeError` saying how to make one
    for anything else (a deal code given as text, a file name)."""
    return expect(layout, Layout, what, "a Layout, e.g. layout_from_code('GO1-E-AAAAAAB')")


def layout_from_number(number: int, rules: Rules = EASY, letter: str = "E") -> Layout:
    """The GO1 deal of a number under ``rules``."""
    expect(rules, Rules, "rules", "a Rules, e.g. get_rules('classic')")  # a name would fail as an AttributeError
    number = deal_number(number)  # a NumPy integer (a run folder's deal column) as a plain int
    deck = deal_deck(number, rules.jokers)
    return layout_from_deck(deck, rules, format_code(number, letter), number)


def layout_from_code(code: str, rules: Optional[Rules] = None) -> Layout:
    """The layout of a deal code; ``rules`` overrides the code's rule letter."""
    dc = parse_code(code)
    rules_arg(rules)
    return layout_from_number(dc.number, rules or dc.rules, dc.letter)


def _card(tok: str, where: str) -> int:
    try:
        return parse_card(tok)
    except CardError as e:
        raise LayoutError(f"{where}: {e}") from None


def _tokens(val: str, where: str) -> list[str]:
    # cards apart or comma-separated ("6C 5S", "6C, 5S"); "6C,,5S" is refused, not read as two cards
    return " ".join(split_items(val, where, "card", error=LayoutError)).split()


def parse_layout_text(text: str, name: str = "", rules: Optional[Rules] = None) -> Layout:
    """Read golfsolve's text format or a black-hole-solve board (detected by ``Talon:``).

    ``rules`` (a command's ``--rules``) overrides the text's ``rules:`` line, also for
    what a final ``...`` in the stock stands for: under +jokers1 the joker is one of them.
    """
    expect(text, str, "a layout's text", "text (read a file with read_layout_file)")
    override = rules_arg(rules)
    text = text.removeprefix("\ufeff")  # a byte-order mark from an editor
    lines = [(n + 1, ln.split("#", 1)[0].strip()) for n, ln in enumerate(text.splitlines())]
    lines = [(n, ln) for n, ln in lines if ln]
    if not lines:
        raise LayoutError("the layout is empty")
    if any(ascii_lower(ln).startswith("talon:") for _, ln in lines) and \
            not any(_own_key(ln) for _, ln in lines):  # a golfsolve file with talon: for stock: is not a board
        return _parse_bhs(lines, name, override)
    rules: Optional[Rules] = None
    discard: Optional[int] = None
    have_discard = False
    stock_tokens: Optional[list[str]] = None
    columns: dict[int, list[int]] = {}
    given: dict[str, int] = {}  # the line each of rules, discard and stock came on
    for n, ln in lines:
        if ":" not in ln:
            raise LayoutError(f"line {n}: expected 'key: value', got {clip(ln)}")
        key, val = (s.strip() for s in ln.split(":", 1))
        k = ascii_lower(key)
        what = {"foundation": "discard", "foundations": "discard", "talon": "stock"}.get(k, k)
        if what in ("rules", "discard", "stock"):
            if what in given:
                raise LayoutError(f"line {n}: {what} is given twice (first on line {given[what]})")
            given[what] = n
        if k == "rules":
            try:
                rules = get_rules(val)
            except RulesError as e:
                raise LayoutError(f"line {n}: {e}") from None
        elif k in ("discard", "foundation", "foundations"):
            have_discard = True
            toks = _tokens(val, f"line {n} (discard)")
            if len(toks) > 1:
                for t in toks:  # "10 S" is one card mistyped, not a pile
                    _card(t, f"line {n} (discard)")
                # the whole pile written out: "unknown card 'KS QS'" named no mistake
                raise LayoutError(f"line {n}: the discard shows its top card only, got {len(toks)} cards")
            discard = None if val in ("", "-", "--") else _card(val, f"line {n} (discard)")
        elif k in ("stock", "talon"):
            stock_tokens = _tokens(val, f"line {n} (stock)")
        else:
            ci = _column_key(key)
            if ci is None:
                raise LayoutError(f"line {n}: unknown key {clip(key)} (expected rules, discard, stock or a column 1-7)")
            if ci in columns:
                raise LayoutError(f"line {n}: column {ci} is given twice")
            columns[ci] = [_card(t, f"line {n} (column {ci})") for t in _tokens(val, f"line {n} (column {ci})")]
    missing_cols = [i for i in range(1, N_COLUMNS + 1) if i not in columns]
    if missing_cols:
        raise LayoutError(f"column {missing_cols[0]} is missing (a layout lists columns 1 to 7)")
    if not have_discard:
        raise LayoutError("no 'discard:' line (write 'discard: -' for an empty discard)")
    cols = [columns[i] for i in range(1, N_COLUMNS + 1)]
    if override is not None:
        rules = override
    stock: list[Optional[int]] = []
    rest = False
    for t in stock_tokens or []:
        if rest:
            raise LayoutError(f"stock: '...' must be the last item, found {clip(t)} after it")
        if t in ("...", "…"):
            rest = True
        elif t == "?":
            stock.append(None)
        else:
            stock.append(_card(t, "stock"))
    if rest:
        shown = set(c for col in cols for c in col) | set(c for c in stock if c is not None)
        if discard is not None:
            shown.add(discard)
        jokers = rules.jokers if rules else sum(1 for c in shown if c >= N_STANDARD)
        n_unseen = sum(1 for c in range(N_STANDARD + jokers) if c not in shown)
        n_unseen -= sum(1 for c in stock if c is None)
        stock.extend([None] * max(0, n_unseen))
    return make_layout(cols, discard, stock, rules, name)


def _column_key(key: str) -> Optional[int]:
    """The column a layout line's key names (``3``, ``col 3``, ``column 3``), else None."""
    num = ascii_lower(key).strip()
    for prefix in ("column", "col"):
        if num.startswith(prefix):
            num = num[len(prefix):].strip()
            break
    # a few digits at most: int() of thousands of digits raised ValueError (an internal error)
    return int(num) if num.isascii() and num.isdigit() and len(num) < 5 and 1 <= int(num) <= N_COLUMNS else None


def _own_key(line: str) -> bool:
    """Does ``line`` start with a key only golfsolve's format has (``stock:``, ``discard:``,
    a column's)? A black-hole-solve board's column lines are cards alone."""
    if ":" not in line:
        return False
    key = line.split(":", 1)[0]
    return ascii_lower(key).strip() in ("stock", "discard") or _column_key(key) is not None


def _parse_bhs(lines: list[tuple[int, str]], name: str, override: Optional[Rules] = None) -> Layout:
    stock: list[Optional[int]] = []
    discard: Optional[int] = None
    rules: Optional[Rules] = None
    cols: list[list[int]] = []
    given: dict[str, int] = {}  # a second Talon: line must not replace the first without a word

    def once(what: str, n: int) -> None:
        if what in given:
            raise LayoutError(f"line {n}: {what} is given twice (first on line {given[what]})")
        given[what] = n

    for n, ln in lines:
        low = ascii_lower(ln)
        if low.startswith("rules:"):  # as in golfsolve's format, not a column of cards
            once("rules", n)
            try:
                rules = get_rules(ln.split(":", 1)[1].strip())
            except RulesError as e:
                raise LayoutError(f"line {n}: {e}") from None
        elif low.startswith("talon:"):
            once("talon", n)
            stock = [_card(t, f"line {n} (talon)") for t in ln.split(":", 1)[1].split()]
        elif low.startswith("foundations:") or low.startswith("foundation:"):
            once("foundation", n)
            toks = ln.split(":", 1)[1].split()
            if len(toks) > 1:
                raise LayoutError(f"line {n}: the foundation shows one card, got {len(toks)}")
            discard = _card(toks[0], f"line {n} (foundation)") if toks and toks[0] not in ("-", "--") else None
        else:
            cols.append([_card(t, f"line {n} (column {len(cols) + 1})") for t in ln.replace(":", " ").split()])
    if len(cols) != N_COLUMNS:
        raise LayoutError(f"a black-hole-solve board has {N_COLUMNS} column lines, this one has {len(cols)}")
    return make_layout(cols, discard, stock, override or rules, name)


#: The most a layout reader takes in: a layout is a few hundred bytes, and a reader that
#: took everything would fill the memory given /dev/zero or ``yes |``.
MAX_LAYOUT_BYTES = 64 * 1024


def read_layout_file(path: str | Path, rules: Optional[Rules] = None) -> Layout:
    """Read a layout file (golfsolve text or black-hole-solve board); ``-`` reads stdin.

    At most :data:`MAX_LAYOUT_BYTES` are read; more is a :class:`LayoutError`. A UTF-8
    byte-order mark is accepted. ``rules`` overrides the file's (see :func:`parse_layout_text`).
    """
    import os
    import sys

    # open() takes a whole number as a file descriptor: read_layout_file(0) would read stdin
    # and close it, 1 close stdout; and rules are checked before anything is read
    expect(path, (str, os.PathLike), "path", "a layout file's path, e.g. 'deal.txt' or a Path, or '-' for stdin")
    rules_arg(rules)
    where = "stdin" if str(path) == "-" else clip_path(path)
    try:
        if str(path) == "-":
            stream = getattr(sys.stdin, "buffer", None)
            data = stream.read(MAX_LAYOUT_BYTES + 1) if stream is not None else \
                sys.stdin.read(MAX_LAYOUT_BYTES + 1).encode("utf-8")
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_LAYOUT_BYTES + 1)
    except OSError as e:
        raise LayoutError(f"cannot read layout file {where}: {e.strerror or e}") from None
    if len(data) > MAX_LAYOUT_BYTES:
        raise LayoutError(f"layout {'input' if str(path) == '-' else 'file'} {where} is larger than "
                          f"{MAX_LAYOUT_BYTES // 1024} KB; a layout is a few lines of cards")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LayoutError(f"layout {'input' if str(path) == '-' else 'file'} {where} is not UTF-8 text") from None
    if "\x00" in text:
        raise LayoutError(f"layout {'input' if str(path) == '-' else 'file'} {where} is not text (it holds NUL bytes)")
    if str(path) == "-":  # one stdin layout at most: the message needs no name
        return parse_layout_text(text, "stdin", rules)
    name = Path(path).name
    if name.isdigit() and Path(path).parent.name == "fd":  # '<(command)' passes /dev/fd/63: "63" names nothing
        name = str(path)
    # a file name's bytes that are not UTF-8 (kept as surrogates) went out raw in every answer,
    # and --json was then no UTF-8 text
    try:
        name = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate no byte gave (a library caller's own text)
        name = name.encode("utf-8", "replace").decode("utf-8")
    try:
        return parse_layout_text(text, name, rules)
    except LayoutError as e:
        raise layout_file_error(path, e) from None


def layout_file_error(path: str | Path, e: LayoutError) -> LayoutError:
    """``e``, found in the layout file ``path``, naming the file (solve and rate read several:
    say which one is wrong); stdin, one layout at most, is not named."""
    if str(path) == "-":
        return e
    return type(e)(f"layout file {clip_path(path)}: {e}")


def file_with_rules(path: str | Path, rules: Optional[Rules] = None) -> Layout:
    """The layout file ``path`` under ``rules`` (which override the file's), else its own
    ``rules:`` line, else Easy, as the commands play it; a :class:`LayoutError` names the file."""
    lay = read_layout_file(path, rules)
    try:
        return lay.with_rules(rules or lay.rules or EASY)
    except LayoutError as e:  # a joker, or an empty discard, that Easy does not have
        raise layout_file_error(path, e) from None


#: the largest PySol FC deal number pysol-cards deals (its seeds are 64-bit)
PYSOL_MAX = 2**64 - 1


def pysol_board(number: int) -> str:
    """PySol FC's Golf deal ``number`` as the board text pysol-cards prints."""
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    if not is_whole_number(number):  # a bool or a float would be dealt as some other number
        raise LayoutError(f"a PySol deal number must be a whole number, not {repr(number)[:40]}")
    if not 1 <= number <= PYSOL_MAX:
        raise LayoutError(f"PySol deal numbers are 1 to {PYSOL_MAX}, not {number}")
    return Game("golf", number, RandomBase.DEALS_PYSOL).calc_deal_string(number, CardRenderer(print_ts=True))


def layout_from_pysol(number: int, rules: Optional[Rules] = None) -> Layout:
    """PySol FC's Golf deal ``number`` (the boards black-hole-solve's verdicts refer to);
    with ``rules``, dealt under them: an empty-start rule set (``+empty``) starts with an
    empty discard, PySol's first foundation card leading the stock, as a deal code's
    discard card does. A PySol deal has 52 cards, so rules with jokers are refused, saying so."""
    rules_arg(rules)
    lay = parse_layout_text(pysol_board(number), f"pysol {number}")
    name = f"PySol Golf #{number}"
    if rules is None:
        return Layout(lay.columns, lay.discard, lay.stock, None, name, number)
    if rules.jokers:  # else a board without its joker reads "missing cards: JK"
        raise LayoutError(f"PySol FC's Golf deals have no jokers: --rules {rules.name} needs a deal code "
                          "or a layout file")
    if rules.empty_start:
        return make_layout(lay.columns, None, (lay.discard,) + lay.stock, rules, name, number)
    return make_layout(lay.columns, lay.discard, lay.stock, rules, name, number)


def load_layout(
    code: Optional[str] = None,
    layout_file: Optional[str] = None,
    pysol: Optional[int] = None,
    rules: Optional[Rules] = None,
) -> Layout:
    """The one entry point commands use: exactly one of code, file or PySol number.

    ``rules`` (when given) overrides what the source says; a layout whose source is
    silent gets Easy.
    """
    given = sum(x is not None for x in (code, layout_file, pysol))
    if given != 1:
        raise LayoutError("give exactly one of a deal code, --layout FILE or --pysol N")
    try:
        if code is not None:
            lay = layout_from_code(code, rules)
        elif layout_file is not None:
            lay = file_with_rules(layout_file, rules)
        else:
            lay = layout_from_pysol(int(pysol), rules)
    except DealCodeError as e:
        raise LayoutError(str(e)) from None
    if rules is not None:
        lay = lay.with_rules(rules)
    elif lay.rules is None:
        lay = lay.with_rules(EASY)
    return lay


__all__ = [
    "Layout",
    "LayoutError",
    "make_layout",
    "layout_rules",
    "layout_from_code",
    "layout_from_number",
    "layout_from_pysol",
    "layout_from_deck",
    "parse_layout_text",
    "read_layout_file",
    "file_with_rules",
    "load_layout",
    "pysol_board",
]
