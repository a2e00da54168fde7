"""``golfsolve grid play``: grid Golf in the terminal against bots, the player at the first
seat answering prompts read from stdin (a pipe works too)."""

from __future__ import annotations

from typing import Any, Optional

import click
import numpy as np

from ..cards import card_str
from ..errors import InputError, interrupted
from ..inputs import ascii_lower
from .command import Command
from .gridtable import table_options
from .options import SEED
from .output import fail
from .reading import check_waiting_stdin, echo_answer, read_answer

PLAY_HELP = """answers:
  openers      the slot numbers of the cards to turn, e.g. 1 2 (slots are numbered left to right, row by row);
               fewer, or 'done' for none, where the rules allow it (not under openers-exact, as in danish)
  draw         s takes the stock card, d the discard's top card, k knocks (when knocking is on)
  place        a slot number swaps the card in; f N throws a stock card away and turns slot N;
               p throws it away and turns nothing (final putt, or with +no-flip)
  h            this help
  q            leave the match"""


def _slot(text: str) -> int:
    """A slot number typed at the table, 0-based; ValueError unless it is in digits 0-9 (int()
    would read '١' as 1)."""
    if not (text.isascii() and text.isdigit()):
        raise ValueError(text)
    return int(text) - 1


class QuitMatch(Exception):
    """The player at the terminal left the match (q, or the input ended)."""


#: Why a match stopped when stdin ended: a pipe ran dry or Ctrl-D.
INPUT_ENDED = "the input ended"


def ask(prompt: str) -> str:
    """One answer from stdin, lower case; ``h`` shows the help and asks again, ``q`` or the
    end of the input leaves the match (:class:`QuitMatch`)."""
    while True:
        click.echo(f"{prompt} ", nl=False)
        try:
            line = read_answer()
        except (KeyboardInterrupt, InputError, UnicodeDecodeError):
            # the match's last words start a line of their own, not the prompt's; so does the
            # one-line error of an answer that cannot be read (not UTF-8, a line past the limit)
            click.echo("")
            raise
        if not line:
            click.echo("")
            raise QuitMatch(INPUT_ENDED)
        # a piped answer: without it the transcript read "Draw from [s]tock or [d]iscard: You hold 2H"
        echo_answer(line)
        ans = ascii_lower(line.strip())
        if ans in ("q", "quit", "exit"):
            raise QuitMatch("you quit")
        if ans in ("h", "help", "?"):
            click.echo(PLAY_HELP)
            continue
        return ans



def why_not_draw(view, pick: Optional[str]) -> str:
    """Why a draw answer is refused, in a sentence."""
    if pick == "discard" and not view.discard:
        return "the discard pile is empty"
    if pick == "knock":
        return "knocking is not in these rules" if view.rules.knock == "off" else \
            "the hole is already ending: no more knocks"
    return "answer s (stock), d (discard)" + (" or k (knock)" if "knock" in view.legal_draws() else "")


def why_not_place(view, act) -> str:
    """Why a placement answer is refused, in a sentence."""
    g = view.rules.grid
    if act is None:
        kinds = {k for k, _ in view.legal_placements()}
        offered = ["a slot number"] + [text for kind, text in (("flip", "'f N'"), ("pass", "'p'")) if kind in kinds]
        return "answer with " + (", ".join(offered[:-1]) + " or " + offered[-1] if len(offered) > 1 else offered[0])
    kind, slot = act
    if kind != "pass" and not 0 <= slot < g:
        return f"slots are numbered 1 to {g}"
    if kind != "swap" and view.source == "discard":
        return "a card taken from the discard must be swapped into your grid"
    if kind == "flip":
        if not view.rules.throw_and_turn:
            return "these rules have no 'throw away and turn': swap it in" + \
                (" or throw it away with 'p'" if view.can_pass() else "")
        return f"slot {slot + 1} is already face up: you can only turn a face-down card"
    if kind == "pass":
        if view.rules.final_putt:
            return "the final putt needs exactly one face-down card left"
        return "these rules do not let you throw a card away without turning one (no final putt)"
    return "not allowed"


class HumanPlayer:
    """A person at the terminal: the same three questions a bot answers."""

    #: what answering raises (leaving the match, input that is not UTF-8) is the command's to
    #: report, not a bot's failure for the referee to name
    own_errors = True

    def __init__(self, name: str, names: list[str], symbols: bool = True) -> None:
        self.name = name
        self.names = names
        self.symbols = symbols

    def _ask(self, prompt: str) -> str:
        return ask(prompt)

    def choose_openers(self, view, count: int):
        click.echo(view.render(self.names, self.symbols))
        g, exact = view.rules.grid, view.rules.openers_exact
        # the default text turns "up to the allowance", the Danish one exactly that many (openers_exact)
        example = " ".join(str(k + 1) for k in range(min(count, 2)))  # '1 2' asked for one card read as wrong
        prompt = f"Turn {count} of your cards (slot numbers, e.g. '{example}'):" if exact else \
            f"Turn up to {count} of your cards (slot numbers, e.g. '{example}'; 'done' turns none):"
        while True:
            words = self._ask(prompt).replace(",", " ").split()
            try:
                # 'done' turns none; an empty line is no answer (a stray Enter would turn none)
                slots = [] if words == ["done"] else [_slot(x) for x in words] if words else None
            except ValueError:
                slots = None
            fine = slots is not None and len(set(slots)) == len(slots) <= count and all(0 <= s < g for s in slots)
            if fine and (len(slots) == count or not exact):
                return slots
            if fine:
                click.echo(f"  not allowed: these rules turn exactly {count} of your cards, no fewer; "
                           f"give {count} different slot numbers from 1 to {g}")
            else:
                click.echo(f"  give {count} different slot numbers from 1 to {g}" +
                           ("" if exact else ", or fewer ('done' turns none)"))

    def choose_draw(self, view) -> str:
        click.echo("")
        click.echo(view.render(self.names, self.symbols))
        legal = view.legal_draws()
        opts = "[s]tock or [d]iscard" + (" or [k]nock" if "knock" in legal else "")
        while True:
            ans = self._ask(f"Draw from {opts}:")
            # the answer as written: s or stock, d or discard, k or knock; by its first letter, 'sure'
            # would draw from the stock and 'done' take the discard
            pick = {"s": "stock", "d": "discard", "k": "knock", "stock": "stock", "discard": "discard",
                    "knock": "knock"}.get(ans)
            if pick in legal:
                return pick
            why = why_not_draw(view, pick)
            # an answer that is no draw at all is told the answers once, not twice
            click.echo(f"  not allowed: {why}" + ("" if why.startswith("answer") else f"; answer {opts}"))

    def choose_place(self, view):
        from ..grid.view import card_text

        legal = view.legal_placements()
        card = card_text(view.drawn, self.symbols)
        opts = "slot number to swap it in"
        if view.source == "stock":
            if view.rules.throw_and_turn:
                opts += ", 'f N' to throw it away and turn slot N"
            if ("pass", -1) in legal:
                opts += ", 'p' to throw it away"
        while True:
            ans = self._ask(f"You hold {card} (from the {view.source}): {opts}:")
            parts = ans.split()
            # one answer, as written: 'p', 'f N' (or 'fN', 'flip N') or a slot number; read loosely,
            # 'foo 3' would turn slot 3, '3 4' swap into slot 3 and 'p 3' throw the card away
            try:
                if parts == ["p"] or parts == ["pass"]:
                    act = ("pass", -1)
                elif len(parts) == 2 and parts[0] in ("f", "flip"):
                    act = ("flip", _slot(parts[1]))
                elif len(parts) == 1 and parts[0][:1] == "f":
                    act = ("flip", _slot(parts[0][1:]))
                elif len(parts) == 1:
                    act = ("swap", _slot(parts[0]))
                else:
                    act = None
            except ValueError:
                act = None
            if act in legal:
                return act
            click.echo(f"  not allowed: {why_not_place(view, act)} (answer: {opts})")


def _narrate(names: list[str], human: int, symbols: bool, match: dict[str, Any]):
    """Tell the table what happens: the hole, who starts, the totals, and every bot move
    (where it drew from, what it put where)."""
    c = lambda x: card_str(x, symbols)  # noqa: E731

    def on_event(ev: dict[str, Any]) -> None:
        t = ev["type"]
        p = ev.get("player")
        if t == "deal":
            match["hole"] += 1
            match["between"] = False
            tot = ", ".join(f"{names[i]} {v}" for i, v in enumerate(match["totals"]))
            starts = "you play" if ev["first"] == human else f"{names[ev['first']]} plays"
            if match["hole"] > match["holes"]:
                # a sudden-death hole after the match's last: not "Hole 4 of 3"
                tied = _and([names[i] for i in match["contenders"]])
                click.echo(f"\n=== {hole_name(match)}: {starts} first (sudden death: only the strokes of "
                           f"{tied} count) ===")
                return
            click.echo(f"\n=== Hole {match['hole']} of {match['holes']}: {starts} first"
                       f" (running totals: {tot}) ===")
            return
        if p == human or p is None:
            # the player's own moves are not retold, but what they set off is: the others' last turns
            if t == "knock":
                click.echo("  you knock: everyone else has one last turn")
            elif t == "close":
                click.echo("  you have every card face up: everyone else has one last turn")
            elif t == "swap" and not ev["was_up"]:
                # the card a swap throws from a face-down slot: everyone sees it go to the discard
                # (the bots' views hold the whole pile), but the player's next board shows only
                # the top, by then covered by the next seat's throw
                click.echo(f"  you throw {c(ev['out'])}, face down in slot {ev['slot'] + 1} until now")
            elif t == "recycle":
                click.echo(f"  the discard pile is shuffled into a new stock ({ev['cards']} cards)")
            elif t == "end":
                click.echo(f"Hole over ({ev['reason']}).")
            return
        who = names[p]
        if t == "open":
            click.echo(f"  {who} turns {' '.join(c(x) for x in ev['cards'])}")
        elif t == "knock":
            click.echo(f"  {who} knocks: everyone else has one last turn")
        elif t == "draw":
            if ev["source"] == "discard":
                click.echo(f"  {who} takes {c(ev['card'])} from the discard")
            else:
                click.echo(f"  {who} draws from the stock")
        elif t == "swap":
            click.echo(f"  {who} puts {c(ev['card'])} in slot {ev['slot'] + 1} and throws {c(ev['out'])}")
        elif t == "flip":
            click.echo(f"  {who} throws {c(ev['thrown'])} and turns {c(ev['card'])} in slot {ev['slot'] + 1}")
        elif t == "pass":
            click.echo(f"  {who} throws {c(ev['thrown'])}")
        elif t == "close":
            click.echo(f"  {who} has every card face up: everyone else has one last turn")
    return on_event


def _and(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def hole_name(match: dict[str, Any]) -> str:
    """The hole being played, as the table calls it: ``Hole 2 of 3``, or ``Play-off hole 1``
    for a sudden-death hole after the last."""
    if match["hole"] > match["holes"]:
        return f"Play-off hole {match['hole'] - match['holes']}"
    return f"Hole {match['hole']} of {match['holes']}"


@click.command("play", cls=Command, short_help="Play against bots in the terminal (you are the first seat).")
@table_options(holes_default="3", players_default="you and one per bot named")
@click.option("--bots", "bots_spec", default="heuristic", show_default=True, metavar="LIST",
              help="Your opponents, comma-separated (one name is used for every seat).")
@click.option("--seed", type=SEED, default=None, metavar="N", help="Seed for a repeatable game (default: a new game each time).")
@click.option("--ascii", "plain", is_flag=True, help="Cards as TS instead of 10♠.")
def play(players, grid, holes, rules_spec, openers, bots_spec, seed, plain):
    """Play grid Golf in the terminal against bots (you are the first seat).

    Example: golfsolve grid play --players 3 --bots heuristic,mc --holes 3 --seed 7
    """
    from ..grid.botnames import split_bots
    from ..grid.rules import parse_rules

    if players is not None and not 2 <= players <= 6:
        raise InputError(f"grid Golf is for 2 to 6 players, not {players}")
    names_in = split_bots(bots_spec)
    if players is None:
        if len(names_in) > 5:  # one who named 6 bots is told so, not "grid Golf is for 2 to 6 players, not 7"
            raise InputError(f"--bots names {len(names_in)} opponents: with you {len(names_in) + 1} players, and "
                             "grid Golf seats 2 to 6 (name at most 5)")
        players = max(2, len(names_in) + 1)
    if len(names_in) == 1:
        names_in = names_in * (players - 1)
    if len(names_in) != players - 1:
        raise InputError(f"--bots names {len(names_in)} opponents but --players {players} needs {players - 1}")
    rules = parse_rules(rules_spec, players=players, grid=grid, holes=holes if holes is not None else 3, openers=openers)
    ss = np.random.SeedSequence(seed)
    game_ss, *bot_ss = ss.spawn(players)
    names = ["you"] + [f"{b} (P{i + 2})" for i, b in enumerate(names_in)]
    symbols = not plain
    check_waiting_stdin()  # answers piped in are checked before compiling, not a minute later
    from ..grid.bots import make_bot  # the bots and the referee (numba): every argument is checked
    from ..grid.compiling import warm
    from ..grid.engine import MAX_PLAYOFF, bot_rng, play_match
    from ..grid.view import grid_rows

    warm(rules, names_in)  # before the first board: compiling (with its notice) waits for no move
    seats = [HumanPlayer("you", names, symbols)] + [make_bot(b, bot_rng(s)) for b, s in zip(names_in, bot_ss)]

    match = {"hole": 0, "holes": rules.holes, "totals": [0] * players, "between": False, "contenders": []}

    def show_grids(res) -> None:
        click.echo("Final grids (= cancels):")
        width = max([14] + [len(n) for n in names])  # a long bot name must not shift its first row alone
        for p, gr in enumerate(res.grids):
            for r, line in enumerate(grid_rows(gr, rules, symbols)):
                tail = f"   {res.strokes[p]:>4} strokes" + (f" (raw {res.raw[p]}, failed knock)"
                                                          if res.strokes[p] != res.raw[p] else "") if r == 0 else ""
                click.echo(f"  {names[p] if r == 0 else '':<{width}}{line}{tail}")

    def on_hole(h, res, card) -> None:
        show_grids(res)
        card.names = names
        match["totals"] = card.totals
        click.echo(card.render())
        if h + 1 < rules.holes:
            match["between"] = True  # a match left here is left after this hole, not during it
            ask("Press Enter for the next hole")
            return
        low = min(card.totals)
        tied = [i for i, t in enumerate(card.totals) if t == low]
        if len(tied) > 1 and rules.ties == "sudden-death":
            # the match goes on past its last hole: say so, and why, before dealing again
            match["contenders"] = tied
            click.echo(f"{_and([names[i] for i in tied])} are tied on {low}: a sudden-death play-off hole "
                       "follows (everyone plays it; only their strokes count)")
            match["between"] = True
            ask("Press Enter for the play-off hole")

    def on_playoff(k, res, still) -> None:
        show_grids(res)
        strokes = ", ".join(f"{names[i]} {res.strokes[i]}" for i in match["contenders"])
        if len(still) == 1:
            click.echo(f"Play-off hole {k + 1}: {strokes}")
        elif k + 1 < MAX_PLAYOFF:
            click.echo(f"Play-off hole {k + 1}: {strokes}; still tied: {_and([names[i] for i in still])}")
            match["contenders"] = still
            match["between"] = True
            ask("Press Enter for the next play-off hole")
        else:
            click.echo(f"Play-off hole {k + 1}: {strokes}; still tied after {MAX_PLAYOFF} play-off holes: "
                       "the win is shared")

    click.echo(f"Grid Golf: {rules.describe()}   (h for help, q to leave)")
    try:
        res = play_match(rules, seats, np.random.default_rng(game_ss), on_hole=on_hole,
                         on_event=_narrate(names, 0, symbols, match), on_playoff=on_playoff)
    except QuitMatch as e:
        click.echo(f"Match left unfinished: {e}.")
        if e.args[0] == INPUT_ENDED:
            # a pipe that runs dry is not a finished match: a script reading the exit code must see it
            when = "after" if match["between"] else "during"
            hole = hole_name(match)
            fail(f"the match was not finished: the input ended {when} {hole[0].lower()}{hole[1:]}", 1)
        return
    except (InputError, UnicodeDecodeError):
        # every argument was checked before the match: what fails in it is an answer that
        # cannot be read, reported by the entry point (exit 2) after the match's last words
        click.echo("Match left unfinished: an answer could not be read.")
        raise
    except (KeyboardInterrupt, Exception) as e:
        # Ctrl-C at a prompt, or while a bot's numba kernel thinks: that comes out as a SystemError
        # the interrupt caused, and the match was left with no word of it
        if interrupted(e):
            click.echo("Match left unfinished: interrupted.")  # as at q, then exit 130 as everywhere
        raise
    won = ", ".join(names[w] for w in res.winners)
    how = ""
    if res.playoff and len(res.winners) == 1:
        how = f" (on play-off hole {len(res.playoff)})"
    click.echo(f"Match over. Winner{'s' if len(res.winners) > 1 else ''}: {won}{how}")
