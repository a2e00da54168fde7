"""Start-up of short commands: this tree against the code before, interleaved run by run.

    python benchmarks/bench_startup.py                       # against commit 52838a4 (before lazy commands)
    python benchmarks/bench_startup.py --reference main --runs 20
    python benchmarks/bench_startup.py --breakdown               # where a warm solve's time goes

Each tree is unpacked (``git archive``) or used in place and run as ``python -m golfsolve``
with that tree first on ``PYTHONPATH``, from an empty folder, so both sides start the same
way. Every command runs once per tree untimed first (the reference compiles its numba kernels
then, into its own cache; this tree builds its ahead-of-time kernels if the cache lacks them), then the timed runs go round: run i does every command on both
trees, the tree that goes first alternating. Each run's wall time and CPU time (user +
system of the child, from ``getrusage``) are recorded; the table gives medians and the
ratio reference / this tree (above 1: this tree is faster). The machine's load is printed:
quote figures from an idle machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREE = HERE.parent

COMMANDS = [
    ["--help"],
    ["solve", "--help"],
    ["solve", "GO1-E-AAAAAAB"],
    ["deal", "GO1-E-AAAAAAB"],
]


def unpack(commit: str, into: Path) -> Path:
    """The source of ``commit`` in ``into`` (golfsolve/ only: that is what runs)."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(TREE), "archive", commit, "golfsolve"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def run_once(tree: Path, args: list[str], cwd: Path, expect: int = 0) -> tuple[float, float]:
    """Wall and CPU seconds of one ``python -m golfsolve ARGS`` from ``tree``, which must exit ``expect``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "golfsolve", *args], cwd=cwd, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != expect:
        raise SystemExit(f"{tree}: golfsolve {' '.join(args)} exited {proc.returncode}: {proc.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


#: stages of a warm ``golfsolve solve CODE``, each a whole process, cumulative; then, apart,
#: what numba's JIT path costs instead of the ahead-of-time kernels (GOLFSOLVE_NATIVE=0)
# as the installed command runs it (no argv: the command's own start-up, BLAS-check skip included)
_COMMAND = "import sys; sys.argv = ['golfsolve', 'solve', 'GO1-E-AAAAAAB']; from golfsolve.cli.main import main; main()"
_SOLVER = "import golfsolve.cli.main, golfsolve.cli.solve, golfsolve.solitaire.answers, golfsolve.solitaire.deals"
STAGES = [
    ("the interpreter alone", "pass", {}),
    ("+ click and golfsolve's command table", "import golfsolve.cli.main", {}),
    ("+ numpy", "import golfsolve.cli.main, numpy", {}),
    ("+ golfsolve's solver modules (no numba)", _SOLVER, {}),
    ("+ the ahead-of-time kernels checked (sources digest) and loaded",
     _SOLVER + "; from golfsolve.solitaire import native; assert native.load() is not None", {}),
    ("the whole `golfsolve solve GO1-E-AAAAAAB`", _COMMAND, {}),
    ("apart: `import numba` after the interpreter", "import numba", {}),
    ("apart: the whole command on numba's JIT (`GOLFSOLVE_NATIVE=0`, cached kernels)", _COMMAND,
     {"GOLFSOLVE_NATIVE": "0"}),
]


def breakdown(runs: int) -> None:
    """CPU time of each stage of a warm solve, stage by stage in turn, median of ``runs``."""
    times: dict[str, list[float]] = {name: [] for name, _, _ in STAGES}
    env = dict(os.environ, PYTHONPATH=str(TREE))
    for _, code, extra in STAGES:  # warm
        _cpu_of([sys.executable, "-c", code], {**env, **extra})
    for _ in range(runs):
        for name, code, extra in STAGES:
            times[name].append(_cpu_of([sys.executable, "-c", code], {**env, **extra}))
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; median CPU s of {runs} runs\n")
    print("| stage | CPU s |")
    print("|---|---:|")
    for name, _, _ in STAGES:
        print(f"| {name} | {statistics.median(times[name]):.3f} |")


def _cpu_of(cmd: list[str], env: dict) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0,):
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reference", default="52838a4", help="commit to compare against (default: 52838a4)")
    ap.add_argument("--runs", type=int, default=10, help="timed runs per command and tree (default 10)")
    ap.add_argument("--breakdown", action="store_true", help="where a warm solve's CPU time goes, stage by stage")
    opts = ap.parse_args()
    if opts.breakdown:
        breakdown(opts.runs)
        return

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="golfsolve-startup-") as tmp:
        ref = unpack(opts.reference, Path(tmp) / "reference")
        cwd = Path(tmp) / "cwd"
        cwd.mkdir()
        trees = {"this tree": TREE, f"reference {opts.reference}": ref}
        for tree in trees.values():  # warm: compile or load each tree's kernels once, untimed
            for args in COMMANDS:
                run_once(tree, args, cwd)
        times = {(name, i): [] for name in trees for i in range(len(COMMANDS))}
        for r in range(opts.runs):
            order = list(trees.items()) if r % 2 == 0 else list(trees.items())[::-1]
            for i, args in enumerate(COMMANDS):
                for name, tree in order:
                    times[(name, i)].append(run_once(tree, args, cwd))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    this, ref_name = list(trees)
    print(f"\nmedian of {opts.runs} runs, interleaved; ratio = reference / this tree\n")
    print(f"| command | this tree: wall s | CPU s | {ref_name}: wall s | CPU s | wall ratio | CPU ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for i, args in enumerate(COMMANDS):
        w1 = statistics.median(w for w, _ in times[(this, i)])
        c1 = statistics.median(c for _, c in times[(this, i)])
        w0 = statistics.median(w for w, _ in times[(ref_name, i)])
        c0 = statistics.median(c for _, c in times[(ref_name, i)])
        print(f"| `golfsolve {' '.join(args)}` | {w1:.3f} | {c1:.3f} | {w0:.3f} | {c0:.3f} | {w0 / w1:.2f}x | {c0 / c1:.2f}x |")


if __name__ == "__main__":
    main()
