"""How long a request may take to arrive, and how large its head may be, before the server
gives up on it.

uvicorn waits for a request as long as its client likes and keeps every header line it is
sent: a client that sends half a request and waits holds its connection (and, mid-body, a
request handler) for ever, and one that sends header lines without end grows the server's
memory without end. And it parses every request a client pipelines (sends on one
connection before reading the answers) as it arrives, queueing each behind the one being
answered, and reads on after every answer: a client that sends tiny requests without
reading its answers grew the server by about 100 MB a second. :func:`guarded_protocol` is
uvicorn's HTTP protocol with a deadline for each request to arrive whole (head and body; the
answer may then take as long as its CPU budget allows), a ceiling on the size of its head,
each answered as every error is, with a one-line JSON error, and the connection closed;
and at most :data:`MAX_QUEUED` pipelined requests read ahead of their answers.
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
#: Pipelined requests one connection may have read and queued behind the one being answered;
#: what it sends after them stays unread (in the operating system's buffers) until they are.
MAX_QUEUED = 8
#: Bytes parsed at a time: one read of 256 KB of tiny requests would otherwise queue thousands at once.
SLICE = 1024
#: The answer to bytes that are not an HTTP request (uvicorn's own is plain text).
NOT_HTTP = ("the request is not valid HTTP/1.1 (its request line, a header or its body's length or chunks); "
            "the API takes GET with a query string or POST with a JSON body")


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
            self._held = b""  # bytes read past MAX_QUEUED pipelined requests, parsed as those are answered
            self._cycles = []  # the requests read and not yet answered, the one being answered first
            self._arm()

        def connection_lost(self, exc) -> None:
            self._disarm()
            # uvicorn tells only the last request read that its client is gone: one answered
            # while later ones wait (pipelined) then wrote to the closed connection, an "Exception
            # in ASGI application" and a traceback in the terminal
            for cycle in self._cycles:
                if not cycle.response_complete:
                    cycle.disconnected = True
                    cycle.message_event.set()
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
            if self._held:  # a read that came as reading was paused, or after uvicorn resumed it
                self._held += data
                self.flow.pause_reading()
                return
            self._feed(data)

        def _feed(self, data: bytes) -> None:
            for start in range(0, len(data), SLICE):
                if len(self.pipeline) >= MAX_QUEUED:
                    self._held = data[start:]
                    self.flow.pause_reading()
                    return
                self._parse(data[start:start + SLICE])
                if self._refused or self.transport.is_closing():
                    return

        def on_response_complete(self) -> None:
            super().on_response_complete()  # starts the next queued request, and resumes reading
            if not self._held or self.transport.is_closing():
                return
            if len(self.pipeline) >= MAX_QUEUED:  # still full: nothing more is read yet
                self.flow.pause_reading()
                return
            held, self._held = self._held, b""
            self._feed(held)

        def send_400_response(self, msg: str) -> None:
            # uvicorn's answer to bytes it cannot parse is plain text: here it is JSON, as every error is
            self.transport.write(_answer(400, "Bad Request", NOT_HTTP))
            self.transport.close()

        def _parse(self, data: bytes) -> None:
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
            self._cycles = [c for c in self._cycles if not c.response_complete and c is not self.cycle]
            if self.cycle is not None:
                self._cycles.append(self.cycle)

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
