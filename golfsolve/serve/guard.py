"""How long a request may take to arrive, and how large its head may be, before the server
gives up on it.

uvicorn waits for a request as long as its client likes and keeps every header line it is
sent: a client that sends half a request and waits holds its connection (and, mid-body, a
request handler) for ever, and one that sends header lines without end grows the server's
memory without end. :func:`guarded_protocol` is uvicorn's HTTP protocol with a deadline for
each request to arrive whole (head and body; the answer may then take as long as its CPU
budget allows) and a ceiling on the size of its head, each answered as every error is,
with a one-line JSON error, and the connection closed.
"""

from __future__ import annotations

import json

#: Seconds from a request's first byte (or the connection's opening) until it must have
#: arrived whole: a layout is a few hundred bytes, sent in a blink by any real client.
REQUEST_SECONDS = 30.0
#: The largest request head (request line and headers) taken in; a layout longer than
#: this in a query string is refused too (it can be POSTed as JSON, up to 64 KB).
MAX_HEAD = 64 * 1024
#: Seconds a refused request's connection stays open, its bytes dropped, before it is closed.
LINGER_SECONDS = 2.0


def _answer(status: int, reason: str, message: str) -> bytes:
    body = json.dumps({"error": message}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


def guarded_protocol(seconds: float = REQUEST_SECONDS, max_head: int = MAX_HEAD) -> type:
    """uvicorn's httptools protocol (the serve extra installs httptools) with the deadline
    ``seconds`` and the head ceiling ``max_head`` bytes; pass it as ``uvicorn.Config(http=...)``."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class GuardedHttp(HttpToolsProtocol):
        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._head_bytes = 0
            self._in_head = True
            self._deadline = None
            self._refused = False
            self._arm()

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def data_received(self, data: bytes) -> None:
            if self._refused:  # the rest of a refused request: read and dropped, see _refuse
                return
            if self._in_head:
                end = data.find(b"\r\n\r\n")
                self._head_bytes += len(data) if end < 0 else end + 4
                if self._head_bytes > max_head:
                    self._refuse(431, "Request Header Fields Too Large",
                                 f"the request's head (its URL and headers) is larger than {max_head // 1024} KB; "
                                 "send a long layout as a JSON body with POST")
                    return
            super().data_received(data)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._in_head = True
            self._arm()

        def on_headers_complete(self) -> None:
            self._in_head = False
            self._head_bytes = 0
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._disarm()  # the request is here whole: its answer takes what it takes
            self._in_head = True  # whatever comes next is the next request's head
            super().on_message_complete()

        def _too_slow(self) -> None:
            self._deadline = None
            self._refuse(408, "Request Timeout",
                         f"the request did not arrive whole within {seconds:g} s; send it all at once")

        def _refuse(self, status: int, reason: str, message: str) -> None:
            self._disarm()
            if self.transport.is_closing() or self._refused:
                return
            self._refused = True
            if self._in_head or self.cycle is None or not self.cycle.response_started:
                self.transport.write(_answer(status, reason, message))
            # closed at once, with the client still sending, the socket would be reset and the
            # answer lost on its way: so the rest is read and dropped for a moment first
            if self.transport.can_write_eof():
                self.transport.write_eof()
            if self.cycle is not None and not self.cycle.response_complete:
                # a handler still reading the body sees the client gone (and answers nobody)
                self.cycle.disconnected = True
                self.cycle.message_event.set()
            self.loop.call_later(LINGER_SECONDS, self.transport.close)

    return GuardedHttp
