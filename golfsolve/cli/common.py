"""Options and helpers shared by the commands."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, NoReturn, Optional, TypeVar

import click

from ..errors import MAX_EFFORT, MAX_INT64, InputError
from ..text import plural  # noqa: F401 - shared by the command modules

if TYPE_CHECKING:  # imported when used: 'golfsolve solve --help' must not load the solver (numba)
    from ..solitaire.layout import Layout
    from ..solitaire.rules import Rules

T = TypeVar("T")


#: ``--rules NAME``, the rule set overriding what the deal's source says
rules_option = click.option(
    "--rules", "rules_spec", default=None, metavar="NAME",
    help="easy, classic, strict, dead-king (or wrap/queen-on-king/no-card-on-king), "
         "plus switches like +jokers2, +empty, +stuck. Default: the code's letter, else easy.")


def effort(low: int = 1) -> click.IntRange:
    """A count of samples, games or iterations: from ``low`` to :data:`~golfsolve.errors.MAX_EFFORT`."""
    return click.IntRange(min=low, max=MAX_EFFORT)


#: ``--node-limit``: 0 (none) or a state count a compiled kernel can hold
NODE_LIMIT = click.IntRange(min=0, max=MAX_INT64)



def layout_options(f):
    """``CODE`` argument plus ``--layout``, ``--pysol`` and ``--rules``."""
    f = rules_option(f)
    f = click.option("--pysol", type=int, default=None, metavar="N", help="PySol FC's Golf deal number N.")(f)
    f = click.option("--layout", "layout_file", default=None, metavar="FILE",
                     help="A layout file (golfsolve text or black-hole-solve board); - reads stdin.")(f)
    f = click.argument("code", required=False)(f)
    return f


def get_layout(code: Optional[str], layout_file: Optional[str], pysol: Optional[int],
               rules_spec: Optional[str]) -> Layout:
    """The one deal a command names (a code, a layout file or a PySol number), checked."""
    from ..solitaire.layout import load_layout
    from ..solitaire.rules import get_rules

    rules: Optional[Rules] = get_rules(rules_spec) if rules_spec is not None else None
    return load_layout(code, layout_file, pysol, rules)


def start_deal(start_code: Optional[str], start_number: Optional[int]) -> Optional[int]:
    """The first deal's number from ``--start CODE`` or ``--start-number N`` (at most one of them)."""
    from ..solitaire.dealcode import parse_code

    if start_code is not None and start_number is not None:
        raise InputError("give --start CODE or --start-number N, not both")
    if start_code is not None:
        return parse_code(start_code).number
    return start_number


def echo_json(obj) -> None:
    """Print ``obj`` as indented JSON on stdout (non-ASCII cards kept as they are)."""
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False))


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``golfsolve: message`` on stderr and exit with ``code``."""
    click.echo(f"golfsolve: {message}", err=True)
    sys.exit(code)


def _raise_interrupt(signum, frame):  # noqa: ARG001 - signal handler signature
    raise KeyboardInterrupt


def run_long(job: Callable[[], T], out: Path) -> T:
    """Run ``job``, a batch run writing into the run folder ``out``.

    SIGTERM (kill, a batch system) stops it as cleanly as Ctrl-C does; either way the
    finished chunks stay, and one line says how many and how to finish (exit 130).
    """
    from ..stats.runfolder import RunFolder, read_manifest, status

    old_term = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        return job()
    except KeyboardInterrupt:
        st = status(RunFolder(out, read_manifest(out)))
        fail(f"interrupted: {st['chunks_done']} of {plural(st['chunks_total'], 'chunk')} are saved in {out}; "
             "run the same command with --resume to finish", 130)
    finally:
        signal.signal(signal.SIGTERM, old_term)


def check_resume_extend(resume: bool, extend: bool) -> None:
    """--resume continues a run as it is; --extend grows it (and finishes what is missing): one or the other."""
    if resume and extend:
        raise InputError("give --resume or --extend, not both (--extend also finishes the chunks that are missing)")


def check_workers(n: Optional[int], option: str) -> None:
    """Worker processes: at least 1, and not so many that the machine drowns in them."""
    from ..stats.runfolder import MAX_WORKERS

    if n is not None and not 1 <= n <= MAX_WORKERS:
        raise InputError(f"{option} must be from 1 to {MAX_WORKERS}, not {n}")


def check_run_dir(path: str, what: str) -> None:
    """A run folder to read must at least have a name ('' would mean the current directory)."""
    if not path.strip():
        raise InputError(f"{what} needs a run folder's name, not {path!r}")


def check_seed(seed: Optional[int], option: str = "--seed") -> None:
    """A seed must be from 0 to 2**64 - 1 (what numpy and the deal generator take)."""
    if seed is not None and not 0 <= seed < 2**64:
        raise InputError(f"{option} must be from 0 to 2**64-1, not {seed}")


class _Seed(click.ParamType):
    """A ``--seed`` option's type: an integer that :func:`check_seed` accepts, checked as it is parsed."""

    name = "integer"

    def convert(self, value, param, ctx):
        n = click.INT.convert(value, param, ctx)
        check_seed(n, param.opts[0] if param is not None else "--seed")
        return n


#: a seed: what numpy and the deal generator take
SEED = _Seed()
