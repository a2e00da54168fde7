"""Hostile-user sweep, round 4: each test is a bug a user met, fixed where every caller
passes. Fast: no test here solves more than a few deals."""

from __future__ import annotations

import json

import pytest

from golfsolve.solitaire.layout import layout_from_pysol, load_layout
from golfsolve.solitaire.rules import get_rules


@pytest.mark.parametrize("args", [["deal", "--pysol", "5", "--json"], ["solve", "--pysol", "5", "--json"],
                                  ["solve", "--pysol", "5-6", "--json"]])
def test_a_pysol_deal_under_an_empty_start_starts_with_an_empty_discard(run_cli, args):
    """was: ``--pysol 5 --rules easy+empty`` kept PySol's foundation card on the discard (16
    cards in the stock), said "empty starting discard" above it, and solved the plain game"""
    r = run_cli([*args, "--rules", "easy+empty"])
    assert r.exit_code == 0, r.stderr
    first = json.loads(r.stdout.splitlines()[0]) if "5-6" in args else json.loads(r.stdout)
    if args[0] == "deal":
        plain = layout_from_pysol(5)
        assert first["discard"] is None and len(first["stock"]) == 17
        assert first["stock"][0] == json.loads(run_cli(["deal", "--pysol", "5", "--json"]).stdout)["discard"]
        assert plain.discard is not None  # the library's plain deal is PySol's own
    else:
        assert first["rules"] == "easy+empty"
        lay = load_layout(pysol=5, rules=get_rules("easy+empty"))
        assert lay.discard is None and len(lay.stock) == 17


def test_the_library_deals_a_pysol_deal_under_rules_as_the_commands_do():
    empty = get_rules("classic+empty")
    lay = layout_from_pysol(7, empty)
    plain = layout_from_pysol(7)
    assert lay.rules == empty and lay.discard is None and lay.stock == (plain.discard,) + plain.stock
    assert layout_from_pysol(7, get_rules("classic")).discard == plain.discard
    with pytest.raises(TypeError, match="^rules must be a Rules or None"):
        layout_from_pysol(7, "classic")
