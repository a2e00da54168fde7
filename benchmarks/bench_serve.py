"""Latency and throughput of ``golfsolve serve``: a warm solve of a deal code over HTTP.

A real server (the ``golfsolve serve`` command, 2 workers, loopback) and a real HTTP
client (httpx, keep-alive). Over the 1,000 codes from GO1-E-AAAAAAA:

* **latency**: one client, one request at a time; per code, interleaved with it, the
  same solve called in this process through the library (the reference: what the
  request costs without HTTP, the pool and JSON). p50, p90, p99 and max of both, and
  the server's CPU (server process plus workers) per request.
* **throughput**: the codes in 10 blocks, each block answered by one client and then by
  two concurrent clients (each half of it; each client a process of its own, on one
  keep-alive connection of the standard library's HTTP client); requests per second of
  each, the ratio two/one, and what the clients and the machine spent.

    python benchmarks/bench_serve.py            # 1,000 codes
    python benchmarks/bench_serve.py --count 200
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
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


def _client(url: str, codes: list[str]) -> float:
    """One client: the codes' solves one after another on one keep-alive connection (the
    standard library's HTTP client, far lighter than httpx, so that the clients take less
    of the machine from the server); returns its CPU seconds."""
    host, port = url.split("//", 1)[1].rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    c0 = time.process_time()
    for c in codes:
        conn.request("GET", f"/api/solve?code={c}")
        r = conn.getresponse()
        body = r.read()
        if r.status != 200:
            raise RuntimeError(f"{c}: {r.status} {body[:200]!r}")
    conn.close()
    return time.process_time() - c0


def _spin(seconds: float) -> float:
    t, c = time.perf_counter(), time.process_time()
    while time.perf_counter() - t < seconds:
        pass
    return (time.process_time() - c) / (time.perf_counter() - t)


def cpu_share(seconds: float = 1.0) -> tuple[float, list[float]]:
    """The share of a core one spinning process gets, and what each of two gets: on a busy
    machine with autogroup scheduling, our processes together may get less than one core,
    and then two clients cannot be faster than one whatever the server does."""
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(1, mp_context=ctx) as one:
        alone = one.submit(_spin, seconds).result()
    with ProcessPoolExecutor(2, mp_context=ctx) as two:
        pair = [f.result() for f in [two.submit(_spin, seconds) for _ in range(2)]]
    return alone, pair


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine so far, from /proc/stat."""
    f = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = f[3] + f[4]
    return sum(f) - idle, sum(f)


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--jobs", "-j", "--workers", dest="workers", type=int, default=2, metavar="N",
                    help="the server's worker processes (its --jobs)")
    args = ap.parse_args()
    codes = [format_code(n, "E") for n in range(args.count)]
    share_before = cpu_share()
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
                t0 = time.perf_counter()
                client_cpu[clients] += sum(f.result() for f in [pool.submit(_client, url, part) for part in parts])
                return len(block) / (time.perf_counter() - t0)

            # each client its own process, as real clients are (threads would share one GIL)
            pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"))
            list(pool.map(_client, [url, url], [codes[:5], codes[:5]]))  # both started and connected once
            blocks = [codes[i::10] for i in range(10)]
            one, two = [], []
            client_cpu = {1: 0.0, 2: 0.0}
            cores = {1: [0, 0], 2: [0, 0]}  # machine busy and total jiffies during each kind of run
            worker_cpu_two = [0.0] * (len(pids) - 1)
            for b in blocks:  # interleaved: each block by one client, then by two
                m0 = machine_busy()
                one.append(run(b, 1))
                m1 = machine_busy()
                cores[1] = [cores[1][0] + m1[0] - m0[0], cores[1][1] + m1[1] - m0[1]]
                before = [cpu_seconds([w]) for w in pids[1:]]
                m0 = machine_busy()
                two.append(run(b, 2))
                m1 = machine_busy()
                cores[2] = [cores[2][0] + m1[0] - m0[0], cores[2][1] + m1[1] - m0[1]]
                worker_cpu_two = [t + cpu_seconds([w]) - b0 for t, w, b0 in zip(worker_cpu_two, pids[1:], before)]
            pool.shutdown()
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
          f"ratio {statistics.mean(two) / statistics.mean(one):.2f} (median of the blocks' ratios "
          f"{statistics.median(b / a for a, b in zip(one, two)):.2f}; blocks: "
          + ", ".join(f"{b / a:.2f}" for a, b in zip(one, two)) + ")")
    print(f"the clients' own CPU per request: {1000 * client_cpu[1] / len(codes):.2f} ms (one), "
          f"{1000 * client_cpu[2] / len(codes):.2f} ms (two)")
    ncpu = os.cpu_count() or 1
    print("cores busy on the whole machine (everything, other jobs too): "
          f"{ncpu * cores[1][0] / max(cores[1][1], 1):.2f} of {ncpu} with one client, "
          f"{ncpu * cores[2][0] / max(cores[2][1], 1):.2f} with two")
    print("workers' CPU while two clients ran: " + ", ".join(f"{t:.2f} s" for t in worker_cpu_two)
          + " (both serve)" * (min(worker_cpu_two) > 0.25 * max(worker_cpu_two)))
    share_after = cpu_share()
    print("CPU this benchmark could get (a spinning process alone; each of two): "
          + "; ".join(f"{a:.2f}; {p[0]:.2f} and {p[1]:.2f}" for a, p in (share_before, share_after))
          + " (before; after)")
    ok = pct(http_ms, .5) <= 15 and pct(http_ms, .99) <= 100
    print(f"target p50 <= 15 ms and p99 <= 100 ms: {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
