"""Bad grid input through the command, each in its own process: one line on stderr, exit
code 2, nothing played and no traceback. (The processes are forked from a server that has
done the imports, :class:`run_helpers.CommandForks`: the tests are about what a command does
with its input, and a new interpreter spends 1-2 s of CPU on imports alone. A run folder a
test only needs as its starting point is made in the test's own process: :func:`_made`.)"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from run_helpers import CommandForks

#: What the grid commands import (numba, the grid's bots and kernels' modules, the report's pandas and matplotlib).
PRELOAD = ("numba", "pandas", "pyarrow.parquet", "matplotlib", "golfsolve.cli.main", "golfsolve.cli.grid",
           "golfsolve.grid.compiling", "golfsolve.grid.bots", "golfsolve.stats.gridreport", "golfsolve.stats.gridruns")
_forks: list = []


@pytest.fixture(scope="module", autouse=True)
def _fork_server():
    _forks.append(CommandForks(PRELOAD))
    yield
    _forks.pop().close()


def golfsolve(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """``golfsolve ARGS`` in a new process, ``stdin`` its input."""
    return _forks[-1].completed(*args, input=stdin, env={"COLUMNS": "200"})


def _made(run_cli, *args: str) -> None:
    """A run folder a test then damages or runs again, made in this process: only what
    is done to it after is the user's command under test (a new process costs about 2 s
    of CPU, for imports and kernels this process has loaded already)."""
    r = run_cli(list(args))
    assert r.exit_code == 0, r.stderr


def _refused(r: subprocess.CompletedProcess, words: str) -> None:
    assert r.returncode == 2, r.stderr
    assert r.stdout == ""
    assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("golfsolve: ") and words in r.stderr, r.stderr


@pytest.mark.parametrize("bots,words", [
    # an empty name was dropped: two bots played where three were typed
    ("heuristic,,heuristic", "empty bot name"),
    ("heuristic,", "empty bot name"),
    (",", "needs at least one bot name"),
    ("", "needs at least one bot name"),
    # was "grid Golf is for 2 to 6 players, not 1": the unknown name was never named
    ("nosuch", "unknown bot 'nosuch'"),
    ("heuristic", "--bots names 1 bot: grid Golf seats 2 to 6 players"),
    # was: 2, 10 and 3 samples (int() reads other digits, underscores and a sign)
    ("mc:\u0662,greedy", "bad Monte Carlo sample count in 'mc:\u0662': a whole number in digits 0-9"),
    ("mc:1_0,greedy", "bad Monte Carlo sample count in 'mc:1_0'"),
    ("ismcts:+3,greedy", "bad ISMCTS iteration count in 'ismcts:+3'"),
])
def test_simulate_refuses_a_bad_bot_list(bots, words):
    _refused(golfsolve("grid", "simulate", "--bots", bots, "--matches", "1", "--holes", "1", "-q"), words)


@pytest.mark.parametrize("bots,words", [("heuristic,,greedy", "empty bot name"), ("", "needs at least one bot name")])
def test_play_refuses_a_bad_bot_list(bots, words):
    _refused(golfsolve("grid", "play", "--bots", bots, "--seed", "1"), words)


def test_bot_names_are_written_one_way():
    r = golfsolve("grid", "simulate", "--bots", " ISMCTS: 2 ,Heuristic", "--matches", "1", "--holes", "1", "--json",
                  "-q")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["meta"]["bots"] == ["ismcts:2", "heuristic"]


def test_simulate_without_a_run_folder_has_the_same_limits_as_with_one():
    # was: accepted, and played for ever (a run folder refuses more than 1,000,000 matches)
    _refused(golfsolve("grid", "simulate", "--matches", "99999999999999", "-q"), "--matches must be from 1 to 1,000,000")


def test_a_one_set_study_reads_right(tmp_path, run_cli):
    # was "1 option sets" and "(**greedy**: GreedyBot, )" for a bot without settings
    out = tmp_path / "study"
    _made(run_cli, "grid", "study", "--out", str(out), "--sets", "base", "--strong", "greedy", "--matches", "1", "-q")
    rep = golfsolve("grid", "report", str(out))
    assert rep.returncode == 0, rep.stderr
    assert rep.stdout.startswith("1 option set, 1 match per table, strongest bot greedy")
    md = (out / "_report" / "report.md").read_text(encoding="utf-8")
    # greedy's settings are its constants now that every setting that decides a bot's play is recorded
    assert "1 option set, two tables each, 1 match per table" in md
    assert "(**greedy**: GreedyBot, take_gain 100, knock_margin 500)" in md


def test_a_hand_edited_count_names_matches_in_english(tmp_path, run_cli):
    out = tmp_path / "run"
    _made(run_cli, "grid", "simulate", "--bots", "greedy,random", "--holes", "1", "--matches", "2", "--out", str(out), "-q")
    m = json.loads((out / "_manifest.json").read_text())
    m["count"] = 10**12
    (out / "_manifest.json").write_text(json.dumps(m))
    # the blocks no longer match the count (checked first): named in matches, not deals
    _refused(golfsolve("grid", "report", str(out)), "field blocks: the blocks do not cover matches 0..999999999999")


def test_one_match_has_no_interval_and_says_so(tmp_path):
    # was "internal error: TypeError: unsupported format string passed to NoneType.__format__"
    out = tmp_path / "run"
    for args in ([], ["--out", str(out)]):
        r = golfsolve("grid", "simulate", "--bots", "greedy,random", "--holes", "1", "--matches", "1", *args, "-q")
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith("1 match, 1 hole: ") and "greedy - random: " in r.stdout
        assert r.stdout.count("[no interval from one match]") == 3, r.stdout
    rep = golfsolve("grid", "report", str(out))
    assert rep.returncode == 0, rep.stderr
    assert (out / "_report" / "report.html").is_file()


def test_resume_with_another_seed_says_which_is_which(tmp_path, run_cli):
    out = tmp_path / "run"
    _made(run_cli, "grid", "simulate", "--bots", "greedy,random", "--holes", "1", "--matches", "1", "--out", str(out), "-q")
    # was "this command asks for another seed 0 (here 5)": the run's seed read as the one asked for
    _refused(golfsolve("grid", "simulate", "--out", str(out), "--resume", "--seed", "5", "-q"),
             "this command differs in seed 0 (here 5)")


@pytest.mark.parametrize("spec,words", [
    # was "unknown grid rule 'danish' (known: default, ..., danish, ...)"
    ("danish+danish", "'danish' in 'danish+danish' is a rule set, not a switch"),
    ("putt+default", "'default' in 'putt+default' is a rule set, not a switch"),
])
def test_a_rule_set_given_as_a_switch_is_named_as_such(spec, words):
    _refused(golfsolve("grid", "simulate", "--rules", spec, "--matches", "1", "-q"), words)


def test_report_on_a_file_says_it_is_a_file(tmp_path):
    f = tmp_path / "results.parquet"
    f.write_bytes(b"PAR1")
    # was "no results directory '.../results.parquet'", as if it did not exist
    _refused(golfsolve("grid", "report", str(f)), "is a file, not a run folder")


def test_a_study_is_never_told_to_use_extend_which_it_does_not_have(tmp_path, run_cli):
    out = tmp_path / "study"
    args = ["grid", "study", "--out", str(out), "--sets", "base", "--strong", "greedy", "--matches", "1", "-q"]
    _made(run_cli, *args)
    again = golfsolve(*args)
    _refused(again, "add --resume to continue it, or choose another --out")
    other = golfsolve(*args[:-2], "2", "--resume", "-q")
    _refused(other, "repeat the run's options, or choose another --out")
    assert "--extend" not in again.stderr + other.stderr
    sim = tmp_path / "sim"
    _made(run_cli, "grid", "simulate", "--bots", "greedy,random", "--holes", "1", "--matches", "1", "--out", str(sim), "-q")
    _refused(golfsolve("grid", "simulate", "--out", str(sim), "--resume", "--seed", "5", "-q"),
             "use --extend to add matches, or choose another --out")  # was "to add deals or rule sets"


@pytest.mark.parametrize("meta,words", [
    ("[1]", "is not a readable 'golfsolve grid simulate' folder"),  # was "internal error: AttributeError"
    ('{"rules": {"players": 2}, "bots": ["greedy", "random"], "seed": 0}', "has 1 hole, not 9"),
])
def test_a_hand_made_old_layout_folder_is_refused_in_one_line(tmp_path, meta, words):
    import pandas as pd

    (tmp_path / "meta.json").write_text(meta)
    pd.DataFrame({"match": [0, 0], "hole": [0, 0], "seat": [0, 1], "bot": ["greedy", "random"],
                  "strokes": [5, 9]}).to_parquet(tmp_path / "holes.parquet")
    pd.DataFrame({"match": [0, 0], "seat": [0, 1], "bot": ["greedy", "random"]}).to_parquet(tmp_path / "matches.parquet")
    _refused(golfsolve("grid", "report", str(tmp_path)), words)


@pytest.fixture(scope="module")
def small_study(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """A finished two-match study and its report, played once; each test edits a copy."""
    out = tmp_path_factory.mktemp("small-study") / "study"
    from golfsolve.cli.main import main

    with pytest.raises(SystemExit) as e:  # made in this process, as _made makes a test's run folder
        main(["grid", "study", "--out", str(out), "--sets", "base", "--strong", "greedy", "--matches", "2", "-q"])
    assert e.value.code == 0
    return out, golfsolve("grid", "report", str(out), "--json")


def test_a_study_reports_the_same_numbers_with_or_without_the_report_written(small_study, tmp_path, run_cli):
    # --json alone draws no plot and writes no report (the fixture's run); with --out, both
    out, only = small_study
    assert only.returncode == 0 and not (out / "_report").exists(), only.stderr
    both = run_cli(["grid", "report", str(out), "--json", "--out", str(tmp_path / "rep")])
    assert both.exit_code == 0, both.stderr
    assert json.loads(both.stdout) == json.loads(only.stdout)
    assert (tmp_path / "rep" / "study.png").is_file() and (tmp_path / "rep" / "report.md").is_file()


@pytest.mark.parametrize("edit,says", [
    (lambda d: d.iloc[:-3], "does not hold one row per seat and hole of item"),  # was reported as if whole
    (lambda d: d.assign(bot="nosuch"), "names a bot that item"),  # was "internal error: KeyError"
    (lambda d: d.assign(seat=d["seat"] + 10), "does not hold one row per seat and hole"),
    (lambda d: d.assign(cell=7), "column 'cell'"),
])
def test_a_hand_edited_study_chunk_is_refused_then_replayed(small_study, tmp_path, edit, says):
    import shutil

    import pandas as pd

    out = Path(shutil.copytree(small_study[0], tmp_path / "study"))
    good = small_study[1]
    args = ["grid", "study", "--out", str(out), "--sets", "base", "--strong", "greedy", "--matches", "2", "-q"]
    chunk = sorted(out.glob("chunk-*.parquet"))[1]
    edit(pd.read_parquet(chunk)).to_parquet(chunk)
    _refused(golfsolve("grid", "report", str(out)), says)
    fixed = golfsolve(*args, "--resume")
    assert fixed.returncode == 0 and f"played again: {chunk.name}" in fixed.stderr, fixed.stderr
    again = golfsolve("grid", "report", str(out), "--json")
    assert json.loads(again.stdout)["sets"] == json.loads(good.stdout)["sets"]


def test_a_hand_edited_simulate_chunk_is_refused(tmp_path, run_cli):
    import pandas as pd

    out = tmp_path / "run"
    _made(run_cli, "grid", "simulate", "--bots", "greedy,random", "--holes", "2", "--matches", "2", "--out", str(out),
          "--chunk-size", "1", "-q")
    chunk = sorted(out.glob("chunk-*.parquet"))[0]
    pd.read_parquet(chunk).iloc[1:].to_parquet(chunk)
    _refused(golfsolve("grid", "report", str(out)), "does not hold one row per seat and hole of match 0")


def test_json_is_strict_json_even_without_intervals(tmp_path, run_cli):
    # a one-match study's --json held NaN, which strict JSON parsers refuse
    out = tmp_path / "study"
    _made(run_cli, "grid", "study", "--out", str(out), "--sets", "base", "--strong", "greedy", "--matches", "1", "-q")
    r = golfsolve("grid", "report", str(out), "--json")
    assert r.returncode == 0, r.stderr

    def refuse(c):
        raise ValueError(c)

    data = json.loads(r.stdout, parse_constant=refuse)
    assert data["sets"]


@pytest.mark.parametrize("strong,words", [("ismcts:3,mc", "--strong is one bot, not 2"),
                                          ("ismcts:3,", "--strong has an empty bot name")])
def test_study_strong_is_one_bot(tmp_path, strong, words):
    _refused(golfsolve("grid", "study", "--out", str(tmp_path / "s"), "--sets", "base", "--strong", strong,
                       "--matches", "1", "-q"), words)
    assert not (tmp_path / "s").exists()


def test_study_strong_is_written_one_way(tmp_path):
    # "ISMCTS: 3" and "ismcts:3" are one bot: resuming with either continues the same study
    out = tmp_path / "s"
    args = ["grid", "study", "--out", str(out), "--sets", "base", "--matches", "1", "-q"]
    assert golfsolve(*args, "--strong", "ISMCTS: 3").returncode == 0
    r = golfsolve(*args, "--strong", "ismcts:3", "--resume")
    assert r.returncode == 0, r.stderr
    assert "strongest bot ismcts:3," in golfsolve("grid", "report", str(out)).stdout


@pytest.mark.parametrize("bots", ["greedy,random", "mc:8,heuristic", "MC:8,greedy"])
def test_mc_samples_without_a_bot_that_takes_them_is_refused(bots):
    # was: exit 0, the option silently ignored (no mc bot, or each mc bot names its own count)
    _refused(golfsolve("grid", "simulate", "--bots", bots, "--mc-samples", "5", "--matches", "1", "--holes", "1",
                       "-q"), "--mc-samples sets the sample count of mc and mc-greedy bots")


def test_mc_samples_with_an_mc_bot_plays_and_is_recorded(tmp_path):
    r = golfsolve("grid", "simulate", "--bots", "mc-greedy,greedy", "--mc-samples", "2", "--grid", "4", "--matches",
                  "1", "--holes", "1", "-q", "--out", str(tmp_path / "run"))
    assert r.returncode == 0, r.stderr
    m = json.loads((tmp_path / "run" / "_manifest.json").read_text())
    assert m["params"]["mc_samples"] == 2


def test_play_whose_input_ends_mid_match_says_so_and_exits_1():
    # was: exit 0, as if the match had been played; q still leaves with 0 (test_input_contract)
    r = golfsolve("grid", "play", "--players", "2", "--grid", "4", "--holes", "2", "--seed", "3", "--ascii",
                  stdin="1 2\ns\n")
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "Match left unfinished: the input ended." in r.stdout and "Match over" not in r.stdout
    assert r.stderr.splitlines() == ["golfsolve: the match was not finished: the input ended during hole 1 of 2"]


@pytest.mark.parametrize("kw, words", [
    ({"seed": -1}, "seed must be from 0"),  # was: ValueError from NumPy's SeedSequence
    ({"seed": float("nan")}, "seed must be a whole number"),  # was: TypeError
    ({"matches": 2.5}, "--matches must be a whole number"),  # was: TypeError from range()
    ({"samples": 0}, "Monte Carlo samples must be from 1"),
    ({"samples": 10**9}, "Monte Carlo samples must be from 1 to 1,000,000"),  # was: accepted
])
def test_the_library_simulate_checks_its_numbers_as_the_command_does(kw, words):
    from golfsolve.errors import InputError
    from golfsolve.grid.rules import parse_rules
    from golfsolve.grid.tournament import simulate

    args = {"rules": parse_rules("default", players=2, holes=1), "bots": ["mc", "random"], "matches": 1, "seed": 0}
    with pytest.raises(InputError, match=words):
        simulate(**{**args, **kw})


def test_a_run_that_lost_a_chunk_is_unfinished_whatever_its_manifest_says(run_cli, tmp_path):
    """A chunk gone after the run finished: 'grid report' covered what was left as if it were
    the whole run, and a study's report called it complete (both trusted the manifest)."""
    from golfsolve.stats.gridruns import GRID, planned_matches

    out = tmp_path / "run"
    r = run_cli(["grid", "simulate", "--bots", "random,random", "--matches", "2", "--holes", "1", "--chunk-size", "1",
                 "--out", str(out), "-q"])
    assert r.exit_code == 0, r.stderr
    assert planned_matches(out) is None and GRID.load(out)[0]["complete"]
    (out / "chunk-0000000001.parquet").unlink()
    assert planned_matches(out) == 2  # the report then says "1 of 2 matches so far"
    assert not GRID.load(out)[0]["complete"]


def test_a_study_set_number_is_in_digits_0_to_9(tmp_path):
    # was: 'players-\u0663' (an Arabic-Indic 3) played a whole study at three players
    _refused(golfsolve("grid", "study", "--sets", "players-\u0663", "--matches", "1", "--out", str(tmp_path / "s")),
             "unknown option set 'players-\u0663'")
    assert not (tmp_path / "s").exists()


def test_play_takes_slot_numbers_in_digits_0_to_9_only():
    # was: '\u0661 \u0662' (Arabic-Indic digits) turned slots 1 and 2
    r = golfsolve("grid", "play", "--players", "2", "--seed", "1", "--holes", "1", "--ascii",
                  stdin="\u0661 \u0662\nq\n")
    assert r.returncode == 0 and "give 2 different slot numbers from 1 to 6" in r.stdout, r.stderr
    assert "Match left unfinished: you quit." in r.stdout


def test_resume_refuses_a_manifest_whose_table_was_edited_after_its_chunks(tmp_path, run_cli):
    import pandas as pd
    import pyarrow.parquet as pq

    from golfsolve.stats.runkey import MADE_WITH

    out = tmp_path / "run"
    _made(run_cli, "grid", "simulate", "--bots", "greedy,random", "--holes", "1", "--matches", "2", "--out", str(out),
          "--chunk-size", "1", "-q")
    chunks = sorted(out.glob("chunk-*.parquet"))
    chunks[1].unlink()  # as if killed before the second chunk
    m = json.loads((out / "_manifest.json").read_text())
    m["params"]["table"]["twos_plus"] = True
    (out / "_manifest.json").write_text(json.dumps(m))
    # was: exit 0, match 1 played with twos worth +2 and match 0 kept from the -2 table, one run
    _refused(golfsolve("grid", "simulate", "--out", str(out), "--resume", "-q"),
             "was made with table.twos_plus False where the manifest now has True: the manifest was edited (put")
    assert not chunks[1].exists()
    _refused(golfsolve("grid", "report", str(out)), "put it back as it was")
    # put back, the run finishes; a chunk from before chunks recorded their settings is read as it is
    m["params"]["table"]["twos_plus"] = False
    (out / "_manifest.json").write_text(json.dumps(m))
    assert MADE_WITH.encode() in pq.read_schema(chunks[0]).metadata
    pd.read_parquet(chunks[0]).to_parquet(chunks[0], index=False)
    assert MADE_WITH.encode() not in pq.read_schema(chunks[0]).metadata
    r = golfsolve("grid", "simulate", "--out", str(out), "--resume", "-q")
    assert r.returncode == 0, r.stderr
    assert golfsolve("grid", "report", str(out)).returncode == 0
