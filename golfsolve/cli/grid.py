"""``golfsolve grid``: simulate bot tournaments, report on them, play against bots."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import InputError
from ..text import plural
from .command import Group, command_line
from .gridtable import table_options
from .options import SEED, AsciiChoice, check_workers, effort, jobs_option
from .output import echo_json
from .runs import check_reported_here, check_run_dir, run_long

@click.group(cls=Group)
def grid() -> None:
    """Grid Golf (2-6 players): simulate bots, study the table options, report, or play against bots.

    Example: golfsolve grid simulate --bots mc,greedy,greedy,random --matches 100 --out results/
    """


@grid.command()
@table_options()
@click.option("--bots", "bots_spec", default=None, metavar="LIST",
              help="One bot per player, comma-separated: random, greedy, heuristic, heuristic-fit, mc[:SAMPLES], mc-greedy[:SAMPLES], "
                   "ismcts[:ITERATIONS], paired-rel[:PLAYOUTS], spiel-ismcts[:SIMULATIONS] (default: all heuristic).")
@click.option("--matches", type=int, default=None, metavar="N", help="Matches to play (default 120: whole seating cycles for 2-6 players).")
@click.option("--seed", type=SEED, default=None, metavar="N", help="Seed; equal seeds give equal results (default 0).")
@click.option("--mc-samples", type=effort(), default=None, metavar="N",
              help="Monte Carlo samples per candidate action of the mc and mc-greedy bots named without one "
                   "(default 100).")
@click.option("--out", "out_dir", default=None, metavar="DIR",
              help="Run folder for the results: Parquet chunks written as matches finish (pandas.read_parquet "
                   "reads DIR), resumable.")
@click.option("--resume", is_flag=True, help="Continue the run in DIR: play the missing or damaged chunks only.")
@click.option("--extend", is_flag=True, help="Add matches to the run in DIR (--matches N makes it N in all).")
@jobs_option("workers", 1, ", with --out")
@click.option("--chunk-size", type=int, default=None, metavar="N",
              help="Matches per chunk file (default: about 10 chunks per worker, at most 50).")
@click.option("--format", "fmt", type=AsciiChoice(["parquet", "csv"], case_sensitive=False), default="parquet",
              show_default=True,
              help="csv: also export DIR/_holes.csv and DIR/_matches.csv (kept up to date by a later "
                   "--resume or --extend).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable summary.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def simulate(players, grid, holes, rules_spec, openers, bots_spec, matches, seed, mc_samples, out_dir, resume, extend,
             workers, chunk_size, fmt, as_json, quiet):
    """Play seeded matches between bots and summarise strokes and wins.

    Example: golfsolve grid simulate --players 4 --grid 6 --bots mc,greedy,greedy,random
    --holes 9 --matches 1000 --seed 1 --out results/
    """
    # the run kind and the run folder's checks are light: every argument is checked before the
    # bots (numba) and the report (pandas, matplotlib) load
    from ..grid.botnames import check_distinct_bots, check_samples_used
    from ..stats.gridruns import GRID, export_csv, load_tournament, planned_matches, run_command, run_grid_simulate
    from ..stats.runfolder import check_resume_extend
    from ..stats.outdirs import check_out_dir

    if (resume or extend or chunk_size is not None or fmt == "csv" or workers != 1) and out_dir is None:
        raise InputError("--resume, --extend, --chunk-size, --jobs and --format csv need --out DIR")
    check_resume_extend(resume, extend)
    check_workers(workers, "--jobs")
    out = check_out_dir(out_dir, create=False) if out_dir is not None else None
    rules, bots = GRID.table(out if resume or extend else None, rules_spec, players, grid, holes, openers,
                             bots_spec)
    if matches is not None and matches < 1:
        raise InputError(f"--matches must be at least 1, not {matches}")
    check_samples_used(bots, mc_samples, "--mc-samples")
    check_distinct_bots(bots, mc_samples)
    if out is None:
        # the run folder's checks (most matches, seed, samples), so no folder allows no more
        spec = GRID.complete({"rules": rules, "bots": bots, "matches": matches, "seed": seed, "samples": mc_samples,
                              "chunk_size": None}, jobs=1)
        matches, seed = spec.matches, spec.seed
        from ..grid.compiling import warm
        from ..grid.tournament import simulate_tally
        from ..progress import progress_bar
        from ..stats.gridreport import report_data

        bar = progress_bar(total=matches, unit="match", show=False if quiet or as_json else None)
        warm(rules, bots, mc_samples)  # compiling (with its notice) before the progress bar
        try:
            # running totals only: memory stays flat however many matches
            tally = simulate_tally(rules, list(bots), matches, seed, samples=mc_samples, progress=bar.update)
        finally:
            bar.close()
        data = report_data(tally)
    else:
        spec = GRID.resolve(out, {"rules": rules, "bots": bots, "matches": matches, "seed": seed,
                                  "samples": mc_samples, "chunk_size": chunk_size},
                            resume=resume, extend=extend, jobs=workers)
        command = command_line(click.get_current_context(), rules_spec=rules.spec(), players=rules.players,
                               grid=rules.grid, holes=rules.holes, openers=rules.openers, bots_spec=",".join(bots),
                               matches=spec.matches, seed=spec.seed, mc_samples=spec.samples,
                               chunk_size=spec.chunk_size)
        inv = run_long(lambda: run_grid_simulate(out, spec, resume=resume, extend=extend, jobs=workers,
                                                 command=command, progress=False if quiet or as_json else None), out)
        for r in inv["repaired"]:
            click.echo(f"golfsolve: note: played again: {r}", err=True)
        t = load_tournament(out)
        # exports already there are the run's too: an --extend or --resume without --format csv
        # refreshes them, so no _matches.csv of 2 matches stays beside a run of 3
        if fmt == "csv" or any((out / f"_{name}.csv").exists() for name in ("holes", "matches")):
            export_csv(t, out)
        from ..stats.gridreport import report_data  # pandas, once the run is done (matplotlib only draws)

        # the run's numbers as 'grid report DIR --json' gives them, its command and state included
        data = report_data(t, run_command(out), planned_matches(out))
    if as_json:
        echo_json(data)
        return
    from ..stats.gridreport import summary_text

    click.echo(summary_text(data, rules))
    if out is not None:
        click.echo(f"results in {out} (golfsolve grid report {out})")


@grid.command(short_help="A seeded study of the table options, into a run folder.")
@click.option("--out", "out_dir", required=True, metavar="DIR",
              help="Run folder of the study: Parquet chunks written as matches finish, resumable.")
@click.option("--sets", "sets_spec", default=None, metavar="LIST",
              help="Option sets, comma-separated (default: base, grid-4/8/9, players-2/3/5/6, openers-0/4, putt, "
                   "knock10, knock-double, grid-9+pairs, jokers, danish); also players-N, grid-N, openers-N, "
                   "holes-N (with +switches) or a rule spec such as default+putt.")
@click.option("--strong", default=None, metavar="BOT", help="The strongest bot at every table (default ismcts:300).")
@click.option("--matches", type=int, default=None, metavar="N", help="Matches per table (default 120: whole seating cycles for 2-6 players).")
@click.option("--seed", type=SEED, default=None, metavar="N", help="Seed; equal seeds give equal results (default 0).")
@click.option("--resume", is_flag=True, help="Continue the study in DIR: play the missing or damaged chunks only.")
@jobs_option("workers", 1)
@click.option("--chunk-size", type=int, default=None, metavar="N",
              help="Matches per chunk file (default: an eighth of --matches, at most 10).")
@click.option("--json", "as_json", is_flag=True,
              help="Machine-readable summary: the study's numbers, as 'grid report DIR --json' gives them.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def study(out_dir, sets_spec, strong, matches, seed, resume, workers, chunk_size, as_json, quiet):
    """Play a seeded study of the table options (one-at-a-time variations of a base table,
    each at two tables: the strongest bot among heuristics, the random bot among heuristics)
    into a run folder; 'grid report DIR' reports on it.

    Example: golfsolve grid study --out study/ --jobs 2
    """
    from ..stats.gridstudy import STUDY, parse_sets, run_study

    check_workers(workers, "--jobs")
    spec = STUDY.resolve(out_dir, {"sets": parse_sets(sets_spec), "strong": strong, "matches": matches, "seed": seed,
                                   "chunk_size": chunk_size}, resume=resume, jobs=workers)
    out = Path(out_dir)
    command = command_line(click.get_current_context(), sets_spec=",".join(spec.sets), strong=spec.strong,
                           matches=spec.matches, seed=spec.seed, chunk_size=spec.chunk_size)
    inv = run_long(lambda: run_study(out, spec, resume=resume, jobs=workers, command=command,
                                     progress=False if quiet or as_json else None), out)
    for r in inv["repaired"]:
        click.echo(f"golfsolve: note: played again: {r}", err=True)
    if as_json:
        from ..stats.gridstudy import load_study
        from ..stats.studyreport import report_data

        echo_json(report_data(load_study(out)))
        return
    click.echo(f"{plural(len(spec.sets), 'option set')}, {plural(len(spec.cells()), 'table')} of "
               f"{plural(spec.matches, 'match', 'matches')}: results in {out} (golfsolve grid report {out})")


@grid.command(short_help="Report on a 'grid simulate --out' or 'grid study' run folder.")
@click.argument("directory", metavar="DIR")
@click.option("--out", "out_dir", default=None, metavar="REPORT_DIR",
              help="Where report.md, report.html and the plots go (default: DIR/_report, which pandas skips).")
@click.option("--json", "as_json", is_flag=True,
              help="Machine-readable report data, printed; with no --out, no report is written (nor plot drawn).")
def report(directory, out_dir, as_json):
    """Write report.md, report.html and plots for a 'grid simulate --out' or 'grid study' directory, and say where.

    Example: golfsolve grid report results/
    """
    from ..stats.gridruns import load_tournament, planned_matches, run_command
    from ..stats.gridstudy import is_study, load_study
    from ..progress import drawing_plots, report_bar
    from ..stats.reportfolder import check_report_dir
    from ..stats.runlock import being_written

    check_run_dir(directory, "DIR")
    check_reported_here(directory, "grid report")
    # a refusal of the default names it so: no --out was given to blame
    where, option = (out_dir, "--out") if out_dir is not None else (Path(directory) / "_report", "the default --out")
    writes = not (as_json and out_dir is None)  # only the numbers asked for: no report written, no plot drawn
    if writes and _holds_grid_run(directory):
        # a folder the report cannot go to is said before the run is read (seconds for a large one)
        check_report_dir(where, option, run=directory, create=False)
    writing = being_written(Path(directory))
    # on a terminal, a word on what takes the time: reading a large run, then each plot
    bar = report_bar("grid report", directory, show=False if as_json else None)
    try:
        study = load_study(Path(directory)) if is_study(directory) else None
        t = load_tournament(Path(directory)) if study is None else None
        if not writes:
            if study is not None:
                from ..stats.studyreport import report_data as study_data

                data = study_data(study)
            else:
                from ..stats.gridreport import report_data

                data = report_data(t, run_command(directory), planned_matches(directory), writing)
        else:
            out = check_report_dir(where, option, run=directory)
            from ..stats.gridreport import FIGURES, write_report  # matplotlib, once read
            from ..stats.studyreport import write_study_report

            drawing_plots(bar, "grid report", 1 if study is not None else len(FIGURES))
            if study is not None:
                _, data = write_study_report(study, out, directory)
            else:
                data, paths = write_report(t, out, run_command(directory), planned_matches(directory), directory,
                                           drawn=lambda: bar.update(1), writing=writing)
    finally:
        bar.close()
    if as_json:
        echo_json(data)
        return
    from ..grid.tournament import OLD_SEATING, seating_described
    from ..stats.gridreport import incomplete_note, summary_text
    from ..stats.studyreport import study_summary

    if study is not None:
        click.echo(study_summary(data))
        click.echo(f"report: {out / 'report.md'} and {out / 'report.html'} (plot: study.png)")
        return
    click.echo(summary_text(data, t.rules))
    if data["planned_matches"]:
        click.echo(f"unfinished: {incomplete_note(data)}")
    if data["meta"].get("seating") == OLD_SEATING:
        # the report says so in bold; one reading the terminal only must be told too
        said = seating_described(OLD_SEATING)
        click.echo(f"warning: {said[0].lower()}{said[1:]}; the comparisons are confounded with that")
    click.echo(f"report: {out / 'report.md'} and {out / 'report.html'} (plots: "
               f"{', '.join(p.name for p in paths if p.suffix == '.png')})")


def _holds_grid_run(directory: str) -> bool:
    """Whether ``directory`` holds a grid run by its manifest (False for none, a damaged one or
    a folder of the layout before run folders: reading the run says what is wrong, or reads it)."""
    from ..stats.runfolder import read_manifest
    from ..stats.runlayout import GRID_SIMULATE, GRID_STUDY

    try:
        return read_manifest(directory)["format"] in (GRID_SIMULATE, GRID_STUDY)
    except InputError:
        return False


# ``grid play``, the terminal game against bots: a module of its own
from .gridplay import play  # noqa: E402

grid.add_command(play)
