"""Batch throughput of ``golfsolve stats``: deals per second per core, per rule set.

    python benchmarks/bench_stats.py                         # deals 0..9999, easy,classic,strict, all cores
    python benchmarks/bench_stats.py --count 2000 --jobs 2 --json
    python benchmarks/bench_stats.py --from stats-2000       # measure an existing run, solve nothing

Runs the real batch runner (process pool, chunk files, manifest) into a temporary
directory (or ``--out``), then reads the table back and reports, for each rule set:

* deals/s per core from CPU time: solves / summed ``cpu_seconds`` of the solves (CPU
  time is what the solver costs; wall time on a shared machine also counts other
  programs' turns);
* the wall-clock throughput of the whole run (deals per second, all rule sets), which
  includes process start-up, dealing, Parquet writing and any idle cores;
* the projected time of a 1,000,000-deal census under the same rule sets on a 2-core
  machine: summed CPU seconds per deal x 1,000,000 / 2 cores (perfect scaling, which
  the chunked runner gets since chunks are independent), and the same figure scaled
  from this run's wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from golfsolve.errors import InputError
from golfsolve.stats.census import CensusSpec, default_chunk_size, load_results, parse_rules_list, read_manifest, run_census

CENSUS_DEALS = 1_000_000
CENSUS_CORES = 2


def measure(out: Path, wall: float | None) -> dict:
    """Throughput figures of the run in ``out``; ``wall`` is its wall time if it was timed here."""
    # An interrupted run still measures what it solved (chunks are whole ranges of deals).
    df = load_results(out, allow_incomplete=True)
    m = read_manifest(out)
    if wall is None:  # an existing run: the wall time of its invocations
        wall = sum(i.get("seconds", 0.0) for i in m["invocations"])
    deals = int(df["deal"].nunique())
    per_rules = {}
    cpu_per_deal = 0.0
    for r in m["rules"]:
        sub = df[df["rules"] == r]
        cpu = float(sub["cpu_seconds"].sum())
        cpu_per_deal += cpu / len(sub)
        per_rules[r] = {"deals": int(len(sub)), "cpu_seconds": round(cpu, 2),
                        "deals_per_second_per_core": round(len(sub) / cpu, 1),
                        "win_rate": round(float(sub["winnable"].mean()), 4)}
    jobs = max((i.get("jobs", 1) for i in m["invocations"]), default=1)
    return {
        "deals": deals, "deals_planned": int(m["count"]), "rules": m["rules"], "jobs": jobs, "cpu_count": os.cpu_count(),
        "wall_seconds": round(wall, 1),
        "wall_deals_per_second": round(deals / wall, 1) if wall else None,
        "per_rules": per_rules,
        "all_rules_deals_per_second_per_core": round(1 / cpu_per_deal, 1),
        "census_1m_2core_minutes_cpu": round(CENSUS_DEALS * cpu_per_deal / CENSUS_CORES / 60, 1),
        "census_1m_2core_minutes_wall": (round(wall * CENSUS_DEALS / deals * jobs / CENSUS_CORES / 60, 1)
                                         if wall else None),
        "command": m["command"],
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=10_000)
    ap.add_argument("--rules", default="easy,classic,strict")
    ap.add_argument("--jobs", "-j", "--workers", dest="jobs", type=int, default=os.cpu_count() or 1, metavar="N")
    ap.add_argument("--fields", choices=["all", "winnable"], default="all",
                    help="winnable: the verdict-only census (golfsolve stats --fields winnable)")
    ap.add_argument("--out", default=None, help="keep the run here (default: a temporary directory)")
    ap.add_argument("--from", dest="existing", default=None, help="measure an existing stats directory")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.existing:
        try:
            res = measure(Path(a.existing), None)
        except InputError as e:  # not a stats run: one line, as golfsolve says it
            print(f"bench_stats.py: --from {a.existing}: {e}", file=sys.stderr)
            sys.exit(2)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(a.out) if a.out else Path(tmp) / "run"
            spec = CensusSpec(a.start, a.count, parse_rules_list(a.rules), default_chunk_size(a.count, a.jobs),
                              a.fields)
            cmd = (f"python benchmarks/bench_stats.py --start {a.start} --count {a.count} --rules {a.rules} "
                   f"--jobs {a.jobs} --fields {a.fields}")
            t0 = time.perf_counter()
            run_census(out, spec, jobs=a.jobs, command=cmd, progress=None)
            res = measure(out, time.perf_counter() - t0)
    if a.json:
        json.dump(res, sys.stdout, indent=2)
        print()
        return
    print(f"{res['deals']:,} of {res['deals_planned']:,} deals, rules {','.join(res['rules'])}, {res['jobs']} jobs on {res['cpu_count']} cores, "
          f"wall {res['wall_seconds']} s ({res['wall_deals_per_second']} deals/s, all rule sets)")
    print("| rules | deals/s per core (CPU) | win rate |")
    print("|---|---:|---:|")
    for r, v in res["per_rules"].items():
        print(f"| {r} | {v['deals_per_second_per_core']:,} | {100 * v['win_rate']:.2f}% |")
    print(f"| all of them, per deal | {res['all_rules_deals_per_second_per_core']:,} | |")
    print(f"1,000,000-deal census, these rule sets, 2 cores: {res['census_1m_2core_minutes_cpu']} min from CPU time, "
          f"{res['census_1m_2core_minutes_wall']} min scaled from this run's wall time")


if __name__ == "__main__":
    main()
