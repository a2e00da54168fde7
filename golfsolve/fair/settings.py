"""The fair player's settings and presets, the difficulty labels and the stopping rule of
``odds``: plain data, light to import (no solver, no numpy), so that a command checks its
options against them before the fair-play modules load. The modules that use them import
them from here; the package re-exports them.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import asdict, dataclass, fields, replace
from types import MappingProxyType
from typing import Mapping

from ..errors import MAX_EFFORT, InputError
from ..inputs import ascii_lower, flag, whole_count

#: By default ``odds`` plays fair games until the fair chance's 95% interval is at most this
#: wide ...
WIDTH = 0.20
#: ... but not before this many games (on winnable orders) ...
MIN_GAMES = 10
#: ... and stops (after any game) once all its solves, the
#: clairvoyant ones and the games', have done this much work: the states they searched plus
#: :data:`SOLVE_WORK` a solve. A count of work, not a clock, so the answer depends on the
#: position and the seed only. It costs about 5 s of CPU on the quiet 2-core machine of
#: docs/performance.md (slower hosts seen there took up to twice as long, and at load 7-8 CPU
#: seconds inflate two- to threefold).
WORK_BUDGET = 40_000_000
#: A solve's fixed cost (packing the position, the call) in states searched in the same time
#: (fitted on fair games of four openings: about 0.22 s of CPU per million states and
#: 0.12 ms per solve).
SOLVE_WORK = 500


@dataclass(frozen=True)
class PlayerSettings:
    """Everything that decides the fair player's moves (with the seed and the position).

    ``samples``: stock orders per decision; ``extra``: more orders to race exactly tied
    states on. ``race_budget`` (0: off): instead, every state within ``race_slack`` orders
    of the best is raced on common orders added ``race_batch`` at a time, at most
    ``race_width`` of them, and dropped once the leader's lead exceeds ``race_z`` times the
    square root of the orders where exactly one of the two wins, up to ``race_budget``
    orders in all. ``exact_unknown``: play by exact expectimax once at most this many
    stock cards are unknown, giving up past ``exact_states`` new states (then sampling
    again); ``compiled_exact`` runs it by the compiled kernel (a cap hit is tried again
    two draws later). With ``carry`` a decision's sampled orders are the last sampled
    decision's with the cards drawn since taken out (still a uniform sample of the orders
    the player cannot tell apart), fresh ones only where more are needed. ``hopeless`` (0:
    off; with a race): when no state wins on any of the first orders, more orders,
    ``race_batch`` at a time with every state on each, until one wins or this many are used,
    so that a decision that looks lost is taken on the orders that can still be won.
    ``card_cost`` (with a race): the race's last ranking counts each card on a state's table
    as this share of the orders raced lost, so that of two states nearly level the one with
    fewer cards goes on (the sampled count values play after the draw with the stock seen, and
    a table that keeps more cards leaves more such play to a player who will not see it).
    ``wrap_scale``: where King and Ace are linked (Easy) every count of orders (``samples``,
    ``extra``, ``race_budget``, ``hopeless``) is this many times larger: there nearly every
    order can be won, and more of them are needed to tell the leading states apart
    (:meth:`for_rules`; the race still adds ``race_batch`` at a time). ``by_rank``: the
    player names the cards by rank and order of appearance
    (:func:`~golfsolve.fair.view.by_rank`; suits play no part in Golf), so positions that
    differ only in suits are one position to it and games of one question that turned the
    same ranks share their decisions (:meth:`~golfsolve.fair.player.Player.move`).
    """

    samples: int = 8
    extra: int = 8
    race_budget: int = 0
    race_batch: int = 16
    race_slack: int = 2
    race_z: float = 1.5
    race_width: int = 6
    exact_unknown: int = 6
    exact_states: int = 40_000
    compiled_exact: bool = False
    carry: bool = False
    hopeless: int = 0
    card_cost: float = 0.0
    wrap_scale: int = 1
    by_rank: bool = False

    def __post_init__(self) -> None:
        # every setting's type and range, as the options' counts are checked: 2.5 samples failed
        # deep in the sampling, 10**9 filled the memory, exact_states 2**70 failed in NumPy, a
        # race_z of NaN or "x" was taken, and compiled_exact "no" counted as true
        for name, low in (("samples", 1), ("extra", 0), ("race_budget", 0), ("race_batch", 1), ("race_slack", 0),
                          ("race_width", 2), ("exact_unknown", 0), ("exact_states", 1), ("hopeless", 0),
                          ("wrap_scale", 1)):
            # a NumPy integer as a plain int: json cannot write one into a fair-stats manifest
            object.__setattr__(self, name, whole_count(getattr(self, name), name, low, MAX_EFFORT))
        for name in ("samples", "extra", "race_budget", "hopeless"):
            if getattr(self, name) * self.wrap_scale > MAX_EFFORT:  # else refused only at the first Easy game
                raise InputError(f"wrap_scale {self.wrap_scale} times {name} {getattr(self, name)} is more than "
                                 f"{MAX_EFFORT:,}")
        for name in ("race_z", "card_cost"):
            z = getattr(self, name)
            # a NumPy number (np.float32(1.5), np.int64(2)) is a number as the counts' NumPy integers
            # are, kept as a plain one so that json can write it into a fair-stats manifest
            if isinstance(z, bool) or not isinstance(z, numbers.Real) or not math.isfinite(z) or z < 0:
                raise InputError(f"{name} must be a number from 0 up, not {z!r}")
            object.__setattr__(self, name, int(z) if isinstance(z, numbers.Integral) else float(z))
        for name in ("compiled_exact", "carry", "by_rank"):
            try:  # a NumPy bool too, as play()'s switches take it
                object.__setattr__(self, name, flag(getattr(self, name), name))
            except TypeError:
                raise InputError(f"{name} must be True or False, not {getattr(self, name)!r}") from None

    def for_rules(self, rules) -> "PlayerSettings":
        """The settings the player plays ``rules`` (a :class:`~golfsolve.solitaire.rules.Rules`)
        with: ``wrap_scale`` applied where King and Ace are linked, else these."""
        k = self.wrap_scale
        if k == 1 or not rules.wrap:
            return self
        return replace(self, samples=k * self.samples, extra=k * self.extra, race_budget=k * self.race_budget,
                       hopeless=k * self.hopeless, wrap_scale=1)

    @property
    def preset(self) -> str:
        """The name of the preset these settings are, or ``custom``."""
        return next((name for name, s in PRESETS.items() if s == self), "custom")

    def as_dict(self) -> dict:
        """Every setting by name, with the preset's name first (``custom`` when none matches)."""
        return {"preset": self.preset, **asdict(self)}

    @classmethod
    def from_dict(cls, d: dict) -> "PlayerSettings":
        """The settings :meth:`as_dict` wrote (``preset`` is ignored: the fields decide)."""
        if not isinstance(d, Mapping):  # None failed as "not iterable", the text 'fast' as setting 'a'
            raise TypeError(f"from_dict takes the dict as_dict() wrote, e.g. a result's as_json()['player'], not "
                            f"{type(d).__name__} {repr(d)[:40]}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - names - {"preset"})
        if unknown:
            raise InputError(f"unknown player setting {unknown[0]!r}")
        return cls(**{k: v for k, v in d.items() if k in names})


#: The settings a user chooses from by name. ``fast``: the cheap player of ``odds`` and
#: ``rate`` (the compiled exact endgame from 6 unknown cards, orders carried from one
#: decision to the next, cards named by rank so that games share more decisions);
#: ``strong``: more orders (twice as many where King and Ace are linked), a budgeted race
#: whose last ranking costs each card on the table 2% of the orders raced, more orders where
#: none is won, and the compiled exact endgame from 8 unknown cards (the player of
#: ``fair-stats`` and ``hint --fair``).
PRESETS: Mapping[str, PlayerSettings] = MappingProxyType({
    "fast": PlayerSettings(compiled_exact=True, carry=True, by_rank=True),
    "strong": PlayerSettings(samples=16, extra=16, race_budget=64, exact_unknown=8, exact_states=500_000,
                             compiled_exact=True, hopeless=64, card_cost=0.02, wrap_scale=2),
})


def player_settings(player: "str | PlayerSettings") -> PlayerSettings:
    """The settings of a preset name (any case), or ``player`` itself; an unknown name is
    :class:`InputError`."""
    if isinstance(player, PlayerSettings):
        return player
    try:
        return PRESETS[ascii_lower(player.strip()) if isinstance(player, str) else player]
    except (KeyError, TypeError):
        raise InputError(f"player must be one of {', '.join(PRESETS)}, not {player!r}") from None


#: (label, lowest fair chance), hardest last; a chance falls in the first band it reaches.
BANDS: tuple[tuple[str, float], ...] = (("easy", 0.60), ("medium", 0.35), ("hard", 0.15), ("very-hard", 0.0))
LABELS = tuple(b[0] for b in BANDS)


def label_of(chance: float) -> str:
    """The band of a fair chance (a number from 0 to 1)."""
    try:  # NaN fails the range too
        ok = not isinstance(chance, (bool, str, bytes)) and 0 <= float(chance) <= 1  # type: ignore[arg-type]
    except (TypeError, ValueError):
        ok = False
    if not ok:  # NaN and -0.1 would be 'very-hard', 1.5 'easy', text a TypeError about '>='
        raise InputError(f"a fair chance is a number from 0 to 1, not {repr(chance)[:40]}")
    for name, low in BANDS:
        if chance >= low:
            return name
    return BANDS[-1][0]
