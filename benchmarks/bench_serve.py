"""Latency and throughput of ``golfsolve serve``: a warm solve of a deal code over HTTP.

A real server (the ``golfsolve serve`` command, 2 workers, loopback) and a real HTTP
client (httpx, keep-alive). Over the 1,000 codes from GO1-E-AAAAAAA:

* **latency**: one client, one request at a time; per code, interleaved with it, the
  same solve called in this process through the library (the reference: what the
  request costs without HTTP, the pool and JSON). p50, p90, p99 and max of both, and
  the server's CPU (server process plus workers) per request.
* **throughput**: the codes in 4 blocks, each block answered by one client and then by
  two concurrent clients (each half of it); requests per second of each, and the
  ratio two/one.

    python benchmarks/bench_serve.py            # 1,000 codes
    python benchmarks/bench_serve.py --count 200
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from load_serve import running_server, workers_of  # noqa: E402

from golfsolve.solitaire.answers import solve_answer, solve_layout  # noqa: E402
from golfsolve.solitaire.dealcode import format_code  # noqa: E402
from golfsolve.solitaire.layout import layout_from_code  # noqa: E402
from golfsolve.solitaire.solver import Solver  # noqa: E402


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of ``pids`` so far."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / tick


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    codes = [format_code(n, "E") for n in range(args.count)]
    solver = Solver()
    with running_server(args.workers) as (url, proc):
        pids = [proc.pid] + workers_of(proc.pid)
        with httpx.Client(base_url=url, timeout=60) as http:
            for c in codes[:20]:  # warm the connection and the workers' first requests
                http.get("/api/solve", params={"code": c}).raise_for_status()
                solve_answer(lay := layout_from_code(c), solve_layout(lay, solver=solver))
            http_ms, lib_ms = [], []
            cpu0, parent0 = cpu_seconds(pids), cpu_seconds(pids[:1])
            for c in codes:
                t0 = time.perf_counter()
                r = http.get("/api/solve", params={"code": c})
                http_ms.append((time.perf_counter() - t0) * 1000)
                assert r.status_code == 200 and r.json()["deal"] == c
                t0 = time.process_time()
                lay = layout_from_code(c)
                solve_answer(lay, solve_layout(lay, solver=solver))
                lib_ms.append((time.process_time() - t0) * 1000)
            server_cpu, parent_cpu = cpu_seconds(pids) - cpu0, cpu_seconds(pids[:1]) - parent0

            def run(block: list[str], clients: int) -> float:
                parts = [block[i::clients] for i in range(clients)]

                def go(part):
                    with httpx.Client(base_url=url, timeout=60) as h:
                        for c in part:
                            h.get("/api/solve", params={"code": c}).raise_for_status()

                threads = [threading.Thread(target=go, args=(p,)) for p in parts]
                t0 = time.perf_counter()
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                return len(block) / (time.perf_counter() - t0)

            blocks = [codes[i::4] for i in range(4)]
            one, two = [], []
            for b in blocks:  # interleaved: each block by one client, then by two
                one.append(run(b, 1))
                two.append(run(b, 2))
    print(f"golfsolve serve, {args.workers} workers, loopback, httpx keep-alive; {len(codes)} codes from "
          f"{codes[0]}; load average {os.getloadavg()[0]:.2f} (start {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})")
    print("| per request, ms | p50 | p90 | p99 | max | mean |")
    print("|---|---|---|---|---|---|")
    for name, xs in (("HTTP solve (wall)", http_ms), ("library solve in-process (CPU)", lib_ms)):
        print(f"| {name} | {pct(xs, .5):.2f} | {pct(xs, .9):.2f} | {pct(xs, .99):.2f} | {max(xs):.2f} | "
              f"{statistics.mean(xs):.2f} |")
    print(f"server CPU per request: {1000 * server_cpu / len(codes):.2f} ms (event loop "
          f"{1000 * parent_cpu / len(codes):.2f} ms, workers {1000 * (server_cpu - parent_cpu) / len(codes):.2f} ms); "
          f"HTTP p50 / library p50: {pct(http_ms, .5) / max(pct(lib_ms, .5), 1e-6):.1f}x")
    print(f"throughput: one client {statistics.mean(one):.0f} req/s, two clients {statistics.mean(two):.0f} req/s, "
          f"ratio {statistics.mean(two) / statistics.mean(one):.2f} (blocks: "
          + ", ".join(f"{b / a:.2f}" for a, b in zip(one, two)) + ")")
    ok = pct(http_ms, .5) <= 15 and pct(http_ms, .99) <= 100
    print(f"target p50 <= 15 ms and p99 <= 100 ms: {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
