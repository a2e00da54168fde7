"""Hostile-user sweep, round 9: each test is a flaw a user met from outside (the commands, the
server's API and the public library). Fast: no test here plays more than a few matches or
solves more than a few deals."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile_helpers import one_line_error as _one_line_error

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------
# the server
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server():
    """The server with one warm worker and a CPU budget of half a second."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from golfsolve.serve.app import create_app

    app = create_app(workers=1, cpu_budget=0.5)
    with TestClient(app) as c:
        c.app_state = app.state
        yield c


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_a_get_with_a_body_is_refused_not_answered_from_the_query_string_alone(server, method):
    """was: GET /api/hint?code=... with the body {"fair": true} answered a peeking hint: the body
    was dropped without a word (as a POST's query string once was)"""
    r = server.request(method, "/api/hint", params={"code": "GO1-E-AAAAAAB"}, content=b'{"fair": true}')
    assert r.status_code == (400 if method == "GET" else 405), r.text  # HEAD is refused outright (round 42)
    if method == "GET":
        assert r.json()["error"] == ("a GET takes its parameters from the query string, not from a body; "
                                     "send the JSON body with POST")
    # a body of blanks is no parameter, and a GET without a body is answered as before
    assert server.request("GET", "/api/deal", params={"code": "GO1-E-AAAAAAB"}, content=b" \n").status_code == 200
    assert server.get("/api/deal", params={"code": "GO1-E-AAAAAAB"}).status_code == 200


def test_a_plus_in_a_query_strings_rules_is_named_as_a_space_the_url_made_of_it(server):
    """was: /api/deal?code=...&rules=classic+jokers1 said "unknown rule set 'classic jokers1'",
    a name nobody typed: a query string reads '+' as a space"""
    r = server.get("/api/deal?code=GO1-E-AAAAAAB&rules=classic+jokers1")
    assert r.status_code == 400
    assert r.json()["error"] == ("rules 'classic jokers1' is not a rule set: in a query string '+' stands for a "
                                 "space, so write the '+' before a switch as %2B (rules=classic%2Bjokers1), or "
                                 "POST the parameters as JSON")
    # the '+' written as %2B, a rule set with spaces around its '+', and a POST are answered as before
    for url in ("/api/deal?code=GO1-E-AAAAAAB&rules=classic%2Bjokers1",
                "/api/deal?code=GO1-E-AAAAAAB&rules=classic+%2B+jokers1"):
        r = server.get(url)
        assert r.status_code == 200 and r.json()["rules"] == "classic+jokers1", r.text
    r = server.post("/api/deal", json={"code": "GO1-E-AAAAAAB", "rules": "classic+jokers1"})
    assert r.status_code == 200 and r.json()["rules"] == "classic+jokers1"
    # a name that is wrong with or without the '+' keeps the library's message
    r = server.get("/api/deal?code=GO1-E-AAAAAAB&rules=classic+jokers9")
    assert r.status_code == 400 and "%2B" in r.json()["error"]
    r = server.get("/api/deal?code=GO1-E-AAAAAAB&rules=clasic")
    assert r.status_code == 400 and r.json()["error"].startswith("unknown rule set 'clasic'")


def test_health_does_not_count_a_worker_warming_up_as_busy(server):
    """was: after a request used up its CPU budget, /api/health said busy 1 with nothing running,
    for as long as the fresh worker took to warm up"""
    before = server.get("/api/health").json()
    r = server.get("/api/odds", params={"code": "GO1-C-AAAAAAB", "samples": 1_000_000, "games": 1_000_000})
    assert r.status_code == 503, r.text
    pool = server.app_state.pool
    seen = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        h = server.get("/api/health").json()
        seen.append(h["busy"])
        if pool._idle.qsize() == 1:
            break  # the fresh worker is warm and waiting
        time.sleep(0.05)
    assert h["replaced"] == before["replaced"] + 1 and h["workers"] != before["workers"]
    assert len(seen) > 1 and set(seen) == {0}, seen
    assert server.get("/api/deal", params={"code": "GO1-E-AAAAAAB"}).status_code == 200


def test_a_refused_cross_origin_preflight_is_a_json_error_naming_what_was_refused():
    """was: with --cors, a preflight from another origin (or for another method or header) got
    the plain text "Disallowed CORS origin", where every other error is {"error": ...}"""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from golfsolve.serve.app import create_app

    with TestClient(create_app(workers=1, warm=False, cors="http://localhost:3000")) as c:
        ask = {"Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST"}
        for headers, error in [
            ({**ask, "Origin": "http://evil.example"},
             "pages from 'http://evil.example' may not call this server (its --cors allows http://localhost:3000 only)"),
            ({**ask, "Access-Control-Request-Method": "PUT"}, "method 'PUT' is not GET or POST"),
            ({**ask, "Access-Control-Request-Headers": "x-token"}, "headers 'x-token' are not allowed (only content-type)"),
        ]:
            r = c.options("/api/solve", headers=headers)
            assert r.status_code == 400 and r.headers["content-type"] == "application/json", r.text
            assert r.json() == {"error": f"cross-origin request refused: {error}"}
        r = c.options("/api/solve", headers=ask)  # the origin allowed is answered as before
        assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "http://localhost:3000"


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc")
def test_health_does_not_list_a_worker_killed_while_idle():
    """After kill -9 of an idle worker, /api/health must not go on listing its pid as a live
    worker (a zombie, never reaped) until a request happens to draw it."""
    import signal

    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from golfsolve.serve.app import create_app

    with TestClient(create_app(workers=1, warm=False)) as c:
        (pid,) = c.get("/api/health").json()["workers"]
        os.kill(pid, signal.SIGKILL)
        # health alone (no request draws the worker) must come to drop it: the process's end
        # reaches the pool a moment after the kill, later under load
        deadline = time.monotonic() + 60
        while True:
            h = c.get("/api/health").json()
            if pid not in h["workers"] or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert pid not in h["workers"] and h["replaced"] == 1, h
        deadline = time.monotonic() + 60
        while not c.get("/api/health").json()["workers"] and time.monotonic() < deadline:
            time.sleep(0.05)
        (fresh,) = c.get("/api/health").json()["workers"]
        r = c.get("/api/solve", params={"code": "GO1-E-AAAAAAB", "verdict_only": "true"})
        assert r.status_code == 200 and c.get("/api/health").json() == {"ok": True, "workers": [fresh], "busy": 0,
                                                                         "replaced": 1}


# ---------------------------------------------------------------------------
# grid Golf
# ---------------------------------------------------------------------------
def test_the_library_writes_bot_names_one_way_as_the_command_does():
    """was: simulate(rules, ['Random', ' random '], ...) counted two bots, 'Random' and
    ' random ', each with its own line in the summary; the command reads them as one"""
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.tournament import bot_summary, simulate, simulate_tally
    from golfsolve.stats.gridruns import GridSpec

    rules = parse_rules("default", players=2, holes=1)
    t = simulate(rules, ["Random", " random "], 1, 0)
    assert t.bots == ["random", "random"]
    assert list(bot_summary(t)["bot"]) == ["random"]
    assert simulate_tally(rules, ["Random", " random "], 1, 0).bots == ["random", "random"]
    assert GridSpec(rules, ("MC:05", "Greedy"), 1).bots == ("mc:5", "greedy")


@pytest.mark.parametrize("bots, samples, words", [
    (["mc", "mc:100"], None, "the bots 'mc' and 'mc:100' are one bot: the Monte Carlo sample count of 'mc' is 100 "
                             "unless its name gives one; name it one way (mc,mc) to seat it twice"),
    (["mc:5", "mc"], 5, "the bots 'mc:5' and 'mc' are one bot: the Monte Carlo sample count of 'mc' is 5, the "
                        "Monte Carlo samples given"),
    (["ismcts:1000", "random", "ismcts"], None, "the bots 'ismcts:1000' and 'ismcts' are one bot"),
])
def test_one_bot_under_two_names_is_refused_in_the_library(bots, samples, words, tmp_path):
    """was: counted as two bots, with a 'difference' between a bot and itself in the summary
    (mc - mc:5: -4.50 [-7.44, -1.56])"""
    from golfsolve.errors import InputError
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.tournament import simulate
    from golfsolve.stats.gridruns import GridSpec, run_grid_simulate

    rules = parse_rules("default", players=len(bots), holes=1)
    with pytest.raises(InputError, match="^" + words.replace("(", r"\(").replace(")", r"\)")):
        simulate(rules, bots, 1, 0, samples)
    with pytest.raises(InputError, match="are one bot"):
        run_grid_simulate(tmp_path / "run", GridSpec(rules, tuple(bots), 1, samples=samples), progress=False)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("args, words", [
    (["--bots", "mc,mc:100"], "the bots 'mc' and 'mc:100' are one bot"),
    (["--bots", "mc,MC:5", "--mc-samples", "5"], "the bots 'mc' and 'mc:5' are one bot"),
    (["--bots", "heuristic,ismcts,ismcts:1000", "--out", "RUN"], "the bots 'ismcts' and 'ismcts:1000' are one bot"),
])
def test_grid_simulate_refuses_one_bot_under_two_names(run_cli, tmp_path, args, words):
    args = [str(tmp_path / "run") if a == "RUN" else a for a in args]
    line = _one_line_error(run_cli(["grid", "simulate", "--matches", "1", "--holes", "1", "-q", *args]))
    assert words in line, line
    assert not (tmp_path / "run").exists()


def test_one_bot_seated_twice_or_two_counts_are_still_played(run_cli):
    from golfsolve.grid.botnames import check_distinct_bots

    check_distinct_bots(["mc", "mc"])  # not refused: one name twice seats one bot twice
    check_distinct_bots(["mc", "mc:5", "mc-greedy:100"])  # mc-greedy is another bot than mc
    check_distinct_bots(["mc", "mc:100"], samples=5)  # mc plays 5 samples here
    r = run_cli(["grid", "simulate", "--matches", "1", "--holes", "1", "-q", "--bots", "random,Random,greedy", "--json"])
    assert r.exit_code == 0, r.stderr
    # was: only the exit code checked; now the three seats were played, random's two as one bot
    out = json.loads(r.stdout)
    assert out["meta"]["bots"] == ["random", "random", "greedy"]
    assert {b["bot"]: (b["seats"], b["holes"]) for b in out["bots"]} == {"random": (2, 2), "greedy": (1, 1)}


def test_the_bot_registrys_default_counts_are_the_bots_own():
    """check_distinct_bots knows each bot's default count without importing the bots (the
    command checks --bots before numba loads); each must be the one the bot plays with"""
    import inspect

    from golfsolve.grid.botnames import BOTS

    for kind in ("mc", "mc-greedy", "ismcts", "paired-rel"):
        entry = BOTS[kind]
        default = inspect.signature(entry.resolve()).parameters[entry.count].default
        assert entry.default == default, kind
    spiel = pytest.importorskip("golfsolve.grid.spiel", exc_type=ImportError)
    assert BOTS["spiel-ismcts"].default == spiel.DEFAULT_SIMULATIONS


# ---------------------------------------------------------------------------
# layouts
# ---------------------------------------------------------------------------
_EMPTY_COLUMNS = "".join(f"{i}:\n" for i in range(2, 8))


@pytest.mark.parametrize("rules_line, stock, error", [
    # was: "holds 2 joker(s) but rules 'easy+jokers1' allow 1 (add +jokers1 or +jokers2 to the rules)":
    # +jokers1 is given already, and easy+jokers1+jokers2 is refused as contradictory switches
    ("rules: easy+jokers1\n", "JK JK2 ...", "the layout holds 2 jokers but rules 'easy+jokers1' allow 1 "
                                           "(use +jokers2 instead of +jokers1)"),
    # was: "(add +jokers1 or +jokers2 ...)", where +jokers1 deals one joker of the two
    ("", "JK JK2 ...", "the layout holds 2 jokers but rules 'easy' allow 0 (add +jokers2 to the rules)"),
    ("", "JK ...", "the layout holds 1 joker but rules 'easy' allow 0 (add +jokers1 or +jokers2 to the rules)"),
])
def test_a_layout_with_more_jokers_than_its_rules_says_which_switch_deals_them(run_cli, tmp_path, monkeypatch,
                                                                                 rules_line, stock, error):
    monkeypatch.chdir(tmp_path)  # a short name: a long path is clipped in the message
    Path("jokers.txt").write_text(f"{rules_line}discard: AC\nstock: {stock}\n1:\n{_EMPTY_COLUMNS}")
    line = _one_line_error(run_cli(["deal", "--layout", "jokers.txt"]))
    assert line == f"golfsolve: layout file 'jokers.txt': {error}", line


# ---------------------------------------------------------------------------
# the environment
# ---------------------------------------------------------------------------
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["deal", "BAD"], ["grid", "simulate", "--matches", "0"], ["deal", "--bogus"]])
def test_bad_input_exits_2_when_stderr_cannot_be_written(args):
    """was: exit 1 and nothing said: with stderr on a full disk, writing the one-line message
    failed, and the OSError left the command as an unhandled exception"""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "golfsolve", *args], stdout=subprocess.PIPE, stderr=full, env=env,
                           timeout=120)
    assert r.returncode == 2 and r.stdout == b""


# ---------------------------------------------------------------------------
# run folders
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("command", [
    ["grid", "simulate", "--matches", "1", "--holes", "1", "--bots", "random,greedy", "-q", "--out", "-"],
    ["stats", "--count", "1", "--rules", "easy", "-j", "1", "-q", "--out", "-"],
    ["grid", "report", "RUN", "--out", "-"],
])
def test_out_dash_is_refused_not_made_a_folder_named_dash(run_cli, tmp_path, monkeypatch, command):
    """was: '--out -' (standard output wherever golfsolve reads or writes a file) made a folder
    named '-' in the current directory, and said 'results in -'"""
    run = tmp_path / "run"
    if "RUN" in command:
        assert run_cli(["grid", "simulate", "--matches", "1", "--holes", "1", "--bots", "random,greedy", "-q",
                        "--out", str(run)]).exit_code == 0
    monkeypatch.chdir(tmp_path)
    line = _one_line_error(run_cli([str(run) if a == "RUN" else a for a in command]))
    assert line == ("golfsolve: --out - would make a directory named '-' here: a run folder or report cannot go to "
                    "standard output (--json prints the answer there); give a directory's name, ./- for one "
                    "named '-'"), line
    assert not (tmp_path / "-").exists()
    # a folder named '-' is still there for whoever names it so
    command = [str(run) if a == "RUN" else "./-" if a == "-" else a for a in command]
    assert run_cli(command).exit_code == 0
    assert (tmp_path / "-").is_dir()
