"""A census on a Dask cluster of two worker processes against the local engine's --jobs 2.

    python benchmarks/bench_dask.py --count 2000 --runs 2

Starts ``dask scheduler`` and two ``dask worker`` processes (one thread each, on loopback)
as a user would, then runs ``golfsolve stats`` for the same deals with ``--engine dask
--scheduler ADDRESS`` and with ``--jobs 2``, in turns (the first alternating from run to
run), each into a new folder. Reports deals per second of wall time and the CPU time of
the command and its children (the Dask workers' CPU is read from their /proc entries).
Warm caches: each side runs once untimed first. Both tables must be equal row for row.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from golfsolve.stats.census import load_results


def _proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--chunk-size", type=int, default=50)
    ap.add_argument("--runs", type=int, default=2)
    a = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="golfsolve-dask-"))
    sched_file = tmp / "scheduler.json"
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", "0", "--dashboard-address", ":0", "--scheduler-file", str(sched_file)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)]
    try:
        while not (sched_file.exists() and sched_file.stat().st_size):
            time.sleep(0.1)
        address = json.loads(sched_file.read_text())["address"]
        workers = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                     "--no-nanny", "--host", "127.0.0.1", "--no-dashboard"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
                   for _ in range(2)]
        procs += workers
        from dask.distributed import Client

        with Client(address, timeout="30s") as c:
            c.wait_for_workers(2, timeout=120)
        engines = {"dask, 2 workers": ["--engine", "dask", "--scheduler", address], "local --jobs 2": ["--jobs", "2"]}
        print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {a.count} deals, "
              f"chunks of {a.chunk_size}, Easy/Classic/Strict")
        res: dict[str, list[tuple[float, float]]] = {k: [] for k in engines}
        tables = {}
        names = list(engines)
        for i in range(a.runs + 1):
            for name in (names if i % 2 == 0 else names[::-1]):
                out = tmp / f"run-{i}-{name.split()[0].strip(',')}"
                cpu0 = _children_cpu() + sum(_proc_cpu(w.pid) for w in workers)
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-m", "golfsolve", "stats", "--start", "GO1-E-AAAAAAA", "--count",
                                str(a.count), "--chunk-size", str(a.chunk_size), "--out", str(out), "--quiet",
                                *engines[name]], check=True, stdout=subprocess.DEVNULL)
                wall = time.perf_counter() - t0
                cpu = _children_cpu() + sum(_proc_cpu(w.pid) for w in workers) - cpu0
                tables[name] = load_results(out).drop(columns=["seconds", "cpu_seconds"])
                if i:  # the first round only warms
                    res[name].append((wall, cpu))
                    print(f"run {i} {name}: {a.count / wall:.0f} deals/s wall, CPU {cpu:.1f} s", flush=True)
        pd.testing.assert_frame_equal(tables[names[0]], tables[names[1]])
        print(f"load after: {os.getloadavg()[0]:.2f}; the tables are equal row for row")
        print("| engine | deals/s (wall) | CPU s |")
        print("|---|---:|---:|")
        for name in names:
            walls = sorted(w for w, _ in res[name])
            cpus = sorted(c for _, c in res[name])
            print(f"| {name} | {a.count / walls[len(walls) // 2]:.0f} | {cpus[len(cpus) // 2]:.1f} |")
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
