"""Hostile-user sweep, round 12: each test is a flaw a user met from outside, mostly in the grid
Golf library and its run folders (tournaments, tallies, exports, reports), each fixed with a test
that fails without its fix. Fast: the matches played here are a handful of one-hole 2x2 games."""

from __future__ import annotations

import re

import numpy as np
import pytest

from golfsolve.errors import InputError


def _rules(players: int = 2):
    from golfsolve.grid.rules import parse_rules

    return parse_rules("default", players=players, holes=1, grid=4)


# ---------------------------------------------------------------------------
# the tournament library
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("kw, error, words", [
    ({"block": -1}, InputError, "block must be from 1"),
    ({"block": 0}, InputError, "block must be from 1"),
    ({"block": 2.5}, InputError, "block must be a whole number"),
    ({"matches": "2"}, InputError, "--matches must be a whole number, not '2'"),
    ({"matches": float("nan")}, InputError, "--matches must be a whole number, not nan"),
    ({"first_match": float("nan")}, InputError, "first_match must be a whole number"),
    ({"rules": "default"}, TypeError, "rules must be a GridRules"),
    ({"bots": None}, TypeError, "bots must be a list of bot names"),
    ({"bots": (b for b in ["random", "greedy"])}, TypeError, "bots must be a list of bot names"),
])
def test_simulate_tally_checks_its_arguments_as_simulate_does(kw, error, words):
    """simulate_tally(rules, bots, 2, 0, block=-1) answered a tally of no match at all, as if
    two had been asked and none played; matches="2" failed as "'<' not supported between
    instances of 'str' and 'int'", block=0 as "range() arg 3 must not be zero", rules by name
    as "'str' object has no attribute 'holes'" (simulate names each of these)"""
    from golfsolve.grid.tournament import simulate_tally

    args = {"rules": _rules(), "bots": ["random", "greedy"], "matches": 2, "seed": 0, **kw}
    with pytest.raises(error, match="^" + re.escape(words)):
        simulate_tally(**args)


def test_simulate_tally_still_takes_numpy_counts_and_plays_every_match():
    from golfsolve.grid.tournament import simulate, simulate_tally

    t = simulate_tally(_rules(), ["Random", "greedy"], np.int64(3), np.uint64(4), block=np.int64(2))
    assert t.matches == 3 and t.bots == ["random", "greedy"]
    assert t.bot_summary().equals(simulate(_rules(), ["random", "greedy"], 3, 4).tally().bot_summary())


# ---------------------------------------------------------------------------
# the run folders of the library
# ---------------------------------------------------------------------------
def test_a_library_grid_run_refuses_samples_no_bot_takes_before_making_its_folder(tmp_path):
    """run_grid_simulate(out, GridSpec(rules, ('random', 'greedy'), 2, samples=5)) wrote the
    folder and its manifest, then the first chunk refused the samples: a run folder of a run that
    can never be played was left behind (the command refuses --mc-samples without an mc bot at
    once)"""
    from golfsolve.stats.gridruns import GridSpec, run_grid_simulate

    out = tmp_path / "run"
    with pytest.raises(InputError, match="^samples sets the sample count of mc and mc-greedy bots .* include none"):
        run_grid_simulate(out, GridSpec(_rules(), ("random", "greedy"), 2, samples=5), progress=False)
    assert not out.exists()


@pytest.mark.parametrize("kind", ["simulate", "study"])
@pytest.mark.parametrize("spec", [None, "random,greedy"])
def test_a_library_grid_run_names_a_spec_that_is_none(kind, spec, tmp_path):
    """run_grid_simulate(out, None) failed as "'NoneType' object has no attribute 'seating'" and
    run_study(out, None) as "'NoneType' object has no attribute 'items'", where the solitaire runs
    say "a golfsolve stats run's spec must be a CensusSpec" """
    from golfsolve.stats.gridruns import run_grid_simulate
    from golfsolve.stats.gridstudy import run_study

    run, name = (run_grid_simulate, "GridSpec") if kind == "simulate" else (run_study, "StudySpec")
    with pytest.raises(TypeError, match=f"^a golfsolve grid {kind} run's spec must be a {name}, not "):
        run(tmp_path / "run", spec)
    assert not (tmp_path / "run").exists()


def test_a_paired_difference_takes_the_bot_names_as_simulate_took_them():
    """simulate(rules, ['Random', 'Greedy'], ...) played and listed 'random' and 'greedy', and
    then paired_difference(t, 'Random', 'Greedy') said "bots 'Random' and 'Greedy' did not both
    play", false of two bots that played every match; a name that is no text was "unhashable
    type: 'list'" """
    from golfsolve.grid.tournament import paired_difference, simulate

    t = simulate(_rules(), ["Random", "Greedy"], 3, 0)
    got = paired_difference(t, "Random", " GREEDY ")
    assert (got["a"], got["b"]) == ("random", "greedy") and got == paired_difference(t, "random", "greedy")
    with pytest.raises(InputError, match="^a paired difference compares two bots, not 'random' with itself"):
        paired_difference(t, "Random", "random")
    with pytest.raises(InputError, match="^bots 'random' and 'mc' did not both play"):
        paired_difference(t, "random", "MC")
    with pytest.raises(TypeError, match="^a bot must be named by text"):
        paired_difference(t, ["random"], "greedy")


def _grid_run(out, bots=("random", "greedy"), matches=3):
    from golfsolve.stats.gridruns import GridSpec, run_grid_simulate

    run_grid_simulate(out, GridSpec(_rules(), tuple(bots), matches, chunk_size=1), progress=False)
    return out


def test_export_csv_refuses_the_folder_of_another_tournament(tmp_path):
    """export_csv(t, DIR) wrote t's _holes.csv and _matches.csv into the run folder of another
    tournament (other bots, or the same bots over fewer matches) without a word: the folder's
    exports then described matches it never played, and a later --resume kept them; into a folder
    not made yet it failed as FileNotFoundError on a temporary file's name"""
    import shutil

    from golfsolve.grid.tournament import simulate
    from golfsolve.stats.gridruns import export_csv, load_tournament

    run = _grid_run(tmp_path / "run")
    for t, says in [(simulate(_rules(), ["greedy", "heuristic"], 3, 0), "3 matches of greedy,heuristic"),
                    (simulate(_rules(), ["random", "greedy"], 2, 0), "2 matches of random,greedy")]:
        with pytest.raises(InputError, match=f"^{run} holds another tournament \\(3 matches of random,greedy, seed 0: "
                                             f".*\\), not this one of {says}"):
            export_csv(t, run)
        assert not list(run.glob("_*.csv"))
    # the run's own tournament goes beside its chunks, as the command writes it
    own = load_tournament(run)
    assert [p.name for p in export_csv(own, run)] == ["_holes.csv", "_matches.csv"]
    # a new folder is made; a file where the folder goes is named
    assert (tmp_path / "new" / "deeper" / "_matches.csv") in export_csv(own, tmp_path / "new" / "deeper")
    with pytest.raises(InputError, match="exists and is not a directory"):
        export_csv(own, run / "_holes.csv")
    with pytest.raises(TypeError, match="^out must be a directory's path"):
        export_csv(own, 3)
    shutil.rmtree(tmp_path / "new")


@pytest.mark.parametrize("call, error, words", [
    ("bot_summary(None)", TypeError, "t must be a Tournament"),
    ("neighbour_effect('RUN')", TypeError, "t must be a Tournament"),
    ("entry_difference(None, 0, 1)", TypeError, "t must be a Tournament"),
    ("paired_difference(None, 'random', 'greedy')", TypeError, "t must be a Tournament"),
    ("rate_bots(None)", TypeError, "t must be a Tournament"),
    ("report_data(None)", TypeError, "t must be a Tournament or Tally"),
    ("report_data(t, 5)", TypeError, "command must be the command line the report shows"),
    ("render_markdown(None)", TypeError, "t must be a Tournament or Tally"),
    ("summary_text(report_data(t), None)", TypeError, "rules must be the tournament's GridRules"),
    ("summary_text(None, t.rules)", TypeError, "data must be report_data(t)'s numbers"),
])
def test_the_tournament_statistics_name_what_is_no_tournament(call, error, words):
    """bot_summary(None), rate_bots(None), report_data(None) and render_markdown(None) failed as
    "'NoneType' object has no attribute 'tally'", neighbour_effect of a run folder's path as "'str'
    object has no attribute 'tally'", summary_text(data, None) as "has no attribute 'describe'",
    and report_data(t, 5) put the number 5 where the report shows its command"""
    from golfsolve.grid.tournament import (bot_summary, entry_difference, neighbour_effect,  # noqa: F401
                                           paired_difference, rate_bots, simulate)
    from golfsolve.stats.gridreport import render_markdown, report_data, summary_text  # noqa: F401

    t = simulate(_rules(), ["random", "greedy"], 2, 0)  # noqa: F841
    with pytest.raises(error, match="^" + re.escape(words)):
        eval(call)


# ---------------------------------------------------------------------------
# honest intervals
# ---------------------------------------------------------------------------
def test_a_mean_from_a_few_matches_has_a_student_t_interval():
    """grid simulate --matches 2 printed 'paired-rel:2 - ismcts:2: -12.75 [-13.24, -12.26]', a
    "95%" interval from two matches made with the normal quantile 1.96, which holds the mean about
    70% of the time from two values (Student's t at one degree of freedom is 12.71): the report
    called the difference significant ("excludes 0: yes") on evidence that cannot show it"""
    import math

    from golfsolve.grid.tournament import bot_summary, paired_difference, simulate
    from golfsolve.intervals import mean_ci

    assert mean_ci([1.0, 2.0]) == pytest.approx((1.5, 1.5 - 12.7062047 * 0.5, 1.5 + 12.7062047 * 0.5))
    t = simulate(_rules(), ["random", "greedy"], 2, 0)
    per = t.holes.pivot_table(index="match", columns="bot", values="strokes", aggfunc="mean")
    d = (per["random"] - per["greedy"]).to_numpy(dtype=float)
    half = 12.7062047 * float(np.std(d, ddof=1)) / math.sqrt(2)
    got = paired_difference(t, "random", "greedy")
    assert (got["diff"], got["lo"], got["hi"]) == pytest.approx((d.mean(), d.mean() - half, d.mean() + half))
    s = bot_summary(t).set_index("bot")
    x = per["greedy"].to_numpy(dtype=float)
    assert s.loc["greedy", "hole_hi"] - s.loc["greedy", "strokes_per_hole"] == \
        pytest.approx(12.7062047 * float(np.std(x, ddof=1)) / math.sqrt(2))
    from golfsolve.intervals import t_quantile

    # Student's t 97.5% quantiles from the tables, at 1, 2, 9, 99 and 999 degrees of freedom
    for df, q in [(1, 12.7062047), (2, 4.3026527), (9, 2.2621572), (99, 1.9842169), (999, 1.9623415)]:
        assert t_quantile(df) == pytest.approx(q, abs=1e-7)


# ---------------------------------------------------------------------------
# reading run folders in the library
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("switch", ["no", "False", 0.0])
def test_reading_an_unfinished_run_takes_allow_incomplete_as_true_or_false(switch, tmp_path):
    """load_results(DIR, allow_incomplete="no") and load_fair_results(DIR, allow_incomplete="no")
    read an unfinished run as if it were whole: "no" is a true value to Python, so the refusal the
    caller asked for never came"""
    from golfsolve.stats.census import load_results
    from golfsolve.stats.fairstats import load_fair_results
    from golfsolve.stats.gridruns import GRID

    run = _grid_run(tmp_path / "run")
    (run / "chunk-0000000002.parquet").unlink()
    for load in (load_results, load_fair_results, lambda out, allow_incomplete: GRID.load(out, allow_incomplete)):
        with pytest.raises(TypeError, match="^allow_incomplete must be True or False"):
            load(run, allow_incomplete=switch)
    with pytest.raises(InputError, match="only 2 of 3 chunks are done"):
        GRID.load(run, allow_incomplete=np.False_)
    assert len(GRID.load(run, allow_incomplete=True)[2]) == 2


@pytest.mark.parametrize("call", ["load_results(5)", "load_fair_results(5)", "load_tournament(0)", "load_study(5)",
                                  "is_study(5)", "compare_fair_runs(5, 6)", "run_status(3)", "read_manifest(None)"])
def test_the_run_readers_name_a_folder_that_is_no_path(call):
    """load_results(5), load_tournament(0), compare_fair_runs(5, 6) and the others failed as
    "expected str, bytes or os.PathLike object, not int", naming no argument (run_census(5, ...)
    says "out must be a directory's path")"""
    from golfsolve.stats.census import load_results, read_manifest, run_status  # noqa: F401
    from golfsolve.stats.fairstats import compare_fair_runs, load_fair_results  # noqa: F401
    from golfsolve.stats.gridruns import load_tournament  # noqa: F401
    from golfsolve.stats.gridstudy import is_study, load_study  # noqa: F401

    with pytest.raises(TypeError, match="^out must be a directory's path, e.g. 'runs/easy' or a Path, not "):
        eval(call)


def test_one_bot_at_every_seat_wins_exactly_its_share_with_no_interval(tmp_path, run_cli):
    """golfsolve grid simulate with its default bots (a heuristic at every seat) said "wins 25.0%
    [4.6, 69.9]": a bot that holds every seat wins every match, a quarter of it a seat exactly,
    and the interval showed chance where there is none (the report's table the same)"""
    from golfsolve.grid.tournament import bot_summary, simulate

    r = run_cli(["grid", "simulate", "--grid", "4", "--holes", "1", "--matches", "2", "-q"])
    assert r.exit_code == 0, r.stderr
    # the win rate's line (the bots' settings below it list the heuristic's parameters in brackets)
    assert "wins  25.0% (exact: one bot at every seat)" in r.stdout
    assert "[" not in r.stdout.split("wins")[1].splitlines()[0]
    row = bot_summary(simulate(_rules(), ["greedy", "greedy"], 3, 0)).iloc[0]
    assert (row["win_rate"], row["win_lo"], row["win_hi"]) == (0.5, 0.5, 0.5)
    run = _grid_run(tmp_path / "run", bots=("greedy", "greedy"))
    r = run_cli(["grid", "report", str(run)])
    assert r.exit_code == 0, r.stderr
    assert "| 50.0% (exact: one bot at every seat) |" in (run / "_report" / "report.md").read_text()
    # two bots: their win rates keep their Wilson intervals
    row = bot_summary(simulate(_rules(), ["greedy", "random"], 3, 0)).set_index("bot").loc["greedy"]
    assert row["win_lo"] < row["win_rate"] <= row["win_hi"]


def test_a_library_study_writes_its_option_sets_as_the_command_does(tmp_path, run_cli):
    """run_study(DIR, StudySpec(sets=('Holes-1',), ...)) recorded and reported a set named
    'Holes-1' (' putt ' kept its spaces), so 'grid study --out DIR --resume --sets holes-1' was
    refused as another study ("differs in sets Holes-1 (here holes-1)"); a set that was None
    failed as "'NoneType' object has no attribute 'strip'" """
    from golfsolve.stats.gridstudy import StudySpec, option_rules, run_study

    spec = StudySpec(sets=("Holes-1",), strong="Greedy", matches=1, chunk_size=1)
    assert spec.sets == ("holes-1",) and StudySpec(sets=(" PUTT ",), strong="greedy").sets == ("putt",)
    run_study(tmp_path / "study", spec, progress=False)
    r = run_cli(["grid", "study", "--out", str(tmp_path / "study"), "--resume", "--sets", "holes-1", "--strong",
                 "greedy", "--matches", "1", "--json"])
    assert r.exit_code == 0, r.stderr
    assert '"sets": [\n    "holes-1"\n  ]' in r.stdout
    for call in (lambda: StudySpec(sets=(None,)), lambda: option_rules(None)):
        with pytest.raises(TypeError, match="^an option set must be named by text"):
            call()


# ---------------------------------------------------------------------------
# the referee
# ---------------------------------------------------------------------------
_AS_RANDOM = object()


def _seat_odd_bot(openers=_AS_RANDOM, place=_AS_RANDOM):
    """A hole whose first seat answers ``openers`` and ``place`` (by default, as the random bot does)."""
    from golfsolve.grid.bots import RandomBot, make_bot
    from golfsolve.grid.engine import Hole

    class Odd(RandomBot):
        def choose_openers(self, view, count):
            return super().choose_openers(view, count) if openers is _AS_RANDOM else openers

        def choose_place(self, view):
            return super().choose_place(view) if place is _AS_RANDOM else place

    return Hole(_rules(), [Odd(np.random.default_rng(0), "odd"), make_bot("random", np.random.default_rng(1))],
                np.random.default_rng(0))


@pytest.mark.parametrize("answer", [[0.5, 1.7], [True, 2], "ab", 3, None])
def test_the_referee_refuses_openers_that_are_no_slots(answer):
    """a bot of one's own answering choose_openers with [0.5, 1.7] had slots 0 and 1 turned (and
    [True, 2] slots 1 and 2): the referee read what is no slot as one instead of refusing it; 'ab'
    failed as "'<=' not supported between instances of 'int' and 'str'" """
    from golfsolve.grid.engine import RuleViolation

    with pytest.raises(RuleViolation, match=r"^odd \(seat 0\): openers must be up to 2 distinct slots, whole numbers 0 to 3; "
                                            r"got " + re.escape(repr(answer))):
        _seat_odd_bot(openers=answer).play()


@pytest.mark.parametrize("answer", [("swap", 1.0), ("swap", True), "swap", None])
def test_the_referee_names_a_placement_that_is_none(answer):
    """choose_place answering ('swap', 1.0) was refused as "slot 1.0 is outside 0..3 on a 4-card
    grid" (ValueError), false of slot 1; 'swap' was read a placement per character, ('s', 'w', 'a',
    'p'), and None failed as "'NoneType' object is not iterable" """
    from golfsolve.grid.engine import RuleViolation

    with pytest.raises(RuleViolation, match=r"^odd \(seat 0\): cannot place " + re.escape(repr(answer)) +
                       r" \(drew .* a placement is \(kind, slot\), e\.g\. \('swap', 2\)\)"):
        _seat_odd_bot(place=answer).play()


def test_the_referee_still_takes_numpy_slots_and_fewer_openers():
    for openers, turned in [((np.int64(0), np.int64(1)), [0, 1]), ((3,), [3]), ([], [])]:
        hole = _seat_odd_bot(openers=openers)
        hole.play()
        assert next(e for e in hole.events if e["type"] == "open" and e["player"] == 0)["slots"] == turned
    hole = _seat_odd_bot(place=("swap", np.int64(0)))
    hole.play()
    assert any(e["type"] == "swap" and e["player"] == 0 and e["slot"] == 0 for e in hole.events)


@pytest.mark.parametrize("kind", ["simulate", "study", "census"])
def test_a_library_run_takes_a_numpy_worker_count_and_records_it(kind, tmp_path):
    """run_grid_simulate(DIR, spec, jobs=np.int64(1)) (a count computed with NumPy) played every
    match, then failed as "Object of type int64 is not JSON serializable" writing the manifest:
    the run was left marked unfinished with no record of the work (run_study and run_census the
    same), though check_jobs had taken the count"""
    import json

    from golfsolve.stats.census import CensusSpec, run_census
    from golfsolve.stats.gridruns import GridSpec, run_grid_simulate
    from golfsolve.stats.gridstudy import StudySpec, run_study

    out = tmp_path / "run"
    if kind == "simulate":
        run_grid_simulate(out, GridSpec(_rules(), ("random", "greedy"), 2, chunk_size=1), jobs=np.int64(1),
                          progress=False)
    elif kind == "study":
        run_study(out, StudySpec(sets=("holes-1",), strong="greedy", matches=1, chunk_size=1), jobs=np.int64(1),
                  progress=False)
    else:
        run_census(out, CensusSpec(0, 1, ("easy",), chunk_size=1), jobs=np.uint8(1), progress=False)
    m = json.loads((out / "_manifest.json").read_text())
    assert m["complete"] is True and len(m["invocations"]) == 1 and m["invocations"][0]["status"] == "complete"


@pytest.mark.parametrize("cards, error, words", [
    ([1, 2, 3, 4, 5], InputError, "a grid of 4 slots under these rules, not 5"),
    ([1, 2, 3], InputError, "a grid of 4 slots under these rules, not 3"),
    ([1, 2, 3, 99], InputError, "slot 4 of the grid: 99 is not a card id (0 to 53) or None"),
    ([52, None, 2, 3], InputError, "slot 1 of the grid holds a joker, but rules 'default' deal none"),
    ("abcd", TypeError, "cards must be a list of card ids (None face down)"),
])
def test_what_a_grid_shows_is_asked_of_a_grid_of_the_rules(cards, error, words):
    """face_up_points([1, 2, 3, 4, 5], rules of a 4-card grid) answered 10, the points of the first
    four cards, and grid_rows drew those four; card 99 (no card) was scored as 3 points and a
    joker scored under rules without jokers; three cards failed as "list index out of range"
    (grid_score names each of these)"""
    from golfsolve.grid.scoring import face_up_points
    from golfsolve.grid.view import grid_rows

    for call in (face_up_points, grid_rows):
        with pytest.raises(error, match="^" + re.escape(words)):
            call(cards, _rules())
    assert face_up_points([np.int64(1), None, 2, 3], _rules()) == 5 and len(grid_rows([1, None, 2, 3], _rules())) == 2
