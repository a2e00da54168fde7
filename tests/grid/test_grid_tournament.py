"""Tournament seatings: every seating in turn, no bot keeping a neighbour, and the neighbour effect."""

from __future__ import annotations

import json
import math
from collections import Counter

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from golfsolve.errors import InputError
from golfsolve.grid.rules import GridRules
from golfsolve.grid.tournament import (before_entries, cyclic_orders, entry_difference, neighbour_effect, seating,
                                       simulate)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_seating_is_used_once_per_cycle_and_balances_seats_and_neighbours(n):
    """The 'balanced' scheme up to five players (and 'cyclic' up to four: the same seatings)."""
    cycle = math.factorial(n)
    seen = [seating(n, m, seed=9, scheme="balanced") for m in range(cycle)]
    assert len(set(seen)) == cycle  # every permutation of the entries, once
    assert len(cyclic_orders(n)) == math.factorial(n - 1)
    # every n consecutive matches: each entry once in each seat
    for start in range(0, cycle, n):
        block = seen[start:start + n]
        for s in range(n):
            assert sorted(e[s] for e in block) == list(range(n))
    # a whole cycle: each entry has each other entry just before it equally often
    pairs = Counter((e[s], before_entries(e)[s]) for e in seen for s in range(n))
    assert set(pairs) == {(a, b) for a in range(n) for b in range(n) if a != b}
    assert len(set(pairs.values())) == 1
    # the list repeats, and does not depend on the seed
    assert seating(n, cycle + 1, seed=1, scheme="balanced") == seen[1]


def test_the_balanced_scheme_draws_a_seeded_random_seating_per_match_at_six_players():
    a = [seating(6, m, seed=4, scheme="balanced") for m in range(200)]
    assert all(sorted(s) == list(range(6)) for s in a)
    assert a == [seating(6, m, seed=4, scheme="balanced") for m in range(200)]
    assert a != [seating(6, m, seed=5, scheme="balanced") for m in range(200)]
    # every entry meets every predecessor
    pairs = Counter((s[i], before_entries(s)[i]) for s in a for i in range(6))
    assert len(pairs) == 30


@pytest.mark.parametrize("bots", [["heuristic", "greedy", "random", "greedy", "random"],
                                  ["heuristic", "greedy", "heuristic", "greedy", "greedy", "heuristic"]])
def test_hole_table_records_the_seating_and_parts_equal_one_run(bots):
    n = len(bots)
    rules = GridRules(players=n, holes=2)
    t = simulate(rules, bots, 7, seed=3)
    for m, g in t.holes.groupby("match"):
        by_seat = g.drop_duplicates("seat").set_index("seat")
        assert tuple(by_seat["entry"]) == seating(n, m, 3)
        assert list(by_seat["before"]) == before_entries(seating(n, m, 3))
        assert list(by_seat["before_bot"]) == [bots[e] for e in by_seat["before"]]
        assert list(by_seat["bot"]) == [bots[e] for e in by_seat["entry"]]
    parts = [simulate(rules, bots, 3, seed=3), simulate(rules, bots, 4, seed=3, first_match=3)]
    joined = pd.concat([parts[0].holes, parts[1].holes], ignore_index=True)
    assert joined.equals(t.holes)


def _copies_differences(t, entries):
    return [entry_difference(t, a, b) for i, a in enumerate(entries) for b in entries[i + 1:]]


#: z of a two-sided 95% family-wise test of three pairs (Bonferroni: 0.05 / 3 each).
Z_THREE = 2.394


def _within_chance(d) -> bool:
    se = (d["hi"] - d["lo"]) / (2 * 1.959964)
    return abs(d["diff"]) < Z_THREE * se


def test_identical_bots_at_an_asymmetric_table_differ_only_by_chance():
    """A strong bot and three copies of a weaker one, 1,620 holes: no paired difference
    between the copies beyond chance (a 95% test for the three pairs together)."""
    t = simulate(GridRules(holes=9), ["heuristic", "greedy", "greedy", "greedy"], 180, seed=11)
    diffs = _copies_differences(t, [1, 2, 3])
    assert all(_within_chance(d) for d in diffs), diffs
    ne = neighbour_effect(t)
    assert set(zip(ne["bot"], ne["before_bot"])) == {("heuristic", "greedy"), ("greedy", "heuristic"),
                                                     ("greedy", "greedy")}
    # each greedy copy follows the heuristic in a third of its matches
    row = ne[(ne["bot"] == "greedy") & (ne["before_bot"] == "heuristic")].iloc[0]
    assert row["matches"] == 180 and row["holes"] == 180 * 9


def test_the_old_rotation_shows_the_bias_that_balanced_seatings_remove():
    """With a random bot at the table, the greedy copy sitting after it gains its discards:
    under the old rotation (fixed cyclic order) the copies differ far beyond chance; with
    balanced seatings on the same seeds they do not, and the neighbour effect shows why."""
    bots = ["random", "greedy", "greedy", "greedy"]
    old = simulate(GridRules(holes=9), bots, 120, seed=2, scheme="rotation")
    new = simulate(GridRules(holes=9), bots, 120, seed=2)
    assert not all(_within_chance(d) for d in _copies_differences(old, [1, 2, 3]))
    assert max(abs(d["diff"]) for d in _copies_differences(old, [1, 2, 3])) > 1.0
    diffs = _copies_differences(new, [1, 2, 3])
    assert all(_within_chance(d) for d in diffs), diffs
    ne = neighbour_effect(new).set_index(["bot", "before_bot"])
    after_random, after_greedy = ne.loc[("greedy", "random")], ne.loc[("greedy", "greedy")]
    assert after_random["hi"] < after_greedy["lo"]  # a player after random scores lower
    # a match is one value however many of its seats sat after a greedy bot (two, each match)
    assert after_greedy["matches"] == after_random["matches"] == 120
    assert after_greedy["holes"] == 2 * after_random["holes"]


def _old_run(run_cli, out):
    """A run folder as the old rotation wrote it: no seating in the manifest, no before columns."""
    r = run_cli(["grid", "simulate", "--bots", "greedy,random,greedy", "--holes", "2", "--matches", "4", "--seed", "5",
                 "--chunk-size", "2", "--out", str(out), "-q"])
    assert r.exit_code == 0, r.stderr
    from golfsolve.stats.runfolder import manifest_path

    mf = manifest_path(out)
    m = json.loads(mf.read_text())
    assert m["params"].pop("seating") == "cyclic"
    mf.write_text(json.dumps(m))
    bots = ["greedy", "random", "greedy"]
    for f in out.glob("*.parquet"):
        df = pq.read_table(f).to_pandas().drop(columns=["before", "before_bot"])
        df["entry"] = (df["seat"] + df["match"]) % 3
        df["bot"] = [bots[e] for e in df["entry"]]
        pq.write_table(pa.Table.from_pandas(df, preserve_index=False), f)


@pytest.mark.parametrize("flag", [["--resume"], ["--extend", "--matches", "6"]])
def test_old_scheme_runs_are_reported_but_not_continued(run_cli, tmp_path, flag):
    out = tmp_path / "old"
    _old_run(run_cli, out)
    r = run_cli(["grid", "simulate", "--out", str(out), "-q"] + flag)
    assert r.exit_code == 2
    assert "made with the 'rotation' seating" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    from golfsolve.stats.gridruns import load_tournament

    t = load_tournament(out)
    assert t.seating == "rotation"
    for m, g in t.holes.groupby("match"):
        by_seat = g.drop_duplicates("seat").set_index("seat")
        assert list(by_seat["entry"]) == [(s + m) % 3 for s in range(3)]
        assert list(by_seat["before"]) == [(s - 1 + m) % 3 for s in range(3)]
    assert run_cli(["grid", "report", str(out)]).exit_code == 0


def test_running_totals_equal_the_whole_table_and_the_plain_statistics():
    from golfsolve.grid.tally import Tally
    from golfsolve.grid.tournament import simulate_tally
    from golfsolve.intervals import mean_ci

    rules, bots = GridRules(holes=3), ["heuristic", "greedy", "random", "greedy"]
    t = simulate(rules, bots, 26, seed=4)
    whole, parts = Tally.of(t), simulate_tally(rules, bots, 26, seed=4, block=7)
    assert whole.bot_summary().equals(parts.bot_summary())
    assert whole.differences() == parts.differences() and whole.ratings() == parts.ratings()
    assert whole.neighbour_effect().equals(parts.neighbour_effect())
    # the same numbers as plain arrays give: greedy, seated twice, one value a match over both
    # its seats (its two seats at one table are not independent)
    per = t.holes.groupby(["match", "bot"])["strokes"].mean().reset_index()
    summary = whole.bot_summary().set_index("bot")
    for bot in ("greedy", "heuristic"):
        row = summary.loc[bot]
        assert (row["strokes_per_hole"], row["hole_lo"], row["hole_hi"]) == pytest.approx(
            mean_ci(per[per["bot"] == bot]["strokes"].to_numpy()), rel=1e-12)
    totals = t.matches.groupby(["match", "bot"])["total"].mean().unstack("bot")["greedy"].to_numpy()
    assert (summary.loc["greedy", "strokes_per_match"], summary.loc["greedy", "match_lo"],
            summary.loc["greedy", "match_hi"]) == pytest.approx(mean_ci(totals), rel=1e-12)
    by_bot = t.holes.groupby(["match", "bot"])["strokes"].mean().unstack("bot")
    d = whole.paired("greedy", "heuristic")
    assert (d["diff"], d["lo"], d["hi"]) == pytest.approx(mean_ci((by_bot["greedy"] - by_bot["heuristic"]).to_numpy()),
                                                          rel=1e-12)
    # matches already counted: 26 matches are 0..25, so the first added again (0) comes after 25
    with pytest.raises(InputError, match=r"^match 0 is added after match 25$"):
        whole.add(t.holes, t.matches)


def test_simulate_without_rows_keeps_memory_flat():
    """Running totals: the peak memory of 240 matches is about that of 20; keeping the rows
    (as simulate does for a run folder's chunk) grows with the matches. Python collects
    cyclic garbage when it likes, so the test collects it every ten matches itself."""
    import gc
    import tracemalloc

    from golfsolve.grid.tournament import simulate_tally

    rules, bots = GridRules(players=2, grid=4, holes=1), ["random", "random"]  # the bots do not matter here
    simulate_tally(rules, bots, 20, seed=1)  # compile and cache first

    def peak(f, n):
        calls = [0]

        def tick(k):
            calls[0] += k
            if calls[0] % 10 == 0:
                gc.collect()

        gc.collect()
        # the objects alive before the run are frozen (left out of every collection): each
        # collection then walks only what the run made, not a test worker's whole heap (the
        # same garbage is collected, the same peaks measured; 1.6x less CPU in a bare process,
        # 3.3x with two million objects alive)
        gc.freeze()
        tracemalloc.start()
        try:
            f(rules, bots, n, seed=1, progress=tick)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            gc.unfreeze()

    flat, rows = [peak(simulate_tally, 20), peak(simulate_tally, 240)], [peak(simulate, 20), peak(simulate, 240)]
    assert flat[1] < 1.5 * flat[0] and rows[1] > 3 * rows[0], (flat, rows)


# -- the cyclic scheme ---------------------------------------------------------------
#: The six-player cyclic orders of the ``cyclic`` scheme: recorded runs depend on them, so a
#: change to the search that finds them would seat the rest of every such run otherwise.
SIX_ORDERS = ((0, 1, 2, 3, 4, 5), (0, 2, 1, 5, 4, 3), (0, 3, 2, 5, 1, 4), (0, 4, 2, 5, 3, 1), (0, 5, 2, 4, 1, 3),
              (0, 3, 5, 1, 4, 2), (0, 1, 2, 3, 5, 4), (0, 2, 1, 3, 4, 5), (0, 4, 1, 5, 3, 2), (0, 5, 2, 4, 3, 1))


#: The five-player cyclic orders: each ordered pair of entries neighbours once (step k mod 5).
FIVE_ORDERS = ((0, 1, 2, 3, 4), (0, 2, 4, 1, 3), (0, 3, 1, 4, 2), (0, 4, 3, 2, 1))


def test_five_players_cycle_in_twenty_matches_and_balanced_runs_keep_every_order():
    """was: five players went through all 24 cyclic orders, a 120-match cycle, so a 96-match
    run (the study's default then) had some ordered pairs of entries neighbours in 6 matches, others in 30;
    4 orders hold each ordered pair once. ``balanced`` runs keep their 24 orders."""
    from golfsolve.grid.tournament import cyclic_orders, seating_cycle, seating_orders

    assert seating_orders(5) == FIVE_ORDERS and seating_cycle(5) == 20 and seating_cycle(5, "balanced") == 120
    pairs = Counter((o[i], o[(i + 1) % 5]) for o in FIVE_ORDERS for i in range(5))
    assert len(pairs) == 20 and set(pairs.values()) == {1}
    balanced = [seating(5, m, 0, "balanced") for m in range(120)]
    assert balanced == [tuple(o[(s + m) % 5] for s in range(5)) for o in cyclic_orders(5) for m in range(5)]
    # over a 96-match run (4 cycles and 16 matches) each ordered pair is neighbours 21 to 25 times
    def spread(scheme: str) -> tuple[int, int]:
        near = Counter(p for m in range(96) for p in zip(before_entries(seating(5, m, 0, scheme)),
                                                          seating(5, m, 0, scheme)))
        return min(near.values()), max(near.values())

    assert spread("cyclic") == (21, 25) and spread("balanced") == (6, 30)


@pytest.mark.parametrize("n, cycle", [(2, 2), (3, 6), (4, 24), (5, 20), (6, 60)])
def test_the_cyclic_scheme_balances_seats_and_neighbours_exactly_over_one_cycle(n, cycle):
    """was: six players drew a random seating per match, so seats and neighbours were balanced
    only on average (over 96 matches one bot moved first more often than another)."""
    from golfsolve.grid.tally import Tally
    from golfsolve.grid.tournament import SEATING, seating_cycle

    assert SEATING == "cyclic" == Tally(GridRules(players=n), ["greedy"] * n).seating and seating_cycle(n) == cycle
    seen = [seating(n, m, seed=9) for m in range(cycle)]
    seats = Counter((e[s], s) for e in seen for s in range(n))
    assert set(seats) == {(e, s) for e in range(n) for s in range(n)}
    assert set(seats.values()) == {cycle // n}  # every entry in every seat, equally often
    # b just after a (a plays just before b), every ordered pair equally often
    pairs = Counter((before_entries(e)[s], e[s]) for e in seen for s in range(n))
    assert set(pairs) == {(a, b) for a in range(n) for b in range(n) if a != b}
    assert set(pairs.values()) == {cycle // (n - 1)}
    # every n consecutive matches, each entry once in each seat
    for start in range(0, 2 * cycle, n):
        block = [seating(n, m, seed=9) for m in range(start, start + n)]
        for s in range(n):
            assert sorted(e[s] for e in block) == list(range(n))
    # the list repeats, and does not depend on the seed
    assert [seating(n, cycle + m, seed=1) for m in range(n)] == seen[:n]
    if n <= 4:  # up to four players, the earlier 'balanced' sequence match for match
        assert seen == [seating(n, m, seed=9, scheme="balanced") for m in range(cycle)]


def test_the_six_player_design_is_ten_orders_each_pair_neighbours_twice():
    """was: no design at six players (a random seating per match); the 10 orders are pinned, as
    every run made with them depends on them."""
    from golfsolve.grid.tournament import cyclic_orders, seating_orders

    assert seating_orders(6) == SIX_ORDERS
    assert set(SIX_ORDERS) <= set(cyclic_orders(6))
    pairs = Counter((o[i], o[(i + 1) % 6]) for o in SIX_ORDERS for i in range(6))
    assert len(pairs) == 30 and set(pairs.values()) == {2}
    # one order's rotations fill 6 consecutive matches
    assert [seating(6, 6 + r, 0) for r in range(6)] == [tuple(SIX_ORDERS[1][(s + r) % 6] for s in range(6))
                                                       for r in range(6)]
    assert seating(6, 60 + 7, 0) == seating(6, 7, 0)


def test_a_six_player_run_that_ends_inside_a_cycle_spreads_the_neighbours_evenly():
    """was: the 10 orders in the search's (lexicographic) order: after 36 matches 8 ordered
    pairs of bots had never been neighbours, and over 96 matches some pairs were
    neighbours 12 times, others 24. Each next order now brings the pairs seen least."""
    def spread(matches: int) -> tuple[int, int, int]:
        near = Counter(p for m in range(matches) for p in zip(before_entries(seating(6, m, 0)), seating(6, m, 0)))
        return len(near), min(near.values()), max(near.values())

    assert spread(36) == (30, 6, 12)
    assert spread(96) == spread(100) == (30, 18, 24)


@pytest.mark.parametrize("scheme", ["nosuch", "Cyclic", "", None, 3])
def test_an_unknown_seating_scheme_is_refused_with_one_line(scheme):
    from golfsolve.errors import InputError
    from golfsolve.grid.tournament import seating_cycle
    from golfsolve.stats.gridruns import GridSpec

    for call in (lambda: seating(3, 0, 0, scheme), lambda: seating_cycle(3, scheme),
                 lambda: GridSpec(GridRules(players=2), ("greedy", "random"), 2, seating=scheme),
                 lambda: simulate(GridRules(players=2, holes=1), ["greedy", "random"], 1, 0, scheme=scheme)):
        with pytest.raises(InputError) as e:
            call()
        assert len(str(e.value).splitlines()) == 1 and "seating scheme" in str(e.value)


SIX_BOTS = "greedy,random,greedy,greedy,random,greedy"


def _balanced_run(run_cli, out, monkeypatch, matches=4):
    """A six-player run folder as the previous golfsolve wrote it: its scheme 'balanced'."""
    import golfsolve.stats.gridruns as gridruns

    with monkeypatch.context() as mp:
        mp.setattr(gridruns, "SEATING", "balanced")
        r = run_cli(["grid", "simulate", "--bots", SIX_BOTS, "--holes", "1", "--matches", str(matches), "--seed", "5",
                     "--chunk-size", "2", "--out", str(out), "-q"])
    assert r.exit_code == 0, r.stderr
    assert json.loads((out / "_manifest.json").read_text())["params"]["seating"] == "balanced"


def _seats(t) -> dict[int, tuple]:
    return {m: tuple(g.drop_duplicates("seat").sort_values("seat")["entry"]) for m, g in t.holes.groupby("match")}


def test_a_new_run_records_the_cyclic_scheme_and_plays_it(run_cli, tmp_path):
    """was: new runs recorded 'balanced' and seated six players at random."""
    from golfsolve.stats.gridruns import load_tournament

    out = tmp_path / "new"
    r = run_cli(["grid", "simulate", "--bots", SIX_BOTS, "--holes", "1", "--matches", "3", "--seed", "5",
                 "--out", str(out), "-q"])
    assert r.exit_code == 0, r.stderr
    assert json.loads((out / "_manifest.json").read_text())["params"]["seating"] == "cyclic"
    t = load_tournament(out)
    assert t.seating == "cyclic" and t.meta()["seating"] == "cyclic"
    assert _seats(t) == {m: seating(6, m, 5) for m in range(3)} == {m: SIX_ORDERS[0][m:] + SIX_ORDERS[0][:m]
                                                                      for m in range(3)}
    assert run_cli(["grid", "report", str(out), "--out", str(tmp_path / "rep")]).exit_code == 0
    assert "Cyclic seating" in (tmp_path / "rep" / "report.md").read_text()


@pytest.mark.parametrize("flag", [["--resume"], ["--extend", "--matches", "6"]])
def test_a_balanced_run_goes_on_with_the_balanced_scheme(run_cli, tmp_path, monkeypatch, flag):
    """was (with 'cyclic' the scheme of new runs, had nothing kept 'balanced'): a six-player run
    made with 'balanced' would be refused, or go on seated by another scheme than its first matches."""
    from golfsolve.stats.gridruns import load_tournament

    out = tmp_path / "old"
    _balanced_run(run_cli, out, monkeypatch)
    if flag == ["--resume"]:
        (out / sorted(p.name for p in out.glob("*.parquet"))[-1]).unlink()  # a killed run: its last chunk lost
    r = run_cli(["grid", "simulate", "--out", str(out), "-q"] + flag)
    assert r.exit_code == 0, r.stderr
    assert json.loads((out / "_manifest.json").read_text())["params"]["seating"] == "balanced"
    t = load_tournament(out)
    n = 6 if flag != ["--resume"] else 4
    whole = simulate(GridRules(players=6, holes=1), SIX_BOTS.split(","), n, 5, scheme="balanced")
    assert t.seating == "balanced"
    assert t.holes.reset_index(drop=True).equals(whole.holes) and t.matches.reset_index(drop=True).equals(whole.matches)
    assert _seats(t) == {m: seating(6, m, 5, "balanced") for m in range(n)}
    assert _seats(t) != {m: seating(6, m, 5) for m in range(n)}  # not the cyclic seatings
    rep = tmp_path / "rep"
    assert run_cli(["grid", "report", str(out), "--out", str(rep)]).exit_code == 0
    assert "Balanced seating" in (rep / "report.md").read_text()


def test_a_balanced_run_is_not_continued_with_another_scheme(run_cli, tmp_path, monkeypatch):
    """was: nothing to refuse (one scheme); a library caller resuming a 'balanced' run with a
    'cyclic' spec must be told, not have the two mixed in one folder."""
    from golfsolve.errors import InputError
    from golfsolve.stats.gridruns import GRID, GridSpec, run_grid_simulate

    out = tmp_path / "old"
    _balanced_run(run_cli, out, monkeypatch)
    before = sorted(p.name for p in out.iterdir())
    spec = GridSpec(GridRules(players=6, holes=1), tuple(SIX_BOTS.split(",")), 4, 5, chunk_size=2)
    with pytest.raises(InputError) as e:
        run_grid_simulate(out, spec, resume=True)
    assert "seating" in str(e.value) and len(str(e.value).splitlines()) == 1
    # a new run is never made with an older scheme
    with pytest.raises(InputError, match="new runs use the 'cyclic' seating"):
        run_grid_simulate(tmp_path / "new", GridSpec(spec.rules, spec.bots, 4, 5, seating="balanced"))
    assert sorted(p.name for p in out.iterdir()) == before
    assert GRID.read(out).seating == "balanced"


def test_a_run_recording_an_unknown_scheme_is_refused_with_one_line(run_cli, tmp_path):
    """An edited manifest naming no scheme golfsolve knows: exit 2, one line, for the report and --resume."""
    out = tmp_path / "run"
    assert run_cli(["grid", "simulate", "--bots", "greedy,random", "--holes", "1", "--matches", "2",
                    "--out", str(out), "-q"]).exit_code == 0
    m = json.loads((out / "_manifest.json").read_text())
    m["params"]["seating"] = "zigzag"
    (out / "_manifest.json").write_text(json.dumps(m))
    for args in (["grid", "report", str(out)], ["grid", "simulate", "--out", str(out), "--resume"]):
        r = run_cli(args)
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1 and "seating" in r.stderr, r.stderr
