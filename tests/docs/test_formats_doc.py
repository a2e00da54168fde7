"""docs/formats.md lists every field of every ``--json`` answer, of ``/api/play`` and of the
run folders; these tests run each command on small inputs and check that the keys it
prints are exactly the ones the page lists.

Each field table of the page follows a ``<!-- fields: NAME -->`` line. A row names one
field or several (every backticked name of its first cell before any parenthesis); a first
cell holding "(only" names fields that are absent in some answers. For each table, every
real object checked against it must hold each field listed without "(only", and no field
the table does not list; every "(only" field must turn up in at least one of the objects
these runs make (but those in :data:`NOT_MADE_HERE`). A row whose meaning lists the keys of
the field's object in braces (``{`mean`, `lo`, `hi`}``, or ``bot → {...}`` for an object
of such objects) has that object checked too: exactly those keys, wherever it is not null.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Callable, Iterable, Optional

import pytest
from click.testing import CliRunner

from formats_helpers import FORMATS, Table, field_tables
from hostile_helpers import ROOT
STATS_DOC = ROOT / "docs" / "stats.md"
WON = "1 1 5 d 4 3 6 2 d 2 7 d 5 3 1 4 d d 7 3 7 2 4 4 1 1 4 2 6 3 d 5 6 5 d 7 6 3 6 d d d d 2 5 d 7"

#: optional fields no run here makes (cheaply): (table, field)
NOT_MADE_HERE = {
    ("pick", "stopped"),  # Ctrl-C during a scan
    # a study whose strongest bot's table has played nothing yet (an interrupted one)
    *(("study-result", f) for f in ("turns", "gap_strong", "strong_wins", "first_player", "neighbour", "stalled",
                                    "ends")),
}

def _run(args: list[str], codes: tuple[int, ...] = (0,)) -> str:
    """What ``golfsolve ARGS`` prints on stdout, run in-process through the real entry point."""
    from golfsolve.cli.main import main

    runner = CliRunner()
    with runner.isolation() as streams:
        try:
            main(list(args))
            code = 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        out = streams[0].getvalue().decode("utf-8")
        err = streams[1].getvalue().decode("utf-8") if streams[1] is not None else ""
    assert code in codes, f"golfsolve {' '.join(args)}: exit {code}: {err}"
    return out


def cli_json(*args: str, codes: tuple[int, ...] = (0,)):
    """The JSON ``golfsolve ARGS --json`` prints."""
    return json.loads(_run(list(args) + ["--json"], codes))


#: the run folders the runs write, and the run (of ``runs``) that writes each
FOLDERS = {"st": "stats", "stride": "stats", "fair": "fair-stats", "grid": "grid", "study": "study"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Callable[[str], object]:
    """The commands' outputs by name, each run once (on its first use) for the whole module."""
    tmp = tmp_path_factory.mktemp("formats")

    makers: dict[str, Callable[[], object]] = {
        "deal": lambda: [cli_json("deal", "GO1-E-AAAAAAB"),
                         cli_json("deal", "--layout", str(ROOT / "tests/data/seed000_start.txt"))],
        "solve": lambda: [cli_json("solve", "GO1-E-AAAAAAB"),
                          cli_json("solve", "--pysol", "1", "--rules", "classic", "--verdict-only"),
                          cli_json("solve", "GO1-C-AAAAAAB", "--node-limit", "10", codes=(1,))],
        "lines": lambda: [json.loads(line) for line in _run(
            ["solve", "GO1-E-AAAAAAB", "GO1-C-AAAAAAB", "--codes-from", str(_codes_file(tmp))], (2,)).splitlines()],
        "hint": lambda: [cli_json("hint", "GO1-E-AAAAAAB", "--moves", "d"),
                         cli_json("hint", "GO1-E-AAAAAAB", "--moves", WON)],
        "fair-hint": lambda: [cli_json("hint", "GO1-C-AAAAAAB", "--fair", "--player", "fast"),
                              cli_json("hint", "GO1-E-AAAAAAB", "--fair", "--moves", WON)],
        "odds": lambda: [cli_json("odds", "GO1-C-AAAAAAB", "--samples", "20", "--games", "3"),
                         cli_json("odds", "GO1-C-AAAAAAB", "--samples", "5", "--games", "0"),
                         cli_json("odds", "GO1-E-AAAAAAB", "--moves", WON)],
        "rate": lambda: cli_json("rate", "GO1-C-AAAAAAB", "GO1-E-AAAAAAB", "--games", "2"),
        "pick": lambda: cli_json("pick", "--rules", "classic", "--difficulty", "hard", "--count", "1", "--games", "3"),
        "replay": lambda: [cli_json("replay", "GO1-E-AAAAAAB", "1 1 d 5 u", codes=(1,))],
        "play": lambda: _plays(),
        "stats": lambda: [cli_json("stats", "--count", "9", "--rules", "easy,classic", "--difficulty",
                                   "--difficulty-games", "1", "--jobs", "1", "--out", str(tmp / "st")),
                          cli_json("stats", "--count", "3", "--stride", "7", "--rules", "classic", "--fields",
                                   "winnable", "--jobs", "1", "--out", str(tmp / "stride"))],
        "fair-stats": lambda: cli_json("fair-stats", "--count", "2", "--rules", "classic", "--player", "fast",
                                       "--jobs", "1", "--out", str(tmp / "fair")),
        "report": lambda: [cli_json("report", str(folder("st")), "--fair", str(folder("fair"))),
                           cli_json("report", str(folder("stride")))],
        "grid": lambda: [cli_json("grid", "simulate", "--players", "3", "--grid", "4", "--holes", "1",
                                  "--bots", "greedy,random,heuristic", "--matches", "3",
                                  "--rules", "default+openers-exact"),  # a table with openers_exact
                         cli_json("grid", "simulate", "--players", "2", "--grid", "4", "--holes", "1", "--bots",
                                  "greedy,random", "--matches", "2", "--out", str(tmp / "grid")),
                         cli_json("grid", "report", str(tmp / "grid"))],
        "study": lambda: [cli_json("grid", "study", "--out", str(tmp / "study"), "--sets", "base", "--strong", "greedy",
                                   "--matches", "2", "--quiet")],
        "manifests": lambda: [json.loads((folder(n) / "_manifest.json").read_text(encoding="utf-8")) for n in FOLDERS],
        "parquet": lambda: {n: _read_columns(folder(n)) for n in FOLDERS},
    }

    def folder(name: str) -> Path:
        """The run folder ``name``, made first by the run that writes it."""
        runs(FOLDERS[name])
        return tmp / name

    @cache
    def runs(name: str):
        return makers[name]()

    return runs


def _codes_file(tmp: Path) -> Path:
    p = tmp / "codes.txt"
    p.write_text("GO1-E-AAAAAAC\nnot a code\n", encoding="utf-8")
    return p


def _plays() -> list[dict]:
    """What ``/api/play`` answers: the library's answers stamped as the server sends them."""
    from golfsolve.solitaire.answers import play_answer
    from golfsolve.solitaire.layout import layout_from_code
    from golfsolve.stats.runkind import stamped

    lay = layout_from_code("GO1-E-AAAAAAB")
    return [stamped(a) for a in (play_answer(lay), play_answer(lay, "1 1", action="d"),
                                 play_answer(lay, "1 1", tap=(3, 2)))]


def _read_columns(folder: Path) -> dict[str, str]:
    import pyarrow.parquet as pq

    schema = pq.read_schema(sorted(folder.glob("chunk-*.parquet"))[0])
    return {f.name: str(f.type) for f in schema}


def _each(items: Iterable[Optional[dict]]) -> list[dict]:
    return [d for d in items if d is not None]


def _values(dicts: Iterable[Optional[dict]]) -> list[dict]:
    """The objects that are the values of a rule set -> object map (null ones left out)."""
    return [v for d in dicts if d for v in d.values() if v is not None]


def _grid_tables(runs) -> list[dict]:
    ms = runs("manifests")
    return ([g["meta"]["rules"] for g in runs("grid")] + [m["params"]["table"] for m in ms if "table" in m["params"]]
            + [c["table"] for m in ms for c in m["params"].get("cells", [])])


#: table name -> the real objects it describes
OBJECTS: dict[str, Callable[[Callable[[str], object]], list[dict]]] = {
    "player": lambda r: ([o["player"] for o in r("odds") + r("fair-hint") + r("rate") + [r("pick"), r("fair-stats")]]
                         + [d["player"] for d in r("pick")["deals"]]
                         + [m["params"][k] for m in r("manifests") for k in ("player", "difficulty_player")
                            if k in m["params"]]),
    "state": lambda r: [o["final"] for o in r("replay")] + [o["state"] for o in r("play")],
    "deal": lambda r: r("deal"),
    "solve": lambda r: r("solve") + [o for o in r("lines") if "outcome" in o],
    "solve-error": lambda r: [o for o in r("lines") if "outcome" not in o],
    "hint": lambda r: r("hint"),
    "hint-move": lambda r: _each([o["best"] for o in r("hint")]) + [m for o in r("hint") for m in o["ranked"]],
    "fair-hint": lambda r: r("fair-hint"),
    "fair-hint-move": lambda r: _each([o["best"] for o in r("fair-hint")]) + [m for o in r("fair-hint") for m in o["ranked"]],
    "odds": lambda r: r("odds"),
    "odds-fair": lambda r: [o["fair"] for o in r("odds")],
    "odds-fair-rate": lambda r: _each([o["fair"]["win_rate_on_winnable_orders"] for o in r("odds")]),
    "odds-clairvoyant": lambda r: [o["clairvoyant"] for o in r("odds")],
    "odds-settings": lambda r: [o["settings"] for o in r("odds")],
    "rating": lambda r: r("rate") + r("pick")["deals"],
    "pick": lambda r: [r("pick")],
    "replay": lambda r: r("replay"),
    "replay-step": lambda r: [s for o in r("replay") for s in o["steps"]],
    "play": lambda r: r("play"),
    "stats": lambda r: r("stats"),
    "stats-spec": lambda r: [o["spec"] for o in r("stats")],
    "fair-stats": lambda r: [r("fair-stats")],
    "report": lambda r: r("report"),
    "report-win-rate": lambda r: [w for o in r("report") for w in o["win_rates"]],
    "report-paired": lambda r: [p for o in r("report") for p in o["paired"]],
    "report-app-score": lambda r: _values(o["app_score"] for o in r("report")),
    "report-nine": lambda r: _values(o["nine_deal_match"] for o in r("report")),
    "report-solve-time": lambda r: _values(o["solve_time"] for o in r("report")),
    "report-difficulty": lambda r: _each(o["difficulty"] for o in r("report")),
    "report-fair": lambda r: _each(o["fair"] for o in r("report")),
    "grid": lambda r: r("grid"),
    "grid-meta": lambda r: [o["meta"] for o in r("grid")],
    "grid-bot": lambda r: [b for o in r("grid") for b in o["bots"]],
    "grid-difference": lambda r: [d for o in r("grid") for d in o["differences"]],
    "grid-neighbour": lambda r: [n for o in r("grid") for n in o["neighbours"]],
    "grid-rating": lambda r: [x for o in r("grid") for x in o["ratings"]],
    "grid-table": _grid_tables,
    "study": lambda r: r("study"),
    "study-result": lambda r: [x for o in r("study") for x in o["results"]],
    "manifest": lambda r: r("manifests"),
    "manifest-block": lambda r: [b for m in r("manifests") for b in m["blocks"]],
    "invocation": lambda r: [i for m in r("manifests") for i in m["invocations"]],
    "params-stats": lambda r: [m["params"] for m in r("manifests") if m["format"] == "golfsolve-stats/1"],
    "params-fair-stats": lambda r: [m["params"] for m in r("manifests") if m["format"] == "golfsolve-fair-stats/1"],
    "params-grid-simulate": lambda r: [m["params"] for m in r("manifests") if m["format"] == "golfsolve-grid-simulate/1"],
    "params-grid-study": lambda r: [m["params"] for m in r("manifests") if m["format"] == "golfsolve-grid-study/1"],
    "columns-fair-stats": lambda r: [r("parquet")["fair"]],
    "columns-grid-simulate": lambda r: [r("parquet")["grid"]],
    # the study's own columns: the grid simulate ones are checked above
    "columns-grid-study": lambda r: [{c: t for c, t in r("parquet")["study"].items() if c not in r("parquet")["grid"]}],
}

TABLES = field_tables(FORMATS)


def test_every_table_of_the_page_is_checked_and_every_check_has_its_table():
    assert set(TABLES) == set(OBJECTS)


def test_the_tables_are_read_as_written():
    hint = TABLES["hint"]
    assert "message" in hint.sometimes and "message" not in hint.always and {"deal", "best", "ranked"} <= hint.always
    assert {"move", "reason", "outcome", "best_cards_left", "rules"} <= TABLES["hint-move"].always
    assert TABLES["report-nine"].sometimes == {"mean", "median", "min", "max", "at_or_under_par"}
    study = TABLES["study-result"].nested
    assert study["strokes"] == ({"mean", "lo", "hi"}, True) and study["turns"] == ({"mean", "lo", "hi"}, False)
    assert TABLES["report-win-rate"].nested["reference"][0] == {"name", "rate", "lo", "hi", "n", "consistent"}


def test_a_field_out_of_the_page_fails(tmp_path):
    doc = tmp_path / "f.md"
    doc.write_text("<!-- fields: x -->\n| field | type | meaning |\n|---|---|---|\n| `a`, `b` | int | c (see `d`) |\n"
                   "| `e` (only when `f`) | object | g → {`h`, `i` (a count)} |\n\ntext\n", encoding="utf-8")
    table = field_tables(doc)["x"]
    assert table == Table(frozenset({"a", "b"}), frozenset({"e"}), {"e": (frozenset({"h", "i"}), True)})
    tables = {"x": table}
    check("x", [{"a": 1, "b": 2}, {"a": 1, "b": 2, "e": {"y": {"h": 1, "i": 2}, "z": None}}], tables)
    with pytest.raises(AssertionError, match="undocumented"):
        check("x", [{"a": 1, "b": 2, "z": 3}], tables)
    with pytest.raises(AssertionError, match="missing"):
        check("x", [{"a": 1, "e": {}}], tables)
    with pytest.raises(AssertionError, match="x.e"):
        check("x", [{"a": 1, "b": 2, "e": {"y": {"h": 1}}}], tables)


def check(name: str, objects: list[dict], tables: Optional[dict[str, Table]] = None) -> None:
    """Every object holds the table's fields (the "(only" ones may be absent) and no other,
    and the objects the table lists the keys of hold those keys."""
    table = (tables or TABLES)[name]
    always, sometimes = table.always, table.sometimes
    assert objects, f"no {name!r} object was made to check"
    seen: set[str] = set()
    for obj in objects:
        assert isinstance(obj, dict), f"{name}: {obj!r} is not an object"
        keys = set(obj)
        seen |= keys
        assert not keys - always - sometimes, f"{name}: undocumented fields {sorted(keys - always - sometimes)}"
        assert not always - keys, f"{name}: fields the page lists are missing: {sorted(always - keys)}"
        for f, (want, is_map) in table.nested.items():
            value = obj.get(f)
            for inner in (value.values() if is_map and value is not None else [value]):
                if inner is not None:
                    assert set(inner) == want, f"{name}.{f}: keys {sorted(inner)}, the page lists {sorted(want)}"
    never = {f for f in sometimes - seen if (name, f) not in NOT_MADE_HERE}
    assert not never, f"{name}: no run here made the optional fields {sorted(never)}"


@pytest.mark.parametrize("name", sorted(OBJECTS))
def test_the_documented_fields_are_the_real_ones(runs, name):
    check(name, OBJECTS[name](runs))


def test_the_stats_columns_are_those_of_stats_md(runs):
    """docs/formats.md links to stats.md's table of the stats columns: the columns of a
    ``--difficulty`` run are that table's, and a run without it lacks only the two it names."""
    table = field_tables(STATS_DOC)["columns-stats"]
    documented = table.always | table.sometimes
    cols = runs("parquet")
    assert set(cols["st"]) == documented
    assert set(cols["stride"]) == documented - {"difficulty", "fair_chance"}
    for m in runs("manifests"):
        if m["format"] == "golfsolve-stats/1":
            assert set(m["columns"]) == set(cols["st" if "difficulty_games" in m["params"] else "stride"])


def test_grid_simulate_out_json_is_what_grid_report_prints_for_the_run(runs):
    """``grid simulate --out DIR --json`` printed ``"command": ""`` and no ``planned_matches``
    where ``grid report DIR --json`` gives the run's command and ``planned_matches`` for the
    same run; the page documents one object for both."""
    _, simulated, reported = runs("grid")
    assert simulated["command"].startswith("golfsolve grid simulate ") and "--out" in simulated["command"]
    assert simulated == reported

