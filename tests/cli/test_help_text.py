"""What each command's --help says: defaults, costs, switches and where a layout comes from, as the
commands do them."""

from __future__ import annotations

import re

import click
import pytest

from golfsolve.cli.main import cli
from golfsolve.grid.rules import _SWITCHES

from hostile_helpers import ROOT


def _option_help(path: list[str], option: str) -> str:
    """The help of ``option`` of ``golfsolve PATH...``, on one line."""
    command = cli
    for name in path:
        command = command.get_command(click.Context(command), name)
    (param,) = [p for p in command.params if option in p.opts]
    return " ".join((param.help or "").split())


def test_grid_simulate_holes_help_names_the_four_card_default(run_cli):
    """``grid simulate --help`` said "Holes per match (default 9)", but the 4-card grid plays
    18 holes (the rules' "18 for the 4-card game"): a user who left --holes out to get the
    documented 9 got a match twice as long. Now the help gives both defaults, and
    docs/grid.md says that ``grid play`` keeps its 3 holes."""
    assert "18 on the 4-card grid" in _option_help(["grid", "simulate"], "--holes")
    for rules in ("danish", "default"):
        r = run_cli(["grid", "simulate", "--rules", rules, "--grid", "4", "--players", "2",
                     "--bots", "greedy,random", "--matches", "1", "--json"])
        assert r.exit_code == 0, r.stderr
        assert '"holes": 18' in r.stdout
        assert len(r.stdout.splitlines()) > 5


def test_stats_difficulty_help_gives_the_cost_stats_md_measures():
    """``stats --help`` put ``--difficulty`` at "about 1 s of CPU per Easy deal and 0.4 s per
    Classic deal" at 8 games, and docs/stats.md at 1.1 and 0.38 s (16 games: 2.3 s), measured
    before the fast player carried its orders and named cards by rank; the same loop now takes
    0.44 and 0.25 s (0.86 s at 16 games), so a user sizing a difficulty census planned for
    twice the CPU it takes. Now the help and stats.md give the figures measured again, and
    agree."""
    text = _option_help(["stats"], "--difficulty")
    easy, classic = re.search(r"at 8 fair games about ([\d.]+) s of CPU per Easy deal and ([\d.]+) s per "
                              r"Classic deal \(deals 0-4\)", text).groups()
    page = " ".join((ROOT / "docs" / "stats.md").read_text(encoding="utf-8").split())
    md_easy, md_classic = re.search(r"at the default 8 games, about ([\d.]+) s of CPU per Easy deal and "
                                    r"([\d.]+) s per Classic deal \(mean over deals 0–4", page).groups()

    def about(figure: str, said: str) -> bool:  # the help's figure is the page's at the help's precision
        return round(float(figure), len(said.partition(".")[2])) == float(said)

    assert about(md_easy, easy) and about(md_classic, classic)
    assert float(md_easy) < 0.6 and float(md_classic) < 0.35  # what the loop takes at commit 2a6a282


def test_an_unknown_rule_switch_names_the_switches_there_are(run_cli):
    """docs/stats.md shows ``--rules classic,wrap+nowrap``, but the README listed only the
    switches jokers1/jokers2, empty and stuck/anytime, and a misspelt one answered "unknown
    rule switch 'nowarp' in 'wrap+nowarp'" with no list (an unknown rule set lists the known
    ones): the switches wrap/nowrap and king-queen/king-nothing/king-neighbours could not be
    found. Now the refusal names every switch, and the README lists them all."""
    from golfsolve.solitaire.rules import SWITCHES, get_rules

    r = run_cli(["deal", "GO1-E-AAAAAAB", "--rules", "wrap+nowarp"])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.strip() == ("golfsolve: unknown rule switch 'nowarp' in 'wrap+nowarp' (known: jokers1, "
                                "jokers2, empty, stuck, anytime, wrap, nowrap, king-queen, king-nothing, "
                                "king-neighbours)")
    for switch in SWITCHES:  # each one named is read
        assert get_rules(f"classic+{switch}").name == f"classic+{switch}"
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    listed = re.search(r"Switches add variants: (.*?) e\.g\. ", readme).group(1)
    assert set(re.findall(r"`\+([a-z0-9-]+)`", listed)) == set(SWITCHES)


def test_play_help_does_not_offer_a_layout_from_stdin_that_play_refuses(run_cli):
    """was: 'play --help' said '--layout FILE ... - reads stdin', and 'play --layout -' was
    refused (play reads its commands there)"""
    r = run_cli(["play", "--help"])
    assert r.exit_code == 0
    assert "--layout FILE" in r.stdout and "reads stdin" not in " ".join(r.stdout.split())
    assert "reads stdin" in " ".join(run_cli(["replay", "--help"]).stdout.split())


@pytest.mark.parametrize("command", [["grid", "simulate"], ["grid", "play"]])
def test_the_rules_help_names_every_switch(run_cli, command):
    """was: ``--rules``'s help listed every switch but +openers-exact and +openers-up-to, the
    only way to play the default's openers under danish or danish's under default."""
    text = "".join(run_cli(command + ["--help"]).stdout.split())  # as wrapped, '+by-' ending a line
    for name in _SWITCHES:
        assert f"+{name}" in text, name


def test_rate_help_gives_the_bands_as_they_are_and_what_a_rating_costs():
    """``rate --help`` gave the bands as "medium 35-60%, hard 15-35%" (which end is whose?) and no
    cost, though a rating at its default 16 games takes about a second of CPU under Easy and
    ``stats --help`` gives the cost of its own ratings. Now it names each band's lowest chance as
    the bands are (``fair.settings.BANDS``), says the winnability is the real deal's, and gives
    the 16-game cost docs/stats.md measures."""
    from golfsolve.fair.settings import BANDS

    command = cli.get_command(click.Context(cli), "rate")
    text = " ".join(command.help.split())
    bands = ", ".join(f"{name} from {100 * low:.0f}%" for name, low in BANDS[:-1])
    assert f"Labels by fair chance: {bands}, {BANDS[-1][0]} below." in text
    assert "the real deal's exact verdict, its stock order seen" in text
    easy, classic = re.search(r"about ([\d.]+) s of CPU per Easy deal and ([\d.]+) s per Classic deal at 16 games",
                              text).groups()
    page = " ".join((ROOT / "docs" / "stats.md").read_text(encoding="utf-8").split())
    md_easy, md_classic = re.search(r"16 games took ([\d.]+) s per Easy deal and ([\d.]+) s per Classic deal",
                                    page).groups()
    assert round(float(md_easy), 1) == float(easy) and float(md_classic) == float(classic)


def test_stats_difficulty_help_names_the_rate_command_its_columns_equal():
    """``stats --help`` said the columns are "as 'golfsolve rate' gives them", but ``rate`` plays 16
    games by default and ``--difficulty`` 8: a user who checked a row with ``golfsolve rate CODE``
    got another chance, and often another label. Now it names ``rate --games N`` and where N
    comes from, as the report's Difficulty section does."""
    from golfsolve.stats.census import DEFAULT_DIFFICULTY_GAMES

    rate_games = [p for p in cli.get_command(click.Context(cli), "rate").params if p.name == "games"][0].default
    assert rate_games != DEFAULT_DIFFICULTY_GAMES  # why the help must name the games
    assert "as 'golfsolve rate --games N' gives them, N from --difficulty-games, seed 0" in _option_help(
        ["stats"], "--difficulty")
