"""Damage a finished run folder at random (delete, truncate, retype, drop a column, rename,
overwrite with garbage, edit or remove manifest fields) and hold the contract: ``report`` and
``stats --resume`` exit 0 or 2 with one line, never an internal error, in bounded memory, and
after a successful ``--resume`` the table is the undamaged one, row for row."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from run_helpers import CommandForks, finished_stats_run

pytestmark = pytest.mark.skipif(os.name != "posix", reason="measures child memory with os.wait4")

TIMING = ["seconds", "cpu_seconds"]
N_CHUNKS = 3
#: A golfsolve process reading a small run stays far below this (about 250 MB measured);
#: a manifest that made it build the chunk list of 10**15 deals went past 7 GB.
MAX_RSS_KB = 1_500_000

COLUMNS = ["deal", "code", "rules", "winnable", "best_left", "app_score", "fields", "nodes"]
BAD = {
    "format": ["golfsolve-stats/2", 1, None, "golfsolve-grid-simulate/1", [], {"a": 1}],
    "start": [-1, "0", None, 1.5, 10**15, True],
    "count": [0, -6, "6", None, 10**15, 6.0, [6]],
    "rules": ["easy,classic", [], [1], ["easy", "easy"], ["nosuch", "classic"], None, ["easy"],
              ["easy", "classic", "wrap"]],
    "chunk_size": [0, "2", None, -2, 2.5, 10**18],
    "blocks": ["all", [], [{}], [{"rules": ["easy"], "start": 0, "count": 10**15}], [1], {"a": 1}],
    "params": ["x", [], {"fields": "most"}, {"difficulty_games": 0}, {"other": 1}, {"difficulty_games": "8"}],
    "invocations": ["x", [1], [{"command": 5}], {"a": 1}],
    "complete": ["yes", 1, None],
    "command": [5, None, ["golfsolve"]],
    "rules_described": [5, [1], {"easy": 3}],
}
#: Keys whose removal leaves an equal run (the reader fills them in).
OPTIONAL = ["blocks", "params", "invocations", "complete", "command", "rules_described", "columns", "created"]

chunk_index = st.integers(0, N_CHUNKS - 1)
damage = st.one_of(
    st.tuples(st.just("delete"), chunk_index),
    st.tuples(st.just("truncate"), chunk_index, st.floats(0, 0.99)),
    st.tuples(st.just("garbage"), chunk_index, st.binary(max_size=64)),
    st.tuples(st.just("retype"), chunk_index, st.sampled_from(COLUMNS)),
    st.tuples(st.just("drop"), chunk_index, st.sampled_from(COLUMNS)),
    st.tuples(st.just("rows"), chunk_index, st.integers(-3, 3).filter(bool)),
    st.tuples(st.just("rename"), chunk_index, st.one_of(chunk_index, st.just("chunk-0000000099.parquet"),
                                                        st.just("notes.parquet"), st.just(".hidden.tmp"))),
    st.tuples(st.just("edit"), st.sampled_from(sorted(BAD)), st.integers(0, 100)),
    st.tuples(st.just("unset"), st.sampled_from(sorted(BAD) + OPTIONAL)),
)


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    out = finished_stats_run(tmp_path_factory.mktemp("fuzz") / "run")
    assert len(list(out.glob("chunk-*.parquet"))) == N_CHUNKS
    return out


@pytest.fixture(scope="module")
def golfsolve():
    """``golfsolve ARGS`` in a new process (exit code, stderr, peak memory in KB), forked from
    a server that has done the imports: a damaged run is about what the commands do with
    it, and each example runs three commands (2-4 s of CPU each for imports alone)."""
    forks = CommandForks()
    yield forks.run
    forks.close()


def _table(out: Path) -> pd.DataFrame:
    from golfsolve.stats.census import load_results

    return load_results(out).drop(columns=TIMING).reset_index(drop=True)


def _apply(run: Path, d: tuple) -> bool:
    """Damage ``run`` by ``d``; True when the damage is to the manifest or leaves a file
    that is not the run's (then --resume may refuse)."""
    chunks = sorted(run.glob("chunk-*.parquet"))
    kind = d[0]
    if kind in ("edit", "unset"):
        p = run / "_manifest.json"
        m = json.loads(p.read_text())
        if kind == "edit":
            values = BAD[d[1]]
            m[d[1]] = values[d[2] % len(values)]
        else:
            m.pop(d[1], None)
        p.write_text(json.dumps(m))
        return kind == "edit" or d[1] not in OPTIONAL
    if d[1] >= len(chunks):
        return False
    c = chunks[d[1]]
    if kind == "delete":
        c.unlink()
    elif kind == "truncate":
        data = c.read_bytes()
        c.write_bytes(data[:int(len(data) * d[2])])
    elif kind == "garbage":
        c.write_bytes(d[2])
    elif kind in ("retype", "drop", "rows"):
        try:
            t = pq.read_table(c)
        except Exception:  # already damaged by an earlier step
            return False
        if kind == "retype" and d[2] in t.column_names:
            i = t.schema.get_field_index(d[2])
            values = t.column(i).to_pylist()
            if pa.types.is_string(t.schema.field(i).type) or pa.types.is_large_string(t.schema.field(i).type):
                col = pa.array([len(v or "") for v in values], pa.int64())
            else:
                col = pa.array([None if v is None else str(v) for v in values], pa.string())
            t = t.set_column(i, d[2], col)
        elif kind == "drop" and d[2] in t.column_names:
            t = t.drop([d[2]])
        elif kind == "rows":
            t = t.slice(0, max(0, t.num_rows + d[2])) if d[2] < 0 else pa.concat_tables([t, t.slice(0, d[2])])
        pq.write_table(t, c)
    elif kind == "rename":
        if isinstance(d[2], int) and d[2] >= len(chunks):  # an earlier step took that chunk away
            return False
        target = chunks[d[2]].name if isinstance(d[2], int) else d[2]
        c.rename(run / target)
        return not isinstance(d[2], int) and not target.startswith(".")
    return False


# no shrinking: each example runs three processes, and the failing damages are printed as they are
@settings(max_examples=6, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damages=st.lists(damage, min_size=1, max_size=3))
def test_a_damaged_run_is_reported_or_repaired_never_an_internal_error(finished, golfsolve, tmp_path_factory,
                                                                       damages):
    run = Path(shutil.copytree(finished, tmp_path_factory.mktemp("damaged") / "run"))
    may_refuse = any([_apply(run, d) for d in damages])
    reference = _table(finished)
    for args in (["report", str(run), "--json"], ["stats", "--out", str(run), "--resume", "-q"]):
        code, err, rss = golfsolve(*args)
        assert code in (0, 2), (damages, args, code, err)
        assert "internal error" not in err and "Traceback" not in err, (damages, args, err)
        if code == 2:
            assert len(err.strip().splitlines()) == 1, (damages, args, err)
        assert rss < MAX_RSS_KB, (damages, args, rss)
    # a damaged chunk is always repaired; a damaged manifest or a stray file may be refused
    assert code == 0 or may_refuse, (damages, err)
    if code == 0:
        pd.testing.assert_frame_equal(_table(run), reference)
        code, err, _ = golfsolve("report", str(run), "--json")
        assert code == 0, (damages, err)
