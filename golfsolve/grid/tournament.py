"""Seeded tournaments between bots, their results as tables, and the statistics on them.

Every match draws its generators from ``numpy.random.SeedSequence(seed).spawn``, so a run
is reproducible and does not depend on how matches are split up.

**Seating** (:func:`seating`, scheme :data:`SEATING`, ``cyclic``). A bot's strokes depend on
who plays just before it (it picks up that player's discards), so no bot may keep a
neighbour. Match ``m`` uses cyclic order ``(m // n) mod k`` of a fixed list of ``k`` cyclic
orders of the entries (:func:`seating_orders`), in its rotation ``m mod n``: the rotations of
one cyclic order in ``n`` consecutive matches, so every ``n`` matches each entry sits once
in each seat, and every cycle of ``n * k`` matches (:func:`seating_cycle`) each entry has had
each other entry just before it equally often. The list is the fewest orders that do so:
up to four players every cyclic order (entry 0 first, the others in lexicographic order;
cycles of 2, 6 and 24 matches: four players have no 3 orders holding each ordered pair of
entries once); five players 4 of their 24 orders, in which each ordered pair is neighbours
exactly once (a cycle of 20 matches); six players 10 of their 120, each pair neighbours
exactly twice (a cycle of 60: no 5 orders hold each pair once, as the complete digraph on 6
vertices has no such decomposition, Tillson 1980). The five- and six-player lists are the
first such sets a fixed depth-first search over the orders meets, each next order in the
list the one whose pairs have been neighbours least so far: a run that ends inside a cycle
is about as even as it can be (at six players the first 6 orders, 36 matches, make every
ordered pair neighbours at least once).

``balanced``, the scheme before it, seats up to five players in every cyclic order (as
``cyclic`` does up to four; 120 matches for five) and draws a random seating per match from
the match's own seed stream at six, balanced only on average; its runs are read, resumed
and extended with it. ``rotation``, older still, never changed the
cyclic order. The first player moves one seat every hole.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

import numpy as np

from ..errors import MAX_INT64, InputError
from ..inputs import callback, expect, one_of, seed_value, whole_count
from ..text import plural
from .rules import GridRules, grid_rules_arg

if TYPE_CHECKING:  # the bots (numba) and pandas load when matches are played: a command checks its arguments before
    import pandas as pd

    from .tally import Tally

HOLE_COLUMNS = ["match", "hole", "seat", "entry", "bot", "before", "before_bot", "strokes", "raw", "first",
                "closer", "knocker", "reason", "turns", "recycles"]
#: The seating scheme of :func:`seating` for new runs, recorded with every run.
SEATING = "cyclic"
#: The scheme before it: ``cyclic`` up to five players, a seeded random seating per match
#: at six. Runs made with it are resumed and extended with it, never mixed with ``cyclic``.
BALANCED_SEATING = "balanced"
#: The scheme of runs made before both: seat ``s`` of match ``m`` held entry ``(s + m) % n``,
#: so the cyclic order never changed and each bot always followed the same neighbour.
OLD_SEATING = "rotation"
#: The schemes a run can be played with (a new run: :data:`SEATING` only).
PLAYED_SEATINGS = (SEATING, BALANCED_SEATING)
#: Every scheme a run can record.
SEATINGS = PLAYED_SEATINGS + (OLD_SEATING,)
#: Up to this many players ``balanced`` uses every seating in turn; above it, a random one per match.
BALANCED_MAX_PLAYERS = 5
#: How often each ordered pair of entries is neighbours in the ``cyclic`` list of cyclic orders
#: where it is not every order: the least for which such a list exists.
_PAIR_TIMES = {5: 1, 6: 2}


def cyclic_orders(n: int) -> tuple[tuple[int, ...], ...]:
    """Every cyclic order of ``n`` entries, each written from entry 0, the rest in lexicographic order."""
    # a table seats at most six; (n - 1)! orders would never end for twenty, and none exist for zero;
    # checked before the cache, which fails on a list as "unhashable type" naming nothing
    return _cyclic_orders(whole_count(n, "n", 1, 6))


@lru_cache(maxsize=None)
def _cyclic_orders(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple((0,) + p for p in permutations(range(1, n)))


def _neighbour_pairs(order: Sequence[int]) -> list[tuple[int, int]]:
    """The ordered pairs ``(a, b)`` of ``order`` in which ``a`` plays just before ``b``."""
    return [(order[i], order[(i + 1) % len(order)]) for i in range(len(order))]


def seating_orders(n: int) -> tuple[tuple[int, ...], ...]:
    """The cyclic orders the ``cyclic`` scheme seats ``n`` entries in, in turn: every one
    (:func:`cyclic_orders`) up to four players; at five, the first set in lexicographic order
    of 4 orders in which each ordered pair of entries is neighbours exactly once; at six, of
    10 orders in which each is neighbours exactly twice.

    The search is depth-first over :func:`cyclic_orders` in their order, so it always
    finds the same set (a millisecond); tests pin it, since recorded runs depend on it."""
    # checked before the cache, which fails on a list as "unhashable type" naming nothing
    return _seating_orders(whole_count(n, "n", 2, 6))


@lru_cache(maxsize=None)
def _seating_orders(n: int) -> tuple[tuple[int, ...], ...]:
    orders = cyclic_orders(n)
    times = _PAIR_TIMES.get(n)
    if times is None:
        return orders
    # each order holds n of the n(n-1) ordered pairs, so each pair `times` times takes times(n-1) orders
    want = times * (n - 1)
    count: dict[tuple[int, int], int] = {}
    chosen: list[int] = []

    def extend(start: int) -> bool:
        if len(chosen) == want:
            return True
        for i in range(start, len(orders)):
            pairs = _neighbour_pairs(orders[i])
            if all(count.get(p, 0) < times for p in pairs):
                for p in pairs:
                    count[p] = count.get(p, 0) + 1
                chosen.append(i)
                if extend(i + 1):
                    return True
                chosen.pop()
                for p in pairs:
                    count[p] -= 1
        return False

    if not extend(0):  # pragma: no cover - the search is fixed and succeeds
        raise AssertionError(f"no exact seating design for {n} players")
    # a run stops at any match, most often inside a cycle: each next order is the one whose
    # pairs have been neighbours least so far (ties: search order), so that the first few
    # orders of a cycle spread the neighbours about as evenly as they can
    left, out, seen = list(chosen), [], {}
    while left:
        i = min(left, key=lambda i: (sum(seen.get(p, 0) for p in _neighbour_pairs(orders[i])), i))
        left.remove(i)
        out.append(i)
        for p in _neighbour_pairs(orders[i]):
            seen[p] = seen.get(p, 0) + 1
    return tuple(orders[i] for i in out)


def seating_cycle(n: int, scheme: str = SEATING) -> Optional[int]:
    """Matches after which the seatings of ``scheme`` for ``n`` entries repeat, so that each
    entry has sat in each seat, and after each other entry, equally often: ``n`` times the
    number of its cyclic orders (``cyclic``: 2, 6, 24, 20 and 60 matches for 2 to 6 players;
    ``balanced``: 120 at five). ``rotation`` repeats every ``n`` matches (each entry always
    after the same one); None for ``balanced`` at six players, whose seatings are random."""
    n = whole_count(n, "n", 2, 6)
    scheme = one_of(scheme, SEATINGS, "the seating scheme")
    if scheme == OLD_SEATING:
        return n
    if scheme == BALANCED_SEATING and n > BALANCED_MAX_PLAYERS:
        return None
    return n * len(_orders(n, scheme))


def _orders(n: int, scheme: str) -> tuple[tuple[int, ...], ...]:
    """The cyclic orders ``scheme`` seats ``n`` entries in, in turn (not ``balanced`` at six)."""
    return cyclic_orders(n) if scheme == BALANCED_SEATING else seating_orders(n)


def seating(n: int, match: int, seed: int, scheme: str = SEATING) -> tuple[int, ...]:
    """Seat -> entry of match ``match`` of a tournament of ``n`` entries seeded ``seed``.

    ``cyclic`` (see the module's docstring) the scheme of new runs; ``balanced`` the one
    before it (a seeded random permutation per match at six players); ``rotation`` the old
    scheme, kept to read runs made with it.
    """
    # n=0 would divide by zero, match -1 take another match's seating
    n = whole_count(n, "n", 2, 6)
    match = whole_count(match, "match", 0, MAX_INT64)
    seed = seed_value(seed)
    scheme = one_of(scheme, SEATINGS, "the seating scheme")
    if scheme == OLD_SEATING:
        return tuple((s + match) % n for s in range(n))
    if scheme == BALANCED_SEATING and n > BALANCED_MAX_PLAYERS:
        # The match's own stream, next to its game (child 0) and bot (children 1..n) streams.
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(match, n + 1)))
        return tuple(int(e) for e in rng.permutation(n))
    orders = _orders(n, scheme)
    order = orders[(match // n) % len(orders)]
    r = match % n
    return tuple(order[(s + r) % n] for s in range(n))


def seating_described(scheme: str) -> str:
    """One sentence for a report: how the scheme ``scheme`` seats the bots."""
    scheme = one_of(scheme, SEATINGS, "the seating scheme")
    if scheme == OLD_SEATING:
        return ("Rotation seating: seats rotated but the cyclic order of the bots never changed, so each bot "
                "always played after the same neighbour")
    if scheme == BALANCED_SEATING:
        return ("Balanced seating: every cyclic order of the bots in each of its rotations, the rotations in "
                "consecutive matches, so no bot keeps a seat or a neighbour (at six players a seeded random seating "
                "per match, balanced only on average)")
    return ("Cyclic seating: cyclic orders of the bots in each of their rotations, the rotations in consecutive "
            "matches (every order up to four players; at five 4 orders in which each ordered pair of bots is "
            "neighbours once, at six 10 in which it is twice), so each bot sits once in each seat every n matches "
            "and after every other bot equally often every 2, 6, 24, 20 or 60 matches (2 to 6 players)")


def before_entries(entries: Sequence[int]) -> list[int]:
    """Seat -> the entry that plays just before that seat (seat ``s - 1``, turns go up the seats)."""
    n = len(entries)
    return [entries[(s - 1) % n] for s in range(n)]


@dataclass
class Tournament:
    """Results of :func:`simulate`: one row per player per hole, one per player per match."""

    rules: GridRules
    bots: list[str]
    seed: int
    holes: pd.DataFrame
    matches: pd.DataFrame
    samples: Optional[int] = None
    seating: str = SEATING
    #: each bot name's full settings (:func:`~.bots.bot_settings`), as the run that played the
    #: matches recorded them; None where they were not recorded (a run made by an older version)
    bot_settings: Optional[dict[str, dict[str, Any]]] = None

    def __eq__(self, other: object) -> bool:
        # the dataclass's own == compared the tables as a tuple and failed as "the truth value of
        # a DataFrame is ambiguous": a tournament, replayed or read back from a pickle, is equal
        # to the one it repeats when every table and field is
        if not isinstance(other, Tournament):
            return NotImplemented
        return (self.holes.equals(other.holes) and self.matches.equals(other.matches)
                and (self.rules, self.bots, self.seed, self.samples, self.seating, self.bot_settings)
                == (other.rules, other.bots, other.seed, other.samples, other.seating, other.bot_settings))

    def tally(self) -> "Tally":
        """The running totals of the whole tournament (made once, then kept while its tables stay the same)."""
        from .tally import Tally

        key = (id(self.holes), len(self.holes), id(self.matches), len(self.matches))
        cached = self.__dict__.get("_tally")
        if cached is None or cached[0] != key:
            cached = (key, Tally.of(self))
            self.__dict__["_tally"] = cached
        return cached[1]

    def meta(self) -> dict[str, Any]:
        """What the tournament ran: rules, bots, seed and match count, for its manifest and report."""
        return {"rules": self.rules.to_dict(), "rules_spec": self.rules.spec(), "bots": self.bots,
                "seed": self.seed, "matches": int(self.matches["match"].nunique()) if len(self.matches) else 0,
                "mc_samples": self.samples, "seating": self.seating, "bot_settings": self.bot_settings}


def played_settings(bots: Sequence[str], samples: Optional[int] = None) -> dict[str, dict[str, Any]]:
    """Each bot name's full settings as this version of golfsolve plays it (:func:`~.bots.bot_settings`;
    ``samples``: the Monte Carlo sample count of ``mc`` bots named without one)."""
    from .bots import bot_settings

    return {b: bot_settings(b, samples) for b in dict.fromkeys(bots)}


def _checked(rules: GridRules, bots: Sequence[str], matches: int, seed: int, samples: Optional[int],
             progress: Optional[Callable[[int], None]], first_match: int, scheme: str
             ) -> tuple[list[str], int, int, Optional[int], int]:
    """The arguments of :func:`simulate` and :func:`simulate_tally`, checked as the command
    checks its options: ``(bots, matches, seed, samples, first_match)``, each name written
    one way and each number a plain ``int``."""
    from .botnames import bot_name, check_distinct_bots, check_samples_used
    from .bots import make_bot

    grid_rules_arg(rules)
    callback(progress, "progress", "called with 1 after each match, e.g. a tqdm bar's update (not a switch)")
    # one name per seat: "mc,greedy" as text would be counted a bot per character
    if isinstance(bots, (str, bytes)) or not hasattr(bots, "__len__"):
        raise TypeError(f"bots must be a list of bot names, e.g. ['mc', 'greedy'], not {type(bots).__name__} "
                        f"{repr(bots)[:40]}")
    n = rules.players
    if len(bots) != n:
        raise InputError(f"{plural(len(bots), 'bot')} for {n} players")
    # as the command checks its options: NaN, 2.5 or -1 would fail deep in NumPy's seeding
    seed = whole_count(seed, "seed", 0, 2**64 - 1)
    matches = whole_count(matches, "--matches", 1, 2**63 - 1)
    first_match = whole_count(first_match, "first_match", 0, 2**63 - 1)
    if samples is not None:
        samples = whole_count(samples, "Monte Carlo samples")
    seating(n, 0, seed, scheme)  # a known scheme
    # each name written one way, as the command writes them: 'Random' and ' random ' are one bot
    bots = [bot_name(b) for b in bots]
    for b in bots:
        make_bot(b)
    check_samples_used(bots, samples)
    check_distinct_bots(bots, samples)
    return bots, matches, seed, samples, first_match


def simulate(rules: GridRules, bots: Sequence[str], matches: int, seed: int, samples: Optional[int] = None,
             progress: Optional[Callable[[int], None]] = None, first_match: int = 0,
             scheme: str = SEATING) -> Tournament:
    """Play ``matches`` matches of ``rules.holes`` holes between ``bots`` (names such as
    ``mc``, ``greedy``, ``random``; ``samples`` sets the Monte Carlo sample count).

    ``first_match`` starts the seed stream further on, so a run can be continued in parts
    that together equal one long run. ``scheme`` is the seating scheme (:func:`seating`):
    ``balanced`` to continue a run made with it, the old ``rotation`` only to measure what it did.
    """
    import pandas as pd

    from .bots import make_bot
    from .engine import BotError, bot_rng, play_match

    bots, matches, seed, samples, first_match = _checked(rules, bots, matches, seed, samples, progress,
                                                          first_match, scheme)
    n = rules.players
    hole_rows: list[tuple] = []
    match_rows: list[tuple] = []
    for k in range(matches):
        m = first_match + k
        # match m's sequence is SeedSequence(seed).spawn(...)[m], made directly: a run continued
        # at match 1,000,000 does not first make a million sequences
        ss = np.random.SeedSequence(seed, spawn_key=(m,))
        game_ss, *bot_ss = ss.spawn(n + 1)
        entries = seating(n, m, seed, scheme)  # seat -> entry
        before = before_entries(entries)
        players = [make_bot(bots[e], bot_rng(bot_ss[s]), samples) for s, e in enumerate(entries)]
        try:
            res = play_match(rules, players, np.random.default_rng(game_ss))
        except BotError as e:
            # which match: it replays alone with first_match=m, matches=1 and the same seed
            raise BotError(f"match {m} (seed {seed}): {e}") from e
        for h, hr in enumerate(res.holes):
            for s in range(n):
                hole_rows.append((m, h, s, entries[s], bots[entries[s]], before[s], bots[before[s]], hr.strokes[s],
                                  hr.raw[s], hr.first,
                                  -1 if hr.closer is None else hr.closer, -1 if hr.knocker is None else hr.knocker,
                                  hr.reason, hr.turns, hr.recycles))
        share = 1.0 / len(res.winners)
        for s in range(n):
            won = s in res.winners
            match_rows.append((m, s, entries[s], bots[entries[s]], res.totals[s], won, share if won else 0.0))
        if progress is not None:
            progress(1)
    holes = pd.DataFrame(hole_rows, columns=HOLE_COLUMNS)
    mt = pd.DataFrame(match_rows, columns=["match", "seat", "entry", "bot", "total", "winner", "win_share"])
    return Tournament(rules=rules, bots=list(bots), seed=seed, holes=holes, matches=mt, samples=samples,
                      seating=scheme, bot_settings=played_settings(bots, samples))


def simulate_tally(rules: GridRules, bots: Sequence[str], matches: int, seed: int, samples: Optional[int] = None,
                   progress: Optional[Callable[[int], None]] = None, first_match: int = 0,
                   block: int = 10) -> "Tally":
    """The matches of :func:`simulate`, kept only as running totals (:class:`~golfsolve.grid.tally.Tally`):
    played ``block`` matches at a time, each block's rows dropped once counted, so memory
    stays flat however many matches are played. The numbers equal those of the tournament
    :func:`simulate` returns."""
    from .tally import Tally

    # checked as simulate checks them, before the tally is made: a block of -1 played no
    # match and answered an empty tally, and matches="5" failed as "'<' not supported"
    bots, matches, seed, samples, first_match = _checked(rules, bots, matches, seed, samples, progress, first_match,
                                                         SEATING)
    block = whole_count(block, "block", 1, 2**63 - 1)
    tally = Tally(rules, bots, seed, samples, SEATING, bot_settings=played_settings(bots, samples))
    for first in range(first_match, first_match + matches, block):
        t = simulate(rules, bots, min(block, first_match + matches - first), seed, samples, progress, first_match=first)
        tally.add(t.holes, t.matches)
    return tally


# -- statistics (from the running totals of grid/tally.py) ---------------------
def tally_of(t: Tournament) -> "Tally":
    """``t``'s running totals; a :class:`TypeError` naming ``t`` for what is no tournament (a run
    folder's path, a Tally), which would fail as "has no attribute 'tally'"."""
    return expect(t, Tournament, "t", "a Tournament, e.g. simulate(...) or load_tournament(DIR)").tally()


def bot_summary(t: Tournament) -> pd.DataFrame:
    """Per bot name: holes, strokes per hole and per match with 95% intervals, win rate
    with its Wilson interval.

    Holes of one match are not independent (same table), so intervals are taken over
    matches: each (match, bot name) gives its mean strokes per hole over all its seats (a
    bot seated twice at one table is not two independent values).
    """
    return tally_of(t).bot_summary()


def paired_difference(t: Tournament, a: str, b: str) -> dict[str, float]:
    """Mean strokes per hole of bot ``a`` minus bot ``b`` at the same tables, with a 95%
    interval over matches. Negative means ``a`` scores lower (better)."""
    return tally_of(t).paired(a, b)


def neighbour_effect(t: Tournament) -> pd.DataFrame:
    """Strokes per hole of each bot by the bot that plays just before it (whose discards it
    can take), with 95% intervals over matches (the seats of one match where the pairing
    sat give one value, their mean): one row per (``bot``, ``before_bot``).

    With balanced seatings every bot meets every predecessor, so the rows of one bot compare
    its play after each of the others; with the old rotation each entry had one predecessor.
    """
    return tally_of(t).neighbour_effect()


def entry_difference(t: Tournament, a: int, b: int) -> dict[str, float]:
    """Mean strokes per hole of entry ``a`` (position in ``t.bots``) minus entry ``b`` at the
    same tables, with a 95% interval over matches: two copies of one bot should differ by
    nothing but chance when the seating is balanced."""
    return tally_of(t).entry_difference(a, b)


def rate_bots(t: Tournament) -> list[dict[str, Any]]:
    """Plackett-Luce ratings per bot name of a whole tournament, best first: ``mu``,
    ``sigma`` and the conservative ``ordinal`` (mu - 3 sigma) that orders them
    (:mod:`golfsolve.grid.ratings`)."""
    return tally_of(t).ratings()
