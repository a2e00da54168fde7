"""`odds`' fair chance: the product interval, when the games stop, and the command's answer."""

from __future__ import annotations

import json

import pytest
from fair_helpers import simulated_coverage

from golfsolve.fair.odds import MIN_GAMES, WIDTH, WORK_BUDGET, play_until
from golfsolve.intervals import product_interval, wilson
from golfsolve.solitaire.layout import layout_from_code


def test_product_interval_at_its_edges():
    # an exact first factor scales the second one's Wilson interval
    est, lo, hi = product_interval(3, 4, 7, 20, exact1=True)
    _, wlo, whi = wilson(7, 20)
    assert (est, lo, hi) == pytest.approx((0.75 * 0.35, 0.75 * wlo, 0.75 * whi))
    # no fair win: from 0 to the product of the two factors' upper ends (the first's own error kept)
    est, lo, hi = product_interval(150, 200, 0, 12)
    assert est == lo == 0.0 and hi == pytest.approx(wilson(150, 200)[2] * wilson(0, 12)[2])
    assert product_interval(0, 4, 3, 5, exact1=True) == (0.0, 0.0, 0.0)  # an exact 0 is 0
    # both factors uncertain: wider than either factor's interval alone, scaled by the other
    est, lo, hi = product_interval(150, 200, 6, 20)
    _, clo, chi = wilson(150, 200)
    _, wlo, whi = wilson(6, 20)
    assert lo < min(0.75 * wlo, clo * 0.3) and hi > max(0.75 * whi, chi * 0.3) and lo < est < hi
    # every sampled order won, every game won: the top is 1, the bottom below both factors' bottoms
    est, lo, hi = product_interval(200, 200, 20, 20)
    assert est == hi == 1.0 and lo < min(wilson(200, 200)[1], wilson(20, 20)[1])


def test_odds_interval_covers_by_simulation():
    """Synthetic Bernoulli orders with a known clairvoyant chance pc and win rate q on winnable
    orders, stopped by odds' own sequential rule: the interval holds pc * q about 95% of the
    time across the grid (Wilson's coverage oscillates a little around 95% at small n)."""
    cover, naive = simulated_coverage()
    assert sum(cover.values()) / len(cover) >= 0.94, cover
    assert min(cover.values()) >= 0.90, cover
    # the check has power: taking the clairvoyant chance as exact (ignoring its sampling error)
    # undercovers where the win rate on winnable orders is high and pc is uncertain
    assert naive < 0.9


def test_play_until_stops_at_the_width_goal_or_the_budget():
    def width(k: int, m: int) -> float:
        _, lo, hi = product_interval(200, 200, k, m)
        return hi - lo

    # every game won, or every other one: narrow at the first game from MIN_GAMES on where it can be
    for won in (lambda i: True, lambda i: i % 2 == 0):
        fw, m, _, stopped = play_until(((won(i), 1) for i in range(1000)), 200, 200)
        assert stopped == "narrow" and m >= MIN_GAMES and width(fw, m) <= WIDTH
        assert fw == sum(won(i) for i in range(m))
        assert all(width(sum(won(i) for i in range(j)), j) > WIDTH for j in range(MIN_GAMES, m))
    # costly games: the budget stops them, even before MIN_GAMES, counting the work done before
    # the first game
    fw, m, work, stopped = play_until(((i % 2 == 0, WORK_BUDGET // 8) for i in range(1000)), 200, 200,
                                      work=WORK_BUDGET // 2)
    assert (m, stopped) == (4, "budget") and work == WORK_BUDGET
    # no stop rule: every game is counted
    assert play_until(((True, WORK_BUDGET) for _ in range(30)), 200, 200, stop=False)[1:] == (30, 30 * WORK_BUDGET,
                                                                                             "games")


def test_the_progress_bar_is_drawn_on_a_terminal_only_unless_told(capsys, monkeypatch):
    import sys

    from golfsolve.progress import progress_bar

    def drawn(show) -> bool:
        assert list(progress_bar(range(3), total=3, unit="deal", desc="deals", show=show)) == [0, 1, 2]
        return "deals: 100%" in capsys.readouterr().err

    assert (drawn(None), drawn(False), drawn(True)) == (False, False, True)  # stderr is captured: no terminal
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert (drawn(None), drawn(False), drawn(True)) == (True, False, True)


@pytest.mark.parametrize("flags, show", [([], None), (["--quiet"], False), (["--json"], False)])
def test_odds_draws_the_shared_progress_bar(run_cli, data_dir, monkeypatch, flags, show):
    import importlib

    odds_module = importlib.import_module("golfsolve.fair.odds")  # the package's name 'odds' is the function
    bars: list = []
    real = odds_module.progress_bar

    def spy(iterable, **kw):
        bars.append((kw["desc"], kw["show"]))
        return real(iterable, **kw)

    monkeypatch.setattr(odds_module, "progress_bar", spy)
    r = run_cli(["odds", "--layout", str(data_dir / "seed000_start.txt"), "--samples", "4", "--games", "2", *flags])
    assert r.exit_code == 0, r.stderr
    assert bars == [("solving samples", show), ("fair games", show)]
    assert "samples" not in r.stderr  # stderr is not a terminal here: no bar


def test_odds_after_moves_are_the_odds_of_the_players_view_of_that_position():
    """``odds_for_player(..., moves=...)`` (``odds --moves``, ``/api/odds`` with moves) answers
    from the position the engine reaches, as its player sees it: the same answer as
    :func:`odds` on :func:`player_view` of that game, with the moves recorded."""
    from golfsolve.errors import InputError
    from golfsolve.fair import PlayerSettings, odds, odds_for_player, player_view
    from golfsolve.solitaire.hint import position_after
    from golfsolve.solitaire.layout import layout_from_number
    from golfsolve.solitaire.rules import EASY

    lay = layout_from_number(1, EASY, "E")
    tiny = PlayerSettings(samples=2, extra=0)
    moves = "1 1 5 d 4"
    got = odds_for_player(lay, samples=6, games=1, player=tiny, moves=moves)
    view, played = player_view(lay, position_after(lay, moves.split()))
    want = odds(view, EASY, samples=6, games=1, player=tiny, played=played)
    assert got.moves_played == tuple(moves.split()) and got.as_json()["moves_played"] == moves
    same = ("deal", "moves_played", "seconds", "cpu_seconds")
    assert {k: v for k, v in got.as_json().items() if k not in same} == \
        {k: v for k, v in want.as_json().items() if k not in same}
    assert got.unknown == 15 and got.render().startswith(f"{lay.name} after 5 moves (")
    # a list of move words is the same question; none at all is the layout's own odds
    assert odds_for_player(lay, samples=6, games=1, player=tiny, moves=moves.split()).as_json()["work"] == got.work
    assert odds_for_player(lay, samples=6, games=1, player=tiny).as_json()["moves_played"] == ""
    with pytest.raises(InputError, match=r"move 5 of 5 \('7'\) is not legal here"):
        odds_for_player(lay, moves="1 1 5 d 7")
    with pytest.raises(TypeError, match="each move must be a move word"):
        odds_for_player(lay, moves=[1, 1])


def test_odds_moves_are_checked_before_any_work(run_cli):
    r = run_cli(["odds", "GO1-E-AAAAAAB", "--moves", "1 1 5 d 7"])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.strip() == "golfsolve: move 5 of 5 ('7') is not legal here: Must be one rank higher or lower"


_EMPTY_COLUMNS = "".join(f"{i}:\n" for i in range(1, 8))
#: every column cleared, ten stock cards unknown: won, where sampling would give [98.1, 100]
WON_TEXT = "discard: KC\nstock: ? ? ? ? ? ? ? ? ? ?\n" + _EMPTY_COLUMNS
#: no stock, and no free card is one rank from the 9D: locked
LOCKED_TEXT = "discard: 9D\nstock:\n1: 6C 5S\n2: 2S\n3: TC AH\n4: 3D\n5: JH\n6: TH 4H\n7: 3S 7S\n"
WON_MOVES = "1 1 5 d 4 3 6 2 d 2 7 d 5 3 1 4 d d 7 3 7 2 4 4 1 1 4 2 6 3 d 5 6 5 d 7 6 3 6 d d d d 2 5 d 7"


@pytest.mark.parametrize("text, value, message", [
    (WON_TEXT, 1.0, "the game is already over: You won! Score 350"),
    (LOCKED_TEXT, 0.0, "the game is already over: No more possible moves"),
], ids=["won", "locked"])
def test_odds_of_a_finished_game_say_it_is_over_exactly_without_sampling(text, value, message):
    """was: a won position with ten unknown stock cards answered a sampled clairvoyant
    interval [98.1, 100] and a fair one [81, 100] from 16 games, where ``hint`` says the game
    is over. Now the chances are exact (won 100%, locked 0%), nothing is sampled or played,
    and the answer says why, in ``hint``'s words."""
    from golfsolve.fair import odds
    from golfsolve.solitaire.layout import parse_layout_text

    res = odds(parse_layout_text(text, "end.txt"), samples=200)
    assert res.over == message
    assert (res.chance, res.low, res.high, res.exact) == (value, value, value, True)
    assert (res.fair_chance, res.fair_low, res.fair_high, res.fair_exact) == (value, value, value, True)
    assert res.samples == res.wins == res.fair_games == res.work == 0
    j = res.as_json()
    assert j["game_over"] is True and j["message"] == message
    for side in ("fair", "clairvoyant"):
        assert j[side]["chance"] == value and j[side]["ci95"] == [value, value] and j[side]["exact"] is True
    text_out = res.render()
    assert message in text_out and "[" not in text_out and "sample" not in text_out
    assert f"fair chance:        {value:.0%}  (exact" in text_out
    assert f"clairvoyant chance: {value:.0%}  (exact" in text_out


def test_odds_after_moves_that_end_the_game_say_what_hint_says():
    from golfsolve.fair import odds_for_player
    from golfsolve.solitaire.answers import GameOverError, hint_position
    from golfsolve.solitaire.layout import layout_from_code

    lay = layout_from_code("GO1-E-AAAAAAB")
    with pytest.raises(GameOverError) as e:
        hint_position(lay, WON_MOVES.split())
    got = odds_for_player(lay, moves=WON_MOVES)
    assert got.over == str(e.value) and got.chance == got.fair_chance == 1.0 and got.samples == 0
    assert got.render().startswith("GO1-E-AAAAAAB after 47 moves (easy: King-Ace linked")
    j = got.as_json()
    assert j["moves_played"] == WON_MOVES and j["deal"] == "GO1-E-AAAAAAB" and j["game_over"] is True
    # a game still going on: the same keys, nothing over
    going = odds_for_player(lay, samples=4, games=0, moves="1 1").as_json()
    assert going["game_over"] is False and going["message"] is None and set(going) == set(j)


@pytest.mark.parametrize("text, value, message", [
    (WON_TEXT, 100, "the game is already over: You won! Score 350"),
    (LOCKED_TEXT, 0, "the game is already over: No more possible moves"),
], ids=["won", "locked"])
def test_cli_odds_of_a_finished_game(run_cli, tmp_path, text, value, message):
    f = tmp_path / "end.txt"
    f.write_text(text)
    r = run_cli(["odds", "--layout", str(f)])
    assert r.exit_code == 0 and not r.stderr
    assert r.stdout.splitlines()[1] == message and f"fair chance:        {value}%  (exact" in r.stdout
    r = run_cli(["odds", "--layout", str(f), "--json"])
    j = json.loads(r.stdout)
    assert r.exit_code == 0 and j["game_over"] is True and j["message"] == message
    assert j["fair"]["chance"] == j["clairvoyant"]["chance"] == value / 100


@pytest.mark.parametrize("moves, head", [("1 1 5 d u", "after 3 moves"), ("1 1 5 d", "after 4 moves"), ("1 u", None),
                                         ("d u u", None)])
def test_the_heading_counts_the_moves_that_stand_after_undos(run_cli, moves, head):
    r = run_cli(["odds", "GO1-E-AAAAAAB", "--moves", moves, "--games", "0"])
    if moves == "d u u":  # nothing left to undo: refused
        assert r.exit_code == 2
        return
    assert r.exit_code == 0, r.stderr
    first = r.stdout.splitlines()[0]
    assert (head in first) if head else (" after " not in first)


def test_moves_in_effect_takes_an_undo_as_one_move_back():
    from golfsolve.solitaire.engine import moves_in_effect

    assert moves_in_effect(["1", "1", "5", "d", "u"]) == 3
    assert moves_in_effect(["u", "d"]) == 1
    assert moves_in_effect([]) == 0


def test_odds_at_its_defaults_reaches_twenty_points_on_the_costliest_measured_opening():
    """GO1-E-AAAAAAE needed the most work of the openings docs/performance.md measured (36.5 M
    states for 76 games): at the defaults its games stop because the interval is narrow, not
    on the budget. The budget counts work, not time, so this holds on any machine."""
    from golfsolve.fair import odds
    from golfsolve.solitaire.layout import layout_from_code

    res = odds(layout_from_code("GO1-E-AAAAAAE"))
    assert res.stopped == "narrow" and res.fair_high - res.fair_low <= WIDTH
    assert res.work < WORK_BUDGET and res.fair_games >= 60


def test_odds_records_the_exact_state_cap_it_was_given():
    """was: ``odds(exact_states=...)`` (the cap on the exact fair chance's expectimax) was left
    out of the answer's JSON, so two answers made with different caps (which can differ: a cap
    passed leaves the fair chance to the games) looked alike."""
    from golfsolve.fair import PlayerSettings, odds
    from golfsolve.fair.odds import EXACT_STATES, EXACT_UNKNOWN
    from golfsolve.solitaire.layout import layout_from_number
    from golfsolve.solitaire.rules import CLASSIC

    lay = layout_from_number(3, CLASSIC, "C")
    tiny = PlayerSettings(samples=2, extra=0)
    capped = odds(lay, samples=4, games=1, player=tiny, exact_states=1234).as_json()["settings"]
    default = odds(lay, samples=4, games=1, player=tiny).as_json()["settings"]
    assert (capped["exact_states"], default["exact_states"]) == (1234, EXACT_STATES)
    assert capped["exact_unknown"] == default["exact_unknown"] == EXACT_UNKNOWN


def test_odds_interval_keeps_the_clairvoyant_error_when_no_fair_game_is_won():
    """odds on a game in progress where 2 of 200 sampled orders could be won and the fair
    player lost both games said "fair chance 0% [0, 1]": the top was the sampled clairvoyant
    chance (1%) times the win rate's top (66%), as if the 1% were exact, though the
    clairvoyant chance alone may be 3.6%. With odds' own stopping rule, positions with a
    clairvoyant chance of 1-2% got a "95%" interval that held the fair chance 85% of the
    time. Now a factor of 0 gives [0, the product of the two tops]."""
    import random

    from golfsolve.fair.odds import play_until
    from golfsolve.intervals import product_interval, wilson

    est, lo, hi = product_interval(2, 200, 0, 2)
    assert (est, lo) == (0.0, 0.0) and hi == pytest.approx(wilson(2, 200)[2] * wilson(0, 2)[2])  # 2.3%, not 0.66%
    rng = random.Random(19)
    pc, q, hits, reps = 0.02, 0.5, 0, 600
    for _ in range(reps):
        wins = sum(rng.random() < pc for _ in range(200))
        if wins == 0:
            hits += 1  # odds says 0% [0, Wilson's top of 0 of 200]: holds 1%
            continue
        fw, m, _, _ = play_until(((rng.random() < q, 1) for _ in range(wins)), wins, 200)
        _, lo, hi = product_interval(wins, 200, fw, m)
        hits += lo <= pc * q <= hi
    assert hits / reps >= 0.93, hits / reps


def test_odds_with_nothing_hidden_does_not_speak_of_stock_orders_or_expectimax(run_cli, tmp_path):
    """odds on a layout with an empty stock (three cards left, no card to draw) said
    "clairvoyant chance: 0.0% (exact: the one possible stock order cannot be won ...)" of a
    stock that is not there, and --json called the fair chance "exact: expectimax over the
    unknown stock cards" where no card is unknown (the text rightly said "nothing is
    hidden"). Now both say nothing is hidden."""
    import json

    f = tmp_path / "end.txt"
    f.write_text("discard: 5C\nstock:\n1: 7D 6C 4S\n" + "".join(f"{c}:\n" for c in range(2, 8)))
    r = run_cli(["odds", "--layout", str(f)])
    assert r.exit_code == 0, r.stderr
    assert "clairvoyant chance: 0.0%  (exact: nothing is hidden, and the position cannot be won)" in r.stdout
    assert "stock order" not in r.stdout, r.stdout
    d = json.loads(run_cli(["odds", "--layout", str(f), "--json"]).stdout)
    assert d["unknown_stock_cards"] == 0 and d["fair"]["what"].startswith("exact: nothing is hidden"), d["fair"]


CODE = "GO1-E-AAAAAAB"


def test_odds_json_has_the_same_fields_in_every_case():
    # was: the fair part's keys came and went: no ci95, wins or stopped with games=0, no
    # win_rate_on_winnable_orders or stopped on an exact answer, so a reader of one answer's
    # fields met a KeyError on another's; they are null where they do not apply
    import golfsolve.fair as fair
    from golfsolve.solitaire.engine import Game
    from golfsolve.solitaire.solver import Solver

    solver, lay = Solver(), layout_from_code(CODE)
    game = Game(lay)
    for m in "1 1 5 d 4 3 6 2 d 2 7 d 5 3 1 4 d d 7 3 7 2 4 4 1 1 4 2 6 3 d 5 6 5 d 7 6 3 6 d d d d 2".split():
        assert game.play(m).ok
    view, played = fair.player_view(lay, game)
    answers = {"sampled": fair.odds(lay, samples=4, games=2, solver=solver).as_json(),
               "exact": fair.odds(view, samples=4, games=2, played=played, solver=solver).as_json(),
               "no games": fair.odds(lay, samples=4, games=0, solver=solver).as_json()}
    assert answers["exact"]["fair"]["exact"] and answers["no games"]["fair"]["chance"] is None
    keys = {name: sorted(a["fair"]) for name, a in answers.items()}
    assert keys["sampled"] == keys["exact"] == keys["no games"], keys
    assert sorted(answers["sampled"]) == sorted(answers["exact"]) == sorted(answers["no games"])
    assert answers["no games"]["fair"]["ci95"] is None and answers["exact"]["fair"]["stopped"] is None


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_the_orders_odds_and_rate_play_on_are_not_the_players_own_draws(seed):
    """was: odds and rate drew the orders their games are played on from the seed the fair
    player draws its guesses with: the same draws from a pool of the same size, so the
    player's sampled orders were the real ones (up to a relabelling of the unseen cards when
    the player names them by rank) and its guesses matched the truth (rate +4.1 points on
    such a deal). They come from a stream of their own."""
    import random

    from golfsolve.fair import referee_seed, stock_orders
    from golfsolve.fair.view import as_seen

    view = as_seen(layout_from_code("GO1-E-AAAAAAA"))
    real, _ = stock_orders(view, view.rules, 16, referee_seed(seed))
    guessed, _ = stock_orders(view, view.rules, 16, random.Random(seed))  # as the player's generator draws
    assert len(set(real)) == 16 and not set(real) & set(guessed)
    # no stock place holds the same card in every one of the first 8 of both
    assert not [i for i in range(16) if len({st[i] for st in real[:8] + guessed[:8]}) == 1]
