"""Fair-play commands: odds (win chance with the stock order unknown) and fair-stats."""

from __future__ import annotations

import shlex
import sys

import click

from ..solitaire.fair import run_fair_stats, write_fair_report
from ..solitaire.fairvalue import odds as odds_of
from .common import echo_json, get_layout, layout_options
from .main import cli


@cli.command()
@layout_options
@click.option("--fair", is_flag=True, hidden=True,
              help="Kept for old scripts: the stock order is always forgotten now.")
@click.option("--samples", type=click.IntRange(min=1), default=200, show_default=True,
              help="Stock orders to sample for the clairvoyant chance (all of them when there are no more).")
@click.option("--games", type=click.IntRange(min=0), default=8, show_default=True,
              help="Fair-player games (on the first sampled orders) for the fair chance.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed for the sampling.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def odds(code, layout_file, pysol, rules_spec, fair, samples, games, seed, as_json, quiet):
    """Win chances without seeing the stock: clairvoyant and fair, each with a 95% interval.

    Clairvoyant chance: the share of stock orders consistent with what is shown that can
    be won, each solved with its stock visible (an upper bound). Fair chance: the win rate
    of the search fair player on those orders without seeing them (exact by expectimax
    when few cards are unknown). A deal code, --pysol deal or full layout has its stock
    order forgotten first; a partial layout (stock "8S ..." or "? ? ?") keeps what it
    declares. No undo in either model (undo would let a player peek).

    Example: golfsolve odds --layout tests/data/seed000_start.txt --rules classic
    """
    lay = get_layout(code, layout_file, pysol, rules_spec)
    if lay.stock_known:
        lay = lay.forget_stock(0)
    res = odds_of(lay, lay.rules, samples=samples, seed=seed, games=games, progress=not quiet and not as_json)
    if as_json:
        echo_json(res.to_json())
    else:
        click.echo(res.render())


@cli.command("fair-stats")
@click.option("--start-number", type=click.IntRange(min=0), default=0, show_default=True,
              help="First GO1 deal number.")
@click.option("--count", type=click.IntRange(min=1), default=100, show_default=True, help="Deals per rule set.")
@click.option("--rules", "rules_list", default="easy,classic", show_default=True,
              help="Comma-separated rule sets.")
@click.option("--samples", type=click.IntRange(min=1), default=16, show_default=True,
              help="Stock orders per contested decision of the fair player.")
@click.option("--first-samples", type=click.IntRange(min=1), default=None,
              help="Look at this many orders first and play at once when the best move keeps every winnable "
                   "one (cheaper, weaker player). Default: --samples (no shortcut).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Processes.")
@click.option("--out", "out_dir", required=True, metavar="DIR", help="Output directory.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary paths as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def fair_stats(start_number, count, rules_list, samples, first_samples, seed, workers, out_dir, as_json, quiet):
    """The fair player's win rate against the clairvoyant rate over a deal range.

    Writes fair_deals.parquet (one row per deal and rule set) and fair.md (win rates,
    95% intervals, the paired gap) into DIR.

    Example: golfsolve fair-stats --count 200 --workers 2 --out results/fair
    """
    names = [r.strip().lower() for r in rules_list.split(",") if r.strip()]
    if first_samples is None:
        first_samples = samples
    command = "golfsolve " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:2] == ["fair-stats"] \
        else (f"golfsolve fair-stats --start-number {start_number} --count {count} --rules {','.join(names)} "
              f"--samples {samples} --first-samples {first_samples} --seed {seed} --workers {workers} --out {out_dir}")

    def checkpoint(rows):
        # a long run that is stopped still leaves its finished deals behind
        write_fair_report(rows, out_dir, command + "  (partial)", samples, first_samples, seed)

    rows = run_fair_stats(start_number, count, names, samples, first_samples, seed, workers,
                          progress=not quiet, checkpoint=checkpoint)
    paths = write_fair_report(rows, out_dir, command, samples, first_samples, seed)
    if as_json:
        echo_json(paths)
    else:
        click.echo(open(paths["report"], encoding="utf-8").read(), nl=False)
        click.echo(f"wrote {paths['table']} and {paths['report']}")
