"""The bots' names: the registry (:data:`BOTS`) and the checks of a bot list, without the bots.

A command checks ``--bots`` here before anything heavy loads (the bots themselves,
:mod:`.bots`, import the compiled kernels and numba), so a misspelt name is refused at
once. :func:`.bots.make_bot` builds a bot from a name this module has checked; each
registry entry names its class as ``"module:attribute"``, imported only when the bot is made.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from ..errors import MAX_DIGITS, MAX_EFFORT, InputError, check_count, clip, install_extra
from ..inputs import ascii_lower, expect, whole_count


@dataclass(frozen=True)
class BotKind:
    """A registry entry: where a bot's class (or factory) lives, imported on first use, and
    what a count after a colon (``mc:200``) sets.

    ``target`` is ``"module:attribute"`` (a class or a callable taking ``rng``, ``name``
    and the count keyword) or such a callable itself; ``count`` the keyword a ``kind:N``
    count sets (None: the bot takes no count); ``what`` the count's name in messages and
    ``label`` in the list of known bots; ``mc_samples``: ``--mc-samples`` sets the count
    when the name gives none; ``extra``: the pip extra (and package) the bot needs;
    ``least``: the smallest count the bot can play with; ``default``: the count the bot
    plays with when neither its name nor ``--mc-samples`` gives one (None: not known here).
    """

    target: Any
    count: Optional[str] = None
    what: str = ""
    label: str = "N"
    mc_samples: bool = False
    extra: Optional[tuple[str, str]] = None
    least: int = 1
    default: Optional[int] = None

    def resolve(self) -> Callable[..., Any]:
        """The class or factory, importing its module now (the only import of it)."""
        if callable(self.target):
            return self.target
        module, _, attr = self.target.partition(":")
        return getattr(importlib.import_module(module), attr)


#: Every bot a name can make (``make_bot``), in the order the help lists them. A bot kept
#: elsewhere joins with :func:`register_bot`; modules are imported only when asked for.
BOTS: dict[str, BotKind] = {
    "random": BotKind("golfsolve.grid.bots:RandomBot"),
    "greedy": BotKind("golfsolve.grid.bots:GreedyBot"),
    "heuristic": BotKind("golfsolve.grid.bots:HeuristicBot"),
    "heuristic-fit": BotKind("golfsolve.grid.fitted:FittedHeuristicBot"),
    # each default is the class's own (tests/grid/test_grid_input.py checks them): mc and mc:100 are one bot
    "mc": BotKind("golfsolve.grid.bots:MCBot", "samples", "Monte Carlo sample count", "SAMPLES", mc_samples=True,
                  default=100),
    "mc-greedy": BotKind("golfsolve.grid.bots:GreedyMCBot", "samples", "Monte Carlo sample count", "SAMPLES",
                         mc_samples=True, default=100),
    "ismcts": BotKind("golfsolve.grid.bots:ISMCTSBot", "iterations", "ISMCTS iteration count", "ITERATIONS",
                      default=1000),
    "paired-rel": BotKind("golfsolve.grid.paired:PairedBot", "playouts", "play-out count", "PLAYOUTS", default=1000),
    # OpenSpiel's search spends its first simulation expanding the root: with one it has no
    # visit to choose by, and OpenSpiel fails on an assertion
    "spiel-ismcts": BotKind("golfsolve.grid.spiel:SpielISMCTSBot", "simulations", "simulation count", "SIMULATIONS",
                            extra=("spiel", "OpenSpiel"), least=2, default=40),
}
#: golfsolve's own bots: a study seats ``heuristic`` and ``random`` by name and runs' manifests and
#: the measured results name them, so no registered bot takes their names
OWN_BOTS = tuple(BOTS)


def register_bot(kind: str, target: Any, count: Optional[str] = None, what: str = "", label: str = "N") -> None:
    """Make ``make_bot(kind)`` build ``target`` (a ``"module:attribute"`` string or a
    callable taking ``rng`` and ``name``, and the ``count`` keyword if given); for bots kept
    outside the package, such as the benchmarks' outside heuristics. ``kind`` is written as
    a bot list reads it: lower-case letters, digits, '-' and '_' (make_bot reads names in lower
    case, so 'My-Bot' would be unknown to it, and --bots would split 'a,b')."""
    if not isinstance(kind, str) or not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", kind):
        raise InputError(f"a bot's name is lower-case letters, digits, '-' and '_', as --bots reads it; "
                         f"not {repr(kind)[:40]}")
    if not (callable(target) or isinstance(target, str) and re.fullmatch(r"[\w.]+:[\w.]+", target)):
        raise TypeError(f"a bot's class is 'module:attribute' text or a callable, e.g. "
                        f"'golfsolve.grid.bots:MCBot'; not {repr(target)[:40]}")
    if kind in OWN_BOTS:
        # a bot of one's own under such a name would be the random bot of every study table, or
        # the 'mc' of a run that says it played golfsolve's
        raise InputError(f"{kind!r} is one of golfsolve's own bots ({', '.join(OWN_BOTS)}); give yours a "
                         f"name of its own, e.g. 'my-{kind}'")
    BOTS[kind] = BotKind(target, count, what or f"{kind} count", label)


def registry_kind(entry: BotKind) -> str:
    """The name ``entry`` has in :data:`BOTS` (``ismcts`` for ``ismcts:300``'s entry)."""
    return next((k for k, e in BOTS.items() if e is entry), str(entry.target))


def known_bots() -> str:
    """The bot names ``make_bot`` accepts, for help and error messages."""
    out = []
    for kind, entry in BOTS.items():
        out.append(kind)
        if entry.count:
            out.append(f"{kind}:{entry.label}")
    return ", ".join(out)


def _count(spec: str, arg: str, what: str, least: int = 1) -> int:
    # ASCII digits only, as every number option takes them: int() would also read '٢', '1_0' and '+3'
    if not (arg.strip().isascii() and arg.strip().isdigit()):
        raise InputError(f"bad {what} in {spec!r}: a whole number in digits 0-9")
    if len(arg.strip().lstrip("0")) > MAX_DIGITS:  # int() refuses more than 4,300 digits
        raise InputError(f"the {what} in {clip(spec)} must be from {least} to {MAX_EFFORT:,}")
    n = int(arg)
    if n < least:
        raise InputError(f"the {what} in {spec!r} must be at least {least}, not {n}")
    return check_count(n, f"the {what} in {spec!r}", least)


def _entry(name: str) -> tuple[Optional[BotKind], str]:
    """The registry entry of a lower-case bot name and the count the name gives after a
    colon ('' for none; a registered name with a colon, if any, gives none)."""
    if name in BOTS:
        return BOTS[name], ""
    kind, _, arg = name.partition(":")
    return BOTS.get(kind), arg


def bot_entry(spec: str, samples: Optional[int] = None) -> tuple[BotKind, dict[str, int]]:
    """The registry entry of the bot ``spec`` names and the keywords its name and ``samples``
    (the Monte Carlo sample count where the name gives none) set; :class:`InputError` for an
    unknown name or a bad count. Nothing is imported: the bot is not made."""
    s = ascii_lower(expect(spec, str, "a bot", "named by text, e.g. 'mc:200'").strip())
    if samples is not None:  # 2.5 samples reached the compiled search as a float
        samples = whole_count(samples, "Monte Carlo samples")
    _, colon, arg = s.partition(":")
    if colon and not arg.strip():
        raise InputError(f"bot {spec!r} needs a count after the colon, e.g. mc:200")
    entry, own = _entry(s)
    if entry is None or (own and not entry.count):
        # a bot of one's own, in a run's manifest or on a command line, is known only once registered
        own_bot = "" if entry is not None else ("; a bot of your own is known once registered, "
                                                "golfsolve.grid.bots.register_bot, in the program that plays it")
        raise InputError(f"unknown bot {clip(spec)} (known: {known_bots()}){own_bot}")
    kw: dict[str, int] = {}
    if own:
        kw[entry.count] = _count(spec, own, entry.what, entry.least)  # type: ignore[index]
    elif entry.mc_samples and samples is not None:
        kw[entry.count] = samples  # type: ignore[index]
    return entry, kw


def bot_name(spec: str) -> str:
    """The one way to write the bot ``spec`` names, checked (:func:`bot_entry`): lower case,
    no spaces, a count in plain digits, so ``ISMCTS: 300``, ``ismcts:0300`` and
    ``ismcts:300`` are one bot ('mc:03' and 'mc:3' must not meet as two bots, and a run of one
    extends with the other)."""
    return _written(spec)[0]


def _written(spec: str) -> tuple[str, BotKind]:
    """:func:`bot_name` and the registry entry it checked the name against."""
    kind, colon, arg = ascii_lower(expect(spec, str, "a bot", "named by text, e.g. 'mc:200'").strip()).partition(":")
    name = kind.strip() + colon + arg.strip()
    entry, kw = bot_entry(name)
    # without samples given, the keywords hold a count only when the name has one of its own
    return (f"{kind.strip()}:{kw[entry.count]}" if kw else name), entry  # type: ignore[index]


def resolve_bot(entry: BotKind) -> Callable[..., Any]:
    """The class or factory of ``entry``, imported now; :class:`InputError` when it needs an
    optional package that is not installed."""
    try:
        return entry.resolve()
    except ImportError:
        if entry.extra is None:
            raise
        kind = next((k for k, e in BOTS.items() if e is entry), str(entry.target))
        raise InputError(f"bot {kind!r} needs the optional {entry.extra[1]} package: "
                         f"{install_extra(entry.extra[0])}") from None


def takes_mc_samples(spec: str) -> bool:
    """Does ``--mc-samples`` set this bot's sample count (an ``mc`` or ``mc-greedy`` bot
    whose name gives no count of its own)?"""
    entry, own = _entry(ascii_lower(spec.strip()))
    return entry is not None and entry.mc_samples and not own


def check_samples_used(bots: Sequence[str], samples: Optional[int], option: str = "samples") -> None:
    """Refuse a Monte Carlo sample count (``option``) that no bot of ``bots`` takes: a setting
    no bot uses would be recorded with the run as if it had shaped the play."""
    if samples is not None and not any(takes_mc_samples(b) for b in bots):
        raise InputError(f"{option} sets the sample count of mc and mc-greedy bots named without one "
                         f"(mc:200 names its own), and the bots {','.join(bots)} include none; leave "
                         f"{option} out or add such a bot")


def split_bots(spec: str, option: str = "--bots") -> list[str]:
    """The bots of ``mc,greedy,greedy,random``, each name checked (:func:`bot_entry`) and
    written one way (:func:`bot_name`), so ``ISMCTS: 300`` and ``ismcts:300`` are one bot.
    An empty list or an empty name (two commas in a row) is :class:`InputError`, never skipped.
    A bot that needs an optional package is checked for it (its module is imported)."""
    if not spec.replace(",", "").strip():
        raise InputError(f"{option} needs at least one bot name (known: {known_bots()})")
    names = []
    for part in spec.split(","):
        if not part.strip():
            raise InputError(f"{option} has an empty bot name in {spec!r} (two commas in a row, or one at an end?)")
        name, entry = _written(part)
        if entry.extra is not None:
            resolve_bot(entry)
        names.append(name)
    return names


def check_distinct_bots(bots: Sequence[str], samples: Optional[int] = None) -> None:
    """Refuse a bot list that seats one bot under two names: ``mc`` and ``mc:100`` (mc plays
    100 samples unless its name gives a count), or ``mc`` with ``samples`` 5 and ``mc:5``.
    Each name would be counted as a bot of its own, and the summary would show a difference
    between a bot and itself. One name given twice seats one bot twice, as meant."""
    seen: dict[tuple[str, int], str] = {}
    for name in dict.fromkeys(bot_name(b) for b in bots):
        entry, kw = bot_entry(name, samples)
        count = kw.get(entry.count, entry.default) if entry.count else None
        if count is None:
            continue
        kind = next(k for k, e in BOTS.items() if e is entry)
        first = seen.setdefault((kind, count), name)
        if first != name:
            why = (", the Monte Carlo samples given" if entry.mc_samples and samples is not None
                   else " unless its name gives one")
            raise InputError(f"the bots {first!r} and {name!r} are one bot: the {entry.what} of {kind!r} is "
                             f"{count:,}{why}; name it one way ({first},{first}) to seat it twice, or give them "
                             "different counts")


#: A bot name of the form :func:`register_bot` allows, with a count or without.
_OWN_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*(:[0-9]+)?")


def recorded_bot_name(spec: str) -> str:
    """A bot name as a run records it, checked: :func:`bot_name` for a bot this golfsolve
    knows; a name of the form :func:`register_bot` allows as it stands, for a bot the program
    that made the run registered (the run's results are read by name, without the bot; to
    play it again, register it first)."""
    try:
        return bot_name(spec)
    except InputError:
        if isinstance(spec, str) and _OWN_NAME.fullmatch(spec) and _entry(spec)[0] is None \
                and spec.partition(":")[0] not in BOTS:
            return spec
        raise


def parse_bots(spec: str, players: int) -> list[str]:
    """Split ``mc,greedy,greedy,random`` (:func:`split_bots`) and check it seats exactly ``players``."""
    names = split_bots(spec)
    if len(names) != players:
        raise InputError(f"--bots names {len(names)} bot{'s' if len(names) != 1 else ''} but --players is {players}")
    return names


def table_and_bots(rules_spec: Optional[str], players: Optional[int], grid: Optional[int], holes: Optional[int],
                   openers: Optional[int], bots_spec: Optional[str], old: Any = None) -> tuple[Any, tuple[str, ...]]:
    """The table (:class:`~.rules.GridRules`) and the bots a command asks for, checked. ``old``
    is the run being resumed or extended (its ``rules`` and ``bots``), or None: the table
    and bots not given again are then the run's. Otherwise the players default to one per
    bot given, else 4, and the bots to heuristic ones."""
    from .rules import parse_rules

    if old is not None and rules_spec is None and players is None and grid is None and holes is None \
            and openers is None:
        rules = old.rules
    else:
        if players is None and bots_spec is not None:
            players = len(split_bots(bots_spec))
            if not 2 <= players <= 6:
                raise InputError(f"--bots names {players} bot{'s' if players != 1 else ''}: grid Golf seats "
                                 "2 to 6 players, one bot each")
        if players is None and old is not None and bots_spec is None:
            players = old.rules.players
        if old is not None:
            # a table option not given again is the run's, not the default: '--extend --rules
            # default' on a 1-hole run would be refused as asking for 9 holes
            o = old.rules
            rules_spec = o.spec() if rules_spec is None else rules_spec
            grid, holes, openers = (o.grid if grid is None else grid, o.holes if holes is None else holes,
                                    o.openers if openers is None else openers)
        rules = parse_rules(rules_spec, players=4 if players is None else players, grid=grid, holes=holes,
                            openers=openers)
    if bots_spec is None:
        if old is not None and len(old.bots) != rules.players:
            # else "2 bots for 3 players", naming neither the run's bots nor the option that differs
            raise InputError(f"the run goes on with its own bots, {','.join(old.bots)}: {len(old.bots)} players, not "
                             f"{rules.players}; repeat its table, or start a new run in another --out")
        return rules, old.bots if old is not None else ("heuristic",) * rules.players
    return rules, tuple(parse_bots(bots_spec, rules.players))


# -- a bot's full settings, as a run's manifest records them --------------------------
# (made by golfsolve.grid.bots.bot_settings, which imports the bots; these only read them)

#: What a manifest records where a run was made before bots' settings were recorded.
NOT_RECORDED = "not recorded (the run was made by an older golfsolve)"


def _shown(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_shown(x) for x in v) + "]"
    return repr(v) if isinstance(v, str) else str(v)


def describe_settings(settings: Optional[dict]) -> str:
    """A bot's recorded settings in one line, ``ISMCTSBot: iterations 1000, c_ucb 10.0, ...``,
    or :data:`NOT_RECORDED` for None."""
    if settings is None:
        return NOT_RECORDED
    rest = ", ".join(f"{k} {_shown(v)}" for k, v in settings.items() if k not in ("kind", "class"))
    return f"{settings.get('class', settings.get('kind', '?'))}" + (f": {rest}" if rest else "")


def settings_difference(recorded: dict, now: dict, every: bool = False) -> Optional[tuple[str, str, str]]:
    """The first setting ``recorded`` holds otherwise than ``now`` (None: none), as ``(name,
    recorded value, value now)`` written for a message ("none" where one side lacks it). A
    setting ``now`` has and ``recorded`` lacks was not recorded by the version that made the
    run and is passed over, unless ``every`` (then the two must be the same settings)."""
    for k in dict.fromkeys([*recorded, *now]):
        if k not in recorded and not every:
            continue
        a, b = recorded.get(k, _NONE), now.get(k, _NONE)
        if a is _NONE or b is _NONE or not _same(a, b):
            return k, "none" if a is _NONE else _shown(a), "none" if b is _NONE else _shown(b)
    return None


def _same(a: Any, b: Any) -> bool:
    # 10 and 10.0 are one value; True is not 1, nor "10" 10
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, (bool, str)) or isinstance(b, (bool, str)):
        return type(a) is type(b) and a == b
    return a == b


_NONE = object()

#: The JSON values a recorded setting may have.
_PLAIN = (bool, int, float, str)


def is_recordable(v: Any) -> bool:
    """Whether ``v`` is a value a run's manifest records as a bot's setting (and reads back):
    a number (not NaN), text, true/false, or a list of numbers."""
    if isinstance(v, float):
        return v == v
    if isinstance(v, list):
        return all(isinstance(x, (int, float)) and not isinstance(x, bool) and x == x for x in v)
    return isinstance(v, _PLAIN)


def check_settings_table(value: Any, bots: Sequence[str], where: str) -> Optional[dict[str, dict[str, Any]]]:
    """A manifest's ``bot_settings`` (``where`` names the field in messages), checked: None
    (not recorded), or for each bot of ``bots`` (names as the run records them) a table of
    setting -> plain JSON value (a number, text, true/false, or a list of numbers).
    :class:`InputError` otherwise: a field golfsolve writes, edited by hand."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise InputError(f"{where}: a table of each bot's settings, not {type(value).__name__}")
    names = list(dict.fromkeys(bots))
    if sorted(value) != sorted(names):
        raise InputError(f"{where}: records the bots {', '.join(map(repr, value))}, but the run seats "
                         f"{', '.join(map(repr, names))}")
    for bot, s in value.items():
        if not isinstance(s, dict) or not s:
            raise InputError(f"{where}.{bot}: a table of settings, not {_shown(s)[:40]}")
        for k, v in s.items():
            if not is_recordable(v):
                raise InputError(f"{where}.{bot}.{k}: a number, text, true/false or a list of numbers, "
                                 f"not {_shown(v)[:40]}")
    return value
