"""Hostile sweep, round 51: every result says what made it.

Each output read as a skeptical reader holding only the file would read it, rebuilding the
command from the recorded fields alone: `solve`, `hint`, `odds` answers, the stats,
fair-stats and grid run folders' manifests, and `--resume` with each recorded setting
changed. What was missing is below.
"""

from __future__ import annotations

import json

import golfsolve


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
