"""Fair-play commands: odds (win chance with the stock order unknown) and fair-stats."""

from __future__ import annotations

import os

import click

from ..fair.settings import MIN_GAMES, PRESETS, WIDTH, WORK_BUDGET  # plain data: the solver loads after the checks
from .command import Command, command_line
from .options import SEED, AsciiChoice, check_workers, effort, jobs_option, layout_options, start_options
from .output import echo_json
from .reading import get_layout, start_deal
from .runs import run_long


@click.command(cls=Command)
@layout_options
@click.option("--moves", "moves_text", default="", metavar="MOVES",
              help="Moves already played, e.g. \"d 5 2\" (d draws, 1-7 remove from a column, u undoes): the odds "
                   "from the position they reach, with the cards turned so far known.")
@click.option("--fair", is_flag=True, hidden=True,
              help="Accepted and ignored: odds always forgets the stock order.")
@click.option("--samples", type=effort(), default=200, show_default=True, metavar="N",
              help="Stock orders to sample and solve for the clairvoyant chance (all of them when there are no more).")
@click.option("--games", type=effort(0), default=None, metavar="N",
              help="Fair-player games, one on each of the first N sampled orders that can be won (a fair win needs "
                   f"a clairvoyant win). Default: play until the fair chance's 95% interval is at most "
                   f"{100 * WIDTH:.0f} points wide (at least {MIN_GAMES} games), or until the solves did "
                   f"{WORK_BUDGET // 1_000_000} million states' work (about 5 s of CPU on a quiet 2-core machine, "
                   "up to twice that on slower ones; a count of work, not a clock, so the answer depends on the "
                   "position and seed only); 0: no fair chance.")
@click.option("--player", type=AsciiChoice(list(PRESETS), case_sensitive=False), default="fast", show_default=True,
              help="The fair player's preset for the fair games: fast, or strong (a higher, surer lower bound "
                   "at several times the CPU per game).")
@click.option("--seed", type=SEED, default=0, show_default=True, metavar="N", help="Random seed for the sampling.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def odds(code, layout_file, pysol, rules_spec, moves_text, fair, samples, games, player, seed, as_json, quiet):
    """Win chances without seeing the stock: fair and clairvoyant, each with a 95% interval.

    Fair chance: how often a player who never sees the stock wins from here, playing as
    the fair player (--player) does; the interval holds that player's win rate over every
    consistent stock order with 95% confidence (a lower bound on the best such player;
    exact by expectimax when few cards are unknown). Clairvoyant chance: the share of those
    orders that can be won at all, each solved with its stock visible (an upper bound). A
    fair win needs a clairvoyant win, so the fair chance is the clairvoyant chance times the
    player's win rate on winnable orders, and only those are played. A deal code, --pysol
    deal or full layout has its stock order forgotten first; a partial layout (stock "8S
    ..." or "? ? ?") keeps what it declares. No undo in either model (undo would let a
    player peek).

    Example: golfsolve odds --layout tests/data/seed000_start.txt --rules classic
    """
    from ..fair import odds_for_player

    lay = get_layout(code, layout_file, pysol, rules_spec)
    res = odds_for_player(lay, samples=samples, seed=seed, games=games, player=player,
                          progress=False if quiet or as_json else None, moves=moves_text)
    if as_json:
        echo_json(res.as_json())
    else:
        click.echo(res.render())


@click.command("fair-stats", cls=Command)
@start_options
@click.option("--count", type=int, default=None, metavar="N", help="Deals per rule set (default 100).")
@click.option("--rules", "rules_list", default=None, metavar="LIST",
              help="Comma-separated rule sets (default easy,classic).")
@click.option("--player", type=AsciiChoice(list(PRESETS), case_sensitive=False), default=None,
              help="The fair player's preset: strong (default) or fast. The run records its full settings; "
                   "--resume and --extend refuse to go on with different ones.")
@click.option("--seed", type=SEED, default=None, metavar="N", help="Random seed (default 0).")
@jobs_option("workers")
@click.option("--chunk-size", type=int, default=None, metavar="N",
              help="Deals per chunk file (default: about 10 chunks per worker, at most 20).")
@click.option("--out", "out_dir", required=True, metavar="DIR",
              help="Run folder: new or empty, or a fair-stats run to resume or extend.")
@click.option("--resume", is_flag=True, help="Continue the run in DIR: play the missing or damaged chunks only.")
@click.option("--extend", is_flag=True,
              help="Grow the run in DIR: --count N makes it N deals, --rules adds rule sets; nothing is replayed.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable summary.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def fair_stats(start_code, start_number, count, rules_list, player, seed, workers, chunk_size, out_dir, resume, extend, as_json,
               quiet):
    """The fair player's win rate against the clairvoyant rate over a deal range.

    Writes one Parquet chunk per range of deals into DIR (one row per deal and rule set;
    pandas.read_parquet(DIR) reads them all) and _fair.md (win rates, 95% intervals, the
    paired gap). Interrupt any time and run the same command with --resume. The strong
    player costs about 0.4-0.8 s of CPU per Easy deal and 0.1-0.3 s per Classic deal,
    depending on the machine (docs/fair.md).

    Example: golfsolve fair-stats --count 200 --jobs 2 --out results/fair
    """
    from ..stats.fairstats import FAIR, load_fair_results, run_fair_stats, write_fair_report
    from ..stats.runfolder import check_resume_extend
    from ..stats.outdirs import check_out_dir
    from ..stats.runkind import parse_rules_list

    check_resume_extend(resume, extend)
    start_number = start_deal(start_code, start_number)
    check_workers(workers, "--jobs")
    workers = workers or os.cpu_count() or 1
    out = check_out_dir(out_dir, create=False)
    spec = FAIR.resolve(out, {"start": start_number, "count": count, "seed": seed, "chunk_size": chunk_size,
                              "rules": parse_rules_list(rules_list) if rules_list is not None else None,
                              "player": PRESETS[player] if player is not None else None},
                        resume=resume, extend=extend, jobs=workers)
    command = command_line(click.get_current_context(), start_code=None, start_number=spec.start, count=spec.count,
                           rules_list=",".join(spec.rules), player=spec.player.preset, seed=spec.seed,
                           chunk_size=spec.chunk_size, workers=workers)
    inv = run_long(lambda: run_fair_stats(out, spec, resume=resume, extend=extend, jobs=workers,
                                          command=command, progress=False if quiet or as_json else None), out)
    for r in inv["repaired"]:
        click.echo(f"golfsolve: note: played again: {r}", err=True)
    paths = write_fair_report(out)
    if as_json:
        df = load_fair_results(out)
        echo_json({**paths, "chunks_solved": inv["chunks_solved"], "chunks_before": inv["chunks_before"],
                   "repaired": inv["repaired"], "rows": len(df), "complete": inv["status"] == "complete",
                   "seed": spec.seed, "player": spec.player.as_dict()})
    else:
        click.echo(open(paths["report"], encoding="utf-8").read(), nl=False)
        click.echo(f"wrote the chunks of {out} (pandas.read_parquet reads the folder) and {paths['report']}")
