"""What the player has seen of the stock: cards turned and put back by undo, stock places a layout
declares, seen cards its layout does not hold. The fair answers keep them, and only them."""

from __future__ import annotations

import pytest

from golfsolve.errors import InputError


def test_a_stock_card_turned_and_put_back_by_undo_stays_known_to_the_fair_answers():
    """after --moves "d u" the fair answers forgot the card the player had just seen (odds said
    16 unknown stock cards, and the fair hint valued a draw of it as a draw of any unseen card);
    twins that differ only beyond the seen card still get the same answer"""
    from golfsolve.fair import fair_hint_for_player, player_view
    from golfsolve.fair.odds import odds_for_player
    from golfsolve.solitaire.hint import position_after
    from golfsolve.solitaire.layout import layout_from_code, trusted_layout

    lay = layout_from_code("GO1-E-AAAAAAB")
    game = position_after(lay, ["d", "u"])
    assert game.seen_stock == 1 and position_after(lay, ["d", "u", "d"]).seen_stock == 0
    view, played = player_view(lay, game)
    assert view.stock[0] == lay.stock[0] and set(view.stock[1:]) == {None} and played == ()
    twin = trusted_layout(lay.columns, lay.discard, lay.stock[:1] + lay.stock[:0:-1], lay.rules, lay.name)
    answers = []
    for deal in (lay, twin):
        hint = fair_hint_for_player(deal, position_after(deal, ["d", "u"]), player="fast").as_json()
        chance = odds_for_player(deal, samples=20, games=4, moves="d u").as_json()
        for j in (hint, chance):
            for k in [k for k in j if "cpu" in k or "seconds" in k]:
                del j[k]
        answers.append((hint, chance))
    assert answers[0] == answers[1]
    assert answers[0][1]["unknown_stock_cards"] == 15, answers[0][1]


#: GO1-C-AAAAAAZ is lost under Classic whatever is played (its fewest cards left is 5)
LOST = "GO1-C-AAAAAAZ"


def test_the_fair_answers_keep_a_whole_stock_the_player_turned_and_put_back():
    """odds GO1-C-AAAAAAZ --moves "d (16 times) u (16 times)" (every stock card turned and put
    back by undo) said "fair chance 6% [1, 19] ... unknown stock cards: 16", and hint --fair
    valued its moves over 64 sampled orders: the player has seen the whole stock (with one draw
    fewer it answered an exact 0%), and the deal is lost whatever is played"""
    from golfsolve.fair import fair_hint_for_player, odds_for_player
    from golfsolve.solitaire.hint import position_after
    from golfsolve.solitaire.layout import layout_from_code

    lay = layout_from_code(LOST)
    moves = " ".join(["d"] * 16 + ["u"] * 16)
    res = odds_for_player(lay, samples=20, games=3, moves=moves)
    assert (res.unknown, res.fair_chance, res.fair_exact, res.chance) == (0, 0.0, True, 0.0), res
    hint = fair_hint_for_player(lay, position_after(lay, moves.split()), player="fast")
    assert hint.all_orders and all(m.chance == 0.0 for m in hint.ranked), hint


def test_a_fair_answer_names_seen_stock_cards_its_layout_does_not_hold():
    from golfsolve.fair import fair_hint, odds
    from golfsolve.solitaire.layout import layout_from_code

    lay = layout_from_code(LOST)
    for call in (lambda: odds(lay, samples=5, games=1, seen=17), lambda: fair_hint(lay, seen=-1),
                 lambda: odds(lay, samples=5, games=1, seen=2.5)):
        with pytest.raises(InputError, match="^seen must be"):
            call()


# A position with one unknown stock card and one card unseen (the 7D the "?" must be), and one
# with one unknown stock card among 48 unseen: every stock order is played, so no interval.
ONE_ORDER = ("rules: easy\ndiscard: KS\nstock: ? QS QH QD 9D 3D 3S AC 4C 2H 8C TC 3H 2S 9H 7S\n1: 6H 6D JH KC QC\n"
             "2: 9C 9S 5H KH 4S\n3: 4D JC 7H TH 6C\n4: 8H 5D 4H TS 7C\n5: 8D KD 2C JS AS\n6: 5S 3C AD TD 5C\n"
             "7: JD 2D 6S 8S AH\n")


def test_odds_fair_games_let_the_player_see_the_stock_places_its_layout_declares(run_cli, tmp_path):
    """A partial layout declares the stock places its player knows; hint --fair used them, the
    fair games of odds forgot them at every decision. was: ONE_ORDER (one unknown place, one
    card unseen: nothing hidden) had 'fair chance: 0.0% (exact: the fast fair player ...
    played every one of the 1 possible stock orders and won 0)' beside a clairvoyant 100%
    and a fair hint that valued every move at 100%"""
    import json

    f = tmp_path / "pos.txt"
    f.write_text(ONE_ORDER, encoding="utf-8")
    j = json.loads(run_cli(["odds", "--layout", str(f), "--json"]).stdout)
    assert j["clairvoyant"]["chance"] == 1.0 and j["fair"]["chance"] == 1.0, j["fair"]


def test_the_fair_player_sees_the_places_it_is_told_and_no_others():
    """The library: play(..., seen=) is the stock as the player sees it; a card it is told
    that is not the referee's is refused, and by default it sees none"""
    from golfsolve.cards import parse_card
    from golfsolve.errors import InputError
    from golfsolve.fair import play
    from golfsolve.solitaire.layout import Layout, parse_layout_text

    part = parse_layout_text(ONE_ORDER)
    full = Layout(part.columns, part.discard, (parse_card("7D"),) + part.stock[1:], part.rules)
    assert play(full, player="fast", seen=part.stock).won
    with pytest.raises(InputError, match="seen must be"):
        play(full, player="fast", seen=(parse_card("8D"),) + part.stock[1:])
    with pytest.raises(InputError, match="seen must be"):
        play(full, player="fast", seen=part.stock[:3])


def test_seen_cards_a_partial_layout_does_not_name_are_refused():
    """was: odds(partial, seen=5) and fair_hint(partial, seen=5) of a layout naming only its
    first 2 stock cards answered as if the player had seen those 2, without a word. Seen cards
    up to the named ones, and seen = the stock's length (the view as it is), are still taken."""
    from golfsolve.fair import fair_hint, odds
    from golfsolve.fair.view import as_seen
    from golfsolve.solitaire.layout import layout_from_code

    full = layout_from_code(LOST)
    part = full.forget_stock(2)
    assert not part.stock_known and part.stock[1] is not None and part.stock[2] is None
    for call in (lambda: odds(part, samples=5, games=1, seen=5), lambda: fair_hint(part, seen=3, player="fast")):
        with pytest.raises(InputError, match="^seen must be at most 2: the layout names only its first 2 stock cards"):
            call()
    assert as_seen(part, 2) == as_seen(part, 0) == as_seen(part, len(part.stock)) == part
