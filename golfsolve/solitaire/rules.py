"""Golf solitaire rule sets: one immutable value, the single source of every rule.

The engine asks :meth:`Rules.fits`; the compiled solver reads :meth:`Rules.fits_table`
(the same answers as a boolean array) and :attr:`Rules.draw_any_time`. No other module
decides what may go on what.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Mapping

import numpy as np

from ..errors import InputError, clip, shown
from ..inputs import ascii_lower, expect, flag, is_whole_number
from ..cards import ACE, JOKER_RANK, KING, QUEEN

#: Row index of :meth:`Rules.fits_table` for an empty discard pile.
EMPTY_TOP = 14
N_TOPS = 15  # ranks 0..12, joker, empty

KING_TAKES = ("neighbours", "queen", "nothing")


class RulesError(InputError):
    """A rule name or switch is not known."""


@dataclass(frozen=True)
class Rules:
    """A Golf solitaire rule set.

    * ``wrap``: King and Ace are linked (an Ace goes on a King, a King on an Ace).
    * ``king_takes``: what may be played on a King: ``"neighbours"`` (Queen, and Ace
      when wrapping), ``"queen"`` (Queen only) or ``"nothing"``.
    * ``draw_any_time``: draw even when a remove is possible (app rules); ``False``
      draws only when no remove is possible (the traditional strict rule).
    * ``jokers``: 0, 1 or 2 wild jokers in the deck.
    * ``empty_start``: no card starts the discard pile; the first card played may be
      any free card.
    """

    name: str = "easy"
    wrap: bool = True
    king_takes: str = "neighbours"
    draw_any_time: bool = True
    jokers: int = 0
    empty_start: bool = False

    def __post_init__(self) -> None:
        # a switch given as text ("no") is a true value to Python: wrap="no" would link King and Ace
        # and describe itself so, draw_any_time="no" draw any time; jokers=True or 1.0 count as one
        for key in ("wrap", "draw_any_time", "empty_start"):
            object.__setattr__(self, key, flag(getattr(self, key), key))
        if not isinstance(self.name, str) or not self.name.strip():
            raise RulesError(f"a rule set's name is text, e.g. 'mine', not {self.name!r}")
        if isinstance(self.jokers, bool) or not is_whole_number(self.jokers):
            raise RulesError(f"jokers must be 0, 1 or 2, not {self.jokers!r}")
        object.__setattr__(self, "jokers", int(self.jokers))
        if not (isinstance(self.king_takes, str) and self.king_takes in KING_TAKES):  # an array: "ambiguous"
            raise RulesError(f"king_takes must be one of {', '.join(KING_TAKES)}, not {shown(self.king_takes)}")
        if self.jokers not in (0, 1, 2):
            raise RulesError(f"jokers must be 0, 1 or 2, not {self.jokers}")

    # -- derived sizes -------------------------------------------------------
    @property
    def deck_size(self) -> int:
        """Cards in the deck: 52 plus the jokers."""
        return 52 + self.jokers

    @property
    def stock_size(self) -> int:
        """Cards in the stock at the start: 16, plus jokers, plus one with an empty start."""
        return self.deck_size - 35 - (0 if self.empty_start else 1)

    # -- the rule itself -----------------------------------------------------
    def fits(self, top_rank: int, card_rank: int) -> bool:
        """May a card of ``card_rank`` go on a discard of ``top_rank``?

        Ranks are 0 (Ace) .. 12 (King), ``JOKER_RANK`` for a joker; ``top_rank`` is
        ``EMPTY_TOP`` when the discard pile is empty.
        """
        if top_rank == EMPTY_TOP or top_rank == JOKER_RANK or card_rank == JOKER_RANK:
            return True
        if top_rank == KING:
            if self.king_takes == "nothing":
                return False
            if card_rank == QUEEN:
                return True
            return card_rank == ACE and self.wrap and self.king_takes == "neighbours"
        if abs(top_rank - card_rank) == 1:
            return True
        return self.wrap and top_rank == ACE and card_rank == KING

    def fits_table(self) -> np.ndarray:
        """``table[top_rank, card_rank]`` as a ``(15, 14)`` boolean array for kernels."""
        return _fits_table(self)

    def describe(self) -> str:
        """One line a person can read."""
        parts = [
            "King-Ace linked" if self.wrap else "no wrap",
            {"neighbours": "Queen or Ace on King" if self.wrap else "Queen on King",
             "queen": "Queen on King", "nothing": "nothing on King"}[self.king_takes],
            "draw any time" if self.draw_any_time else "draw only when stuck",
        ]
        if self.jokers:
            parts.append(f"{self.jokers} joker{'s' if self.jokers > 1 else ''}")
        if self.empty_start:
            parts.append("empty starting discard")
        return f"{self.name}: " + ", ".join(parts)

    @property
    def meaning(self) -> tuple:
        """What the rule set does, whatever it is called: two rule sets with equal meanings
        play every deal alike (``wrap+nowrap`` is ``classic``, ``strict+stuck`` is ``strict``)."""
        return (self.fits_table().tobytes(), self.draw_any_time, self.jokers, self.empty_start)


@lru_cache(maxsize=None)
def _fits_table(rules: Rules) -> np.ndarray:
    t = np.zeros((N_TOPS, JOKER_RANK + 1), dtype=np.bool_)
    for top in range(N_TOPS):
        for card in range(JOKER_RANK + 1):
            t[top, card] = rules.fits(top, card)
    t.setflags(write=False)
    return t


EASY = Rules("easy", wrap=True, king_takes="neighbours", draw_any_time=True)
CLASSIC = Rules("classic", wrap=False, king_takes="queen", draw_any_time=True)
STRICT = Rules("strict", wrap=False, king_takes="nothing", draw_any_time=False)
#: PySol FC's "Dead King Golf" and black-hole-solve's ``no-card-on-king``: nothing on a
#: King, no wrap, but drawing any time.
DEAD_KING = Rules("dead-king", wrap=False, king_takes="nothing", draw_any_time=True)

PRESETS: Mapping[str, Rules] = MappingProxyType({
    "easy": EASY,
    "classic": CLASSIC,
    "strict": STRICT,
    "dead-king": DEAD_KING,
    # black-hole-solve's names for the same rule sets
    "wrap": EASY,
    "queen-on-king": CLASSIC,
    "no-card-on-king": DEAD_KING,
})

#: The switches get_rules reads, as an unknown one's message lists them (each also has aliases:
#: joker, jokers, joker1, joker2, empty-start, draw-when-stuck, draw-any-time).
SWITCHES = ("jokers1", "jokers2", "empty", "stuck", "anytime", "wrap", "nowrap",
            *(f"king-{k}" for k in ("queen", "nothing", "neighbours")))

#: The rule letter of a deal code and the preset it selects.
CODE_LETTER_RULES = {"E": EASY, "C": CLASSIC, "N": EASY}


def code_letter(rules: Rules) -> str:
    """The rule letter of a deal code under ``rules``: ``C`` when they mean Classic, else ``E``
    (the letter never changes the cards; a run's ``rules`` column says which rules were used)."""
    expect(rules, Rules, "rules", "a Rules, e.g. get_rules('classic')")
    return "C" if rules.meaning == CLASSIC.meaning else "E"


def rules_arg(rules: object, what: str = "rules") -> "Rules | None":
    """``rules`` if it is a :class:`Rules` or None (the library's optional rules argument);
    a :class:`TypeError` that names :func:`get_rules` for anything else, such as a rule set's
    name given as text."""
    return expect(rules, (Rules, type(None)), what, "a Rules or None, e.g. get_rules('classic')")


def get_rules(spec: str) -> Rules:
    """Read a rule set: a preset name, then ``+`` switches.

    Switches: ``jokers1``/``jokers2`` (or ``joker``), ``empty`` (empty starting
    discard), ``stuck`` (draw only when stuck), ``anytime`` (draw any time),
    ``wrap``/``nowrap``, ``king-queen``/``king-nothing``/``king-neighbours``.
    Example: ``classic+jokers2+empty``.
    """
    expect(spec, str, "a rule set", "named by text, e.g. 'classic+jokers1'")
    parts = [ascii_lower(p.strip()) for p in spec.strip().split("+")]
    base = parts[0]
    if not base:
        raise RulesError(f"a rule set needs a name first, e.g. easy or classic+jokers1 (known: {', '.join(PRESETS)})")
    if base not in PRESETS:
        raise RulesError(f"unknown rule set {clip(spec.strip())} (known: {', '.join(PRESETS)})")
    rules = PRESETS[base]
    changes: dict = {}
    set_by: dict[str, str] = {}  # field -> the switch that set it
    for sw in parts[1:]:
        if sw in ("joker", "jokers", "jokers1", "joker1"):
            field_, value = "jokers", 1
        elif sw in ("jokers2", "joker2"):
            field_, value = "jokers", 2
        elif sw in ("empty", "empty-start"):
            field_, value = "empty_start", True
        elif sw in ("stuck", "draw-when-stuck"):
            field_, value = "draw_any_time", False
        elif sw in ("anytime", "draw-any-time"):
            field_, value = "draw_any_time", True
        elif sw == "wrap":
            field_, value = "wrap", True
        elif sw == "nowrap":
            field_, value = "wrap", False
        elif sw.startswith("king-") and sw[5:] in KING_TAKES:
            field_, value = "king_takes", sw[5:]
        elif not sw:
            raise RulesError(f"empty rule switch in {clip(spec.strip())} (two '+' in a row, or one at the end)")
        else:
            raise RulesError(f"unknown rule switch {clip(sw)} in {clip(spec.strip())} (known: {', '.join(SWITCHES)})")
        if field_ in set_by:
            first = set_by[field_]
            raise RulesError(f"rule switch {sw!r} is given twice in {clip(spec.strip())}" if first == sw else
                             f"rule switches {first!r} and {sw!r} contradict each other in {clip(spec.strip())}; "
                             "give one")
        set_by[field_] = sw
        changes[field_] = value
    if changes:  # named as written, less the spaces, so 'classic + jokers1' and 'classic+jokers1' are one run
        rules = replace(rules, name="+".join(parts), **changes)
    return rules
