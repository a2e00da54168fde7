"""``golfsolve serve``: the CLI's ``--json`` answers over HTTP, and a web page to play a deal.

Every endpoint takes its parameters from the query string (GET) or a JSON object (POST)
and names the deal with exactly one of ``code`` (a GO1 deal code), ``pysol`` (a PySol FC
deal number) or ``layout`` (a layout's text, golfsolve's format or a black-hole-solve
board; never a path), plus an optional ``rules``:

============  =====================================================  ===========================
endpoint      answer                                                 options
============  =====================================================  ===========================
/api/deal     ``golfsolve deal --json``
/api/solve    ``golfsolve solve --json``                              verdict_only, node_limit
/api/hint     ``golfsolve hint --json`` (``fair``: ``--fair``)        moves, fair, player, seed,
                                                                     node_limit
/api/odds     ``golfsolve odds --json``                               moves, samples, games, seed,
                                                                     player
/api/rate     ``golfsolve rate --json`` (a list of one)               games, seed, player
/api/play     the game after ``moves`` and one more ``action``        moves, action, tap ("col,row")
============  =====================================================  ===========================

Bad input is HTTP 400 with ``{"error": "..."}`` and the library's message; a question
with no exact answer (a stock of unknown order) 422; a body over 64 KB 413; a request
that uses up its CPU budget 503 (its worker is replaced). Searches run in a pool of
worker processes (:mod:`golfsolve.serve.pool`), so the event loop only parses, checks
and answers the cheap questions itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
from pathlib import Path
from typing import Any, Optional
from urllib.parse import unquote_plus

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import MAX_DIGITS, MAX_EFFORT, MAX_INT64, InputError, check_count, clip
from ..inputs import flag, is_whole_number, split_items
from ..solitaire.answers import deal_answer, play_answer
from ..solitaire.engine import parse_moves
from ..solitaire.hint import position_after
from ..solitaire.layout import (PYSOL_MAX, Layout, LayoutError, layout_from_code, layout_from_pysol,
                                parse_layout_text)
from ..solitaire.rules import EASY, Rules, get_rules
from ..stats.runkind import stamped
from .pool import CPU_BUDGET, STOPPING, BudgetExceeded, JobError, PoolBusy, PoolStopping, WorkerPool

#: The largest request body taken in (a layout is a few hundred bytes).
MAX_BODY = 64 * 1024
#: The longest move list one request may replay (a game with undos is a few hundred moves).
MAX_MOVES = 5_000
#: The deepest a JSON body may nest (its parameters are a flat object: 2 is a list given for one).
#: Python's own parser stops at its recursion limit, which its versions set far apart (a
#: value 3,000 deep fails on 3.10-3.12, parses on 3.13): this limit is the same on all.
MAX_NESTING = 32
#: Seconds a client turned away as busy is told to wait before it asks again (Retry-After).
RETRY_AFTER = 2
STATIC = Path(__file__).parent / "static"

# every parameter an endpoint knows; anything else is refused, as click refuses an unknown option
_SOURCE = {"code", "pysol", "layout", "rules"}
PARAMS = {
    "deal": _SOURCE,
    "solve": _SOURCE | {"verdict_only", "node_limit"},
    "hint": _SOURCE | {"moves", "fair", "player", "seed", "node_limit"},
    "odds": _SOURCE | {"moves", "samples", "games", "seed", "player"},
    "rate": _SOURCE | {"games", "seed", "player"},
    "play": _SOURCE | {"moves", "action", "tap"},
}


class _BodyTooLarge(Exception):
    pass


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is refused with 413, whether it
    says its length or streams (chunked), before the application reads it whole."""

    def __init__(self, app, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or len(value) > 12 or int(value) > self.limit):
                return await self._refuse(send)
        seen = 0
        started = False

        async def limited_receive():
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.limit:
                    raise _BodyTooLarge
            return msg

        async def tracking_send(msg):
            nonlocal started
            started = started or msg["type"] == "http.response.start"
            await send(msg)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _BodyTooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send) -> None:
        body = json.dumps({"error": f"the request body is larger than {self.limit // 1024} KB; "
                                    "a layout is a few lines of cards"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


class WholeFiles(StaticFiles):
    """The page's files, each sent whole: a Range header is ignored, as HTTP allows. Starlette
    answered a malformed or unsatisfiable one in plain text (400 "Range header: range must be
    requested", an empty 416), where every error is JSON; a few small files need no ranges."""

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            scope = {**scope, "headers": [(k, v) for k, v in scope["headers"] if k != b"range"]}
        await super().__call__(scope, receive, send)


class SecurityHeaders:
    """ASGI middleware: the page loads nothing from elsewhere and is not framed."""

    HEADERS = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
               (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
               (b"referrer-policy", b"no-referrer")]

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(msg):
            if msg["type"] == "http.response.start":
                msg = {**msg, "headers": list(msg.get("headers", [])) + self.HEADERS}
            await send(msg)

        await self.app(scope, receive, with_headers)


# ---------------------------------------------------------------------------
# parameters
# ---------------------------------------------------------------------------
def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # a key given twice is refused, as a query string's is (json.loads would keep the last)
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InputError(f"parameter {clip(key)} is given twice")
        out[key] = value
    return out


_TOO_DEEP = "the request body is nested too deeply; parameters are a flat JSON object"
#: A form's body, name=value&...: what ``curl -d code=...`` sends
_FORM = re.compile(r"[A-Za-z_][\w%.+-]*=[^&{}\[\]\"]*(&[A-Za-z_][\w%.+-]*=[^&{}\[\]\"]*)*")


def _deeper_than(value: Any, limit: int) -> bool:
    """Does the parsed JSON ``value`` nest deeper than ``limit`` (a scalar is 0 deep)? A loop,
    not a recursion, whatever the depth."""
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        inner = v.values() if isinstance(v, dict) else v if isinstance(v, list) else None
        if inner is None:
            continue
        if depth > limit:
            return True
        stack.extend((x, depth + 1) for x in inner)
    return False


async def _params(request: Request, endpoint: str) -> dict[str, Any]:
    if request.method == "POST":
        if request.url.query:
            # answered from the body alone, ?fair=true would be dropped without a word
            raise InputError(f"a POST takes its parameters from its JSON body, not from the query string "
                             f"({clip(request.url.query)}); move them into the body, or use GET")
        raw = await request.body()
        encoding = request.headers.get("content-encoding", "identity").strip().lower()
        if encoding not in ("", "identity"):
            raise InputError(f"the request body is compressed ({clip(encoding)}); send the JSON as it is")
        if not raw.strip():
            params: dict[str, Any] = {}
        else:
            try:
                params = json.loads(raw.decode("utf-8-sig"), object_pairs_hook=_once_each)  # a BOM, as in a layout file
            except UnicodeDecodeError:
                raise InputError("the request body is not UTF-8 text") from None
            except json.JSONDecodeError as e:
                if _FORM.fullmatch(raw.decode("utf-8-sig").strip()):  # curl -d code=... sends a form
                    raise InputError(f"the request body is a form ({clip(raw.decode('utf-8-sig').strip())}), not JSON: "
                                     "post a JSON object, e.g. {\"code\": \"GO1-E-AAAAAAB\"}, or give the "
                                     "parameters in a GET's query string") from None
                raise InputError(f"the request body is not JSON: {e.msg} at line {e.lineno}, column {e.colno}") \
                    from None
            except InputError:  # a key given twice (_once_each): its own message, not the one below
                raise
            except ValueError:  # json reads numbers with int(), which refuses 4,300 digits: a 500 otherwise
                raise InputError("the request body holds a number of thousands of digits; no parameter takes "
                                 "one") from None
            except RecursionError:  # [[[[...: 64 KB of brackets is deeper than Python's parser goes
                raise InputError(_TOO_DEEP) from None
            if _deeper_than(params, MAX_NESTING):
                raise InputError(_TOO_DEEP)
            if not isinstance(params, dict):
                raise InputError("the request body must be a JSON object of parameters, e.g. {\"code\": \"GO1-E-AAAAAAB\"}")
    else:
        if (await request.body()).strip():
            # answered from the query string alone, a body's {"fair": true} would be dropped without a word
            raise InputError(f"a {request.method} takes its parameters from the query string, not from a body; "
                             "send the JSON body with POST")
        params = {}
        for key, value in request.query_params.multi_items():
            if key in params:
                raise InputError(f"parameter {key!r} is given twice")
            params[key] = value
        _check_plus_in_rules(request.url.query, params)
    unknown = sorted(set(params) - PARAMS[endpoint])
    if unknown:
        raise InputError(f"unknown parameter {clip(unknown[0])} for /api/{endpoint} "
                         f"(it takes {', '.join(sorted(PARAMS[endpoint]))})")
    return params


def _check_plus_in_rules(query: str, params: dict) -> None:
    # a query string reads '+' as a space, so rules=classic+jokers1 arrives as "classic jokers1":
    # refused as "unknown rule set 'classic jokers1'", a name the user never typed
    value = params.get("rules")
    if not isinstance(value, str) or " " not in value:
        return
    if not any(unquote_plus(k) == "rules" and "+" in v for k, _, v in (p.partition("=") for p in query.split("&"))):
        return
    try:
        get_rules(value)
    except InputError:
        raise InputError(f"rules {clip(value)} is not a rule set: in a query string '+' stands for a space, so "
                         "write the '+' before a switch as %2B (rules=classic%2Bjokers1), or POST the parameters "
                         "as JSON") from None


def _text(params: dict, name: str, limit: int = MAX_BODY) -> Optional[str]:
    v = params.get(name)
    if v is None:
        return None
    if not isinstance(v, str):
        raise InputError(f"{name} must be text, not {type(v).__name__}")
    if "\x00" in v:
        raise InputError(f"{name} is not text (it holds NUL characters)")
    if len(v) > limit:
        raise InputError(f"{name} is longer than {limit:,} characters")
    return v


def _whole(params: dict, name: str) -> Optional[int]:
    v = params.get(name)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise InputError(f"{name} must be a whole number, not {clip(str(v))}")
    if isinstance(v, str):
        s = v.strip()
        sign, body = (s[0], s[1:]) if s[:1] in ("+", "-") else ("", s)
        if not (body.isascii() and body.isdigit()):  # one sign at most: "+-5" failed in int() as a ValueError
            raise InputError(f"{name} must be a whole number, not {clip(v)}")
        digits = body.lstrip("0") or "0"
        if len(digits) > MAX_DIGITS:  # int() refuses 4,300; no parameter takes 41
            raise InputError(f"{name} is a number of {len(digits):,} digits; no parameter takes more than "
                             f"{MAX_DIGITS}")
        v = int(sign + digits)  # without the leading zeros, which int() counts towards its limit too
    return v


def _int(params: dict, name: str, default: int, low: int, high: int) -> int:
    v = _whole(params, name)
    return default if v is None else check_count(v, name, low, high)


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _bool(params: dict, name: str) -> bool:
    # "?fair" with no value (or a JSON null) is refused, not read as false: it would answer a
    # peeking hint to someone who asked for a fair one
    v = params.get(name)
    if isinstance(v, bool) or name not in params:
        return bool(v)
    if isinstance(v, str) and v.strip().lower() in _TRUE | _FALSE:
        return v.strip().lower() in _TRUE
    given = ("null" if v is None else f"the number {str(v)[:40]}" if isinstance(v, (int, float))
             else clip(str(v)))
    raise InputError(f"{name} must be true or false, not {given}")


def _player(params: dict, default: str = "fast") -> str:
    # the fair player's preset by name, checked here so a bad name is a 400 before any work
    from ..fair import player_settings

    name = _text(params, "player", 40)
    if name is None:
        return default
    return player_settings(name).preset  # "player=" is refused with the names, not read as the default


def layout_of(params: dict) -> Layout:
    """The one deal a request names, checked: ``code``, ``pysol`` or ``layout`` (text), and ``rules``."""
    code, text, rules_spec = _text(params, "code", 200), _text(params, "layout"), _text(params, "rules", 200)
    pysol = params.get("pysol")
    given = [name for name, v in (("code", code), ("pysol", pysol), ("layout", text)) if v is not None]
    if len(given) != 1:
        raise LayoutError("give exactly one of code (a deal code), pysol (a PySol deal number) or layout "
                          "(a layout's text)" + (f", not {' and '.join(given)}" if given else ""))
    rules = get_rules(rules_spec) if rules_spec is not None else None
    if code is not None:
        lay = layout_from_code(code, rules)
    elif text is not None:
        try:
            return _under(parse_layout_text(text, "posted layout", rules), rules)
        except LayoutError as e:
            # "line 3 (column 1): unknown card 'XX'" named no parameter; the command names its file there
            raise LayoutError(f"layout: {e}") from None
    else:
        digits = pysol.strip().lstrip("+").lstrip("0") if isinstance(pysol, str) else ""
        if len(digits) > MAX_DIGITS and digits.isascii() and digits.isdigit():
            # out of range, as --pysol says: _whole would call it no whole number, which it is
            raise LayoutError(f"PySol deal numbers are 1 to {PYSOL_MAX}, not a number of {len(digits):,} digits")
        number = _whole(params, "pysol")
        if rules is not None and rules.jokers:  # the library's refusal names --rules and a layout file
            raise LayoutError(f"PySol FC's Golf deals have no jokers: rules {rules.name} needs code (a deal code) "
                              "or layout (a layout's text)")
        lay = layout_from_pysol(number, rules)  # the library checks the range, as for --pysol
    return _under(lay, rules)


def _under(lay: Layout, rules: Optional[Rules]) -> Layout:
    # the rules asked for, else the deal's own, else Easy
    if rules is not None:
        return lay.with_rules(rules)
    return lay if lay.rules is not None else lay.with_rules(EASY)


def _moves(params: dict) -> str:
    text = _text(params, "moves") or ""
    if sum(1 for ch in text if ch.isalnum()) > MAX_MOVES:
        raise InputError(f"moves: at most {MAX_MOVES:,} moves")
    return text


def _played_moves(params: dict, lay: Layout) -> str:
    """``moves``, read and replayed here: a bad or illegal move is refused at once, not after
    the request has waited its turn for a worker behind other requests' searches."""
    text = _moves(params)
    position_after(lay, parse_moves(text), lay.rules)
    return text


def _tap(params: dict) -> Optional[tuple[int, int]]:
    text = _text(params, "tap", 20)
    if text is None:
        return None
    # "3,5" or "3 5"; "3,,5" is refused as every list is, never read as "3,5"
    parts = split_items(text, "tap", "number")
    if len(parts) == 1:
        parts = parts[0].split()
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
        raise InputError(f"tap must be 'COLUMN,ROW', e.g. '3,5', not {clip(text)}")
    return int(parts[0]), int(parts[1])


# ---------------------------------------------------------------------------
# the application
# ---------------------------------------------------------------------------
class _ClientGone(Exception):
    pass


async def _client_gone(request: Request) -> None:
    """Returns when the client has gone (its request's body already read)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _while_connected(request: Request, work: Any) -> Any:
    """``work``'s result, unless the client goes first (:class:`_ClientGone`): a request still
    waiting for a worker is then dropped, not run for nobody while those behind it wait; a job
    begun runs on to its end (:meth:`WorkerPool.run` shields it) and its worker goes back."""
    task = asyncio.ensure_future(work)
    task.add_done_callback(lambda t: t.cancelled() or t.exception())  # an end nobody awaits is not logged
    gone = asyncio.ensure_future(_client_gone(request))
    try:
        done, _ = await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    except BaseException:
        task.cancel()
        raise
    finally:
        gone.cancel()
    if task in done:
        return task.result()
    task.cancel()
    raise _ClientGone


def _warm_dealing() -> None:
    for params in ({"code": "GO1-E-AAAAAAB"}, {"pysol": 1}):
        deal_answer(layout_of(params))


def _answered(answer: Any) -> JSONResponse:
    """An answer as the CLI's ``--json`` prints it: stamped with the version and rules that made it."""
    return JSONResponse(stamped(answer))


def _error(status: int, message: str, headers: Optional[dict] = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


#: An origin as a browser sends it: scheme, host and port only.
ORIGIN = re.compile(r"https?://[^\s/?#]+")


def _check_options(workers: object, cpu_budget: object, cors: object, warm: object) -> None:
    # what the command refuses, a caller of the library meets too: workers=1000 would start a
    # thousand processes, 0 or 2.5 one per core, a budget of -1 or NaN stop every request or none,
    # cors='x' match no browser's origin, warm='no' be a true value
    from ..stats.pool import MAX_WORKERS

    if workers is not None and not (is_whole_number(workers) and 1 <= workers <= MAX_WORKERS):
        raise InputError(f"workers must be from 1 to {MAX_WORKERS}, or None for one per core; not {workers!r}")
    if isinstance(cpu_budget, bool) or not isinstance(cpu_budget, (int, float)) or not 0.1 <= cpu_budget <= 3600:
        raise InputError(f"cpu_budget must be from 0.1 to 3600 seconds, not {cpu_budget!r}")
    if cors is not None and not (isinstance(cors, str) and ORIGIN.fullmatch(cors)):
        raise InputError(f"cors {clip(str(cors))} is not an origin: give scheme, host and port only, "
                         "e.g. http://localhost:3000")
    flag(warm, "warm")


def _cors_middleware(paths: frozenset) -> type:
    """Starlette's CORS middleware, its refused preflight answered as every error is: JSON
    naming what was refused, not the plain text "Disallowed CORS origin"; a preflight for a
    path that is none of ``paths`` goes on to the routes (a 404), not approved for nothing."""
    from starlette.middleware.cors import CORSMiddleware

    class Cors(CORSMiddleware):
        async def __call__(self, scope, receive, send) -> None:
            if scope["type"] == "http" and scope["method"] == "OPTIONS" and scope["path"] not in paths:
                await self.app(scope, receive, send)
                return
            await super().__call__(scope, receive, send)

        def preflight_response(self, request_headers) -> Response:
            r = super().preflight_response(request_headers)
            if r.status_code == 200:
                return r
            refused = bytes(r.body).decode().removeprefix("Disallowed CORS ").split(", ")
            why = []
            if "origin" in refused:
                why.append(f"pages from {clip(request_headers['origin'])} may not call this server (its --cors "
                           f"allows {', '.join(self.allow_origins)} only)")
            if "method" in refused:
                why.append(f"method {clip(request_headers['access-control-request-method'])} is not GET or POST")
            if "headers" in refused:
                why.append(f"headers {clip(request_headers.get('access-control-request-headers', ''))} are not "
                           "allowed (only content-type)")
            if "private-network" in refused:
                why.append("requests from a public page to this private network are not allowed")
            headers = {k: v for k, v in r.headers.items() if k not in ("content-type", "content-length")}
            return _error(400, "cross-origin request refused: " + "; ".join(why), headers)

    return Cors


def create_app(workers: Optional[int] = None, cpu_budget: float = CPU_BUDGET, cors: Optional[str] = None,
               warm: bool = True) -> Starlette:
    """The server as an ASGI application; its lifespan starts (and warms) ``workers``
    worker processes (default: one per core) and stops them. ``cors``: one origin allowed
    to call the API from its pages (none by default). Each is checked as ``golfsolve serve``
    checks its options, before any worker starts."""
    _check_options(workers, cpu_budget, cors, warm)
    pool = WorkerPool(workers or os.cpu_count() or 1, cpu_budget=cpu_budget, warm=bool(warm))

    async def answer(endpoint: str, request: Request) -> Response:
        try:
            params = await _params(request, endpoint)
            lay = layout_of(params)
            if endpoint == "deal":
                return _answered(deal_answer(lay))
            if endpoint == "play":
                return _answered(play_answer(lay, _moves(params), _text(params, "action", 20), _tap(params)))
            node_limit = _int(params, "node_limit", 0, 0, MAX_INT64)
            seed = _int(params, "seed", 0, 0, 2**64 - 1)
            if endpoint == "solve":
                job = ("solve", {"node_limit": node_limit, "verdict_only": _bool(params, "verdict_only")})
            elif endpoint == "hint":
                moves = _played_moves(params, lay)
                fair = _bool(params, "fair")
                if not fair and (params.get("player") is not None or params.get("seed") is not None):
                    raise InputError("player and seed choose the fair player of fair=true; add fair=true, or leave "
                                     "them out")
                if fair and params.get("node_limit") is not None:
                    raise InputError("node_limit bounds the peeking hint's search; fair=true has none, so leave it out")
                if fair:
                    job = ("fair_hint", {"moves": moves, "seed": seed, "player": _player(params, "strong")})
                else:
                    job = ("hint", {"moves": moves, "node_limit": node_limit})
            elif endpoint == "odds":
                job = ("odds", {"moves": _played_moves(params, lay),
                                "samples": _int(params, "samples", 200, 1, MAX_EFFORT), "seed": seed,
                                "games": None if params.get("games") is None else _int(params, "games", 0, 0, MAX_EFFORT),
                                "player": _player(params)})
            else:
                job = ("rate", {"games": _int(params, "games", 16, 1, MAX_EFFORT), "seed": seed,
                                "player": _player(params)})
                from ..fair.difficulty import require_real_stock

                require_real_stock(lay, lay.rules)  # here, not in a worker once its turn comes
            return _answered(await _while_connected(request, pool.run(job[0], layout=lay, **job[1])))
        except InputError as e:
            return _error(400, " ".join(str(e).split()))
        except JobError as e:
            return _error(e.status, e.message)
        except BudgetExceeded as e:
            return _error(503, str(e))
        except PoolBusy as e:  # the same request a little later may well be served
            return _error(503, str(e), {"Retry-After": str(RETRY_AFTER)})
        except PoolStopping as e:
            return _error(503, str(e), {"Connection": "close"})
        except asyncio.CancelledError:
            # the server cancels what is still running when it stops (uvicorn after its graceful
            # wait): a JSON 503, not uvicorn's plain-text 500 and a traceback in its terminal
            task = asyncio.current_task()
            if task is not None and hasattr(task, "uncancel"):
                task.uncancel()
            return _error(503, STOPPING, {"Connection": "close"})
        except ClientDisconnect:  # gone half-way through its body: nobody reads this, and nothing to log
            return _error(400, "the request body was cut off")
        except _ClientGone:  # nobody reads this either
            return _error(400, "the client went away before its answer")

    def endpoint(name: str):
        async def handle(request: Request) -> Response:
            return await answer(name, request)
        route = Route(f"/api/{name}", handle, methods=["GET", "POST"], name=name)
        # Starlette adds HEAD to a GET route: a HEAD ran the whole search and sent no answer
        route.methods.discard("HEAD")
        return route

    async def health(request: Request) -> Response:
        if request.query_params:  # refused by name, as every endpoint does, not dropped without a word
            return _error(400, f"unknown parameter {clip(next(iter(request.query_params)))} for /api/health "
                               "(it takes none)")
        pool.reap()  # a worker killed while idle is not listed as live
        return JSONResponse({"ok": True, "workers": pool.pids, "busy": pool.busy, "replaced": pool.replaced})

    async def index(request: Request) -> Response:
        return Response((STATIC / "index.html").read_bytes(), media_type="text/html; charset=utf-8")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        try:
            # the event loop deals codes itself: its dealing kernel is loaded now, not by the first request
            await asyncio.gather(pool.start(), asyncio.to_thread(_warm_dealing))
            app.state.pool = pool
            yield
        finally:  # a start that failed stops the workers that did start, too
            await pool.close()

    middleware = [Middleware(SecurityHeaders)]
    if cors:
        api = frozenset(["/api/health", *(f"/api/{n}" for n in PARAMS)])
        middleware.append(Middleware(_cors_middleware(api), allow_origins=[cors], allow_methods=["GET", "POST"],
                                     allow_headers=["content-type"],
                                     # a page of that origin may read when to ask again after a 503
                                     expose_headers=["Retry-After"]))
    # innermost: its 413 passes the others, which add its CORS and security headers (outermost, without
    # them, the page allowed to call the server could not read why its body was refused)
    middleware.append(Middleware(BodyLimit))
    routes = [Route("/", index), Route("/api/health", health), *(endpoint(n) for n in PARAMS),
              Mount("/static", WholeFiles(directory=STATIC), name="static")]
    async def http_error(request: Request, exc: HTTPException) -> Response:
        # unknown paths and methods answer as every other error does
        # a 405 names the methods of that path (/api/health and / take GET only, not GET and
        # POST), and keeps the Allow header HTTP asks for
        allow = (exc.headers or {}).get("Allow", "")
        methods = sorted(m.strip() for m in allow.split(",") if m.strip() and m.strip() != "HEAD") or ["GET"]
        path = request.url.path
        missing = f"no such page or endpoint: {clip(path)}"
        if path.rstrip("/") in pages and path != "/":
            missing += f"; it is {path.rstrip('/')}, without the '/' at the end"
        what = {404: missing,
                405: f"{request.method} is not allowed on {clip(request.url.path)}; it takes {' and '.join(methods)}"}
        response = _error(exc.status_code, what.get(exc.status_code, str(exc.detail)))
        if allow:
            response.headers["Allow"] = allow
        return response

    pages = {"/api/health", *(f"/api/{n}" for n in PARAMS)}
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error})
    # /api/solve/ is a 404 that names /api/solve, not a 307 to it: curl prints the redirect's empty
    # body and exits 0 (no answer, no error), and the redirect's host is the one the client sent
    app.router.redirect_slashes = False
    return app
