"""What checking a run folder at the door costs: reading a stats run with every chunk's
schema, row count and keys checked (``load_results``) against reading its Parquet files
bare (``pandas.read_parquet`` file by file, no check), interleaved, CPU time.

    python benchmarks/bench_runfolder.py                    # 1,000 deals, easy, chunks of 5 (200 chunks)
    python benchmarks/bench_runfolder.py --count 2000 --chunk-size 10 --repeat 9

Makes the run once (``golfsolve stats --fields winnable``, in a temporary directory), then
alternates the two readers ``--repeat`` times and prints the median CPU seconds of each and
their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd


def _bare(out: Path) -> int:
    frames = [pd.read_parquet(p) for p in sorted(out.glob("chunk-*.parquet"))]
    return len(pd.concat(frames, ignore_index=True))


def _checked(out: Path) -> int:
    from golfsolve.stats.census import load_results

    return len(load_results(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--chunk-size", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "run"
        subprocess.run([sys.executable, "-m", "golfsolve", "stats", "--count", str(a.count), "--rules", "easy",
                        "--fields", "winnable", "--chunk-size", str(a.chunk_size), "--out", str(out), "-q"],
                       check=True)
        _checked(out), _bare(out)  # imports and caches warm before any timing
        times: dict[str, list[float]] = {"checked": [], "bare": []}
        for _ in range(a.repeat):
            for name, fn in (("checked", _checked), ("bare", _bare)):
                t0 = time.process_time()
                rows = fn(out)
                times[name].append(time.process_time() - t0)
        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"{rows} rows in {len(list(out.glob('chunk-*.parquet')))} chunks; median CPU s over {a.repeat} "
              f"interleaved reads: checked {med['checked']:.3f}, bare {med['bare']:.3f}, "
              f"ratio {med['checked'] / med['bare']:.2f}x")


if __name__ == "__main__":
    main()
