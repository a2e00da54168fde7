"""A bounded load test of ``golfsolve serve``: concurrent clients, good and bad requests mixed.

Starts the real command on a free loopback port, lets ``--clients`` threads each send
``--requests`` requests (deal, solve, verdict only, peeking hint, play; bad codes,
unknown parameters, broken JSON, oversized bodies, illegal moves; and now and then a
runaway request the CPU budget must stop), then checks that every answer had the
status its kind expects, the server still answers, it has exactly its workers (none
leaked, none missing) and its memory (server plus workers) stayed flat. It stops by
itself. The test suite runs it small (tests/serve/test_serve_load.py); bigger:

    python benchmarks/load_serve.py --clients 16 --requests 60 --rounds 3
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Iterator, Optional

import httpx

READY = re.compile(r"ready on (http://[^/\s]+/)")


@contextlib.contextmanager
def running_server(workers: int = 2, cpu_budget: float = 15.0, extra: tuple = (),
                   timeout: float = 900) -> Iterator[tuple[str, subprocess.Popen]]:
    """``golfsolve serve`` on a free loopback port: yields (base url, process); stops it after."""
    cmd = [sys.executable, "-m", "golfsolve", "serve", "--port", "0", "--jobs", str(workers),
           "--cpu-budget", str(cpu_budget), *extra]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    lines: list[str] = []
    url: Optional[str] = None
    deadline = time.monotonic() + timeout
    try:
        while url is None:
            line = proc.stderr.readline()
            if not line:
                raise RuntimeError(f"golfsolve serve stopped before it was ready: {''.join(lines)}")
            lines.append(line)
            m = READY.search(line)
            url = m.group(1) if m else None
            if time.monotonic() > deadline:
                raise RuntimeError("golfsolve serve did not say it was ready in time")
        # keep reading stderr so the server never blocks on a full pipe; proc.log: what it said after ready
        proc.log = []
        threading.Thread(target=lambda: proc.log.extend(proc.stderr), daemon=True).start()
        yield url.rstrip("/"), proc
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def workers_of(pid: int) -> list[int]:
    """The worker processes (multiprocessing spawn children) of the server ``pid``."""
    out = []
    for child in Path(f"/proc/{pid}/task").glob("*/children"):
        for c in child.read_text().split():
            try:
                cmd = Path(f"/proc/{c}/cmdline").read_bytes()
            except OSError:
                continue
            if b"spawn_main" in cmd:
                out.append(int(c))
    return sorted(set(out))


def rss_mb(pids: list[int]) -> float:
    """Resident memory of ``pids`` together, in MB."""
    total = 0
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def _codes(n: int, rng: random.Random) -> list[str]:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return [f"GO1-{rng.choice('EC')}-" + "".join(rng.choice(letters) for _ in range(7)) for _ in range(n)]


def request_mix(rng: random.Random, runaway_share: float) -> tuple[str, str, dict | bytes | None, set[int]]:
    """One request: (method, path, query or body, the statuses it may get)."""
    code = _codes(1, rng)[0]
    kinds = [
        ("GET", "/api/deal", {"code": code}, {200}),
        ("GET", "/api/solve", {"code": code}, {200}),
        ("POST", "/api/solve", {"code": code, "verdict_only": True}, {200}),
        ("POST", "/api/hint", {"code": code}, {200, 422}),
        ("POST", "/api/play", {"code": code, "moves": "d", "action": "d"}, {200}),
        ("GET", "/api/solve", {"pysol": str(rng.randint(1, 10**6))}, {200}),
        ("GET", "/api/solve", {"code": code[:-1]}, {400}),  # 6 letters
        ("GET", "/api/deal", {"code": code, "colour": "red"}, {400}),  # unknown parameter
        ("POST", "/api/solve", b"{not json", {400}),
        ("POST", "/api/deal", b"x" * (65 * 1024), {413}),
        ("POST", "/api/hint", {"code": code, "moves": "7777777"}, {400}),  # a move that cannot be legal
        ("GET", "/api/solve", {"code": code, "node_limit": "-1"}, {400}),
        ("POST", "/api/odds", {"code": code, "samples": 0}, {400}),
        ("POST", "/api/deal", {"layout": "1: AS AS\n"}, {400}),
    ]
    if rng.random() < runaway_share:
        return "POST", "/api/odds", {"code": code, "samples": 100000, "games": 100000}, {503}
    return rng.choice(kinds)


def load(url: str, clients: int, requests: int, seed: int = 0, runaway_share: float = 0.02) -> dict:
    """``clients`` threads each send ``requests`` requests; returns counts and the unexpected answers."""
    statuses: Counter = Counter()
    unexpected: list[str] = []
    lock = threading.Lock()

    def client(i: int) -> None:
        rng = random.Random(f"{seed}-{i}")
        with httpx.Client(base_url=url, timeout=300) as http:
            for _ in range(requests):
                method, path, data, ok = request_mix(rng, runaway_share)
                try:
                    if method == "GET":
                        r = http.get(path, params=data)
                    elif isinstance(data, bytes):
                        r = http.post(path, content=data)
                    else:
                        r = http.post(path, json=data)
                    status, good = r.status_code, r.status_code in ok and "json" in r.headers.get("content-type", "")
                    if good and r.status_code != 200:
                        good = isinstance(r.json().get("error"), str)
                except httpx.HTTPError as e:
                    status, good = type(e).__name__, False
                with lock:
                    statuses[status] += 1
                    if not good:
                        unexpected.append(f"{method} {path} {str(data)[:80]} -> {status}")

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"requests": sum(statuses.values()), "statuses": dict(statuses), "unexpected": unexpected,
            "seconds": time.perf_counter() - t0}


def load_test(clients: int = 16, requests: int = 20, workers: int = 2, cpu_budget: float = 2.0,
              rounds: int = 2, seed: int = 0) -> dict:
    """Start a server, load it for ``rounds`` rounds, and report what a healthy server must show."""
    with running_server(workers, cpu_budget) as (url, proc):
        server = [proc.pid]
        report: dict = {"rounds": [], "workers": workers}
        before = rss_mb(server + workers_of(proc.pid))
        for r in range(rounds):
            res = load(url, clients, requests, seed=seed * 100 + r)
            time.sleep(1.0)  # a replaced worker is starting; let it finish
            deadline = time.monotonic() + 120
            while len(workers_of(proc.pid)) != workers and time.monotonic() < deadline:
                time.sleep(0.5)
            res["rss_mb"] = rss_mb(server + workers_of(proc.pid))
            report["rounds"].append(res)
        health = httpx.get(url + "/api/health", timeout=60).json()
        report.update(rss_before_mb=before, alive=proc.poll() is None, health=health,
                      worker_pids=workers_of(proc.pid))
    return report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--requests", type=int, default=60, help="per client and round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", "-j", "--workers", dest="workers", type=int, default=2, metavar="N",
                    help="the server's worker processes (its --jobs)")
    ap.add_argument("--cpu-budget", type=float, default=2.0)
    args = ap.parse_args()
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    rep = load_test(args.clients, args.requests, args.workers, args.cpu_budget, args.rounds)
    print(f"load: {args.clients} clients x {args.requests} requests x {args.rounds} rounds, "
          f"{args.workers} workers, CPU budget {args.cpu_budget:g} s; load average {os.getloadavg()[0]:.2f}")
    print(f"memory before: {rep['rss_before_mb']:.0f} MB (server + workers)")
    for i, r in enumerate(rep["rounds"], 1):
        print(f"round {i}: {r['requests']} requests in {r['seconds']:.1f} s, statuses {json.dumps(r['statuses'])}, "
              f"unexpected {len(r['unexpected'])}, memory after {r['rss_mb']:.0f} MB")
        for u in r["unexpected"][:5]:
            print("   ", u)
    print(f"alive: {rep['alive']}; workers at the end: {len(rep['worker_pids'])} of {rep['workers']}; "
          f"workers replaced (CPU budget): {rep['health']['replaced']}")


if __name__ == "__main__":
    main()
