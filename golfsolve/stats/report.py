"""Reports on a ``golfsolve stats`` run: numbers, PNG plots, Markdown and self-contained HTML.

:func:`report_data` computes every number (it is also the ``--json`` output);
:func:`write_plots` draws the figures; :func:`write_report` writes ``report.md`` (which
links the PNG files beside it) and ``report.html`` (which embeds them, so the one file
can be mailed or opened anywhere). Every figure carries a footer with the number of
deals, the rule sets and the command that produced the data.
"""

from __future__ import annotations

import base64
import html
import math
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

import numpy as np
import pandas as pd

from ..inputs import callback, expect, whole_count
from ..intervals import wilson
from ..solitaire.rules import get_rules
from ..text import estimate, plural, stretches
from .fairstats import load_fair_section
from .census import CENSUS, CensusSpec, load_results, read_manifest, run_status
from .runfolder import how_to_finish, run_commands
from .runlayout import STATS
from .runlock import being_written
from .atomic import figure_footer, save_footed_figure

#: Par of the traditional 9-deal match: cards left summed over 9 deals.
MATCH_DEALS = 9
PAR = 45

#: Published win rates (black-hole-solve on PySol FC deals 1..3996, 95% Wilson intervals of
#: the verdicts in tests/data/pysol-golf-black-hole-solver.csv) for the rule sets that match ours exactly. Our Strict
#: draws only when stuck, so no published figure applies to it.
REFERENCE = {
    "easy": {"name": "wrap (PySol Relaxed Golf)", "rate": 0.9287, "lo": 0.9203, "hi": 0.9363, "n": 3996},
    "classic": {"name": "queen-on-king (PySol Golf)", "rate": 0.4522, "lo": 0.4368, "hi": 0.4677, "n": 3996},
    "dead-king": {"name": "no-card-on-king (PySol Dead King Golf)", "rate": 0.2633, "lo": 0.2498, "hi": 0.2771,
                  "n": 3996},
}

#: The app score histogram's bins, one per score a game can end with: 350 (won) or
#: max(0, 20 r - 350) after r removed cards, so 0, 10, 30, 50, ..., 330, 350. Bins 20 wide
#: from 0 put 0 and 10 in one bar, which then showed a share of "0" the table did not.
APP_SCORE_BINS = np.array([-10, 5] + list(range(20, 361, 20)))

#: Fewest deals under a rule set for a figure of how values spread (cards left, app score,
#: solve time): a run of one deal drew each as a single bar, which showed only what its table
#: says and read as a broken plot.
MIN_SPREAD = 2
#: Why a --fields winnable run has no cards left, app score or 9-deal totals.
NOT_SEARCHED = ("the run was made with --fields winnable, which does not search a lost deal for its fewest cards "
                "left (`golfsolve stats --fields all` does)")

FIGURES = {
    "win_rate.png": "Win rate per rule set, 95% Wilson intervals",
    "cards_left.png": "Cards left on the table under perfect play",
    "app_score.png": "Best app score under perfect play",
    "nine_deal_match.png": "Traditional 9-deal match under perfect play (par 45)",
    "solve_time.png": "Solve time per deal",
}


# ---------------------------------------------------------------------------
# statistics
# ---------------------------------------------------------------------------
def mcnemar(b: int, c: int) -> dict[str, float]:
    """McNemar's test on the discordant counts ``b`` and ``c`` of a paired 2x2 table.

    ``p_exact`` is the two-sided exact binomial p-value (b ~ Binomial(b + c, 1/2)),
    computed in log space so that it stays exact for millions of deals; ``statistic`` is
    the continuity-corrected chi-square (1 degree of freedom) and ``p_chi2`` its p-value.
    """
    b, c = whole_count(b, "b", 0, 2**63 - 1), whole_count(c, "c", 0, 2**63 - 1)  # counts, as wilson() takes them
    n = b + c
    if n == 0:
        return {"statistic": 0.0, "p_chi2": 1.0, "p_exact": 1.0}
    stat = (abs(b - c) - 1) ** 2 / n if abs(b - c) > 0 else 0.0
    p_chi2 = math.erfc(math.sqrt(stat / 2))
    k = min(b, c)
    # log P(X = i) for i = 0..k, summed with the log-sum-exp trick
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2) for i in range(k + 1)]
    top = max(logs)
    tail = math.exp(top) * sum(math.exp(v - top) for v in logs)
    return {"statistic": stat, "p_chi2": p_chi2, "p_exact": min(1.0, 2 * tail)}


def _reference(name: str) -> Optional[dict]:
    """The published figure for the rule set ``name`` stands for: by its rules, not its name
    (``strict+anytime`` is Dead King, ``dead-king+king-queen`` Classic)."""
    meaning = get_rules(name).meaning
    return next((ref for key, ref in REFERENCE.items() if get_rules(key).meaning == meaning), None)


def _is_strict(name: str) -> bool:
    """Is the rule set ``name`` golfsolve's Strict, by its rules (``strict+stuck`` is), not its name?"""
    return get_rules(name).meaning == get_rules("strict").meaning


def _win_rates(df: pd.DataFrame, rules: list[str]) -> list[dict]:
    out = []
    for r in rules:
        w = df.loc[df["rules"] == r, "winnable"]
        n, k = int(len(w)), int(w.sum())
        p, lo, hi = wilson(k, n)
        row = {"rules": r, "n": n, "wins": k, "rate": p, "lo": lo, "hi": hi}
        ref = _reference(r)
        if ref is not None:
            # Two different samples of random deals: consistent when the intervals overlap.
            row["reference"] = {**ref, "consistent": bool(lo <= ref["hi"] and ref["lo"] <= hi)}
        out.append(row)
    return out


def _paired(wide: pd.DataFrame, rules: list[str]) -> list[dict]:
    from ..solitaire.solver import nests

    out = []
    for a, b in combinations(rules, 2):
        ra, rb = get_rules(a), get_rules(b)
        # the stricter of a nested pair: every line it allows the other allows, on the same cards, so
        # none of its wins is a loss under the other (with other jokers or another start, other cards)
        stricter = b if nests(ra, rb) else a if nests(rb, ra) else None
        both = wide[[a, b]].dropna()
        wa, wb = both[a].astype(bool), both[b].astype(bool)
        only_a, only_b = int((wa & ~wb).sum()), int((~wa & wb).sum())
        out.append({"a": a, "b": b, "n": int(len(both)), "both": int((wa & wb).sum()), "only_a": only_a,
                    "only_b": only_b, "neither": int((~wa & ~wb).sum()), "stricter": stricter,
                    **mcnemar(only_a, only_b)})
    return out


def _left_known(df: pd.DataFrame, rules: list[str]) -> dict[str, bool]:
    """Per rule set: is every deal's fewest cards left known? Not in a --fields winnable run,
    which does not search a lost deal for them."""
    return {r: not df.loc[df["rules"] == r, "best_left"].isna().any() for r in rules}


def _nine_deal(df: pd.DataFrame, rules: list[str], spec: CensusSpec,
               known: dict[str, bool]) -> tuple[dict, dict[str, np.ndarray]]:
    """Cards left summed over complete blocks of 9 consecutive deals of the run from its start
    (None and no blocks for a rule set whose cards left are not ``known``)."""
    summary, totals = {}, {}
    deals = df["deal"].unique()
    position = pd.Series(spec.positions(deals), index=deals)
    for r in rules:
        if not known[r]:
            summary[r], totals[r] = None, np.zeros(0, dtype=np.int64)
            continue
        sub = df.loc[df["rules"] == r, ["deal", "best_left"]]
        block = sub["deal"].map(position) // MATCH_DEALS
        g = sub.groupby(block)["best_left"].agg(["sum", "size"])
        t = g.loc[g["size"] == MATCH_DEALS, "sum"].to_numpy(dtype=np.int64)
        totals[r] = t
        summary[r] = ({"matches": int(len(t)), "mean": float(t.mean()), "median": float(np.median(t)),
                       "min": int(t.min()), "max": int(t.max()), "at_or_under_par": float((t <= PAR).mean())}
                      if len(t) else {"matches": 0})
    return summary, totals


def _solve_time(df: pd.DataFrame, rules: list[str]) -> dict:
    out = {}
    for r in rules:
        sub = df[df["rules"] == r]
        s = sub["seconds"].to_numpy()
        if not len(s):
            continue
        cpu = sub["cpu_seconds"].to_numpy() if "cpu_seconds" in sub else s
        won, lost = sub.loc[sub["winnable"], "seconds"], sub.loc[~sub["winnable"], "seconds"]
        out[r] = {"n": int(len(s)), "total_seconds": float(s.sum()), "median_ms": 1000 * float(np.median(s)),
                  "mean_ms": 1000 * float(s.mean()), "p99_ms": 1000 * float(np.quantile(s, 0.99)),
                  "max_ms": 1000 * float(s.max()),
                  # CPU time, not wall time: on a busy machine wall time counts other programs' turns.
                  "cpu_seconds": float(cpu.sum()),
                  "deals_per_second_per_core": float(len(s) / cpu.sum()) if cpu.sum() > 0 else float("inf"),
                  "median_ms_won": 1000 * float(won.median()) if len(won) else None,
                  "median_ms_lost": 1000 * float(lost.median()) if len(lost) else None,
                  "mean_nodes": float(sub["nodes"].mean())}
    return out


def _difficulty(df: pd.DataFrame, rules: list[str], games: int, command: str) -> Optional[dict]:
    """Deals per difficulty label and rule set (a run made with ``stats --difficulty``), else None."""
    from ..fair.difficulty import LABELS

    if not games or "difficulty" not in df.columns:
        return None
    per = {}
    for r in rules:
        sub = df.loc[df["rules"] == r]
        per[r] = {"deals": int(len(sub)), "labels": {lab: int((sub["difficulty"] == lab).sum()) for lab in LABELS},
                  "mean_fair_chance": float(sub["fair_chance"].mean())}
    return {"games": games, "labels": list(LABELS), "rules": per, "command": command}


def _fair_section(fair_dir: str | Path) -> dict:
    """The fair-play section of the fair-stats run ``fair_dir``; :class:`InputError` when it has
    no finished chunk (a report asked for it, and would otherwise leave it out without a word)."""
    from ..errors import InputError

    section = load_fair_section(fair_dir)
    if section is None:
        raise InputError(f"--fair {fair_dir}: no chunk is finished yet, so it has no table to join the report")
    return section


def check_reportable(stats_dir: str | Path, df: pd.DataFrame) -> None:
    """An :class:`InputError` when ``df``, the run's table, has no row: no chunk is finished."""
    from ..errors import InputError

    if df.empty:
        raise InputError(f"{stats_dir}: no chunk is finished yet, so there is nothing to report")


def report_data(stats_dir: str | Path, df: Optional[pd.DataFrame] = None,
                fair_dir: Optional[str | Path] = None) -> dict[str, Any]:
    """Every number of the report for the run in ``stats_dir`` (the ``--json`` output);
    ``fair_dir``, a fair-stats run, adds its fair-play section. An :class:`InputError` when
    no chunk of the run is finished."""
    m = read_manifest(stats_dir)
    spec = CENSUS.from_manifest(m)
    if df is None:
        df = load_results(stats_dir)
    check_reportable(stats_dir, df)
    rules = [r for r in spec.rules if (df["rules"] == r).any()]
    wide = df.pivot(index="deal", columns="rules", values="winnable")
    status = run_status(stats_dir)
    # None where a lost deal's fewest cards left were not searched (--fields winnable): figures
    # from the won deals alone would read "0 cards left, 100% won", and with no deal won there
    # would be none to read
    known = _left_known(df, rules)
    nine, _ = _nine_deal(df, rules, spec, known)
    cards_left = {r: {int(k): int(v) for k, v in df.loc[df["rules"] == r, "best_left"].value_counts().sort_index().items()}
                  if known[r] else None for r in rules}
    app = {}
    for r in rules:
        a = df.loc[df["rules"] == r, "app_score"]
        app[r] = {"mean": float(a.mean()), "median": float(a.median()), "share_350": float((a == 350).mean()),
                  "share_0": float((a == 0).mean())} if known[r] else None
    return {
        "stats_dir": str(stats_dir),
        # every command that made the run, one per line, so an extended run is reproducible
        "command": "\n".join(run_commands(m)),
        "rules": rules,
        # from the rule sets themselves, not the manifest's copy (which only a person reads)
        "rules_described": {r: get_rules(r).describe() for r in m["rules"]},
        "first_deal": spec.start,
        "last_deal": spec.deal(spec.count - 1),
        "stride": spec.stride,
        "covers": spec.covers(),
        "deals": int(df["deal"].nunique()),
        "deals_total": spec.count,
        # deals done under each of the run's rule sets: one added by --extend may have none yet
        "deals_done": {r: int(df.loc[df["rules"] == r, "deal"].nunique()) for r in m["rules"]},
        # what the table really holds: an interrupted run may have gaps
        "deal_numbers": deal_numbers(df["deal"].unique()),
        "deals_text": _deals_text(spec, df["deal"].unique()),
        "complete": status["complete"],
        "being_written": not status["complete"] and being_written(Path(stats_dir)),
        "fair": None if fair_dir is None else _fair_section(fair_dir),
        # every command that made the ratings: the last alone (an --extend) rated only the deals it added
        "difficulty": _difficulty(df, rules, spec.difficulty, "\n".join(run_commands(m))),
        "win_rates": _win_rates(df, rules),
        "paired": _paired(wide, rules),
        "cards_left": cards_left,
        "app_score": app,
        "nine_deal_match": nine,
        "solve_time": _solve_time(df, rules),
    }


# ---------------------------------------------------------------------------
# plots
# ---------------------------------------------------------------------------
def _meaning(name: str, described: str) -> str:
    # Rules.describe() starts with the rule set's name, which the table's first column shows
    return described.removeprefix(f"{name}: ") or name


def deal_numbers(deals: Iterable[int], most: int = 4) -> str:
    """The deal numbers present, as stretches: ``"0..599, 2000..2599"``; with more than ``most``
    stretches, the span and how many stretches (``"0..3999 in 12 stretches"``)."""
    return stretches(deals, most, "..")


def _deals_text(spec: CensusSpec, deals) -> str:
    """The deals a table holds, in words: ``2,000 deals (GO1 deal numbers 0..1999)``, or in
    a run of every k-th deal ``1,000 of 2,000,000 deals spread over the GO1 code space, every
    4,015th from 0``."""
    if spec.stride == 1:
        return (f"{plural(len(deals), 'deal')} (GO1 deal {'number' if len(deals) == 1 else 'numbers'} "
                f"{deal_numbers(deals)})")
    return spec.covers() if len(deals) == spec.count else f"{len(deals):,} of {spec.covers()}"


def footer_head(data: dict) -> str:
    """What every figure shows data of: deals and rules (the report's text says it too)."""
    return f"{data['deals_text']}{'' if data['complete'] else ', run incomplete'}; rules: {', '.join(data['rules'])}"


def footer(data: dict) -> str:
    """The provenance line every figure carries: deals, rules and the command."""
    return figure_footer(footer_head(data), data["command"])


def _finish(fig, data: dict, path: Path) -> Path:
    return save_footed_figure(fig, footer(data), path)


def left_out(data: dict) -> dict[str, str]:
    """The figures of :data:`FIGURES` the report of ``data`` does not draw, each with why (it
    ends "..., as WHY"). Was: an empty frame with a note inside (a --fields winnable run's three,
    a short run's 9-deal match) or a single bar (a run of one deal), each taking a page."""
    out: dict[str, str] = {}
    if max((w["n"] for w in data["win_rates"]), default=0) < MIN_SPREAD:
        for name in ("cards_left.png", "app_score.png", "solve_time.png"):
            out[name] = ("the run has 1 deal per rule set, which has no spread to draw (the table above gives "
                         "its value)")
    if all(c is None for c in data["cards_left"].values()):
        for name in ("cards_left.png", "app_score.png", "nine_deal_match.png"):
            out[name] = "the run computed verdicts only (--fields winnable)"
    elif not any(s is not None and s["matches"] for s in data["nine_deal_match"].values()):
        out["nine_deal_match.png"] = "no rule set has 9 deals in a row of the run (a match is 9 deals)"
    return out


def write_plots(df: pd.DataFrame, data: dict, out: Path, drawn: Optional[Callable[[], Any]] = None) -> list[Path]:
    """Draw the figures of :data:`FIGURES` into ``out``, but those :func:`left_out` names; return
    their paths. ``drawn``: called after each figure is saved or left out (the command's progress bar)."""
    # Imported here, not above: matplotlib costs about a second, and ``report --json`` and
    # the summary need no figure. The object API, not pyplot: no backend is chosen or
    # changed, so a notebook's inline plots keep working, and no display is ever needed.
    import matplotlib
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter

    rules = data["rules"]
    colors = dict(zip(rules, matplotlib.rcParams["axes.prop_cycle"].by_key()["color"] * 3))
    paths: list[Path] = []
    # a figure with nothing to show is not drawn: the report's text says why
    skip = left_out(data)
    known = [r for r in rules if data["cards_left"][r] is not None]

    def finish(fig, name: str) -> None:
        paths.append(_finish(fig, data, out / name))
        if drawn is not None:
            drawn()

    def passed() -> None:  # a figure left out is a step of the progress bar all the same
        if drawn is not None:
            drawn()

    def win_rate(fig, ax) -> None:
        wr = data["win_rates"]
        x = np.arange(len(wr))
        y = np.array([w["rate"] for w in wr]) * 100
        err = np.array([[w["rate"] - w["lo"], w["hi"] - w["rate"]] for w in wr]).T * 100
        ax.bar(x, y, yerr=err, capsize=6, color=[colors[w["rules"]] for w in wr], label="this run")
        for i, w in enumerate(wr):
            ax.annotate(f"{y[i]:.1f}%", (x[i] - 0.2, y[i]), xytext=(0, 4), textcoords="offset points", ha="center",
                        fontsize=8)
            ref = w.get("reference")
            if ref:
                ax.errorbar(x[i] + 0.3, ref["rate"] * 100,
                            yerr=[[100 * (ref["rate"] - ref["lo"])], [100 * (ref["hi"] - ref["rate"])]],
                            fmt="D", color="black", ms=4, capsize=3, label="published (black-hole-solve)" if i == 0 or
                            not any(v.get("reference") for v in wr[:i]) else None)
        ax.set_xticks(x, [w["rules"] for w in wr])
        # names wider than a bar's slot (several rule sets with switches) ran into each other
        renderer = RendererAgg(10, 10, fig.dpi)
        slot = fig.get_figwidth() * fig.dpi * 0.85 / max(1, len(wr))
        if max(label.get_window_extent(renderer).width for label in ax.get_xticklabels()) > slot:
            for label in ax.get_xticklabels():
                label.set(rotation=25, horizontalalignment="right", rotation_mode="anchor")
        ax.set_ylabel("deals winnable (%)")
        # the legend gets a band of its own above 100%: in a corner it hid a bar that reached it
        ax.set_ylim(0, 124)
        ax.set_yticks(np.arange(0, 101, 20))
        ax.legend(fontsize=7, loc="upper center", ncols=2, frameon=False)

    def cards_left(fig, ax) -> None:
        width = 0.8 / max(1, len(rules))
        ks = np.arange(0, 36)
        for i, r in enumerate(rules):
            counts = data["cards_left"][r]
            if counts is None:
                continue
            n = sum(counts.values())
            share = np.array([counts.get(int(k), 0) for k in ks]) / n * 100
            ax.bar(ks + (i - (len(rules) - 1) / 2) * width, share, width=width, color=colors[r], label=r)
        ax.set_xlabel("cards left on the table (0 = won)")
        ax.set_ylabel("share of deals (%)")
        ax.set_xlim(-0.8, max([1] + [max(data["cards_left"][r]) for r in known]) + 0.8)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # cards are counted whole: no tick at 2.5
        ax.legend(fontsize=8)

    def app_score(fig, ax) -> None:
        for r in known:
            n = int((df["rules"] == r).sum())
            ax.hist(df.loc[df["rules"] == r, "app_score"], bins=APP_SCORE_BINS, histtype="step", lw=1.6, color=colors[r],
                    weights=np.full(n, 100 / max(1, n)), label=r)
        ax.set_xlabel("best app score (350 = won)")
        ax.set_ylabel("share of deals (%)")
        ax.legend(fontsize=8, loc="upper left")

    def nine_deal_match(fig, ax) -> None:
        _, totals = _nine_deal(df, rules, CensusSpec(data["first_deal"], data["deals_total"], stride=data["stride"]),
                               {r: data["cards_left"][r] is not None for r in rules})
        hi = max([int(t.max()) for t in totals.values() if len(t)] + [PAR + 5])
        bins = np.arange(-0.5, hi + 1.5, max(1, hi // 40))
        for r in rules:
            t = totals[r]
            if len(t):
                ax.hist(t, bins=bins, histtype="step", lw=1.6, color=colors[r],
                        weights=np.full(len(t), 100 / len(t)), label=f"{r} ({plural(len(t), 'match', 'matches')})")
        ax.axvline(PAR, color="black", ls="--", lw=1)
        ax.annotate("par 45", (PAR, ax.get_ylim()[1] * 0.95), xytext=(3, 0), textcoords="offset points", fontsize=8)
        ax.set_xlabel("cards left summed over 9 consecutive deals (lower is better)")
        ax.set_ylabel("share of matches (%)")
        ax.legend(fontsize=8)

    def solve_time(fig, ax) -> None:
        s = df["seconds"].to_numpy() * 1000
        lo = max(1e-3, float(s[s > 0].min()) if (s > 0).any() else 1e-3)
        bins = np.logspace(np.log10(lo), np.log10(max(lo * 10, float(s.max()))), 40)
        for r in rules:
            ms = df.loc[df["rules"] == r, "seconds"].to_numpy() * 1000
            # the median the table shows: of the times, not of the times clipped to the axis
            ax.hist(np.clip(ms, lo, None), bins=bins, histtype="step", lw=1.6, color=colors[r],
                    label=f"{r} (median {_ms(data['solve_time'][r]['median_ms'], 2)} ms)")
        ax.set_xscale("log")
        # plain numbers of ms; over less than two decades the labelled ticks are 1, 2 and 5 of each
        # decade (matplotlib's own labels of the minor ticks, "3x10^-2" and "4x10^-2", overlapped)
        plain = FuncFormatter(lambda v, _: f"{v:g}")
        ax.xaxis.set_major_formatter(plain)
        if bins[-1] / bins[0] < 100:
            ax.xaxis.set_minor_locator(LogLocator(subs=(2.0, 5.0)))
            ax.xaxis.set_minor_formatter(plain)
        else:
            ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("solve time per deal (ms, log scale)")
        ax.set_ylabel("deals")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # deals are counted whole: no tick at 0.5
        ax.legend(fontsize=8, loc="best")

    for name, draw in (("win_rate.png", win_rate), ("cards_left.png", cards_left), ("app_score.png", app_score),
                       ("nine_deal_match.png", nine_deal_match), ("solve_time.png", solve_time)):
        if name in skip:
            passed()
            continue
        fig = Figure(figsize=(7, 4.2))
        ax = fig.subplots()
        draw(fig, ax)
        ax.set_title(FIGURES[name])
        finish(fig, name)
    return paths


# ---------------------------------------------------------------------------
# text: one list of blocks, rendered to Markdown and to HTML
# ---------------------------------------------------------------------------
def _pct(p: float) -> str:
    return f"{100 * p:.2f}%"


def _p(p: float) -> str:
    return "< 1e-300" if p == 0 else (f"{p:.2g}" if p < 0.001 else f"{p:.3f}")


def _median(x: float) -> str:
    """A median of whole numbers: whole, or halfway between two ("46.5"; was "46", rounded half to even)."""
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


def _ms(x: Optional[float], decimals: Optional[int] = None) -> str:
    # to its size: "0.43", "12.5", "1,234" (one fixed format shows 0.4 ms as "0 ms" beside 0.23 ms)
    if x is None or not math.isfinite(x):
        return "—"
    if 0 < x < 0.1:  # two significant digits: a 4.6-microsecond solve read "0.00 ms"
        return f"{x:.{1 - math.floor(math.log10(x))}f}"
    if decimals is not None:  # the median and mean columns, two decimals from 0.1 ms up
        return f"{x:.{decimals}f}"
    return f"{x:.2f}" if x < 10 else f"{x:.1f}" if x < 100 else f"{x:,.0f}"


def _solve_time_rows(solve_time: dict) -> list[list[str]]:
    """The rows of the report's solve-time table; "—" for what is not known (no deal won, no CPU time)."""
    rows = []
    for r, t in solve_time.items():
        per_core = t["deals_per_second_per_core"]
        rows.append([r, f"{_ms(t['median_ms'], 2)} ms", f"{_ms(t['mean_ms'], 2)} ms", f"{_ms(t['p99_ms'])} ms",
                     f"{_ms(t['max_ms'])} ms", f"{_ms(t['median_ms_won'])} / {_ms(t['median_ms_lost'])} ms",
                     f"{per_core:.0f}" if per_core is not None and math.isfinite(per_core) else "—"])
    return rows


def incomplete_text(data: dict, its: Optional[str] = None) -> str:
    """What an incomplete run has done, per rule set when they differ (was "2 of 2 deals" for
    a run extended with a rule set not solved yet): with ``its`` (the run's deals, described)
    the report's sentence, else the command's short form."""
    done = data["deals_done"]
    total = plural(data["deals_total"], "deal")
    if len(set(done.values())) <= 1:
        return f"{data['deals']:,} of its {its} are done" if its else f"{data['deals']:,} of {total}"
    each = ", ".join(f"{r} {n:,} of {data['deals_total']:,}" for r, n in done.items())
    return f"of its {its}, {each} are done" if its else f"deals done: {each}"


def finishing(data: dict) -> str:
    """What finishes the incomplete run of the report ``data``: its ``--resume``, or the
    command playing it now."""
    return how_to_finish({"format": STATS}, data["stats_dir"], data.get("being_written", False))


def _blocks(data: dict) -> list[tuple]:
    """The report as ("h1"|"h2"|"p"|"table"|"img"|"code", ...) blocks."""
    b: list[tuple] = [("h1", "Golf solitaire win-rate statistics")]
    about = footer_head(data)
    skip = left_out(data)

    def figure(name: str) -> tuple:
        return ("nofig", FIGURES[name], skip[name]) if name in skip else ("img", name, FIGURES[name], about)

    unknown = [r for r in data["rules"] if data["cards_left"][r] is None]
    none_known = len(unknown) == len(data["rules"])
    b.append(("p", f"{data['deals_text']}, each solved exactly under {plural(len(data['rules']), 'rule set')}; "
                   "every number is for perfect play with the whole stock known (the solver's verdict)."))
    if unknown:
        # said once, first: the sections below otherwise read as a report whose numbers went missing
        b.append(("p", f"**Verdicts only{'' if none_known else ' for ' + ', '.join(unknown)}**: "
                       f"{NOT_SEARCHED}. So this report gives the win rates and solve times"
                       + (", but no cards left, app score or 9-deal match totals." if none_known else
                          "; cards left, app score and 9-deal match totals only for the other rule sets.")))
    if not data["complete"]:
        its = (f"{plural(data['deals_total'], 'deal')} (deal numbers {data['first_deal']}..{data['last_deal']})"
               if data["stride"] == 1 else data["covers"])
        b.append(("p", f"**The run is incomplete**: {incomplete_text(data, its)}; {finishing(data)}."))
    b.append(("p", "Made by:"))
    b.append(("code", data["command"] or "(command not recorded)"))
    b.append(("table", ["rules", "meaning"], [[r, _meaning(r, data["rules_described"].get(r, ""))]
                                              for r in data["rules"]], "The run's rule sets"))

    b.append(("h2", "Win rate per rule set"))
    rows = []
    for w in data["win_rates"]:
        ref = w.get("reference")
        refs = (f"{estimate(ref['rate'], ref['lo'], ref['hi'], '.2f', percent=True)} {ref['name']}, "
                f"{'consistent' if ref['consistent'] else 'NOT consistent'}" if ref else "none (see below)"
                if _is_strict(w["rules"]) else "—")
        rows.append([w["rules"], f"{w['n']:,}", f"{w['wins']:,}", estimate(w['rate'], w['lo'], w['hi'], '.2f', percent=True),
                     refs])
    b.append(("table", ["rules", "deals", "won", "win rate [95% Wilson]", "published (n = 3,996 PySol deals)"], rows))
    b.append(("p", "Published figures: black-hole-solve 1.14.0 on PySol FC deals 1..3996 (about 93% wrap, 45% "
                   "Queen-on-King, 26% nothing-on-King, all with drawing any time). A different set of random "
                   "deals, so the rates agree when the intervals overlap."
                   + (" golfsolve's **Strict** rule draws only when no card can be removed, which no published "
                      "figure covers; its rate is below Dead King's (nothing on a King, draw any time)."
                      if any(_is_strict(r) for r in data["rules"]) else "")))
    b.append(figure("win_rate.png"))

    if data["paired"]:
        b.append(("h2", "The same deals under two rule sets"))
        rows = [[f"{p['a']} vs {p['b']}", f"{p['n']:,}", f"{p['both']:,}", f"{p['only_a']:,}", f"{p['only_b']:,}",
                 f"{p['neither']:,}", f"{p['statistic']:.1f}", _p(p["p_exact"])] for p in data["paired"]]
        b.append(("table", ["pair (a vs b)", "deals", "won under both", "only a", "only b", "neither",
                            "McNemar chi²", "p (exact)"], rows))
        b.append(("p", "McNemar's test uses only the deals the two rule sets disagree on (only a, only b); the "
                       "chi-square is continuity-corrected, the p-value is the exact two-sided binomial one. "
                       + _nesting_note(data["paired"])))

    not_searched = f"— : not known for {', '.join(unknown)}: {NOT_SEARCHED}"
    b.append(("h2", "Cards left under perfect play"))
    rows = []
    for r in data["rules"]:
        c = data["cards_left"][r]
        if c is None:
            rows.append([r, "—", "—", "—", "—"])
            continue
        n = sum(c.values())
        mean = sum(k * v for k, v in c.items()) / n
        rows.append([r, f"{mean:.2f}", _pct(c.get(0, 0) / n), _pct(sum(v for k, v in c.items() if k <= 5) / n),
                     str(max(c))])
    if not none_known:  # a table of dashes alone said nothing the sentence below does not
        b.append(("table", ["rules", "mean cards left", "0 left (won)", "5 or fewer", "worst"], rows))
    if unknown:
        b.append(("p", (f"Not known: {NOT_SEARCHED}" if none_known else not_searched) + "."))
    b.append(figure("cards_left.png"))

    b.append(("h2", "App score"))
    if not none_known:
        b.append(("table", ["rules", "mean", "median", "350 (won)", "0"],
                  [[r, f"{a['mean']:.1f}", _median(a["median"]), _pct(a["share_350"]), _pct(a["share_0"])]
                   if a is not None else [r, "—", "—", "—", "—"] for r, a in data["app_score"].items()]))
    b.append(("p", "+10 per card removed; a locked game loses 10 per card left, never below 0; a win scores 350."
                   + ((" Not known: it needs a lost deal's fewest cards left." if none_known else f" {not_searched}.")
                      if unknown else "")))
    b.append(figure("app_score.png"))

    b.append(("h2", "Traditional 9-deal match"))
    nine = ("deal numbers first+9k .. first+9k+8" if data["stride"] == 1 else
            f"the run's deals 9k .. 9k+8, deal numbers {data['stride']:,} apart")
    b.append(("p", f"Cards left summed over 9 consecutive deals ({nine}), perfect "
                   "play; par is 45, lower is better."))
    if not none_known:
        b.append(("table", ["rules", "matches", "mean", "median", "best", "worst", "at or under par"],
                  [[r, str(s["matches"]), f"{s['mean']:.1f}", _median(s["median"]), str(s["min"]), str(s["max"]),
                    _pct(s["at_or_under_par"])] if s is not None and s["matches"] else
                   [r, "—" if s is None else "0", "—", "—", "—", "—", "—"]
                   for r, s in data["nine_deal_match"].items()]))
    if any(s is not None and not s["matches"] for s in data["nine_deal_match"].values()):
        b.append(("p", "0 matches: the table holds no 9 deals in a row of the run (a match is 9 deals)."))
    if unknown:
        b.append(("p", ("Not known: the totals need a lost deal's fewest cards left." if none_known else
                        not_searched + ".")))
    b.append(figure("nine_deal_match.png"))

    b.append(("h2", "Solve time"))
    b.append(("table", ["rules", "median", "mean", "99th pct", "worst", "median won / lost", "deals/s per core"],
              _solve_time_rows(data["solve_time"])))
    b.append(("p", "Times are the wall time of each solve inside a worker (one process per core); deals/s per "
                   "core = solves / their summed CPU time, which other programs on a shared machine do not "
                   "inflate." + _no_median_note(data["solve_time"])))
    b.append(figure("solve_time.png"))
    diff = data.get("difficulty")
    if diff:
        from ..fair.difficulty import BANDS

        bands = ", ".join(f"{name} from {100 * low:.0f}%" for name, low in BANDS)
        b.append(("h2", "Difficulty"))
        b.append(("p", f"Each deal's label under each rule set, as `golfsolve rate --games {diff['games']}` gives it "
                       f"(seed 0): the search fair player's win rate over {plural(diff['games'], 'stock order')} "
                       f"consistent with the opening, labelled by bands ({bands}). {data['deals_text']}; "
                       f"{_commands_text(diff['command'])}. "
                       f"With {plural(diff['games'], 'game')} a chance has a wide interval, so a deal near a band "
                       "edge can fall either side."))
        rows = []
        for r, d in diff["rules"].items():
            n = d["deals"]
            rows.append([r, f"{n:,}"] + [f"{d['labels'][lab]:,} ({_pct(d['labels'][lab] / n)})" for lab in diff["labels"]]
                        + [_pct(d["mean_fair_chance"])])
        b.append(("table", ["rules", "deals"] + diff["labels"] + ["mean fair chance"], rows))
    fair = data.get("fair")
    if fair:  # written into this directory by 'golfsolve fair-stats --out DIR'
        b.append(("h2", fair["title"]))
        b.append(("p", fair["intro"]))
        b.append(("table", fair["head"], fair["rows"]))
    return b


def _no_median_note(solve_time: dict) -> str:
    """Why a "median won / lost" cell is "—" (no deal won, or none lost, under its rule set):
    "— / 0.70 ms" said nothing of it."""
    none_won = [r for r, t in solve_time.items() if t["median_ms_won"] is None]
    none_lost = [r for r, t in solve_time.items() if t["median_ms_lost"] is None]
    parts = ([f"no deal was won under {', '.join(none_won)}"] if none_won else []) + \
            ([f"none was lost under {', '.join(none_lost)}"] if none_lost else [])
    return f" In \"median won / lost\", — is a median of no deal: {' and '.join(parts)}." if parts else ""


def _commands_text(commands: str) -> str:
    """``command: `...` `` for one command, ``commands: `...`, then `...` `` for a run made by several."""
    lines = commands.splitlines() or ["(command not recorded)"]
    return (f"command{'s' if len(lines) > 1 else ''}: " + ", then ".join(f"`{c}`" for c in lines))


def _nesting_note(paired: list[dict]) -> str:
    """Which pairs must have an 'only' count of 0: those where one rule set is stricter on the
    same cards (a deal it wins the other wins). Jokers or an empty start deal other cards, and
    a looser name alone promises nothing (easy against strict+empty: other cards)."""
    nested = [f"{p['a']} vs {p['b']} (only {'b' if p['stricter'] == p['b'] else 'a'})" for p in paired
              if p.get("stricter")]
    rest = len(paired) - len(nested)
    if not nested:
        return ("No pair here has one rule set stricter than the other on the same cards (other jokers or another "
                "start deal other cards), so either 'only' count may be above 0.")
    text = ("A deal won under the stricter of two rule sets on the same cards is won under the other, so these "
            f"counts are 0: {', '.join(nested)}.")
    if rest:
        text += (f" The other {plural(rest, 'pair')} {'has' if rest == 1 else 'have'} no stricter side (other jokers, "
                 "another start, or rules that differ both ways), so either count may be above 0.")
    return text


def render_markdown(data: dict) -> str:
    """The report as Markdown; images are the PNG files beside it."""
    return blocks_markdown(_blocks(data))


def blocks_markdown(blocks: list[tuple]) -> str:
    """Report blocks (``("h1"|"h2"|"p"|"code", text)``, ``("table", head, rows)``,
    ``("img", file, caption[, about])``, ``about`` the data it shows, ``("nofig", caption, why)``,
    a figure the data cannot fill) as Markdown; images are the PNG files beside it."""
    lines: list[str] = []
    made = any(blk[0] == "code" for blk in blocks)
    for blk in blocks:
        kind = blk[0]
        if kind == "h1":
            lines += [f"# {blk[1]}", ""]
        elif kind == "h2":
            lines += [f"## {blk[1]}", ""]
        elif kind == "p":
            lines += [blk[1], ""]
        elif kind == "code":
            lines += ["```sh", blk[1], "```", ""]
        elif kind == "table":
            head, rows = blk[1], blk[2]
            lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
            lines += ["| " + " | ".join(r) + " |" for r in rows] + [""]
        elif kind == "img":
            lines += [f"![{_figure_alt(blk)}]({blk[1]})", "", f"*{_figure_caption(blk, made)}*", ""]
        elif kind == "nofig":
            lines += [f"*{_no_figure(blk)}*", ""]
    return "\n".join(lines)


def _no_figure(blk: tuple) -> str:
    """A figure left out, in words: ``("nofig", title, why)``, ``why`` ending "..., as WHY"."""
    return f"{blk[1]}: no figure, as {blk[2]}."


def _figure_alt(blk: tuple) -> str:
    """An image block's text alternative: its title and the data it shows (the title alone
    did not say of which deals or rules)."""
    return f"{blk[2]}: {blk[3]}" if len(blk) > 3 and blk[3] else blk[2]


def _figure_caption(blk: tuple, made: bool) -> str:
    """An image block's caption in the text: what it shows, of which data, and how it was made
    (the deals, rules and command were only in the PNG's footer, which a screen reader, a
    search and a copy of the text do not read)."""
    return _figure_alt(blk) + ("; made by the command under \"Made by\" above." if made else ".")


def _inline_md(text: str) -> str:
    # The blocks use only **bold** and `code` (a command, a rule spec, an option), which the
    # Markdown shows as code: the HTML showed the backticks themselves. Escape everything else.
    parts = html.escape(text).split("**")
    bold = "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(parts))
    if bold.count("`") % 2:  # a lone backtick is text, not the start of code
        return bold
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(bold.split("`")))


def render_html(data: dict, out: Path) -> str:
    """The report as one HTML page with the PNG plots embedded as data URIs."""
    return blocks_html(_blocks(data), out, "Golf solitaire win-rate statistics")


def blocks_html(blocks: list[tuple], out: Path, title: str) -> str:
    """Report blocks (as :func:`blocks_markdown` takes them) as one HTML page titled
    ``title``, with the PNG files in ``out`` embedded as data URIs."""
    body: list[str] = []
    made = any(blk[0] == "code" for blk in blocks)
    section = title
    for blk in blocks:
        kind = blk[0]
        if kind in ("h1", "h2"):
            section = blk[1]
            body.append(f"<{kind}>{html.escape(blk[1])}</{kind}>")
        elif kind == "p":
            body.append(f"<p>{_inline_md(blk[1])}</p>")
        elif kind == "code":
            # a long command scrolls in a box the keyboard can reach; wrapped, it broke after a
            # "--" and read as another command
            body.append(f'<pre tabindex="0" aria-label="command"><code>{html.escape(blk[1])}</code></pre>')
        elif kind == "table":
            # a caption names the table to a screen reader's table list; the section's heading
            # unless the block gives one. Each row's first cell is its header (a rule set, a bot)
            caption = html.escape(blk[3] if len(blk) > 3 and blk[3] else section)
            head = "".join(f'<th scope="col">{html.escape(h)}</th>' for h in blk[1])
            rows = "".join("<tr>" + "".join(f'<th scope="row">{_inline_md(c)}</th>' if i == 0 else
                                            f"<td>{_inline_md(c)}</td>" for i, c in enumerate(r)) + "</tr>"
                           for r in blk[2])
            # a wide table scrolls in its own box, which the keyboard can reach and scroll: on a
            # phone it pushed the whole page sideways
            body.append(f'<div class="wide" role="region" tabindex="0" aria-label="{caption}">'
                        f"<table><caption>{caption}</caption><thead><tr>{head}</tr></thead>"
                        f"<tbody>{rows}</tbody></table></div>")
        elif kind == "img":
            png = base64.b64encode((out / blk[1]).read_bytes()).decode("ascii")
            body.append(f'<figure><img alt="{html.escape(_figure_alt(blk))}" src="data:image/png;base64,{png}">'
                        f"<figcaption>{html.escape(_figure_caption(blk, made))}</figcaption></figure>")
        elif kind == "nofig":
            body.append(f'<p class="nofig">{_inline_md(_no_figure(blk))}</p>')
    style = ("body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}"
             ".wide{overflow-x:auto;margin:1rem 0}table{border-collapse:collapse}"
             "caption{text-align:left;font-weight:600;padding:.25rem 0}td,th{border:1px solid #ccc;"
             "padding:.25rem .5rem;text-align:left;vertical-align:top}thead th{background:#f3f3f3}"
             "tbody th{font-weight:normal}"
             "pre{background:#f6f6f6;padding:.5rem;overflow-x:auto}"
             "img{max-width:100%;height:auto}figure{margin:1rem 0}figcaption,.nofig{font-size:.9rem;color:#555}"
             "@media print{body{max-width:none;margin:0;padding:0;font-size:10pt}.wide{overflow:visible}"
             "pre{white-space:pre-wrap;overflow-wrap:anywhere}"
             "figure,tr,pre{break-inside:avoid}h1,h2,caption{break-after:avoid}"
             "img{max-height:45vh;width:auto}}")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)}</title>"
            f"<style>{style}</style></head><body><main>\n" + "\n".join(body) + "\n</main></body></html>\n")


def write_report(stats_dir: str | Path, out: str | Path, fair_dir: Optional[str | Path] = None,
                 df: Optional[pd.DataFrame] = None, drawn: Optional[Callable[[], Any]] = None) -> dict[str, Any]:
    """Write ``report.md``, ``report.html`` and the PNG plots for the run in ``stats_dir``
    (with the fair-play section of the fair-stats run ``fair_dir``, if given) into ``out``;
    return :func:`report_data`'s numbers. ``df``: the run's table if already read
    (:func:`load_results`); ``drawn``: called after each figure, as :func:`write_plots` does."""
    from .reportfolder import finish_report, start_report
    from .atomic import write_text_atomic

    # checked before the report folder is made: a bad argument found later leaves a half-made folder
    expect(df, (pd.DataFrame, type(None)), "df", "the run's table, e.g. load_results(DIR), or None")
    callback(drawn, "drawn", "called after each figure")
    out = Path(out)
    if df is None:
        df = load_results(stats_dir)
    data = report_data(stats_dir, df, fair_dir)  # refuses a run with no finished chunk
    start_report(out, stats_dir, plots=list(FIGURES))
    plots = write_plots(df, data, out, drawn)
    write_text_atomic(out / "report.md", render_markdown(data))
    write_text_atomic(out / "report.html", render_html(data, out))
    finish_report(out, [d.name for d in plots])
    return data
