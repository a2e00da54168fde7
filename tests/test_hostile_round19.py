"""Hostile sweep, round 19: the fair-play commands from outside (``odds``, ``hint --fair``,
``rate``, ``pick``, ``fair-stats`` and ``golfsolve.fair``), fed mid-game and finished
layouts, joker rule sets, extreme options and positions that look alike to the player. Each
test is a flaw a user met, fixed with a test that fails without its fix. Fast: no test here
solves more than a few deals or plays more than a few small fair games."""

from __future__ import annotations

import pytest

from hostile_helpers import one_line_error

#: a game in progress (21 cards on the table, 14 removed onto the discard pile) as a user
#: writes it, the stock's length left to "..."
MID_GAME = """discard: 5C
stock: {stock}
1: 6C 5S QS
2: 2S KC 4S
3: TC AH 2D
4: 3D QH AS
5: JH 3C 7D
6: TH 4H 7H
7: 3S 7S 3H
"""


# ---------------------------------------------------------------------------
# layouts no game reaches
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("command", [["odds", "--samples", "10", "--games", "1"], ["hint", "--fair"], ["deal"]])
def test_a_mid_game_stock_of_dots_is_refused_as_longer_than_any_stock(command, run_cli, tmp_path):
    """A game in progress written with "stock: ..." (README: "all cards not shown elsewhere")
    got a 30-card stock, the 14 cards under the discard's top counted as stock: odds said
    "fair chance 100% [42, 100] ... unknown stock cards: 30" and hint --fair valued its moves
    on orders of 30 cards, for a game no deal reaches (Easy deals 16 cards to the stock, and it only
    shrinks). Now the layout is refused, saying how to write the stock."""
    f = tmp_path / "mid.txt"
    f.write_text(MID_GAME.format(stock="..."))
    line = one_line_error(run_cli([*command, "--layout", str(f)]))
    assert "the stock has 30 cards, but rules 'easy' deal only 16 to the stock" in line, line
    assert "write one ? per card left in the stock" in line, line


def test_a_stock_longer_than_the_rules_deal_is_refused_by_the_library_too():
    """The library took the same positions: odds(Layout(..., stock of 17 unknown cards)),
    as every caller builds one, answered for them. Now every layout given rules (a Layout,
    make_layout, with_rules, and rules given to a call) is checked; jokers and an empty
    start deal longer stocks, and a cleared table is won whatever its stock."""
    from golfsolve.errors import InputError
    from golfsolve.fair import odds
    from golfsolve.solitaire.layout import Layout, LayoutError, make_layout, parse_layout_text
    from golfsolve.solitaire.rules import EASY, get_rules

    mid = parse_layout_text(MID_GAME.format(stock="? " * 17))  # no rules yet: Easy when played
    with pytest.raises(InputError, match="the stock has 17 cards, but rules 'easy' deal only 16"):
        odds(mid, samples=5, games=1)
    with pytest.raises(LayoutError, match="the stock has 17 cards"):
        Layout(mid.columns, mid.discard, mid.stock, EASY)
    with pytest.raises(LayoutError, match="deal only 17 to the stock"):
        make_layout(mid.columns, mid.discard, mid.stock + (None,), get_rules("easy+jokers1"))
    for rules, n in ((EASY, 16), (get_rules("classic+jokers2"), 18), (get_rules("easy+empty"), 17)):
        assert len(make_layout(mid.columns, mid.discard, (None,) * n, rules).stock) == n
    cleared = parse_layout_text("discard: AC\nstock: ...\n" + "".join(f"{c}:\n" for c in range(1, 8)))
    assert odds(cleared, samples=5).fair_chance == 1.0  # won, whatever "..." stands for


def test_an_empty_discard_under_a_table_that_lost_cards_is_refused(run_cli, tmp_path):
    """"discard: -" with 14 cards gone from the table (a user who did not note the top card)
    was taken under Easy, which refuses an empty discard only on a full table ("add +empty"):
    odds answered "fair chance 0% [0, 16]", since nothing fits an empty discard under Easy,
    for a position no game reaches (every card removed goes onto the discard pile). Now it
    is refused; an empty-start rule set, whose empty discard takes any card, still takes it."""
    f = tmp_path / "mid.txt"
    f.write_text(MID_GAME.format(stock="? ? ? ? ?").replace("discard: 5C", "discard: -"))
    for rules in ("easy", "classic+jokers1"):
        line = one_line_error(run_cli(["odds", "--layout", str(f), "--rules", rules, "--samples", "5"]))
        assert "the discard is empty but 14 cards have left the table" in line, line
    r = run_cli(["odds", "--layout", str(f), "--rules", "easy+empty", "--samples", "5", "--games", "1"])
    assert r.exit_code == 0, r.stderr


# ---------------------------------------------------------------------------
# what a --json answer records
# ---------------------------------------------------------------------------
def test_a_fair_hint_on_a_finished_game_records_its_seed_and_player(run_cli, tmp_path):
    """hint --fair --json --seed 5 --player fast on a won game answered without "seed" and
    "player", the keys every other fair answer has (odds on the same layout records both), so
    a script could not tell which player was asked; the server's /api/hint the same. Now the
    answer records them, and refuses a seed no fair answer takes."""
    import json

    from golfsolve.errors import InputError
    from golfsolve.fair import PRESETS, fair_game_over_answer
    from golfsolve.serve import jobs
    from golfsolve.solitaire.answers import GameOverError, game_over_answer
    from golfsolve.solitaire.layout import parse_layout_text

    text = "discard: AC\nstock: ? ? ?\n" + "".join(f"{c}:\n" for c in range(1, 8))
    f = tmp_path / "won.txt"
    f.write_text(text)
    r = run_cli(["hint", "--fair", "--layout", str(f), "--seed", "5", "--player", "fast", "--json"])
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["message"].startswith("the game is already over") and d["best"] is None
    assert d["seed"] == 5 and d["player"] == PRESETS["fast"].as_dict(), d
    lay = parse_layout_text(text)
    served = jobs.fair_hint(lay, "", seed=7, player="fast")
    assert served["seed"] == 7 and served["player"]["preset"] == "fast", served
    with pytest.raises(InputError, match="seed"):
        fair_game_over_answer(lay, [], GameOverError("over"), seed=-1)
    assert "seed" not in game_over_answer(lay, [], GameOverError("over"))  # the peeking hint has no player


def test_rate_and_pick_json_record_the_seed_their_chances_are_of(run_cli):
    """rate --seed 5 --json printed each deal's fair chance and the player's settings but not
    the seed, where every other fair answer records it: another seed is another fixed
    strategy and another chance (docs/fair.md), and a script comparing two ratings could
    not tell them apart. pick's deals the same (its answer named the seed once, each deal
    not). Now every rating records it."""
    import json

    r = run_cli(["rate", "GO1-C-AAAAAAB", "--seed", "5", "--games", "2", "--json"])
    assert r.exit_code == 0, r.stderr
    (rating,) = json.loads(r.stdout)
    assert rating["seed"] == 5 and rating["player"]["preset"] == "fast", rating
    r = run_cli(["pick", "--difficulty", "very-hard", "--rules", "classic", "--start-number", "1", "--count", "1",
                 "--games", "2", "--seed", "3", "--max-deals", "3", "--json"])
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["seed"] == 3 and [x["seed"] for x in d["deals"]] == [3], d


def test_fair_stats_json_records_the_seed_and_the_player(run_cli, tmp_path):
    """fair-stats --seed 4 --player fast --json summed up the run (its files, chunks and rows)
    without the seed or the player it was played with, the two settings its win rates are
    of; a script had to open _manifest.json for them. Now the summary records both."""
    import json

    from golfsolve.fair import PRESETS

    out = tmp_path / "run"
    r = run_cli(["fair-stats", "--count", "1", "--rules", "strict", "--start-number", "1", "--player", "fast",
                 "--seed", "4", "--jobs", "1", "--out", str(out), "--json"])
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["seed"] == 4 and d["player"] == PRESETS["fast"].as_dict() and d["rows"] == 1, d


# ---------------------------------------------------------------------------
# the numbers
# ---------------------------------------------------------------------------
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


@pytest.mark.parametrize("table, chance", [("1:\n", 1.0), ("1: 6C\n", 0.0)], ids=["won", "locked"])
def test_rate_of_a_finished_opening_counts_no_game(table, chance, run_cli, tmp_path):
    """rate --json on a won (or locked) full layout said "fair_wins": 1, "games": 1 (0 and 1
    locked), a game that was never played: the text says "exact (the game is already over)",
    and odds --json on the same layout counts "games": 0. Now no game is counted and the
    chance is still the game's end."""
    import json

    f = tmp_path / "end.txt"
    f.write_text("discard: AC\nstock:\n" + table + "".join(f"{c}:\n" for c in range(2, 8)))
    r = run_cli(["rate", "--layout", str(f), "--json"])
    assert r.exit_code == 0, r.stderr
    (got,) = json.loads(r.stdout)
    assert (got["fair_wins"], got["games"], got["fair_chance"], got["ci95"]) == (0, 0, chance, [chance, chance]), got
    assert got["exact"] and got["game_over"] and got["winnable"] is bool(chance)
    r = run_cli(["odds", "--layout", str(f), "--json"])
    assert json.loads(r.stdout)["fair"]["games"] == 0 and json.loads(r.stdout)["fair"]["chance"] == chance


def test_rate_json_stopped_by_ctrl_c_leaves_the_ratings_made_as_one_json_list(run_cli, monkeypatch):
    """rate --pysol 1-1000 --json, stopped with Ctrl-C after 31 deals, left "[ {...}, ... {...}"
    on stdout, a list never closed that no JSON reader takes (json.loads: "Expecting ','
    delimiter"), though the ratings are printed as they come so that a stopped run keeps them.
    Now the list is closed after the ratings made, and the exit code (130) and stderr say
    the run was stopped."""
    import json

    import golfsolve.fair
    from golfsolve.fair.difficulty import rate as real_rate

    calls = []

    def rate_then_ctrl_c(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_rate(*args, **kwargs)

    monkeypatch.setattr(golfsolve.fair, "rate", rate_then_ctrl_c)
    r = run_cli(["rate", "GO1-C-AAAAAAB", "GO1-C-AAAAAAC", "--games", "1", "--json"])
    assert r.exit_code == 130 and "interrupted" in r.stderr, (r.exit_code, r.stderr)
    assert [x["deal"] for x in json.loads(r.stdout)] == ["GO1-C-AAAAAAB"], r.stdout


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


def test_pick_json_stopped_by_ctrl_c_prints_the_deals_found_so_far(run_cli, monkeypatch):
    """pick --json prints its answer only at the end, so a long scan stopped with Ctrl-C
    printed nothing at all on stdout, where without --json every deal found was already on
    screen. Now the deals found so far are printed as the one JSON answer, marked
    "stopped": "interrupted", with how many deals were examined; exit 130 as before."""
    import json

    import golfsolve.fair.difficulty as difficulty

    real_scan = difficulty._scan

    def scan_then_ctrl_c(*args, **kwargs):
        for i, got in enumerate(real_scan(*args, **kwargs)):
            if i == 3:
                raise KeyboardInterrupt
            yield got

    monkeypatch.setattr(difficulty, "_scan", scan_then_ctrl_c)
    r = run_cli(["pick", "--rules", "classic", "--difficulty", "very-hard", "--count", "50", "--games", "1",
                 "--json"])
    assert r.exit_code == 130 and "interrupted" in r.stderr, (r.exit_code, r.stderr)
    got = json.loads(r.stdout)
    assert got["stopped"] == "interrupted" and got["examined"] == 3 and got["start"] == 0
    assert got["found"] == len(got["deals"]) >= 1 and got["player"]["preset"] == "fast"
    assert all(d["label"] == "very-hard" for d in got["deals"]), got["deals"]


def test_the_fair_report_describes_every_setting_that_shapes_the_preset():
    """A fair-stats report's paragraph (``_fair.md``) described the fast preset without its
    carried orders or its cards named by rank, and the strong preset without its more orders
    where none is won: a reader could not tell the two presets' methods apart from it. Now
    each of those settings is said in words."""
    from golfsolve.fair import PRESETS
    from golfsolve.stats.fairstats import describe_player

    fast, strong = describe_player(PRESETS["fast"]), describe_player(PRESETS["strong"])
    assert "last decision's with the cards drawn since taken out" in fast and "named by rank" in fast
    assert "up to 64" in strong and "named by rank" not in strong and "drawn since" not in strong
    assert "more orders until one does" in strong and "more orders until one does" not in fast
