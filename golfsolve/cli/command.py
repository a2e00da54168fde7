"""The click ``Command`` and ``Group`` every golfsolve command is made with, which hold the
exit-2 contract for the command line itself: what click lets through silently (an option
given twice, a number in other than ASCII digits, an input file that would hang) is refused
before the command runs. Also the command line as parsed, which a run records to be resumed.
"""

from __future__ import annotations

import re
import shlex
from typing import Optional

import click

from .reading import check_input_file


_ASCII_INT = re.compile(r"[+-]?[0-9]+\Z")
#: a decimal number as a user types it; inf and nan are left to the option's own range check
_ASCII_FLOAT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\Z|[+-]?(inf|infinity|nan)\Z",
                          re.IGNORECASE)


def _is_int_type(t: click.ParamType) -> bool:
    return isinstance(t, click.types.IntParamType) or getattr(t, "name", "") == "integer"


def _is_float_type(t: click.ParamType) -> bool:
    return isinstance(t, click.types.FloatParamType)


class Command(click.Command):
    """A click command that refuses what click lets through silently: a single-valued option
    given twice (click keeps the last; ``--layout A --layout B``), a number (whole or
    decimal) written with other than ASCII digits (Python's ``int`` and ``float`` read ``٣``
    as 3 and ``1_0`` as 10), and an
    input ``FILE`` that is not a regular file (a FIFO with no writer would hang)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing:
            parser = self.make_parser(ctx)
            try:
                opts, _, order = parser.parse_args(args=list(args))
            except click.UsageError:
                opts, order = {}, []  # click's own parse below says what is wrong
            seen: set[str] = set()
            for param in order:
                if not isinstance(param, click.Option) or param.multiple or param.count or param.is_flag:
                    continue
                if param.name in seen:
                    raise click.UsageError(f"{_opt(param)} is given more than once; give it once", ctx)
                seen.add(param.name)
            for param in self.params:
                raw = opts.get(param.name)
                if raw is None:
                    continue
                for v in raw if isinstance(raw, (list, tuple)) else [raw]:
                    if _is_int_type(param.type) and isinstance(v, str) and not _ASCII_INT.match(v.strip()):
                        raise click.BadParameter(f"{v!r} is not a whole number in digits 0-9", ctx, param)
                    if _is_float_type(param.type) and isinstance(v, str) and not _ASCII_FLOAT.match(v.strip()):
                        # float() reads other digits: 'serve --cpu-budget ٣' would serve with a 3 s budget
                        raise click.BadParameter(f"{v!r} is not a number in digits 0-9", ctx, param)
                    if getattr(param, "metavar", None) == "FILE" and isinstance(v, str):
                        # before click opens it: a FIFO without a writer would block for ever
                        check_input_file(v, _opt(param))
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as e:
            moves = next((p for p in self.params if p.name == "moves_text"), None)
            if moves is None or "unexpected extra argument" not in e.message:
                raise
            # replay takes its moves as words, hint and odds take them in --moves: 'hint CODE d 5'
            # was "Got unexpected extra arguments (d 5)", naming no way to give them
            e.message += f"; give the moves played as {_opt(moves)}, e.g. {_opt(moves)} \"d 5 2\""
            raise


class Group(click.Group):
    """A click group whose commands are :class:`Command` (and whose subgroups are groups of it)."""

    command_class = Command


Group.group_class = Group


def _opt(param: click.Parameter) -> str:
    longs = [o for o in param.opts if o.startswith("--")]
    return (longs or param.opts)[0]


def command_line(ctx: click.Context, **resolved) -> str:
    """The command as click parsed it, for a run's manifest: every option given (on the
    command line or from the environment) and every option in ``resolved`` (what the run
    resolved it to: a resumed run records all its parameters, so its command stands alone).

    ``resolved`` maps click parameter names to values; None or False leaves an option out.
    """
    names = []
    c: Optional[click.Context] = ctx
    while c is not None:
        names.append(c.info_name or "")
        c = c.parent
    argv = ["golfsolve"] + names[::-1][1:]
    given = (click.core.ParameterSource.COMMANDLINE, click.core.ParameterSource.ENVIRONMENT)
    for param in ctx.command.params:
        name = param.name or ""
        if name in resolved:
            value = resolved[name]
        elif ctx.get_parameter_source(name) in given:
            value = ctx.params.get(name)
        else:
            continue
        if value is None or value is False or value == ():
            continue
        if isinstance(param, click.Argument):
            argv += [str(v) for v in (value if isinstance(value, (list, tuple)) else [value])]
        elif isinstance(param, click.Option) and param.is_flag:
            argv.append(_opt(param))
        else:
            for v in value if isinstance(value, (list, tuple)) else [value]:
                argv += [_opt(param), getattr(v, "name", None) or str(v)]
    return shlex.join(argv)
