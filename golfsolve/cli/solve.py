"""Solver commands: solve and hint."""

from __future__ import annotations

import json
import sys
from itertools import chain

import click

# The solver's modules are imported inside the commands: 'golfsolve solve --help' must not load numba.
from ..errors import InputError
from ..fair.settings import PRESETS  # plain data: the fair player loads only for --fair
from ..text import pad, plural
from .command import Command
from .options import NODE_LIMIT, SEED, AsciiChoice, layout_options, rules_option
from .output import echo_json, fail
from .reading import get_layout


@click.command(cls=Command)
@click.argument("codes", nargs=-1)
@click.option("--layout", "layout_files", multiple=True, metavar="FILE",
              help="A layout file (golfsolve text or black-hole-solve board); - reads stdin. Repeatable.")
@click.option("--pysol", "pysol", multiple=True, metavar="RANGE",
              help="PySol FC's Golf deals: N, A-B or A..B (both ends included), or a comma list. Repeatable.")
@click.option("--codes-from", "codes_from", type=click.File("r", errors="surrogateescape"), default=None, metavar="FILE",
              help="One deal code per line (- reads stdin), solved as each line arrives.")
@rules_option
@click.option("--node-limit", type=NODE_LIMIT, default=0, metavar="N",
              help="Stop after this many states and answer 'unknown' (0: no limit).")
@click.option("--verdict-only", is_flag=True,
              help="Answer winnable or not only; skip the search for the fewest cards left (faster on lost deals).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (always, for many deals).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar for many deals.")
def solve(codes, layout_files, pysol, codes_from, rules_spec, node_limit, verdict_only, as_json, quiet):
    """Is the deal winnable, and how? Exact: a win with its moves, or the fewest cards left.

    Give one deal, or many: several codes, --pysol ranges, several --layout files, or
    --codes-from with one code per line. Many deals print JSON Lines, one record per
    deal as it is solved, so a long list pays the start-up once. Every argument is
    checked before anything is solved; a bad line from --codes-from becomes an error
    record ({"line", "input", "error"}) and the run goes on, exiting 2 at the end.

    Examples: golfsolve solve GO1-E-AAAAAAB; golfsolve solve --pysol 1-1000 --rules classic
    """
    from ..solitaire.deals import DealBatch
    from ..solitaire.rules import get_rules
    from ..solitaire.solver import StockUnknownError

    rules = get_rules(rules_spec) if rules_spec is not None else None
    if not (codes or layout_files or pysol or codes_from):
        fail("give a deal code, --layout FILE, --pysol N or --codes-from FILE")
    if codes_from is not None and _stream_name(codes_from) == "<stdin>" and "-" in layout_files:
        fail("--codes-from - and --layout - cannot both read stdin")
    try:
        batch = DealBatch.build(codes, layout_files, pysol, rules)
    except StockUnknownError as e:
        fail(str(e), 1)
    if codes_from is None and batch.size == 1:
        _solve_one(next(iter(batch)), node_limit, verdict_only, as_json)
        return
    _solve_many(batch, codes_from, rules, node_limit, verdict_only, quiet)


def _stream_name(f) -> str:
    # stdin re-wrapped for errors="surrogateescape" takes its name from the byte stream under it,
    # which has none when that is not a file (click's test runner)
    return getattr(f, "name", "<stdin>")


def _solve_one(lay, node_limit, verdict_only, as_json):
    from ..solitaire.answers import solve_answer, solve_layout
    from ..solitaire.solver import StockUnknownError

    try:
        sol = solve_layout(lay, node_limit, verdict_only)
    except StockUnknownError as e:
        fail(str(e), 1)
    if as_json:
        echo_json(solve_answer(lay, sol))
    else:
        verdict = {"won": "winnable", "lost": "not winnable", "unknown": "unknown (node limit reached)"}[sol.outcome]
        click.echo(f"{lay.name or 'layout'} ({lay.rules.describe()}): {verdict}")
        if sol.outcome == "won":
            click.echo(f"moves ({len(sol.moves)}): {' '.join(sol.moves)}")
        elif sol.best_left is not None:
            label = "best line found" if sol.outcome == "unknown" else "best play"
            click.echo(f"{label}: {plural(sol.best_left, 'card')} left, app score {sol.app_score}")
            click.echo(f"moves ({len(sol.moves)}): {' '.join(sol.moves)}")
        click.echo(f"searched {plural(sol.nodes, 'state')} in {sol.seconds * 1000:.1f} ms")
    if sol.outcome == "unknown":
        raise SystemExit(1)


def _solve_many(batch, codes_from, rules, node_limit, verdict_only, quiet):
    from ..progress import progress_bar
    from ..solitaire.deals import BadLine, code_lines, record, solve_many
    from ..stats.runkind import stamped

    deals = chain(batch, code_lines(codes_from, rules)) if codes_from is not None else batch
    total = None if codes_from is not None else batch.size
    # a bar only when the records go to a file or pipe and a person watches stderr
    bar = progress_bar(total=total, unit="deal", delay=0.5, leave=False,
                       show=False if quiet or sys.stdout.isatty() else None)
    bad = unknown = answered = 0
    first_bad = None
    for item in solve_many(deals, node_limit=node_limit, verdict_only=verdict_only):
        answered += 1
        if isinstance(item, BadLine):
            bad += 1
            first_bad = first_bad or item  # its error record is in the output; stderr gets one line at the end
        else:
            unknown += item[1].outcome == "unknown"
        # one line per deal, flushed, so a reader sees each answer as it comes
        click.echo(json.dumps(stamped(record(item)), ensure_ascii=False))
        sys.stdout.flush()
        bar.update()
    bar.close()
    if not answered:
        # an empty file or pipe (the wrong file?) was exit 0 with no output at all
        name = "- (stdin)" if _stream_name(codes_from) == "<stdin>" else _stream_name(codes_from)
        fail(f"--codes-from {name} holds no deal code (only blank lines or comments): nothing to solve", 2)
    if bad:
        fail(f"{plural(bad, 'line')} of --codes-from {'is' if bad == 1 else 'are'} not a deal code (first: line "
             f"{first_bad.line}: {first_bad.error}); each has an error record in the output", 2)
    if unknown:
        raise SystemExit(1)


@click.command(cls=Command)
@layout_options
@click.option("--moves", "moves_text", default="", metavar="MOVES",
              help="Moves already played, e.g. \"d 5 2\" (d draws, 1-7 remove from a column, u undoes).")
@click.option("--all", "show_all", is_flag=True, help="Rank every legal move, not just the best.")
@click.option("--fair", is_flag=True,
              help="Don't peek at the stock: forget its order and recommend the move the fair player (--player) "
                   "would play, with every legal move's value and interval (docs/fair.md).")
@click.option("--player", type=AsciiChoice(list(PRESETS), case_sensitive=False), default="strong", show_default=True,
              help="The fair player's preset for --fair.")
@click.option("--seed", type=SEED, default=0, show_default=True, metavar="N", help="Random seed for --fair.")
@click.option("--node-limit", type=NODE_LIMIT, default=0, metavar="N", help="Stop the search of each move after this many states (0: no limit); when that leaves the best move "
                   "unproven, the hint is printed and the exit code is 1.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def hint(code, layout_file, pysol, rules_spec, moves_text, show_all, fair, player, seed, node_limit, as_json):
    """The best next move from a position, and why.

    Example: golfsolve hint GO1-E-AAAAAAB --moves "1 1 5 d" --all
    """
    given = {name for name in ("player", "seed", "node_limit")
             if click.get_current_context().get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE}
    if not fair and given & {"player", "seed"}:
        raise InputError("--player and --seed choose the fair player of --fair; add --fair, or leave them out")
    if fair and "node_limit" in given:
        raise InputError("--node-limit bounds the peeking hint's search; --fair has none, so leave it out")
    from ..solitaire.answers import (GameOverError, game_over_answer, hint_answer, hint_is_exact, hint_position,
                                      peeking_hint)
    from ..solitaire.engine import parse_moves
    from ..solitaire.solver import StockUnknownError

    lay = get_layout(code, layout_file, pysol, rules_spec)
    moves = parse_moves(moves_text)
    try:
        game = hint_position(lay, moves)
    except GameOverError as e:
        # a won or locked game is an answer (there is no next move), not bad input
        if as_json:
            if fair:
                from ..fair import fair_game_over_answer

                echo_json(fair_game_over_answer(lay, moves, e, seed, player))
            else:
                echo_json(game_over_answer(lay, moves, e))
        else:
            click.echo(str(e))
        return
    if fair:  # the stock order is forgotten first
        from ..fair import fair_hint_answer, fair_hint_for_player

        if as_json:
            echo_json(fair_hint_answer(lay, moves, game, seed=seed, player=player))
        else:
            click.echo(fair_hint_for_player(lay, game, seed=seed, player=player).render(show_all))
        return
    try:
        ranked = peeking_hint(game, node_limit)
    except StockUnknownError as e:
        fail(str(e), 1)
    if as_json:
        echo_json(hint_answer(lay, moves, ranked))
    else:
        from ..cards import show_card

        best = ranked[0]
        what = "draw" if best.move == "d" else f"remove {show_card(best.card)} from column {best.move}"
        click.echo(f"best move: {best.move} ({what}): {best.reason}")
        if show_all:
            for a in ranked:
                click.echo(f"  {a.move:>2}  {pad(show_card(a.card) if a.card else '', 3)}  {a.reason}")
    if not hint_is_exact(ranked):
        # as solve at its node limit: the answer is printed, but it is not known to be the best move
        raise SystemExit(1)
