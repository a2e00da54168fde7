"""Grid Golf rules: one immutable value that every other grid module reads.

The default rule set is :data:`DEFAULT`; a Danish rule text ("Golf regler") adds options,
collected in the ``danish`` preset. A rule set can be written as a spec string,
``"default+putt+knock10"``, which :func:`parse_rules` reads.
"""

from __future__ import annotations

import operator
from dataclasses import asdict, dataclass, replace
from types import MappingProxyType
from typing import Any, Mapping, Optional

import numpy as np

from ..cards import JOKERS, N_CARDS_MAX, N_STANDARD, rank_of
from ..errors import InputError, clip
from ..inputs import ascii_lower, expect, is_whole_number
from ..text import plural

#: Grid size -> (rows, columns).
GRID_SHAPES: dict[int, tuple[int, int]] = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3)}
KNOCK_MODES = ("off", "plus10", "double")
CANCEL_MODES = ("columns", "rows", "anywhere")
TIE_MODES = ("shared", "sudden-death")


#: Holes in a match by default, and on the 4-card grid (the rules: "3, 6 or 9 holes (18 for
#: the 4-card game)"; the Danish text: "Atten huller er standard for den korte udgave med fire kort").
DEFAULT_HOLES = 9
FOUR_CARD_HOLES = 18


@dataclass(frozen=True)
class GridRules:
    """A grid Golf rule set.

    Table: ``players`` (2-6), ``grid`` (4, 6, 8 or 9 cards), ``openers`` (cards each
    player turns before play), ``final_putt`` (with one card left face down, a stock card
    may be thrown away without turning anything), ``holes`` per match (by default 9, and 18
    on the 4-card grid, as the rules have it).

    The Danish rule text's options: ``twos_plus`` (a two scores +2, not -2), ``jokers`` (two jokers per
    deck, worth -2), ``cancel_by_value`` (equal values cancel, so J, Q and 10 match),
    ``discard_without_flip`` (a stock card may always be thrown away with nothing turned),
    ``decks_by_players`` (two decks above four players, instead of above 24 dealt cards),
    ``knock`` (``off``, ``plus10`` or ``double``: knocking allowed, and the penalty for a
    failed knock), ``cancel`` (``columns``; ``rows`` as well; or matching cards
    ``anywhere``), ``ties`` (``shared`` win or a ``sudden-death`` extra hole),
    ``pairwise`` (the Danish text: any two cards alike in a column both score 0, instead of the
    whole column having to match), ``nine_rows`` (the default text: rows of three cancel on the
    3x3 grid), ``throw_and_turn`` (the default text: a stock card may be thrown away to turn one
    of your face-down cards), ``openers_exact`` (the Danish text, "vender hver spiller to af sine
    egne kort": each player turns exactly ``openers`` cards, where the default text's "up to the
    allowance" lets a player stop early).
    """

    players: int = 4
    grid: int = 6
    openers: int = 2
    final_putt: bool = False
    holes: Optional[int] = None
    twos_plus: bool = False
    jokers: bool = False
    cancel_by_value: bool = False
    discard_without_flip: bool = False
    decks_by_players: bool = False
    knock: str = "off"
    cancel: str = "columns"
    ties: str = "shared"
    pairwise: bool = False
    nine_rows: bool = True
    throw_and_turn: bool = True
    # last, after the fields runs recorded before it: a table recorded without it reads as the
    # rules it was played under, where every rule set let a player stop turning early
    openers_exact: bool = False

    def __post_init__(self) -> None:
        if self.holes is None:  # a match's length follows its table: "18 for the 4-card game"
            object.__setattr__(self, "holes", FOUR_CARD_HOLES if self.grid == 4 else DEFAULT_HOLES)
        for name in ("players", "grid", "openers", "holes"):
            value = getattr(self, name)
            # 2.5 players or a 6.0-card grid would pass the range checks and fail deep in a kernel
            if not is_whole_number(value):
                raise InputError(f"{name} must be a whole number, not {value!r}")
            # a NumPy integer as a plain int: it went into the manifest, which json could not write
            object.__setattr__(self, name, operator.index(value))
        for name in ("final_putt", "twos_plus", "jokers", "cancel_by_value", "discard_without_flip",
                     "decks_by_players", "pairwise", "nine_rows", "throw_and_turn", "openers_exact"):
            if getattr(self, name) not in (True, False) or isinstance(getattr(self, name), float):
                raise InputError(f"{name} must be true or false, not {getattr(self, name)!r}")
            object.__setattr__(self, name, bool(getattr(self, name)))  # a NumPy bool (or 1/0) as True/False
        if self.openers == 0:
            # no card is turned before play, so both readings play alike: one table, the one
            # every table recorded before openers_exact existed has ('danish' with 0 openers
            # then resumes, and spec() names it 'danish', not the refused 'danish+openers-up-to')
            object.__setattr__(self, "openers_exact", False)
        if not 2 <= self.players <= 6:
            raise InputError(f"grid Golf is for 2 to 6 players, not {self.players}")
        if self.grid not in GRID_SHAPES:
            raise InputError(f"the grid holds 4, 6, 8 or 9 cards, not {self.grid}")
        if not 0 <= self.openers < self.grid:
            raise InputError(f"openers must be 0 to {self.grid - 1} on a {self.grid}-card grid, not {self.openers}")
        if not 1 <= self.holes <= 99:
            raise InputError(f"a match has 1 to 99 holes, not {self.holes}")
        if self.knock not in KNOCK_MODES:
            raise InputError(f"knock must be one of {', '.join(KNOCK_MODES)}, not {self.knock!r}")
        if self.cancel not in CANCEL_MODES:
            raise InputError(f"cancel must be one of {', '.join(CANCEL_MODES)}, not {self.cancel!r}")
        if self.ties not in TIE_MODES:
            raise InputError(f"ties must be one of {', '.join(TIE_MODES)}, not {self.ties!r}")

    # -- table ---------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns) of the grid."""
        return GRID_SHAPES[self.grid]

    @property
    def rows(self) -> int:
        """Rows of each player's grid."""
        return GRID_SHAPES[self.grid][0]

    @property
    def cols(self) -> int:
        """Columns of each player's grid."""
        return GRID_SHAPES[self.grid][1]

    @property
    def row_cancel(self) -> bool:
        """Whether rows cancel: on the 3x3 grid under the default rules, elsewhere by option."""
        return (self.grid == 9 and self.nine_rows) or self.cancel in ("rows", "anywhere")

    @property
    def n_decks(self) -> int:
        """Decks shuffled together: two above 24 dealt cards (above four players with ``decks_by_players``)."""
        if self.decks_by_players:
            return 2 if self.players > 4 else 1
        return 2 if self.players * self.grid > 24 else 1

    def deck_cards(self) -> list[int]:
        """Every card of the hole's deck(s), in id order (shuffle before dealing)."""
        one = list(range(N_STANDARD)) + (list(JOKERS) if self.jokers else [])
        return one * self.n_decks

    def deck_counts(self) -> np.ndarray:
        """How many copies of each card id (0..53) the deck holds."""
        return np.bincount(np.array(self.deck_cards()), minlength=N_CARDS_MAX).astype(np.int64)

    # -- scoring tables ------------------------------------------------------
    def card_value(self, card: int) -> int:
        """Strokes a card scores when it does not cancel."""
        r = rank_of(card)
        if r == 13:
            return -2
        if r == 0:
            return 1
        if r == 1:
            return 2 if self.twos_plus else -2
        if r in (10, 11):
            return 10
        if r == 12:
            return 0
        return r + 1

    def cancel_key(self, card: int) -> int:
        """Cards with equal keys match for cancelling: the rank, or the value by option."""
        return self.card_value(card) if self.cancel_by_value else rank_of(card)

    def value_table(self) -> np.ndarray:
        """Stroke value of every card index, for the compiled kernels."""
        return np.array([self.card_value(c) for c in range(N_CARDS_MAX)], dtype=np.int64)

    def key_table(self) -> np.ndarray:
        """Cancel key (:meth:`cancel_key`) of every card index, for the compiled kernels."""
        return np.array([self.cancel_key(c) for c in range(N_CARDS_MAX)], dtype=np.int64)

    def hidden_estimate100(self) -> int:
        """The mean card value of a full deck in hundredths: what bots assume a face-down card is worth."""
        cards = self.deck_cards()
        return int(round(100 * sum(self.card_value(c) for c in cards) / len(cards)))

    # -- text ----------------------------------------------------------------
    def describe(self) -> str:
        """One line for humans."""
        parts = [f"{self.players} players", f"{self.grid} cards ({self.rows}x{self.cols})",
                 plural(self.openers, "opener"), plural(self.holes, "hole"), f"{self.n_decks} deck{'s' if self.n_decks > 1 else ''}"]
        for name in _SWITCHES:
            # a switch back to the default's own choice (openers-up-to) says nothing here
            if _switch_on(self, name) and any(getattr(DEFAULT, f) != v for f, v in _SWITCHES[name].items()):
                parts.append(name)
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """The rules as a plain dict (JSON manifests, run keys); ``openers_exact`` only when
        true, which :class:`GridRules` reads back as false where it is absent."""
        d = asdict(self)
        # a table recorded before openers_exact existed was played with it false; written only when
        # true, that table's run key is the same today, so its run resumes (danish's now differs)
        if not d["openers_exact"]:
            del d["openers_exact"]
        return d

    def spec(self) -> str:
        """The rule set as a spec string :func:`parse_rules` reads back: the preset it holds
        (``danish``, else ``default``) and the switches that differ from it."""
        for head in ("danish", "default"):
            start = {**{f: getattr(DEFAULT, f) for f in _SWITCH_FIELDS}, **PRESETS[head]}
            if self.openers == 0:  # no openers rule to name (parse_rules refuses one; see __post_init__)
                start["openers_exact"] = False
            on = [name for name in _SWITCHES
                  if _switch_on(self, name) and any(start[f] != v for f, v in _SWITCHES[name].items())]
            reached = {**start, **{f: v for name in on for f, v in _SWITCHES[name].items()}}
            if all(getattr(self, f) == reached[f] for f in _SWITCH_FIELDS):
                return "+".join([head] + on)
        raise AssertionError(f"no spec reaches {self!r}")  # every field is off in default, with a switch to turn it on


#: The default rule set.
DEFAULT = GridRules()

# Spec switch -> field changes. Names are what users type after "+".
_SWITCHES: dict[str, dict[str, Any]] = {
    "putt": {"final_putt": True},
    "twos-plus": {"twos_plus": True},
    "jokers": {"jokers": True},
    "by-value": {"cancel_by_value": True},
    "no-flip": {"discard_without_flip": True},
    "decks-by-players": {"decks_by_players": True},
    "knock10": {"knock": "plus10"},
    "knock-double": {"knock": "double"},
    "rows": {"cancel": "rows"},
    "anywhere": {"cancel": "anywhere"},
    "sudden-death": {"ties": "sudden-death"},
    "pairs": {"pairwise": True},
    "no-nine-rows": {"nine_rows": False},
    "no-turn": {"throw_and_turn": False},
    "openers-exact": {"openers_exact": True},
    "openers-up-to": {"openers_exact": False},
}


#: Every field a switch sets.
_SWITCH_FIELDS = tuple(dict.fromkeys(f for changes in _SWITCHES.values() for f in changes))


def _switch_on(r: GridRules, name: str) -> bool:
    return all(getattr(r, k) == v for k, v in _SWITCHES[name].items())


def _grid_name(r: GridRules) -> str:
    return f"the {r.grid}-card grid ({r.rows}x{r.cols})"


def _idle_reason(r: GridRules, switch: str) -> Optional[str]:
    """Why ``switch``, which ``r`` holds, plays exactly as ``r`` without it does; None when it
    changes the game. tests/grid/test_grid_scoring.py checks every switch on every grid against
    the cancels, passes and decks each way."""
    if switch == "pairs":
        if r.cancel == "anywhere":
            return "with +anywhere: every card whose match is anywhere in the grid cancels already"
        if r.rows < 3 and not (r.row_cancel and r.cols >= 3):
            if r.cols < 3:
                return f"on {_grid_name(r)}: its lines are two cards long, where a pair is the whole line"
            return (f"on {_grid_name(r)}: its columns are two cards tall, where a pair is the whole column "
                    "(with +rows it applies to the rows)")
    elif switch == "no-nine-rows":
        if r.grid != 9:
            return f"on {_grid_name(r)}: only the 3x3 grid (--grid 9) has rows that cancel by default"
        if r.cancel != "columns":
            return f"with +{r.cancel}: the rows cancel anyway"
    elif switch == "rows":
        if r.grid == 9 and r.nine_rows:
            return f"on {_grid_name(r)}: its rows cancel already (+no-nine-rows turns that off)"
    elif switch == "putt":
        if r.discard_without_flip:
            return "beside no-flip: a stock card may always be thrown away, with one card face down too"
    elif switch in ("openers-exact", "openers-up-to"):
        if r.openers == 0:
            return "with 0 openers: no card is turned before play"
    elif switch == "decks-by-players":
        if replace(r, decks_by_players=False).n_decks == r.n_decks:
            return (f"for {r.players} players on {_grid_name(r)}: they use {plural(r.n_decks, 'deck')} either way "
                    "(two above 24 cards dealt; with it, above four players)")
    return None


#: Named rule sets. ``danish`` is the Danish rule text as it reads (docs/grid.md quotes the
#: sentence behind each choice): twos at face value, jokers -2, equal values cancel
#: pairwise in columns (no rows of three on the 3x3 grid), a stock card may be thrown away
#: outright but there is no "throw away and turn", two decks above four players, knocking
#: with a +10 penalty, ties recorded as shared wins, each player turning exactly its openers.
_DANISH = MappingProxyType({"twos_plus": True, "jokers": True, "cancel_by_value": True, "discard_without_flip": True,
                           "decks_by_players": True, "knock": "plus10", "pairwise": True, "nine_rows": False,
                           "throw_and_turn": False, "openers_exact": True})
PRESETS: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    "default": MappingProxyType({}),
    "seed001": MappingProxyType({}),
    "danish": _DANISH,
    "seed003": _DANISH,
})
#: The rule texts' own numbers, read as the presets they name but not offered as choices.
_SOURCE_NAMES = ("seed001", "seed003")


def grid_rules_arg(rules: object, what: str = "rules") -> GridRules:
    """``rules`` if it is a :class:`GridRules`, else a :class:`TypeError` at the call that
    says how to make one: a solitaire ``Rules`` (or a preset's name) given to grid Golf's
    scoring failed inside as "'Rules' object has no attribute 'players'"."""
    return expect(rules, GridRules, what, "a GridRules, e.g. parse_rules('default', players=2)")


def parse_rules(spec: str | None = None, **overrides: Any) -> GridRules:
    """Read ``PRESET+switch+switch`` (e.g. ``default+putt+knock10``) and apply table overrides.

    ``overrides`` are field values (``players=5``); ``None`` values are ignored so CLI
    options can be passed straight through.
    """
    fields: dict[str, Any] = {}
    text = "default" if spec is None else expect(spec, str, "a grid rule set", "named by text, e.g. 'default+putt'")
    parts = [ascii_lower(p.strip()) for p in text.split("+")]
    if not parts[0]:
        raise InputError(f"a grid rule set needs a name first, e.g. default or danish+sudden-death (got {clip(text)})")
    if any(not p for p in parts[1:]):
        raise InputError(f"empty grid rule switch in {clip(text)} (two '+' in a row, or one at the end)")
    head, switches = parts[0], parts[1:]
    if head in PRESETS:
        fields.update(PRESETS[head])
    else:
        switches = parts
    set_by: dict[str, str] = {}  # field -> the switch that set it
    for s in switches:
        if s not in _SWITCHES and s in PRESETS:
            raise InputError(f"{s!r} in {clip(text)} is a rule set, not a switch: give one rule set, first "
                             f"(e.g. {s}+putt)")
        if s not in _SWITCHES:
            known = ", ".join([n for n in PRESETS if n not in _SOURCE_NAMES] + list(_SWITCHES))
            raise InputError(f"unknown grid rule {clip(s)} (known: {known})")
        for f in _SWITCHES[s]:
            if f in set_by:
                first = set_by[f]
                raise InputError(f"grid rule {s!r} is given twice in {clip(text)}" if first == s else
                                 f"grid rules {first!r} and {s!r} contradict each other in {clip(text)}; give one")
            set_by[f] = s
        fields.update(_SWITCHES[s])
    fields.update({k: v for k, v in overrides.items() if v is not None})
    try:
        rules = GridRules(**fields)
    except TypeError as e:  # an unknown override name is a programming error made readable
        raise InputError(str(e)) from None
    # a switch that plays as its absence would make two runs of one game look like two rule sets
    base = head if head in PRESETS else "default"
    # the default's own values count: 'default+openers-up-to' is the default rule set itself
    start = {**{f: getattr(DEFAULT, f) for f in _SWITCH_FIELDS}, **PRESETS[base]}
    for s in switches:
        if all(start[f] == v for f, v in _SWITCHES[s].items()):
            raise InputError(f"grid rule {s!r} is part of {base} already; leave it out of {clip(text)}")
        why = _idle_reason(rules, s)
        if why is not None:
            raise InputError(f"grid rule {s!r} changes nothing {why}")
    return rules

