"""The benchmarks name their options as the commands do: a count of worker processes is
``--jobs N`` (``-j N``), with ``--workers N`` accepted as the same option, never the only name."""

from __future__ import annotations

import ast
from pathlib import Path
from hostile_helpers import ROOT

BENCHMARKS = ROOT / "benchmarks"


def _options(path: Path) -> list[list[str]]:
    """The option strings of every ``add_argument`` call in ``path``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "add_argument":
            out.append([a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)])
    return out


def test_a_worker_count_is_jobs_in_every_benchmark():
    scripts = sorted(BENCHMARKS.glob("*.py"))
    assert scripts
    found = []
    for path in scripts:
        for names in _options(path):
            if {"--jobs", "--workers", "-j"} & set(names):
                found.append(path.name)
                assert names[0] == "--jobs" and "-j" in names, (path.name, names)
    assert "fair_paired.py" in found


def test_the_fitting_benchmark_explains_itself_without_its_extra():
    """fit_grid_policy.py --help failed with ModuleNotFoundError: No module named 'cma' where
    the fitting extra was not installed; the extra is needed to fit, not to read the options"""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, str(BENCHMARKS / "fit_grid_policy.py"), "--help"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0 and "--generations" in out.stdout, out.stderr[-500:]


def test_the_paired_summary_of_games_alike_on_every_deal_draws_no_interval(tmp_path):
    """Two runs of one player (fair_round2.py --player round2 against round 2's) won the same
    deals: the summary printed '(+nan to +nan)' once mean_ci stopped drawing a zero-width
    interval from values all alike; it says there is none, and why"""
    import subprocess
    import sys

    csv = tmp_path / "alike.csv"
    rows = ["rules,deal,clairvoyant_won,a_won,b_won,a_cpu,b_cpu,a,b"]
    rows += [f"classic,{n},1,{n % 2},{n % 2},0.1,0.3,fast,strong" for n in range(6)]
    csv.write_text("\n".join(rows) + "\n")
    out = subprocess.run([sys.executable, str(BENCHMARKS / "fair_paired.py"), "--summary", str(csv)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-500:]
    assert "paired difference a - b +0.0 points (no interval: the same on every deal)" in out.stdout, out.stdout
    assert "nan" not in out.stdout


def test_the_paired_summary_over_seeds_averages_each_seeds_difference(tmp_path):
    """Several seeds' CSVs of one pair: the summary counts deals once (not a deal per game) and
    gives the mean of the per-seed differences, so a seed's luck is not read as a better player;
    a run asked to add another seed's games to a CSV is refused before any game."""
    import subprocess
    import sys

    def write(path, seed, a_wins):
        rows = ["rules,deal,clairvoyant_won,a_won,b_won,a_cpu,b_cpu,a,b,seed"]
        rows += [f"classic,{n},1,{int(n < a_wins)},{int(n < 2)},0.1,0.3,fast,strong,{seed}" for n in range(10)]
        path.write_text("\n".join(rows) + "\n")

    write(tmp_path / "s0.csv", 0, 3)  # a wins 3 of 10, b 2: +10 points
    write(tmp_path / "s1.csv", 1, 5)  # +30 points
    script = str(BENCHMARKS / "fair_paired.py")
    out = subprocess.run([sys.executable, script, "--summary", str(tmp_path / "s0.csv"), str(tmp_path / "s1.csv")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-500:]
    assert "classic: 10 deals (0..9) under each of seeds 0,1: 20 games" in out.stdout, out.stdout
    assert "per-seed differences +10.0, +30.0; mean +20.0 points" in out.stdout, out.stdout
    refused = subprocess.run([sys.executable, script, "--rules", "classic", "--count", "1", "--seed", "2",
                              "--out", str(tmp_path / "s1.csv")], capture_output=True, text=True, timeout=120)
    assert refused.returncode != 0 and "holds games seeded 1, not 2" in refused.stderr, refused.stderr[-500:]
