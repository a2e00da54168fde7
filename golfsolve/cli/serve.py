"""The serve command: the JSON API and the web page over HTTP."""

from __future__ import annotations

import contextlib
import logging
import math
import re
import signal
import sys

import click

from ..errors import InputError, clip, install_extra
from .command import Command
from .options import check_workers, jobs_option
from .output import fail


@click.command(cls=Command)
@click.option("--host", default="127.0.0.1", show_default=True, metavar="ADDRESS",
              help="Address to listen on; the default answers this machine only (0.0.0.0: every network).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, metavar="PORT",
              help="Port to listen on (0: any free port).")
@jobs_option("workers", what=" for searches")
@click.option("--cpu-budget", type=click.FloatRange(0.1, 3600), default=None, metavar="SECONDS",
              help="CPU seconds one request may use before it is stopped with HTTP 503 (default 60).")
@click.option("--cors", "cors_origin", default=None, metavar="ORIGIN",
              help="Let pages from ORIGIN (e.g. http://localhost:3000) call the API; none by default.")
def serve(host, port, workers, cpu_budget, cors_origin):
    """Answer deal, solve, hint, odds and rate over HTTP, and serve a page to play a deal.

    The answers are the --json answers of the commands (docs/serve.md lists the
    endpoints, /api/solve?code=... and the others); the page at http://HOST:PORT/ shows
    a deal, its solution step by step, hints and odds, and lets you play it. Kernels
    are loaded and warmed before it says it is ready.

    Example: golfsolve serve --port 8000
    """
    check_workers(workers, "--jobs")
    if cpu_budget is not None and math.isnan(cpu_budget):  # every comparison with nan is false: no budget at all
        raise InputError("--cpu-budget must be from 0.1 to 3600 seconds, not nan")
    if not host.strip():
        raise InputError("--host needs an address, e.g. 127.0.0.1 or 0.0.0.0, not an empty one")
    if re.fullmatch(r"\[[^\[\]]*:[^\[\]]*\]", host):  # an IPv6 address as its own 'ready on' line writes it
        host = host[1:-1]
    if cors_origin is not None and not re.fullmatch(r"https?://[^\s/?#]+", cors_origin):
        # a browser sends its origin as scheme://host[:port]: anything else would never match, silently
        raise InputError(f"--cors {clip(cors_origin)} is not an origin: give scheme, host and port only, "
                         "e.g. http://localhost:3000")
    try:
        import uvicorn

        from ..serve.app import create_app
        from ..serve.guard import guarded_protocol
        from ..serve.pool import CPU_BUDGET, WorkerStartError

        protocol = guarded_protocol()
    except ImportError as e:
        raise InputError(f"golfsolve serve needs the serve extra ({e.name} is missing): "
                         f"{install_extra('serve')}") from None
    sock = _bind(host, port)  # before the workers warm up: a port in use is said at once
    from ..solitaire.solver import warm

    warm()  # here, once, with the notice a first run prints; the workers then load numba's cache
    app = create_app(workers, CPU_BUDGET if cpu_budget is None else cpu_budget, cors_origin)
    failed = []  # why the workers could not start (out of memory, of file descriptors)

    async def asgi(scope, receive, send):
        # Starlette tells uvicorn of a failed start with its traceback, which uvicorn prints
        # whole, then "Application startup failed" and exit 3: here it is one line, exit 1
        async def sending(msg):
            # sent as Starlette handles the exception: the one it handles is the reason
            if msg["type"] == "lifespan.startup.failed" and isinstance(sys.exc_info()[1], WorkerStartError):
                failed.append(sys.exc_info()[1])
                msg = {**msg, "message": ""}
            await send(msg)

        await app(scope, receive, sending if scope["type"] == "lifespan" else send)

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self):
            # uvicorn stops gracefully on SIGINT and SIGTERM only; the SIGHUP of a closed terminal
            # (which every command takes as Ctrl-C) landed in its event loop as a traceback
            hup = getattr(signal, "SIGHUP", None)
            old = None
            if hup is not None and signal.getsignal(hup) is not signal.SIG_IGN:  # under nohup it stops nothing
                old = signal.signal(hup, self.handle_exit)
            try:
                with super().capture_signals():
                    yield
            finally:
                if old is not None:
                    signal.signal(hup, old)
            if old is not None and hup in getattr(self, "_captured_signals", ()):
                signal.raise_signal(hup)  # as uvicorn passes the others on once stopped: "interrupted", 130

        async def startup(self, sockets=None):
            def said(record: logging.LogRecord) -> bool:  # uvicorn's word on a failed start, said below instead
                return not (failed and record.getMessage().startswith("Application startup failed"))

            log = logging.getLogger("uvicorn.error")
            log.addFilter(said)
            try:
                await super().startup(sockets)
            except SystemExit:
                if failed:
                    fail(str(failed[0]), 1)
                raise
            finally:
                log.removeFilter(said)
            if self.started and not self.should_exit:  # Ctrl-C while the workers warmed up: stopping, not ready
                bound = [s.getsockname() for srv in self.servers for s in srv.sockets]
                where = ", ".join(url(h, p) for h, p, *_ in bound) or url(host, port)
                n = len(app.state.pool.pids)
                click.echo(f"golfsolve serve: ready on {where} ({n} worker{'s' * (n != 1)}, warm); "
                           "Ctrl-C stops it", err=True)

        async def shutdown(self, sockets=None):
            # the searches running or waiting are answered (503) at once, so the graceful wait ends
            # with them: uvicorn would cancel them after it, a 500 and a traceback each
            pool = getattr(app.state, "pool", None)
            if pool is not None:
                pool.stop()
            await super().shutdown(sockets)
            if self.force_exit:
                # Ctrl-C twice: uvicorn skips the app's shutdown, whose task, cancelled as the loop
                # ends, printed Starlette's traceback; it stops the workers at once, so it runs
                await self.lifespan.shutdown()

    click.echo("golfsolve serve: starting the workers and warming the kernels...", err=True)
    config = uvicorn.Config(asgi, host=host, port=port, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=5, http=protocol)
    from ..serve.logs import quiet_bad_requests

    quiet_bad_requests()  # after the Config, which sets uvicorn's logging up
    Server(config).run(sockets=[sock])


def url(host: str, port: int) -> str:
    """The page's address on ``host``: an IPv6 address in brackets, as a URL writes it
    (no browser opens "http://::1:8000/")."""
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def _bind(host: str, port: int):
    """A socket bound to ``host:port`` and not yet listening: connections are refused until
    the server is ready (uvicorn listens on it then)."""
    import socket

    try:
        family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                          flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
    except UnicodeError:  # a name no resolver takes (a label over 63 characters): not a host name at all
        raise InputError(f"--host {clip(host)} is not a host name or an address") from None
    except socket.gaierror as e:  # exit 2, not 1 as for a port in use: the name itself is wrong
        raise InputError(f"--host {clip(host)} does not resolve to an address: {e.strerror or e}") from None
    except OSError as e:
        fail(f"cannot listen on {url(host, port)[7:-1]}: {e.strerror or e}", 1)
    return sock
