"""What a new user meets in README.md and docs/*.md beyond the console examples
(tests/docs/test_docs_examples.py runs those): links and their anchors, commands written inline in
the prose, the benchmark commands the measurement pages give, the files the commands name, the
help texts' wording and the figures they share with the docs, and the README's word on the
library's results. All cheap: commands are parsed as golfsolve and the scripts parse them,
nothing long is run.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

from golfsolve.cli.main import cli
from hostile_helpers import ROOT, commands
from test_docs_examples import DOC_FILES, golfsolve_commands, python_blocks

#: every Markdown page a clone has: README, docs/ and the census report under docs/
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _prose(path: Path) -> str:
    """The page with its fenced blocks blanked out (line numbers kept)."""
    out, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
            out.append("")
        else:
            out.append("" if fenced else line)
    return "\n".join(out)


def _block_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of the page's fenced blocks, a line ending in ``\\`` joined with the next."""
    out, fenced = [], False
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip().startswith("```"):
            fenced = not fenced
        elif fenced:
            start, text = i, lines[i]
            while text.endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text[:-1] + " " + lines[i].strip()
            out.append((start + 1, text))
        i += 1
    return out


def _spans(path: Path) -> list[tuple[int, str]]:
    """The inline code spans of the page's prose, as (line, text with its line breaks as spaces)."""
    prose = _prose(path)
    return [(prose[:m.start()].count("\n") + 1, " ".join(m.group(1).split()))
            for m in re.finditer(r"`([^`]+)`", prose)]


# --- links and anchors ------------------------------------------------------------------------

def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, only letters, digits, ``-`` and ``_``
    kept, each space a ``-``."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path):
    seen: dict[str, int] = {}
    for line in _prose(path).splitlines():
        m = re.match(r"#{1,6}\s+(.*)", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            yield s if n == 0 else f"{s}-{n}"


def test_slugs_are_githubs():
    assert slug("Grid Golf (`golfsolve/grid/`)") == "grid-golf-golfsolvegrid"
    assert slug("Throughput and the 1,000,000-deal census") == "throughput-and-the-1000000-deal-census"
    assert slug("Deals spread over the code space: `--spread`, `--stride K`") == \
        "deals-spread-over-the-code-space---spread---stride-k"


@pytest.mark.parametrize("path", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_link_to_a_section_names_one_its_page_has(path):
    """(was: three links of grid.md to ``experiments.md#grid-golf``, whose heading "Grid Golf
    (`golfsolve/grid/`)" is ``#grid-golf-golfsolvegrid``: they opened the page at its top)"""
    bad = []
    for target, anchor in re.findall(r"\]\(([^)#\s]*)#([^)\s]+)\)", _prose(path)):
        page = (path.parent / target) if target else path
        if "://" in target or page.suffix != ".md":
            continue
        if not page.exists() or anchor not in set(anchors(page)):
            bad.append(f"{target}#{anchor}")
    assert bad == []


# --- commands in the prose --------------------------------------------------------------------

def _parse_problem(argv: list[str]) -> str | None:
    """Why golfsolve's parser refuses ARGV (a command or an option it does not have), else None.
    A valued option at the very end (``golfsolve odds --moves``) names the option: accepted."""
    ctx = click.Context(cli, info_name="golfsolve")
    command: click.Command = cli
    while isinstance(command, click.Group) and argv and not argv[0].startswith("-"):
        sub = command.get_command(ctx, argv[0])
        if sub is None:
            return f"no command {argv[0]!r}"
        ctx = click.Context(sub, info_name=argv[0], parent=ctx)
        command, argv = sub, argv[1:]
    try:
        command.make_parser(ctx).parse_args(list(argv))
    except click.UsageError as e:
        message = e.format_message()
        if not ("requires an argument" in message and argv and argv[-1].startswith("--")):
            return message
    return None


def prose_commands() -> list[tuple[Path, int, list[str]]]:
    """The golfsolve commands written in inline code in the pages' prose."""
    out = []
    for path in DOC_FILES:
        for line, span in _spans(path):
            if re.search(r"(^|\s)golfsolve\s+\S", span):
                # 'golfsolve COMMAND --help' stands for every command
                out += [(path, line, argv) for argv in golfsolve_commands(span)
                        if argv and not re.fullmatch(r"[A-Z_]+", argv[0])]
    return out


PROSE = prose_commands()


def test_prose_commands_are_found():
    assert len(PROSE) >= 40
    assert any(argv[:2] == ["stats", "--start-number"] for _, _, argv in PROSE)


@pytest.mark.parametrize("path, line, argv", PROSE, ids=[f"{p.name}:{n}" for p, n, _ in PROSE])
def test_a_prose_command_names_real_commands_and_options(path, line, argv):
    problem = _parse_problem(argv)
    assert problem is None, f"{path.name}:{line}: golfsolve {shlex.join(argv)}: {problem}"


def test_the_prose_check_refuses_what_golfsolve_refuses():
    assert _parse_problem(["stats", "--count", "5", "--out", "x", "--workers", "2"]) is None
    assert _parse_problem(["odds", "--moves"]) is None  # naming an option
    assert _parse_problem(["--help"]) is None
    assert "--bogus" in _parse_problem(["stats", "--bogus"])
    assert _parse_problem(["grid", "simualte"]) is not None


# --- benchmark commands -----------------------------------------------------------------------

def benchmark_commands() -> list[tuple[Path, int, str, str]]:
    """Every ``python benchmarks/NAME.py ARGS`` the pages give, in blocks and in prose, as
    (page, line, script, arguments up to a comment, a pipe or an ``&&``)."""
    out = []
    for path in DOC_FILES:
        for line, text in _block_lines(path) + _spans(path):
            for m in re.finditer(r"python (benchmarks/[\w.]+\.py)(.*)", text):
                args = re.split(r"\s#|\s&&|(?<!\\)\|", m.group(2))[0]
                out.append((path, line, m.group(1), args))
    return out


BENCHMARKS = benchmark_commands()


def _options_known(script: Path) -> str:
    """The source of a benchmark script and of the benchmarks/ modules it imports (some share
    their options: census_ab.py and solver_ab.py take --start and --count from abtrees.py)."""
    src = script.read_text(encoding="utf-8")
    for name in re.findall(r"^(?:from|import) (\w+)", src, re.MULTILINE):
        if (script.parent / f"{name}.py").exists():
            src += (script.parent / f"{name}.py").read_text(encoding="utf-8")
    return src


def test_benchmark_commands_are_found():
    assert len(BENCHMARKS) >= 50
    assert any(s == "benchmarks/fair_paired.py" and "--shuffle" in a for _, _, s, a in BENCHMARKS)


@pytest.mark.parametrize("path, line, script, args", BENCHMARKS,
                         ids=[f"{p.name}:{n}:{s}" for p, n, s, _ in BENCHMARKS])
def test_a_benchmark_command_names_a_script_and_options_it_has(path, line, script, args):
    """(was: performance.md's ``bench_stats.py --count 10000 --jobs 2 [--fields winnable]``, whose
    bracketed option argparse refuses as an unknown argument when the line is run as written)"""
    where = f"{path.name}:{line}: python {script}{args}"
    assert (ROOT / script).is_file(), where
    assert "[--" not in args, f"{where}: an optional part in brackets does not run as written"
    src = _options_known(ROOT / script)
    unknown = [opt for opt in re.findall(r"(?<![\w-])(--[a-z][\w-]*)", args)
               if f'"{opt}"' not in src and f"'{opt}'" not in src]
    assert unknown == [], where


# --- files the pages name ---------------------------------------------------------------------

@pytest.mark.parametrize("path", DOC_FILES, ids=[p.name for p in DOC_FILES])
def test_the_files_a_page_names_are_in_the_checkout(path):
    """Paths under tests/, benchmarks/, golfsolve/ and notebooks/ exist, and every file a shown
    or prose command reads with ``--layout`` does (``-`` and placeholders such as FILE aside).
    (was: fair.md's ``golfsolve rate --pysol 1-5 --layout my-deal.txt``, a file no clone has)"""
    text = path.read_text(encoding="utf-8")
    named = set(re.findall(r"(?<![\w/.])((?:tests|benchmarks|golfsolve|notebooks)/[\w/.-]*\w)", text))
    named |= {f for f in re.findall(r"--layout\s+([^\s`)|]+)", text)
              if f != "-" and not re.fullmatch(r"[A-Z_]+", f)}
    missing = sorted(f for f in named if not (ROOT / f).exists())
    assert missing == []


# --- help texts -------------------------------------------------------------------------------

def help_texts() -> list[tuple[str, str]]:
    out = [("golfsolve", cli.help or "")]
    for path, command in commands(cli, []):
        out.append((" ".join(path), command.help or ""))
        out += [(f"{' '.join(path)} {p.opts[0]}", p.help or "") for p in command.params if isinstance(p, click.Option)]
    return out


#: words that speak of the project's history, not of what the command does
HISTORY = re.compile(r"\((?:was|formerly)\b|\b(?:today'?s?|no longer|used to|formerly|previously|"
                     r"round \d+|new in|since version)\b", re.IGNORECASE)


def test_help_texts_state_the_current_behaviour_only():
    texts = help_texts()
    assert len(texts) > 100
    found = [f"{where}: {m.group(0)!r}" for where, text in texts for m in HISTORY.finditer(" ".join(text.split()))]
    assert found == []
    assert HISTORY.search("the strong player of round 2") and HISTORY.search("(was: 0.15 s)")


def test_fair_stats_help_gives_the_strong_players_cost_fair_md_measures():
    """(was: ``fair-stats --help`` put the strong player at 0.15-0.3 s of CPU per Classic deal,
    while fair.md measures 0.099 s on deals 0..199 and 0.102 s on 0..999)"""
    text = " ".join(cli.get_command(click.Context(cli), "fair-stats").help.split())
    easy_lo, easy_hi, classic_lo, classic_hi = re.search(
        r"about ([\d.]+)-([\d.]+) s of CPU per Easy deal and ([\d.]+)-([\d.]+) s per Classic deal", text).groups()
    fair = (ROOT / "docs" / "fair.md").read_text(encoding="utf-8")
    easy, classic = map(float, re.search(r"\| `strong` \|.*\| ([\d.]+) / ([\d.]+) s \|\n", fair).groups())

    def about(figure: float, lo: str, hi: str) -> bool:  # "about 0.1-0.3 s" holds 0.099 s, not 0.04
        return float(lo) <= round(figure, len(lo.partition(".")[2])) <= float(hi)

    assert about(easy, easy_lo, easy_hi)
    assert about(classic, classic_lo, classic_hi)
    assert not about(0.099, "0.15", "0.3") and not about(0.04, "0.1", "0.3")


# --- the README's library section and the docs' snippets --------------------------------------

def test_every_result_has_an_as_json_the_fields_json_prints_and_answers_adds_the_deal():
    """The README: "Every result has an as_json(), the fields --json prints for it;
    golfsolve.solitaire.answers makes the commands' whole records (the deal's name added)"."""
    from golfsolve.solitaire.answers import deal_answer, peeking_hint_answer, solve_answer, solve_layout
    from golfsolve.solitaire.layout import layout_from_code

    assert "`golfsolve.solitaire.answers` makes the commands' whole records" in \
        " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    lay = layout_from_code("GO1-E-AAAAAAB")
    sol = solve_layout(lay)
    assert solve_answer(lay, sol) == {"deal": "GO1-E-AAAAAAB", **sol.as_json()}
    assert deal_answer(lay) == {"deal": "GO1-E-AAAAAAB", **lay.as_json()}
    hint = peeking_hint_answer(lay)
    assert hint["deal"] == "GO1-E-AAAAAAB" and hint["best"]["move"] == "1"


@pytest.mark.parametrize("path", [p for p in DOC_FILES if p.name != "README.md" and python_blocks(p)],
                         ids=lambda p: p.name)
def test_the_imports_of_a_docs_python_example_work(path):
    """Each ```python block of docs/ imports names the library has (the README's block runs whole
    in tests/docs/test_docs_examples.py; grid.md's runs whole below; fair.md's plays games)."""
    for _, lines in python_blocks(path):
        imports = "\n".join(ln for ln in lines if re.match(r"(from \S+ )?import ", ln))
        assert imports
        exec(imports, {})  # noqa: S102 (the docs' own imports)


def test_grid_mds_hole_state_example_runs_a_hole_to_its_end():
    (first, lines), = python_blocks(ROOT / "docs" / "grid.md")
    code = "\n".join(lines).replace("print(s.result().strokes, s.result().reason)", "RESULT = s.result()")
    scope: dict = {}
    exec(code, scope)  # noqa: S102 (grid.md's own example)
    assert scope["s"].is_terminal() and len(scope["RESULT"].strokes) == 2
