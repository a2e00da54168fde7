"""Bad input on every command: the CPU time of its one-line error, this tree against a reference.

    python benchmarks/bench_errors.py                          # this tree and main, interleaved
    python benchmarks/bench_errors.py --reference 055144e --runs 5
    python benchmarks/bench_errors.py --no-reference --only grid

Each case is a ``golfsolve`` command line that must be refused (exit code 2, one line on
stderr) before any computing; its CPU time should be about that of ``stats --rules nosuch``
(Python, click and the command table). The trees are unpacked and run as
``benchmarks/bench_startup.py`` runs them (``python -m golfsolve`` with the tree first on
``PYTHONPATH``, from an empty folder); the first untimed round checks every case's answer
(and fills each tree's kernel cache, should a tree compile before it answers), then every
round runs every case on both trees, who goes first alternating. CPU time is user + system
of the child (``getrusage``); the table gives medians and the ratio reference / this tree.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_startup import TREE, run_once, unpack

#: (what is wrong, the command line); run from an empty folder holding one file, ``afile``
CASES: list[tuple[str, list[str]]] = [
    ("bad code", ["deal", "GO1-E-XXX"]),
    ("unknown rules", ["deal", "GO1-E-AAAAAAB", "--rules", "nosuch"]),
    ("option conflict", ["deal", "GO1-E-AAAAAAB", "--json", "--text"]),
    ("bad move", ["replay", "GO1-E-AAAAAAB", "d", "x"]),
    ("move left out", ["replay", "GO1-E-AAAAAAB", "d,,4"]),
    ("layout from stdin", ["play", "--layout", "-"]),
    ("bad code", ["solve", "GO1-E-XXX"]),
    ("unknown rules", ["solve", "GO1-E-AAAAAAB", "--rules", "nosuch"]),
    ("nothing to solve", ["solve"]),
    ("unknown player", ["hint", "GO1-E-AAAAAAB", "--fair", "--player", "nosuch"]),
    ("option conflict", ["hint", "GO1-E-AAAAAAB", "--seed", "3"]),
    ("move left out", ["hint", "GO1-E-AAAAAAB", "--fair", "--moves", "d;4;"]),
    ("unknown rules", ["stats", "--count", "10", "--rules", "nosuch", "--out", "new-run"]),
    ("bad count", ["stats", "--count", "0", "--out", "new-run"]),
    ("option conflict", ["stats", "--count", "10", "--stride", "2", "--spread", "--out", "new-run"]),
    ("out is a file", ["stats", "--count", "10", "--out", "afile"]),
    ("bad chunk size", ["stats", "--count", "10", "--chunk-size", "0", "--out", "new-run"]),
    ("missing folder", ["report", "/nonexistent"]),
    ("folder is a file", ["report", "afile"]),
    ("folder holds no run", ["report", "."]),
    ("bad code", ["odds", "GO1-E-XXX"]),
    ("unknown player", ["odds", "GO1-E-AAAAAAB", "--player", "nosuch"]),
    ("bad count", ["fair-stats", "--count", "0", "--out", "new-run"]),
    ("unknown rules", ["fair-stats", "--count", "5", "--rules", "nosuch", "--out", "new-run"]),
    ("bad code", ["rate", "GO1-Q-AAAAAAA"]),
    ("unknown rules", ["rate", "GO1-E-AAAAAAB", "--rules", "nosuch"]),
    ("bad count", ["pick", "--difficulty", "easy", "--count", "-1"]),
    ("unknown label", ["pick", "--difficulty", "nosuch"]),
    ("unknown rules", ["pick", "--difficulty", "easy", "--rules", "nosuch"]),
    ("bad port", ["serve", "--port", "99999"]),
    ("bad workers", ["serve", "--jobs", "0"]),
    ("bad budget", ["serve", "--cpu-budget", "0"]),
    ("unknown bot", ["grid", "simulate", "--bots", "nosuch,heuristic", "--matches", "1"]),
    ("unknown rules", ["grid", "simulate", "--rules", "nosuch", "--matches", "1"]),
    ("bad count", ["grid", "simulate", "--matches", "0"]),
    ("bad players", ["grid", "simulate", "--players", "9", "--matches", "1"]),
    ("bad grid", ["grid", "simulate", "--grid", "5", "--matches", "1"]),
    ("option conflict", ["grid", "simulate", "--resume", "--matches", "1"]),
    ("out is a file", ["grid", "simulate", "--matches", "1", "--out", "afile"]),
    ("out under a file", ["grid", "simulate", "--matches", "1", "--out", "afile/run"]),
    ("bad chunk size", ["grid", "simulate", "--matches", "1", "--chunk-size", "0", "--out", "new-run"]),
    ("option conflict", ["grid", "simulate", "--bots", "random,greedy", "--mc-samples", "3"]),
    ("unknown set", ["grid", "study", "--out", "new-run", "--sets", "nosuch"]),
    ("unknown bot", ["grid", "study", "--out", "new-run", "--strong", "nosuch"]),
    ("bad count", ["grid", "study", "--out", "new-run", "--matches", "0"]),
    ("missing folder", ["grid", "report", "/nonexistent"]),
    ("folder is a file", ["grid", "report", "afile"]),
    ("folder holds no run", ["grid", "report", "."]),
    ("bad players", ["grid", "play", "--players", "9"]),
    ("unknown bot", ["grid", "play", "--bots", "nosuch"]),
    ("unknown rules", ["grid", "play", "--rules", "nosuch"]),
]


def check(tree: Path, args: list[str], cwd: Path) -> str:
    """The one line ``golfsolve ARGS`` answers from ``tree``; exits if it is not a one-line error with code 2."""
    proc = subprocess.run([sys.executable, "-m", "golfsolve", *args], cwd=cwd, env=dict(os.environ, PYTHONPATH=str(tree)),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=900)
    lines = proc.stderr.splitlines()
    if proc.returncode != 2 or len(lines) != 1:
        raise SystemExit(f"{tree}: golfsolve {' '.join(args)} exited {proc.returncode}, stderr: {proc.stderr[-800:]}")
    return lines[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reference", default="main", help="commit to compare against (default: main)")
    ap.add_argument("--no-reference", action="store_true", help="time this tree only")
    ap.add_argument("--runs", type=int, default=3, help="timed runs per case and tree (default 3)")
    ap.add_argument("--only", default=None, metavar="WORD", help="only the cases whose command starts with WORD")
    opts = ap.parse_args()
    cases = [(what, args) for what, args in CASES if opts.only is None or args[0] == opts.only]

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="golfsolve-errors-") as tmp:
        cwd = Path(tmp) / "cwd"
        cwd.mkdir()
        (cwd / "afile").write_text("not a folder\n")
        trees = {"this tree": TREE}
        if not opts.no_reference:
            trees[f"reference {opts.reference}"] = unpack(opts.reference, Path(tmp) / "reference")
        for name, tree in trees.items():  # each answer checked, untimed
            for _, args in cases:
                line = check(tree, args, cwd)
                if name == "this tree":
                    print(f"  golfsolve {' '.join(args)}\n      {line}")
        times: dict[tuple[str, int], list[float]] = {(name, i): [] for name in trees for i in range(len(cases))}
        for r in range(opts.runs):
            order = list(trees.items()) if r % 2 == 0 else list(trees.items())[::-1]
            for i, (_, args) in enumerate(cases):
                for name, tree in order:
                    times[(name, i)].append(run_once(tree, args, cwd, expect=2)[1])
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    names = list(trees)
    print(f"\nmedian CPU s of {opts.runs} runs" + (", interleaved; ratio = reference / this tree" if len(names) > 1 else "")
          + "\n")
    print("| command | what is wrong | " + " | ".join(f"{n}: CPU s" for n in names) + (" | ratio |" if len(names) > 1 else " |"))
    print("|---|---|" + "---:|" * (len(names) + (len(names) > 1)))
    for i, (what, args) in enumerate(cases):
        med = [statistics.median(times[(n, i)]) for n in names]
        row = f"| `golfsolve {' '.join(args)}` | {what} | " + " | ".join(f"{m:.3f}" for m in med)
        print(row + (f" | {med[1] / med[0]:.1f}x |" if len(med) > 1 else " |"))


if __name__ == "__main__":
    main()
