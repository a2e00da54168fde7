"""Solver throughput on PySol FC's Golf deals, side by side with black-hole-solve.

    python benchmarks/bench_solver.py --count 300                      # published figures only
    python benchmarks/bench_solver.py --count 1000 \\
        --reference-binary /path/to/build/black-hole-solve             # measured side by side

The boards are PySol's own (dealt by pysol-cards, as the reference's were), so verdicts
and state counts compare deal for deal. Every solver runs on the same board text in the
same run, interleaved deal by deal (the order alternates from deal to deal), and each is
charged single-core CPU time only:

- golfsolve, full answer (verdict plus the fewest cards left) and verdict only:
  ``time.process_time`` around the solve.
- black-hole-solve's library (``--reference-library``, found beside the binary when not
  given), called through ctypes in this process, one solver instance per rule set,
  recycled between boards as its own multi-board program does:
  ``time.process_time`` around read_board + setup + run + recycle.
- black-hole-solve as a process per deal (``--reference-binary``): the child's CPU time
  from ``resource.getrusage(RUSAGE_CHILDREN)`` before and after; start-up included.

The ratio the project's targets use is golfsolve over the library: that is the solver
itself. Without a binary or library the script divides by the figures published in
shared/reference/README.md and says so; those come from another run, another deal range
and another load, so treat such a ratio as a rough guide only.

Every verdict is checked against shared/reference (and the most cards removable where it
gives one) and against whatever reference solver ran; any disagreement exits 1.
Build black-hole-solve 1.14.0 as shared/reference/README.md describes.
"""

from __future__ import annotations

import argparse
import csv
import ctypes
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from golfsolve.intervals import wilson
from golfsolve.solitaire.layout import parse_layout_text, pysol_board
from golfsolve.solitaire.rules import PRESETS
from golfsolve.solitaire.solver import Solver, pack

HERE = Path(__file__).resolve().parent
REF_CSV = HERE.parent.parent / "shared" / "reference" / "pysol-golf-black-hole-solver.csv"
if not REF_CSV.exists():  # a checkout without shared/ beside it: the copy kept with the tests
    REF_CSV = HERE.parent / "tests" / "data" / REF_CSV.name
RULE_SETS = ("no-card-on-king", "queen-on-king", "wrap")
#: black-hole-solve's library, deals/s per core, PySol 1..1000 side by side under load
#: (shared/reference/README.md, "Measured side by side"): the fallback when it can't run here.
PUBLISHED_LIBRARY_DEALS_PER_S = {"no-card-on-king": 5.6, "queen-on-king": 4.8, "wrap": 13.5}
#: black-hole-solve's command-line switches per rule set (after --game golf)
BHS_FLAGS = {"no-card-on-king": [], "queen-on-king": ["--queens-on-kings"],
             "wrap": ["--queens-on-kings", "--wrap-ranks"]}
BHS_SOLVED, BHS_UNSOLVED = 0, 8  # BLACK_HOLE_SOLVER__SUCCESS, __NOT_SOLVABLE
GOLF_COLUMNS, GOLF_HEIGHT, GOLF_BITS_PER_COLUMN = 7, 5, 3


@dataclass
class Result:
    won: bool
    seconds: float  # CPU
    states: Optional[int] = None
    removed: Optional[int] = None  # most table cards removed, when known


class ReferenceBinary:
    """black-hole-solve run as one process per board; CPU time of the child."""

    label = "bhs process"

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __call__(self, board: str, rules: str) -> Result:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([self.path, "--game", "golf", *BHS_FLAGS[rules]], input=board,
                             capture_output=True, text=True).stdout
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if "Unsolved!" in out:
            won = False
        elif "Solved!" in out:
            won = True
        else:
            raise RuntimeError(f"{self.path}: no verdict in its output: {out[:200]!r}")
        states = None
        for line in out.splitlines():
            if line.startswith("Total number of states checked is "):
                states = int(line.rsplit(" ", 1)[1].rstrip("."))
        return Result(won, cpu, states)


class ReferenceLibrary:
    """black-hole-solve's C library called in this process through its public API."""

    label = "bhs library"

    def __init__(self, path: Path) -> None:
        lib = ctypes.CDLL(str(path))
        vp = ctypes.c_void_p
        for name, args, res in [
            ("black_hole_solver_create", [ctypes.POINTER(vp)], ctypes.c_int),
            ("black_hole_solver_enable_place_queens_on_kings", [vp, ctypes.c_bool], ctypes.c_int),
            ("black_hole_solver_enable_wrap_ranks", [vp, ctypes.c_bool], ctypes.c_int),
            ("black_hole_solver_config_setup", [vp], ctypes.c_int),
            ("black_hole_solver_read_board", [vp, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int),
                                              ctypes.c_uint, ctypes.c_uint, ctypes.c_uint], ctypes.c_int),
            ("black_hole_solver_setup", [vp], ctypes.c_int),
            ("black_hole_solver_run", [vp], ctypes.c_int),
            ("black_hole_solver_get_iterations_num", [vp], ctypes.c_ulong),
            ("black_hole_solver_recycle", [vp], ctypes.c_int),
            ("black_hole_solver_get_lib_version", [], ctypes.c_char_p),
        ]:
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = args, res
        self.lib = lib
        self.version = lib.black_hole_solver_get_lib_version().decode()
        self.instances: dict[str, ctypes.c_void_p] = {}
        for rules, flags in BHS_FLAGS.items():
            inst = ctypes.c_void_p()
            if lib.black_hole_solver_create(ctypes.byref(inst)):
                raise RuntimeError("black_hole_solver_create failed")
            lib.black_hole_solver_enable_place_queens_on_kings(inst, "--queens-on-kings" in flags)
            lib.black_hole_solver_enable_wrap_ranks(inst, "--wrap-ranks" in flags)
            lib.black_hole_solver_config_setup(inst)
            self.instances[rules] = inst

    def __call__(self, board: str, rules: str) -> Result:
        lib, inst, err = self.lib, self.instances[rules], ctypes.c_int(0)
        text = board.encode()
        t0 = time.process_time()
        if lib.black_hole_solver_read_board(inst, text, ctypes.byref(err), GOLF_COLUMNS, GOLF_HEIGHT,
                                            GOLF_BITS_PER_COLUMN):
            raise RuntimeError(f"black-hole-solve could not read the board (line {err.value})")
        if lib.black_hole_solver_setup(inst):
            raise RuntimeError("black_hole_solver_setup failed (out of memory?)")
        ret = lib.black_hole_solver_run(inst)
        states = int(lib.black_hole_solver_get_iterations_num(inst))
        lib.black_hole_solver_recycle(inst)
        cpu = time.process_time() - t0
        if ret not in (BHS_SOLVED, BHS_UNSOLVED):
            raise RuntimeError(f"black_hole_solver_run returned {ret}")
        return Result(ret == BHS_SOLVED, cpu, states)


def golfsolve_runner(solver: Solver, verdict_only: bool) -> Callable:
    def run(packed, rules: str) -> Result:
        t0 = time.process_time()
        sol = solver.solve_packed(packed, PRESETS[rules], verdict_only=verdict_only)
        cpu = time.process_time() - t0
        removed = None if sol.best_left is None else 35 - sol.best_left
        return Result(sol.outcome == "won", cpu, sol.nodes, removed)
    return run


@dataclass
class Tally:
    seconds: list[float] = field(default_factory=list)
    lost_states: list[int] = field(default_factory=list)

    def add(self, r: Result) -> None:
        self.seconds.append(r.seconds)
        if not r.won and r.states is not None:
            self.lost_states.append(r.states)

    @property
    def rate(self) -> float:
        return len(self.seconds) / sum(self.seconds) if sum(self.seconds) > 0 else float("inf")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", type=int, default=1, help="first PySol deal (default 1)")
    ap.add_argument("--count", type=int, default=3996, help="how many deals (default 3996)")
    ap.add_argument("--rules", default=",".join(RULE_SETS), help="comma-separated: " + ", ".join(RULE_SETS))
    ap.add_argument("--reference", type=Path, default=REF_CSV, help="reference verdicts CSV")
    ap.add_argument("--reference-binary", type=Path, default=None, metavar="PATH",
                    help="black-hole-solve 1.14.0, run as a process per deal")
    ap.add_argument("--reference-library", type=Path, default=None, metavar="PATH",
                    help="its libblack_hole_solver.so (default: beside --reference-binary, if there)")
    ap.add_argument("--no-verdict-only", action="store_true", help="skip golfsolve's verdict-only mode")
    args = ap.parse_args()
    rule_sets = [r.strip() for r in args.rules.split(",")]
    for r in rule_sets:
        if r not in RULE_SETS:
            ap.error(f"unknown rule set {r!r} (known: {', '.join(RULE_SETS)})")

    ref_rows = {}
    if args.reference.exists():
        with open(args.reference, newline="") as f:
            ref_rows = {(int(r["pysol_deal"]), r["rules"]): r for r in csv.DictReader(f)}
    else:
        print(f"note: {args.reference} not found; verdicts are not checked against it", file=sys.stderr)

    for opt, path in (("--reference-binary", args.reference_binary), ("--reference-library", args.reference_library)):
        if path is not None and not path.is_file():
            ap.error(f"{opt} {path}: no such file")
    refs: list = []
    lib_path = args.reference_library
    if lib_path is None and args.reference_binary is not None:
        beside = args.reference_binary.resolve().parent / "libblack_hole_solver.so"
        lib_path = beside if beside.exists() else None
    if lib_path is not None:
        try:
            refs.append(ReferenceLibrary(lib_path))
        except (OSError, AttributeError) as e:
            ap.error(f"{lib_path}: not black-hole-solve's library ({e})")
    if args.reference_binary is not None:
        refs.append(ReferenceBinary(args.reference_binary))

    solver = Solver()
    ours = {"golfsolve full": golfsolve_runner(solver, False)}
    if not args.no_verdict_only:
        ours["golfsolve verdict"] = golfsolve_runner(solver, True)

    deals = list(range(args.start, args.start + args.count))
    print(f"dealing {len(deals)} PySol boards ...", file=sys.stderr)
    boards = {d: pysol_board(d) for d in deals}
    packed = {d: pack(parse_layout_text(boards[d])) for d in deals}
    for run in ours.values():  # compile / load the kernels before any clock runs
        for r in rule_sets:
            run(packed[deals[0]], r)

    names = list(ours) + [ref.label for ref in refs]
    tallies = {(n, r): Tally() for n in names for r in rule_sets}
    wins = {r: 0 for r in rule_sets}
    errors = 0

    def check(what: str, d: int, r: str, got: Result, want_won: bool, want_removed: Optional[int]) -> int:
        if got.won != want_won:
            print(f"  DISAGREE deal {d} {r}: {what} says {'won' if got.won else 'lost'}")
            return 1
        if want_removed is not None and got.removed is not None and got.removed != want_removed:
            print(f"  DISAGREE deal {d} {r}: {what} removes at most {got.removed}, expected {want_removed}")
            return 1
        return 0

    t_start = time.process_time()
    for i, d in enumerate(deals):
        for r in rule_sets:
            jobs = [(n, lambda run=run: run(packed[d], r)) for n, run in ours.items()]
            jobs += [(ref.label, lambda ref=ref: ref(boards[d], r)) for ref in refs]
            if i % 2:  # alternate who goes first, so neither always meets a warm cache
                jobs.reverse()
            results = {}
            for n, job in jobs:
                results[n] = res = job()
                tallies[(n, r)].add(res)
            full = results["golfsolve full"]
            wins[r] += full.won
            row = ref_rows.get((d, r))
            if row is not None:
                removed = int(row["max_tableau_cards_removed"]) if row["max_tableau_cards_removed"] else None
                for n, res in results.items():
                    errors += check(n, d, r, res, row["winnable"] == "yes", removed)
            else:
                for n, res in results.items():
                    errors += check(n, d, r, res, full.won, None)
        if sys.stderr.isatty() and (i + 1) % 50 == 0:
            print(f"  {i + 1}/{len(deals)} deals", file=sys.stderr)

    print(f"PySol Golf deals {deals[0]}..{deals[-1]} (n = {len(deals)}), single core, CPU time per solve, "
          f"solvers interleaved deal by deal in one run")
    print(f"solvers: {', '.join(names)}")
    for ref in refs:
        if isinstance(ref, ReferenceLibrary):
            print(f"bhs library: black-hole-solve {ref.version} ({lib_path}) via ctypes, instances recycled")
        else:
            print(f"bhs process: {ref.path}, one process per deal, child CPU time (start-up included)")
    base = "bhs library" if any(isinstance(x, ReferenceLibrary) for x in refs) else None
    if base is None:
        print("NOTE: no reference solver ran; ratios divide by the PUBLISHED library figures "
              f"({', '.join(f'{r} {v}' for r, v in PUBLISHED_LIBRARY_DEALS_PER_S.items())} deals/s: "
              "PySol 1..1000, another run and load), not by a measurement made now")
    print()
    head = f"{'rules':<16} {'win rate [95% CI]':<24} " + " ".join(f"{n + ' /s':>21}" for n in names)
    head += f" {'full/lib':>9}" + (f" {'verdict/lib':>11}" if "golfsolve verdict" in ours else "")
    if any(isinstance(x, ReferenceBinary) for x in refs):
        head += f" {'full/proc':>9}"
    print(head)
    for r in rule_sets:
        _, lo, hi = wilson(wins[r], len(deals))
        line = f"{r:<16} {f'{100 * wins[r] / len(deals):.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]':<24} "
        line += " ".join(f"{tallies[(n, r)].rate:>21.1f}" for n in names)
        lib_rate = tallies[(base, r)].rate if base else PUBLISHED_LIBRARY_DEALS_PER_S[r]
        star = "" if base else "*"
        line += f" {tallies[('golfsolve full', r)].rate / lib_rate:>8.1f}x{star}"
        if "golfsolve verdict" in ours:
            line += f" {tallies[('golfsolve verdict', r)].rate / lib_rate:>10.1f}x{star}"
        if "bhs process" in names:
            line += f" {tallies[('golfsolve full', r)].rate / tallies[('bhs process', r)].rate:>8.1f}x"
        print(line)
    if not base:
        print("* against the published figure, not measured in this run")
    print()
    print(f"{'rules':<16} " + " ".join(f"{n + ' ms median/mean/max':>32}" for n in names))
    for r in rule_sets:
        cells = []
        for n in names:
            ms = sorted(1000 * t for t in tallies[(n, r)].seconds)
            cells.append(f"{f'{statistics.median(ms):.2f} / {statistics.mean(ms):.2f} / {ms[-1]:.0f}':>32}")
        print(f"{r:<16} " + " ".join(cells))
    print()
    print(f"{'rules':<16} " + " ".join(f"{n + ' states/lost deal':>30}" for n in names))
    for r in rule_sets:
        cells = []
        for n in names:
            s = tallies[(n, r)].lost_states
            cells.append(f"{statistics.mean(s) if s else float('nan'):>30,.0f}")
        print(f"{r:<16} " + " ".join(cells))
    print()
    checked = "shared/reference verdicts" + (" and the reference solvers" if refs else "") if ref_rows else \
        "golfsolve's full answer"
    print(f"disagreements: {errors} (every solver's verdict checked against {checked}; most cards removed "
          f"where the CSV gives it); benchmark CPU {time.process_time() - t_start:.0f} s in this process")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
