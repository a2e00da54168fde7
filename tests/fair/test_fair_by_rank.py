"""``PlayerSettings.by_rank`` (in ``fast``): the player names the cards by rank and order of
appearance (:func:`golfsolve.fair.view.by_rank`), so positions that differ only in suits are
one position to it, and games of one ``odds`` question that turned the same ranks share
their decisions."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from golfsolve.cards import rank_of
from golfsolve.errors import InputError
from golfsolve.fair import PRESETS, fair_hint, odds, play
from golfsolve.fair.orders import unknown_pool
from golfsolve.fair.player import Player
from golfsolve.fair.view import by_rank, player_view
from golfsolve.solitaire.engine import Game
from golfsolve.solitaire.layout import Layout, layout_from_number
from golfsolve.solitaire.rules import CLASSIC, EASY

FAST = PRESETS["fast"]


def suit_swapped(lay: Layout, a: int, b: int) -> Layout:
    """``lay`` with cards ``a`` and ``b`` (of one rank) trading places, wherever they are."""
    assert rank_of(a) == rank_of(b) and a != b
    swap = {a: b, b: a}

    def s(c):
        return swap.get(c, c)

    return Layout(tuple(tuple(s(c) for c in col) for col in lay.columns), s(lay.discard),
                  tuple(s(c) for c in lay.stock), lay.rules, lay.name)


def same_rank_pair(lay: Layout, in_stock: bool) -> tuple[int, int]:
    """Two cards of one rank: both in the stock, or one on the table and one in the stock."""
    table = [c for col in lay.columns for c in col]
    for i, a in enumerate(lay.stock):
        for b in (lay.stock[i + 1:] if in_stock else table):
            if rank_of(a) == rank_of(b):
                return a, b
    raise AssertionError("no such pair")


def test_by_rank_makes_positions_that_differ_in_suits_one():
    lay = layout_from_number(4, CLASSIC, "C")
    game = Game(lay, CLASSIC)
    for m in ("d", "d", "d"):
        game.play(m)
    view, gone = player_view(lay, game)
    # a table card traded with an unseen card of its rank, and a turned card with a table card
    table = [c for col in view.columns for c in col]
    unseen = unknown_pool(view, CLASSIC, gone)[1]
    a, b = next((a, b) for a in table for b in unseen if rank_of(a) == rank_of(b))
    other = suit_swapped(view, a, b)
    assert other != view and by_rank(other, gone) == by_rank(view, gone)
    top = view.discard
    c = next((c for c in table if rank_of(c) == rank_of(top)), None)
    if c is not None:
        swapped = suit_swapped(view, top, c)
        assert by_rank(swapped, gone) == by_rank(view, gone)
    named, under = by_rank(view, gone)
    # ranks stay where they were, every name once, and applying it again changes nothing
    assert [[rank_of(x) for x in col] for col in named.columns] == [[rank_of(x) for x in col] for col in view.columns]
    assert [rank_of(x) for x in under] == [rank_of(x) for x in gone] and rank_of(named.discard) == rank_of(top)
    seen = named.seen_cards() + list(under)
    assert len(set(seen)) == len(seen)
    assert by_rank(named, under) == (named, under)
    # the cards that may fill the stock: the same ranks, as many of each
    pool = sorted(rank_of(x) for x in unknown_pool(named, CLASSIC, under)[1])
    assert pool == sorted(rank_of(x) for x in unknown_pool(view, CLASSIC, gone)[1])


def test_by_rank_names_jokers_and_known_stock_places():
    from golfsolve.solitaire.rules import get_rules

    rules = get_rules("easy+jokers1")
    lay = layout_from_number(2, rules, "E")
    view, _ = player_view(lay)
    known = Layout(view.columns, view.discard, (lay.stock[0],) + view.stock[1:], rules, view.name)
    named, _ = by_rank(known)
    assert named.stock[0] is not None and rank_of(named.stock[0]) == rank_of(lay.stock[0])
    assert len(unknown_pool(named, rules)[1]) == len(unknown_pool(known, rules)[1])
    assert all(rank_of(c) == rank_of(d) for c, d in zip(named.seen_cards(), known.seen_cards()))


def test_the_fast_player_decides_alike_on_positions_that_differ_in_suits():
    from golfsolve.fair.view import legal_moves

    lay = next(x for x in (layout_from_number(n, EASY, "E") for n in range(6, 40))
               if len(legal_moves(player_view(x)[0], EASY)) > 2)
    view, _ = player_view(lay)
    a, b = same_rank_pair(lay, in_stock=False)
    other, _ = player_view(suit_swapped(lay, a, b))
    assert other != view
    da = Player(EASY, FAST, 3).decide(view, ())
    db = Player(EASY, FAST, 3).decide(other, ())
    assert da.chain == db.chain
    ha, hb = (fair_hint(v, EASY, seed=3, player="fast").as_json() for v in (view, other))
    assert [(m["move"], m["fair_value"]) for m in ha["ranked"]] == [(m["move"], m["fair_value"]) for m in hb["ranked"]]
    assert len(ha["ranked"]) > 2


def test_games_that_turn_the_same_ranks_share_every_decision():
    """Two stocks that differ only in which of two same-rank cards comes first: the fast
    player plays them move for move alike, and the second game takes every decision from
    the first one's table; without by_rank it takes few of them."""
    lay = layout_from_number(1, EASY, "E")
    a, b = same_rank_pair(lay, in_stock=True)
    twin = suit_swapped(lay, a, b)
    assert twin.stock != lay.stock
    grown = {}
    for settings in (FAST, replace(FAST, by_rank=False)):
        table: dict = {}
        g1 = play(lay, EASY, settings, 0, decisions=table)
        n1 = len(table)
        g2 = play(twin, EASY, settings, 0, decisions=table)
        grown[settings.by_rank] = len(table) - n1
        if settings.by_rank:
            assert g1.moves == g2.moves and g1.won == g2.won and n1 > 3
    assert grown[True] == 0 and grown[False] > 0


def test_odds_with_the_fast_player_depends_on_what_is_seen_only():
    lay = layout_from_number(3, CLASSIC, "C")
    a, b = same_rank_pair(lay, in_stock=True)
    answers = [odds(x, CLASSIC, samples=12, seed=2, games=4).as_json() for x in (lay, suit_swapped(lay, a, b))]
    for ans in answers:
        ans.pop("seconds"), ans.pop("cpu_seconds")
    assert answers[0] == answers[1]
    assert answers[0]["player"]["by_rank"] is True


def test_a_fast_run_made_before_by_rank_is_not_resumed_by_fast(run_cli, tmp_path):
    from run_helpers import as_before_setting

    run = tmp_path / "run"
    r = run_cli(["fair-stats", "--count", "1", "--rules", "classic", "--player", "fast", "-j", "1",
                 "--out", str(run), "-q"])
    assert r.exit_code == 0, r.stderr
    assert json.loads((run / "_manifest.json").read_text())["params"]["player"]["by_rank"] is True
    as_before_setting(run, "by_rank", chunks=True)
    r = run_cli(["fair-stats", "--out", str(run), "--extend", "--count", "2"])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "by_rank" in r.stderr, r.stderr
    assert len(list(run.glob("chunk-*.parquet"))) == 1


def test_strong_keeps_the_cards_as_they_are():
    assert PRESETS["strong"].by_rank is False and FAST.by_rank is True
    lay = layout_from_number(5, CLASSIC, "C")
    view, _ = player_view(lay)
    d = Player(CLASSIC, "strong", 1).decide(view, ())
    # the values it decided on are over orders of the real unseen cards
    pool = set(unknown_pool(view, CLASSIC)[1])
    assert d.values is not None and all(set(o) == pool for o in d.values.stocks)


def _view():
    from golfsolve.fair import player_view
    from golfsolve.solitaire.layout import layout_from_code

    return player_view(layout_from_code("GO1-E-AAAAAAB"))[0]


@pytest.mark.parametrize("args, error, words", [
    (("GO1-E-AAAAAAB",), TypeError, "view must be a Layout"),
    ((None,), TypeError, "view must be a Layout"),
    (("view", None), TypeError, "gone must be a list of card ids"),
    (("view", "AS"), TypeError, "gone must be a list of card ids"),
    (("view", [99]), InputError, "gone cards are card ids 0 to 53"),
    (("view", [-1]), InputError, "gone cards are card ids 0 to 53"),
    (("view", [1.5]), InputError, "gone cards are card ids 0 to 53"),
    (("view", "first table card"), InputError, "is listed as gone but the view shows it"),
])
def test_by_rank_names_an_argument_that_is_no_view_or_no_gone_cards(args, error, words):
    """by_rank("GO1-E-AAAAAAB") failed as "'str' object has no attribute 'columns'", and gone cards
    -1 or 99 (or a card the table shows) were named by rank without a word, as a King or a Queen"""
    from golfsolve.fair.view import by_rank

    view = _view()
    args = tuple(view if a == "view" else a for a in args)
    if args[1:] == ("first table card",):
        args = (view, [view.columns[0][0]])
    with pytest.raises(error, match=words):
        by_rank(*args)


def test_by_rank_still_takes_numpy_cards_and_is_the_same_applied_twice():
    from golfsolve.fair.view import by_rank

    view = _view()
    gone = [c for c in range(52) if c not in {x for col in view.columns for x in col} | {view.discard}][:2]
    once = by_rank(view, [np.int64(c) for c in gone])
    assert once == by_rank(view, gone)
    assert by_rank(*once) == once
