"""Information honesty: fair answers depend only on what a player sees.

Two positions with the same table, discard, played cards, stock size and already-seen
stock cards, but different hidden stock orders, must get identical fair answers for one
seed: from the library (the fair hint, both win chances, the fair player at every preset,
the difficulty rating) and from the CLI (``hint --fair``, ``odds`` and ``rate`` on a deal
code, ``--pysol 1`` and a full layout file).
"""

from __future__ import annotations

import json
import random
import re
from typing import Optional

import pytest

from golfsolve.cards import card_str
from golfsolve.fair import PRESETS, PlayerSettings, fair_hint, odds, play, rate
from golfsolve.solitaire.engine import Game
from golfsolve.solitaire.layout import Layout, layout_from_number, layout_from_pysol
from golfsolve.solitaire.rules import CLASSIC, EASY
from golfsolve.solitaire.solver import MOVE_DRAW, Solver


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


def reshuffled(lay: Layout, keep: int, seed: int) -> Layout:
    """The same table and discard with the stock beyond its first ``keep`` cards in another order."""
    rest = list(lay.stock[keep:])
    rng = random.Random(seed)
    while rest == list(lay.stock[keep:]):
        rng.shuffle(rest)
    return Layout(lay.columns, lay.discard, tuple(lay.stock[:keep]) + tuple(rest), lay.rules, lay.name)


def strip(j: dict) -> dict:
    """A JSON answer without what names the source or measures time."""
    if isinstance(j, list):
        return [strip(x) for x in j]
    return {k: v for k, v in j.items() if k not in ("deal", "seconds", "cpu_seconds", "code")}


def view_after(lay: Layout, moves: list[str], rules) -> tuple[Layout, tuple[int, ...]]:
    game = Game(lay, rules)
    for m in moves:
        assert game.play(m).ok
    return game.to_layout().forget_stock(0), tuple(game.pile[:-1])


def test_fair_hint_and_odds_same_for_hidden_orders_after_the_same_moves(solver):
    a = layout_from_number(4, CLASSIC)
    b = reshuffled(a, 1, 0)  # the first card is drawn below, so both show it
    assert a.stock != b.stock
    va, pa = view_after(a, ["d"], CLASSIC)
    vb, pb = view_after(b, ["d"], CLASSIC)
    assert (va, pa) == (vb, pb)
    for preset in PRESETS:
        ha = fair_hint(va, CLASSIC, seed=3, played=pa, solver=solver, player=preset)
        hb = fair_hint(vb, CLASSIC, seed=3, played=pb, solver=solver, player=preset)
        assert ha.as_json() == hb.as_json()
    tiny = PlayerSettings(samples=2, extra=0)
    oa = odds(va, CLASSIC, samples=6, seed=3, played=pa, games=1, player=tiny, solver=solver)
    ob = odds(vb, CLASSIC, samples=6, seed=3, played=pb, games=1, player=tiny, solver=solver)
    assert strip(oa.as_json()) == strip(ob.as_json())


def test_library_fair_answers_on_whole_deals_ignore_the_stock_order(solver):
    """Given a deal's layout itself (the referee's stock order in it), odds and the fair
    hint answer from what its player sees: twins with reshuffled stocks get one answer."""
    a = layout_from_number(7, EASY)
    b = reshuffled(a, 0, 1)
    tiny = PlayerSettings(samples=2, extra=0)
    ha = fair_hint(a, EASY, seed=5, solver=solver, player=tiny)
    hb = fair_hint(b, EASY, seed=5, solver=solver, player=tiny)
    assert strip(ha.as_json()) == strip(hb.as_json())
    oa = odds(a, EASY, samples=6, seed=5, games=1, player=tiny, solver=solver)
    ob = odds(b, EASY, samples=6, seed=5, games=1, player=tiny, solver=solver)
    assert strip(oa.as_json()) == strip(ob.as_json())


def _draws_before(line: tuple[str, ...], k: int) -> int:
    """The length of the prefix of ``line`` that draws at most ``k`` cards."""
    seen = 0
    for i, m in enumerate(line):
        if m == MOVE_DRAW:
            seen += 1
            if seen > k:
                return i + 1  # the (k+1)th draw itself is still chosen blind
    return len(line)


@pytest.mark.parametrize("player", ["small", "small-carry", *PRESETS])
def test_fair_players_choose_the_same_until_a_hidden_card_differs(player, solver):
    """Two real stocks equal in their first k cards: the players' lines agree until the k+1th draw
    (the referee may stop one game earlier, when its real position is lost), at every preset,
    and with orders carried between decisions (they must come from the cards seen only)."""
    a = layout_from_number(2, EASY)
    keep = 3
    b = reshuffled(a, keep, 1)
    small = {"small": PlayerSettings(samples=4, extra=2), "small-carry": PlayerSettings(samples=4, extra=2, carry=True)}
    settings = small.get(player, player)
    ga = play(a, EASY, settings, 5, solver, referee=False)
    gb = play(b, EASY, settings, 5, solver, referee=False)
    n = min(_draws_before(ga.moves, keep), _draws_before(gb.moves, keep))
    assert n > keep  # the games went on past the shared cards
    assert ga.moves[:n] == gb.moves[:n]


def code_file(tmp_path, lay: Layout, name: str) -> str:
    p = tmp_path / name
    p.write_text(lay.to_text(), encoding="utf-8")
    return str(p)


@pytest.mark.parametrize("source", ["code", "pysol"])
def test_cli_hint_fair_and_odds_forget_the_stock(source, run_cli, tmp_path):
    """A code, --pysol 1 and full layout files with other stock orders all give the same fair answers."""
    if source == "code":
        real, args = layout_from_number(1, EASY, "E"), ["GO1-E-AAAAAAB"]
    else:
        real, args = layout_from_pysol(1), ["--pysol", "1"]
    files = [["--layout", code_file(tmp_path, lay, f"f{i}.txt")]
             for i, lay in enumerate([real, reshuffled(real, 0, 2), reshuffled(real, 0, 3), reshuffled(real, 1, 4)])]
    for cmd in (["hint", "--fair", "--seed", "2", "--json"],
                ["hint", "--fair", "--player", "fast", "--moves", "d", "--json"],
                ["odds", "--samples", "6", "--games", "1", "--seed", "2", "--json"],
                ["odds", "--samples", "6", "--games", "1", "--seed", "2", "--player", "strong", "--json"],
                ["odds", "--samples", "24", "--seed", "2", "--json"],  # the default: games until narrow enough
                ["rate", "--games", "2", "--seed", "2", "--json"],
                ["rate", "--games", "1", "--player", "strong", "--json"]):
        if "--moves" in cmd:
            # after a draw the hidden orders must agree on the drawn card, as a player saw it
            runs = [args, files[3]]
        else:
            runs = [args] + files[:3]
        outs = []
        for a in runs:
            r = run_cli(cmd[:1] + a + cmd[1:] + ["--rules", "easy"])
            assert r.exit_code == 0, r.stderr
            out = strip(json.loads(r.stdout))
            if cmd[0] == "rate":
                # only winnability may use the real stock: the rest comes from the opening
                (out,) = out
                out.pop("winnable")
            outs.append(out)
        assert all(o == outs[0] for o in outs[1:]), cmd
        if cmd[0] == "hint":
            assert outs[0]["method"] == "sampled" and not outs[0]["all_orders"]  # not the one real order
        elif cmd[0] == "odds":
            assert outs[0]["unknown_stock_cards"] == 16


def _no_name_no_clock(command: str, out: str) -> str:
    """A command's text without its first line's deal name (odds) or code (rate) and the CPU it took."""
    if command == "odds":
        out = out.split("\n", 1)[1]
    elif command == "rate":
        out = out.split("fair chance", 1)[1]  # after the code and the real stock's winnability
    return re.sub(r"[\d.]+ s of CPU", "", out)


@pytest.mark.parametrize("stock", ["reordered", "? " * 16, "..."], ids=["reordered", "question-marks", "dots"])
def test_cli_text_and_json_are_the_codes_for_a_file_with_the_stock_reordered_or_face_down(stock, run_cli,
                                                                                            tmp_path):
    """The code, a full layout with another stock order, and layouts that write the stock as
    unknown ('?' for each card, or '...'): the same fair hint, odds and rating, in text and in
    JSON (a face-down stock cannot be rated: its winnability needs the real order)."""
    real = layout_from_number(1, EASY, "E")
    if stock == "reordered":
        f = code_file(tmp_path, reshuffled(real, 0, 5), "f.txt")
    else:
        f = tmp_path / "face_down.txt"
        text = real.to_text().replace(" ".join(card_str(c) for c in real.stock), stock)
        assert text != real.to_text()
        f.write_text(text, encoding="utf-8")
    commands = [["hint", "--fair", "--player", "fast", "--all"], ["odds", "--samples", "6", "--games", "1"]]
    if stock == "reordered":
        commands.append(["rate", "--games", "1"])
    for cmd in commands:
        for fmt in ([], ["--json"]):
            outs = []
            for src in (["GO1-E-AAAAAAB"], ["--layout", str(f)]):
                r = run_cli(cmd[:1] + src + cmd[1:] + fmt + ["--rules", "easy"])
                assert r.exit_code == 0, r.stderr
                if fmt:
                    out = strip(json.loads(r.stdout))
                    for o in (out if isinstance(out, list) else [out]):
                        o.pop("winnable", None)
                else:
                    out = _no_name_no_clock(cmd[0], r.stdout)
                outs.append(out)
            assert outs[0] == outs[1], cmd + fmt


def test_cli_hint_fair_text_on_a_full_layout_does_not_show_the_next_card(run_cli, tmp_path):
    real = layout_from_number(1, EASY, "E")
    f = code_file(tmp_path, real, "full.txt")
    r = run_cli(["hint", "--layout", f, "--fair", "--player", "fast", "--all"])
    assert r.exit_code == 0, r.stderr
    draw = [ln for ln in r.stdout.splitlines() if ln.strip().startswith("d ")]
    assert len(draw) == 1 and draw[0].split()[:2] == ["d", "?"]  # the draw's card is unknown to the player
    # was: only the "?" was checked; a stock card named anywhere else (a plan, a note) went unseen
    shown = [c for c in real.stock for name in (card_str(c), card_str(c, True))
             if re.search(rf"(?<!\d){re.escape(name)}", r.stdout)]
    assert not shown, [card_str(c) for c in shown]


def test_rate_fair_chance_ignores_the_hidden_stock(solver):
    """Only winnability may use the real stock; the fair chance and label come from the opening."""
    a = layout_from_number(6, CLASSIC, "C")
    b = reshuffled(a, 0, 5)
    tiny = PlayerSettings(samples=3, extra=0)
    ra = rate(a, CLASSIC, games=3, seed=1, solver=solver, player=tiny)
    rb = rate(b, CLASSIC, games=3, seed=1, solver=solver, player=tiny)
    assert (ra.fair_wins, ra.games, ra.label) == (rb.fair_wins, rb.games, rb.label)
    assert ra.winnable == (solver.solve(a, CLASSIC).outcome == "won")
    assert rb.winnable == (solver.solve(b, CLASSIC).outcome == "won")


@pytest.mark.parametrize("spec, number", [("strict", 5), ("dead-king", 3), ("easy+jokers2", 4), ("classic+empty", 4),
                                          ("easy+stuck", 1)])
def test_fair_answers_ignore_the_hidden_stock_under_every_rule_set(spec, number, solver):
    """The rule sets with their own paths (draw only when stuck, a dead King, jokers, no
    opening discard): the fair hint, both odds and the rating's fair part are the same for
    stocks reordered entirely and for stocks that differ only in their last two cards."""
    from golfsolve.fair import player_view
    from golfsolve.fair.odds import odds_for_player
    from golfsolve.solitaire.rules import get_rules

    rules = get_rules(spec)
    real = layout_from_number(number, rules)  # a deal with some winnable orders: fair games are played
    tiny = PlayerSettings(samples=3, extra=1)

    def answers(lay: Layout) -> tuple:
        rating = rate(lay, rules, games=2, seed=1, solver=solver, player=tiny).as_json()
        rating.pop("winnable")
        return (fair_hint(player_view(lay)[0], rules, seed=2, solver=solver, player=tiny).as_json(),
                strip(odds_for_player(lay, samples=8, games=2, seed=1, solver=solver, player=tiny).as_json()),
                strip(rating))

    want = answers(real)
    assert want[1]["fair"]["games"] > 0
    for twin in (reshuffled(real, 0, 1), reshuffled(real, len(real.stock) - 2, 1)):
        assert answers(twin) == want


# -- audit probes: mid-game positions with several stock cards seen ----------------------------

MID = "1 1 5 d 4 3 6 2 d 1 3"  # deal 1, Easy: two stock cards turned, 14 still hidden
LATE = " ".join("d" * 13)  # thirteen turned, three hidden: the exact (expectimax) path


@pytest.mark.parametrize("moves, keep", [(MID, 2), (LATE, 13)])
def test_cli_hint_fair_mid_game_forgets_what_was_not_turned(moves, keep, run_cli, tmp_path):
    """A code and full layouts whose stocks agree on the turned cards only: the same fair
    hint, in JSON and in text, sampled and exact."""
    real = layout_from_number(1, EASY, "E")
    twins = [code_file(tmp_path, reshuffled(real, keep, s), f"t{s}.txt") for s in (7, 8)]
    outs, texts = [], []
    for src in (["GO1-E-AAAAAAB"], ["--layout", twins[0]], ["--layout", twins[1]]):
        base = ["hint", *src, "--rules", "easy", "--fair", "--moves", moves, "--seed", "4"]
        r = run_cli(base + ["--json"])
        assert r.exit_code == 0, r.stderr
        outs.append(strip(json.loads(r.stdout)))
        r = run_cli(base + ["--all"])
        assert r.exit_code == 0, r.stderr
        texts.append(r.stdout)
    assert outs[1] == outs[0] and outs[2] == outs[0]
    assert texts[1] == texts[0] and texts[2] == texts[0]
    assert outs[0]["method"] == ("exact" if keep == 13 else "sampled")


@pytest.mark.parametrize("moves, keep", [(MID, 2), (LATE, 13)])
def test_cli_odds_mid_game_forgets_what_was_not_turned(moves, keep, run_cli, tmp_path):
    """``odds --moves``: a code and full layouts whose stocks agree on the turned cards only get
    the same odds, in JSON and in text, sampled and exact."""
    real = layout_from_number(1, EASY, "E")
    twins = [code_file(tmp_path, reshuffled(real, keep, s), f"t{s}.txt") for s in (7, 8)]
    outs, texts = [], []
    for src in (["GO1-E-AAAAAAB"], ["--layout", twins[0]], ["--layout", twins[1]]):
        base = ["odds", *src, "--rules", "easy", "--moves", moves, "--samples", "8", "--games", "2", "--seed", "4"]
        r = run_cli(base + ["--json"])
        assert r.exit_code == 0, r.stderr
        outs.append(strip(json.loads(r.stdout)))
        r = run_cli(base)
        assert r.exit_code == 0, r.stderr
        texts.append(_no_name_no_clock("odds", r.stdout))
    assert outs[1] == outs[0] and outs[2] == outs[0]
    assert texts[1] == texts[0] and texts[2] == texts[0]
    assert outs[0]["unknown_stock_cards"] == 16 - keep and outs[0]["moves_played"] == moves
    assert outs[0]["fair"]["exact"] == (keep == 13)


def test_cli_odds_on_a_saved_mid_game_layout_forgets_its_stock(run_cli, tmp_path):
    """A game in progress saved as a layout file, and the same file with its stock reordered."""
    real = layout_from_number(1, EASY, "E")
    game = Game(real, EASY)
    for m in MID.split():
        assert game.play(m).ok
    mid = game.to_layout()
    files = [code_file(tmp_path, lay, f"m{i}.txt") for i, lay in enumerate([mid, reshuffled(mid, 0, 9)])]
    outs = []
    for f in files:
        r = run_cli(["odds", "--layout", f, "--rules", "easy", "--samples", "5", "--games", "1", "--json"])
        assert r.exit_code == 0, r.stderr
        outs.append(strip(json.loads(r.stdout)))
    assert outs[0] == outs[1] and outs[0]["unknown_stock_cards"] == len(mid.stock)


def test_player_view_is_what_the_cli_answers_from(data_dir):
    """The library's player_view forgets what the CLI forgets: a full stock entirely, a partial
    layout's undeclared places only; the cards a game drew are under the discard's top."""
    from golfsolve.fair import player_view
    from golfsolve.solitaire.hint import position_after
    from golfsolve.solitaire.layout import read_layout_file

    real = layout_from_number(1, EASY, "E")
    game = position_after(real, MID.split(), EASY)
    view, played = player_view(real, game)
    twin_view, twin_played = player_view(reshuffled(real, 2, 3), position_after(reshuffled(real, 2, 3),
                                                                                 MID.split(), EASY))
    assert (view, played) == (twin_view, twin_played)
    assert all(c is None for c in view.stock) and len(played) == len(game.pile) - 1
    partial = read_layout_file(data_dir / "seed000_start.txt")
    pview, _ = player_view(partial)
    assert pview.stock[0] == partial.stock[0] and pview.stock == partial.stock  # 8S was declared


@pytest.mark.parametrize("rules", [EASY, CLASSIC])
def test_a_shared_solver_keeps_nothing_from_the_real_deal(rules):
    """The referee and the fair player share one Solver: solving the real deal first must not
    change any answer about a sampled order (no table entry keyed without the stock)."""
    shared = Solver()
    for n in range(6):
        real = layout_from_number(n, rules)
        sample = reshuffled(real, 0, n)
        for verdict_only in (False, True):
            shared.solve(real, rules, verdict_only=verdict_only)
            got = shared.solve(sample, rules, verdict_only=verdict_only)
            fresh = Solver().solve(sample, rules, verdict_only=verdict_only)
            assert (got.outcome, got.best_left, got.moves, got.nodes) == \
                (fresh.outcome, fresh.best_left, fresh.moves, fresh.nodes)


@pytest.mark.parametrize("moves, keep", [("d u", 1), ("d d u u 1", 2)])
def test_fair_hint_after_an_undone_draw_ignores_the_cards_never_turned(moves, keep, solver):
    """Undo puts a seen card back on the stock: twins that agree on every card turned (and
    turned back) but not on the rest get the same fair hint."""
    from golfsolve.fair import fair_hint_for_player

    real = layout_from_number(1, EASY, "E")
    tiny = PlayerSettings(samples=3, extra=0)
    answers = []
    for lay in (real, reshuffled(real, keep, 6), reshuffled(real, keep, 7)):
        game = Game(lay, EASY)
        for m in moves.split():
            assert game.play(m).ok
        answers.append(strip(fair_hint_for_player(lay, game, seed=2, player=tiny, solver=solver).as_json()))
    assert answers[1] == answers[0] and answers[2] == answers[0]


# -- the fair hint is the strong player's move ------------------------------------------------

def _decision_points(rules, numbers, seed="h"):
    """Every position where the fast player had a choice in its real games of ``numbers``:
    ``(view, played cards)``, as the player saw it."""
    out = []
    for n in numbers:
        game = Game(layout_from_number(n, rules), rules)
        g = play(layout_from_number(n, rules), rules, "fast", seed, referee=False)
        for m in g.moves:
            if len(game.legal_moves()) > 1:
                out.append((game.to_layout().forget_stock(0), tuple(game.pile[:-1])))
            game.play(m)
    return out


def _hint_is_the_strong_players_move(points, solver) -> None:
    from golfsolve.fair.player import Player

    for i, (view, played) in enumerate(points):
        h = fair_hint(view, view.rules, seed=i, played=played, solver=solver)
        d = Player(view.rules, "strong", i, solver).decide(view, played)
        assert (h.best.move, h.plan) == (d.chain[0], d.chain), i
        assert h.as_json()["player"] == PRESETS["strong"].as_dict()


def test_the_fair_hint_recommends_the_strong_players_move(solver):
    """At positions of real games the hint's move and plan are what a strong player seeded
    alike decides there; at each opening, what the strong player played in its game."""
    points = _decision_points(EASY, [0]) + _decision_points(CLASSIC, [0])
    _hint_is_the_strong_players_move(points[::3], solver)
    for rules in (EASY, CLASSIC):
        for n in (1,):
            lay = layout_from_number(n, rules)
            g = play(lay, rules, "strong", 7, solver, referee=False)
            h = fair_hint(lay.forget_stock(0), rules, seed=7, solver=solver)
            assert g.moves[:len(h.plan)] == h.plan


@pytest.mark.benchmark
def test_the_fair_hint_is_the_strong_players_move_on_over_100_positions_of_real_games(solver):
    """The same on every decision point of the fast player's games of deals 0..4 (Easy and
    Classic): more than 100 positions (about a minute of CPU; run with -m benchmark)."""
    points = _decision_points(EASY, range(0, 5)) + _decision_points(CLASSIC, range(0, 5))
    assert len(points) >= 100
    _hint_is_the_strong_players_move(points, solver)


# -- fair-stats: a game's seed must not name the deal ------------------------------------------

def _twin_deals(monkeypatch, number: int, keep: int) -> tuple[Layout, Layout]:
    """fair-stats deals ``number`` and ``number + 1`` made twins: deal ``number``, and that deal
    with its stock reordered past its first ``keep`` cards (a deal number fixes the hidden
    stock, so twins need two numbers). The twin is named as the deal it stands in for: a
    fair-stats row whose code is not its deal's is refused as a hand edit."""
    from golfsolve.solitaire.dealcode import format_code
    from golfsolve.stats import fairstats

    real = layout_from_number(number, EASY, "E")
    rest = reshuffled(real, keep, 1)
    twin = Layout(rest.columns, rest.discard, rest.stock, rest.rules, format_code(number + 1, "E"), number + 1)
    twins = {number: real, number + 1: twin}
    monkeypatch.setattr(fairstats, "layout_from_number",
                        lambda n, rules, *letter: twins[n] if n in twins else layout_from_number(n, rules, *letter))
    return real, twin


def test_fair_stats_plays_twin_deals_alike_until_a_hidden_card_differs(monkeypatch, solver):
    """fair-stats plays each deal with the fair player, whose seed may depend on what it sees
    only: two deals with the same opening whose stocks agree in their first cards get the
    same moves until the first differing card is drawn (was: each game's seed named the deal
    number, which fixes the stock, so twins were played by differently seeded players)."""
    from golfsolve.stats import fairstats

    keep = 3
    real, twin = _twin_deals(monkeypatch, 1, keep)
    games = {}
    play_ = fairstats.play

    def recording(layout, *args, **kwargs):
        games[layout.stock] = g = play_(layout, *args, **kwargs)
        return g

    monkeypatch.setattr(fairstats, "play", recording)
    for n in (1, 2):
        fairstats.fair_deal_row("easy", n, 0, "fast", solver)
    ga, gb = games[real.stock], games[twin.stock]
    n = min(_draws_before(ga.moves, keep), _draws_before(gb.moves, keep))
    assert n > keep
    assert ga.moves[:n] == gb.moves[:n]


def test_cli_fair_stats_rows_of_twin_deals_agree_where_the_player_decides(monkeypatch, run_cli, tmp_path):
    """The same through ``golfsolve fair-stats``: twins whose stocks differ in their last two
    cards only, which the fair player's game never reaches, get the same row from the player's
    side (won, moves, where it was lost, decisions)."""
    import pandas as pd

    real, _ = _twin_deals(monkeypatch, 19, 14)
    # the premise: the player's game ends before it turns a card where the twins differ
    assert play(real, EASY, "fast", 0).moves.count("d") < 14
    out = tmp_path / "fs"
    r = run_cli(["fair-stats", "--start-number", "19", "--count", "2", "--rules", "easy", "--player", "fast",
                 "--workers", "1", "--out", str(out), "-q", "--json"])
    assert r.exit_code == 0, r.stderr
    df = pd.read_parquet(out).sort_values("deal")
    mine = df[["fair_won", "moves", "lost_at", "lost_on_draw", "decisions"]].to_dict("records")
    assert len(mine) == 2 and mine[0] == mine[1]


# -- probes: what names a deal, and deals rated in one run --------------------------------------

def test_library_fair_answers_ignore_the_layouts_name_and_deal_number(solver):
    """Twins told apart by nothing but their names (a code, a file name) and deal numbers, and
    their stock orders: the same fair hint, odds and rating, but for the name itself."""
    from golfsolve.fair import player_view

    real = layout_from_number(3, CLASSIC, "C")
    rest = reshuffled(real, 0, 4)
    twin = Layout(rest.columns, rest.discard, rest.stock, rest.rules, "my-deal.txt", 99)
    assert (real.name, real.deal_number) != (twin.name, twin.deal_number)
    tiny = PlayerSettings(samples=3, extra=1)
    answers = []
    for lay in (real, twin):
        rating = rate(lay, CLASSIC, games=2, seed=4, solver=solver, player=tiny).as_json()
        rating.pop("winnable")
        answers.append((strip(fair_hint(player_view(lay)[0], CLASSIC, seed=4, solver=solver, player=tiny).as_json()),
                        strip(odds(lay, CLASSIC, samples=8, games=2, seed=4, solver=solver, player=tiny).as_json()),
                        strip(rating)))
    assert answers[0] == answers[1]


def test_cli_rate_gives_twins_rated_in_one_run_the_same_fair_chance(run_cli, tmp_path):
    """``rate`` rates its deals one after the other with one solver and seed: a code and its
    twins (full layouts with other stock orders) in one command, in either order, get the
    same fair chance and label; only winnability is the real stock's."""
    real = layout_from_number(1, EASY, "E")
    files = [code_file(tmp_path, reshuffled(real, 0, s), f"twin{s}.txt") for s in (11, 12)]
    outs = []
    for args in (["GO1-E-AAAAAAB", "--layout", files[0], "--layout", files[1]],
                 ["--layout", files[1], "GO1-E-AAAAAAB"]):
        r = run_cli(["rate", *args, "--rules", "easy", "--games", "2", "--seed", "3", "--json"])
        assert r.exit_code == 0, r.stderr
        for o in json.loads(r.stdout):
            o.pop("winnable")
            outs.append(strip(o))
    assert len(outs) == 5 and all(o == outs[0] for o in outs[1:])


def test_odds_work_is_the_same_after_the_real_deal_was_solved_and_hinted_with_the_same_solver():
    """The server's workers share one Solver between requests: a peeking solve and hint of the
    real deal before ``odds`` of its twin must not change odds' count of work (which decides
    when its games stop) or anything else it answers."""
    from golfsolve.solitaire.answers import peeking_hint_answer

    real = layout_from_number(0, EASY, "E")
    twin = reshuffled(real, 0, 8)
    tiny = PlayerSettings(samples=3, extra=1)
    fresh = strip(odds(twin, EASY, samples=10, games=3, seed=2, solver=Solver(), player=tiny).as_json())
    shared = Solver()
    shared.solve(real, EASY)
    peeking_hint_answer(real, "d", 0, shared)
    shared.solve(twin, EASY, verdict_only=True)
    after = strip(odds(twin, EASY, samples=10, games=3, seed=2, solver=shared, player=tiny).as_json())
    assert after == fresh and fresh["work"] > 0


# -- random twins: deep positions under every rule set, a shared solver that has seen the real deal --

SPECS = ["easy", "classic", "strict", "dead-king", "easy+jokers2", "classic+jokers1+empty", "easy+stuck",
         "classic+wrap", "strict+anytime", "easy+king-queen"]


def _random_position(rules, rng: random.Random) -> tuple[Layout, list[str], int]:
    """A random deal and random legal moves from it (undo too): the deal, the moves and how
    many stock cards were ever turned (an undone draw's card was seen all the same)."""
    real = layout_from_number(rng.randrange(1_000_000), rules)
    game = Game(real, rules)
    moves: list[str] = []
    turned = 0
    for _ in range(rng.choice([0, rng.randrange(1, 45)])):
        if game.over:
            break
        m = rng.choice(game.legal_moves() + (["u"] if moves and rng.random() < 0.15 else []))
        if game.play(m).ok:
            moves.append(m)
            turned = max(turned, len(real.stock) - len(game.stock))
    return real, moves, turned


@pytest.mark.parametrize("spec", SPECS)
def test_random_twins_deep_in_games_get_the_same_fair_answers_under_every_rule_set(spec):
    """Random positions of random games (draws, removes, undos; the stock at any depth),
    each with a twin whose stock differs only in cards never turned: the same fair hint
    (JSON and text, sampled and exact, Python and compiled expectimax) and, at openings,
    the same odds and rating's fair part with small --samples/--games and other seeds. The
    real deal is asked with a solver that has just solved and peeked at it, its twin with a
    fresh one, so nothing the solver keeps from the real stock may show."""
    from golfsolve.fair import fair_hint_for_player
    from golfsolve.solitaire.answers import peeking_hint_answer
    from golfsolve.solitaire.rules import get_rules

    rules = get_rules(spec)
    rng = random.Random(spec)
    players = [PlayerSettings(samples=3, extra=1, exact_unknown=3),
               PlayerSettings(samples=2, extra=2, exact_unknown=5, compiled_exact=True)]
    shared = Solver()
    checked = openings = 0
    methods: set[str] = set()
    while checked < 6:
        real, moves, turned = _random_position(rules, rng)
        rest = list(real.stock[turned:])
        if len(set(rest)) < 2 or Game(real, rules).over:
            continue
        game = position_after_moves(real, moves, rules)
        if game.over:
            continue
        twin = reshuffled(real, turned, checked)
        player, seed = players[checked % 2], rng.randrange(1, 9)

        def answers(lay: Layout, solver: Solver) -> list:
            g = position_after_moves(lay, moves, rules)
            h = fair_hint_for_player(lay, g, seed=seed, player=player, solver=solver)
            out = [strip(h.as_json()), h.render(show_all=True)]
            methods.add(h.method)
            if not moves:
                o = odds(lay, rules, samples=4 + seed % 4, seed=seed, games=1 + seed % 2, player=players[0], solver=solver)
                r = rate(lay, rules, games=1, seed=seed, solver=solver, player=players[0]).as_json()
                r.pop("winnable")
                out += [strip(o.as_json()), strip(r)]
            return out

        shared.solve(real, rules)
        peeking_hint_answer(real, " ".join(moves), 0, shared)
        assert answers(real, shared) == answers(twin, Solver()), (spec, moves, turned, seed)
        checked += 1
        openings += not moves
    assert checked == 6 and openings and "sampled" in methods


def position_after_moves(lay: Layout, moves: list[str], rules) -> Game:
    game = Game(lay, rules)
    for m in moves:
        assert game.play(m).ok, (m, moves)
    return game


def _twin_numbers(monkeypatch, module, twins: dict[int, tuple[int, Optional[int]]]) -> None:
    """``module.layout_from_number(n, ...)`` deals, for each ``n`` in ``twins``, deal
    ``twins[n][0]`` itself (``twins[n][1]`` None) or its twin with the stock reordered past
    its first ``twins[n][1]`` cards, named ``deal-n`` either way."""
    def dealt(n, rules, *letter):
        if n not in twins:
            return layout_from_number(n, rules, *letter)
        source, keep = twins[n]
        lay = layout_from_number(source, rules, *letter)
        if keep is not None:
            lay = reshuffled(lay, keep, n)
        return Layout(lay.columns, lay.discard, lay.stock, lay.rules, f"deal-{n}", n)

    monkeypatch.setattr(module, "layout_from_number", dealt)


def test_stats_difficulty_rates_twin_deals_alike_after_solving_the_real_ones(monkeypatch):
    """``stats --difficulty`` rates every deal with the solver that has just solved that deal
    under every rule set (each from the others' answers): twin deals get the same label and
    fair chance as each other and as a fresh ``rate`` (seed 0, the census's player)."""
    from golfsolve.stats import census
    from golfsolve.solitaire.rules import code_letter, get_rules

    rules = ["easy", "classic", "strict"]
    _twin_numbers(monkeypatch, census, {900_001: (1, 0)})
    df = census.solve_deals([1, 900_001], rules, "all", 2)
    for n, twin in ((1, 900_001),):
        mine = df[df.deal == n][["rules", "difficulty", "fair_chance"]].to_dict("records")
        assert df[df.deal == twin][["rules", "difficulty", "fair_chance"]].to_dict("records") == mine
        fresh = []
        for name in rules:
            r = get_rules(name)
            got = rate(layout_from_number(n, r, code_letter(r)), r, 2, 0, Solver(), census.difficulty_player())
            fresh.append({"rules": name, "difficulty": got.label, "fair_chance": got.fair_chance})
        assert mine == fresh


def test_pick_finds_both_twins_or_neither(monkeypatch):
    """``pick`` scans deal numbers with one solver, stopping a deal's games once its label is
    settled: a deal and its twin next to it (the same opening, another stock order) get the
    same fair rating, so both are picked (with the same rating) or neither, for their label
    and for another."""
    from golfsolve.fair import difficulty, pick
    from golfsolve.fair.settings import LABELS

    _twin_numbers(monkeypatch, difficulty, {11: (5, None), 12: (5, 0)})
    tiny = PlayerSettings(samples=2, extra=1, compiled_exact=True)
    label = rate(layout_from_number(5, EASY), EASY, 3, 1, Solver(), tiny).label
    i = LABELS.index(label)
    # another label that 3 games can give (with 3 games no deal is medium: pick refuses it)
    other = next(w for w in LABELS[i + 1:] + LABELS[:i] if difficulty._reachable(w, 3))
    for want in (label, other):
        got = pick(EASY, want, 2, start=11, winnable=False, games=3, seed=1, max_deals=2, player=tiny)
        ratings = [(r.fair_wins, r.games, r.label, r.complete) for r in got.deals]
        assert [r.code for r in got.deals] == (["deal-11", "deal-12"] if want == label else []), want
        assert ratings[1:] == ratings[:1] or not ratings
