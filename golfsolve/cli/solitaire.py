"""Solitaire commands that need no solver: deal, replay, play."""

from __future__ import annotations

import dataclasses

import click

# the cards and the engine (numpy) are imported inside the commands, after the option checks
from ..errors import InputError
from ..inputs import ascii_lower, ascii_upper
from ..text import pad, plural
from .command import Command
from .options import layout_options
from .output import echo_json
from .reading import echo_answer, get_layout, read_answer


@click.command(cls=Command)
@layout_options
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--text", "as_text", is_flag=True, help="The layout in golfsolve's layout-file format.")
def deal(code, layout_file, pysol, rules_spec, as_json, as_text):
    """Show the layout of a deal code, a layout file or a PySol deal.

    Example: golfsolve deal GO1-E-AAAAAAB
    """
    if as_json and as_text:
        raise InputError("give --json or --text, not both")
    from ..solitaire.answers import deal_answer

    lay = get_layout(code, layout_file, pysol, rules_spec)
    if as_json:
        echo_json(deal_answer(lay))
    elif as_text:
        click.echo(lay.to_text(), nl=False)
    else:
        title = lay.name or "layout"
        click.echo(f"{title}  ({lay.rules.describe()})")
        click.echo(lay.render(symbols=True))


def _split_source_and_moves(code, layout_file, pysol, moves):
    """With --layout or --pysol the first positional word is a move, not a deal code."""
    moves = tuple(moves)
    if code is not None and (layout_file is not None or pysol is not None):
        if ascii_upper(code.strip()).startswith("GO1-"):
            # read as moves, a code given beside --layout was "bad move 'G' in 'GO1-E-...'"
            raise InputError("give exactly one of a deal code, --layout FILE or --pysol N")
        moves = (code,) + moves
        code = None
    return code, moves


@click.command(cls=Command)
@layout_options
@click.argument("moves", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--stop-on-reject", is_flag=True, help="Stop at the first rejected move.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the result line.")
def replay(code, layout_file, pysol, rules_spec, moves, as_json, stop_on_reject, quiet):
    """Play a move list and show every step.

    MOVES: d draws, 1-7 removes the free card of that column, u undoes; write them
    apart or together ("d 5 2", "d52", "d,5,2", "d;5;2"). Exit code 1 if a move was rejected.

    Examples: golfsolve replay GO1-E-AAAAAAB 1 1 5 d 4;
    golfsolve replay --layout tests/data/seed000_start.txt d52
    """
    from ..cards import card_str, parse_card
    from ..solitaire.answers import replay_answer
    from ..solitaire.engine import parse_moves

    code, words = _split_source_and_moves(code, layout_file, pysol, moves)
    move_list = parse_moves(" ".join(words))
    lay = get_layout(code, layout_file, pysol, rules_spec)
    game, answer = replay_answer(lay, move_list, stop_on_reject)
    rejected = answer["rejected"]
    if as_json:
        echo_json(answer)
    else:
        if not quiet:
            click.echo(f"{answer['deal'] or 'layout'}  ({game.rules.describe()})")
            for s in answer["steps"]:
                what = {"d": "draw", "u": "undo"}.get(s["move"], f"col {s['move']}")
                if s["ok"]:
                    card = card_str(parse_card(s["card"]), True) if s["card"] else "--"
                    top = card_str(parse_card(s["discard"]), True) if s["discard"] else "--"
                    line = (f"{s['step']:3d}. {what:<6} {pad(card, 4)}   discard {pad(top, 4)}   "
                            f"stock {s['stock_left']:2d}   score {s['score']:3d}")
                    if s["message"]:
                        line += f"   {s['message']}"
                else:
                    line = f"{s['step']:3d}. {what:<6} rejected: {s['message']}"
                click.echo(line)
            click.echo("")
            click.echo(game.render())
        click.echo(
            f"result: {game.status}, score {game.score}, {plural(game.traditional_score(), 'card')} left, "
            f"{sum(1 for s in answer['steps'] if s['ok']):,} of {plural(len(move_list), 'move')} played"
            + (f", {rejected:,} rejected" if rejected else "")
        )
    return 1 if rejected else 0


PLAY_HELP = """commands:
  d            draw a card from the stock
  1-7          remove the free card of that column (several at once: d52)
  t COL ROW    tap the card in column COL, row ROW (row 1 is the top)
  u            undo (the last 100 actions; the move counter does not go down)
  h            this help
  q            quit"""


@click.command(cls=Command)
@layout_options(stdin=False)
@click.option("--ascii", "ascii_cards", is_flag=True, help="Cards as TS instead of 10♠.")
def play(code, layout_file, pysol, rules_spec, ascii_cards):
    """Play a deal in the terminal (commands are read from stdin, so a pipe works too).

    Example: golfsolve play GO1-E-AAAAAAB   (then type d, 1-7, t COL ROW, u, h or q)
    """
    if layout_file == "-":
        raise InputError("play reads its commands from stdin, so --layout - cannot read the layout there too; "
                         "give the layout as a file")
    from ..solitaire.engine import Game, parse_moves

    lay = get_layout(code, layout_file, pysol, rules_spec)
    game = Game(lay)
    symbols = not ascii_cards
    click.echo(f"{lay.name or 'layout'}  ({game.rules.describe()})   h for help")
    click.echo(game.render(symbols))
    try:
        while True:
            click.echo("> ", nl=False)
            try:
                line = read_answer()
            except KeyboardInterrupt:
                # Ctrl-C at the prompt leaves the game as q does, summed up, then exits 130; the
                # interrupted message starts a line of its own, not the prompt's
                click.echo("")
                _final(game)
                raise
            if not line:  # end of input: a pipe ran dry or Ctrl-D
                click.echo("")
                break
            echo_answer(line)
            text = line.strip()
            words = ascii_lower(text).split()
            if not words:
                continue
            cmd = words[0]
            if cmd in ("q", "quit", "exit"):
                break
            if cmd in ("h", "help", "?"):
                click.echo(PLAY_HELP)
                continue
            results = []
            try:
                if cmd in ("t", "tap"):
                    # a column or row of many digits is no column or row (int() refused past 4,300 digits)
                    if len(words) != 3 or not all(w.isascii() and w.isdigit() and len(w) <= 9 for w in words[1:]):
                        click.echo("usage: t COL ROW, e.g. t 1 5")
                        continue
                    results.append(game.tap(int(words[1]), int(words[2])))
                else:
                    moves = parse_moves(text)  # as typed: a bad move is named in its own case
                    for k, m in enumerate(moves):
                        res = game.play(m)
                        results.append(res)
                        if not res.ok:
                            if len(moves) > 1:
                                # in "d52" a bare "Must be one rank higher or lower" named neither the
                                # move refused nor the moves after it, left unplayed
                                what = {"d": "draw", "u": "undo"}.get(m, f"col {m}")
                                rest = _unplayed(moves[k + 1:])
                                results[-1] = dataclasses.replace(
                                    res, message=f"{what}: {res.message}" + (f"; not played: {rest}" if rest else ""))
                            break
            except InputError as e:
                click.echo(f"{e} (h for help)")
                continue
            for res in results:
                if not res.ok:
                    click.echo(res.message)
            if any(res.ok for res in results):  # a rejected move changes nothing: no new board
                click.echo(game.render(symbols))
    except (InputError, UnicodeDecodeError):
        # stdin that cannot be read (not UTF-8, a line past the limit) ends the game with its
        # one-line error, but the game played so far is still summed up, as at q
        click.echo("")
        _final(game)
        raise
    _final(game)


#: The most unplayed moves a refusal lists: a line of thousands of moves is named by its count.
UNPLAYED_SHOWN = 20


def _unplayed(moves: list[str]) -> str:
    """The moves left unplayed after a refused one, as the refusal names them: all of a few,
    the first of many and how many there are (a line of 60,000 undos printed 120 kB)."""
    if len(moves) <= UNPLAYED_SHOWN:
        return " ".join(moves)
    return " ".join(moves[:UNPLAYED_SHOWN]) + f" ... ({len(moves):,} moves)"


def _final(game) -> None:
    """The closing line of `play`: status, score, moves and cards left."""
    click.echo(f"final: {game.status}, score {game.score}, moves {game.moves}, "
               f"{plural(game.traditional_score(), 'card')} left")
