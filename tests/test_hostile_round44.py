"""Round 44: things happening at the same time.

The web server under parallel clients, the library from several threads, and two commands
on one run folder. Each test is a flaw found and fixed ("was: ..."), or the strongest check
of a part that held, kept where a lock or an isolation removed would make it fail.
Interleavings are forced with events and barriers, never with timings.
"""

from __future__ import annotations

import fcntl
import threading

import pytest

from golfsolve.errors import InputError
from golfsolve.stats.runfolder import RunKey, open_run


# -- two commands on one run folder ---------------------------------------------------------
def test_a_refused_command_removing_the_lock_file_lets_no_two_commands_write_one_folder(tmp_path, monkeypatch):
    """was: a command refused on a folder that holds no run (``--resume`` on an empty one)
    removes the lock file it made; a command that had opened that file just before took its
    lock on the removed file, and a third one then locked the new file and wrote the same
    folder at the same time as the second (two writers of one run)."""
    out = tmp_path / "run"
    out.mkdir()
    key = RunKey("golfsolve-stats/1", 0, 4, ("easy",), 2)
    real_flock = fcntl.flock
    opened, go = threading.Event(), threading.Event()

    def flock_after_the_refusal(fd, op):
        # the second command: its lock file is open, its flock waits for the refusal to happen
        if threading.current_thread().name == "second" and not go.is_set():
            opened.set()
            assert go.wait(60)
        return real_flock(fd, op)

    monkeypatch.setattr(fcntl, "flock", flock_after_the_refusal)
    second = {}

    def start_second():
        try:
            second["folder"] = open_run(out, key)
        except InputError as e:
            second["folder"] = e

    t = threading.Thread(target=start_second, name="second")
    t.start()
    try:
        assert opened.wait(60)
        with pytest.raises(InputError, match="no golfsolve run to resume"):
            open_run(out, key, resume=True)  # the first: refused, its lock file removed
    finally:
        go.set()
        t.join(60)
    folder = second["folder"]
    assert not isinstance(folder, Exception), folder
    try:
        with pytest.raises(InputError, match="being written by another golfsolve command"):
            open_run(out, key, resume=True).close()  # the third, while the second writes
    finally:
        folder.close()
    open_run(out, key, resume=True).close()  # and once the second is done, it may
