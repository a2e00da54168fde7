"""What ``golfsolve serve`` writes to its terminal about requests it cannot read.

uvicorn warns once per request that is not HTTP at all (an HTTPS client on the HTTP port,
a port scanner, garbage bytes): a burst of them would fill the terminal with one identical
line each and push real errors out of sight. :class:`QuietBadRequests` lets one such line
through a minute, with the count of the ones it held back; errors pass untouched.
"""

from __future__ import annotations

import logging
import time
from typing import Callable

#: uvicorn's warnings about what a client sent, not about the server
BAD_REQUEST = ("Invalid HTTP request received.", "Unsupported upgrade request.")
#: uvicorn's advice after an upgrade request: the API has no WebSocket endpoint, so the library would change nothing
NO_WEBSOCKETS = "No supported WebSocket library detected."


class QuietBadRequests(logging.Filter):
    """A filter for the ``uvicorn.error`` logger: at most one bad-request warning per
    ``interval`` seconds, saying how many came since the last one shown."""

    def __init__(self, interval: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self.clock = clock
        self.shown_at: float | None = None
        self.held = 0

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if message.startswith(NO_WEBSOCKETS):
            return False
        if record.levelno >= logging.ERROR or not message.startswith(BAD_REQUEST):
            return True
        now = self.clock()
        if self.shown_at is not None and now - self.shown_at < self.interval:
            self.held += 1
            return False
        note = None
        if self.shown_at is None:
            note = f"bad requests are shown at most once every {self.interval:.0f} s, with a count"
        elif self.held:
            note = f"and {self.held:,} more bad request{'' if self.held == 1 else 's'} in the last {now - self.shown_at:.0f} s"
        if note:
            record.msg, record.args = f"{message.rstrip('.')} ({note})", ()
        self.shown_at, self.held = now, 0
        return True


def quiet_bad_requests(interval: float = 60.0) -> QuietBadRequests:
    """Install :class:`QuietBadRequests` on uvicorn's logger (after uvicorn configured its logging)."""
    f = QuietBadRequests(interval)
    logging.getLogger("uvicorn.error").addFilter(f)
    return f
