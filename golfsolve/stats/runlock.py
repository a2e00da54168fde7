"""A run folder's advisory lock: the one command writing a run folder holds it.

The lock is ``flock`` on the hidden file :data:`~.runlayout.LOCK` in the folder, which holds
the process id of its holder, so a command refused names who is writing. The lock is
shared with the run's forked workers, and a run killed outright (``kill -9``) leaves it to
them while they go down: a new command waits a few seconds for them (:data:`LEFTOVER_WAIT`)
instead of refusing a run that is no longer being written.
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path
from typing import Optional

from ..errors import InputError
from .runlayout import LOCK

#: seconds a new command waits for the workers of a run killed outright to exit
LEFTOVER_WAIT = 10.0


def _gone(pid: str) -> bool:
    """Whether ``pid`` (as the lock file holds it) names no running process."""
    if not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # someone else's process: it exists
        return False
    return False


def _still_the_lock_file(fd: int, lock: Path) -> bool:
    """Whether the open ``fd`` is still the file named ``lock`` (not one removed meanwhile)."""
    try:
        now = os.stat(lock, follow_symlinks=False)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (mine.st_dev, mine.st_ino) == (now.st_dev, now.st_ino)


def _open_lock_file(path: Path, flags: int) -> Optional[int]:
    """The lock file of the run folder ``path`` opened with ``flags`` (never through a link),
    or None when what has its name is not a regular file. O_NONBLOCK: a FIFO there made the
    open for reading wait for a writer for ever (grid report hung), and one opened for writing
    was taken as the lock, then failed to be written as "cannot go on: Invalid argument"."""
    fd = os.open(path / LOCK, flags | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0), 0o644)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return fd


def lock_folder(path: Path) -> Optional[int]:
    """Take the run folder's advisory lock (a file descriptor to keep open), or raise
    :class:`InputError` naming the process that holds it. None where there are no locks."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no advisory locks
        return None
    # The lock is shared with the run's forked workers. When the run was killed outright
    # (kill -9), the process named in the file is gone and its workers are still going down
    # with it (PR_SET_PDEATHSIG): a --resume typed at once waits for them, a few seconds at most.
    deadline = None
    while True:
        try:
            fd = _open_lock_file(path, os.O_RDWR | os.O_CREAT)
        except OSError as e:
            raise InputError(f"cannot lock {path / LOCK}: {e.strerror or e}; remove it if it is not a file") from None
        if fd is None:
            raise InputError(f"cannot lock {path / LOCK}: it is not a file; remove it, then run this command again")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if _still_the_lock_file(fd, path / LOCK):
                break
            # a refused command removed the file between our open and our flock: a lock on it
            # would exclude nobody who opens the file now there, so take that one's instead
            os.close(fd)
            continue
        except OSError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            if not _gone(holder):
                os.close(fd)
                raise InputError(f"{path} is being written by another golfsolve command (process "
                                 f"{holder or 'unknown'}); wait for it to finish (or stop it), then run this "
                                 "command again") from None
            deadline = deadline or time.monotonic() + LEFTOVER_WAIT
            if time.monotonic() > deadline:
                os.close(fd)
                raise InputError(f"{path} is still locked by processes that process {holder} started, though "
                                 "it has ended; stop them, then run this command again") from None
            os.close(fd)
            time.sleep(0.05)
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode("ascii"), 0)
    return fd


#: What a report of a run another command is playing says instead of "--resume finishes it"
#: (that --resume would be refused: the folder is locked).
BEING_WRITTEN = "another golfsolve command is playing it now; report again once it ends"


def being_written(path: Path) -> bool:
    """Whether a live command holds the lock of the run folder ``path`` now: a report of it is
    of a run still going, which a --resume would be refused. Nothing is created: a folder
    without the lock file (never written, or read-only) is being written by no one."""
    try:
        import fcntl
    except ImportError:
        return False
    try:
        fd = _open_lock_file(path, os.O_RDONLY)
    except OSError:
        return False
    if fd is None:  # no lock a writer could hold (lock_folder refuses it)
        return False
    try:
        # a shared lock, let go at once: a writer starting meanwhile finds the holder named in
        # the file gone and retries (lock_folder), rather than being refused
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


__all__ = ["BEING_WRITTEN", "LEFTOVER_WAIT", "being_written", "lock_folder"]
