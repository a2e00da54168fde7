"""Rule sets built by hand, typed with spaces or by another name, and the rules a refused move names."""

from __future__ import annotations

import json

import numpy as np
import pytest

from golfsolve.errors import InputError
from golfsolve.solitaire.rules import get_rules


def test_a_rule_set_typed_with_spaces_is_named_as_written_without_them(run_cli, tmp_path):
    """was: ``--rules "classic + jokers1"`` was named 'classic + jokers1' in every answer and
    run, and ``--extend --rules classic+jokers1`` on that run was refused as "the same rule set
    under two names\""""
    assert get_rules(" Classic + Jokers1 ").name == "classic+jokers1"
    r = run_cli(["solve", "GO1-E-AAAAAAB", "--rules", "classic + jokers1", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["rules"] == "classic+jokers1", r.stderr
    out = str(tmp_path / "run")
    assert run_cli(["stats", "--count", "1", "--rules", "strict + empty", "--out", out, "-j", "1", "-q"]).exit_code == 0
    r = run_cli(["stats", "--extend", "--count", "2", "--rules", "strict+empty", "--out", out, "-j", "1", "-q"])
    assert r.exit_code == 0, r.stderr


@pytest.mark.parametrize("kw, error, words", [
    ({"wrap": "no"}, TypeError, "wrap must be True or False"),
    ({"draw_any_time": "no"}, TypeError, "draw_any_time must be True or False"),
    ({"empty_start": 0}, TypeError, "empty_start must be True or False"),
    ({"jokers": True}, InputError, "jokers must be 0, 1 or 2, not True"),
    ({"jokers": 1.0}, InputError, "jokers must be 0, 1 or 2, not 1.0"),
    ({"name": ""}, InputError, "a rule set's name is text"),
])
def test_a_rule_set_built_by_hand_takes_switches_as_true_or_false(kw, error, words):
    """was: Rules('mine', wrap='no') linked King and Ace and described itself so, and
    Rules('mine', draw_any_time='no') was solved drawing any time ('won' for a deal the
    programmer meant under the strict draw); jokers=True or 1.0 were taken as one joker"""
    from golfsolve.solitaire.rules import Rules

    with pytest.raises(error, match=words):
        Rules(**{"name": "mine", **kw})
    assert Rules("mine", wrap=np.bool_(False), jokers=np.int64(2)) == Rules("mine", wrap=False, jokers=2)


def test_a_refused_draw_names_the_rule_that_refuses_it_under_any_rule_set():
    """Classic and Easy with ``+stuck`` refuse a draw while a card can go, as Strict does; the
    message named "the strict rule" though the rule set is not Strict."""
    from golfsolve.solitaire.engine import Game
    from golfsolve.solitaire.layout import layout_from_number
    from golfsolve.solitaire.rules import get_rules

    for name in ("classic+stuck", "easy+stuck", "strict"):
        rules = get_rules(name)
        game = next(g for g in (Game(layout_from_number(n, rules), rules) for n in range(50))
                    if any(m != "d" for m in g.legal_moves()))
        res = game.play("d")
        assert not res.ok and res.message.startswith("You may draw only when no card can be removed")
        assert ("strict" in res.message) == (name == "strict"), res.message
