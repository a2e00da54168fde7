"""What a player sees of a position, and what it may do there without knowing the stock."""

from __future__ import annotations

from typing import Optional, Sequence

from ..cards import JOKER_RANK, N_RANKS, N_STANDARD, rank_of
from ..errors import InputError
from ..inputs import expect, whole_count
from ..solitaire.engine import Game
from ..solitaire.layout import Layout, layout_arg, trusted_layout
from ..solitaire.rules import Rules
from ..solitaire.solver import MOVE_DRAW
from .orders import check_played, check_played_not_held


def player_view(layout: Layout, game: Optional[Game] = None) -> tuple[Layout, tuple[int, ...]]:
    """What a player sees of ``game`` (started from ``layout``; none played: its start):
    the position with every stock card not yet turned forgotten (a card turned and put back
    by undo has been seen, and stays known), and the cards under the discard's top. A deal
    code, a PySol deal or a full layout knows the real stock order, which a player does not;
    a partial layout keeps the places it declares known. Every fair answer (``hint --fair``,
    ``odds``) starts from this view."""
    layout_arg(layout)
    expect(game, (Game, type(None)), "game", "a Game started from the layout, or None")
    if game is not None and game.layout is not layout and game.layout != layout:
        # the view forgets the stock by what ``layout`` knows: a game of a full deal given with a
        # partial layout kept the whole real stock order in the view, and the fair hint peeked
        raise InputError("the game was not started from this layout: give the layout the Game was made with")
    view = game.to_layout() if game is not None else layout
    if layout.stock_known:
        # a card turned and put back by undo was seen: it stays known
        view = view.forget_stock(game.seen_stock if game is not None else 0)
    return view, tuple(game.pile[:-1]) if game is not None else ()


def as_seen(layout: Layout, seen: int = 0) -> Layout:
    """``layout`` as its player sees it when the player has seen the stock's first ``seen``
    cards (turned and put back by undo): a whole stock order given is the referee's, and
    is forgotten beyond them; a partial layout keeps the places it declares known. A view
    whose every stock card was seen is a whole stock order too, so the fair answers take a
    view with ``seen`` its stock's length, not with the order forgotten."""
    layout_arg(layout)
    seen = whole_count(seen, "seen", 0, len(layout.stock))
    if layout.stock_known:
        return layout.forget_stock(seen)
    shown = next((i for i, c in enumerate(layout.stock) if c is None), len(layout.stock))
    if shown < seen < len(layout.stock):
        # answered as if only the shown cards were seen, without a word
        raise InputError(f"seen must be at most {shown}: the layout names only its first {shown} stock cards, and "
                         f"a card the player has seen is a card the layout names (not {seen})")
    return layout


def by_rank(view: Layout, gone: Sequence[int] = ()) -> tuple[Layout, tuple[int, ...]]:
    """``view`` and ``gone`` (the cards under the discard's top) with every seen card named by
    its rank and its place among the seen cards of that rank: the columns bottom to top, then
    ``gone``, the discard's top and the stock's known places. Suits play no part in Golf, so
    two positions that differ only in which suit sits where become one; the cards nobody
    has seen keep the names left over (the same ones in both), so the stock orders a seeded
    player samples for the two are the same too. Applying it twice changes nothing."""
    layout_arg(view, "view")
    gone = check_played(gone, "gone")  # card id -1 or 99 would be named as a King or a Queen without a word
    check_played_not_held(view, gone, "gone", "the view shows it")
    return rank_names(view, gone)


def rank_names(view: Layout, gone: tuple[int, ...]) -> tuple[Layout, tuple[int, ...]]:
    """:func:`by_rank` without its argument checks, for the fair player's decisions: the
    views and cards it passes are the referee's own."""
    count = [0] * (JOKER_RANK + 1)

    def name(card: int) -> int:
        r = rank_of(card)
        k = count[r]
        count[r] += 1
        return N_STANDARD + k if r == JOKER_RANK else k * N_RANKS + r

    columns = tuple(tuple(name(c) for c in col) for col in view.columns)
    under = tuple(name(c) for c in gone)
    top = None if view.discard is None else name(view.discard)
    stock = tuple(None if c is None else name(c) for c in view.stock)
    return trusted_layout(columns, top, stock, view.rules, view.name, view.deal_number), under


def legal_moves(layout: Layout, rules: Rules) -> list[str]:
    """The legal moves, asked of the referee; a draw is legal when the stock is non-empty.

    The engine refuses to draw an unknown card, so it is asked about the position with a
    stand-in first stock card: legality of a draw never depends on which card it is.
    """
    layout_arg(layout)  # named at the call, not "'str' object has no attribute 'stock'"
    expect(rules, Rules, "rules", "a Rules, e.g. get_rules('classic')")
    probe = layout
    if layout.stock and layout.stock[0] is None:
        probe = trusted_layout(layout.columns, layout.discard, (0,) + layout.stock[1:], layout.rules)
    return Game(probe, rules).legal_moves()


def after_move(layout: Layout, stock: tuple[int, ...], move: str) -> Layout:
    """The position after ``move`` with the complete stock ``stock`` (the referee's rules, built directly for speed)."""
    if move == MOVE_DRAW:
        return trusted_layout(layout.columns, stock[0], stock[1:], layout.rules)
    ci = int(move) - 1
    col = layout.columns[ci]
    cols = layout.columns[:ci] + (col[:-1],) + layout.columns[ci + 1:]
    return trusted_layout(cols, col[-1], stock, layout.rules)


__all__ = ["player_view", "as_seen", "by_rank", "rank_names", "legal_moves", "after_move"]
