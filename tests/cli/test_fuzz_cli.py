"""Property test of the command-line contract: whatever a user types, every command exits 0, 1
or 2; exit 2 comes with exactly one line on stderr; nothing ever says "internal error" or
prints a traceback.

Random deal codes, card and layout text, raw bytes as layout files and stdin, numbers in and
far out of range, rule specs built from real and bogus switches, bot lists and paths go to
every command. The heavy commands get tiny sizes so the whole test stays well under a minute.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hostile_helpers import DATA

SOL_SWITCHES = ["jokers1", "jokers2", "joker", "empty", "stuck", "anytime", "wrap", "nowrap", "king-queen",
                "king-nothing", "king-neighbours", "bogus", "", "EMPTY"]
SOL_PRESETS = ["easy", "classic", "strict", "dead-king", "wrap", "queen-on-king", "no-card-on-king", "hard", ""]
GRID_SWITCHES = ["putt", "twos-plus", "jokers", "by-value", "no-flip", "decks-by-players", "knock10",
                 "knock-double", "rows", "anywhere", "sudden-death", "pairs", "no-nine-rows", "no-turn", "x", ""]
GRID_PRESETS = ["default", "danish", "seed001", "seed003", "nope", ""]



def mostly(valid: st.SearchStrategy, invalid: st.SearchStrategy) -> st.SearchStrategy:
    """Valid three times in four, so that the commands also get to work, not only to refuse."""
    return st.integers(0, 3).flatmap(lambda i: valid if i else invalid)


junk = st.text(max_size=30) | st.text(alphabet="GO1-ECNAZ", max_size=14) | st.just("G" * 5000)
codes = mostly(
    st.builds(lambda l, s: f"GO1-{l}-{s}", st.sampled_from("ECNecn"), st.text(alphabet="ABCZ", min_size=7, max_size=7)),
    st.builds(lambda l, s: f"GO1-{l}-{s}", st.sampled_from("ECNX"), st.text(alphabet="ABZ?a", min_size=5, max_size=9))
    | junk,
)
numbers = mostly(st.integers(0, 40), st.integers(-3, 0) | st.sampled_from([2**63, 2**64 - 1, 2**64, -(2**64), 10**30,
                                                                           26**7]))
sol_rules = mostly(
    st.builds(lambda p, s: "+".join([p] + s), st.sampled_from(SOL_PRESETS[:-2]),
              st.lists(st.sampled_from(SOL_SWITCHES[:-3]), max_size=1)),
    st.builds(lambda p, s: "+".join([p] + s), st.sampled_from(SOL_PRESETS), st.lists(st.sampled_from(SOL_SWITCHES),
                                                                                     max_size=3)),
)
grid_rules = mostly(
    st.builds(lambda p, s: "+".join([p] + s), st.sampled_from(GRID_PRESETS[:-2]),
              st.lists(st.sampled_from(GRID_SWITCHES[:-2]), max_size=1)),
    st.builds(lambda p, s: "+".join([p] + s), st.sampled_from(GRID_PRESETS), st.lists(st.sampled_from(GRID_SWITCHES),
                                                                                      max_size=3)),
)
players = mostly(st.integers(2, 3), st.integers(-1, 7))
bot_names = mostly(st.sampled_from(["random", "greedy", "mc:2"]), st.sampled_from(["mc:", "mc:x", "wizard", "", "mc:0"]))
layout_bytes = mostly(
    st.sampled_from(sorted(DATA.glob("*.txt"))).map(lambda p: p.read_bytes()),
    st.one_of(
        st.binary(max_size=300),
        st.text(max_size=300).map(lambda t: t.encode("utf-8")),
        st.builds(lambda cards: ("col 1: " + " ".join(cards) + "\ndiscard: AC\nstock: 8S ...\n").encode(),
                  st.lists(st.sampled_from(["AS", "TS", "10♠", "JK", "XX", "KH", "?"]), max_size=6)),
        st.just(b"\xef\xbb\xbf" + b"x" * 70_000),
    ),
)


def _str(x) -> str:
    return str(x)


def _command(draw, where: Path) -> tuple[list[str], bytes | None]:
    """One random command line (and stdin) for one of the commands."""
    kind = draw(st.sampled_from(["deal", "solve", "hint", "replay", "odds", "play", "stats", "report",
                                 "fair-stats", "grid-simulate", "grid-play", "grid-report", "layout", "codes-from",
                                 "rate", "pick", "bare"]))
    rules = ["--rules", draw(sol_rules)] if draw(st.booleans()) else []
    source = draw(st.sampled_from(["code", "pysol", "layout"]))
    if source == "code":
        src = [draw(codes)]
    elif source == "pysol":
        src = ["--pysol", _str(draw(numbers))]
    else:
        f = where / f"layout{draw(st.integers(0, 3))}.txt"
        f.write_bytes(draw(layout_bytes))
        src = ["--layout", str(f)]
    out = str(where / draw(mostly(st.sampled_from(["out1", "out2", "out3"]),
                                  st.sampled_from(["file.txt", "file.txt/sub", "", "/proc/golfsolve"]))))
    if kind == "deal":
        return ["deal", *src, *rules, *draw(st.sampled_from([[], ["--json"], ["--text"]]))], None
    if kind == "solve":
        return ["solve", *src, *rules, "--node-limit", "20000"], None
    if kind == "hint":
        return ["hint", *src, *rules, "--node-limit", "20000", "--moves", draw(st.text(alphabet="d1278u x", max_size=6))], None
    if kind == "replay":
        return ["replay", *src, *rules, *draw(st.lists(st.text(alphabet="d123456789u,x", max_size=4), max_size=4))], None
    if kind == "odds":
        return ["odds", *src, *rules, "--samples", _str(draw(mostly(st.integers(1, 2), st.integers(-1, 0)))),
                "--games", _str(draw(mostly(st.just(0), st.sampled_from([-1, 1])))), "--seed", _str(draw(numbers)), "-q"], None
    if kind == "play":
        return ["play", *src, *rules], draw(st.binary(max_size=40))
    if kind == "stats":
        return ["stats", "--count", _str(draw(mostly(st.integers(1, 2), st.integers(-1, 0)))),
                "--start-number", _str(draw(numbers)),
                "--rules", draw(st.lists(sol_rules, min_size=1, max_size=2).map(",".join)), "--jobs", "1", "-q",
                "--out", out, *draw(st.sampled_from([[], ["--resume"], ["--extend"]]))], None
    if kind == "report":
        return ["report", str(where / draw(st.sampled_from(["out1", "out2", "nothing", "file.txt"]))), "--out",
                str(where / "reports" / draw(st.sampled_from(["a", "b"])))], None
    if kind == "fair-stats":
        return ["fair-stats", "--count", _str(draw(mostly(st.just(1), st.integers(-1, 0)))),
                "--start-number", _str(draw(numbers)),
                "--rules", draw(sol_rules), "--player", draw(mostly(st.just("fast"), junk)), "--workers", "1", "--seed",
                _str(draw(numbers)), "-q", "--out", out], None
    if kind == "grid-simulate":
        n = draw(players)
        return ["grid", "simulate", "--bots", ",".join(draw(st.lists(bot_names, min_size=n, max_size=n)))
                if n > 0 else draw(bot_names), "--players", _str(n),
                "--holes", _str(draw(mostly(st.just(1), st.integers(-1, 2)))),
                "--matches", _str(draw(mostly(st.just(1), st.integers(-1, 2)))),
                "--grid", _str(draw(mostly(st.sampled_from([4, 6]), st.sampled_from([7, 9, 0])))),
                "--rules", draw(grid_rules),
                "--seed", _str(draw(numbers)), "--mc-samples", "2", "-q",
                *draw(st.sampled_from([[], ["--out", out]]))], None
    if kind == "grid-play":
        return ["grid", "play", "--bots", draw(bot_names), "--players", _str(draw(players)), "--holes", "1",
                "--rules", draw(grid_rules), "--seed", _str(draw(numbers))], draw(st.binary(max_size=60))
    if kind == "grid-report":
        return ["grid", "report", str(where / draw(st.sampled_from(["out1", "out2", "nothing", "file.txt"])))], None
    if kind == "layout":
        return ["solve", "--layout", "-", *rules], draw(layout_bytes)
    if kind == "codes-from":
        return ["solve", "--codes-from", "-", "--node-limit", "20000", *rules], \
            "\n".join(draw(st.lists(codes, max_size=3))).encode("utf-8", "surrogatepass")
    if kind == "rate":
        return ["rate", *draw(st.lists(codes, min_size=0, max_size=2)), *rules, "--games",
                _str(draw(mostly(st.just(1), st.integers(-1, 0)))), "--seed", _str(draw(numbers))], None
    if kind == "pick":
        return ["pick", "--difficulty", draw(mostly(st.sampled_from(["easy", "hard"]), junk)), "--count", "1",
                "--games", "1", "--max-deals", _str(draw(mostly(st.just(1), st.integers(-1, 0)))),
                "--start", draw(codes), *rules, "-q"], None
    return draw(st.sampled_from([[], ["grid"], ["--nope"], ["nosuch"], ["grid", "nosuch"]])), None


@pytest.fixture(scope="module")
def workdir():
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "file.txt").write_text("not a directory")
        yield Path(d)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(data=st.data())
def test_every_command_keeps_the_exit_code_contract(run_cli, workdir, data):
    args, stdin = _command(data.draw, workdir)
    r = run_cli(args, input=stdin if stdin is not None else b"")
    assert r.exit_code in (0, 1, 2), (args, r.exit_code, r.stderr[-300:])
    assert "internal error" not in r.stderr, (args, r.stderr[-300:])
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout, args
    if r.exit_code == 2:
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("golfsolve: "), (args, r.stderr[-300:])
        assert len(lines[0]) < 700, args
