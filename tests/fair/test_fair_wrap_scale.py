"""``PlayerSettings.wrap_scale``: where King and Ace are linked (Easy) the player takes that
many times the orders (samples, extra, race budget, hopeless cap). ``strong`` has 2: on Easy
it is exactly the 32-order player measured in docs/fair.md, elsewhere the 16-order one."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from golfsolve.errors import InputError
from golfsolve.fair import PRESETS, PlayerSettings, play
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import CLASSIC, EASY, get_rules

STRONG = PRESETS["strong"]
#: the player docs/fair.md measured on Easy deals 0..1999 (64.6%), as its JSON settings gave it
MEASURED_EASY = PlayerSettings(samples=32, extra=32, race_budget=128, exact_unknown=8, exact_states=500_000,
                               compiled_exact=True, hopeless=128, card_cost=0.02)


def test_the_counts_of_orders_scale_where_king_and_ace_are_linked_only():
    assert STRONG.wrap_scale == 2 and PRESETS["fast"].wrap_scale == 1
    assert STRONG.for_rules(EASY) == MEASURED_EASY
    for rules in (CLASSIC, get_rules("strict"), get_rules("dead-king")):
        assert not rules.wrap and STRONG.for_rules(rules) is STRONG
    assert get_rules("wrap").wrap and STRONG.for_rules(get_rules("wrap")).samples == 2 * STRONG.samples
    assert PRESETS["fast"].for_rules(EASY) is PRESETS["fast"]
    three = replace(STRONG, wrap_scale=3).for_rules(EASY)
    assert (three.samples, three.extra, three.race_budget, three.hopeless) == \
        tuple(3 * getattr(STRONG, a) for a in ("samples", "extra", "race_budget", "hopeless"))
    assert three.race_batch == STRONG.race_batch and three.exact_unknown == STRONG.exact_unknown


def test_strong_plays_easy_as_the_measured_player_and_classic_as_before():
    strong = [play(layout_from_number(n, EASY, "E"), EASY, "strong", 0) for n in range(3)]
    for n, game in enumerate(strong):
        assert game.moves == play(layout_from_number(n, EASY, "E"), EASY, MEASURED_EASY, 0).moves
    # Classic: the settings without the scale, move for move
    classic = layout_from_number(3, CLASSIC, "C")
    assert play(classic, CLASSIC, "strong", 0).moves == play(classic, CLASSIC, replace(STRONG, wrap_scale=1), 0).moves
    # and the game records the settings it was asked for, the preset's, not the scaled ones
    assert strong[0].settings.preset == "strong"


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2", True, None])
def test_wrap_scale_is_a_checked_count(bad):
    with pytest.raises(InputError, match="wrap_scale"):
        PlayerSettings(wrap_scale=bad)


def test_a_scale_that_would_pass_the_largest_count_is_refused_when_made():
    with pytest.raises(InputError, match="wrap_scale 2 times samples 600000"):
        PlayerSettings(samples=600_000, wrap_scale=2)


def test_a_strong_run_made_without_the_scale_is_not_resumed_by_strong(run_cli, tmp_path):
    """A fair-stats run made by ``strong`` before it had ``wrap_scale`` (read as 1) was made by
    another player on Easy: going on would mix two players in one table."""
    from run_helpers import as_before_setting

    run = tmp_path / "run"
    r = run_cli(["fair-stats", "--count", "1", "--rules", "classic", "--player", "strong", "-j", "1",
                 "--out", str(run), "-q"])
    assert r.exit_code == 0, r.stderr
    assert json.loads((run / "_manifest.json").read_text())["params"]["player"]["wrap_scale"] == 2
    as_before_setting(run, "wrap_scale", chunks=True)
    r = run_cli(["fair-stats", "--out", str(run), "--extend", "--count", "2"])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "wrap_scale" in r.stderr, r.stderr
    assert len(list(run.glob("chunk-*.parquet"))) == 1
