"""A grid run records each bot's full settings, and the study's neighbour difference is paired.

``grid simulate --out`` recorded its bots as typed (``ismcts``), not what the names resolved
to (1,000 iterations, its constants, the heuristic's parameters): after a default changed,
``--resume`` and ``--extend`` would mix two players under one name, and the report could not
say which bot played. Every run now records them (``bot_settings`` in the manifest), the
report shows them, and a run whose bots now resolve otherwise is refused before any play.
The study's "neighbour: after strongest - after heuristic" combined two intervals as if
independent, though both come from the same matches; it is now a paired difference over
matches. Small tables, one-hole matches: seconds.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from golfsolve.errors import InputError
from golfsolve.grid.botnames import BOTS
from golfsolve.grid.bots import bot_from_settings, bot_settings
from golfsolve.intervals import t_quantile
from golfsolve.stats.runfolder import chunk_files

TABLE = ["--players", "2", "--grid", "4", "--holes", "1"]
BOTS_GIVEN = "ismcts,mc"  # both named without a count: what they play with comes from defaults
RUN = [*TABLE, "--bots", BOTS_GIVEN, "--mc-samples", "3", "--matches", "4", "--chunk-size", "1", "--seed", "3"]


def _simulate(run_cli, out: Path, *extra: str):
    return run_cli(["grid", "simulate", *RUN, "--out", str(out), "-q", *extra])


def _manifest(out: Path) -> dict:
    return json.loads((out / "_manifest.json").read_text(encoding="utf-8"))


def _write(out: Path, m: dict) -> None:
    (out / "_manifest.json").write_text(json.dumps(m, indent=2), encoding="utf-8")


def _made(tmp_path_factory, command: str, args: list[str]) -> Path:
    """The run folder ``golfsolve grid COMMAND ARGS --out DIR -q`` made (exit 0)."""
    from golfsolve.cli.main import main

    out = tmp_path_factory.mktemp(command) / "run"
    with pytest.raises(SystemExit) as e:
        main(["grid", command, *args, "--out", str(out), "-q"])
    assert e.value.code == 0
    return out


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A finished four-match run of ismcts (1,000 iterations by default) against mc (3 samples)."""
    return _made(tmp_path_factory, "simulate", RUN)


def _drop_chunk(out: Path, k: int) -> str:
    """Remove the ``k``-th chunk file of the run in ``out`` (as a killed run leaves it); its name."""
    name = sorted(chunk_files(out))[k]
    chunk_files(out)[name].unlink()
    return name


def _copy(run: Path, to: Path) -> Path:
    import shutil

    shutil.copytree(run, to, ignore=shutil.ignore_patterns("_report", ".lock"))
    return to


def test_the_manifest_records_what_each_name_resolved_to(run):
    m = _manifest(run)
    s = m["bot_settings"]
    assert list(s) == ["ismcts", "mc"]
    assert s["ismcts"]["kind"] == "ismcts" and s["ismcts"]["class"] == "ISMCTSBot"
    assert s["ismcts"]["iterations"] == BOTS["ismcts"].default == 1000  # the default, not just the name
    assert {"c_ucb", "horizon", "hp", "place_c"} <= set(s["ismcts"])
    assert s["mc"]["samples"] == 3  # --mc-samples, which the name 'mc' does not show
    assert s == {"ismcts": bot_settings("ismcts"), "mc": bot_settings("mc", 3)}


def test_recorded_settings_round_trip_to_the_same_bot(run):
    for name, s in _manifest(run)["bot_settings"].items():
        bot = bot_from_settings(json.loads(json.dumps(s)))
        assert {"kind": s["kind"], **bot.settings()} == s, name
    for name in ("random", "greedy", "heuristic", "heuristic-fit", "mc-greedy:7", "paired-rel:9"):
        s = bot_settings(name)
        assert {"kind": s["kind"], **bot_from_settings(json.loads(json.dumps(s))).settings()} == s, name
    # settings this golfsolve cannot play are refused, naming the setting, not made into another bot
    with pytest.raises(InputError, match="take_gain 100 where the settings say 90"):
        bot_from_settings({**bot_settings("greedy"), "take_gain": 90})
    heuristic = bot_from_settings({**bot_settings("heuristic"), "hp": [1, 2, 3, 4, 5]})
    assert heuristic.hp.tolist() == [1, 2, 3, 4, 5]


def test_the_report_shows_the_settings(run, run_cli, tmp_path):
    r = run_cli(["grid", "report", str(run), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.stderr
    assert "bots' settings:" in r.stdout and "ISMCTSBot: iterations 1000" in r.stdout
    assert "MCBot: samples 3" in r.stdout
    md = (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    assert "## Bots' settings" in md and "| ismcts | ISMCTSBot: iterations 1000, c_ucb 10.0" in md
    assert "ISMCTSBot: iterations 1000, c_ucb 10.0" in (tmp_path / "rep" / "report.html").read_text(encoding="utf-8")
    data = json.loads(run_cli(["grid", "report", str(run), "--json"]).stdout)
    recorded = _manifest(run)["bot_settings"]
    assert data["meta"]["bot_settings"] == recorded
    assert {b["bot"]: b["settings"] for b in data["bots"]} == recorded
    # simulate's own summary, with and without a run folder, says the same
    r = run_cli(["grid", "simulate", *TABLE, "--bots", "greedy,random", "--matches", "2", "--json"])
    assert {b["bot"]: b["settings"]["class"] for b in json.loads(r.stdout)["bots"]} == \
        {"greedy": "GreedyBot", "random": "RandomBot"}


@pytest.mark.parametrize("flag", [["--resume"], ["--extend", "--matches", "6"]])
def test_a_changed_setting_is_refused_before_any_play(run, run_cli, tmp_path, flag):
    """A later version whose 'ismcts' plays 1,000 iterations where the run's played 500 (made
    here by editing the recorded settings): --resume and --extend refuse in one line naming
    the bot and the setting, exit 2, and leave the folder as it was (the missing chunk unplayed)."""
    out = _copy(run, tmp_path / "run")
    m = _manifest(out)
    m["bot_settings"]["ismcts"]["iterations"] = 500
    _write(out, m)
    lost = _drop_chunk(out, 2)
    before = (out / "_manifest.json").read_bytes()
    r = run_cli(["grid", "simulate", "--out", str(out), "-q", *flag])
    assert r.exit_code == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "bot 'ismcts'" in r.stderr and "iterations 500" in r.stderr and "iterations 1000" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    assert (out / "_manifest.json").read_bytes() == before
    assert lost not in chunk_files(out)


def test_a_manifest_with_unreadable_settings_is_named(run, run_cli, tmp_path):
    out = _copy(run, tmp_path / "run")
    m = _manifest(out)
    m["bot_settings"]["mc"]["samples"] = {"x": 1}
    _write(out, m)
    for args in (["grid", "report", str(out)], ["grid", "simulate", "--out", str(out), "--resume", "-q"]):
        r = run_cli(args)
        assert r.exit_code == 2 and "field bot_settings.mc.samples" in r.stderr, r.stderr


def test_an_old_manifest_without_settings_reports_and_resumes(run, run_cli, tmp_path):
    out = _copy(run, tmp_path / "run")
    m = _manifest(out)
    del m["bot_settings"]
    _write(out, m)
    r = run_cli(["grid", "report", str(out)])
    assert r.exit_code == 0, r.stderr
    assert "bots' settings: not recorded (the run was made by an older golfsolve)" in r.stdout
    assert "did not record its bots' settings" in (out / "_report" / "report.md").read_text(encoding="utf-8")
    data = json.loads(run_cli(["grid", "report", str(out), "--json"]).stdout)
    assert data["meta"]["bot_settings"] is None and all(b["settings"] is None for b in data["bots"])
    lost = _drop_chunk(out, 1)
    r = run_cli(["grid", "simulate", "--out", str(out), "--resume", "-q"])
    assert r.exit_code == 0, r.stderr
    assert lost in chunk_files(out)
    # the table equals the one the run made: the same bots played the chunk again
    cols = ["match", "hole", "seat", "bot", "strokes"]
    assert pd.read_parquet(out)[cols].sort_values(cols[:3]).reset_index(drop=True).equals(
        pd.read_parquet(run)[cols].sort_values(cols[:3]).reset_index(drop=True))
    r = run_cli(["grid", "simulate", "--out", str(out), "--extend", "--matches", "5", "-q"])
    assert r.exit_code == 0, r.stderr
    # the matches before were not recorded: an --extend does not make up a record for them
    assert "bot_settings" not in _manifest(out)


# -- the study ----------------------------------------------------------------------------
STUDY = ["--sets", "holes-1", "--strong", "greedy", "--matches", "4", "--seed", "2", "--chunk-size", "2"]


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> Path:
    """A tiny study: one option set (four players, one hole), greedy as the strongest bot."""
    return _made(tmp_path_factory, "study", STUDY)


def test_the_neighbour_difference_is_paired_within_each_match(study, run_cli):
    df = pd.read_parquet(study)
    table = df[df["cell"] == 0]  # the strongest bot's table
    diffs = []
    for m in sorted(table["match"].unique()):
        h = table[(table["match"] == m) & (table["bot"] == "heuristic")]
        after_strong = h[h["before_bot"] == "greedy"]["strokes"].tolist()
        after_heuristic = h[h["before_bot"] == "heuristic"]["strokes"].tolist()
        diffs.append(sum(after_strong) / len(after_strong) - sum(after_heuristic) / len(after_heuristic))
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1))
    data = json.loads(run_cli(["grid", "report", str(study), "--json"]).stdout)
    got = data["results"][0]["neighbour"]
    assert got["matches"] == n == 4
    assert got["mean"] == pytest.approx(mean)
    # the seeded study's four differences are not all alike, so there is an interval to check
    # (was: an if on sd whose alike-every-match branch never ran; that case is tested below)
    assert sd > 0 and not got["same_every_match"]
    half = t_quantile(n - 1) * sd / math.sqrt(n)
    assert (got["lo"], got["hi"]) == pytest.approx((mean - half, mean + half))
    r = run_cli(["grid", "report", str(study)])
    md = (study / "_report" / "report.md").read_text(encoding="utf-8")
    assert "paired within each match" in md and "Student's t over those matches" in md
    assert "## Bots' settings" in md and "| greedy | GreedyBot: take_gain 100, knock_margin 500 |" in md
    assert "bots' settings:" in r.stdout and "RandomBot: knock_chance 0.05" in r.stdout


def test_a_neighbour_difference_alike_in_every_match_has_no_interval():
    """Two matches in which the heuristic after the strongest bot scored two strokes more than
    after a heuristic: no spread, so no interval, and the table says so instead of printing nan."""
    from golfsolve.grid.rules import GridRules
    from golfsolve.grid.tournament import HOLE_COLUMNS, Tournament
    from golfsolve.stats.studyreport import _paired, neighbour_after

    rows = []
    # three players: s (strongest), then heuristics at seats 1 and 2; seat 1 plays after s
    for m, (after_s, after_h) in enumerate([(7, 5), (10, 8)]):
        for seat, bot, before, x in [(0, "s", "heuristic", 4), (1, "heuristic", "s", after_s),
                                     (2, "heuristic", "heuristic", after_h)]:
            rows.append({**{c: 0 for c in HOLE_COLUMNS}, "match": m, "seat": seat, "entry": seat, "bot": bot,
                         "before_bot": before, "strokes": x, "reason": "closed"})
    t = Tournament(rules=GridRules(players=3, holes=1), bots=["s", "heuristic", "heuristic"], seed=0,
                   holes=pd.DataFrame(rows)[HOLE_COLUMNS], matches=pd.DataFrame())
    d = neighbour_after([t], "s")
    assert d["mean"] == 2.0 and d["matches"] == 2 and d["same_every_match"]
    assert math.isnan(d["lo"]) and math.isnan(d["hi"])
    assert _paired(d) == "+2.00 (the same in every match: no interval)"


def test_a_study_whose_bot_changed_is_refused_and_an_old_one_resumes(study, run_cli, tmp_path):
    import shutil

    out = shutil.copytree(study, tmp_path / "study", ignore=shutil.ignore_patterns("_report", ".lock"))
    m = _manifest(out)
    m["bot_settings"]["heuristic"]["hp"][0] += 1
    _write(out, m)
    r = run_cli(["grid", "study", "--out", str(out), "--resume", "-q"])
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "bot 'heuristic'" in r.stderr and "hp [" in r.stderr, r.stderr
    del m["bot_settings"]
    _write(out, m)
    _drop_chunk(out, 0)
    r = run_cli(["grid", "study", "--out", str(out), "--resume", "-q"])
    assert r.exit_code == 0, r.stderr
    r = run_cli(["grid", "report", str(out)])
    assert r.exit_code == 0 and "bots' settings: not recorded" in r.stdout, r.stderr
