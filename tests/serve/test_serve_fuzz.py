"""Random and hostile requests against the API: whatever arrives, the answer is JSON with a
status the contract allows (never a 500, never a traceback), and an error is one line.

The seeded fuzzer (:func:`test_seeded_api_fuzz`) gives every parameter of every endpoint
(docs/serve.md) hostile values: missing, repeated, empty, huge, negative, floats, NaN, unicode,
very long, JSON of the wrong type or nested, another endpoint's parameters, contradicting pairs,
percent-encoding tricks, deal codes and layouts slightly wrong; by GET and by POST. Each answer
must keep the contract: a 4xx is one JSON line naming what was wrong (no 500, no traceback, no
path of the machine), refused before any worker is asked; a 200 holds docs/formats.md's fields,
the same answer twice, and the CLI's ``--json``; the server answers a good request after every
bad one. (The wide runs, thousands of requests, were made by hand; the test is their fast,
seeded form.)
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from urllib.parse import parse_qsl, quote

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from formats_helpers import FORMATS, field_tables  # noqa: E402
from hostile_helpers import DATA  # noqa: E402
from test_serve_api import _cli_json, _no_timings  # noqa: E402

from golfsolve.serve.app import PARAMS  # noqa: E402

# ``client``: the server's test client, from conftest.py


def mostly(good, bad):
    return st.one_of(good, good, good, bad)


junk = st.one_of(st.text(max_size=12), st.integers(-2**70, 2**70), st.booleans(), st.none(), st.floats(allow_nan=True),
                 st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
codes = mostly(st.builds(lambda r, n: f"GO1-{r}-{n}", st.sampled_from("ECN"),
                         st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=7, max_size=7)),
               st.text(alphabet="GO1-ECNabz7 ", max_size=16))
layouts = st.one_of(
    st.just("discard: AC\nstock: 8S ...\n1: 6C 5S QS TS 6H\n2: 2S KC 4S 2C 8C\n3: TC AH 2D 5D JS\n4: 3D QH AS KD 4C\n"
            "5: JH 3C 7D 8H 9C\n6: TH 4H 7H 7C 8D\n7: 3S 7S 3H 9S 5C\n"),
    st.builds(lambda cards: "1: " + " ".join(cards) + "\ndiscard: AC\nstock: 8S ...\n",
              st.lists(st.sampled_from(["AS", "TS", "10♠", "JK", "XX", "KH", "?"]), max_size=6)),
    st.text(max_size=60),
)
sources = st.one_of(st.builds(lambda c: {"code": c}, codes),
                    st.builds(lambda n: {"pysol": n}, mostly(st.integers(1, 10**6), junk)),
                    st.builds(lambda t: {"layout": t}, layouts),
                    st.builds(dict, code=codes, pysol=st.integers(1, 9)),
                    st.just({}))
small = mostly(st.integers(0, 3), junk)


def _costly(v) -> bool:
    """A count odds or rate would take, as a number or its digits, and spend minutes on: not
    what this test is about (was: junk drew samples=175892, and the request met its CPU
    budget, a 503)."""
    if isinstance(v, str) and v.strip().isascii() and v.strip().lstrip("+-").isdigit():
        v = int(v.strip())
    return isinstance(v, int) and not isinstance(v, bool) and 3 < v <= 10**6


cheap_junk = junk.filter(lambda v: not _costly(v))


@st.composite
def requests(draw):
    endpoint = draw(st.sampled_from(["deal", "solve", "hint", "play", "odds", "rate", "nothing"]))
    params = dict(draw(sources))
    if draw(st.booleans()):
        params["rules"] = draw(mostly(st.sampled_from(["easy", "classic", "strict", "easy+jokers1", "classic+empty"]),
                                      st.text(max_size=10)))
    options = {
        "solve": {"verdict_only": st.one_of(st.booleans(), junk), "node_limit": mostly(st.just(20000), junk)},
        "hint": {"moves": mostly(st.text(alphabet="d1278u ,", max_size=8), junk), "fair": st.booleans(),
                 "node_limit": mostly(st.just(20000), junk), "seed": small},
        "play": {"moves": mostly(st.text(alphabet="d1278u ", max_size=8), junk),
                 "action": mostly(st.sampled_from(["d", "u", "3"]), junk),
                 "tap": mostly(st.builds(lambda c, r: f"{c},{r}", st.integers(0, 8), st.integers(0, 6)), junk)},
        "odds": {"samples": mostly(st.integers(1, 3), cheap_junk), "games": mostly(st.integers(0, 1), cheap_junk),
                 "seed": small},
        "rate": {"games": mostly(st.just(1), cheap_junk), "seed": small},
    }.get(endpoint, {})
    for name, strategy in options.items():
        # odds and rate always get small counts: their defaults take seconds, which is not what this test is about
        if endpoint in ("odds", "rate") and name in ("samples", "games") or draw(st.booleans()):
            params[name] = draw(strategy)
    if draw(st.integers(0, 9)) == 0:
        params[draw(st.text(max_size=8))] = draw(junk)
    body = json.dumps(params) if draw(st.integers(0, 9)) else draw(st.binary(max_size=40)).decode("latin-1")
    return endpoint, body


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(requests())
def test_any_request_gets_a_json_answer_the_contract_allows(client, req):
    endpoint, body = req
    r = client.post(f"/api/{endpoint}", content=body.encode("utf-8", "surrogatepass"),
                    headers={"content-type": "application/json"})
    assert r.status_code in (200, 400, 404, 413, 422), (endpoint, body, r.status_code, r.text)
    answer = r.json()
    if r.status_code != 200:
        assert set(answer) == {"error"} and answer["error"] and "\n" not in answer["error"]
        assert "internal error" not in answer["error"] and "Traceback" not in answer["error"]


CODE = "GO1-E-AAAAAAB"


LAYOUT = (DATA / "seed000_start.txt").read_text()


@pytest.fixture
def jobs(client, monkeypatch):
    """The names of the jobs the server hands to its workers during the test."""
    pool = client.app.state.pool
    real, asked = pool.run, []

    def run(name, **kwargs):
        asked.append(name)
        return real(name, **kwargs)

    monkeypatch.setattr(pool, "run", run)
    return asked


@pytest.mark.parametrize("endpoint, params, words", [
    ("hint", {"code": CODE, "moves": "d x"}, "bad move 'x'"),
    ("hint", {"code": CODE, "moves": "2"}, "move '2' is not legal here"),
    ("hint", {"code": CODE, "moves": "u", "fair": True}, "is not legal here"),
    ("odds", {"code": CODE, "moves": "1.5", "samples": 1_000_000}, "bad move '.'"),
    ("rate", {"layout": LAYOUT, "games": 1}, "rating needs the real stock"),
])
def test_bad_input_is_refused_without_waiting_for_a_worker(client, jobs, endpoint, params, words):
    """was: a bad or illegal move (and a partial layout sent to rate) was refused by a worker,
    so it waited its turn behind other requests' searches (17 s behind one long rating, by
    hand) and got a 503 "busy" when 64 were waiting: a typo told to retry."""
    r = client.post(f"/api/{endpoint}", json=params)
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert jobs == []
    assert client.post("/api/hint", json={"code": CODE, "moves": "d"}).status_code == 200
    assert jobs == ["hint"]  # a good one still goes to a worker


@pytest.mark.parametrize("endpoint", ["solve", "hint", "odds", "rate"])
def test_head_on_an_endpoint_is_405_and_runs_no_search(client, jobs, endpoint):
    """was: Starlette answered HEAD as a GET: 200 after running the whole search, for an
    answer it then did not send (a HEAD of rate?games=1000000 used a worker for a minute);
    docs/serve.md says a method other than GET and POST is 405."""
    r = client.head(f"/api/{endpoint}", params={"code": CODE, "games": 1})
    assert r.status_code == 405 and sorted(r.headers["allow"].split(", ")) == ["GET", "POST"]
    assert jobs == []


@pytest.mark.parametrize("text, words", [
    ("true", "line 1: expected 'key: value'"),
    (LAYOUT.replace("6C", "XX"), "unknown card 'XX'"),
    (LAYOUT.replace("7: 3S 7S 3H 9S 5C\n", ""), "column 7 is missing"),
    (LAYOUT.replace("discard: AC", "discard: -"), "the discard is empty"),  # met as the rules are applied
], ids=["not-a-layout", "bad-card", "no-column-7", "empty-discard"])
def test_a_bad_posted_layout_is_named_in_its_error(client, text, words):
    """was: "line 1: expected 'key: value', got 'true'", which named no parameter (the
    command names its layout file there)."""
    r = client.get("/api/deal", params={"layout": text})
    assert r.status_code == 400 and r.json()["error"].startswith("layout: ") and words in r.json()["error"]


#: a good, cheap request per endpoint, which the fuzzer spoils one way at a time
BASE = {
    "deal": {"code": CODE},
    "solve": {"code": CODE, "verdict_only": "true"},
    "hint": {"code": CODE, "moves": "d"},
    "odds": {"code": CODE, "samples": "2", "games": "1", "seed": "1"},
    "rate": {"code": CODE, "games": "1", "seed": "1"},
    "play": {"code": CODE, "moves": "d", "action": "d"},
}


#: a valid value of each parameter (sent to endpoints that do not take it)
GOOD = {"code": CODE, "pysol": "7", "layout": LAYOUT, "rules": "classic", "verdict_only": "true",
        "node_limit": "20000", "moves": "d", "fair": "true", "player": "fast", "seed": "2", "samples": "2",
        "games": "1", "action": "d", "tap": "1,5"}


TEXT = ["", " ", "0", "-1", "-0", "+1", "1.5", "1e3", "0x10", "NaN", "inf", "1" * 25, "1" * 41, "9" * 5000,
        str(2**63), str(2**64), "00000000001", "\u0661\u0662", "\uff15", "\u00bd", "\u200b1", "\t1\n", "true",
        "null", "[]", "{}", "é" * 10, "\U0001F0A1", "x" * 70_000, "a\x00b", CODE, "easy", "strong", "1,2", "3,,5",
        "d " * 3000, "%00", "%2B", "/etc/passwd", "classic+jokers2", "EASY", "weak", "t3,2", "8", "0,0",
        "-1,1", "1;2"]


JSON_ONLY = [None, True, False, 0, -1, 2**64, 10**40, 1.0, 1.5, -0.0, float("nan"), float("inf"), [], ["d"], {},
             {"a": 1}, [[[]]], {"code": CODE}, 1e308]


CODES = ["GO1-E-AAAAAAC", "GO1-E-AAAAAA", "GO1-E-AAAAAAAB", "go1-e-aaaaaab", "GO1-X-AAAAAAB", "GO2-E-AAAAAAB",
         "GO1-E-AAAAAA1", "GO1-E-AAAAAAß", " GO1-E-AAAAAAB\n", "GO1--AAAAAAB", "GO1\u2010E\u2010AAAAAAB",
         "ＧＯ1-E-AAAAAAB", "GO1-E-AAAA AAB", "GO1-E-AAAAAAB\x00"]


LAYOUTS = [LAYOUT.replace("AC", "AS", 1), LAYOUT.replace("1:", "8:", 1), LAYOUT.replace("\n", "\r\n"),
           LAYOUT + "8: 2H\n", LAYOUT.replace("discard: AC\n", ""), LAYOUT.replace("stock: ", "stock: JK "),
           LAYOUT.replace("6C", "10C"), LAYOUT[:len(LAYOUT) // 2], "rules: nope\n" + LAYOUT, "\n\n",
           LAYOUT.replace("5C", "5C 5C")]


QUERY_TRICKS = ["%", "%zz", "%C3", "%FF", "&&", "=x", ";x=1", "&%00=1", "&%63ode=" + CODE, "&Code=" + CODE,
                "&code%20=" + CODE, "&rules=easy+jokers1", "&moves=d%00", "&seed=%2D1"]


BODY_TRICKS = ["{} x", "[{}]", "null", "1", '"code"', "{'code': 1}", "{" * 40 + "}" * 40, '{"moves": NaN}',
               '{"seed": 1E400}', '{"code": "\\ud800"}', '{"code": "GO1-E-AAAAAAB",}', "\ufeff{}"]


#: the word an error names a parameter by, where it is not the parameter's own name
NAMED = {"rules": "rule", "pysol": "PySol", "action": "move", "moves": "move"}


#: an answer that names a place on this machine, or Python's own words for a failure
LEAK = re.compile(r"/work|/home|/usr/|site-packages|\.py\b|File \"|Traceback|internal error", re.IGNORECASE)


def _query(params: dict) -> str:
    return "&".join(f"{quote(k.encode('utf-8', 'surrogatepass'), safe='')}="
                    f"{quote(str(v).encode('utf-8', 'surrogatepass'), safe='')}" for k, v in params.items())


def hostile_request(rng: random.Random) -> dict:
    """One request spoilt one way: its method, endpoint, query or body, and the parameter
    spoilt when an error must name it."""
    endpoint = rng.choice(sorted(BASE))
    params, method, named = dict(BASE[endpoint]), rng.choice(["GET", "POST"]), None
    query = body = None
    kind = rng.choice(["value", "value", "value", "missing", "foreign", "code", "layout", "twice", "pair",
                       "encoding"])
    if kind == "value":
        named = rng.choice(sorted(PARAMS[endpoint]))
        params[named] = rng.choice(TEXT + (JSON_ONLY if method == "POST" else []))
        if named in ("pysol", "layout"):
            params.pop("code", None)
    elif kind == "missing":
        params.pop(rng.choice(sorted(params)))
    elif kind == "foreign":
        name = rng.choice(sorted(GOOD))
        params.update({name: GOOD[name]})
        if name in ("pysol", "layout"):
            params.pop("code")
    elif kind == "code":
        params["code"] = rng.choice(CODES)
    elif kind == "layout":
        params.pop("code")
        params["layout"], method = rng.choice(LAYOUTS), "POST"
    elif kind == "twice":
        name = rng.choice(sorted(params))
        if method == "GET":
            query = _query(params) + "&" + _query({name: params[name]})
        else:
            body = json.dumps(params)[:-1] + f", {json.dumps(name)}: {json.dumps(params[name])}}}"
    elif kind == "pair":
        name, value = rng.choice([("pysol", "7"), ("layout", LAYOUT), ("rules", "easy+jokers1"), ("fair", "false"),
                                  ("player", "strong"), ("tap", "1,5"), ("node_limit", "5")])
        params[name] = value
        if rng.random() < 0.3:
            params.pop("code")
            params["pysol"] = "3"
    elif method == "GET":
        query = _query(params) + rng.choice(QUERY_TRICKS)
    else:
        body = rng.choice(BODY_TRICKS)
    if method == "GET" and query is None:
        query = _query(params)
    if method == "POST" and body is None:
        body = json.dumps(params)
    return {"method": method, "endpoint": endpoint, "query": query, "body": body, "named": named}


def _send(client, req: dict):
    if req["method"] == "GET":
        return client.get(f"/api/{req['endpoint']}?{req['query']}")
    return client.post(f"/api/{req['endpoint']}", content=req["body"].encode("utf-8", "surrogatepass"),
                       headers={"content-type": "application/json"})


def _params_of(req: dict) -> dict:
    if req["method"] == "GET":
        return dict(parse_qsl(req["query"], keep_blank_values=True))
    return json.loads(req["body"].lstrip("\ufeff"))


def _costly_request(req: dict) -> bool:
    # a valid count of thousands is a long computation, not bad input: not what this test is about
    try:
        params = _params_of(req)
    except ValueError:
        return False
    if not isinstance(params, dict):
        return False
    for name in ("samples", "games"):
        value = params.get(name)
        try:
            n = int(str(value).strip())
        except ValueError:
            continue
        if 3 < n <= 10**6:
            return True
    return False


#: what the server reads as true (golfsolve.serve.app._TRUE)
TRUE = ("1", "true", "yes", "on")


def _table(req: dict) -> str:
    if req["endpoint"] == "hint":
        fair = _params_of(req).get("fair")
        return "fair-hint" if fair is True or str(fair).strip().lower() in TRUE else "hint"
    return {"rate": "rating"}.get(req["endpoint"], req["endpoint"])


#: The CLI's arguments for each parameter (code is the argument, the flags have no value)
FLAGS = {"node_limit": "--node-limit", "moves": "--moves", "player": "--player", "seed": "--seed",
         "samples": "--samples", "games": "--games", "rules": "--rules", "pysol": "--pysol"}


def _cli_args(req: dict, tmp_path: Path) -> list[str]:
    args = [req["endpoint"]]
    for name, value in _params_of(req).items():
        value = str(value).lower() if isinstance(value, bool) else value
        if value is None or name in ("verdict_only", "fair") and str(value).strip().lower() not in TRUE:
            continue
        if name == "code":
            args.append(value)
        elif name == "layout":
            (tmp_path / "posted.txt").write_text(value, encoding="utf-8")
            args += ["--layout", str(tmp_path / "posted.txt")]
        elif name in ("verdict_only", "fair"):
            args.append("--" + name.replace("_", "-"))
        else:
            args += [FLAGS[name], str(value)]
    return args


def _without_names(answer):
    # the CLI names a layout by its file, the server "posted layout"
    answer = _no_timings(answer)
    for one in answer if isinstance(answer, list) else [answer]:
        one.pop("name", None), one.pop("deal", None)
    return answer


def test_seeded_api_fuzz(client, jobs, run_cli, tmp_path):
    """Hostile requests of every kind; each answer keeps the contract (see the module's text)."""
    rng = random.Random(42)
    tables = field_tables(FORMATS)
    answered = []
    for _ in range(300):
        req = hostile_request(rng)
        if _costly_request(req):
            continue
        jobs.clear()
        r = _send(client, req)
        assert r.status_code in (200, 400, 413, 422), (req, r.status_code, r.text)
        answer = r.json()
        if r.status_code != 200:
            assert set(answer) == {"error"} and answer["error"] and "\n" not in answer["error"], (req, r.text)
            assert not LEAK.search(answer["error"]), (req, r.text)
            if r.status_code == 400:
                assert jobs == [], (req, r.text)  # refused before a worker was asked
                if req["named"] and r.status_code == 400:
                    assert req["named"] in r.json()["error"] or NAMED.get(req["named"], "?") in answer["error"], \
                        (req, r.text)
            assert client.get("/api/deal", params={"code": CODE}).status_code == 200  # still up
            continue
        table = tables[_table(req)]
        for one in answer if req["endpoint"] == "rate" else [answer]:
            assert table.always <= set(one) <= table.always | table.sometimes, (req, sorted(one))
        answered.append((req, _no_timings(answer)))
    assert len(answered) >= 20
    for req, answer in rng.sample(answered, 12):
        assert _no_timings(_send(client, req).json()) == answer, req  # the same request, the same answer
    cli_answers = [a for a in answered if a[0]["endpoint"] != "play"]
    for req, answer in rng.sample(cli_answers, 4):
        assert _without_names(_cli_json(run_cli, _cli_args(req, tmp_path))) == _without_names(answer), req
