"""``PlayerSettings.card_cost``: the race's last ranking takes that share of the orders raced off
a state's orders won for each card on its table. ``strong`` has 0.02: the sampled count values
play after the draw as if the stock were seen, and a table that keeps more cards leaves more of
that play to a player who will not see it (docs/fair.md measures what it wins)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from golfsolve.errors import InputError
from golfsolve.fair import PRESETS, PlayerSettings, player_view
from golfsolve.fair.player import Player
from golfsolve.solitaire.layout import layout_from_number
from golfsolve.solitaire.rules import CLASSIC, EASY

STRONG = PRESETS["strong"]


@pytest.mark.parametrize("rules, letter, deal", [(CLASSIC, "C", 8), (CLASSIC, "C", 25), (EASY, "E", 8)])
def test_the_race_takes_fewer_cards_where_the_lead_is_worth_less_than_their_cost(rules, letter, deal):
    """Openings where the cost changes strong's choice: both players race on the same orders
    (the same seed, the same batches), the costed one takes a state with fewer cards, and the
    orders by which the other's state leads are fewer than the cost of the cards it keeps."""
    assert STRONG.card_cost == 0.02 and PRESETS["fast"].card_cost == 0
    view, played = player_view(layout_from_number(deal, rules, letter))
    costed = Player(rules, STRONG, 0).decide(view, played)
    free = Player(rules, replace(STRONG, card_cost=0), 0).decide(view, played)
    cv = costed.values
    assert cv.stocks == free.values.stocks and costed.chain != free.chain
    n = len(cv.stocks)
    won = [sum(cv.won(i, d.state) for i in range(n)) for d in (costed, free)]
    fewer = free.state.table - costed.state.table
    assert fewer > 0 and 0 <= won[1] - won[0] < STRONG.card_cost * n * fewer, (won, fewer, n)


@pytest.mark.parametrize("bad", [-0.01, float("nan"), float("inf"), "0.02", True, None])
def test_card_cost_is_a_checked_number(bad):
    with pytest.raises(InputError, match="^card_cost must be a number from 0 up"):
        PlayerSettings(card_cost=bad)
    assert PlayerSettings(card_cost=0).card_cost == 0


def test_a_strong_run_made_before_the_card_cost_is_not_resumed_by_strong(run_cli, tmp_path):
    """A fair-stats run made by ``strong`` before it had ``card_cost`` (read as 0) was made by
    another player: going on would mix two players in one table. Its report says the cost."""
    from run_helpers import as_before_setting

    run = tmp_path / "run"
    r = run_cli(["fair-stats", "--count", "1", "--rules", "classic", "--player", "strong", "-j", "1",
                 "--out", str(run), "-q"])
    assert r.exit_code == 0, r.stderr
    assert json.loads((run / "_manifest.json").read_text())["params"]["player"]["card_cost"] == 0.02
    assert "costing each card on the table 2% of the orders raced" in (run / "_fair.md").read_text()
    as_before_setting(run, "card_cost", chunks=True)
    r = run_cli(["fair-stats", "--out", str(run), "--extend", "--count", "2"])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "player.card_cost" in r.stderr, r.stderr
    assert len(list(run.glob("chunk-*.parquet"))) == 1
