"""``golfsolve stats`` (solve ranges of deals under several rule sets) and ``golfsolve report``."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..errors import InputError
from ..text import interval, plural
from .command import Command, command_line
from .options import AsciiChoice, check_workers, effort, jobs_option, start_options
from .output import echo_json
from .reading import start_deal
from .runs import check_reported_here, check_run_dir, run_long


@click.command(cls=Command)
@start_options
@click.option("--count", type=int, default=None, metavar="N", help="How many deals to solve (needed for a new run).")
@click.option("--stride", type=int, default=None, metavar="K",
              help="Take every K-th deal: deal i of the run is (first + i*K) mod 26^7 (default 1: consecutive "
                   "deals).")
@click.option("--spread", is_flag=True,
              help="Spread the deals evenly over the whole GO1 code space: --stride 26^7 // --count.")
@click.option("--rules", "rules_spec", default=None, metavar="LIST",
              help="Comma-separated rule sets (default easy,classic,strict; also dead-king, "
                   "wrap/queen-on-king/no-card-on-king, and switches like classic+jokers1).")
@click.option("--out", "out_dir", required=True, metavar="DIR",
              help="Directory for _manifest.json and the Parquet chunks (new or empty, or a run to resume or extend).")
@click.option("--resume", is_flag=True,
              help="Continue the run in DIR: solve the chunks that are missing or damaged, keep the rest.")
@click.option("--extend", is_flag=True,
              help="Grow the run in DIR: --count N makes it N deals in all, --rules adds rule sets; nothing done "
                   "is solved again.")
@jobs_option()
@click.option("--chunk-size", type=int, default=None, metavar="N",
              help="Deals per chunk file (default: about 10 chunks per worker, at most 500; on a Dask cluster, "
                   "per thread of its workers).")
@click.option("--engine", type=AsciiChoice(["local", "dask"], case_sensitive=False), default="local", show_default=True,
              help="local: a process pool on this machine; dask: a Dask distributed cluster.")
@click.option("--scheduler", default=None, envvar="DASK_SCHEDULER_ADDRESS", metavar="ADDRESS",
              help="Dask scheduler, e.g. tcp://10.0.0.5:8786 (default: $DASK_SCHEDULER_ADDRESS, "
                   "else a private cluster on this machine).")
@click.option("--fields", type=AsciiChoice(["all", "winnable"], case_sensitive=False), default=None,
              help="all (default): winnable and the fewest cards left; winnable: the verdict only, much faster "
                   "(a lost deal's best_left is left empty).")
@click.option("--difficulty", is_flag=True,
              help="Add each deal's difficulty label and fair chance (as 'golfsolve rate --games N' gives them, N from "
                   "--difficulty-games, seed 0). "
                   "Costly: at 8 fair games about 0.4 s of CPU per Easy deal and 0.25 s per Classic deal (deals 0-4), "
                   "against well under 1 ms for the solve; the cost grows with the games.")
@click.option("--difficulty-games", type=effort(), default=None, metavar="N",
              help="Fair-player games per deal and rule set for --difficulty (default 8, or the run's own with "
                   "--resume and --extend; more games, a surer "
                   "label, proportionally more CPU).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable summary.")
def stats(start_code, start_number, count, stride, spread, rules_spec, out_dir, resume, extend, jobs, chunk_size,
          engine, scheduler, fields, difficulty, difficulty_games, quiet, as_json):
    """Solve every deal of a range (or every K-th deal) under several rule sets; write Parquet chunks to DIR.

    One row per deal and rule set: deal, code, rules, winnable, best_left (cards left under
    perfect play), app_score, fields (what was computed), nodes, seconds, cpu_seconds
    (and difficulty, fair_chance with --difficulty). Interrupt any time (Ctrl-C, kill) and
    run the same command with --resume: finished chunks are kept, nothing is solved twice.

    Example: golfsolve stats --start GO1-E-AAAAAAA --count 2000 --out stats-2000

    Over the whole code space: golfsolve stats --count 20000 --spread --out spread-20000
    """
    import dataclasses

    from ..stats.census import (CENSUS, DEFAULT_DIFFICULTY_GAMES, jobs_with_scheduler, load_results, parse_rules_list,
                                run_census, scheduler_address, spread_stride, stride_cycle)
    from ..stats.runfolder import check_resume_extend, manifest_path
    from ..stats.outdirs import check_out_dir

    check_resume_extend(resume, extend)
    start = start_deal(start_code, start_number)
    src = click.get_current_context().get_parameter_source("scheduler")
    if engine == "local" and src == click.core.ParameterSource.COMMANDLINE:
        raise InputError("--scheduler needs --engine dask")
    if engine == "local":
        scheduler = None
    elif scheduler is not None:
        # an empty one was taken as no scheduler, and a private cluster started instead of the one meant
        scheduler = scheduler_address(scheduler)
    check_workers(jobs, "--jobs")
    if scheduler is not None and jobs is not None:
        raise jobs_with_scheduler(scheduler, src == click.core.ParameterSource.ENVIRONMENT)
    if spread and stride is not None:
        raise InputError("give --stride K or --spread, not both (--spread picks the stride)")
    out = check_out_dir(out_dir, create=False)
    # the run continued (its manifest read once), else None
    old = CENSUS.read(out) if (resume or extend) and manifest_path(out) is not None else None
    if difficulty_games is not None and not difficulty and old is None:
        raise InputError("--difficulty-games needs --difficulty")
    if difficulty and difficulty_games is None and old is not None:
        # the run's own count, not the default: a run made with --difficulty-games 2 was refused as
        # "differs in difficulty_games 2 (here 8)" by a --resume --difficulty that gave no count
        difficulty_games = old.difficulty or None
    # continuing a run, --difficulty-games alone names its games (to be checked against the run)
    games = difficulty_games if difficulty_games is not None else (DEFAULT_DIFFICULTY_GAMES if difficulty else None)
    n_jobs = jobs or os.cpu_count() or 1
    if extend and count is not None and old is not None:
        distinct = stride_cycle(old.stride)
        if old.stride > 1 and count > distinct:
            # else the check names a stride the user never gave and --extend cannot change ("--stride
            # 2007952544 repeats deals after 4 of them ...")
            raise InputError(f"--extend: {out} takes every {old.stride:,}th deal, which comes back to its first "
                             f"deal after {distinct:,} of them, so it cannot grow to {count:,}; start a new run"
                             + (f" (--count {count} --spread)" if spread else ""))
    spec = CENSUS.resolve(out, {"start": start, "count": count, "chunk_size": chunk_size, "fields": fields,
                                "difficulty": games, "stride": stride,
                                "rules": parse_rules_list(rules_spec) if rules_spec is not None else None},
                          resume=resume, extend=extend, jobs=n_jobs)
    if spread:  # the stride follows the count, which --resume may take from the run
        spec = dataclasses.replace(spec, stride=spread_stride(spec.count))
    if engine == "dask":
        from ..stats.cluster import cluster_threads, quiet_dask_logs

        quiet_dask_logs()
        if scheduler is not None and chunk_size is None and not (resume or extend):
            # a new run's chunks are cut for the cluster's workers, not for this machine's cores
            # (a run continued keeps the chunks it has: its manifest records their size)
            threads = run_long(lambda: cluster_threads(scheduler), out)
            if threads:
                spec = dataclasses.replace(spec, chunk_size=CENSUS.default_chunk_size(spec.count, threads))
    command = command_line(click.get_current_context(), start_code=None, start_number=spec.start, count=spec.count,
                           stride=None if spec.stride == 1 else spec.stride, spread=False,
                           rules_spec=",".join(spec.rules), chunk_size=spec.chunk_size,
                           fields=None if spec.fields == "all" else spec.fields, difficulty=bool(spec.difficulty),
                           difficulty_games=spec.difficulty or None, scheduler=scheduler)
    result = run_long(lambda: run_census(out, spec, resume=resume, extend=extend, engine=engine,
                                         jobs=None if scheduler else n_jobs, scheduler=scheduler, command=command,
                                         progress=False if quiet or as_json else None,
                                         on_note=lambda text: click.echo(f"golfsolve: note: {text}", err=True)),
                      out)
    spec = result.spec
    df = load_results(out)
    rates = {r: float(df.loc[df["rules"] == r, "winnable"].mean()) for r in spec.rules}
    if as_json:
        from ..stats.runkind import rules_described

        # the rule sets in words, as the run's manifest has them: a name may mean other rules later
        echo_json({**result.to_json(), "win_rate": rates, "rules_described": rules_described(spec.rules)})
        return
    for r in result.repaired:
        click.echo(f"golfsolve: note: solved again: {r}", err=True)
    if result.chunks_solved == 0 and result.chunks_before == result.chunks_total:
        done = "the run's one chunk is" if result.chunks_total == 1 else f"all {result.chunks_total:,} chunks are"
        click.echo(f"nothing to do: {done} done in {out}")
    else:
        click.echo(f"solved {plural(result.chunks_solved, 'chunk')} ({result.chunks_before:,} of "
                   f"{result.chunks_total:,} were done already) in {result.seconds:.1f} s -> {out}")
    click.echo("win rate: " + ", ".join(f"{r} {100 * v:.1f}%" for r, v in rates.items())
               + f" ({spec.covers()})")


@click.command(cls=Command)
@click.argument("stats_dir", metavar="DIR")
@click.option("--out", "out_dir", default=None, metavar="REPORT_DIR",
              help="Where report.md, report.html and the PNG plots go (default: DIR/_report, which pandas "
                   "skips when it reads DIR).")
@click.option("--fair", "fair_dir", default=None, metavar="FAIR_DIR",
              help="A 'golfsolve fair-stats' run whose fair-play table joins the report.")
@click.option("--json", "as_json", is_flag=True,
              help="Machine-readable report data, printed; with no --out, no report is written (nor plot drawn).")
def report(stats_dir, out_dir, fair_dir, as_json):
    """Markdown and self-contained HTML report, with plots, of a 'golfsolve stats' run.

    Example: golfsolve report stats-2000 --out stats-2000/_report
    """
    from ..stats.census import CENSUS, load_results
    from ..stats.runfolder import read_manifest
    from ..stats.runlayout import FAIR_STATS
    from ..stats.reportfolder import check_report_dir

    check_run_dir(stats_dir, "DIR")
    if fair_dir is not None:
        check_run_dir(fair_dir, "--fair")
    # not a stats run, a bad manifest or a damaged chunk: say so before writing anything, and
    # both manifests before reading any chunk or loading the fair player's modules
    check_reported_here(stats_dir, "report")  # the command that does report it, not only "choose another directory"
    CENSUS.read_manifest(stats_dir)
    if fair_dir is not None:
        read_manifest(fair_dir, FAIR_STATS)
    # a refusal of the default names it so: no --out was given to blame
    where, option = (out_dir, "--out") if out_dir is not None else (Path(stats_dir) / "_report", "the default --out")
    writes = not (as_json and out_dir is None)  # only the numbers asked for: no report written, no plot drawn
    if writes:  # a folder the report cannot go to is said before the run is read (seconds for a large one)
        check_report_dir(where, option, run=stats_dir, create=False)
    from ..progress import drawing_plots, report_bar

    # on a terminal, a word on what takes the time: reading a large run, then each plot
    bar = report_bar("report", stats_dir, show=False if as_json else None)
    try:
        df = load_results(stats_dir)
        from ..stats.report import check_reportable

        check_reportable(stats_dir, df)  # before the report's folder is made
        if fair_dir is not None:
            from ..stats.fairstats import load_fair_results

            if load_fair_results(fair_dir).empty:  # the report would lack the section asked for
                raise InputError(f"--fair {fair_dir}: no chunk is finished yet, so it has no table to join the report")
        if not writes:
            from ..stats.report import report_data

            data = report_data(stats_dir, df, fair_dir)
        else:
            out = check_report_dir(where, option, run=stats_dir)
            from ..stats.report import FIGURES, write_report  # matplotlib and the fair player's modules, once read

            drawing_plots(bar, "report", len(FIGURES))
            data = write_report(stats_dir, out, fair_dir, df=df, drawn=lambda: bar.update(1))
    finally:
        bar.close()
    if as_json:
        echo_json(data)
        return
    if not data["complete"]:
        from ..stats.report import finishing, incomplete_text

        click.echo(f"golfsolve: warning: the run is incomplete ({incomplete_text(data)}); {finishing(data)}", err=True)
    if data["fair"] is not None and not data["fair"]["complete"]:
        click.echo(f"golfsolve: warning: the --fair run {fair_dir} is unfinished; its table covers the games played",
                   err=True)
    click.echo(f"{data['deals_text']}:")
    for w in data["win_rates"]:
        click.echo(f"{w['rules']:>10}: {100 * w['rate']:.2f}% won {interval(w['lo'], w['hi'], '.2f', 100)} "
                   f"of {plural(w['n'], 'deal')}")
    click.echo(f"report: {out / 'report.md'} and {out / 'report.html'}")
