"""Each bad input found in issue 12 gets exit 2 and one line naming the problem, before any work."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from golfsolve.cards import CardError
from golfsolve.errors import InputError
from golfsolve.grid.rules import parse_rules
from golfsolve.solitaire.dealcode import DealCodeError
from golfsolve.solitaire.layout import LayoutError, read_layout_file
from golfsolve.solitaire.rules import RulesError, get_rules
from hostile_helpers import one_line_error, quiet_stderr


def _one_line(r) -> bool:
    lines = r.stderr.strip().splitlines()
    return len(lines) == 1 and lines[0].startswith("golfsolve: ") and "internal error" not in r.stderr


def test_every_domain_error_is_an_input_error():
    for cls in (CardError, DealCodeError, LayoutError, RulesError):
        assert issubclass(cls, InputError)


def test_errors_module_imports_nothing_from_golfsolve():
    src = open(sys.modules["golfsolve.errors"].__file__, encoding="utf-8").read()
    assert "from ." not in src and "import golfsolve" not in src


@pytest.mark.parametrize("spec, words", [
    ("easy+jokers1+jokers2", "'jokers1' and 'jokers2' contradict"),
    ("easy+empty+empty", "'empty' is given twice"),
    ("classic+stuck+anytime", "'stuck' and 'anytime' contradict"),
    ("", "needs a name"),
    ("easy+", "empty rule switch"),
])
def test_contradictory_repeated_or_empty_rule_switches_are_refused(spec, words):
    with pytest.raises(RulesError, match=words):
        get_rules(spec)


def test_compatible_switches_still_work():
    r = get_rules("classic+jokers2+empty+stuck")
    assert (r.jokers, r.empty_start, r.draw_any_time) == (2, True, False)


@pytest.mark.parametrize("spec, words", [
    ("danish+knock10+knock-double", "'knock10' and 'knock-double' contradict"),
    ("default+putt+putt", "'putt' is given twice"),
    ("rows+anywhere", "contradict"),
    ("", "needs a name"),
    ("default++putt", "empty grid rule switch"),
])
def test_grid_rule_switches_are_checked(spec, words):
    with pytest.raises(InputError, match=words):
        parse_rules(spec)


@pytest.mark.parametrize("args, words", [
    (["deal", "--pysol", "18446744073709551616"], "PySol deal numbers are 1 to"),
    (["solve", "--pysol", "99999999999999999999"], "PySol deal numbers are 1 to"),
    (["grid", "simulate", "--seed", "-1", "--matches", "1"], "--seed must be from 0"),
    (["grid", "play", "--seed", "-1"], "--seed must be from 0"),
    (["grid", "simulate", "--players", "0", "--matches", "1"], "2 to 6 players, not 0"),
    (["grid", "play", "--players", "0"], "2 to 6 players, not 0"),
    (["grid", "simulate", "--bots", "mc:,greedy", "--matches", "1"], "needs a count after the colon"),
    (["solve", "GO1-E-AAAAAAB", "--rules", ""], "needs a name"),
    (["fair-stats", "--count", "1", "--rules", "", "--out", "OUT"], "at least one rule set"),
    (["stats", "--count", "3", "--rules", "easy,,classic", "--out", "OUT"], "--rules has an empty rule set name"),
    (["fair-stats", "--count", "1", "--rules", "easy,", "--out", "OUT"], "--rules has an empty rule set name"),
    (["stats", "--count", "3", "--jobs", "100000", "--out", "OUT"], "--jobs must be from 1 to"),
    (["grid", "simulate", "--workers", "2"], "need --out"),
    (["stats", "--count", "8031810176", "--out", "OUT"], "--chunk-size of at least"),
    # was: the run folder made, a chunk computed, then its own manifest refused ("repair or remove the file")
    (["stats", "--count", "2", "--chunk-size", str(2**70), "--out", "OUT"], "--chunk-size must be from 1 to 2**63-1"),
    (["fair-stats", "--count", "1", "--chunk-size", str(2**70), "--out", "OUT"], "--chunk-size must be from 1 to 2**63-1"),
    (["grid", "simulate", "--matches", "1", "--chunk-size", str(2**70), "--out", "OUT"], "--chunk-size must be from 1"),
    (["grid", "study", "--matches", "1", "--chunk-size", str(2**70), "--out", "OUT"], "--chunk-size must be from 1"),
    # was: taken as no scheduler, and a private Dask cluster started in place of the one meant
    (["stats", "--count", "1", "--engine", "dask", "--scheduler", "", "--out", "OUT"], "--scheduler needs an address"),
    # was: Dask's 20 s connect timeout before a port that cannot be was named
    (["stats", "--count", "1", "--engine", "dask", "--scheduler", "tcp://127.0.0.1:99999", "--out", "OUT"],
     "the port must be a number from 1 to 65535"),
    (["stats", "--count", "1", "--engine", "dask", "--scheduler", "tcp://", "--out", "OUT"],
     "--scheduler needs an address"),
])
def test_out_of_range_numbers_and_bad_combinations_exit_2(run_cli, tmp_path, args, words):
    r = run_cli([str(tmp_path / "out") if a == "OUT" else a for a in args])
    assert r.exit_code == 2 and words in r.stderr and _one_line(r), r.stderr
    assert not (tmp_path / "out").exists()


def test_a_long_bad_code_is_clipped_in_the_message(run_cli):
    r = run_cli(["deal", "G" * 100_000])
    assert r.exit_code == 2 and _one_line(r)
    assert len(r.stderr) < 300 and "100,000 characters" in r.stderr


def test_layout_with_a_byte_order_mark_is_read(tmp_path, data_dir):
    f = tmp_path / "bom.txt"
    f.write_bytes(b"\xef\xbb\xbf" + (data_dir / "seed000_start.txt").read_bytes())
    a, b = read_layout_file(f), read_layout_file(data_dir / "seed000_start.txt")
    assert (a.columns, a.discard, a.stock) == (b.columns, b.discard, b.stock)


def test_layout_reader_refuses_more_than_64_kb(tmp_path, run_cli):
    f = tmp_path / "big.txt"
    f.write_bytes(b"y\n" * 40_000)
    with pytest.raises(LayoutError, match="larger than 64 KB"):
        read_layout_file(f)
    r = run_cli(["solve", "--layout", "-"], input=b"y\n" * 40_000)
    assert r.exit_code == 2 and "larger than 64 KB" in r.stderr and _one_line(r)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_endless_input_stops_quickly():
    # the subprocess timeouts are the bound: a reader that does not stop fails with TimeoutExpired
    r = subprocess.run([sys.executable, "-m", "golfsolve", "solve", "--layout", "/dev/zero"],
                       capture_output=True, text=True, timeout=60)
    # a device is not a layout file: refused before it is opened
    assert r.returncode == 2 and "not a regular file" in r.stderr
    with open("/dev/zero", "rb") as zero:
        r = subprocess.run([sys.executable, "-m", "golfsolve", "solve", "--layout", "-"], stdin=zero,
                           capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "larger than 64 KB" in r.stderr
    yes = subprocess.Popen(["yes"], stdout=subprocess.PIPE)
    try:
        r = subprocess.run([sys.executable, "-m", "golfsolve", "solve", "--layout", "-"], stdin=yes.stdout,
                           capture_output=True, text=True, timeout=60)
    finally:
        yes.kill()
        yes.wait()
    assert r.returncode == 2 and "larger than 64 KB" in r.stderr


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_play_stops_at_a_line_that_never_ends():
    # was: no end, and 2 GB of memory after 6 s (readline waited for a line break)
    with open("/dev/zero", "rb") as zero:
        r = subprocess.run([sys.executable, "-m", "golfsolve", "play", "GO1-E-AAAAAAB"], stdin=zero,
                           capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "a line of the input is longer than 65,536 characters" in r.stderr, r.stderr


def test_grid_play_refuses_a_line_longer_than_64_k(run_cli):
    r = run_cli(["grid", "play", "--seed", "1", "--holes", "1"], input="1" * 70_000)
    assert r.exit_code == 2 and "a line of the input is longer than 65,536 characters" in r.stderr and _one_line(r)


@pytest.mark.parametrize("args", [[], ["grid"]])
def test_bare_commands_print_the_whole_help(run_cli, args):
    r = run_cli(args)
    assert r.exit_code == 0 and r.stderr == ""
    assert r.stdout.startswith("Usage: golfsolve") and "Commands:" in r.stdout
    assert len(r.stdout.splitlines()) > 5


def test_grid_play_help_states_its_own_holes_default(run_cli):
    assert "(default 3)" in run_cli(["grid", "play", "--help"]).stdout
    assert "(default 9; 18 on the 4-card grid)" in " ".join(
        run_cli(["grid", "simulate", "--help"]).stdout.split())
    # and players: was "one per bot" for both, where simulate seats 4 without --bots and play adds you
    assert "4 without --bots" in " ".join(run_cli(["grid", "simulate", "--help"]).stdout.split())
    assert "you and one per bot" in " ".join(run_cli(["grid", "play", "--help"]).stdout.split())


def test_grid_play_quits_on_q_and_explains_a_refused_answer(run_cli):
    answers = "1 2\nh\ns\nf 9\nq\n"
    r = run_cli(["grid", "play", "--players", "2", "--grid", "4", "--holes", "1", "--seed", "3", "--ascii"],
                input=answers)
    assert r.exit_code == 0, r.stderr
    assert "leave the match" in r.stdout  # the help
    assert "not allowed: slots are numbered 1 to 4" in r.stdout
    assert "Match left unfinished: you quit." in r.stdout


def test_undecodable_stdin_is_bad_input(run_cli):
    r = run_cli(["play", "GO1-E-AAAAAAB"], input=b"\x80\x81\n")
    assert r.exit_code == 2 and "not UTF-8" in r.stderr and _one_line(r)


# -- found by the audit: numbers no kernel can take, and counts that would fill the memory --------

HUGE = str(2**70)


@pytest.mark.parametrize("args, words", [
    (["solve", "GO1-E-AAAAAAB", "--node-limit", HUGE], "--node-limit"),  # was: internal error, OverflowError
    (["hint", "GO1-E-AAAAAAB", "--node-limit", HUGE], "--node-limit"),
    (["odds", "GO1-E-AAAAAAB", "--samples", HUGE], "--samples"),  # was: gigabytes of sampled orders
    (["hint", "GO1-E-AAAAAAB", "--fair", "--player", HUGE], "--player"),
    (["rate", "GO1-E-AAAAAAB", "--games", HUGE], "--games"),
    (["pick", "--difficulty", "easy", "--games", HUGE], "--games"),
    (["odds", "GO1-E-AAAAAAB", "--seed", "-1"], "--seed"),  # was: accepted, and seeded like 1
    (["hint", "GO1-E-AAAAAAB", "--fair", "--seed", "-1"], "--seed"),
    (["rate", "GO1-E-AAAAAAB", "--seed", "-1"], "--seed"),
    (["pick", "--difficulty", "easy", "--seed", "-1"], "--seed"),
    (["stats", "--count", "3", "--difficulty", "--difficulty-games", HUGE, "--out", "OUT"], "--difficulty-games"),
    (["fair-stats", "--count", "1", "--player", "huge", "--out", "OUT"], "--player"),
    (["grid", "simulate", "--matches", "1", "--bots", "mc,greedy", "--mc-samples", HUGE], "--mc-samples"),  # was: numba TypingError
    (["grid", "simulate", "--matches", "1", "--bots", f"mc:{HUGE},greedy"], "sample count in 'mc:"),
    (["grid", "simulate", "--matches", "1", "--bots", f"ismcts:{HUGE},greedy"], "iteration count in 'ismcts:"),
    (["grid", "play", "--bots", f"mc-greedy:{HUGE}"], "sample count in 'mc-greedy:"),
])
def test_numbers_out_of_range_for_the_work_exit_2(run_cli, tmp_path, args, words):
    r = run_cli([str(tmp_path / "out") if a == "OUT" else a for a in args])
    assert r.exit_code == 2 and words in r.stderr and _one_line(r), r.stderr
    assert not (tmp_path / "out").exists()


GIANT = "9" * 5000  # past the 4,300 digits Python's int() reads


@pytest.mark.parametrize("args, words", [
    # was: "internal error: ValueError: Exceeds the limit (4300 digits) for integer string conversion"
    (["solve", "--pysol", GIANT], "PySol deal numbers are 1 to"),
    (["solve", "--pysol", f"1-{GIANT}"], "PySol deal numbers are 1 to"),
    (["grid", "simulate", "--matches", "1", "--bots", f"mc:{GIANT},greedy"], "sample count in 'mc:"),
])
def test_numbers_of_thousands_of_digits_exit_2(run_cli, args, words):
    r = run_cli(args)
    assert r.exit_code == 2 and words in r.stderr and _one_line(r), r.stderr
    assert len(r.stderr) < 600


def test_play_takes_a_tap_of_thousands_of_digits_as_a_bad_tap(run_cli):
    # was: the game ended with "internal error: ValueError: Exceeds the limit (4300 digits)"
    r = run_cli(["play", "GO1-E-AAAAAAB"], input=f"t {GIANT} 1\nt 1 5\nq\n")
    assert "usage: t COL ROW" in r.stdout and "internal error" not in r.stderr, r.stderr
    assert r.stdout.count("usage: t COL ROW") == 1


def test_check_count_names_a_number_too_long_to_write():
    from golfsolve.errors import InputError, check_count

    # was: ValueError from formatting the number, not the InputError
    with pytest.raises(InputError, match="not a number of 5,000 digits"):
        check_count(10**4999, "node_limit", 0, 2**63 - 1)


def test_limits_are_inclusive_at_the_top():
    from golfsolve.errors import MAX_EFFORT, check_count
    from golfsolve.grid.bots import make_bot

    assert make_bot(f"mc:{MAX_EFFORT}").samples == MAX_EFFORT
    assert check_count(MAX_EFFORT, "x") == MAX_EFFORT
    with pytest.raises(InputError, match="x must be from 1 to 1,000,000, not 1,000,001"):
        check_count(MAX_EFFORT + 1, "x")


def test_pick_stops_at_the_last_deal_instead_of_failing_past_it():
    from golfsolve.solitaire.dealcode import N_DEALS
    from golfsolve.fair import pick
    from golfsolve.solitaire.rules import EASY

    # was: a deal-code error (exit 2) after the last deal had been rated (a --count more than
    # the deals left is now refused before any: tests/fair/test_difficulty.py)
    res = pick(EASY, "easy", count=1, start=N_DEALS - 1, winnable=False, games=1, max_deals=10)
    assert res.examined == 1 and res.last_deal


def _shell(cmd: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "GOLFSOLVE_PY": sys.executable})


@pytest.mark.skipif(not os.path.exists("/bin/bash"), reason="needs bash")
def test_closed_standard_streams():
    g = '"$GOLFSOLVE_PY" -m golfsolve'
    # a closed stdin reads as empty input (was: internal error, AttributeError on None)
    r = _shell(f"{g} solve --layout - <&-")
    assert r.returncode == 2 and r.stderr.strip() == "golfsolve: the layout is empty", r.stderr
    r = _shell(f"{g} play GO1-E-AAAAAAB --ascii <&-")
    assert r.returncode == 0 and quiet_stderr(r.stderr) == "" and "final: playing" in r.stdout, r.stderr
    # a closed stdout is refused before any work (was: internal error after solving)
    r = _shell(f"printf 'GO1-E-AAAAAAB\\n' | {g} solve --codes-from - >&-")
    assert r.returncode == 2 and "standard output is closed" in r.stderr and len(r.stderr.splitlines()) == 1


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line_not_an_internal_error():
    r = _shell('"$GOLFSOLVE_PY" -m golfsolve deal GO1-E-AAAAAAB >/dev/full')
    assert r.returncode == 1 and r.stderr.strip() == "golfsolve: cannot go on: No space left on device", r.stderr


#: A folder name as a shell passes bytes that are not UTF-8 (Python's surrogate escape)
NOT_UTF8 = "/tmp/\udcff"


@pytest.mark.parametrize("args, words", [
    (["deal", "GO1-E-AAAAAAB", "--json", "--text"], "--json or --text, not both"),  # was: --text ignored
    (["report", ""], "DIR needs a run folder's name, not ''"),  # was: " holds no golfsolve stats run"
    (["grid", "report", " "], "DIR needs a run folder's name"),  # was: ". holds no ..."
    (["report", ".", "--fair", ""], "--fair needs a run folder's name"),
    # was: "holds no golfsolve stats run (no _manifest.json)", as if the folder were there
    (["report", "no-such-run"], "DIR 'no-such-run': no such folder; check its name"),
    # was: the commands read as layout lines ("line 12: expected 'key: value', got 'd'")
    (["play", "--layout", "-"], "play reads its commands from stdin, so --layout - cannot"),
    (["solve", "--layout", "-", "--layout", "-"], "--layout - is given more than once"),  # was: "the layout is empty"
    # was: exit 1, "cannot go on: File name too long" (an OSError from Path.exists)
    (["stats", "--count", "1", "--out", "a" * 300], "--out ...'aaaa"),
    (["report", "a" * 300], "DIR ...'aaaa"),
    (["grid", "simulate", "--matches", "1", "--out", "a/" * 3000], "--out ...'a/a/"),
    (["grid", "report", "a" * 300], "DIR ...'aaaa"),
    # was: a chunk written, then "damaged: it cannot be read" (Arrow takes UTF-8 names only)
    (["stats", "--count", "1", "--rules", "easy", "--out", NOT_UTF8], "--out '/tmp/\\udcff': the name is not UTF-8"),
    (["report", NOT_UTF8], "DIR '/tmp/\\udcff': the name is not UTF-8"),
    # was: accepted, and quietly taken as --extend
    (["stats", "--count", "3", "--out", "DIR", "--resume", "--extend"], "give --resume or --extend, not both"),
    (["fair-stats", "--out", "DIR", "--resume", "--extend"], "give --resume or --extend, not both"),
    (["grid", "simulate", "--out", "DIR", "--resume", "--extend"], "give --resume or --extend, not both"),
    # was: ignored without a word (the peeking hint has no player or seed; the fair hint no node limit)
    (["hint", "GO1-E-AAAAAAB", "--player", "fast"], "--player and --seed choose the fair player of --fair"),
    (["hint", "GO1-E-AAAAAAB", "--seed", "3"], "--player and --seed choose the fair player of --fair"),
    (["hint", "GO1-E-AAAAAAB", "--fair", "--node-limit", "5"], "--fair has none"),
])
def test_conflicting_options_and_empty_run_folder_names(run_cli, args, words):
    r = run_cli(args)
    assert r.exit_code == 2 and words in r.stderr and _one_line(r), r.stderr


def test_the_widest_pysol_range_starts_solving_instead_of_an_internal_error():
    from golfsolve.solitaire.deals import DealBatch

    # was: internal error, OverflowError from len(range(1, 2**64))
    batch = DealBatch.build(pysol=["1-18446744073709551615"])
    assert batch.size == 2**64 - 1
    assert next(iter(batch)).name == "PySol Golf #1"


@pytest.mark.parametrize("edit, args, words", [
    # was: a joker played under rules that deal none, and an empty discard under Easy, both accepted
    (("1: 6C 5S QS TS 6H", "1: 6C 5S QS TS JK"), [], "holds 1 joker but rules 'easy' allow 0"),
    (("1: 6C 5S QS TS 6H", "1: 6C 5S QS TS JK"), ["--rules", "classic"], "rules 'classic' allow 0"),
    (("discard: AC", "discard: -"), [], "the discard is empty but the rules do not start with an empty discard"),
    # was: the last of two lines silently won
    (("discard: AC", "rules: easy\nrules: classic\ndiscard: AC"), [], "rules is given twice (first on line"),
    (("discard: AC", "discard: AC\ndiscard: AD"), [], "discard is given twice"),
    (("stock: 8S ...", "stock: 8S ...\nstock: 8S ..."), [], "stock is given twice"),
])
def test_layouts_that_do_not_fit_their_rules_or_repeat_a_line(edit, args, words, run_cli, data_dir, tmp_path):
    f = tmp_path / "lay.txt"
    f.write_text((data_dir / "seed000_start.txt").read_text().replace(*edit))
    for cmd in (["deal"], ["odds", "--samples", "2", "--games", "0"]):
        r = run_cli(cmd + ["--layout", str(f)] + args)
        assert r.exit_code == 2 and words in r.stderr and _one_line(r), r.stderr


def test_solve_checks_every_layout_against_the_rules_before_solving(run_cli, data_dir, tmp_path):
    bad = tmp_path / "bad.txt"
    board = (data_dir / "pysol-golf-1.board").read_text()
    bad.write_text(board.replace("Foundations: TH", "Foundations: -").replace("Talon: ", "Talon: TH "))
    r = run_cli(["solve", "GO1-E-AAAAAAB", "--layout", str(bad)])
    assert r.exit_code == 2 and "discard is empty" in r.stderr and r.stdout == "", r.stderr
    r = run_cli(["solve", "GO1-E-AAAAAAB", "--layout", str(bad), "--rules", "easy+empty", "--verdict-only"])
    assert r.exit_code == 0, r.stderr


def test_codes_from_takes_a_byte_order_mark_crlf_and_trailing_comments(run_cli):
    # was: line 1 "unknown generator version '\ufeffGO1'", and a trailing comment made a bad line
    r = run_cli(["solve", "--codes-from", "-", "--verdict-only"],
                input="\ufeffGO1-E-AAAAAAB\r\nGO1-E-AAAAAAC   # the next deal\r\n# a whole line\r\n")
    assert r.exit_code == 0, r.stderr
    assert [json.loads(x)["deal"] for x in r.stdout.splitlines()] == ["GO1-E-AAAAAAB", "GO1-E-AAAAAAC"]


def test_codes_from_a_line_that_is_not_utf8_is_one_error_record_and_the_run_goes_on(run_cli):
    # was: exit 2, "the input is not UTF-8 text", and not even the lines before it solved
    r = run_cli(["solve", "--codes-from", "-", "--verdict-only"],
                input=b"GO1-E-AAAAAAB\n\xff\xfe bad\rGO1-E-AAAAAAC\n")
    records = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x.get("deal", x.get("line")) for x in records] == ["GO1-E-AAAAAAB", 2, "GO1-E-AAAAAAC"]
    assert records[1]["error"] == "not UTF-8 text (byte 0xff)" and records[1]["input"] == "\ufffd\ufffd bad"
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1 and "line 2" in r.stderr, r.stderr


def test_a_terminal_without_suit_symbols_gets_letters_not_an_internal_error():
    # was: internal error, UnicodeEncodeError, on a latin-1 or cp1252 terminal
    env = {**os.environ, "PYTHONIOENCODING": "latin-1"}
    r = subprocess.run([sys.executable, "-m", "golfsolve", "deal", "GO1-E-AAAAAAB"], capture_output=True,
                       env=env, timeout=120)
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    out = r.stdout.decode("latin-1")
    assert "discard: KS" in out and "next: 6H" in out and " 10H" in out  # 10♥ in column 3


def test_the_library_names_the_jobs_option_the_cli_has(tmp_path):
    """A library run refusing its worker count names ``--jobs`` (``--workers`` is only an alias)."""
    from golfsolve.grid.rules import GridRules
    from golfsolve.stats.fairstats import FairSpec, run_fair_stats
    from golfsolve.stats.gridruns import GridSpec, run_grid_simulate
    from golfsolve.stats.gridstudy import StudySpec, run_study

    runs = [lambda: run_study(tmp_path / "s", StudySpec(), jobs=0),
            lambda: run_grid_simulate(tmp_path / "g", GridSpec(GridRules(players=2, grid=6), ("heuristic", "random"), 2),
                                      jobs=0),
            lambda: run_fair_stats(tmp_path / "f", FairSpec(0, 2, ("easy",)), jobs=0)]
    for run in runs:
        with pytest.raises(InputError, match=r"^--jobs must be at least 1, not 0$"):
            run()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ["stats", "--count", "4", "--resume"],
    ["stats", "--count", "4", "--extend"],
    ["stats", "--resume"],  # was: "--count N is required", though the count is the run's
    ["stats", "--rules", "easy", "--extend"],
    ["fair-stats", "--count", "2", "--resume"],
    ["grid", "simulate", "--matches", "1", "--resume"],
    ["grid", "study", "--resume"],
])
@pytest.mark.parametrize("folder", ["missing", "empty"])
def test_resuming_a_folder_that_holds_no_run_is_refused_not_started(args, folder, run_cli, tmp_path):
    # a mistyped --out with --resume used to start a new run of the default size there
    out = tmp_path / "run"
    if folder == "empty":
        out.mkdir()
    r = run_cli([*args, "--out", str(out)])
    flag = args[-1]
    assert r.exit_code == 2 and _one_line(r), r.stderr
    assert f"{flag}: {out} holds no golfsolve run to {flag[2:]}" in r.stderr
    # nothing made, nothing left behind
    assert (not out.exists()) if folder == "missing" else list(out.iterdir()) == []


# -- the library's entry points check their counts as the commands' options do ---------------

@pytest.mark.parametrize("call, words", [
    (lambda lay, s: s.solve(lay, node_limit=float("nan")), "node_limit must be a whole number"),  # was: ValueError
    (lambda lay, s: s.solve(lay, node_limit=2**70), "node_limit must be from 0"),  # was: OverflowError
    (lambda lay, s: s.solve(lay, node_limit=-1), "node_limit must be from 0"),  # was: no limit at all
    (lambda lay, s: _fair("odds")(lay.forget_stock(0), samples=10**9, solver=s), "samples must be from 1 to 1,000,000"),
    (lambda lay, s: _fair("odds")(lay.forget_stock(0), samples=2.5, solver=s), "samples must be a whole number"),
    (lambda lay, s: _fair("odds")(lay.forget_stock(0), samples=2, games=True, solver=s), "games must be a whole number"),
    (lambda lay, s: _fair("rate")(lay, games=10**9, solver=s), "games must be from 1 to 1,000,000"),
    (lambda lay, s: _fair("pick")(lay.rules, "easy", 1, games=10**9, solver=s), "games must be from 1 to 1,000,000"),
    (lambda lay, s: _fair("pick")(lay.rules, "easy", 1.5, solver=s), "count must be a whole number"),
])
def test_library_counts_are_checked_before_any_work(call, words, library_solver):
    """A billion sampled orders was accepted by the library (the CLI caps it) and filled the
    memory; NaN or 2**70 reached numba as a ValueError or OverflowError."""
    from golfsolve.solitaire.layout import layout_from_code

    with pytest.raises(InputError, match=words):
        call(layout_from_code("GO1-E-AAAAAAB"), library_solver)


def _fair(name: str):
    import golfsolve.fair

    return getattr(golfsolve.fair, name)


@pytest.fixture(scope="module")
def library_solver():
    from golfsolve.solitaire.solver import Solver

    return Solver()


def test_named_choices_take_any_case_as_rule_names_do(run_cli):
    # rule names and codes take any case; a preset or label written in capitals is the same name
    # 3 games: with fewer no deal is hard, and pick refuses the label
    lower = run_cli(["pick", "--difficulty", "hard", "--player", "fast", "--count", "1", "--max-deals", "2",
                     "--games", "3", "--json", "-q"])
    upper = run_cli(["pick", "--difficulty", "HARD", "--player", "Fast", "--count", "1", "--max-deals", "2",
                     "--games", "3", "--json", "-q"])
    assert lower.exit_code == upper.exit_code != 2  # 1: fewer deals found than asked, not bad input
    assert json.loads(upper.stdout) == json.loads(lower.stdout)
    assert json.loads(upper.stdout)["difficulty"] == "hard" and json.loads(upper.stdout)["player"]["preset"] == "fast"


KELVIN, LONG_S = "\u212a", "\u017f"  # the Kelvin sign lowers to 'k'; the long s uppers to 'S'


@pytest.mark.parametrize("args, words", [
    # was: deal AAAAASS ('ß'.upper() is 'SS'), deal AAAAAAS and AAAAAAI
    (["deal", "GO1-E-AAAAA\u00df"], "needs 7 letters after the rule, got 6"),
    (["deal", f"GO1-E-AAAAAA{LONG_S}"], f"'{LONG_S}' is not a letter A-Z"),
    (["solve", "GO1-E-AAAAAA\u0131"], "'\u0131' is not a letter A-Z"),
    # was: easy and strong (click's choices match by casefold)
    (["pick", "--difficulty", f"ea{LONG_S}y", "--count", "1"], "is not one of 'easy', 'medium'"),
    (["hint", "GO1-E-AAAAAAB", "--fair", "--player", f"{LONG_S}trong"], "is not one of 'fast', 'strong'"),
    # was: the switches knock10 and jokers1
    (["grid", "simulate", "--matches", "1", "--rules", f"default+{KELVIN}nock10"], "unknown grid rule"),
    (["deal", "GO1-E-AAAAAAB", "--rules", f"easy+jo{KELVIN}ers1"], "unknown rule switch"),
    # was: the ace of spades
    (["deal", "--layout", "-"], f"unknown card 'A{LONG_S}'"),
])
def test_letters_that_case_into_ascii_are_not_read_as_ascii(run_cli, args, words):
    layout = "discard: AC\nstock: 8S ...\n1: 6C 5S QS TS A\u017f\n"
    r = run_cli(args, input=layout if "-" in args else "")
    assert r.exit_code == 2 and words in r.stderr and _one_line(r), r.stderr


def test_ascii_names_and_codes_still_take_any_case(run_cli):
    from golfsolve.cards import parse_card
    from golfsolve.solitaire.dealcode import parse_code

    assert parse_code("go1-c-aaaaaab").number == 1 and parse_card("as") == parse_card("AS")
    assert get_rules("Classic+JOKERS1").jokers == 1 and parse_rules("DANISH+Knock-Double").knock == "double"
    r = run_cli(["hint", "GO1-E-AAAAAAB", "--fair", "--player", "FAST", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["player"]["preset"] == "fast", r.stderr


@pytest.mark.parametrize("value", ["\u0663", "1_0", "\uff15", "\u0663.5"])
def test_a_decimal_option_is_in_digits_0_to_9(run_cli, value):
    # was: 'serve --cpu-budget ٣' started a server with a 3 s budget (Python's float() reads
    # other digits and underscores), where every whole-number option refuses them. --jobs 0
    # makes sure no server starts here, whatever the parser does
    r = run_cli(["serve", "--cpu-budget", value, "--jobs", "0"])
    assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert "--cpu-budget" in r.stderr and "digits 0-9" in r.stderr, r.stderr


@pytest.mark.parametrize("value", ["2.5", "1e1", ".5", "+7", "60"])
def test_a_decimal_option_in_ascii_digits_is_taken(run_cli, value):
    r = run_cli(["serve", "--cpu-budget", value, "--jobs", "0"])
    assert r.exit_code == 2 and "--jobs must be from 1" in r.stderr, r.stderr


CODE = "GO1-E-AAAAAAB"


@pytest.mark.skipif(not os.path.isdir('/dev/fd'), reason='needs /dev/fd')
def test_a_choice_ending_in_a_carriage_return_is_taken_as_the_rules_are(run_cli):
    """was: "'hard\\r' is not one of 'easy', 'medium', 'hard', 'very-hard'" from a shell script
    saved with Windows line ends, whose '--rules classic\\r', '--pysol 5\\r' and '--games 10\\r'
    were all taken."""
    r = run_cli(["pick", "--difficulty", "hard\r", "--player", " FAST\r", "--count", "1", "--games", "3",
                 "--max-deals", "1", "--json"])
    assert "Invalid value" not in r.stderr and r.exit_code in (0, 1), r.stderr


@pytest.mark.skipif(not os.path.isdir('/dev/fd'), reason='needs /dev/fd')
@pytest.mark.parametrize("command", ["hint", "odds"])
def test_moves_given_as_words_to_hint_or_odds_are_pointed_to_moves(run_cli, command):
    """was: "Got unexpected extra arguments (d 5)": replay takes its moves as words, so
    'golfsolve hint CODE d 5' is what a user types, and the error named no way to give them."""
    assert '--moves "d 5 2"' in one_line_error(run_cli([command, CODE, "d", "5"]))


@pytest.mark.parametrize("command", [
    ["grid", "simulate", "--matches", "1", "--holes", "1", "--bots", "random,greedy", "-q", "--out", "-"],
    ["stats", "--count", "1", "--rules", "easy", "-j", "1", "-q", "--out", "-"],
    ["grid", "report", "RUN", "--out", "-"],
])
def test_out_dash_is_refused_not_made_a_folder_named_dash(run_cli, tmp_path, monkeypatch, command):
    """was: '--out -' (standard output wherever golfsolve reads or writes a file) made a folder
    named '-' in the current directory, and said 'results in -'"""
    run = tmp_path / "run"
    if "RUN" in command:
        assert run_cli(["grid", "simulate", "--matches", "1", "--holes", "1", "--bots", "random,greedy", "-q",
                        "--out", str(run)]).exit_code == 0
    monkeypatch.chdir(tmp_path)
    line = one_line_error(run_cli([str(run) if a == "RUN" else a for a in command]))
    assert line == ("golfsolve: --out - would make a directory named '-' here: a run folder or report cannot go to "
                    "standard output (--json prints the answer there); give a directory's name, ./- for one "
                    "named '-'"), line
    assert not (tmp_path / "-").exists()
    # a folder named '-' is still there for whoever names it so
    command = [str(run) if a == "RUN" else "./-" if a == "-" else a for a in command]
    assert run_cli(command).exit_code == 0
    assert (tmp_path / "-").is_dir()
