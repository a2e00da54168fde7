"""Hand-worked holes with stacked decks: closing, knocking, stalling, recycling, decks, matches, views."""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

from golfsolve.cards import parse_card, parse_cards
from golfsolve.grid.bots import RandomBot
from golfsolve.grid.engine import END_REASONS, Hole, RuleViolation, play_match
from golfsolve.grid.rules import GridRules

from grid_helpers import ScriptBot, stack

C = parse_card


def two(**kw) -> GridRules:
    base = dict(players=2, grid=4, openers=2)
    base.update(kw)
    return GridRules(**base)


def test_closer_gets_no_more_turns_and_everyone_else_exactly_one():
    rules = two()
    deck = stack(rules, ["5C 6C 7C 8C", "KD QD 3D 4D"], "9H", "2S 3S 4S")
    p0 = ScriptBot("p0", [0, 1], [("stock", ("swap", 2)), ("stock", ("flip", 3))])
    p1 = ScriptBot("p1", [0, 1], [("stock", ("flip", 2)), ("discard", ("swap", 1))])
    res = Hole(rules, [p0, p1], np.random.default_rng(0), deck=deck).play()
    # P0 closes on turn 3 by turning 8C; P1 takes the 4S P0 threw and pairs it with its
    # still face-down 4D: column 1 cancels, so P1 scores K + 3 = 3; P0 has 5+6+2+8 = 17.
    assert res.reason == "closed" and res.closer == 0
    assert res.turns == 4
    assert res.grids == [parse_cards("5C 6C 2S 8C"), parse_cards("KD 4S 3D 4D")]
    assert res.strokes == [17, 3]
    last = p1.views[-2]  # P1's draw view on its final turn
    assert last.ending and last.turns_left == 1 and last.closer == 0
    assert not p0.turns and not p1.turns


@pytest.mark.parametrize("mode,p0_strokes", [("plus10", 36), ("double", 52)])
def test_failed_knock_is_penalised_both_ways(mode, p0_strokes):
    rules = two(knock=mode)
    deck = stack(rules, ["5C 6C 7C 8C", "KD AD 3D 4D"], "9H", "2S")
    p0 = ScriptBot("p0", [0, 1], ["knock"])
    p1 = ScriptBot("p1", [0, 1], [("stock", ("swap", 2))])
    res = Hole(rules, [p0, p1], np.random.default_rng(0), deck=deck).play()
    assert res.reason == "knocked" and res.knocker == 0 and res.turns == 2
    assert res.raw == [26, 3]            # P1: K + A + 2S + 4 = 3
    assert res.strokes == [p0_strokes, 3]


def test_tie_for_lowest_is_a_failed_knock():
    rules = two(knock="plus10")
    deck = stack(rules, ["5C 6C 7C 8C", "KD QD 9D 7D"], "9H", "2S")
    p0 = ScriptBot("p0", [0, 1], ["knock"])
    p1 = ScriptBot("p1", [0, 1], [("discard", ("swap", 2))])   # 9H for 9D: still 26
    res = Hole(rules, [p0, p1], np.random.default_rng(0), deck=deck).play()
    assert res.raw == [26, 26] and res.strokes == [36, 26]


def test_successful_knock_keeps_its_score():
    rules = two(knock="plus10")
    deck = stack(rules, ["KC AC 2C 3C", "JD QD 9D TD"], "9H", "2S")
    p0 = ScriptBot("p0", [0, 1], ["knock"])
    p1 = ScriptBot("p1", [0, 1], [("stock", ("swap", 0))])
    res = Hole(rules, [p0, p1], np.random.default_rng(0), deck=deck).play()
    assert res.strokes == [2, 27]


def test_knocking_only_with_the_option():
    rules = two()
    deck = stack(rules, ["5C 6C 7C 8C", "KD AD 3D 4D"], "9H")
    p0 = ScriptBot("p0", [0, 1], ["knock"])
    with pytest.raises(RuleViolation, match="knock"):
        Hole(rules, [p0, ScriptBot("p1", [0, 1])], np.random.default_rng(0), deck=deck).play()


def test_stall_rule_calls_the_hole_after_two_full_laps():
    rules = two(final_putt=True)
    deck = stack(rules, ["5C 6C 7C 8C", "KD QD 3D 4D"], "9H", "2S 3S 4S 5S 6S 7S")
    putt = ("stock", ("pass", -1))
    # Turns 1-2 turn a card each (two face down before: not a decline), then four putts.
    p0 = ScriptBot("p0", [0, 1], [("stock", ("flip", 2)), putt, putt])
    p1 = ScriptBot("p1", [0, 1], [("stock", ("flip", 2)), putt, putt])
    res = Hole(rules, [p0, p1], np.random.default_rng(0), deck=deck).play()
    assert res.reason == "stalled" and res.turns == 6
    assert [v.stall for v in p0.views if v.drawn is None][1:] == [0, 0, 2]
    # Scored where it stands, the face-down 8C and 4D turned: 26 and 0+10+3+4.
    assert res.strokes == [26, 17]


@pytest.mark.parametrize("final_putt,openers,allowed", [(True, 3, True), (True, 2, False), (False, 3, False)])
def test_final_putt_only_with_the_toggle_and_one_card_left(final_putt, openers, allowed):
    rules = two(final_putt=final_putt, openers=openers, knock="plus10")
    deck = stack(rules, ["5C 6C 7C 8C", "KD QD 3D 4D"], "9H", "2S 3S")
    p0 = ScriptBot("p0", list(range(openers)), [("stock", ("pass", -1)), ("stock", ("flip", 3))])
    p1 = ScriptBot("p1", list(range(openers)), ["knock"])
    hole = Hole(rules, [p0, p1], np.random.default_rng(0), deck=deck)
    if allowed:
        res = hole.play()
        assert ("pass", -1) in p0.views[2].legal_placements()
        assert [e["type"] for e in res.events if e["type"] in ("pass", "knock", "flip")] == ["pass", "knock", "flip"]
        assert res.reason == "knocked"
    else:
        with pytest.raises(RuleViolation, match="pass"):
            hole.play()


def test_no_flip_option_allows_throwing_away_with_cards_left():
    rules = two(discard_without_flip=True, knock="plus10")
    deck = stack(rules, ["5C 6C 7C 8C", "KD QD 3D 4D"], "9H", "2S")
    p0 = ScriptBot("p0", [0, 1], [("stock", ("pass", -1))])
    p1 = ScriptBot("p1", [0, 1], ["knock"])
    p0.turns.append(("discard", ("swap", 0)))
    res = Hole(rules, [p0, p1], np.random.default_rng(0), deck=deck).play()
    assert res.reason == "knocked" and res.grids[0][0] == C("2S")


def test_recycling_keeps_the_top_card_and_makes_the_stock_known():
    rules = two(openers=0, knock="plus10")
    deck = stack(rules, ["AC 2C 3C 4C", "5D 6D 7D 8D"], "9H", "TS JS", fill=False)
    p0 = ScriptBot("p0", [], [("stock", ("flip", 0)), "knock"])
    p1 = ScriptBot("p1", [], [("stock", ("swap", 0)), ("discard", ("swap", 1))])
    hole = Hole(rules, [p0, p1], np.random.default_rng(0), deck=deck)
    res = hole.play()
    # After P1's turn the stock is empty: the pile 9H TS 5D is recycled keeping 5D on top.
    v = p0.views[-1]
    assert v.discard == (C("5D"),) and v.stock_size == 2
    assert v.stock_known[C("9H")] == 1 and v.stock_known[C("TS")] == 1 and sum(v.stock_known) == 2
    # Unseen: exactly the six cards still face down; nothing else.
    assert Counter({c: k for c, k in enumerate(v.unseen) if k}) == Counter(parse_cards("2C 3C 4C 6D 7D 8D"))
    recycles = [e for e in res.events if e["type"] == "recycle"]
    assert res.recycles == 1 and recycles[0]["cards"] == 2
    assert res.grids[1][:2] == [C("JS"), C("5D")]


def test_hole_ends_when_nothing_is_left_to_recycle():
    rules = two()
    deck = stack(rules, ["AC 2C 3C 4C", "5D 6D 7D 8D"], "9H", fill=False)  # no stock at all
    res = Hole(rules, [ScriptBot("p0", [0, 1]), ScriptBot("p1", [0, 1])], np.random.default_rng(0), deck=deck).play()
    assert res.reason == "stock-exhausted" and res.turns == 0
    assert res.strokes == [1 - 2 + 3 + 4, 5 + 6 + 7 + 8]


def test_two_decks_for_five_players_on_six_cards():
    rules = GridRules(players=5, grid=6)
    hole = Hole(rules, [RandomBot(np.random.default_rng(i)) for i in range(5)], np.random.default_rng(3))
    st = hole.state
    dealt = [c for g in st.grid for c in g] + st.discard + st.stock
    assert len(dealt) == 2 * 52  # 5 x 6 > 24 cards dealt: two decks (SPEC §3)
    assert set(Counter(dealt).values()) == {2}
    assert len(st.stock) == 2 * 52 - (5 * 6 + 1)  # the grids and the discard's first card
    res = hole.play()
    assert res.reason in END_REASONS


def test_openers_are_chosen_in_turn_and_seen_by_later_players():
    rules = two()
    deck = stack(rules, ["5C 6C 7C 8C", "KD QD 3D 4D"], "9H", "2S")
    p0 = ScriptBot("p0", [0, 3], ["knock"])
    p1 = ScriptBot("p1", [1, 2], [])
    hole = Hole(dataclasses.replace(rules, knock="plus10"), [p0, p1], np.random.default_rng(0), deck=deck, first=1)
    # P1 moves first and has no script (its AssertionError comes out naming it): we only look at the openers
    with pytest.raises(RuleViolation, match=r"p1 \(seat 1\) failed in choose_draw .* AssertionError"):
        hole.play()
    assert p1.views[0].grids[0] == (None, None, None, None)        # P1 opens first
    assert p0.views[0].grids[1] == (None, C("QD"), C("3D"), None)  # P0 sees P1's openers
    assert hole.state.up[0] == [True, False, False, True]


def test_a_bot_never_sees_a_hidden_card():
    rules = two()
    deck = stack(rules, ["KC KD 7C 8C", "KH KS 3D 4D"], "9H", "2S 3S 4S")
    p0 = ScriptBot("p0", [2, 3], [("stock", ("flip", 0)), ("stock", ("flip", 1))])
    p1 = ScriptBot("p1", [2, 3], [("stock", ("flip", 0)), ("discard", ("swap", 3))])
    Hole(rules, [p0, p1], np.random.default_rng(0), deck=deck).play()
    kings = set(parse_cards("KC KD KH KS"))
    checked = 0
    for bot in (p0, p1):
        for v in bot.views:
            hidden_now = {s for gr in v.grids for s in gr if s is not None} & kings
            visible = [c for gr in v.grids for c in gr if c is not None] + list(v.discard)
            visible += [v.drawn] if v.drawn is not None else []
            if v.turn == 0:
                # Before anyone turned a king, no king is anywhere in the view...
                assert not kings & set(visible)
                # ...though the bot knows they are somewhere unseen (one copy each).
                assert all(v.unseen[k] == 1 for k in kings)
                checked += 1
            for p, gr in enumerate(v.grids):
                assert len(gr) == 4
            assert hidden_now <= set(visible)
    assert checked >= 2
    # The view is a frozen value of tuples, not a handle on the engine.
    v = p0.views[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.grids = ()  # type: ignore[misc]
    for f in dataclasses.fields(v):
        assert isinstance(getattr(v, f.name), (int, tuple, bool, str, GridRules, type(None)))


def test_taking_the_discard_then_flipping_is_refused():
    rules = two()
    deck = stack(rules, ["5C 6C 7C 8C", "KD QD 3D 4D"], "9H")
    p0 = ScriptBot("p0", [0, 1], [("discard", ("flip", 2))])
    with pytest.raises(RuleViolation, match="cannot place"):
        Hole(rules, [p0, ScriptBot("p1", [0, 1])], np.random.default_rng(0), deck=deck).play()


def test_too_many_openers_are_refused():
    rules = two()
    with pytest.raises(RuleViolation, match="openers"):
        Hole(rules, [ScriptBot("p0", [0, 1, 2]), ScriptBot("p1", [0, 1])], np.random.default_rng(0)).play()


def test_match_score_card_rotation_and_shared_win():
    rules = two(holes=3, openers=0)
    # Nine-card decks: every hole ends at once ("nothing to recycle") and scores as dealt.
    # (the discard is 9D: the third hole's grids hold the 9H, and one deck holds one 9H)
    decks = [stack(rules, g, "9D", fill=False) for g in (
        ["AC 2C 3C 4C", "5D 6D 7D 8D"],    # 6, 26
        ["KC KD QC JD", "AS AH 3S 3H"],    # 0 (K pair, then Q/J columns? no: K/Q, K/J) -> 20; 8
        ["5C 5D 5H 5S", "TC TD 9S 9H"])]   # 0, 0? columns (5,5),(5,5) cancel; (T,9),(T,9) -> 38
    rounds: list[list[int]] = []
    res = play_match(rules, [ScriptBot("a"), ScriptBot("b")], np.random.default_rng(0), decks=decks,
                     on_hole=lambda h, r, card: rounds.append(list(card.totals)))
    assert [h.strokes for h in res.holes] == [[6, 26], [20, 8], [0, 38]]
    assert rounds == [[6, 26], [26, 34], [26, 72]]
    assert [h.first for h in res.holes] == [0, 1, 0]
    assert res.winners == [0]


@pytest.mark.parametrize("ties,winners", [("shared", [0, 1]), ("sudden-death", [1])])
def test_ties_shared_or_sudden_death(ties, winners):
    rules = two(holes=1, openers=0, ties=ties)
    decks = [stack(rules, ["AC 2C 3C 4C", "AD 2D 3D 4D"], "9H", fill=False),   # 6, 6
             stack(rules, ["9C 2C 3C 4C", "AD 2D 3D 4D"], "9H", fill=False)]   # play-off: 14, 6
    res = play_match(rules, [ScriptBot("a"), ScriptBot("b")], np.random.default_rng(0), decks=decks)
    assert res.totals == [6, 6]
    assert res.winners == winners
    assert res.playoff == ([] if ties == "shared" else [[14, 6]])


@pytest.mark.parametrize("spec", [
    dict(players=2, grid=4), dict(players=3, grid=9), dict(players=6, grid=9, final_putt=True),
    dict(players=4, grid=8, knock="double", cancel="anywhere", jokers=True),
    dict(players=5, grid=6, twos_plus=True, cancel_by_value=True, discard_without_flip=True, knock="plus10"),
])
def test_random_bots_play_legal_holes_under_every_option(spec):
    rules = GridRules(**spec)
    for seed in range(15):
        bots = [RandomBot(np.random.default_rng(seed * 10 + i)) for i in range(rules.players)]
        res = Hole(rules, bots, np.random.default_rng(seed), first=seed).play()
        assert res.reason in END_REASONS
        assert len(res.strokes) == rules.players
