"""Claims of the user documents that can be checked without running anything long: the option
tables name options of their command and give their defaults, the library names the prose
gives exist, the fair player's presets are what fair.md's table says, and the README's word on
which commands take which deals and answer in JSON. (tests/docs/test_docs_examples.py runs the
console examples; tests/docs/test_docs_walkthrough.py checks links, inline commands and imports.)
"""

from __future__ import annotations

import contextlib
import importlib
import io
import re
import types
from pathlib import Path

import click
import pytest

from golfsolve.cli.main import cli
from hostile_helpers import ROOT, commands
from test_docs_walkthrough import _prose, _spans

#: the pages a user reads to learn the commands and the library
USER_PAGES = [ROOT / "README.md", *(ROOT / "docs" / f for f in ("stats.md", "fair.md", "grid.md", "serve.md"))]
COMMANDS = {" ".join(path): command for path, command in commands(cli, []) if not isinstance(command, click.Group)}


def _options(command: click.Command) -> set[str]:
    return {o for p in command.params for o in (*p.opts, *p.secondary_opts)}


# --- option tables ----------------------------------------------------------------------------

def option_tables() -> list[tuple[Path, int, str, list[str]]]:
    """Every ``| option | meaning |`` table of the pages, as (page, line, the command its
    section heading names, its rows)."""
    out = []
    for path in USER_PAGES:
        lines = _prose(path).splitlines()
        heading_command = None
        i = 0
        while i < len(lines):
            m = re.match(r"#+ .*`golfsolve ([a-z -]+?)(?: [A-Z_]+)*`", lines[i])
            if m:
                heading_command = m.group(1)
            if re.match(r"\|\s*option\s*\|", lines[i]):
                start, rows = i + 1, []
                i += 2  # the header and its |---| line
                while i < len(lines) and lines[i].startswith("|"):
                    rows.append(lines[i])
                    i += 1
                out.append((path, start, heading_command, rows))
            i += 1
    return out


TABLES = option_tables()


def test_option_tables_are_found():
    assert {cmd for _, _, cmd, _ in TABLES} >= {"stats", "grid simulate", "grid study"}


@pytest.mark.parametrize("path, line, command, rows", TABLES, ids=[f"{p.name}:{n}" for p, n, _, _ in TABLES])
def test_every_option_an_option_table_names_is_one_of_its_command(path, line, command, rows):
    """An option named in a row of the table under ``golfsolve stats`` (first column or the
    meaning) is an option ``stats`` has; a row's own options (first column) all are."""
    assert command in COMMANDS, f"{path.name}:{line}: the heading names no command"
    known = _options(COMMANDS[command])
    for row in rows:
        first = row.split("|")[1]
        named = re.findall(r"(?<![\w-])(--[a-z][\w-]*|-[a-z]\b)", first)
        assert named, f"{path.name}: a row without an option: {row}"
        assert set(named) <= known, f"{path.name}: golfsolve {command} has no {set(named) - known}: {row}"


def help_default(param: click.Parameter) -> str | None:
    """The default an option's --help gives: click's own, or "(default N" in its text."""
    if isinstance(param.default, (int, float, str)) and not isinstance(param.default, bool):
        return str(param.default)
    m = re.search(r"\(default:? ([^\s;)]+)", " ".join((getattr(param, "help", None) or "").split()))
    return m.group(1).rstrip(".,:") if m else None


@pytest.mark.parametrize("path, line, command, rows", TABLES, ids=[f"{p.name}:{n}" for p, n, _, _ in TABLES])
def test_a_default_an_option_table_states_is_the_one_help_gives(path, line, command, rows):
    """Where a row speaks of a default and the option's --help gives a plain one, the row
    gives that value."""
    params = {o: p for p in COMMANDS[command].params for o in p.opts}
    checked = 0
    for row in rows:
        first, meaning = row.split("|")[1:3]
        option = re.search(r"--[a-z][\w-]*", first).group(0)
        value, said = help_default(params[option]), re.search(r"\bdefault:? `?([^\s;)`]+)", meaning)
        if value is None or said is None:
            continue
        said = said.group(1).rstrip(".,:")
        assert said == value, f"{path.name}: {command} {option}: the table says default {said}, --help {value}"
        checked += 1
    assert checked >= 3


def test_the_help_default_reader():
    assert help_default(click.Option(["--n"], default=5)) == "5"
    assert help_default(click.Option(["--n"], help="How many (default 100).")) == "100"
    assert help_default(click.Option(["--n"], help="How many (default: all cores).")) == "all"
    assert help_default(click.Option(["--n"], is_flag=True, help="A flag.")) is None


def test_grid_plays_options_are_all_named_in_grid_md():
    """(was: grid.md listed grid play's options as --players, --grid, --holes, --rules, --seed,
    --ascii: --openers, which play has, was left out)"""
    text = " ".join(_prose(ROOT / "docs" / "grid.md").split())
    section = text[text.index("### `golfsolve grid play`"):text.index("## Rules")]
    named = set(re.findall(r"(?<![\w-])(--[a-z][\w-]*)", section))
    assert _options(COMMANDS["grid play"]) - {"--help"} <= named


# --- library names ----------------------------------------------------------------------------

def dotted_names() -> list[tuple[Path, int, str]]:
    """Every ``golfsolve.a.b`` the pages' prose names in inline code (a file such as
    ``.golfsolve.lock`` and a path ``golfsolve/...`` aside)."""
    out = []
    for path in USER_PAGES:
        for line, span in _spans(path):
            for m in re.finditer(r"(?<![\w./-])golfsolve(?:\.\w+)+", span):
                out.append((path, line, m.group(0)))
    return out


NAMES = dotted_names()


def resolve(name: str):
    """The object a dotted name stands for: the longest importable module, then attributes."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(name)


def test_library_names_are_found():
    assert len(NAMES) >= 20
    assert any(n == "golfsolve.fair.exact.fair_value" for _, _, n in NAMES)


@pytest.mark.parametrize("path, line, name", NAMES, ids=[f"{p.name}:{n}:{name}" for p, n, name in NAMES])
def test_a_library_name_the_docs_give_exists(path, line, name):
    """was: only "resolves without an error"; now the name is the thing's own: a module named
    as a module, a function or class under its own name (``golfsolve.fair.odds`` is the
    function, not the module of that name; an alias under another name would be a slip)."""
    obj = resolve(name)  # AttributeError or ModuleNotFoundError names what is missing
    if isinstance(obj, types.ModuleType):
        assert obj.__name__ == name
    elif isinstance(obj, (type, types.FunctionType)):
        assert obj.__name__ == name.rsplit(".", 1)[1], (name, obj.__module__, obj.__name__)


def test_resolve_refuses_a_missing_name():
    with pytest.raises(AttributeError):
        resolve("golfsolve.fair.no_such_function")
    assert resolve("golfsolve.stats.load_results").__name__ == "load_results"


# --- the fair player's presets ----------------------------------------------------------------

def _preset_rows() -> dict[str, tuple[str, str]]:
    text = (ROOT / "docs" / "fair.md").read_text(encoding="utf-8")
    return {m.group(1): (m.group(2), m.group(3))
            for m in re.finditer(r"^\| `(fast|strong)` \| (.*) \| (.*) \|$", text, re.MULTILINE)
            if "orders per decision" in m.group(2)}


def test_fair_mds_preset_table_gives_the_presets_settings():
    from golfsolve.fair import PRESETS

    rows = _preset_rows()
    assert set(rows) == set(PRESETS) == {"fast", "strong"}
    for name, (settings, _) in rows.items():
        p = PRESETS[name]
        assert f"{p.samples} orders per decision" in settings
        assert f"from {p.exact_unknown} unknown cards" in settings
        assert f"at most {p.exact_states:,} states" in settings
        assert p.compiled_exact == ("compiled kernel" in settings)
        assert p.carry == ("carried" in settings)
        assert p.by_rank == ("by rank" in settings)
        assert (p.wrap_scale == 2) == ("twice as large" in settings)
        if p.race_budget:
            assert f"up to {p.race_budget}" in settings and f"at most {p.race_width} contenders" in settings


def test_the_preset_each_command_uses_by_default_is_fair_mds():
    """The table's "used by default in" column: each command's --player default (and the
    preset ``stats --difficulty`` rates with)."""
    from golfsolve.fair import PRESETS
    from golfsolve.stats.census import difficulty_player

    for name, (_, used) in _preset_rows().items():
        for cmd in re.findall(r"`([a-z -]+?)`", used):
            if cmd == "stats --difficulty":
                assert difficulty_player() == PRESETS[name]
                continue
            words = cmd.split()
            command = COMMANDS[words[0]]
            player = next(p for p in command.params if "--player" in p.opts)
            # fair-stats leaves it None so that --resume takes the run's; its help names the default
            default = player.default or re.search(r"(\w+) \(default\)", player.help).group(1)
            assert default == name, f"{cmd}: --player defaults to {default}, fair.md says {name}"


# --- the README's word on the commands --------------------------------------------------------

def test_the_solitaire_commands_take_a_code_a_layout_file_or_a_pysol_deal():
    """README: "Every solitaire command takes its deal from one of: a deal code, a layout file
    (--layout FILE) or a PySol FC Golf deal (--pysol N)"."""
    for name in ("deal", "replay", "play", "solve", "hint", "odds", "rate"):
        command = COMMANDS[name]
        assert {"--layout", "--pysol"} <= _options(command), name
        assert any(isinstance(p, click.Argument) for p in command.params), name


def test_every_command_that_computes_an_answer_has_json():
    """README: "Every command that computes an answer has --json" (play, grid play and serve
    hold a conversation or a server instead)."""
    without = {name for name, command in COMMANDS.items() if "--json" not in _options(command)}
    assert without == {"play", "grid play", "serve"}


def test_the_readmes_command_table_names_every_command():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text[text.index("| command | what it does |"):text.index("Every solitaire command")]
    named = {" ".join(w for w in span.split() if not re.fullmatch(r"[A-Z]+", w))
             for span in re.findall(r"^\| (.*?) \|", table, re.MULTILINE)[1:]
             for span in re.findall(r"`([^`]+)`", span)}
    assert named == set(COMMANDS)


def test_the_readmes_play_row_gives_plays_commands_and_what_h_does():
    """The command table's `play` row names the commands play's own help lists (was: `h`
    named bare beside the `hint` row, where play's h shows the commands, not a hint)."""
    from golfsolve.cli.solitaire import PLAY_HELP

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `play` |"))
    listed = [line.strip().split("  ")[0] for line in PLAY_HELP.splitlines()[1:]]
    assert [re.sub(r"^(\S+) .*", r"\1", c) for c in listed] == ["d", "1-7", "t", "u", "h", "q"]
    for command in listed:
        assert f"`{command.replace('-', '`–`')}`" in row, command
    assert "`h` lists the commands" in row


# --- grid.md's tables of the seating, the bots and the rule switches ----------------------------

def _grid_md_rows(header: str) -> list[list[str]]:
    """The rows (cells stripped) of grid.md's table whose header line starts with ``header``."""
    lines = (ROOT / "docs" / "grid.md").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def test_grid_mds_seating_table_is_seating_orders():
    """Each row of the seating table: how many cyclic orders the list holds, of how many there
    are; the cycle in matches; how often each bot sits just after each other bot per list.
    (was not checked: a rewrite could state another design than the one runs are seated by)"""
    import math
    from collections import Counter

    from golfsolve.grid.tournament import seating_cycle, seating_orders

    rows = _grid_md_rows("| players | cyclic orders in the list |")
    assert [int(r[0]) for r in rows] == [2, 3, 4, 5, 6]
    for players, orders, cycle, neighbours in rows:
        n = int(players)
        listed = seating_orders(n)
        total = math.factorial(n - 1)
        said = re.match(r"(?:the|all) (\d+)|(\d+) of the (\d+)", orders)
        count = int(said.group(1) or said.group(2))
        assert count == len(listed), f"{n} players: the table says {count} orders, seating_orders {len(listed)}"
        if said.group(3):
            assert int(said.group(3)) == total
        else:
            assert len(listed) == total  # "all": every cyclic order
        assert cycle == f"{seating_cycle(n)} matches"
        times = Counter((o[i - 1], o[i]) for o in listed for i in range(n))
        assert len(times) == n * (n - 1) and set(times.values()) == {{"once": 1, "twice": 2}[neighbours]}
        assert 120 % seating_cycle(n) == 0  # "120 matches is a whole number of cycles at every table size"


def test_grid_mds_bot_table_names_the_registry_and_its_default_counts():
    """Every bot of the registry has a row, and the count after the colon defaults to what
    the bot plays with (`--mc-samples`' default for the Monte Carlo bots)."""
    from golfsolve.grid.botnames import BOTS
    from golfsolve.grid.bots import bot_settings

    rows = _grid_md_rows("| name (`--bots`) |")
    named = {re.fullmatch(r"`([a-z-]+)`", r[0]).group(1): r[1] for r in rows}
    assert set(named) == set(BOTS)
    samples = next(p for p in COMMANDS["grid simulate"].params if "--mc-samples" in p.opts)
    for name, count in named.items():
        kind = BOTS[name]
        if kind.count is None:
            assert count == "—", name
            continue
        default = int(re.search(r"([\d,]+)\)$", count).group(1).replace(",", ""))
        assert default == kind.default, f"{name}: the table says {default}, the registry {kind.default}"
        if name != "spiel-ismcts":  # its settings need OpenSpiel's import only to make the bot
            assert bot_settings(name, None)[kind.count] == default
        if kind.mc_samples:
            assert "`--mc-samples`" in count and re.search(r"\(default (\d+)\)", samples.help).group(1) == str(default)


def test_grid_mds_switch_table_names_every_rule_switch():
    from golfsolve.grid.rules import _SWITCHES

    rows = _grid_md_rows("| switch | effect |")
    listed = {re.fullmatch(r"`\+([a-z0-9-]+)`", r[0]).group(1) for r in rows}
    # +putt is the default rules' own switch, given in the rule list above the table
    assert listed | {"putt"} == set(_SWITCHES), set(_SWITCHES) ^ (listed | {"putt"})


def test_grid_mds_decks_by_players_row_gives_the_tables_it_is_refused_at():
    """was: "(where that deals as many decks, as for every count on the 6-card grid, it changes
    nothing)", read as a switch taken there; it is refused at each such table, and the row now
    names the tables where it changes the deck."""
    from golfsolve.errors import InputError
    from golfsolve.grid.rules import parse_rules

    row = " | ".join(next(r for r in _grid_md_rows("| switch | effect |") if r[0] == "`+decks-by-players`"))
    takes = set()
    for grid in (4, 6, 8, 9):
        for players in range(2, 7):
            try:
                parse_rules("default+decks-by-players", players=players, grid=grid)
            except InputError:
                continue
            takes.add((grid, players))
    assert takes == {(4, 5), (4, 6), (8, 4), (9, 3), (9, 4)}
    for words in ("4-card grid with 5 or 6 players", "8-card grid with 4", "9-card grid with 3 or 4",
                  "refused at every other table"):
        assert words in row


# --- serve.md's word on the page --------------------------------------------------------------

STATIC = ROOT / "golfsolve" / "serve" / "static"


def test_serve_mds_rules_sentence_names_every_choice_of_the_pages_rules_list():
    """was: "under the rule set chosen, Easy or Classic with one or two jokers among them",
    where the list also offers Dead King and Strict (and the code's own rules)."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    select = re.search(r'<select id="rules">(.*?)</select>', html, re.S).group(1)
    labels = re.findall(r"<option value=\"[^\"]*\">([^<(,]+)", select)
    assert len(labels) >= 9
    text = " ".join((ROOT / "docs" / "serve.md").read_text(encoding="utf-8").split())
    sentence = re.search(r"\*\*Rules\*\* deals the deal again.*?\)\.", text).group(0)
    for label in labels:
        assert label.strip() in sentence, f"serve.md's Rules sentence does not name {label.strip()!r}"
    assert "one or two jokers" in sentence


def test_every_key_the_pages_keys_panel_names_is_in_serve_md():
    """The page's Keys panel and serve.md give the same keys (`1`–`7`, `D`, ..., `/`)."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    panel = re.search(r'<h2 id="keys-title">Keys</h2>(.*?)</section>', html, re.S).group(1)
    keys = set(re.findall(r"<kbd>([^<]+)</kbd>", panel))
    assert {"D", "U", "H", "O", "P", "/", "Home", "End"} <= keys
    text = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    missing = {k for k in keys if f"`{k}`" not in text and not (k in "1234567" and "`1`–`7`" in text)}
    assert missing == set()


def test_serve_mds_endpoint_table_gives_each_endpoints_parameters():
    """Each row of serve.md's API table names exactly the parameters its endpoint takes besides
    the deal (the server refuses any other by name)."""
    from golfsolve.serve.app import PARAMS

    lines = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| endpoint | answers as |"))
    rows = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        params = re.sub(r"\([^)]*\)", "", cells[2])
        rows[re.fullmatch(r"`/api/(\w+)`", cells[0]).group(1)] = set(re.findall(r"`(\w+)`", params))
    source = {"code", "pysol", "layout", "rules"}
    assert rows == {"health": set(), **{name: set(p) - source for name, p in PARAMS.items()}}


# --- benchmark commands, parsed by their own scripts ------------------------------------------

#: values for the placeholders the benchmark commands print (a rule set, a count, a seed; the
#: rest name a folder or a file, any string to argparse)
_BENCH_PLACEHOLDERS = {"R": "easy", "N": "2", "S": "0"}

#: run in a child process (the scripts set up sys.path and import freely at their top): each
#: script as ``__main__`` with its command's arguments, stopped right after argparse parsed them
_PARSE_ONLY = r"""
import argparse, contextlib, io, json, runpy, sys
class Parsed(Exception):
    pass
real = argparse.ArgumentParser.parse_args
def parse_args(self, args=None, namespace=None):
    real(self, args, namespace)
    raise Parsed
argparse.ArgumentParser.parse_args = parse_args
sys.path.insert(0, "benchmarks")
problems = []
for where, script, args in json.loads(sys.stdin.read()):
    sys.argv, err = [script, *args], io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            runpy.run_path(script, run_name="__main__")
        problems.append(f"{where}: ran without parsing its options")
    except Parsed:
        pass
    except SystemExit:
        problems.append(f"{where}: " + (err.getvalue().strip().splitlines() or ["exit"])[-1])
print(json.dumps(problems))
"""


def test_every_benchmark_command_is_accepted_by_its_scripts_parser():
    """Each ``python benchmarks/NAME.py ARGS`` of the pages, placeholders filled, parsed by the
    script's own argparse and stopped there (nothing measured): an option it lost, a value its
    type or choices refuse, a positional it no longer takes fails here. (The name check of
    tests/docs/test_docs_walkthrough.py finds an option anywhere in the script's source, whatever
    its value.)"""
    import json
    import shlex
    import subprocess
    import sys

    from test_docs_walkthrough import BENCHMARKS

    runs, bare = [], []
    for path, line, script, args in BENCHMARKS:
        argv = [_BENCH_PLACEHOLDERS.get(w, w) for w in shlex.split(args)]
        where = f"{path.name}:{line}: python {script}{args}"
        if "parse_args(" in (ROOT / script).read_text(encoding="utf-8"):
            runs.append((where, script, argv))
        else:
            bare.append((where, argv))  # a script without options runs as soon as it starts
    assert [w for w, argv in bare if argv] == []
    assert len(runs) >= 50
    out = subprocess.run([sys.executable, "-c", _PARSE_ONLY], input=json.dumps(runs), cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.splitlines()[-1]) == []


def test_the_benchmark_parse_check_refuses_what_argparse_refuses():
    import json
    import subprocess
    import sys

    runs = [["ok", "benchmarks/fair_paired.py", ["--rules", "easy", "--count", "2"]],
            ["value", "benchmarks/fair_paired.py", ["--count", "many"]],
            ["choice", "benchmarks/fair_round2.py", ["x", "--rules", "strict"]],
            ["option", "benchmarks/grid_strength.py", ["--bots", "heuristic,greedy", "--games", "3"]]]
    out = subprocess.run([sys.executable, "-c", _PARSE_ONLY], input=json.dumps(runs), cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    problems = json.loads(out.stdout.splitlines()[-1])
    assert [p.partition(":")[0] for p in problems] == ["value", "choice", "option"], problems
    assert "invalid int value: 'many'" in problems[0] and "invalid choice: 'strict'" in problems[1]
    assert "unrecognized arguments: --games 3" in problems[2]


# --- golfsolve commands, their values converted as golfsolve converts them ---------------------

#: values for the placeholders the golfsolve commands print; the others (DIR, FILE, ...) are
#: names, any string to the options that take them
_GOLFSOLVE_PLACEHOLDERS = {"N": "2", "S": "3", "CODE": "GO1-E-AAAAAAB", "CODES": "GO1-E-AAAAAAB"}


def _refused_on_purpose(path: Path, line: int) -> bool:
    """Whether ``line`` is a row of a table of command lines golfsolve must refuse (its header
    has a "what is wrong" column: performance.md's refused commands)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = line - 1
    while i > 0 and lines[i - 1].startswith("|"):
        i -= 1
    return lines[i].startswith("|") and "what is wrong" in lines[i]


def _value_problem(argv: list[str]) -> str | None:
    """Why golfsolve refuses ARGV's values when it reads its options (click's types, ranges and
    choices), else None; an option or argument left out (the prose naming a command) and a file
    the user is to make (``--codes-from codes.txt``) are not problems here."""
    ctx = click.Context(cli, info_name="golfsolve")
    command: click.Command = cli
    while isinstance(command, click.Group) and argv and not argv[0].startswith("-"):
        command = command.get_command(ctx, argv[0])
        ctx = click.Context(command, info_name=argv[0], parent=ctx)
        argv = argv[1:]
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # --help's text
            command.make_context(ctx.info_name, list(argv), parent=ctx.parent).close()
    except click.exceptions.Exit:
        pass
    except click.MissingParameter:
        pass
    except click.UsageError as e:
        message = e.format_message()
        named = "requires an argument" in message and argv[-1].startswith("--")  # 'golfsolve odds --moves'
        if not named and "No such file or directory" not in message:
            return message
    return None


def test_every_golfsolve_command_of_the_pages_has_values_golfsolve_takes():
    """The shown and prose commands, parsed by click (tests/docs/test_docs_examples.py and
    tests/docs/test_docs_walkthrough.py) name options golfsolve has; here each value is also
    converted by the option's type as a run would (a count below its range, a choice no longer
    offered, a file type), placeholders filled; the table of refused command lines aside."""
    from test_docs_examples import SHOWN
    from test_docs_walkthrough import PROSE

    checked, bad = 0, []
    for path, line, argv in SHOWN + PROSE:
        if _refused_on_purpose(path, line):
            continue
        problem = _value_problem([_GOLFSOLVE_PLACEHOLDERS.get(w, w) for w in argv])
        checked += 1
        if problem:
            bad.append(f"{path.name}:{line}: golfsolve {' '.join(argv)}: {problem}")
    assert checked >= 150
    assert bad == []


def test_the_value_check_refuses_what_golfsolve_refuses():
    assert _value_problem(["pick", "--difficulty", "easy", "--count", "-1"]) is not None
    assert "'nosuch'" in _value_problem(["pick", "--difficulty", "nosuch"])
    assert _value_problem(["serve", "--port", "99999"]) is not None
    assert _value_problem(["stats", "--count", "20"]) is None  # --out left out: a name, not a value
    assert _value_problem(["solve", "--codes-from", "codes.txt"]) is None
    assert _value_problem(["odds", "--moves"]) is None and _value_problem(["odds", "--games", "x"]) is not None
    assert _refused_on_purpose(ROOT / "docs" / "performance.md", next(
        n for p, n, argv in __import__("test_docs_walkthrough").PROSE if argv[:2] == ["serve", "--port"]))
