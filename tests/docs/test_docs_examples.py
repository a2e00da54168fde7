"""Every console example in README.md and docs/*.md is run and must print what it shows.

A ```console block holds ``$ golfsolve ...`` lines, each followed by that command's output
(stdout, then stderr, as a terminal shows them when nothing is printed on both). A command
may go on over lines ending in ``\\``; ``# ...`` after it is a comment. In the output,
timings ("in 7.2 ms", "0.4 s") are normalised, trailing spaces are ignored, and a line
holding only ``...`` stands for any number of lines. ```sh blocks (and blocks with no
language) are shown, not run: their golfsolve commands are parsed as golfsolve parses them,
so a renamed command or option fails here, and a move list one replays (``--moves``) must be
legal in its deal.
A stderr line about compiling (the one-time notice of a cold numba cache) is not part of
an example's output.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import os
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pytest

from hostile_helpers import ROOT
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: the one-time notice (stderr) that kernels are being compiled: a cold cache's, not the example's
_COMPILE_NOTE = re.compile(r"\bcompil", re.IGNORECASE)
_TIMING = re.compile(r"\b\d[\d,]*(?:\.\d+)?\s?(?:ms|µs|s)\b")


@dataclass
class Example:
    """One ``$ golfsolve ...`` line of a console block and the output shown under it."""

    path: Path
    line: int  # 1-based line of the command in the file
    argv: list[str]
    expected: list[str]

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path}:{self.line}"


class DocExampleError(ValueError):
    """A console block that is not made of ``$ golfsolve ...`` commands and their output."""


def examples(path: Path) -> list[Example]:
    """The console examples of a Markdown file, in order."""
    out: list[Example] = []
    in_console = False
    current: Example | None = None
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        text = lines[i]
        fence = text.strip()
        if fence.startswith("```"):
            if not in_console and fence == "```console":
                in_console = True
            elif in_console:
                in_console, current = False, None
            i += 1
            continue
        if in_console:
            if text.startswith("$ "):
                start = i
                command = text[2:]
                while command.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    command = command[:-1] + " " + lines[i].strip()
                argv = shlex.split(command, comments=True)
                if not argv or argv[0] != "golfsolve":
                    raise DocExampleError(f"{path}:{start + 1}: a console example runs golfsolve only: {text!r}")
                current = Example(path, start + 1, argv[1:], [])
                out.append(current)
            elif current is None:
                raise DocExampleError(f"{path}:{i + 1}: output before any '$ golfsolve' line")
            else:
                current.expected.append(text)
        i += 1
    return out


def run(argv: list[str]) -> list[str]:
    """What ``golfsolve ARGV`` prints (stdout, then stderr), run through main() from the repository root."""
    from golfsolve.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with _inside(ROOT), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(argv))
        except SystemExit:
            pass
    notes = [ln for ln in err.getvalue().splitlines() if not _COMPILE_NOTE.search(ln)]
    return out.getvalue().splitlines() + notes


@contextlib.contextmanager
def _inside(folder: Path):
    """In ``folder`` with an empty stdin (contextlib.chdir is Python 3.11+)."""
    old_dir, old_stdin = os.getcwd(), sys.stdin
    os.chdir(folder)
    sys.stdin = io.StringIO("")
    try:
        yield
    finally:
        os.chdir(old_dir)
        sys.stdin = old_stdin


def _norm(line: str) -> str:
    return _TIMING.sub("<time>", line.rstrip())


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected``, where a line holding only ``...`` stands for any lines."""
    want = [None if ln.strip() == "..." else _norm(ln) for ln in expected]
    got = [_norm(ln) for ln in actual]

    @lru_cache(maxsize=None)
    def fit(i: int, j: int) -> bool:
        if i == len(want):
            return j == len(got)
        if want[i] is None:
            return any(fit(i + 1, k) for k in range(j, len(got) + 1))
        return j < len(got) and want[i] == got[j] and fit(i + 1, j + 1)

    return fit(0, 0)


def check(example: Example) -> str | None:
    """None when the example prints what it shows, else a diff that says where it differs."""
    actual = run(example.argv)
    if matches(example.expected, actual):
        return None
    diff = difflib.unified_diff(example.expected, actual, "shown", "printed", lineterm="")
    return f"{example.where}: $ golfsolve {shlex.join(example.argv)}\n" + "\n".join(diff)


ALL = [ex for path in DOC_FILES for ex in examples(path)]


@pytest.mark.parametrize("example", ALL, ids=[ex.where for ex in ALL])
def test_example_prints_what_the_docs_show(example):
    problem = check(example)
    assert problem is None, problem


def test_the_docs_have_examples():
    assert len([ex for ex in ALL if ex.path.name == "README.md"]) >= 5


def test_an_edited_output_line_fails(tmp_path):
    readme = tmp_path / "README.md"
    shutil.copy(ROOT / "README.md", readme)
    first = next(ex for ex in examples(readme) if any(ln.strip() not in ("", "...") for ln in ex.expected))
    assert check(first) is None
    lines = readme.read_text(encoding="utf-8").splitlines(keepends=True)
    k = next(k for k, ln in enumerate(first.expected) if ln.strip() not in ("", "..."))
    at = first.line + k  # the output starts on the line after the command (0-based: first.line)
    assert lines[at].rstrip("\n") == first.expected[k]
    lines[at] = lines[at].rstrip("\n") + " (edited)\n"
    readme.write_text("".join(lines), encoding="utf-8")
    edited = next(ex for ex in examples(readme) if ex.line == first.line)
    problem = check(edited)
    assert problem is not None and f"README.md:{first.line}" in problem


def test_dots_stand_for_any_lines_and_timings_are_normalised():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "d"], ["a", "d"])
    assert not matches(["a", "...", "d"], ["a", "b", "c"])
    assert matches(["searched 44 states in 7.2 ms"], ["searched 44 states in 11.9 ms  "])
    assert not matches(["searched 44 states in 7.2 ms"], ["searched 45 states in 7.2 ms"])


def test_a_console_block_runs_only_golfsolve(tmp_path):
    doc = tmp_path / "x.md"
    doc.write_text("```console\n$ rm -rf stuff\n```\n", encoding="utf-8")
    with pytest.raises(DocExampleError):
        examples(doc)
    doc.write_text("```sh\n$ rm -rf stuff\n```\n```console\n$ golfsolve deal \\\n   GO1-E-AAAAAAB  # a comment\nout\n```\n",
                   encoding="utf-8")
    (ex,) = examples(doc)
    assert ex.argv == ["deal", "GO1-E-AAAAAAB"] and ex.expected == ["out"] and ex.line == 5


def golfsolve_commands(command: str) -> list[list[str]]:
    """The arguments after ``golfsolve`` of each golfsolve command in a shell line (a pipeline,
    an ``&&`` chain; ``nice -n N golfsolve`` and ``python -m golfsolve`` count), redirections left out."""
    lexer = shlex.shlex(command.removeprefix("$ "), posix=True, punctuation_chars=True)
    lexer.whitespace_split, lexer.commenters = True, "#"
    out: list[list[str]] = []
    part: list[str] = []
    for w in list(lexer) + [";"]:
        if w and set(w) <= set("|&;<>()"):
            if "golfsolve" in part:
                out.append(part[part.index("golfsolve") + 1:])
            part = ["<redirected>"] if w in (">", ">>", "<") else []  # a file name follows, no argument
        else:
            part.append(w)
    return out


def shown_commands(path: Path) -> list[tuple[int, list[str]]]:
    """The golfsolve commands of a Markdown file's shown, not run, code blocks (```sh, or no
    language), as (line, arguments after ``golfsolve``)."""
    out: list[tuple[int, list[str]]] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    block = None  # the open block's language ("" for none), None outside a block
    i = 0
    while i < len(lines):
        fence = lines[i].strip()
        if fence.startswith("```"):
            block = fence[3:] if block is None else None
        elif block in ("", "sh", "bash") and re.search(r"\bgolfsolve\b", lines[i]):  # blocks also show output
            start, command = i, lines[i]
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command = command[:-1] + " " + lines[i].strip()
            out += [(start + 1, argv) for argv in golfsolve_commands(command)]
        i += 1
    return out


#: every shown command, and the README's first line (the main job)
SHOWN = [(ROOT / "README.md", 1, argv) for argv in golfsolve_commands(
    (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[0])] + \
    [(path, line, argv) for path in DOC_FILES for line, argv in shown_commands(path)]


@pytest.mark.parametrize("path, line, argv", SHOWN, ids=[f"{p.name}:{n}" for p, n, _ in SHOWN])
def test_a_shown_command_names_real_commands_and_options(path, line, argv):
    """A command the docs show but do not run names a command and options golfsolve has
    (parsed as golfsolve parses it, nothing run: an option renamed in the code fails here)."""
    import click

    from golfsolve.cli.main import cli

    ctx = click.Context(cli, info_name="golfsolve")
    command: click.Command = cli
    while isinstance(command, click.Group):
        assert argv, f"{path.name}:{line}: a group needs a command"
        sub = command.get_command(ctx, argv[0])
        assert sub is not None, f"{path.name}:{line}: no command {argv[0]!r}"
        ctx = click.Context(sub, info_name=argv[0], parent=ctx)
        command, argv = sub, argv[1:]
    try:
        command.make_parser(ctx).parse_args(list(argv))
    except click.UsageError as e:
        pytest.fail(f"{path.name}:{line}: {ctx.command_path} {shlex.join(argv)}: {e.format_message()}")


MOVES_SHOWN = [(p, n, argv) for p, n, argv in SHOWN if "--moves" in argv and re.fullmatch(r"GO1-\w-\w+", argv[1])]


@pytest.mark.parametrize("path, line, argv", MOVES_SHOWN, ids=[f"{p.name}:{n}" for p, n, _ in MOVES_SHOWN])
def test_a_shown_move_list_is_legal_in_its_deal(path, line, argv):
    """The moves a shown command replays (``--moves``) are legal in its deal: the engine
    replays them (cheap; the command itself is not run)."""
    from golfsolve.solitaire.engine import parse_moves
    from golfsolve.solitaire.hint import position_after
    from golfsolve.solitaire.layout import layout_from_code

    layout = layout_from_code(argv[1])
    position_after(layout, parse_moves(argv[argv.index("--moves") + 1]), layout.rules)  # InputError if not


def test_shown_commands_are_found():
    assert len(SHOWN) >= 30
    doc = ROOT / "README.md"
    assert [argv[0] for p, n, argv in SHOWN if p == doc and n == 1] == ["stats", "report"]
    assert any(argv[:2] == ["solve", "--codes-from"] for p, _, argv in SHOWN if p == doc)
    assert MOVES_SHOWN
    assert golfsolve_commands("nice -n 5 golfsolve grid report DIR > out.txt && golfsolve deal X | head -1") == \
        [["grid", "report", "DIR"], ["deal", "X"]]


def test_readme_is_short_and_starts_with_the_two_setup_lines():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250
    assert lines[0].startswith("pip install -e . && golfsolve stats ")
    assert lines[1] == "pip install -e '.[test]' && python -m pytest -q"


_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("path", DOC_FILES, ids=[p.name for p in DOC_FILES])
def test_docs_link_only_to_files_a_clone_has(path):
    text = path.read_text(encoding="utf-8")
    missing = [t for t in _LINK.findall(text)
               if "://" not in t and not (path.parent / t).exists()]
    assert missing == []
    assert "shared/reference" not in text  # beside this repository on one machine only


def python_blocks(path: Path) -> list[tuple[int, list[str]]]:
    """The ```python blocks of a Markdown file, as (line of the first code line, lines)."""
    out: list[tuple[int, list[str]]] = []
    block = None
    for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text.strip().startswith("```"):
            if block is None and text.strip() == "```python":
                block = (n + 1, [])
            elif block is not None:
                out.append(block)
                block = None
        elif block is not None:
            block[1].append(text)
    return out


def test_the_readmes_library_example_runs_and_shows_what_it_prints():
    """Each line of the README's library example runs; a line ``EXPR  # VALUE`` whose comment
    is a Python literal must evaluate to it (was: ``sol.nodes`` shown as 10145, while the
    solver searches 9,965 states, as the CLI example above it says)."""
    import ast

    (first, lines), = python_blocks(ROOT / "README.md")
    scope: dict = {}
    checked = 0
    for n, line in enumerate(lines, first):
        code, _, comment = line.partition("  #")
        code, comment = code.strip(), comment.strip()
        if not code:
            continue
        try:
            expected = ast.literal_eval(comment)
        except (ValueError, SyntaxError):
            exec(code, scope)  # noqa: S102 (the README's own code)
            continue
        assert eval(code, scope) == expected, f"README.md:{n}: {code}"  # noqa: S307
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("path", DOC_FILES, ids=[p.name for p in DOC_FILES])
def test_every_table_row_belongs_to_a_table(path):
    """A ``|`` row after a blank line starts a new table, so a header separator must follow it
    (was: a blank line inside grid.md's switch table cut its last three rows out of it, shown
    as a paragraph of pipes)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    in_code, stray = False, []
    for i, line in enumerate(lines):
        if line.strip().startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("|") and (i == 0 or not lines[i - 1].startswith("|")):
            if not (i + 1 < len(lines) and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", lines[i + 1].strip())):
                stray.append(f"{path.name}:{i + 1}: {line[:50]}")
    assert stray == []


def test_every_library_result_has_the_as_json_the_readme_names():
    """The README: "Every result has an as_json()"; the solitaire results had to_json() only
    (was: AttributeError on ``sol.as_json()``), the fair ones as_json() only."""
    from golfsolve.solitaire.deals import BadLine
    from golfsolve.solitaire.engine import Game
    from golfsolve.solitaire.hint import MoveAdvice
    from golfsolve.solitaire.layout import Layout
    from golfsolve.solitaire.solver import Solution

    assert "as_json()" in (ROOT / "README.md").read_text(encoding="utf-8")
    for cls in (BadLine, Game, MoveAdvice, Layout, Solution):
        assert cls.as_json is cls.to_json, cls
