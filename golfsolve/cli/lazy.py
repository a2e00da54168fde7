"""A click group whose commands are imported only when one is run or its help is shown.

Importing every command module for every command costs most of a short command's start-up
(the solver's numba kernels, the fair-play package, pandas for the reports). The group holds
a map from command name to ``"module:attribute"`` and the command's one-line help, so
``golfsolve --help`` lists every command without importing any of them.
"""

from __future__ import annotations

import difflib
import importlib
from typing import NamedTuple

import click


class LazyCommand(NamedTuple):
    """Where a command lives (``"package.module:attribute"``) and its short help for the list."""

    target: str
    short_help: str


class LazyGroup(click.Group):
    """A :class:`click.Group` that imports a command's module the first time the command is needed.

    ``lazy`` maps each command name to a :class:`LazyCommand`. The listing in ``--help`` uses
    the short help of the map (tests/cli/test_cli_lazy.py checks it is the command's own).
    """

    def __init__(self, *args, lazy: dict[str, LazyCommand] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy: dict[str, LazyCommand] = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            self.add_command(self.load(cmd_name), cmd_name)
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as e:
            # click suggests from the commands loaded so far, here none: 'sovle' would get no hint
            # where 'grid simluate' gets one
            e.possibilities = e.possibilities or difflib.get_close_matches(e.command_name, self.list_commands(ctx))
            raise

    def load(self, cmd_name: str) -> click.Command:
        """Import the command ``cmd_name`` names in the map."""
        module_name, _, attribute = self.lazy[cmd_name].target.partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.lazy[cmd_name].target} is not a click command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # click's own version calls get_command for every name, importing them all
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            if name in self.commands:
                command = self.commands[name]
                if command.hidden:
                    continue
                text = command.get_short_help_str(limit)
            else:
                # shortened as click shortens a loaded command's, without loading this one
                text = click.Command(name, short_help=self.lazy[name].short_help).get_short_help_str(limit)
            rows.append((name, text))
        with formatter.section("Commands"):
            formatter.write_dl(rows)
