"""The heuristic, flat Monte Carlo and ISMCTS bots; rules corners the bots lean on."""

from __future__ import annotations

import numpy as np
import pytest

from golfsolve.cards import parse_cards
from golfsolve.grid import policy as P
from golfsolve.grid import search as S
from golfsolve.grid.bots import HeuristicBot, ISMCTSBot, kernel_tables, make_bot
from golfsolve.grid.engine import Hole, RuleViolation
from golfsolve.grid.rules import GridRules, parse_rules
from golfsolve.grid.state import HoleState, encode
from golfsolve.grid.view import DISCARD, STOCK

from grid_helpers import ScriptBot, opened, stack

HONEST_BOTS = ["random", "greedy", "heuristic", "mc:12", "mc-greedy:8", "ismcts:60", "paired-rel:60", "heuristic-fit"]
try:
    import pyspiel  # noqa: F401

    HONEST_BOTS.append("spiel-ismcts:30")
except ImportError:  # the spiel extra is optional; CI installs it with the test extra
    pass


def _twin_holes(rules: GridRules, seed: int):
    """Two holes with the same public start (openers up, same discard) whose face-down
    cards and stock are permuted among themselves: only hidden cards differ."""
    rng = np.random.default_rng(seed)
    deck = [int(c) for c in rng.permutation(rules.deck_cards())]
    n, g = rules.players, rules.grid
    public = {p * g + i for p in range(n) for i in range(rules.openers)} | {n * g}
    hidden = [k for k in range(len(deck)) if k not in public]
    other = list(deck)
    shuffled = [deck[k] for k in hidden]
    rng.shuffle(shuffled)
    for k, c in zip(hidden, shuffled):
        other[k] = c
    assert other != deck
    return [opened(rules, d, [range(rules.openers)] * n, first=1) for d in (deck, other)]


@pytest.mark.parametrize("bot", HONEST_BOTS)
@pytest.mark.parametrize("spec", ["default", "danish"])
def test_decisions_do_not_depend_on_hidden_cards(bot, spec):
    """Same public view, different hidden cards: identical draws and placements."""
    rules = parse_rules(spec, players=3)
    for seed in range(3):
        a, b = _twin_holes(rules, seed)
        va, vb = a.observation(1), b.observation(1)
        assert va == vb
        ba = make_bot(bot, np.random.default_rng(seed))
        bb = make_bot(bot, np.random.default_rng(seed))
        assert ba.choose_draw(va) == bb.choose_draw(vb)
        # The same card in hand: both draw from the stock a card that is in both stocks.
        drawn = next(c for c in a.stock if c in b.stock)
        for h in (a, b):
            h.apply(encode(STOCK, -1, rules.grid))
            h.apply(drawn)
        ha, hb = a.observation(1), b.observation(1)
        assert ha == hb and ha.drawn == drawn
        assert ba.choose_place(ha) == bb.choose_place(hb)


@pytest.mark.parametrize("rules", [GridRules(), GridRules(players=3, grid=9), parse_rules("danish", players=4),
                                   GridRules(players=2, grid=4, knock="plus10", final_putt=True),
                                   GridRules(players=5, grid=8, cancel="anywhere", pairwise=True)])
def test_heuristic_bot_plays_exactly_the_compiled_rollout_policy(rules):
    """The referee with HeuristicBot at every seat and the compiled play-out agree hole
    for hole (where neither recycled the stock, since their shuffles differ)."""
    rng = np.random.default_rng(4)
    m = 25
    decks = np.array([rng.permutation(rules.deck_cards()) for _ in range(m)], dtype=np.int64)
    firsts = np.arange(m) % rules.players
    prm, kt, vt = kernel_tables(rules)
    scores, info = S.simulate_holes_h(decks, firsts, prm, np.tile(P.DEFAULT_HP, (rules.players, 1)), kt, vt, 1)
    compared = 0
    for h in range(m):
        res = Hole(rules, [HeuristicBot() for _ in range(rules.players)], np.random.default_rng(h),
                   deck=list(decks[h]), first=int(firsts[h])).play()
        if res.recycles == 0 and info[h, 2] == 0:
            assert list(scores[h]) == res.strokes, f"hole {h}"
            assert info[h, 1] == res.turns
            compared += 1
    assert compared >= m // 2


def _opening(discard: str) -> HoleState:
    """P0 to move, showing JC 5D; P1 shows 4C 4D."""
    rules = GridRules(players=2, grid=6)
    deck = stack(rules, ["JC 5D 6H 7S 8C 9D", "4C 4D 3H 3S 5C 6C"], discard, "KH")
    return opened(rules, deck, [[0, 1], [0, 1]])


def _take_discard(hole: HoleState):
    hole.apply(encode(DISCARD, -1, hole.rules.grid))
    return hole.observation(0)


def test_heuristic_takes_a_pairing_card_and_refuses_a_useless_one():
    hole = _opening("JH")
    bot = HeuristicBot()
    assert bot.choose_draw(hole.observation(0)) == "discard"
    assert bot.choose_place(_take_discard(hole)) == ("swap", 3)
    assert bot.choose_draw(_opening("QH").observation(0)) == "stock"


def test_heuristic_does_not_close_far_behind():
    rules = GridRules(players=2, grid=4, final_putt=True)
    deck = stack(rules, ["QC JD TH 9S", "KC KD AH 2S"], "5H", "QD")
    hole = Hole(rules, [ScriptBot("a"), ScriptBot("b")], np.random.default_rng(0), deck=deck).state
    hole.up[0][:3] = [True, True, True]  # a position set by hand
    hole.up[1][:] = [True, True, True, False]
    held = hole.view(0, drawn=hole.stock.pop(0), source="stock")
    assert held.drawn == parse_cards("QD")[0]
    # Turning or filling its last card would close at about 35 against about 4.
    assert HeuristicBot().choose_place(held) in [("pass", -1), ("swap", 1), ("swap", 2)]


def test_danish_bots_never_throw_and_turn():
    rules = parse_rules("danish", players=3)
    for name in ["heuristic", "mc:6", "ismcts:30", "greedy"]:
        bots = [make_bot(name, np.random.default_rng(1))] + [make_bot("heuristic") for _ in range(2)]
        flips = []
        res = Hole(rules, bots, np.random.default_rng(2), on_event=lambda ev: flips.append(ev)).play()
        assert not [e for e in flips if e["type"] == "flip"]
        assert res.reason in ("closed", "knocked", "stalled", "stock-exhausted")


def test_a_flip_under_no_turn_is_refused():
    rules = parse_rules("danish", players=2, grid=4)
    deck = stack(rules, ["5C 6C 7C 8C", "KD QD 3D 4D"], "9H", "2S 3S")
    p0 = ScriptBot("p0", [0, 1], [("stock", ("flip", 2))])
    with pytest.raises(RuleViolation, match="cannot place"):
        Hole(rules, [p0, ScriptBot("p1", [0, 1])], np.random.default_rng(0), deck=deck).play()


def test_ismcts_finds_the_pair():
    hole = _opening("JH")
    bot = ISMCTSBot(np.random.default_rng(3), iterations=400)
    assert bot.choose_draw(hole.observation(0)) == "discard"
    assert bot.choose_place(_take_discard(hole)) == ("swap", 3)


def test_mc_and_ismcts_kernels_are_seeded():
    rules = GridRules(players=3)
    a, _ = _twin_holes(rules, 0)
    v = a.observation(0)
    r1 = [ISMCTSBot(np.random.default_rng(9), iterations=80)._best(v, [0, 1, 1], [-1, 0, 3], -1) for _ in range(2)]
    assert r1[0] == r1[1]
    m = make_bot("mc:10", np.random.default_rng(9))
    m2 = make_bot("mc:10", np.random.default_rng(9))
    assert (m.evaluate(v, [0, 1], [-1, 2], -1) == m2.evaluate(v, [0, 1], [-1, 2], -1)).all()


# -- rules corners --------------------------------------------------------------------

def test_stall_rule_without_the_putt():
    """No putt: a player one card short who keeps swapping into face-up slots declines;
    after two full laps of declines the hole is called."""
    rules = GridRules(players=2, grid=4, openers=3)
    deck = stack(rules, ["5C 6C 7C 8C", "KD QD 3D 4D"], "9H", "2S 3S 4S 5S 6S 7S 8S 9S")
    keep = [("stock", ("swap", 0))] * 3
    p0 = ScriptBot("p0", [0, 1, 2], list(keep))
    p1 = ScriptBot("p1", [0, 1, 2], list(keep))
    res = Hole(rules, [p0, p1], np.random.default_rng(0), deck=deck).play()
    assert res.reason == "stalled" and res.turns == 4
    assert res.closer is None


def test_close_with_three_players_gives_each_other_player_one_turn():
    rules = GridRules(players=3, grid=4, openers=3)
    deck = stack(rules, ["5C 6C 7C 8C", "KD QD 3D 4D", "AH AS 2H 9H"], "9C", "2S 3S 4S 5S 6S")
    p0 = ScriptBot("p0", [0, 1, 2], [("stock", ("flip", 3))])
    p1 = ScriptBot("p1", [0, 1, 2], [("stock", ("swap", 1))])
    p2 = ScriptBot("p2", [0, 1, 2], [("stock", ("swap", 0))])
    res = Hole(rules, [p0, p1, p2], np.random.default_rng(0), deck=deck, first=0).play()
    assert res.reason == "closed" and res.closer == 0 and res.turns == 3


def test_knock_with_three_players_gives_each_other_player_one_turn():
    rules = GridRules(players=3, grid=4, openers=2, knock="plus10")
    deck = stack(rules, ["KC KD AH 2S", "QD QH 3D 4D", "9H 9S 8H 7H"], "9C", "2H 3S 4S 5S 6S")
    p1 = ScriptBot("p1", [0, 1], ["knock"])
    p2 = ScriptBot("p2", [0, 1], [("stock", ("flip", 2))])
    p0 = ScriptBot("p0", [0, 1], [("stock", ("flip", 2))])
    res = Hole(rules, [p0, p1, p2], np.random.default_rng(0), deck=deck, first=1).play()
    assert res.reason == "knocked" and res.knocker == 1 and res.turns == 3
    # P1: Q Q cancel? no - columns are (QD, 3D) and (QH, 4D): 10 + 10 + 3 + 4 = 27; the
    # others score lower, so the knock fails and costs 10.
    assert res.raw[1] == 27 and res.strokes[1] == 37


def test_fewer_openers_than_allowed():
    rules = GridRules(players=2, grid=6, openers=2)
    deck = stack(rules, ["5C 6C 7C 8C 9C TC", "KD QD 3D 4D 5D 6D"], "9H", "2S 3S 4S")
    p0 = ScriptBot("p0", [4], [])
    p1 = ScriptBot("p1", [], [])
    h = Hole(rules, [p0, p1], np.random.default_rng(0), deck=deck)
    with pytest.raises(RuleViolation, match="p0 \\(seat 0\\) failed in choose_draw .*turn the script does not expect"):
        h.play()  # both open, then P0 has no turn scripted
    assert [e for e in h.events if e["type"] == "open"] == [
        {"type": "open", "player": 0, "slots": [4], "cards": [parse_cards("9C")[0]]},
        {"type": "open", "player": 1, "slots": [], "cards": []}]
    assert h.state.up[0] == [False, False, False, False, True, False]
    assert h.state.up[1] == [False] * 6
    assert h.state.observation(1).grids[0][4] == parse_cards("9C")[0]


def test_spiel_bot_without_open_spiel_is_a_clear_input_error(monkeypatch):
    import sys

    from golfsolve.errors import InputError

    monkeypatch.setitem(sys.modules, "golfsolve.grid.spiel", None)  # as if open_spiel were missing
    with pytest.raises(InputError, match=r"pip install 'golfsolve\[spiel\]'"):
        make_bot("spiel-ismcts")


def test_paired_rel_values_a_play_out_as_its_strokes_less_a_share_of_the_others():
    """With one candidate every play-out is the same whatever the objective, so the means
    differ exactly by ``rel`` times the opponents' mean strokes (which are positive)."""
    from golfsolve.grid.paired import paired

    rules = GridRules(players=3)
    a, _ = _twin_holes(rules, 0)
    a.apply(encode(STOCK, -1, rules.grid))
    a.apply(a.stock[-1])
    v = a.observation(1)
    assert v.drawn is not None
    bot = make_bot("paired-rel:50", np.random.default_rng(4))
    assert bot.kind == "paired-rel" and bot.rel == 0.5 and bot.playouts == 50
    args = bot._arrays(v)
    prm, kt, vt = bot.tables(rules)
    legal = np.ones(2 * rules.grid + 1, np.bool_)
    hps = np.tile(bot.hp, (rules.players, 1))
    means = {rel: paired(*args, v.me, v.drawn, np.array([3], np.int64), np.array([0], np.int64), legal, 50,
                         bot.c_place, 123, prm, hps, kt, vt, rel)[0] for rel in (0.0, 0.5, 1.0)}
    others = means[0.0] - means[1.0]
    assert 0 < others < 60
    assert means[0.5] == pytest.approx(means[0.0] - 0.5 * others)
