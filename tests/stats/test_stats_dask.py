"""The Dask engine, on a local cluster listening on loopback, gives the local run's table."""

from __future__ import annotations

import sys

import pandas as pd
import pytest

from golfsolve.stats.census import CensusSpec, load_results, read_manifest, run_census

distributed = pytest.importorskip("dask.distributed")

RULES = ("easy", "classic", "strict")
TIMING = ["seconds", "cpu_seconds"]


@pytest.fixture(scope="module")
def cluster():
    # One in-process worker thread over real TCP on 127.0.0.1: the same code path as a
    # remote cluster, without starting extra processes.
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=None) as c:
        yield c


def test_dask_run_equals_local_run_row_for_row(cluster, tmp_path, run_cli):
    assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
    run_census(tmp_path / "local", CensusSpec(0, 30, RULES, 7), jobs=1, progress=False)
    r = run_cli(["stats", "--count", "30", "--chunk-size", "7", "--out", str(tmp_path / "dask"), "--engine", "dask",
                 "--scheduler", cluster.scheduler_address, "--quiet"])
    assert r.exit_code == 0, r.stderr
    local, dask = load_results(tmp_path / "local"), load_results(tmp_path / "dask")
    assert len(dask) == 30 * len(RULES)
    pd.testing.assert_frame_equal(dask.drop(columns=TIMING), local.drop(columns=TIMING))
    inv = read_manifest(tmp_path / "dask")["invocations"][-1]
    assert (inv["engine"], inv["scheduler"]) == ("dask", cluster.scheduler_address)


def test_dask_resume_only_solves_missing_chunks(cluster, tmp_path):
    out = tmp_path / "run"
    spec = CensusSpec(100, 12, ("strict",), 4)
    run_census(out, spec, engine="dask", scheduler=cluster.scheduler_address, progress=False)
    first = load_results(out)
    (out / "chunk-0000000104.parquet").unlink()
    solved = []
    res = run_census(out, spec, resume=True, engine="dask", scheduler=cluster.scheduler_address, progress=False,
                     on_chunk=lambda f, n: solved.append(f))
    assert solved == [104] and res.complete
    pd.testing.assert_frame_equal(load_results(out).drop(columns=TIMING), first.drop(columns=TIMING))


def test_missing_dask_is_a_one_line_exit_2(run_cli, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # makes the import fail
    r = run_cli(["stats", "--count", "2", "--out", str(tmp_path / "x"), "--engine", "dask",
                 "--scheduler", "tcp://127.0.0.1:1"])
    assert r.exit_code == 2
    assert "pip install 'golfsolve[dask]'" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()  # refused before creating anything


def test_the_library_refuses_a_scheduler_port_that_cannot_be_before_connecting(tmp_path):
    from golfsolve.errors import InputError

    with pytest.raises(InputError, match="port must be a number from 1 to 65535"):
        run_census(tmp_path / "out", CensusSpec(start=0, count=1, rules=("easy",)), engine="dask",
                   scheduler="tcp://127.0.0.1:99999", progress=False)
    assert not (tmp_path / "out").exists()
