"""Round 52: every answer names the version and the rules that made it.

A single answer's ``--json`` (and a many-deal ``solve``'s JSON Lines, and the HTTP API's
answers) named its rule set only by name, whose meaning a later golfsolve may change, and
did not say which golfsolve made it: a reader holding only the file could not reproduce it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import golfsolve
from golfsolve.solitaire.rules import get_rules
from golfsolve.stats.runkind import rules_described, stamped

ROOT = Path(__file__).resolve().parent.parent
SEED000 = str(ROOT / "tests" / "data" / "seed000_start.txt")
VERSION = "52.0.0-test"  # not the real one: the answers must say the version running, read as they are made
GRID = ["grid", "simulate", "--players", "2", "--grid", "4", "--holes", "1", "--bots", "greedy,random", "--matches", "1"]


def _answers(run_cli, args: list[str], codes=(0,)) -> list[dict]:
    """Every object ``golfsolve ARGS`` prints: the answer, each item of a list, each JSON Lines record."""
    r = run_cli(args)
    assert r.exit_code in codes, r.stderr
    try:
        out = json.loads(r.stdout)
    except json.JSONDecodeError:  # JSON Lines
        out = [json.loads(line) for line in r.stdout.splitlines()]
    return out if isinstance(out, list) else [out]


def _made(tmp: Path, name: str, run_cli) -> list[str]:
    """The arguments of the command ``name``, a run folder it reads made first where it needs one."""
    if name == "report":
        assert run_cli(["stats", "--count", "2", "--rules", "easy", "--jobs", "1", "--out", str(tmp / "st"),
                        "-q"]).exit_code == 0
        return ["report", str(tmp / "st"), "--json"]
    if name == "grid report":
        assert run_cli(GRID + ["--out", str(tmp / "g"), "-q"]).exit_code == 0
        return ["grid", "report", str(tmp / "g"), "--json"]
    return {
        "deal": ["deal", "GO1-C-AAAAAAB"],
        "solve": ["solve", "GO1-C-AAAAAAB", "--verdict-only"],
        "hint": ["hint", "GO1-E-AAAAAAB", "--moves", "d"],
        "hint --fair": ["hint", "GO1-C-AAAAAAB", "--fair", "--player", "fast"],
        "odds": ["odds", "GO1-C-AAAAAAB", "--samples", "5", "--games", "0"],
        "rate": ["rate", "GO1-C-AAAAAAB", "GO1-E-AAAAAAB", "--games", "1"],
        "pick": ["pick", "--rules", "classic", "--difficulty", "hard", "--count", "1", "--games", "3"],
        "replay": ["replay", "GO1-E-AAAAAAB", "1 1 d"],
        "grid simulate": GRID,
        "grid study": ["grid", "study", "--out", str(tmp / "study"), "--sets", "base", "--strong", "greedy",
                       "--matches", "1", "--quiet"],
        "stats": ["stats", "--count", "2", "--rules", "easy", "--jobs", "1", "--out", str(tmp / "s")],
        "fair-stats": ["fair-stats", "--count", "1", "--rules", "classic", "--player", "fast", "--jobs", "1",
                       "--out", str(tmp / "f")],
    }[name] + ["--json"]


@pytest.mark.parametrize("name", ["deal", "solve", "hint", "hint --fair", "odds", "rate", "pick", "replay",
                                  "grid simulate", "grid study", "grid report", "stats", "fair-stats", "report"])
def test_every_json_answer_names_the_golfsolve_that_made_it(run_cli, tmp_path, monkeypatch, name):
    """was: no `golfsolve_version` in any single answer's `--json` (only run manifests had it)"""
    args = _made(tmp_path, name, run_cli)
    monkeypatch.setattr(golfsolve, "__version__", VERSION)
    answers = _answers(run_cli, args, codes=(0, 1))  # pick: 1 when fewer deals are found
    assert answers and all(a["golfsolve_version"] == VERSION for a in answers), answers


def test_each_json_lines_record_of_solve_names_its_version_and_rules(run_cli, tmp_path, monkeypatch):
    """was: a many-deal `solve`'s records (an error record too) had no `golfsolve_version`, and
    none described its rules"""
    codes = tmp_path / "codes.txt"
    codes.write_text("GO1-C-AAAAAAB\nnot a code\n", encoding="utf-8")
    monkeypatch.setattr(golfsolve, "__version__", VERSION)
    records = _answers(run_cli, ["solve", "GO1-E-AAAAAAB", "--codes-from", str(codes), "--verdict-only"], codes=(2,))
    assert [r.get("rules") for r in records] == ["easy", "classic", None]
    assert all(r["golfsolve_version"] == VERSION for r in records)
    assert [r.get("rules_described") for r in records] == [get_rules("easy").describe(),
                                                            get_rules("classic").describe(), None]


@pytest.mark.parametrize("args, spec", [
    (["deal", "GO1-C-AAAAAAB", "--rules", "strict+jokers2"], "strict+jokers2"),
    (["deal", "--layout", SEED000, "--rules", "wrap"], "wrap"),  # an alias: the answer names it 'easy'
    (["solve", "GO1-E-AAAAAAB", "--rules", "dead-king+empty", "--verdict-only"], "dead-king+empty"),
    (["hint", "GO1-E-AAAAAAB", "--rules", "no-card-on-king+wrap", "--moves", "d"], "no-card-on-king+wrap"),
    (["hint", "GO1-C-AAAAAAB", "--fair", "--player", "fast", "--rules", "classic+stuck"], "classic+stuck"),
    (["odds", "GO1-E-AAAAAAB", "--samples", "3", "--games", "0", "--rules", "easy+jokers1"], "easy+jokers1"),
    (["rate", "GO1-C-AAAAAAB", "--games", "1"], "classic"),  # the code's letter
    (["pick", "--rules", "classic", "--difficulty", "hard", "--count", "1", "--games", "3"], "classic"),
    (["replay", "GO1-E-AAAAAAB", "1 1 d", "--rules", "strict"], "strict"),
])
def test_a_rules_meaning_recorded_is_what_the_rules_named_mean_now(run_cli, args, spec):
    """was: the answer gave `rules` by name only ("classic"), whose meaning a later version
    could change; now its `rules_described` is that rule set in words, as a manifest writes it"""
    for a in _answers(run_cli, args + ["--json"], codes=(0, 1)):
        assert a["rules_described"] == get_rules(spec).describe().replace(spec, a["rules"], 1)
        assert a["rules_described"] == rules_described([a["rules"]])[a["rules"]]  # the manifests' describer
        assert get_rules(a["rules"]).meaning == get_rules(spec).meaning


def test_stats_json_describes_each_rule_set_of_its_run(run_cli, tmp_path):
    """was: ``stats --json`` named its rule sets in ``spec.rules`` only (the manifest described
    them, the answer did not); it now gives each in words, as the manifest does."""
    r = run_cli(["stats", "--count", "2", "--rules", "classic,strict+empty", "--out", str(tmp_path / "s"), "--json"])
    assert r.exit_code == 0, r.stderr
    a = json.loads(r.stdout)
    assert a["rules_described"] == rules_described(a["spec"]["rules"]) and len(a["rules_described"]) == 2
    manifest = json.loads((tmp_path / "s" / "_manifest.json").read_text())
    assert json.dumps(a["rules_described"], sort_keys=True) in json.dumps(manifest, sort_keys=True)


def test_a_report_keeps_the_rules_its_run_recorded(run_cli, tmp_path):
    """A report names several rule sets and already describes them (an object, from its run):
    the stamp adds the version and leaves that description as it is, not a second one."""
    answer = {"rules": ["easy", "classic"], "rules_described": {"easy": "as recorded"}}
    out = stamped(answer)
    assert out["rules_described"] == {"easy": "as recorded"} and out["golfsolve_version"] == golfsolve.__version__
    assert "golfsolve_version" not in answer  # the library's answer itself is left alone


def test_the_library_answers_stay_as_they_were():
    """The stamp is the output's: `solve_answer` still equals the deal plus the solution's
    `as_json()` (docs/walkthrough.md), so a library caller's dicts do not change."""
    from golfsolve.solitaire.answers import deal_answer
    from golfsolve.solitaire.layout import layout_from_code

    lay = layout_from_code("GO1-E-AAAAAAB")
    assert "golfsolve_version" not in deal_answer(lay) and "rules_described" not in deal_answer(lay)
    assert stamped(deal_answer(lay)) == {**deal_answer(lay), "rules_described": get_rules("easy").describe(),
                                         "golfsolve_version": golfsolve.__version__}


@pytest.mark.parametrize("path, params", [
    ("deal", {"code": "GO1-C-AAAAAAB"}),
    ("play", {"code": "GO1-E-AAAAAAB", "moves": "1 1", "action": "d"}),
    ("solve", {"code": "GO1-C-AAAAAAB", "verdict_only": True}),
    ("rate", {"code": "GO1-C-AAAAAAB", "games": 1}),
])
def test_the_http_answers_name_the_version_and_rules_as_the_cli_does(client, path, params):
    """was: `/api/...` answers carried neither field; they are the CLI's `--json` (apart from
    timings), so they carry both, and `/api/play` (no command) too"""
    r = client.post(f"/api/{path}", json=params)
    assert r.status_code == 200, r.text
    for a in r.json() if isinstance(r.json(), list) else [r.json()]:
        assert a["golfsolve_version"] == golfsolve.__version__
        assert a["rules_described"] == get_rules(a["rules"]).describe()
    bad = client.post(f"/api/{path}", json={"code": "nope"})
    assert bad.status_code == 400 and set(bad.json()) == {"error"}  # an error body is not an answer
