"""The published figures of docs/fair.md, rerun: each is what its own command or test computes."""

from __future__ import annotations

import importlib.util
import json
import re

import numpy as np
from test_docs_walkthrough import _prose

from golfsolve.fair.exact import clairvoyant_value, fair_value
from golfsolve.intervals import mean_ci
from golfsolve.solitaire.rules import EASY

from fair_helpers import ENDGAME, endgame, simulated_coverage
from hostile_helpers import ROOT


FAIR_MD = ROOT / "docs" / "fair.md"


NUM = r"([+−-]?\d+\.\d)"


def _fair_text() -> str:
    """fair.md's prose on one line: the figures cross line breaks."""
    return " ".join(_prose(FAIR_MD).split())


def _points(text: str) -> float:
    return float(text.replace("−", "-"))


def _paired(only_a: int, only_b: int, n: int) -> tuple[float, float, float]:
    """The paired difference and its interval in points, as fair_paired.py --summary prints
    them, from how many deals only a and only b won of n (every other deal a 0)."""
    diffs = np.array([1.0] * only_a + [-1.0] * only_b + [0.0] * (n - only_a - only_b))
    return tuple(100 * v for v in mean_ci(diffs))


def _close(quoted: tuple[float, ...], computed: tuple[float, ...]) -> bool:
    # the doc rounds to one decimal: within half a unit of it
    return all(abs(q - c) <= 0.05 + 1e-9 for q, c in zip(quoted, computed))


def test_the_presets_paired_differences_are_what_their_counts_give():
    """was: 'Easy +6.0 points [−1.0, +13.0], Classic +5.0 [−0.3, +10.3]', a normal quantile's
    intervals, where the command given beside them (fair_paired.py, Student's t on the per-deal
    differences) prints [−1.1, +13.1] and [−0.4, +10.4] for the same wins (32 / 20, 20 / 10 of
    200 deals), and no count said which. The carried orders' sentence (no command then; rerun:
    the same wins) and the twice-the-orders table's rows are held to the same."""
    text = _fair_text()
    m = re.search(rf"Strong minus fast, paired: Easy {NUM} points \[{NUM}, {NUM}\] \((\d+) deals won only by "
                  rf"`strong`, (\d+) only by `fast`\), Classic {NUM} \[{NUM}, {NUM}\] \((\d+) / (\d+)[;)]", text)
    assert m, "fair.md's 'Strong minus fast, paired' sentence with its counts"
    g = m.groups()
    assert _close(tuple(map(_points, g[0:3])), _paired(int(g[3]), int(g[4]), 200)), g
    assert _close(tuple(map(_points, g[5:8])), _paired(int(g[8]), int(g[9]), 200)), g
    m = re.search(rf"Easy \*\*{NUM} points\*\* \[{NUM}, {NUM}\] \(57.3% against 54.1%; (\d+) deals won only by it, "
                  rf"(\d+) only by the other\), Classic {NUM} \[{NUM}, {NUM}\] \(17.3% and 17.3%; (\d+) and (\d+)\)", text)
    assert m, "the carried orders' paired results with their counts"
    g = m.groups()
    assert _close(tuple(map(_points, g[0:3])), _paired(int(g[3]), int(g[4]), 1000)), g
    assert _close(tuple(map(_points, g[5:8])), _paired(int(g[8]), int(g[9]), 1000)), g
    m = re.search(rf"Classic deals 0..299: {NUM} \[{NUM}, {NUM}\], (\d+) deals won only by it and (\d+) only by `strong`", text)
    assert m, "today's strong with carried orders, with its counts"
    g = m.groups()
    assert _close(tuple(map(_points, g[0:3])), _paired(int(g[3]), int(g[4]), 300)), g
    m = re.search(rf"Classic deals 0..999 {NUM} points \[{NUM}, {NUM}\] \((\d+) deals won only by it, (\d+) only by the other;",
                  text)
    assert m, "the cards named by rank, Classic, with its counts"
    g = m.groups()
    assert _close(tuple(map(_points, g[0:3])), _paired(int(g[3]), int(g[4]), 1000)), g
    rows = re.findall(rf"\| (Easy|Classic) \| [^|]+ \| [^|]+ \| \**{NUM} \[{NUM}, {NUM}\]\** \((\d+) / (\d+)\) \|", text)
    # round 2's strong player on 1,000 deals, then the 2,000-deal table of 32 against 16 orders
    assert len(rows) == 4, rows
    for (rules, est, lo, hi, a, b), n in zip(rows, (1000, 1000, 2000, 2000)):
        assert _close((_points(est), _points(lo), _points(hi)), _paired(int(a), int(b), n)), rules
    # the card cost's table: one row per rule set, deal range and seed
    rows = re.findall(rf"\| (?:Easy|Classic) (\d+)\.\.(\d+), seed \d \| [^|]+ \| [^|]+ \| \**{NUM} \[{NUM}, {NUM}\]\** "
                      rf"\((\d+) / (\d+)\) \|", text)
    assert len(rows) == 8, rows
    for first, last, est, lo, hi, a, b in rows:
        n = int(last) - int(first) + 1
        assert _close((_points(est), _points(lo), _points(hi)), _paired(int(a), int(b), n)), (first, est, a, b)


def test_the_endgame_survey_is_a_command_and_finds_the_worked_example():
    """was: 'Over the winnable GO1 deals 0–281 ... Easy (190 endgames): 74.67% against 74.93%;
    Classic (94): no gap' with no command; rerun by the survey's own rule it is 258 and 137
    endgames, and Classic has 4 with a gap. benchmarks/fair_endgames.py is that rule, and its
    endgame of deal 111 is tests/fair_helpers.py's ENDGAME, the doc's worked example."""
    spec = importlib.util.spec_from_file_location("fair_endgames", ROOT / "benchmarks" / "fair_endgames.py")
    survey = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(survey)
    from golfsolve.solitaire.solver import Solver

    solver = Solver()
    view, played = survey.endgame(111, EASY, solver, 8, 6)
    example, example_played = endgame(ENDGAME)
    assert view.columns == example.columns and view.discard == example.discard
    assert sorted(played) == sorted(example_played)
    assert fair_value(view, EASY, played).value == fair_value(example.forget_stock(0), EASY, example_played).value
    assert clairvoyant_value(view, EASY, played, solver).value == clairvoyant_value(
        example.forget_stock(0), EASY, example_played, solver).value
    text = _fair_text()
    assert "python benchmarks/fair_endgames.py --rules R --start 0 --count 282" in text
    assert "Easy (258 endgames)" in text and "Classic (137)" in text


def test_the_coverage_figures_are_the_tests_seeded_run():
    """was: '92–98% per case' and '83% at 0.5 × 0.9', credited to tests/fair/test_fair_odds.py,
    whose seeded simulation gives 93.0–99.3% per case and 79%."""
    cover, naive = simulated_coverage()
    text = _fair_text()
    lo, hi, mean = min(cover.values()), max(cover.values()), sum(cover.values()) / len(cover)
    assert f"{100 * lo:.1f}–{100 * hi:.1f}% per case, {100 * mean:.1f}% over the 12 cases" in text
    assert f"({100 * naive:.0f}% at 0.5 × 0.9;" in text


def test_the_seed_figures_of_odds_are_its_command(run_cli):
    """was: 'seed000 Classic, 200 games each: 51.0% [44.1, 57.8] and 40.0% [33.5, 46.9]' with no
    command, seed or player; `odds --games 200` gives 40.0% [33.3, 46.7] (seed 0, 180 games:
    every winnable sampled order) and 53.0% [45.9, 59.6] (seed 1, 187)."""
    text = _fair_text()
    m = re.search(r"`golfsolve odds --layout (\S+) --rules classic --games 200 --seed S`, every winnable sampled "
                  rf"order played: seed 0 {NUM}% \[{NUM}, {NUM}\] on (\d+) games", text)
    assert m, "fair.md's seed example with its command"
    r = run_cli(["odds", "--layout", str(ROOT / m.group(1)), "--rules", "classic", "--games", "200", "--seed", "0",
                 "--json"])
    assert r.exit_code == 0, r.stderr
    fair = json.loads(r.stdout)["fair"]
    shown = (float(m.group(2)), float(m.group(3)), float(m.group(4)))
    assert shown == tuple(round(100 * v, 1) for v in (fair["chance"], *fair["ci95"]))
    assert fair["games"] == int(m.group(5))
