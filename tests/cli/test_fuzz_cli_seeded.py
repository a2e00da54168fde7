"""A seeded fuzzer of the command line.

The fuzzer walks click's own command tree (``golfsolve.cli.main.cli`` and its ``grid``
subgroup) and builds invocations from each command's parameters as click declares them (their
types, choices, ranges and defaults): a tiny valid invocation of every command, then one with
an option (or two) given a hostile value (0, -1, huge, 10**40, floats for whole numbers,
NaN/inf, empty or blank text, other digits and look-alikes, very long text, paths that are
folders, missing, /dev/null or /dev/full, a finished run folder), options repeated, options of
another command, flags mixed with ``--json``, and two valid options together.

Every run must keep the contract (:func:`check_contract`): exit 0, 1 or 2 (130 never: nothing
interrupts it); no "internal error" and no traceback; exit 2 with exactly one ``golfsolve:``
line on stderr; ``--json`` output of an exit 0 parses; no file made outside the folders the
invocation named; a finished run folder never changed.

The regression tests of the flaws the wide runs found come first; the fuzzer itself runs last
in a small seeded form (the wide runs, a few thousand invocations, were done by hand with
:func:`invocations` and :func:`check_contract`). tests/cli/test_fuzz_cli.py is the
hypothesis-driven fuzzer of the same contract.
"""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Iterator, Optional

import click
import pytest
from hostile_helpers import DATA


# ---------------------------------------------------------------------------
# the command tree, as click holds it
# ---------------------------------------------------------------------------


def command_tree() -> list[tuple[tuple[str, ...], click.Command]]:
    """Every command of ``golfsolve`` (loading the lazy ones): its path and its click object."""
    from golfsolve.cli.main import cli

    found = []

    def walk(group: click.Group, path: tuple[str, ...]) -> None:
        ctx = click.Context(group)
        for name in group.list_commands(ctx):
            cmd = group.get_command(ctx, name)
            if isinstance(cmd, click.Group):
                walk(cmd, path + (name,))
            else:
                found.append((path + (name,), cmd))

    walk(cli, ())
    return found


def _long(param: click.Parameter) -> str:
    longs = [o for o in param.opts if o.startswith("--")]
    return (longs or param.opts)[0]


def _is_int(t: click.ParamType) -> bool:
    return isinstance(t, click.types.IntParamType) or getattr(t, "name", "") == "integer"


def _is_float(t: click.ParamType) -> bool:
    return isinstance(t, click.types.FloatParamType)


# ---------------------------------------------------------------------------
# values: valid (tiny) and hostile, by what click says a parameter is
# ---------------------------------------------------------------------------

class Place:
    """The folders and files one batch of invocations shares: finished run folders of every
    kind (to be read, and never to be overwritten), a layout file, a file of codes, a plain
    file, and a counter for new folder names."""

    def __init__(self, root: Path, runs: dict[str, Path]) -> None:
        self.root = root
        self.runs = runs  # "stats", "fair", "grid", "study": finished runs
        self.file = root / "plain.txt"
        self.file.write_text("not a folder\n")
        self.codes = root / "codes.txt"
        self.codes.write_text("GO1-E-AAAAAAB\n")
        self._n = 0

    def fresh(self) -> str:
        self._n += 1
        return str(self.root / "new" / f"d{self._n}")

    def hostile_paths(self) -> list[str]:
        return [str(self.root), str(self.root / "missing" / "x"), "/dev/null", "/dev/full", "", " ",
                str(self.file), str(self.file / "under"), "/proc/golfsolve-fuzz", "x" * 5000, "\x00",
                str(self.root / ("é" * 200))]


#: The valid values of the parameters whose meaning their click type does not say (text
#: options), by the parameter's name; the command path picks the variant where two commands
#: share a name.
def _text_values(path: tuple[str, ...], name: str, place: Place) -> Optional[list[str]]:
    grid = path[0] == "grid"
    table = {
        "code": ["GO1-E-AAAAAAB", "GO1-C-AAAAAAC"],
        "codes": ["GO1-E-AAAAAAB"],
        "moves": ["d", "1"],
        "moves_text": ["d", ""],
        "layout_file": [str(DATA / "seed000_start.txt")],
        "pysol": ["1", "2-3"],
        "rules_spec": (["default", "danish", "default+putt"] if grid else
                       ["easy", "easy,classic"] if path[-1] in ("stats", "fair-stats") else ["easy", "classic"]),
        "bots_spec": ["greedy,random", "random"],
        "bots": ["greedy"],
        "sets_spec": ["base"],
        "strong": ["greedy"],
        "start_code": ["GO1-E-AAAAAAA"],
        "host": ["127.0.0.1"],
        "cors_origin": ["http://localhost:3000"],
        "scheduler": None,  # a Dask cluster: not started by the fuzzer
    }
    if name in ("out_dir",):
        return [place.fresh()]
    if name == "stats_dir":
        return [str(place.runs["stats"])]
    if name == "directory":
        return [str(place.runs["grid"])]
    if name == "fair":
        return [str(place.runs["fair"])]
    if name == "codes_from":
        return [str(place.codes)]
    return table.get(name, [])


#: Values small enough that a valid invocation ends in a second, by parameter name: the
#: defaults of the counts are sized for real runs.
_TINY = {"count": "1", "samples": "2", "games": "1", "max_deals": "2", "matches": "1", "holes": "1",
         "mc_samples": "2", "workers": "1", "jobs": "1", "players": "2", "difficulty_games": "1", "port": "0",
         "node_limit": "20000", "chunk_size": "1", "grid": "4", "openers": "1", "stride": "3", "start_number": "5",
         "seed": "3", "cpu_budget": "5"}

#: The options every invocation of a command gets, so that a valid one is tiny and quick.
_ALWAYS = {
    ("odds",): {"samples": "2", "games": "1"},
    ("rate",): {"games": "1"},
    ("pick",): {"games": "1", "max_deals": "2", "count": "1"},
    ("stats",): {"count": "1", "jobs": "1"},
    ("fair-stats",): {"count": "1", "jobs": "1", "player": "fast"},
    ("grid", "simulate"): {"matches": "1", "holes": "1", "mc_samples": "2", "bots_spec": "greedy,random"},
    ("grid", "play"): {"holes": "1", "bots_spec": "random"},
    ("grid", "study"): {"matches": "1", "sets_spec": "base", "strong": "greedy"},
    ("solve",): {"node_limit": "20000"},
    ("hint",): {"node_limit": "20000"},
    ("serve",): {"port": "0"},
}


#: The kind of finished run (a key of :attr:`Place.runs`) each run command writes.
_RUN_OF = {("stats",): "stats", ("fair-stats",): "fair", ("grid", "simulate"): "grid", ("grid", "study"): "study"}


def valid_values(path: tuple[str, ...], param: click.Parameter, place: Place) -> list[str]:
    """Valid values of ``param`` (each a command-line word), [] where the fuzzer has none."""
    t = param.type
    if isinstance(param, click.Option) and param.is_flag:
        return []
    if isinstance(t, click.Choice):
        return list(t.choices)
    text = _text_values(path, param.name or "", place)
    if text:
        return text
    if param.name in _TINY and (_is_int(t) or _is_float(t)):
        return [_TINY[param.name]]
    if isinstance(t, click.IntRange):
        return [str(max(t.min or 1, 1))]
    if _is_int(t):
        return ["1"]
    if _is_float(t):
        return ["1.5"]
    return []


_HUGE = ["10" + "0" * 39, str(2**63), str(2**64), "-" + "9" * 30, "9" * 5000]
_NUMBERS = ["0", "-1", "1.5", "6.0", "nan", "inf", "-inf", "1e3", "", " ", " 3 ", "+2", "-0", "0x10", "1_0",
            "٣", "３", "²", "3\u00a0", "\u20073", "1,000", "one", *_HUGE]
_TEXT = ["", " ", "\t", "\r\n", "x" * 5000, "\x00", "--json", "-", "é", "ſ", "\u200b", "GO1-E-AAAAAAB\n",
         "easy,", ",easy", "easy,,classic", "+", "a" * 41]


#: Look-alikes and edge cases of the text options, by the parameter's name.
_TEXT_BY_NAME = {
    "code": ["GO1-E-AAAAAAB ", "go1-e-aaaaaab", "GO1\u2013E\u2013AAAAAAB", "GO1-E-\u0410AAAAAB", "GO1-E-ＡAAAAAB",
             "GO1-E-ZZZZZZZ", "GO1-E-AAAAAA", "GO1-E-AAAAAAAB", "GO1-X-AAAAAAB", "GO2-E-AAAAAAB", "GO1-E-AAAAAAB\n",
             "GO1-E-AAAAAAB,GO1-C-AAAAAAB", "-1", "1"],
    "rules_spec": ["\u0435asy", "EASY", "easy+jokers1+jokers1", "classic+wrap+nowrap", "easy;classic", "easy+",
                   "easy+jokers2+jokers1", "default+putt+putt", "danish+jokers", "default+rows+anywhere",
                   "easy," * 40, "strict+king-queen+king-nothing"],
    "moves_text": ["d 5 2", "t 1 1", "1,,2", "t 9 9", "t 1", "u u u", "d" * 200, "8", "0", "-1", "1.5", "\u0663"],
    "moves": ["t", "t 1 1", "8", "0", "u", "d,d", "٣", "1.0"],
    "pysol": ["1-0", "5..1", "0-" + "9" * 30, "-1", "1-", "1--2", "1..", "1-10,", "0", "2**64", "1e3", "١", "1-1000000",
              "4294967296"],
    "bots_spec": ["mc:0", "mc:" + "9" * 40, "ismcts:", "greedy," * 7 + "greedy", "mc:1e3", "mc:-1", "MC:2", "mc:2.0",
                  "greedy,,random", "heuristic-fit", "spiel-ismcts:1", "mc:\u0663", "paired-rel:0"],
    "sets_spec": ["players-" + "9" * 40, "grid-0", "holes-0", "holes-99999999", "players-1", "openers-99", "base,base",
                  "default+putt", "putt,default+putt", "grid-5", "players-6,players-6"],
    "strong": ["ismcts:" + "9" * 40, "heuristic", "random", "greedy,random", "mc:0", "ISMCTS:2", "ismcts:1e3"],
    "start_code": ["GO1-E-ZZZZZZZ", "GO1-E-AAAAAA", "go1-e-aaaaaaa", "1"],
    "host": ["", " ", "localhost ", "256.1.1.1", "::1", "x" * 300, "127.0.0.1:80", "0.0.0.0"],
    "cors_origin": ["*", "http://", "http://x/", "localhost:3000", "http://a b", "HTTP://X"],
    "scheduler": ["", "tcp://", "tcp://127.0.0.1:1", "x"],
}


def hostile_values(path: tuple[str, ...], param: click.Parameter, place: Place) -> list[str]:
    """Values of ``param`` a careless or hostile user may give (most refused, some valid)."""
    t = param.type
    name = param.name or ""
    metavar = getattr(param, "metavar", None) or ""
    if _is_int(t) or _is_float(t):
        return _NUMBERS
    if isinstance(t, click.Choice):
        first = str(t.choices[0])
        return ["", " ", first.upper(), f" {first} ", first.replace("s", "ſ"), first + "," + first, "x" * 5000,
                first[:-1]]
    if metavar in ("FILE",) or name in ("codes_from",):
        return place.hostile_paths() + ["-"]
    if metavar in ("DIR", "REPORT_DIR", "FAIR_DIR") or name in ("out_dir", "stats_dir", "directory", "fair"):
        return place.hostile_paths() + [str(p) for p in place.runs.values()]
    return _TEXT + _TEXT_BY_NAME.get("code" if name == "codes" else name, []) * 2 + valid_values(path, param, place)


# ---------------------------------------------------------------------------
# invocations
# ---------------------------------------------------------------------------

def _option_words(param: click.Parameter, value: Optional[str]) -> list[str]:
    if isinstance(param, click.Argument):
        return [] if value is None else [value]
    if param.is_flag:
        return [_long(param)]
    return [_long(param), value]


def base_words(path: tuple[str, ...], cmd: click.Command, place: Place, rng: random.Random) -> dict[str, list[str]]:
    """A tiny valid invocation's words, by parameter name (arguments and options)."""
    words: dict[str, list[str]] = {}
    always = _ALWAYS.get(path, {})
    for p in cmd.params:
        name = p.name or ""
        if name in always:
            words[name] = _option_words(p, always[name])
        elif p.required or (isinstance(p, click.Argument) and name in ("code", "stats_dir", "directory")):
            vals = valid_values(path, p, place)
            if vals:
                words[name] = _option_words(p, rng.choice(vals))
    return words


def _assemble(cmd: click.Command, words: dict[str, list[str]], extra: list[str]) -> list[str]:
    # options first, then the arguments in their order: an argument after a '--' is never read as an option
    opts, args = [], []
    for p in cmd.params:
        w = words.get(p.name or "")
        if w is None:
            continue
        (args if isinstance(p, click.Argument) else opts).extend(w)
    return opts + extra + args


def invocations(seed: int, n: int, place: Place) -> Iterator[tuple[list[str], list[tuple[str, str]]]]:
    """``n`` seeded command lines (without the program's name), over every command, each with
    the options (or arguments) given a hostile value and those values."""
    rng = random.Random(seed)
    tree = command_tree()
    everything = [(path, p) for path, cmd in tree for p in cmd.params if isinstance(p, click.Option)]
    for _ in range(n):
        path, cmd = rng.choice(tree)
        words = base_words(path, cmd, place, rng)
        extra: list[str] = []
        changed: list[tuple[str, str]] = []
        kind = rng.choice(["valid", "hostile", "hostile", "hostile", "two", "repeat", "foreign", "json", "bare", "run"])
        params = [p for p in cmd.params if not (isinstance(p, click.Option) and p.hidden)]
        if kind == "valid" or kind == "two":
            for p in rng.sample(params, min(len(params), 1 if kind == "valid" else 2)):
                vals = valid_values(path, p, place)
                if isinstance(p, click.Option) and p.is_flag:
                    words[p.name] = [_long(p)]
                elif vals:
                    words[p.name] = _option_words(p, rng.choice(vals))
        elif kind == "hostile":
            for p in rng.sample(params, min(len(params), rng.choice([1, 1, 2]))):
                if isinstance(p, click.Option) and p.is_flag:
                    words[p.name] = [_long(p)]
                else:
                    value = rng.choice(hostile_values(path, p, place))
                    words[p.name] = _option_words(p, value)
                    changed.append((_long(p) if isinstance(p, click.Option) else p.human_readable_name, value))
        elif kind == "repeat":
            p = rng.choice(params)
            if isinstance(p, click.Option):
                vals = valid_values(path, p, place) or ["1"]
                extra += _option_words(p, rng.choice(vals)) * 2
        elif kind == "foreign":
            other_path, p = rng.choice(everything)
            if other_path != path:
                extra += _option_words(p, rng.choice(valid_values(other_path, p, place) or ["1"]))
        elif kind == "json":
            flags = [p for p in params if isinstance(p, click.Option) and p.is_flag]
            for p in rng.sample(flags, min(len(flags), 2)):
                words[p.name] = [_long(p)]
            if any(p.name == "as_json" for p in params):
                words["as_json"] = ["--json"]
        elif kind == "bare":  # the required options and arguments left out, the counts kept tiny
            words = {name: w for name, w in words.items() if name in _ALWAYS.get(path, {})}
        elif kind == "run" and path in _RUN_OF and "out_dir" in words:
            # a finished run of the same kind, continued, grown or started again, with another option changed
            words["out_dir"] = ["--out", str(place.runs[_RUN_OF[path]])]
            for flag in ("resume", "extend"):
                if any(p.name == flag for p in params) and rng.random() < 0.4:
                    words[flag] = [f"--{flag}"]
            p = rng.choice(params)
            vals = valid_values(path, p, place) + (hostile_values(path, p, place) if rng.random() < 0.3 else [])
            if isinstance(p, click.Option) and p.is_flag:
                words[p.name] = [_long(p)]
            elif vals and p.name != "out_dir":
                words[p.name] = _option_words(p, rng.choice(vals))
        yield [*path, *_assemble(cmd, words, extra)], changed


# ---------------------------------------------------------------------------
# the contract
# ---------------------------------------------------------------------------

def file_digests(folder: Path) -> dict[str, str]:
    """Each file's digest under the run folder ``folder``, by its path there; a report written
    into the run (its default ``_report`` folder) is the report's, not the run's, and the lock
    file names whichever command looked last, and a fair-stats run's summary (_fair.md) is rewritten
    by every command that finishes it."""
    return {str(f.relative_to(folder)): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(folder.rglob("*"))
            if f.is_file() and "_report" not in f.relative_to(folder).parts
            and f.name not in (".golfsolve.lock", "_fair.md")}


def changed_runs(args: list[str], before: dict[Path, dict[str, str]], after: dict[Path, dict[str, str]]) -> list[str]:
    """The finished run folders whose files ``golfsolve ARGS`` changed or removed: a file added
    is fine, and so is a manifest rewritten by ``--resume`` or ``--extend``."""
    broken = []
    for run, old in before.items():
        new = after[run]
        for name, digest in old.items():
            if name == "_manifest.json" and ("--resume" in args or "--extend" in args):
                continue
            if new.get(name) != digest:
                broken.append(f"run folder {run}: {name} {'changed' if name in new else 'removed'}")
    return broken


def named_paths(args: list[str], cwd: Path) -> set[Path]:
    """The paths an invocation may name (every word, taken as a path from ``cwd``)."""
    out: set[Path] = set()
    for a in args:
        if a.strip() and "\x00" not in a and len(a) < 4000:
            p = cwd / a
            out |= {p, *p.parents}
    return out


def check_contract(args: list[str], code: int, stdout: str, stderr: str, before: set[Path],
                   after: set[Path], cwd: Path) -> list[str]:
    """What ``golfsolve ARGS`` broke of the contract (an empty list: nothing), but for the run
    folders (:func:`changed_runs`); ``before`` and ``after`` are the files of the scratch
    folder around the run."""
    broken = []
    if code not in (0, 1, 2):
        broken.append(f"exit code {code}")
    for stream, text in (("stdout", stdout), ("stderr", stderr)):
        if "internal error" in text:
            broken.append(f"internal error on {stream}")
        if "Traceback (most recent call last)" in text:
            broken.append(f"traceback on {stream}")
    if code == 2:
        lines = stderr.strip().splitlines()
        if len(lines) != 1 or not lines[0].startswith("golfsolve: "):
            broken.append(f"exit 2 with {len(lines)} lines on stderr")
    if code == 0 and "--json" in args and stdout.strip():
        try:
            json.loads(stdout)
        except ValueError:
            # solve's many-deal output is JSON Lines, one record per line
            try:
                [json.loads(line) for line in stdout.splitlines() if line.strip()]
            except ValueError:
                broken.append("--json output is not JSON")
    named = named_paths(args, cwd)
    strays = [p for p in after - before if not any(q == p or q in p.parents for q in named)]
    if strays:
        broken.append(f"files made outside the folders named: {sorted(map(str, strays))[:3]}")
    return broken


# ---------------------------------------------------------------------------
# the flaws the wide runs found
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["deal", "--layout", "a\x00b"],
    ["rate", "--layout", "\x00"],
    ["solve", "--codes-from", "\x00"],
    ["report", "\x00"],
    ["grid", "report", "\x00"],
    ["stats", "--count", "1", "--out", "run\x00"],
])
def test_a_path_holding_a_nul_character_is_refused_naming_its_option(run_cli, args):
    """was: a path holding a NUL character (which ``main([...])`` can pass, a shell cannot)
    met os.stat's bare ValueError, "golfsolve: internal error: ValueError: embedded null byte",
    exit 1, for --layout, --codes-from, a run folder to read and --out."""
    from hostile_helpers import one_line_exit_2

    r = run_cli(args)
    one_line_exit_2(r, "a path cannot hold a NUL character")
    option = next((a for a in args if a.startswith("--") and a not in ("--count",)), "DIR")
    assert option in r.stderr, r.stderr



@pytest.mark.parametrize("args, needle", [
    (["grid", "play", "--holes", "1", "--seed", "\uff13"], "'\uff13' is not a whole number in digits 0-9"),
    (["grid", "play", "--holes", "1", "--players", "\u0663"], "is not a whole number in digits 0-9"),
    (["grid", "play", "--holes", "1_0"], "'1_0' is not a whole number in digits 0-9"),
    (["grid", "play", "--holes", "1", "--seed", "1", "--seed", "2"], "--seed is given more than once"),
])
def test_grid_play_refuses_other_digits_and_a_repeated_option(run_cli, args, needle):
    """was: ``grid play`` was a plain click command, without the checks every other command
    has: '--seed ３' (a fullwidth 3) played seed 3, '--holes 1_0' ten holes, '--players ٣'
    three players, and '--seed 1 --seed 2' seed 2, each silently (the game started and waited
    for moves)."""
    from hostile_helpers import one_line_exit_2

    r = run_cli(args)
    one_line_exit_2(r, needle)


def test_every_command_is_a_golfsolve_command():
    """was: ``grid play`` alone was a click.Command, not :class:`golfsolve.cli.command.Command`,
    so the shared checks of the command line (one value per option, ASCII digits, input files
    that are regular files) passed it by; a command added later must not miss them either."""
    from golfsolve.cli.command import Command

    plain = [" ".join(path) for path, cmd in command_tree() if not isinstance(cmd, Command)]
    assert not plain, plain


# ---------------------------------------------------------------------------
# the fuzzer, small and seeded
# ---------------------------------------------------------------------------

class _TooLong(BaseException):
    """An invocation ran past its time: a BaseException, so no ``except Exception`` swallows it."""


@pytest.fixture(scope="module")
def place(tmp_path_factory) -> Place:
    """Finished run folders of every kind, and the files the fuzzer names."""
    from run_helpers import made_here

    root = tmp_path_factory.mktemp("fuzz41")
    runs = {k: root / "runs" / k for k in ("stats", "fair", "grid", "study")}
    made_here("stats", "--count", "2", "--rules", "easy", "--chunk-size", "1", "--jobs", "1", "--out",
              str(runs["stats"]), "-q")
    made_here("fair-stats", "--count", "1", "--rules", "easy", "--player", "fast", "--jobs", "1", "--out",
              str(runs["fair"]), "-q")
    made_here("grid", "simulate", "--matches", "2", "--holes", "1", "--bots", "greedy,random", "--out",
              str(runs["grid"]), "-q")
    made_here("grid", "study", "--matches", "1", "--sets", "base", "--strong", "greedy", "--out",
              str(runs["study"]), "-q")
    (root / "cwd").mkdir()
    return Place(root, runs)


def test_the_command_tree_is_walked_from_click():
    """The fuzzer reaches every command, the grid subgroup's too, from click's own objects."""
    from golfsolve.cli.main import COMMANDS

    paths = {path for path, _ in command_tree()}
    assert {p[0] for p in paths if len(p) == 1} == set(COMMANDS) - {"grid"}
    assert {("grid", "simulate"), ("grid", "play"), ("grid", "report"), ("grid", "study")} <= paths


@pytest.mark.parametrize("seed", [41, 4141])
def test_seeded_fuzz_of_the_command_line_keeps_the_contract(run_cli, place, monkeypatch, seed):
    """Seeded invocations of every command (see :func:`invocations`) keep the contract
    (:func:`check_contract`, :func:`changed_runs`); none runs past 20 s."""
    import signal

    import golfsolve.cli.serve as serve

    bind = serve._bind

    def served(host, port):  # serve got past its checks: it would now serve until stopped
        bind(host, port).close()
        raise SystemExit(0)

    monkeypatch.setattr(serve, "_bind", served)
    cwd = place.root / "cwd"
    monkeypatch.chdir(cwd)

    def too_long(signum, frame):
        raise _TooLong()

    old = signal.signal(signal.SIGALRM, too_long)
    problems = []
    try:
        for args, _ in invocations(seed, 150, place):
            runs_before = {r: file_digests(r) for r in place.runs.values()}
            before = set(place.root.rglob("*"))
            signal.alarm(20)
            try:
                r = run_cli(args)
            except _TooLong:
                problems.append((args, ["ran past 20 s"]))
                continue
            finally:
                signal.alarm(0)
            broken = check_contract(args, r.exit_code, r.stdout, r.stderr, before, set(place.root.rglob("*")), cwd)
            broken += changed_runs(args, runs_before, {r_: file_digests(r_) for r_ in place.runs.values()})
            if broken:
                problems.append(([a[:80] for a in args], broken, r.stderr[-300:]))
    finally:
        signal.signal(signal.SIGALRM, old)
    assert not problems, problems
