"""Fair-play commands: odds (win chance with the stock order unknown) and fair-stats."""

from __future__ import annotations

import shlex
import sys

import click

from ..solitaire.fair import odds as odds_of
from ..stats.fairstats import run_fair_stats, write_fair_report
from .common import echo_json, get_layout, layout_options


@click.command()
@layout_options
@click.option("--fair", is_flag=True,
              help="Forget the stock order of a deal code or full layout (nothing drawn yet).")
@click.option("--samples", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Stock orders to sample (all of them are solved when there are no more than this).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed for the sampling.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def odds(code, layout_file, pysol, rules_spec, fair, samples, seed, as_json, quiet):
    """The chance of winning when the stock order is unknown, with a 95% interval.

    Samples stock orders consistent with what the layout shows and solves each exactly;
    that is the chance the deal is winnable, an upper bound on play that cannot see the
    stock. Use a partial layout (stock "8S ..." or "? ? ?") or --fair on a deal code.

    Example: golfsolve odds --layout tests/data/seed000_start.txt --rules classic
    """
    lay = get_layout(code, layout_file, pysol, rules_spec)
    if fair:
        lay = lay.forget_stock(0)
    res = odds_of(lay, lay.rules, samples=samples, seed=seed, progress=not quiet and not as_json)
    if as_json:
        echo_json(res.to_json())
    else:
        click.echo(res.render())
        if lay.stock_known:
            click.echo("(the stock order is known, so this is the exact answer; add --fair to forget it)")


@click.command("fair-stats")
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
