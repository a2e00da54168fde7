"""``golfsolve grid study`` and ``grid report`` on a study: small studies (seconds), a
killed study resumed to the same table, the report's numbers against values computed by
hand from the table, and the refusals (one line, exit 2, nothing computed)."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

import pandas as pd
import pytest

from golfsolve.errors import InputError
from golfsolve.intervals import wilson
from golfsolve.stats.gridstudy import (DEFAULT_SETS, STUDY, StudySpec, lineups, load_study, option_rules,
                                       run_study)
from golfsolve.stats.runfolder import chunk_files, read_manifest
from golfsolve.stats.studyreport import first_player, main_table, strong_wins
from golfsolve.grid.rules import parse_rules
from golfsolve.grid.tournament import bot_summary, simulate

STRONG = "ismcts:8"
SMALL = ["--sets", "base,players-2,knock10", "--strong", STRONG, "--matches", "4", "--seed", "5"]


def _table(out: Path) -> pd.DataFrame:
    return pd.read_parquet(out).sort_values(["item", "hole", "seat"], kind="stable").reset_index(drop=True)


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    """A small study, run uninterrupted in-process with one worker."""
    from golfsolve.cli.main import main

    out = tmp_path_factory.mktemp("study") / "run"
    with pytest.raises(SystemExit) as e:
        main(["grid", "study", *SMALL, "--chunk-size", "1", "--out", str(out), "--quiet"])
    assert e.value.code == 0
    return out


def test_default_design_is_one_option_at_a_time_from_the_base_table():
    base = option_rules("base")
    assert (base.players, base.grid, base.openers, base.holes) == (4, 6, 2, 9)
    changed = {}
    for s in DEFAULT_SETS[1:]:
        r = option_rules(s)
        changed[s] = {k for k, v in asdict(r).items() if v != asdict(base)[k]}  # to_dict leaves a false openers_exact out
    assert changed["grid-9"] == {"grid"} and changed["players-2"] == {"players"} and changed["openers-0"] == {"openers"}
    assert changed["putt"] == {"final_putt"} and changed["grid-9+pairs"] == {"grid", "pairwise"}
    assert changed["jokers"] == {"jokers"}
    assert changed["knock10"] == {"knock"} and changed["knock-double"] == {"knock"}
    assert len(changed["danish"]) > 3 and "openers_exact" in changed["danish"]  # the whole preset
    for s in DEFAULT_SETS:
        r = option_rules(s)
        for bots in lineups(r, "ismcts:1000"):
            assert len(bots) == r.players
    assert lineups(option_rules("players-2"), "x") == [("x", "heuristic"), ("heuristic", "random")]
    assert lineups(option_rules("players-5"), "x") == [("x",) + ("heuristic",) * 4, ("heuristic",) * 4 + ("random",)]


@pytest.mark.parametrize("name, words", [("pairs", "'pairs' changes nothing on the 6-card grid (2x3)"),
                                         ("grid-4+pairs", "'pairs' changes nothing on the 4-card grid (2x2)"),
                                         ("grid-8+no-nine-rows", "'no-nine-rows' changes nothing on the 8-card grid")])
def test_an_option_set_whose_switch_changes_nothing_is_refused(name, words):
    with pytest.raises(InputError, match=re.escape(f"option set {name!r}: grid rule {words}")):
        option_rules(name)


def test_study_folder_holds_every_table_and_the_bot_settings(small):
    df = _table(small)
    spec = STUDY.read(small)
    assert [c.set for c in spec.cells()] == ["base", "base", "players-2", "players-2", "knock10", "knock10"]
    assert sorted(df["item"].unique()) == list(range(6 * 4))
    for k, c in enumerate(spec.cells()):
        d = df[df["cell"] == k]
        assert set(d["set"]) == {c.set} and sorted(d["match"].unique()) == [0, 1, 2, 3]
        assert set(d["bot"]) == set(c.bots)
        assert len(d) == 4 * c.rules.holes * c.rules.players
    m = read_manifest(small)
    assert m["bot_settings"][STRONG] == {"kind": "ismcts", "class": "ISMCTSBot", "c_ucb": 10.0, "horizon": 0,
                                         "iterations": 8, "hp": [50, -100, 400, 1, 400], "place_c": 0.3}
    assert m["bot_settings"]["random"] == {"kind": "random", "class": "RandomBot", "knock_chance": 0.05}
    assert m["params"]["strong"] == STRONG and m["complete"] is True
    # the recorded command alone replays the study
    assert "--strong ismcts:8" in m["command"] and "--matches 4" in m["command"]


def test_report_numbers_equal_hand_computed_values(small, run_cli):
    r = run_cli(["grid", "report", str(small), "--json"])
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    df = _table(small)
    by_set = {d["set"]: d for d in data["results"]}

    def mean(xs):
        return sum(xs) / len(xs)

    def half(xs):  # the Student t 95% half-width over independent values
        from golfsolve.intervals import t_quantile

        m = mean(xs)
        return t_quantile(len(xs) - 1) * math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))

    base = df[df["cell"] == 0]  # the strongest bot's table
    rows = base.to_dict("records")
    # strokes a hole of the heuristic: one mean per match over its rows, then the mean of those
    per = {}
    for x in rows:
        if x["bot"] == "heuristic":
            per.setdefault(x["match"], []).append(x["strokes"])
    means = [mean(v) for _, v in sorted(per.items())]
    got = by_set["base"]["strokes"]["heuristic"]
    assert got["mean"] == pytest.approx(mean(means)) and got["hi"] - got["mean"] == pytest.approx(half(means))
    # turns a hole, each player
    holes = {(x["match"], x["hole"]): x["turns"] / 4 for x in rows}
    per_match = [mean([v for (m, _), v in holes.items() if m == mm]) for mm in range(4)]
    assert by_set["base"]["turns"]["mean"] == pytest.approx(mean(per_match))
    # skill: heuristic minus the strongest, paired per match
    diffs = []
    for mm in range(4):
        h = [x["strokes"] for x in rows if x["match"] == mm and x["bot"] == "heuristic"]
        s = [x["strokes"] for x in rows if x["match"] == mm and x["bot"] == STRONG]
        diffs.append(mean(h) - mean(s))
    gap = by_set["base"]["gap_strong"]
    assert gap["mean"] == pytest.approx(mean(diffs)) and gap["hi"] - gap["mean"] == pytest.approx(half(diffs))
    # the strongest bot's match wins: Wilson over its matches
    won = sum(1 for mm in range(4) if any(x["winner"] for x in rows if x["match"] == mm and x["bot"] == STRONG))
    p, lo, hi = wilson(won, 4)
    w = by_set["base"]["strong_wins"]
    assert (w["won"], w["matches"]) == (won, 4) and (w["mean"], w["lo"], w["hi"]) == pytest.approx((p, lo, hi))
    # the first player: its strokes minus the others' mean at each hole, one mean per match
    adv = {}
    for (mm, hh) in holes:
        at = [x for x in rows if x["match"] == mm and x["hole"] == hh]
        f = [x["strokes"] for x in at if x["seat"] == x["first"]][0]
        adv.setdefault(mm, []).append(f - (sum(x["strokes"] for x in at) - f) / 3)
    assert by_set["base"]["first_player"]["mean"] == pytest.approx(mean([mean(v) for v in adv.values()]))
    # the neighbour: the heuristic after the strongest minus after a heuristic, one mean per (match, entry)
    after = {}
    for x in rows:
        if x["bot"] == "heuristic":
            after.setdefault(x["before_bot"], {}).setdefault((x["match"], x["entry"]), []).append(x["strokes"])
    want = mean([mean(v) for v in after[STRONG].values()]) - mean([mean(v) for v in after["heuristic"].values()])
    assert by_set["base"]["neighbour"]["mean"] == pytest.approx(want)
    # stalled holes at the strongest bot's two-player table: Wilson over holes
    two = df[df["cell"] == 2].drop_duplicates(["match", "hole"])
    k = int((two["reason"] == "stalled").sum())
    st = by_set["players-2"]["stalled"]
    assert (st["holes"], st["mean"]) == (k, pytest.approx(k / len(two)))
    assert by_set["players-2"]["holes"] == 4 * 9 and by_set["players-2"]["neighbour"] is None
    # random minus heuristic comes from the random bot's table only
    t2 = df[df["cell"] == 3]
    d2 = [mean(list(t2[(t2["match"] == mm) & (t2["bot"] == "random")]["strokes"]))
          - mean(list(t2[(t2["match"] == mm) & (t2["bot"] == "heuristic")]["strokes"])) for mm in range(4)]
    assert by_set["players-2"]["gap_random"]["mean"] == pytest.approx(mean(d2))
    # the report (--json alone writes none): the Markdown table shows those numbers, and the HTML
    # and the plot are beside it
    r = run_cli(["grid", "report", str(small)])
    md = (small / "_report" / "report.md").read_text()
    head, table = main_table(data)
    assert "| " + " | ".join(table[0]) + " |" in md
    assert f"{gap['mean']:+.2f} [{gap['lo']:+.2f}, {gap['hi']:+.2f}]" in table[0]
    assert f"{100 * w['mean']:.1f}% [{100 * w['lo']:.1f}, {100 * w['hi']:.1f}]" in table[0]
    html = (small / "_report" / "report.html").read_text()
    assert "<table>" in html and "data:image/png;base64," in html and "players-2" in html
    assert (small / "_report" / "study.png").stat().st_size > 1000
    # in the terminal: the table and where the report went
    assert r.exit_code == 0 and "| " + " | ".join(table[0]) + " |" in r.stdout
    assert f"report: {small / '_report' / 'report.md'} and {small / '_report' / 'report.html'}" in r.stdout


def test_first_player_edge_by_hand():
    """A made-up two-hole table: the first player's strokes minus the others' mean."""
    from golfsolve.grid.tournament import HOLE_COLUMNS, Tournament

    rules = option_rules("players-3")
    rows = []
    # match 0, hole 0: seat 0 first, strokes 2, 5, 8 -> 2 - 6.5 = -4.5
    # match 0, hole 1: seat 1 first, strokes 4, 10, 1 -> 10 - 2.5 = +7.5  => match 0: +1.5
    # match 1, hole 0: seat 0 first, strokes 3, 3, 3 -> 0                 => match 1: 0
    for m, h, first, strokes in [(0, 0, 0, (2, 5, 8)), (0, 1, 1, (4, 10, 1)), (1, 0, 0, (3, 3, 3))]:
        for s, x in enumerate(strokes):
            rows.append({**{c: 0 for c in HOLE_COLUMNS}, "match": m, "hole": h, "seat": s, "entry": s,
                         "bot": "b", "strokes": x, "first": first, "reason": "closed"})
    t = Tournament(rules=rules, bots=["b"] * 3, seed=0, holes=pd.DataFrame(rows)[HOLE_COLUMNS],
                   matches=pd.DataFrame())
    d = first_player([t])
    assert d["mean"] == pytest.approx(0.75)
    # two matches: Student's t at one degree of freedom
    assert d["hi"] - d["mean"] == pytest.approx(12.706204736174694 * math.sqrt(((1.5 - 0.75) ** 2 * 2) / 1 / 2))


def _start(out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "golfsolve", "grid", "study", *SMALL, "--chunk-size", "1",
                             "--workers", "2", "--out", str(out), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


@pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals and process groups")
def test_killed_study_resumes_to_the_same_table(small, tmp_path, run_cli):
    out = tmp_path / "run"
    proc = _start(out)
    try:
        end = time.monotonic() + 120
        while not chunk_files(out):
            assert proc.poll() is None, proc.stderr.read()
            assert time.monotonic() < end, "no chunk file appeared"
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    done = len(chunk_files(out))
    if done == 24:
        pytest.skip("the study finished before the kill landed")
    assert proc.returncode == -signal.SIGKILL
    r = run_cli(["grid", "study", "--out", str(out), "--resume", "--quiet"])  # every setting from the manifest
    assert r.exit_code == 0, r.stderr
    pd.testing.assert_frame_equal(_table(out), _table(small))
    assert read_manifest(out)["invocations"][-1]["chunks_before"] == done
    a = run_cli(["grid", "report", str(out), "--json"])
    b = run_cli(["grid", "report", str(small), "--json"])
    assert main_table(json.loads(a.stdout)) == main_table(json.loads(b.stdout))


def test_an_incomplete_studys_report_says_how_many_holes_each_table_played(small, tmp_path, run_cli):
    """Was: "the numbers cover the chunks finished so far" alone, under a header of the matches
    planned per table, so a table that had played nothing showed "—" and no reason."""
    out = tmp_path / "run"
    shutil.copytree(small, out, ignore=shutil.ignore_patterns("_report"))
    table = _table(out)
    gone = table[(table["set"] == "players-2") & (table["bot"] == "random")]["cell"].iloc[0]
    for f in chunk_files(out):  # the random bot's table of players-2 has played nothing yet
        if (pd.read_parquet(out / f)["cell"] == gone).any():
            (out / f).unlink()
    left = _table(out)
    r = run_cli(["grid", "report", str(out), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.stderr
    md = (tmp_path / "rep" / "report.md").read_text()

    def holes(s: str, bot: str) -> int:
        at = left[(left["set"] == s) & left["cell"].isin(left.loc[left["bot"] == bot, "cell"])]
        return len(at.drop_duplicates(["cell", "match", "hole"]))

    played = ", ".join(f"{s} {holes(s, STRONG):,} and {holes(s, 'random'):,}" for s in ("base", "players-2", "knock10"))
    assert holes("players-2", "random") == 0 < holes("players-2", STRONG)
    assert f"Holes played at the strongest bot's table and at the random bot's: {played}." in md


def test_a_study_in_parts_equals_one_run(tmp_path):
    """Chunks that straddle two tables play the same matches as chunks that do not."""
    spec = StudySpec(("base", "grid-4"), STRONG, 3, 2, 2)
    run_study(tmp_path / "a", spec, progress=False)
    run_study(tmp_path / "b", StudySpec(("base", "grid-4"), STRONG, 3, 2, 5), progress=False)
    pd.testing.assert_frame_equal(_table(tmp_path / "a"), _table(tmp_path / "b"))
    st = load_study(tmp_path / "a")
    assert [len(t.matches["match"].unique()) for t in st.tournaments] == [3, 3, 3, 3]


@pytest.mark.parametrize("args, says", [
    (["--sets", "base,nosuch"], "unknown option set 'nosuch'"),
    (["--sets", "base,putt,base"], "listed twice"),
    (["--sets", "base,players-4"], "same table"),
    (["--sets", "grid-5"], "4, 6, 8 or 9 cards"),
    (["--sets", "players-7"], "2 to 6 players"),
    (["--sets", "base,,putt"], "empty option set"),
    (["--strong", "random"], "--strong must be a bot other than"),
    (["--strong", "nosuchbot"], "unknown bot"),
    (["--matches", "0"], "--matches must be"),
    (["--workers", "0"], "--jobs must be"),
    (["--chunk-size", "0"], "--chunk-size must be"),
    (["--seed", "-1"], "--seed must be"),
])
def test_bad_input_is_one_line_exit_2_before_any_play(tmp_path, run_cli, args, says):
    out = tmp_path / "run"
    given = {"--sets": "base", "--strong": STRONG, "--matches": "2", args[0]: args[1]}
    r = run_cli(["grid", "study", "--out", str(out), *[x for kv in given.items() for x in kv]])
    assert r.exit_code == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and "Traceback" not in r.stderr
    assert not out.exists() or not chunk_files(out)


def test_refuses_other_runs_and_other_studies(small, tmp_path, run_cli):
    # a different study in the folder of another: refused, the folder untouched
    before = sorted(p.name for p in small.iterdir())
    r = run_cli(["grid", "study", "--out", str(small), *SMALL[:-2], "--seed", "6", "--resume"])
    assert r.exit_code == 2 and "holds a different run" in r.stderr and "seed 5 (here 6)" in r.stderr
    r = run_cli(["grid", "study", "--out", str(small), *SMALL])
    assert r.exit_code == 2 and "--resume" in r.stderr
    assert sorted(p.name for p in small.iterdir()) == before
    # a grid simulate run is not a study, nor a study a grid simulate run
    sim = tmp_path / "sim"
    assert run_cli(["grid", "simulate", "--bots", "greedy,random", "--holes", "1", "--matches", "2", "--out", str(sim),
                    "--quiet"]).exit_code == 0
    r = run_cli(["grid", "study", "--out", str(sim), "--resume", "--sets", "base"])
    assert r.exit_code == 2 and "not a 'golfsolve grid study' run" in r.stderr
    r = run_cli(["grid", "simulate", "--out", str(small), "--resume"])
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1
    # a folder of other files
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("x")
    r = run_cli(["grid", "study", "--out", str(other), "--sets", "base", "--matches", "1"])
    assert r.exit_code == 2 and "not empty" in r.stderr
    # a manifest edited by hand: its tables no longer what its option sets make
    edited = tmp_path / "edited"
    edited.mkdir()
    m = json.loads((small / "_manifest.json").read_text())
    m["params"]["cells"][0]["bots"] = "heuristic,heuristic,random,heuristic"
    (edited / "_manifest.json").write_text(json.dumps(m))
    for args in (["grid", "report", str(edited)], ["grid", "study", "--out", str(edited), "--resume"]):
        r = run_cli(args)
        assert r.exit_code == 2 and "its tables are not the ones" in r.stderr, r.stderr
    # a report on a study with no chunk yet
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "_manifest.json").write_text((small / "_manifest.json").read_text())
    r = run_cli(["grid", "report", str(empty)])
    assert r.exit_code == 2 and "nothing to report" in r.stderr


def test_json_prints_the_studys_numbers_as_its_report_gives_them(small, tmp_path, run_cli):
    out = tmp_path / "run"
    shutil.copytree(small, out)
    r = run_cli(["grid", "study", "--out", str(out), "--resume", "--json"])  # nothing left to play
    assert r.exit_code == 0, r.stderr
    got = json.loads(r.stdout)  # the whole of stdout: no progress, no closing line
    want = json.loads(run_cli(["grid", "report", str(small), "--json"]).stdout)
    assert got.keys() == want.keys()
    assert main_table(got) == main_table(want)


def test_the_grid_4_option_set_changes_the_grid_alone():
    """The 4-card game's match is 18 holes, but the study's ``grid-4`` table is the base table
    with one change, the grid: it keeps the base's 9-hole matches, so its numbers differ from
    the base table's by the grid alone."""
    from golfsolve.stats.gridstudy import option_rules

    assert option_rules("grid-4").holes == option_rules("base").holes == 9
    assert option_rules("grid-4").grid == 4 and option_rules("holes-18").holes == 18


def test_a_new_study_records_the_cyclic_seating_and_reports_it(small, run_cli):
    """was: a study recorded 'balanced', and its six-player tables were seated at random."""
    assert read_manifest(small)["params"]["seating"] == "cyclic"
    assert STUDY.read(small).seating == "cyclic" and load_study(small).tournaments[0].seating == "cyclic"
    data = json.loads(run_cli(["grid", "report", str(small), "--json"]).stdout)
    assert data["seating"] == "cyclic"


def test_a_balanced_study_resumes_with_the_balanced_seating(tmp_path, run_cli, monkeypatch):
    """was (with 'cyclic' the scheme of new studies, had nothing kept 'balanced'): a killed
    six-player study made with 'balanced' would be refused, or its missing chunks seated by
    another scheme than the rest."""
    import golfsolve.stats.gridstudy as gridstudy
    from golfsolve.grid.tournament import seating

    out = tmp_path / "old"
    args = ["grid", "study", "--sets", "players-6", "--strong", STRONG, "--matches", "3", "--seed", "5",
            "--chunk-size", "1", "--out", str(out), "--quiet"]
    with monkeypatch.context() as mp:  # the study as the previous golfsolve made it
        mp.setattr(gridstudy, "SEATING", "balanced")
        assert run_cli(args).exit_code == 0
    assert read_manifest(out)["params"]["seating"] == "balanced"
    whole = _table(out)
    for f in sorted(chunk_files(out))[2:]:
        (out / f).unlink()  # killed after two chunks
    r = run_cli(["grid", "study", "--out", str(out), "--resume", "--quiet"])
    assert r.exit_code == 0, r.stderr
    pd.testing.assert_frame_equal(_table(out), whole)
    assert read_manifest(out)["params"]["seating"] == "balanced"
    for t in load_study(out).tournaments:
        assert t.seating == "balanced"
        for m, g in t.holes.groupby("match"):
            assert tuple(g.drop_duplicates("seat").sort_values("seat")["entry"]) == seating(6, m, 5, "balanced")
    data = json.loads(run_cli(["grid", "report", str(out), "--json"]).stdout)
    assert data["seating"] == "balanced"
    # a new study is never made with it
    with pytest.raises(InputError, match="new studies use the 'cyclic' seating"):
        run_study(tmp_path / "new", StudySpec(("players-6",), STRONG, 3, 5, 1, "balanced"), progress=False)
    with pytest.raises(InputError, match="seating scheme"):
        StudySpec(("players-6",), STRONG, 3, 5, 1, "rotation")


def test_a_study_whose_option_set_changed_says_which_and_how():
    """A study made when danish still let a player stop early is refused (its recorded table is
    not what 'danish' plays now), in a line naming the set and the field. was: "its tables are
    not the ones its option sets make in this version of golfsolve", naming neither."""
    spec = StudySpec(("base", "danish"), "greedy", 1, 0, 1)
    cells = [{"set": c.set, "bots": ",".join(c.bots), "table": c.rules.to_dict()} for c in spec.cells()]
    for c in cells:
        c["table"].pop("openers_exact", None)
    params = {"sets": "base,danish", "strong": "greedy", "matches": 1, "seed": 0, "cells": cells, "seating": "cyclic"}
    with pytest.raises(InputError, match="option set 'danish' has openers_exact true now, none in the study$"):
        STUDY.from_manifest({"start": 0, "count": spec.items(), "chunk_size": 1, "params": params})
    cells[2]["table"]["openers_exact"] = cells[3]["table"]["openers_exact"] = True
    assert STUDY.from_manifest({"start": 0, "count": spec.items(), "chunk_size": 1, "params": params}) == spec


def test_study_strong_wins_counts_a_shared_win_as_a_share():
    """was: the study's "strongest wins the match" counted a tied win as a whole win for
    every tied player, so at two players the two bots' rates summed to more than 100% and
    an equal bot seemed to win more than half its matches; ``grid simulate`` counts 1/k."""
    rules = parse_rules("default", players=2, grid=4, holes=1)
    t = simulate(rules, ["greedy", "heuristic"], 24, 4)
    ties = int((t.matches.groupby("match")["winner"].sum() > 1).sum())
    assert ties == 2  # the seed is chosen for its ties: the test means nothing without them
    a, b = strong_wins([t], "greedy"), strong_wins([t], "heuristic")
    assert a["mean"] + b["mean"] == 1.0
    assert a["won"] + b["won"] == 24
    s = bot_summary(t).set_index("bot")
    assert a["mean"] == s.loc["greedy", "win_rate"] and b["mean"] == s.loc["heuristic", "win_rate"]
    assert a["lo"] < a["mean"] < a["hi"]
