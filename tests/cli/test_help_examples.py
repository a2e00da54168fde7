"""The examples in every command's --help name real commands and options, and the cheap ones
(deal, replay, hint, solve of one deal) run and answer with exit code 0.

(was: ``hint --help`` showed ``--moves "d 5 2"``, whose 5 is not legal in that deal (exit 2),
and ``replay --help`` ``d 4 d 1 ...``, whose 1 is rejected and whose ``...`` is no move)
"""

from __future__ import annotations

import re
import shlex

import click
import pytest

from golfsolve.cli.main import cli
from hostile_helpers import ROOT, commands


#: commands whose examples are cheap enough to run here (a solve of one deal, not a range)
RUN = {"deal", "replay", "hint", "solve"}


def help_examples() -> list[tuple[str, list[str]]]:
    """(the command whose help shows it, the example's arguments after ``golfsolve``)."""
    out = [("golfsolve", argv) for argv in _examples(cli.help)]
    for path, command in commands(cli, []):
        out += [(" ".join(path), argv) for argv in _examples(command.help or "")]
    return out


def _examples(text: str) -> list[list[str]]:
    text = re.sub(r"\(then [^)]*\)", "", " ".join(text.split()))  # play's note on what to type
    found = []
    for m in re.finditer(r"(?:Examples?|Over the whole code space): (.*?)(?=$|(?<=\S)\. |'golfsolve| Over the whole)", text):
        for part in m.group(1).split("; "):
            words = shlex.split(part.strip().removesuffix("."))
            assert words[0] == "golfsolve", part
            found.append(words[1:])
    return found


EXAMPLES = help_examples()


def test_every_command_shows_an_example():
    shown = {where for where, _ in EXAMPLES}
    names = {" ".join(path) for path, _ in commands(cli, [])}
    assert names <= shown, names - shown
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize("where,argv", EXAMPLES, ids=[f"{w}: {' '.join(a)}" for w, a in EXAMPLES])
def test_a_help_example_parses_and_the_cheap_ones_answer(where, argv, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)  # examples name tests/data/... files
    command, args, name = cli, list(argv), "golfsolve"
    while isinstance(command, click.Group):
        name = args.pop(0)
        command = command.get_command(click.Context(cli), name)
        assert command is not None, f"{where}: no command {name!r}"
    if name == "report":  # its DIR must exist: the example reports on the README's main job
        return
    command.make_context(name, args)  # unknown options and bad values fail here
    if argv[0] in RUN and "--pysol" not in argv:
        r = run_cli(argv)
        assert r.exit_code == 0, f"{where}: golfsolve {' '.join(argv)}: {r.stderr}"
