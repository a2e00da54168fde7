"""Every answer says what made it: golfsolve's version, the rules' meaning, the seed, the player and
the node limit, in each --json answer, JSON Lines record, run manifest and HTTP answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import golfsolve
from golfsolve.solitaire.rules import get_rules
from golfsolve.stats.runkind import rules_described, stamped

from hostile_helpers import ROOT


def test_a_fair_hint_on_a_finished_game_records_its_seed_and_player(run_cli, tmp_path):
    """hint --fair --json --seed 5 --player fast on a won game answered without "seed" and
    "player", the keys every other fair answer has (odds on the same layout records both), so
    a script could not tell which player was asked; the server's /api/hint the same. Now the
    answer records them, and refuses a seed no fair answer takes."""
    import json

    from golfsolve.errors import InputError
    from golfsolve.fair import PRESETS, fair_game_over_answer
    from golfsolve.serve import jobs
    from golfsolve.solitaire.answers import GameOverError, game_over_answer
    from golfsolve.solitaire.layout import parse_layout_text

    text = "discard: AC\nstock: ? ? ?\n" + "".join(f"{c}:\n" for c in range(1, 8))
    f = tmp_path / "won.txt"
    f.write_text(text)
    r = run_cli(["hint", "--fair", "--layout", str(f), "--seed", "5", "--player", "fast", "--json"])
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["message"].startswith("the game is already over") and d["best"] is None
    assert d["seed"] == 5 and d["player"] == PRESETS["fast"].as_dict(), d
    lay = parse_layout_text(text)
    served = jobs.fair_hint(lay, "", seed=7, player="fast")
    assert served["seed"] == 7 and served["player"]["preset"] == "fast", served
    with pytest.raises(InputError, match="seed"):
        fair_game_over_answer(lay, [], GameOverError("over"), seed=-1)
    assert "seed" not in game_over_answer(lay, [], GameOverError("over"))  # the peeking hint has no player


def test_rate_and_pick_json_record_the_seed_their_chances_are_of(run_cli):
    """rate --seed 5 --json printed each deal's fair chance and the player's settings but not
    the seed, where every other fair answer records it: another seed is another fixed
    strategy and another chance (docs/fair.md), and a script comparing two ratings could
    not tell them apart. pick's deals the same (its answer named the seed once, each deal
    not). Now every rating records it."""
    import json

    r = run_cli(["rate", "GO1-C-AAAAAAB", "--seed", "5", "--games", "2", "--json"])
    assert r.exit_code == 0, r.stderr
    (rating,) = json.loads(r.stdout)
    assert rating["seed"] == 5 and rating["player"]["preset"] == "fast", rating
    r = run_cli(["pick", "--difficulty", "very-hard", "--rules", "classic", "--start-number", "1", "--count", "1",
                 "--games", "2", "--seed", "3", "--max-deals", "3", "--json"])
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["seed"] == 3 and [x["seed"] for x in d["deals"]] == [3], d


def test_fair_stats_json_records_the_seed_and_the_player(run_cli, tmp_path):
    """fair-stats --seed 4 --player fast --json summed up the run (its files, chunks and rows)
    without the seed or the player it was played with, the two settings its win rates are
    of; a script had to open _manifest.json for them. Now the summary records both."""
    import json

    from golfsolve.fair import PRESETS

    out = tmp_path / "run"
    r = run_cli(["fair-stats", "--count", "1", "--rules", "strict", "--start-number", "1", "--player", "fast",
                 "--seed", "4", "--jobs", "1", "--out", str(out), "--json"])
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["seed"] == 4 and d["player"] == PRESETS["fast"].as_dict() and d["rows"] == 1, d


def test_solve_json_records_its_node_limit(run_cli):
    """was: `solve --node-limit 100 --json` said `"outcome": "unknown"` with a line of 26 cards
    left and nothing saying a limit stopped it, nor which: the answer could not be reproduced
    from the JSON alone (a rerun without the limit says `lost`, 4 cards left)"""
    r = run_cli(["solve", "GO1-C-AAAAAAB", "--node-limit", "100", "--json"])
    d = json.loads(r.stdout)
    assert d["outcome"] == "unknown" and d["node_limit"] == 100 and d["verdict_only"] is False
    again = json.loads(run_cli(["solve", d["deal"], "--rules", d["rules"], "--node-limit", str(d["node_limit"]),
                               "--json"]).stdout)
    assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in d.items() if k != "seconds"}


def test_verdict_only_json_lines_record_it(run_cli):
    """was: a `--verdict-only` JSON Lines record of a lost deal gave `best_cards_left: null` and
    `moves: ""` with nothing saying why; a reader could not tell a verdict-only run from a
    damaged one, nor rerun it as it was"""
    r = run_cli(["solve", "GO1-C-AAAAAAB", "GO1-C-AAAAAAC", "--verdict-only", "-q"])
    recs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [x["verdict_only"] for x in recs] == [True, True]
    assert recs[0]["best_cards_left"] is None and recs[0]["node_limit"] == 0


def test_peeking_hint_records_each_moves_node_limit(run_cli):
    """was: `hint --node-limit 50 --json` ranked moves by searches the limit stopped, each move
    saying `unknown`, but the answer did not say the limit it ran with"""
    d = json.loads(run_cli(["hint", "GO1-C-AAAAAAB", "--node-limit", "50", "--json"]).stdout)
    assert d["ranked"] and all(m["node_limit"] == 50 for m in d["ranked"])
    assert d["best"]["node_limit"] == 50


def test_the_api_records_the_solves_settings(client):
    """was: `/api/solve` with `node_limit` answered as `solve --json` did: without the limit"""
    r = client.post("/api/solve", json={"code": "GO1-C-AAAAAAB", "node_limit": 100, "verdict_only": True})
    assert r.status_code == 200
    d = r.json()
    assert d["node_limit"] == 100 and d["verdict_only"] is True


def test_fair_stats_manifest_describes_its_rules(run_cli, tmp_path):
    """was: a fair-stats run's manifest named its rule sets only (`classic`), not what they
    meant, as a stats run's `rules_described` does: a name whose meaning changes between
    versions left the run's numbers with rules nobody could tell"""
    out = tmp_path / "fair"
    r = run_cli(["fair-stats", "--count", "1", "--rules", "classic", "--player", "fast", "--jobs", "1",
                "--out", str(out), "-q"])
    assert r.exit_code == 0, r.stderr
    m = json.loads((out / "_manifest.json").read_text(encoding="utf-8"))
    assert m["rules_described"] == {"classic": "classic: no wrap, Queen on King, draw any time"}


def test_each_invocation_records_its_version(run_cli, tmp_path, monkeypatch):
    """was: only the manifest's `golfsolve_version` (the creating version) was recorded: chunks a
    later version wrote under `--resume` or `--extend` were credited to the first one"""
    out = tmp_path / "stats"
    monkeypatch.setattr(golfsolve, "__version__", "0.0.1-old")
    assert run_cli(["stats", "--count", "2", "--rules", "easy", "--chunk-size", "1", "--jobs", "1",
                   "--out", str(out), "-q"]).exit_code == 0
    monkeypatch.setattr(golfsolve, "__version__", "0.0.2-new")
    r = run_cli(["stats", "--out", str(out), "--extend", "--count", "3", "--jobs", "1", "-q"])
    assert r.exit_code == 0, r.stderr
    m = json.loads((out / "_manifest.json").read_text(encoding="utf-8"))
    assert m["golfsolve_version"] == "0.0.1-old"
    assert [i["golfsolve_version"] for i in m["invocations"]] == ["0.0.1-old", "0.0.2-new"]


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
