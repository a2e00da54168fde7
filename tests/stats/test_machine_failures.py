"""Long runs when the machine misbehaves: a disk that fills or fails mid-run, a closed terminal, a
clock stepped back. The run stops saying what is saved, and --resume finishes it."""

from __future__ import annotations

import errno
import os
import signal
from pathlib import Path

import pandas as pd
import pytest

from run_helpers import finished_stats_run


RUN = ["stats", "--count", "6", "--rules", "easy,classic", "--chunk-size", "2", "--jobs", "1", "-q"]


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    return finished_stats_run(tmp_path_factory.mktemp("r47") / "run")


def _table(out: Path) -> pd.DataFrame:
    return (pd.read_parquet(out).drop(columns=["seconds", "cpu_seconds"])
            .sort_values(["deal", "rules"], kind="stable").reset_index(drop=True))


def _one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr and "internal error" not in stderr, stderr
    return lines[0]


@pytest.mark.skipif(not hasattr(signal, 'SIGHUP'), reason='needs POSIX signals')
@pytest.mark.parametrize("code, cause, first", [
    (errno.ENOSPC, "No space left on device", "free some space, then "),
    (errno.EROFS, "Read-only file system", "make the folder writable, then "),
])
def test_a_disk_failing_mid_run_names_the_chunk_what_is_saved_and_resume_finishes(
        finished, tmp_path, run_cli, monkeypatch, code, cause, first):
    """was: ``golfsolve: cannot go on: No space left on device``, naming neither the run
    folder nor the chunks saved nor ``--resume`` (and a folder made read-only named the
    chunk's hidden temporary file, ``.chunk-0000000004.parquet.PID.tmp``)."""
    out = tmp_path / "run"
    real = pd.DataFrame.to_parquet
    calls = []

    def to_parquet(self, f, *a, **k):
        calls.append(1)
        if len(calls) == 3:  # the third chunk: half of it written, then the disk refuses
            f.write(b"PAR1 half a chunk")
            raise OSError(code, cause)
        return real(self, f, *a, **k)

    monkeypatch.setattr(pd.DataFrame, "to_parquet", to_parquet)
    r = run_cli([*RUN, "--out", str(out)])
    monkeypatch.undo()
    assert r.exit_code == 1
    assert _one_line(r.stderr) == (f"golfsolve: cannot go on: {cause} writing {out}/chunk-0000000004.parquet: 2 of 3 "
                                   f"chunks are saved in {out}; {first}run the same command with --resume to finish")
    assert sorted(p.name for p in out.iterdir()) == [".golfsolve.lock", "_manifest.json", "chunk-0000000000.parquet",
                                                     "chunk-0000000002.parquet"]  # nothing half written
    r = run_cli(["stats", "--out", str(out), "--resume", "-q"])
    assert r.exit_code == 0, r.stderr
    pd.testing.assert_frame_equal(_table(out), _table(finished))


@pytest.mark.skipif(not hasattr(signal, 'SIGHUP'), reason='needs POSIX signals')
def test_a_report_cut_short_by_a_full_disk_names_the_file_it_was_writing(finished, tmp_path, run_cli, monkeypatch):
    """was: ``golfsolve: cannot go on: No space left on device``: which of the run, the
    report's folder or the temporary folder was full, the line did not say."""
    from matplotlib.figure import Figure

    def full(self, fname, *a, **k):
        Path(fname).write_bytes(b"\x89PNG half an image")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", full)
    rep = tmp_path / "rep"
    r = run_cli(["report", str(finished), "--out", str(rep)])
    assert r.exit_code == 1
    line = _one_line(r.stderr)
    assert line.startswith(f"golfsolve: cannot go on: No space left on device ({rep}/") and line.endswith(".png)"), line
    assert [p.name for p in rep.iterdir()] == [".golfsolve-report"]  # no half image under the plot's name


@pytest.mark.skipif(not hasattr(signal, 'SIGHUP'), reason='needs POSIX signals')
def test_a_closed_terminal_stops_a_run_as_ctrl_c_does_and_resume_finishes(finished, tmp_path, run_cli, monkeypatch):
    """was: the SIGHUP of a closed terminal (or a dropped ssh session) killed the run
    outright: exit 129, no line, and its invocation never recorded in the manifest."""
    from golfsolve.stats.runfolder import RunFolder, read_manifest

    out = tmp_path / "run"
    real = RunFolder.write

    def write_then_hang_up(self, chunk, df):
        done = real(self, chunk, df)
        os.kill(os.getpid(), signal.SIGHUP)  # the terminal goes once the first chunk is saved
        return done

    monkeypatch.setattr(RunFolder, "write", write_then_hang_up)
    hung_up = []
    old = signal.signal(signal.SIGHUP, lambda *_: hung_up.append(1))  # without the fix the run goes on
    try:
        r = run_cli([*RUN, "--out", str(out)])
    finally:
        assert signal.signal(signal.SIGHUP, old) is not signal.SIG_DFL  # the run put back the handler it found
    monkeypatch.undo()
    assert r.exit_code == 130 and not hung_up
    assert _one_line(r.stderr) == (f"golfsolve: interrupted: 1 of 3 chunks are saved in {out}; run the same command "
                                   "with --resume to finish")
    assert read_manifest(out)["invocations"][-1]["status"] == "interrupted"
    r = run_cli(["stats", "--out", str(out), "--resume", "-q"])
    assert r.exit_code == 0, r.stderr
    pd.testing.assert_frame_equal(_table(out), _table(finished))


def _hangup_ignored(task):
    return signal.getsignal(signal.SIGHUP) == signal.SIG_IGN


@pytest.mark.skipif(not hasattr(signal, 'SIGHUP'), reason='needs POSIX signals')
def test_the_workers_leave_a_closed_terminal_to_their_parent():
    """was: a closed terminal signals the whole process group; the workers died of the SIGHUP
    while their parent was stopping them, so the run could end as "a worker process stopped
    (killed, or out of memory?)" instead of "interrupted". They ignore it, as they ignore
    Ctrl-C: the parent stops them."""
    from golfsolve.stats.pool import compute

    assert [ignored for _, ignored in compute([1, 2], _hangup_ignored, jobs=2)] == [True, True]


@pytest.mark.skipif(not hasattr(signal, 'SIGHUP'), reason='needs POSIX signals')
def test_a_progress_bar_keeps_its_time_when_the_clock_is_stepped_back(monkeypatch, capsys):
    """was: tqdm times the bar by the wall clock: stepped back an hour mid-run (NTP, a virtual
    machine resumed), the bar read ``10/10 [-59:51<00:00, -0.00chunk/s]``."""
    import tqdm.std

    from golfsolve.progress import progress_bar

    wall = [1_000_000.0]
    monkeypatch.setattr(tqdm.std, "time", lambda: wall[0])
    bar = progress_bar(total=10, unit="chunk", show=True, mininterval=0)
    for i in range(10):
        wall[0] += -3600 if i == 3 else 1
        bar.update(1)
    bar.close()
    last = capsys.readouterr().err.replace("\r", "\n").strip().splitlines()[-1]
    assert "10/10 [" in last and "[-" not in last and ", -" not in last, last
