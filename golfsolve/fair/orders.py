"""The stock orders consistent with what a player has seen.

What counts as unknown: the ``None`` positions of ``layout.stock``. They are filled with
the cards the layout does not show (:meth:`Layout.unseen_cards`), minus ``played``, the
cards the caller knows went to the discard pile earlier (a mid-game layout only shows the
discard's top card). When more cards are unseen than there are unknown positions (a
mid-game layout whose played cards are not given), each unknown position gets a card from
a uniformly random subset of the unseen cards: the stock is then modelled as any of them.

Every fair answer draws its orders through :func:`stock_orders`: every possible order
when there are few, else a seeded sample, so equal views and seeds give equal orders.
"""

from __future__ import annotations

import math
import random
from itertools import permutations
from collections import abc
from typing import Iterable, Optional, Sequence

from ..cards import N_CARDS_MAX, N_STANDARD, card_str
from ..errors import InputError
from ..inputs import is_whole_number, seed_value, whole_count
from ..text import plural
from ..solitaire.layout import N_TABLEAU, Layout, layout_rules, trusted_layout
from ..solitaire.rules import Rules


def check_played(played: Iterable[int], what: str = "played") -> tuple[int, ...]:
    """``played`` (cards known to be under the discard's top) as a tuple of card ids;
    :class:`InputError` for anything else. A card written 'AS' matched no card id, so the
    played card stayed among the stock's possible cards without a word."""
    if isinstance(played, (str, bytes)) or not isinstance(played, abc.Iterable):  # else "'int' object is not iterable"
        raise TypeError(f"{what} must be a list of card ids, e.g. [parse_card('AS')], not "
                        f"{type(played).__name__} {repr(played)[:40]}")
    out = tuple(played)
    seen: set = set()
    for c in out:
        if not is_whole_number(c) or not 0 <= c < N_CARDS_MAX:
            raise InputError(f"{what} cards are card ids 0 to {N_CARDS_MAX - 1} (parse_card('AS') gives one), "
                             f"not {c!r}")
        if c in seen:  # a card listed twice would surface as "only 15 cards are unseen"
            raise InputError(f"card {card_str(c)} is listed twice among the {what} cards")
        seen.add(c)
    return out


def check_played_not_held(layout: Layout, played: tuple[int, ...], what: str = "played",
                          where: str = "the layout holds it") -> None:
    """:class:`InputError` naming a played card that ``layout`` holds, stock included: checked
    before the stock order is forgotten, after which a stock card listed as played surfaced
    only as "the stock has 16 unknown cards but only 15 cards are unseen". ``what`` and
    ``where`` word the message for the caller's own names."""
    clash = sorted(set(played) & set(layout.seen_cards()))
    if clash:
        raise InputError(f"card {card_str(clash[0])} is listed as {what} but {where}")


def unknown_pool(layout: Layout, rules: Optional[Rules] = None, played: Iterable[int] = ()) -> tuple[list[int], list[int]]:
    """``(positions, pool)``: the stock indices whose card is unknown (``None``: a card given is
    taken as seen, see :func:`stock_orders`), and the cards that may fill them.

    Raises :class:`InputError` when the pool cannot fill the positions, or when a full
    deal (35 cards on the table) shows a different number of unseen cards than it has
    unknown stock positions (nothing has been played, so the two must match).
    """
    rules = layout_rules(layout, rules)  # rules by name would fail as an AttributeError ("no attribute 'jokers'")
    positions = [i for i, c in enumerate(layout.stock) if c is None]
    played_set = set(check_played(played))
    shown = set(layout.seen_cards())
    clash = sorted(played_set & shown)
    if clash:
        raise InputError(f"card {card_str(clash[0])} is listed as played but the layout shows it")
    # a joker the rules do not deal was dropped from the count without a word
    beyond = sorted(c for c in played_set if c >= N_STANDARD + rules.jokers)
    if beyond:
        raise InputError(f"card {card_str(beyond[0])} is listed as played but rules {rules.name!r} deal "
                         f"{rules.jokers or 'no'} joker{'' if rules.jokers == 1 else 's'}")
    pool = [c for c in layout.unseen_cards(rules.jokers) if c not in played_set]
    if len(pool) < len(positions):
        raise InputError(
            f"the stock has {plural(len(positions), 'unknown card')} but only {plural(len(pool), 'card')} "
            f"{'is' if len(pool) == 1 else 'are'} unseen"
        )
    # a full stock on a whole table: nothing has been played (after draws, the cards under the
    # discard's top are unseen too)
    if (len(pool) != len(positions) and layout.tableau_count == N_TABLEAU and not played_set
            and len(layout.stock) == rules.stock_size):
        raise InputError(
            f"a full deal with {len(positions)} unknown stock cards must leave exactly that many cards unseen, "
            f"not {len(pool)}"
        )
    return positions, pool


def arrangements(n_pool: int, n_positions: int) -> int:
    """How many distinct ways ``n_positions`` unknown stock places can be filled from ``n_pool`` cards."""
    return math.perm(n_pool, n_positions)


def fill_stock(layout: Layout, positions: Sequence[int], cards: Sequence[int]) -> tuple[int, ...]:
    """``layout``'s stock with the places ``positions`` filled by ``cards``, in that order."""
    stock = list(layout.stock)
    for i, c in zip(positions, cards):
        stock[i] = c
    return tuple(stock)  # type: ignore[arg-type]


def with_stock(layout: Layout, stock: Sequence[int]) -> Layout:
    """``layout`` with its stock replaced by ``stock`` (a complete order)."""
    return trusted_layout(layout.columns, layout.discard, tuple(stock), layout.rules, layout.name, layout.deal_number)


def sample_stocks(
    layout: Layout,
    rng: random.Random,
    n: int,
    rules: Optional[Rules] = None,
    played: Iterable[int] = (),
) -> list[tuple[int, ...]]:
    """``n`` complete stocks: the known cards where they are, the unknown places filled at random.

    Each unknown place gets a card of a uniformly random permutation of the unseen
    cards (of a uniformly random subset of them when more cards are unseen than places).
    """
    positions, pool = unknown_pool(layout, rules, played)
    k = len(positions)
    return [fill_stock(layout, positions, rng.sample(pool, k)) for _ in range(n)]


def stock_orders(
    layout: Layout,
    rules: Optional[Rules],
    n: int,
    rng: random.Random | int | str,
    played: Iterable[int] = (),
) -> tuple[list[tuple[int, ...]], bool]:
    """``(stocks, every)``: every possible stock when there are no more than ``n``, else ``n`` sampled ones.

    ``layout`` is taken as its player sees it: a stock place holding a card is a card seen,
    so a full layout (a deal code's) has one stock, its own. For a deal whose order the
    player has not seen, forget it first (:func:`~golfsolve.fair.view.as_seen`), as every
    fair answer does.

    With ``every`` each arrangement appears once, so a fraction over them is the exact
    probability, not an estimate. ``rng`` is a generator to draw from, or a seed: a whole
    number from 0 to 2**64 - 1 as every fair answer takes one, or text (a fair game's name).
    """
    n = whole_count(n, "n")  # 10**9 orders would fill the memory; 2.5 failed deep in the sampling
    if not isinstance(rng, (random.Random, str)):
        # -1 would draw seed 1's orders, 2.5 a hash's, None new ones from the clock at every call
        rng = seed_value(rng)
    positions, pool = unknown_pool(layout, rules, played)
    if arrangements(len(pool), len(positions)) <= n:
        return [fill_stock(layout, positions, p) for p in permutations(pool, len(positions))], True
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    return sample_stocks(layout, rng, n, rules, played), False


def referee_seed(seed: int) -> str:
    """The seed of the stock orders a fair answer's referee plays on (``odds``' samples and
    games, a rating's games): a stream of its own. From ``seed`` itself, the one the fair
    player draws its own guesses with, the player's sampled orders were the referee's real
    orders card for card up to a relabelling of the unseen cards (the same draws from pools
    of the same size): a player whose guesses match the truth, which raised ``rate``'s fair
    chance by about 4 points on some deals."""
    return f"referee-{seed_value(seed)}"


__all__ = ["unknown_pool", "arrangements", "fill_stock", "with_stock", "sample_stocks", "stock_orders", "referee_seed"]
