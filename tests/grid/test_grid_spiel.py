"""The OpenSpiel adapter against the referee, move for move (skipped without open_spiel)."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from golfsolve.grid.bots import make_bot  # noqa: E402
from golfsolve.grid.engine import Hole  # noqa: E402
from golfsolve.grid.rules import GridRules, parse_rules  # noqa: E402
from golfsolve.grid.spiel import GridGolfGame, GridGolfState, encode_place, info_key, state_from_view  # noqa: E402
from golfsolve.grid.state import HoleState  # noqa: E402


class _Recording:
    """Wraps a bot and keeps every view it is shown, in order."""

    def __init__(self, bot, log):
        self.bot, self.log, self.name = bot, log, bot.name

    def choose_openers(self, view, count):
        return self.bot.choose_openers(view, count)

    def choose_draw(self, view):
        self.log.append(view)
        return self.bot.choose_draw(view)

    def choose_place(self, view):
        self.log.append(view)
        return self.bot.choose_place(view)


def _replay(rules: GridRules, seed: int, names: list[str]):
    rng = np.random.default_rng(seed)
    deck = [int(c) for c in rng.permutation(rules.deck_cards())]
    views: list = []
    events: list = []
    players = [_Recording(make_bot(nm, np.random.default_rng(seed + i)), views) for i, nm in enumerate(names)]
    first = seed % rules.players
    res = Hole(rules, players, np.random.default_rng(seed), deck=deck, first=first, on_event=events.append).play()

    game = GridGolfGame(rules=rules)
    st = GridGolfState(game, HoleState(rules, first=first))
    g, n = rules.grid, rules.players
    for c in deck[:n * g + 1]:
        assert st.is_chance_node()
        st.apply_action(c)
    seen = iter(views)

    def act(a: int) -> None:
        assert a in st.legal_actions(), (a, st.legal_actions())
        st.apply_action(a)

    for ev in events:
        t = ev["type"]
        if t == "open":
            assert st.current_player() == ev["player"]
            for s in ev["slots"]:
                act(2 * g + 4 + s)
            if len(ev["slots"]) < rules.openers:
                act(3 * g + 4)
        elif t in ("knock", "draw"):
            v = next(seen)
            assert st.current_player() == ev["player"] == v.me
            assert st.information_state_string(v.me) == info_key(v, "draw", v.me)
            if t == "knock":
                act(2 * g + 3)
            elif ev["source"] == "stock":
                act(2 * g + 1)
                assert st.is_chance_node() and ev["card"] in dict(st.chance_outcomes())
                st.apply_action(ev["card"])
            else:
                act(2 * g + 2)
        elif t in ("swap", "flip", "pass"):
            v = next(seen)
            assert st.information_state_string(v.me) == info_key(v, "place", v.me)
            act(encode_place((t, ev.get("slot", -1)), g))
    assert st.is_terminal()
    assert st.returns() == [-float(s) for s in res.strokes]
    assert st.hole.turn == res.turns and st.hole.reason == res.reason
    return res


@pytest.mark.parametrize("rules,names", [
    (GridRules(), ["heuristic", "greedy", "random", "heuristic"]),
    (GridRules(players=3, grid=9, knock="plus10", final_putt=True), ["random", "random", "greedy"]),
    (parse_rules("danish", players=2, grid=4), ["heuristic", "random"]),
    (GridRules(players=2, grid=4, openers=1), ["random", "random"]),
])
def test_adapter_and_referee_agree_move_for_move(rules, names):
    reasons = set()
    for seed in range(6):
        reasons.add(_replay(rules, seed, names).reason)
    assert reasons


def test_resampling_keeps_the_information_state_and_changes_hidden_cards():
    rules = GridRules(players=3)
    game = GridGolfGame({"rules": "default", "players": 3, "grid": 6})
    hole = Hole(rules, [make_bot("heuristic") for _ in range(3)], np.random.default_rng(1)).state
    for p in range(3):
        hole.up[p][0] = hole.up[p][1] = True  # a position set by hand
    v = hole.view(1)
    st = state_from_view(game, v, np.random.default_rng(2))
    key = st.information_state_string(1)
    assert key == info_key(v, "draw", 1)
    grids = set()
    for k in range(5):
        other = st.resample_from_infostate(1, rng=np.random.default_rng(10 + k))
        assert other.information_state_string(1) == key
        grids.add(repr(other.hole.grid))
        assert sorted(other.hole.stock + sum(other.hole.grid, [])) == sorted(st.hole.stock + sum(st.hole.grid, []))
    assert len(grids) > 1


def test_spiel_ismcts_plays_legal_holes():
    rules = GridRules(players=2, grid=4)
    bots = [make_bot("spiel-ismcts:8", np.random.default_rng(0)), make_bot("heuristic")]
    res = Hole(rules, bots, np.random.default_rng(5)).play()
    assert bots[0].decisions > 0 and len(res.strokes) == 2


@pytest.mark.parametrize("spec,players,grid", [
    ("default", 2, 4), ("default", 4, 6), ("danish", 3, 9), ("default+putt+knock-double+anywhere", 5, 8),
    ("default+no-flip+jokers+pairs+rows+twos-plus", 6, 6), ("danish+sudden-death", 5, 4)])
def test_openspiel_random_simulation_conformance(spec, players, grid):
    """OpenSpiel's own checks of a game (legal actions, chance outcomes summing to one,
    clones, serialization, information states and their tensors' sizes, returns) over
    random play, loaded by name as a user would."""
    game = pyspiel.load_game("python_golfsolve_grid", {"rules": spec, "players": players, "grid": grid})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def _every_switch():
    from golfsolve.grid.rules import _SWITCHES

    from golfsolve.errors import InputError
    from golfsolve.grid.rules import parse_rules

    for i, switch in enumerate(_SWITCHES):
        # the first table of the rotation where the switch changes the game (the openers
        # switches need an opener to: 1 where the rotation gives them none)
        openers = i % 3 or int(switch.startswith("openers-"))
        for k, head in ((k, h) for k in range(i, i + 40) for h in (("danish", "default") if k % 4 == 3 else ("default",))):
            spec, players, grid = f"{head}+{switch}", 2 + k % 5, (4, 6, 8, 9)[k % 4]
            try:
                parse_rules(spec, players=players, grid=grid, openers=openers)
            except InputError:
                continue
            yield spec, players, grid, openers
            break


@pytest.mark.parametrize("spec,players,grid,openers", list(_every_switch()))
def test_openspiel_random_simulation_under_every_rule_switch(spec, players, grid, openers):
    """OpenSpiel's checks, serialization included, with each rule switch on (on one table
    each; every player count, grid and opener count comes up)."""
    game = pyspiel.load_game("python_golfsolve_grid", {"rules": spec, "players": players, "grid": grid,
                                                       "openers": openers})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("source", ["stock", "discard"])
def test_resampling_a_seat_that_is_not_placing_keeps_its_information_state(source):
    """OpenSpiel may resample any player's information state, not only the mover's. While
    seat 0 holds a drawn card, seat 1 resampled must keep seat 1's information state, deal
    the card in seat 0's hand anew when it came from the stock (its face is hidden from
    seat 1), and two states seat 1 cannot tell apart must resample alike with one generator
    (was: the real stock card stayed in seat 0's hand, a second copy of it went into the
    stock, and the information state changed)."""
    from golfsolve.grid.state import DRAW, PLACE, encode

    game = GridGolfGame({"rules": "default", "players": 3, "grid": 6})
    states = []
    for drawn_card in (0, 1):  # two deals that differ in the stock card seat 0 draws
        st = game.new_initial_state()
        while st.hole.phase != DRAW:
            acts = st.chance_outcomes() if st.is_chance_node() else None
            # every chance outcome but the first two cards dealt in id order, openers the first slots
            st.apply_action(acts[2][0] if acts else st.legal_actions()[0])
        st.apply_action(encode(source, -1, 6))
        if st.is_chance_node():
            st.apply_action(st.chance_outcomes()[drawn_card][0])
        assert st.hole.phase == PLACE and st.current_player() == 0
        states.append(st)
    a, b = states
    key = a.information_state_string(1)
    assert b.information_state_string(1) == key
    if source == "stock":
        assert a.hole.drawn != b.hole.drawn
    ra, rb = (s.resample_from_infostate(1, rng=np.random.default_rng(4)) for s in (a, b))
    assert ra.information_state_string(1) == key == rb.information_state_string(1)
    assert str(ra) == str(rb) and ra.hole.drawn == rb.hole.drawn
    assert ra.information_state_string(0) == a.information_state_string(0) or source == "stock"


def _random_step(st, rng) -> None:
    """One random action on ``st``: a chance outcome by its odds, else any legal action."""
    if st.is_chance_node():
        outs = st.chance_outcomes()
        st.apply_action(outs[rng.choice(len(outs), p=[q for _, q in outs])][0])
    else:
        st.apply_action(int(rng.choice(st.legal_actions())))


def _random_state(game, steps: int, seed: int = 0):
    """A state after ``steps`` random actions (chance by its odds), or the end if sooner."""
    rng = np.random.default_rng(seed)
    st = game.new_initial_state()
    for _ in range(steps):
        if st.is_terminal():
            break
        _random_step(st, rng)
    return st


def test_a_python_clone_keeps_the_history_and_is_independent():
    """``state.clone()`` from Python (what OpenSpiel's Python MCTS and ISMCTS call) keeps
    the history and move number, as OpenSpiel's C++ clone does, and is a separate state
    (was: the clone started a fresh history, so a searched line's history() was wrong)."""
    game = pyspiel.load_game("python_golfsolve_grid", {"rules": "default", "players": 2, "grid": 4})
    st = _random_state(game, 25)
    assert not st.is_terminal()
    c = st.clone()
    assert c.history() == st.history() and len(c.history()) == 25
    assert c.move_number() == st.move_number() and str(c) == str(st)
    before = (st.history(), str(st), st.information_state_string(0))
    c.apply_action(c.legal_actions()[0] if not c.is_chance_node() else c.chance_outcomes()[0][0])
    assert (st.history(), str(st), st.information_state_string(0)) == before
    assert c.history()[:-1] == st.history()


def test_a_table_with_other_openers_survives_its_game_string_and_serialization():
    """A game made from an exact table names every rule that changes play, so OpenSpiel's
    serialization (game string, then the history replayed) gives the same game and state
    (was: ``openers`` was not a game parameter, so a one-opener table came back with two
    and the replayed history broke)."""
    rules = GridRules(players=2, grid=4, openers=1)
    game = GridGolfGame(rules=rules)
    assert pyspiel.load_game(str(game)).rules == rules
    assert pyspiel.load_game("python_golfsolve_grid", {"openers": 0, "players": 3}).rules == GridRules(players=3,
                                                                                                        openers=0)
    for steps in (0, 12, 30):
        st = _random_state(game, steps, seed=3)
        g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, st))
        assert str(g2) == str(game) and g2.rules == rules
        assert str(s2) == str(st) and s2.history() == st.history()
        assert [s2.information_state_string(p) for p in range(2)] == [st.information_state_string(p) for p in range(2)]


def _dealt(game):
    """A state just dealt (chance: the lowest card each time)."""
    st = game.new_initial_state()
    while st.is_chance_node():
        st.apply_action(st.chance_outcomes()[0][0])
    return st


def test_the_information_state_tells_whose_turn_it_is_and_at_which_step():
    """Each player's information state names the public step of the turn (OpenSpiel keys
    searches and strategies by it, and a key must fix whose move it is and the legal
    actions). Was: the view alone, so a seat still turning openers and the next seat about
    to turn its own had the same information state for both (with different legal
    actions), as did a seat about to draw and the stock draw it had just asked for, and a
    first player about to draw after every seat turned nothing and the same seat about to
    turn openers."""
    from golfsolve.grid.state import encode

    game = GridGolfGame({"rules": "default", "players": 3, "grid": 6})
    opening, next_opens = _dealt(game), _dealt(game)
    opening.apply_action(encode("open", 0, 6))
    next_opens.apply_action(encode("open", 0, 6))
    next_opens.apply_action(encode("done", -1, 6))
    assert opening.current_player() == 0 and next_opens.current_player() == 1
    for p in range(3):
        assert opening.information_state_string(p) != next_opens.information_state_string(p)

    to_open, to_draw = _dealt(game), _dealt(game)
    for _ in range(3):
        to_draw.apply_action(encode("done", -1, 6))
    assert to_draw.legal_actions() != to_open.legal_actions()
    assert to_open.information_state_string(0) != to_draw.information_state_string(0)

    asked = to_draw.clone()
    asked.apply_action(encode("stock", -1, 6))
    assert asked.is_chance_node()
    for p in range(3):
        assert asked.information_state_string(p) != to_draw.information_state_string(p)
        assert asked.observation_string(p) == asked.information_state_string(p)


@pytest.mark.parametrize("spec,players,grid,openers", [("default", 2, 4, 2), ("danish+knock-double", 3, 4, 1)])
def test_a_player_cannot_tell_resampled_worlds_apart_and_they_agree_on_public_facts(spec, players, grid, openers):
    """Information honesty at the adapter, over random play: every world resampled for any
    player keeps that player's information state (string and tensor, of the declared size)
    and everything public (whose move, the legal actions, a chance node or not), and the
    information state differs between players and from step to step."""
    game = pyspiel.load_game("python_golfsolve_grid", {"rules": spec, "players": players, "grid": grid,
                                                       "openers": openers})
    rng = np.random.default_rng(7)
    for seed in range(3):
        st = _random_state(game, seed, seed=seed)  # from the deal on
        keys: set[str] = set()
        while True:
            here = [st.information_state_string(p) for p in range(players)]
            assert len(set(here)) == players and not keys & set(here)
            keys |= set(here)
            for p in range(players):
                other = st.resample_from_infostate(p, rng=rng)
                assert other.information_state_string(p) == here[p]
                tensor = st.information_state_tensor(p)
                assert len(tensor) == game.information_state_tensor_size() == game.observation_tensor_size()
                assert other.information_state_tensor(p) == tensor == st.observation_tensor(p)
                assert other.current_player() == st.current_player()
                assert other.is_chance_node() == st.is_chance_node()
                if not st.is_chance_node():
                    assert other.legal_actions() == st.legal_actions()
            if st.is_terminal():
                break
            _random_step(st, rng)


def test_a_card_drawn_from_a_recycled_stock_is_known_to_the_drawer_only():
    """After a recycle the stock's contents are public, its order is not: the card another
    seat draws from it is one of those (no other seat's face-down card), but which one only
    the drawer knows until it is placed. Twins in which the drawer drew different cards of
    the recycled stock give every other seat the same information state, tensors and
    observation, and the public observation is the same for all; resampling keeps the card
    in hand among the stock's cards, never in a grid (was: every other seat's information
    state, and the public observation, showed the card drawn: the adapter told a searcher
    the drawer's blind card, and resampling kept it in that hand)."""
    from open_spiel.python.observation import make_observation

    from golfsolve.grid.state import DRAW, PLACE, STOCK_DRAW, encode

    game = GridGolfGame({"rules": "default", "players": 2, "grid": 4, "openers": 1})
    st = game.new_initial_state()
    rng = np.random.default_rng(0)
    while not (st.hole.recycled and st.hole.phase == STOCK_DRAW):
        h = st.hole
        if st.is_chance_node():
            outs = st.chance_outcomes()
            st.apply_action(outs[rng.choice(len(outs))][0])
        elif h.phase == DRAW:
            st.apply_action(encode("stock", -1, 4))
        elif h.phase == PLACE:  # into a face-up slot: the hole never closes
            st.apply_action(encode("swap", h.up[h.cur].index(True), 4))
        else:
            st.apply_action(st.legal_actions()[0])
    outs = st.chance_outcomes()
    recycled = sorted(st.hole.stock)
    twins = []
    for k in (0, len(outs) // 2, -1):
        t = st.clone()
        t.apply_action(outs[k][0])
        twins.append(t)
    a = twins[0]
    h = a.hole
    other = 1 - h.cur
    assert len({t.hole.drawn for t in twins}) == 3
    face_down = sum(not u for ups in h.up for u in ups)
    assert sum(h.observation(other).unseen) == face_down
    public = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))

    def seen(st, p):
        public.set_from(st, p)
        return public.string_from(st, p), list(public.tensor)

    for t in twins[1:]:
        assert t.information_state_string(other) == a.information_state_string(other)
        assert t.information_state_tensor(other) == a.information_state_tensor(other)
        assert t.observation_string(other) == a.observation_string(other)
        assert t.observation_tensor(other) == a.observation_tensor(other)
        assert seen(t, other) == seen(a, other) == seen(t, h.cur)
    assert a.information_state_string(h.cur) != twins[1].information_state_string(h.cur)  # the drawer's own
    hands = set()
    for k in range(8):
        world = a.resample_from_infostate(other, rng=np.random.default_rng(k))
        assert world.information_state_string(other) == a.information_state_string(other)
        assert sorted(world.hole.stock + [world.hole.drawn]) == recycled
        hands.add(world.hole.drawn)
    assert len(hands) > 1


@pytest.mark.parametrize("players,grid,openers", [(2, 4, 1), (3, 4, 2)])
def test_a_resampled_world_has_a_history_that_leads_to_it(players, grid, openers):
    """A world resampled from a state played from the start is a whole OpenSpiel state:
    its history is the same public play with the unseen chance outcomes dealt anew, so it
    replays, serializes and clones to itself (was: a bare state with an empty history,
    which serialized as the start of a hole)."""
    game = GridGolfGame({"rules": "default", "players": players, "grid": grid, "openers": openers})
    rng = np.random.default_rng(5)
    redealt = 0
    for seed in range(2):
        st = _random_state(game, 3 * seed, seed=seed)  # from the deal on
        while not st.is_terminal():
            for p in range(players):
                world = st.resample_from_infostate(p, rng=rng)
                redealt += world.hole.grid != st.hole.grid
                hist = world.history()
                assert len(hist) == len(st.history()) and world.move_number() == st.move_number()
                assert all(a == pa.action for a, pa in zip(hist, st.full_history()) if pa.player >= 0)
                g2, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, world))
                assert str(back) == str(world) and back.hole.grid == world.hole.grid
                assert back.hole.drawn == world.hole.drawn and sorted(back.hole.stock) == sorted(world.hole.stock)
                assert back.information_state_string(p) == st.information_state_string(p)
            _random_step(st, rng)
    assert redealt > 0


def test_the_tensors_name_the_players_view():
    """The information state tensor (also the observation tensor; OpenSpiel's observer
    gives the same) holds the view piece by piece: a seat's own card in hand, which the
    other seat cannot see, and the face-up cards."""
    from open_spiel.python.observation import make_observation

    from golfsolve.grid.state import DRAW, PLACE, encode

    game = pyspiel.load_game("python_golfsolve_grid", {"rules": "default", "players": 2, "grid": 4})
    st = game.new_initial_state()
    while st.hole.phase != PLACE:  # deal, every seat turns no openers, and seat 0 draws from the stock
        if st.is_chance_node():
            st.apply_action(st.chance_outcomes()[0][0])
        else:
            st.apply_action(encode("stock" if st.hole.phase == DRAW else "done", -1, 4))
    h = st.hole
    obs = make_observation(game)
    obs.set_from(st, h.cur)
    assert list(obs.tensor) == st.information_state_tensor(h.cur)
    assert obs.dict["drawn"][h.drawn] == 1 and obs.dict["source"][1] == 1 and obs.dict["seat"][h.cur] == 1
    for q in range(2):
        for k in range(4):
            assert obs.dict["grids"][q, k, h.grid[q][k] if h.up[q][k] else 54] == 1
    obs.set_from(st, 1 - h.cur)
    assert obs.dict["drawn"][54] == 1 and obs.dict["unseen"][h.drawn] >= 1
    with pytest.raises(ValueError):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                                          private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def test_openspiels_own_algorithms_run_on_the_game():
    """OpenSpiel's MCTS (through its ``evaluate_bots``), its ISMCTS with the game's own
    ``resample_from_infostate`` (OpenSpiel's default resampler; the Python ISMCTS bot has no
    ``restart_at``, so ``evaluate_bots`` cannot drive it) and outcome-sampling MCCFR (Python
    and C++) play and learn on the smallest table without error. (OpenSpiel's C++ MCTS and
    ISMCTS bots crash on OpenSpiel's own Python tic-tac-toe and Kuhn poker too, and external
    sampling recurses past Python's limit on a game this long: neither is the adapter's.)"""
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
    from open_spiel.python.algorithms import outcome_sampling_mccfr as osm
    from open_spiel.python.bots import uniform_random

    game = pyspiel.load_game("python_golfsolve_grid", {"rules": "default", "players": 2, "grid": 4})
    rs = np.random.RandomState(0)
    ev = mcts.RandomRolloutEvaluator(1, rs)
    bots = [mcts.MCTSBot(game, 4.0, 10, ev, random_state=rs), uniform_random.UniformRandomBot(1, rs)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rs)
    assert len(returns) == 2 and all(game.min_utility() <= r <= game.max_utility() for r in returns)

    bot = ismcts.ISMCTSBot(game, ev, 4.0, 8, random_state=rs)
    st, decisions = game.new_initial_state(), 0
    while not st.is_terminal():
        if st.is_chance_node():
            outs, probs = zip(*st.chance_outcomes())
            st.apply_action(rs.choice(outs, p=probs))
        else:
            a = bot.step(st) if st.current_player() == 0 else rs.choice(st.legal_actions())
            decisions += st.current_player() == 0
            assert a in st.legal_actions()
            st.apply_action(a)
    assert decisions > 0

    solver = osm.OutcomeSamplingSolver(game)
    for _ in range(10):
        solver.iteration()
    policy = solver.average_policy()
    st = _random_state(game, 12)
    probs = policy.action_probabilities(st)
    assert set(probs) == set(st.legal_actions()) and abs(sum(probs.values()) - 1) < 1e-9
    cc = pyspiel.OutcomeSamplingMCCFRSolver(game)
    for _ in range(10):
        cc.run_iteration()
    assert pyspiel.evaluate_bots(game.new_initial_state(), [pyspiel.make_uniform_random_bot(p, p) for p in (0, 1)],
                                 1)


def test_openspiels_rl_environment_plays_it_on_tensors():
    """OpenSpiel's RL environment (information state tensors, chance sampled inside) runs
    a tabular Q-learner against a random agent for whole holes."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent, tabular_qlearner

    game = pyspiel.load_game("python_golfsolve_grid", {"rules": "default", "players": 2, "grid": 4})
    env = rl_environment.Environment(game, seed=0)
    n = env.action_spec()["num_actions"]
    agents = [tabular_qlearner.QLearner(player_id=0, num_actions=n),
              random_agent.RandomAgent(player_id=1, num_actions=n)]
    for _ in range(3):
        ts = env.reset()
        while not ts.last():
            assert len(ts.observations["info_state"][ts.observations["current_player"]]) == \
                game.information_state_tensor_size()
            ts = env.step([agents[ts.observations["current_player"]].step(ts).action])
        for agent in agents:
            agent.step(ts)
        assert len(ts.rewards) == 2 and all(game.min_utility() <= r <= game.max_utility() for r in ts.rewards)


@pytest.mark.parametrize("spec,players,grid,openers", [("default", 2, 4, 2), ("default+knock-double", 6, 9, 0),
                                                       ("danish", 5, 6, 3)])
def test_the_game_declares_tight_lengths_and_utility_bounds(spec, players, grid, openers):
    """The declared game length is the longest a hole can be (two decisions a turn up to the
    turn limit, and every opener), and the utility bounds are what a grid of tens and a
    failed knock, or a grid of minus twos, score (were: 20,000 decisions and -400..40
    whatever the table)."""
    from golfsolve.grid.scoring import hole_strokes
    from golfsolve.grid.state import MAX_TURNS

    game = pyspiel.load_game("python_golfsolve_grid", {"rules": spec, "players": players, "grid": grid,
                                                       "openers": openers})
    rules = game.rules
    assert game.max_game_length() == 2 * MAX_TURNS + players * openers
    assert game.max_chance_outcomes() == 54 and game.num_distinct_actions() == 3 * grid + 5
    # jacks and queens in a checkerboard: no line matches
    jq = [[10 + 14 * ((i % rules.cols + i // rules.cols) % 2) for i in range(grid)] for _ in range(players)]
    worst = hole_strokes(jq, rules, knocker=0 if rules.knock != "off" else None)[1][0]
    if rules.cancel != "anywhere" and not rules.cancel_by_value:
        assert -worst == game.min_utility()
    assert game.min_utility() < 0 < game.max_utility() == 2 * grid


def test_actions_names_chance_and_the_end_behave_as_openspiel_expects():
    """Every legal action has its own name, which ``string_to_action`` reads back; chance
    outcomes are the chance node's legal actions, and a player node has none; at the end
    nobody has a legal action, the current player is TERMINAL, every seat still has an
    information state, and the rewards are the returns; a seat that does not exist has
    no information state (was: a chance node's outcomes were also listed at player nodes
    and at the end, and seat -1 got a view)."""
    import pickle

    game = pyspiel.load_game("python_golfsolve_grid", {"rules": "default+knock10", "players": 3, "grid": 4})
    rng = np.random.default_rng(2)
    st = game.new_initial_state()
    while not st.is_terminal():
        acts = st.legal_actions()
        names = [st.action_to_string(st.current_player(), a) for a in acts]
        assert len(set(names)) == len(acts) and all(names)
        assert [st.string_to_action(nm) for nm in names] == acts
        if st.is_chance_node():
            outs = st.chance_outcomes()
            assert [a for a, _ in outs] == acts and abs(sum(q for _, q in outs) - 1) < 1e-12
            st.apply_action(outs[rng.choice(len(outs), p=[q for _, q in outs])][0])
        else:
            assert st.chance_outcomes() == []
            st.apply_action(int(rng.choice(acts)))
    assert st.current_player() == pyspiel.PlayerId.TERMINAL
    assert st.legal_actions() == [] and st.chance_outcomes() == []
    assert all(st.legal_actions(p) == [] for p in range(3))
    assert st.rewards() == st.returns() and len({st.information_state_string(p) for p in range(3)}) == 3
    assert str(pickle.loads(pickle.dumps(st))) == str(st)
    for bad in (-1, 3):
        with pytest.raises(ValueError):
            st.information_state_string(bad)


def test_the_state_string_shows_the_card_in_hand_and_the_stock():
    """OpenSpiel checks clones and serialized states by their strings, so the string shows
    everything that makes the state: two states that differ only in the stock card drawn
    print differently (they printed alike)."""
    from golfsolve.grid.state import encode

    game = GridGolfGame({"rules": "default", "players": 2, "grid": 4, "openers": 0})
    a, b = _dealt(game), _dealt(game)
    for st, k in ((a, 0), (b, 1)):
        st.apply_action(encode("stock", -1, 4))
        st.apply_action(st.chance_outcomes()[k][0])
    assert a.hole.drawn != b.hole.drawn and str(a) != str(b)
    assert str(a.hole.drawn) in str(a) and str(len(a.hole.stock)) in str(a)


def test_factored_observations_split_public_facts_from_the_card_in_hand():
    """OpenSpiel's factored observers: the public observation is the same for every seat
    and in every world any seat could be in, and does not show a stock card in hand (it
    did: every observer was the mover's information state); the private one is the seat's
    card in hand. OpenSpiel's playthrough, which asks for both, runs."""
    from open_spiel.python.algorithms import generate_playthrough
    from open_spiel.python.observation import make_observation

    from golfsolve.grid.state import encode

    game = GridGolfGame({"rules": "default", "players": 2, "grid": 4, "openers": 0})
    public = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    private = make_observation(game, pyspiel.IIGObservationType(
        public_info=False, perfect_recall=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))
    held = []
    for k in (0, 1):  # two deals that differ in the stock card seat 0 draws
        st = _dealt(game)
        st.apply_action(encode("stock", -1, 4))
        st.apply_action(st.chance_outcomes()[k][0])
        held.append(st)
    a, b = held
    rng = np.random.default_rng(0)

    def seen(obs, st, p):
        obs.set_from(st, p)
        return obs.string_from(st, p), list(obs.tensor)

    pub = seen(public, a, 0)
    assert pub == seen(public, a, 1) == seen(public, b, 0)
    assert str(a.hole.drawn) not in pub[0].split(" hand ")[1]
    for p in (0, 1):
        assert seen(public, a.resample_from_infostate(p, rng=rng), p) == pub
    assert seen(private, a, 0) != seen(private, b, 0) and f"hand {a.hole.drawn}" in seen(private, a, 0)[0]
    assert seen(private, a, 1) == seen(private, b, 1)
    assert "PublicObservationString" in generate_playthrough.playthrough(
        "python_golfsolve_grid(players=2,grid=4,openers=0)", action_sequence=None, alsologtostdout=False, seed=3)


@pytest.mark.parametrize("spec,early", [("danish", False), ("default", True)])
def test_the_adapter_offers_done_early_only_where_the_rules_allow_it(spec, early):
    """The adapter's legal actions are the hole state's: under danish (openers-exact) 'done' is
    never offered while a player turns openers. was: offered at every opening decision."""
    from golfsolve.grid.state import DONE, OPEN, encode

    game = pyspiel.load_game("python_golfsolve_grid", {"rules": spec, "players": 3, "grid": 6, "openers": 3})
    rng = np.random.default_rng(5)
    state, opening = game.new_initial_state(), 0
    while state.is_chance_node() or state.hole.phase == OPEN:
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(cards, p=probs)))
            continue
        legal = state.legal_actions()
        assert (encode(DONE, -1, 6) in legal) == early
        state.apply_action(int(rng.choice([a for a in legal if a != encode(DONE, -1, 6)])))
        opening += 1
    assert opening == 9 and not state.is_terminal()
