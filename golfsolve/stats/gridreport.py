"""Reports on a grid Golf tournament (a ``grid simulate`` run): numbers, PNG plots, Markdown
and self-contained HTML, as the solitaire report (:mod:`golfsolve.stats.report`) makes them.

:func:`report_data` computes every number from the tournament's running totals
(:class:`~golfsolve.grid.tally.Tally`; it is also the ``--json`` output); :func:`write_plots`
draws the figures; :func:`write_report` writes ``report.md`` (which links the PNG files
beside it) and ``report.html`` (which embeds them). Every figure carries a footer with the
matches, the bots and the command that produced the data.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

import numpy as np

from ..grid.botnames import NOT_RECORDED, describe_settings
from ..grid.rules import GridRules
from ..grid.tally import Tally
from ..grid.tournament import OLD_SEATING, PLAYED_SEATINGS, Tournament, seating_described
from ..inputs import callback, expect, whole_count
from ..text import estimate, interval, plural
from .atomic import figure_footer, save_footed_figure
from .runlock import BEING_WRITTEN

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FIGURES = {
    "strokes.png": "Mean strokes per hole, 95% intervals",
    "distribution.png": "Strokes per hole, share of each bot's holes",
    "wins.png": "Matches won per seat (shared wins split), 95% Wilson intervals over matches",
    "neighbours.png": "Neighbour effect: strokes per hole after each bot, less the bot's mean, 95% intervals",
}

#: What the neighbour figure says when every bot played after one kind of bot only.
NO_NEIGHBOUR_CONTRAST = ("Every bot played after one kind of bot only (two players, or one bot at every seat),\n"
                         "so there is no neighbour effect to compare: the table gives its strokes per hole")


def _tally(t: Union[Tournament, Tally]) -> Tally:
    expect(t, (Tournament, Tally), "t", "a Tournament or Tally, e.g. load_tournament(DIR)")
    return t if isinstance(t, Tally) else t.tally()


def _clean(x: Any) -> Any:
    """Plain JSON values: numpy numbers as Python ones, NaN as None."""
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_clean(v) for v in x]
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and x != x:
        return None
    return x


def report_data(t: Union[Tournament, Tally], command: str = "", planned: Optional[int] = None,
                writing: bool = False) -> dict[str, Any]:
    """Everything the report shows, as plain values (the ``--json`` output). ``command``: the
    command that made the run; ``planned``: the matches an unfinished run asks for (None once
    it is complete, and without a run folder); ``writing``: another command is playing the
    run now (:func:`~.runlock.being_written`)."""
    tally = _tally(t)
    expect(command, str, "command", "the command line the report shows, or ''")
    if planned is not None:
        whole_count(planned, "planned", 1, 2**63 - 1)
    kinds = len(tally.names)
    settings = tally.bot_settings
    bots = tally.bot_summary().to_dict(orient="records")
    for r in bots:  # each bot's full settings beside its numbers (None: the run did not record them)
        r["settings"] = None if settings is None else settings.get(r["bot"])
    return _clean({
        "meta": tally.meta(),
        "command": command,
        "holes_played": tally.holes_played,
        "bots": bots,
        "differences": tally.differences(),
        "neighbours": tally.neighbour_effect().to_dict(orient="records"),
        # Beside the pairwise differences, one scale for every bot once there are three or more.
        "ratings": tally.ratings() if kinds > 2 else [],
        "end_reasons": dict(sorted(tally.end_reasons.items(), key=lambda kv: -kv[1])),
        "strokes_hist": {b: {str(k): v for k, v in sorted(c.items())} for b, c in tally.strokes_hist.items()},
        "planned_matches": planned,
        "being_written": bool(writing) and planned is not None,
    })


def footer_head(data: dict) -> str:
    """What every figure shows data of: matches, holes, rules, bots and seed (the rules were
    missing: a figure of a 'default+putt' run read as one of the default table)."""
    meta = data["meta"]
    return (f"{plural(meta['matches'], 'match', 'matches')}, {plural(data['holes_played'], 'hole')}; rules "
            f"{meta['rules_spec']}; bots {', '.join(meta['bots'])}; seed {meta['seed']}; {meta['seating']} seating")


def footer(data: dict) -> str:
    """The provenance line every figure carries: matches, holes, rules, bots and the command."""
    return figure_footer(footer_head(data), data.get("command"))


def _finish(fig: Figure, data: dict, path: Path) -> Path:
    return save_footed_figure(fig, footer(data), path)


def _bars(ax, labels, y, lo, hi, color, scale=1.0) -> None:
    y, lo, hi = (np.asarray(v, dtype=float) * scale for v in (y, lo, hi))
    err = np.vstack([np.nan_to_num(y - lo), np.nan_to_num(hi - y)])
    ax.bar(labels, y, yerr=err, capsize=6, color=color)


def write_plots(data: dict, out: Path, drawn: Optional[Callable[[], Any]] = None) -> list[Path]:
    """Draw the figures of :data:`FIGURES` into ``out``; return their paths. ``drawn``: called
    after each figure is saved (the command's progress bar)."""
    # Imported here, not above: matplotlib costs about a second, and ``grid report --json``
    # needs no figure. The object API, not pyplot: no backend is chosen or changed, and no
    # display is needed.
    import matplotlib
    from matplotlib.figure import Figure

    bots = data["bots"]
    names = [b["bot"] for b in bots]
    paths: list[Path] = []

    def finish(fig, name: str) -> None:
        paths.append(_finish(fig, data, out / name))
        if drawn is not None:
            drawn()

    fig = Figure(figsize=(7, 4.2))
    ax = fig.subplots()
    _bars(ax, names, [b["strokes_per_hole"] for b in bots], [b["hole_lo"] for b in bots],
          [b["hole_hi"] for b in bots], "#4c72b0")
    ax.set_ylabel("strokes per hole (lower is better)")
    ax.set_title(FIGURES["strokes.png"])
    finish(fig, "strokes.png")

    fig = Figure(figsize=(7, 4.2))
    ax = fig.subplots()
    for bot in names:
        hist = {int(k): v for k, v in data["strokes_hist"].get(bot, {}).items()}
        if not hist:
            continue
        xs = np.arange(min(hist), max(hist) + 1)
        total = sum(hist.values())
        ax.step(xs, [100 * hist.get(int(x), 0) / total for x in xs], where="mid", label=bot)
    ax.set_xlabel("strokes in a hole")
    ax.set_ylabel("% of the bot's holes")  # in %, as the win-rate figure is
    ax.set_title(FIGURES["distribution.png"])
    ax.legend()
    finish(fig, "distribution.png")

    fig = Figure(figsize=(7, 4.2))
    ax = fig.subplots()
    _bars(ax, names, [b["win_rate"] for b in bots], [b["win_lo"] for b in bots], [b["win_hi"] for b in bots],
          "#55a868", scale=100)
    ax.set_ylabel("matches won per seat (%)")
    ax.set_ylim(0, 100)
    ax.set_title(FIGURES["wins.png"])
    finish(fig, "wins.png")

    fig = Figure(figsize=(7, 4.2))
    ax = fig.subplots()
    rows = data["neighbours"]
    mean = {b["bot"]: b["strokes_per_hole"] for b in bots}
    befores = [b for b in names if any(r["before_bot"] == b for r in rows)]
    colours = dict(zip(befores, matplotlib.rcParams["axes.prop_cycle"].by_key()["color"] * 3))
    after = {bot: [r for r in rows if r["bot"] == bot] for bot in names}
    # A bot seated after one kind of bot only (two players; one bot at every seat; the lone
    # bot among copies of another) is at its own mean there by definition: a bar of exactly 0
    # with an interval would read as a measured "no effect".
    compared = [bot for bot in names if len(after[bot]) > 1]
    width = 0.8 / max([1] + [len(after[bot]) for bot in compared])
    labelled: set[str] = set()
    tops = [0.0]
    for j, bot in enumerate(names):
        if bot not in compared:
            continue
        mine = sorted(after[bot], key=lambda r: befores.index(r["before_bot"]))
        for i, r in enumerate(mine):
            # centred on the bot's own label: slots kept for every neighbour left gaps where a
            # bot never sits after itself, and its bars off its name
            y = r["strokes_per_hole"] - mean[bot]
            lo = y if r["lo"] is None else r["lo"] - mean[bot]
            hi = y if r["hi"] is None else r["hi"] - mean[bot]
            before = r["before_bot"]
            ax.bar(j + (i - (len(mine) - 1) / 2) * width, y, width, yerr=[[y - lo], [hi - y]], capsize=3,
                   color=colours[before], label=None if before in labelled else f"after {before}")
            labelled.add(before)
            tops += [abs(lo), abs(hi)]
    ax.set_xticks(np.arange(len(names)), names)
    ax.set_xlim(-0.6, len(names) - 0.4)
    ax.set_ylabel("strokes per hole − the bot's mean")
    ax.set_title("Neighbour effect, 95% intervals")
    if compared:
        ax.axhline(0, color="#444444", linewidth=0.8)
        # the legend gets a band of its own above the bars: in a corner it covered an interval
        top = max(tops) or 1.0
        ax.set_ylim(-1.1 * top, 1.1 * top + 0.45 * top * (1 + (len(labelled) - 1) // 4))
        handles = sorted(zip(*ax.get_legend_handles_labels()), key=lambda hl: befores.index(hl[1].removeprefix("after ")))
        ax.legend(*zip(*handles), fontsize=7, loc="upper center", ncols=min(4, len(labelled)), frameon=False)
        for j, bot in enumerate(names):
            if bot not in compared:
                ax.text(j, 0, "one neighbour only:\nnothing to compare", ha="center", va="center", fontsize=7,
                        color="#444444")
    else:
        ax.set_yticks([])
        ax.text(0.5, 0.5, NO_NEIGHBOUR_CONTRAST, transform=ax.transAxes, ha="center", va="center", fontsize=10,
                color="#444444", wrap=True)
    finish(fig, "neighbours.png")
    return paths


#: How a win rate known exactly is shown in place of its interval.
EXACT_WINS = "(exact: one bot at every seat)"


def _win(r: dict, fmt: str = ".1f") -> str:
    """A bot's win rate, ``50.0% [18.8, 81.2]``, or exact: one bot at every seat wins every match."""
    if r["win_rate"] is not None and r["win_lo"] is not None and r["win_lo"] == r["win_hi"]:
        return f"{100 * r['win_rate']:{fmt}}% {EXACT_WINS}"
    return _ci(r["win_rate"], r["win_lo"], r["win_hi"], pct=True)


def _ci(m: Optional[float], lo: Optional[float], hi: Optional[float], pct: bool = False, sign: bool = False) -> str:
    if m is None:
        return "—"
    fmt = ".1f" if pct else "+.2f" if sign else ".2f"
    if lo is None or hi is None:
        return f"{100 * m:.1f}%" if pct else f"{m:{fmt}}"
    return estimate(m, lo, hi, fmt, percent=pct)


def same_every_match(d: dict) -> str:
    """What a paired difference whose every match gave the same value says instead of an
    interval (''  for any other): a t interval of such data has no width, and a zero-width
    interval would call the two bots' order certain ("excludes 0") on no evidence of spread."""
    if not d.get("same_every_match"):
        return ""
    n = plural(d["matches"], "match", "matches")
    if d["diff"] == 0:
        return f"no difference in any of these {n}"
    return f"the same difference in every one of these {n}"


def _difference(d: dict) -> str:
    """A paired difference with its interval, or what stands in for one."""
    same = same_every_match(d)
    if same:
        return f"{d['diff']:+.2f} ({same}: no interval)"
    return _ci(d["diff"], d["lo"], d["hi"], sign=True)


def _excludes_zero(d: dict) -> str:
    if d.get("same_every_match"):
        return "no interval"
    return "yes" if d["significant"] else "no"


def _blocks(data: dict) -> list[tuple]:
    """The report as ("h1"|"h2"|"p"|"code", text), ("table", head, rows), ("img", file, caption) blocks."""
    from ..grid.rules import GridRules

    meta = data["meta"]
    rules = GridRules(**meta["rules"])
    b: list[tuple] = [("h1", "Grid Golf tournament report")]
    about = footer_head(data)
    samples = f" (Monte Carlo samples: {meta['mc_samples']})" if meta.get("mc_samples") else ""
    b.append(("p", f"Rules: {rules.describe()} (`{meta['rules_spec']}`). Bots by entry: {', '.join(meta['bots'])}"
                   f"{samples}. {plural(meta['matches'], 'match', 'matches')}, "
                   f"{plural(data['holes_played'], 'hole')}, seed {meta['seed']}."))
    if data.get("planned_matches"):
        b.append(("p", f"**The run is unfinished**: {incomplete_note(data)}."))
    scheme = meta.get("seating") or OLD_SEATING
    if scheme in PLAYED_SEATINGS:
        b.append(("p", f"{seating_described(scheme)}; the first player moves one seat every hole. Intervals are 95%, "
                       "taken over matches (the holes of one match share a table); win rates have Wilson intervals "
                       "over matches (a bot's share of each match's win over its seats is one value)."))
    else:
        b.append(("p", f"**{seating_described(scheme)}**, and the comparisons below are confounded with that. "
                       "Intervals are 95%."))
    if data.get("command"):
        b.append(("p", "Made by:"))
        b.append(("code", data["command"]))
    # the intervals labelled as the later tables' are (the first table's columns gave no level)
    b.append(("table", ["bot", "seats", "player-holes", "strokes per hole [95%]", "strokes per match [95%]",
                        "win rate [95% Wilson]"],
              [[r["bot"], str(r["seats"]), f"{r['holes']:,}", _ci(r["strokes_per_hole"], r["hole_lo"], r["hole_hi"]),
                _ci(r["strokes_per_match"], r["match_lo"], r["match_hi"]),
                _win(r)] for r in data["bots"]], "Strokes and wins per bot"))
    b.append(("img", "strokes.png", FIGURES["strokes.png"], about))
    b.append(("img", "wins.png", FIGURES["wins.png"], about))
    b.append(("h2", "Bots' settings"))
    b.append(("p", settings_note(meta)))
    if meta.get("bot_settings") is not None:
        b.append(("table", ["bot", "settings"], [[name, describe_settings(s)] for name, s in bot_settings_of(meta)]))
    if data["differences"]:
        b.append(("h2", "Paired differences (same tables)"))
        b.append(("table", ["comparison", "strokes per hole [95%]", "matches", "excludes 0"],
                  [[f"{d['a']} − {d['b']}", _difference(d), f"{d['matches']:,}", _excludes_zero(d)]
                   for d in data["differences"]]))
        b.append(("p", "Each match gives one value: the mean strokes per hole of bot a minus that of bot b at that "
                       "table; negative means a scores lower (better)."))
    if data["neighbours"]:
        b.append(("h2", "Neighbour effect"))
        b.append(("p", "Strokes per hole of each bot by the bot playing just before it (whose discards it can "
                       "take). Each match gives one value: the bot's mean over its seats after that neighbour there."))
        b.append(("table", ["bot", "after", "matches", "strokes per hole [95%]"],
                  [[r["bot"], r["before_bot"], f"{r['matches']:,}", _ci(r["strokes_per_hole"], r["lo"], r["hi"])]
                   for r in data["neighbours"]]))
        b.append(("img", "neighbours.png", FIGURES["neighbours.png"], about))
    if data.get("ratings"):
        b.append(("h2", "Ratings"))
        b.append(("p", "openskill Plackett-Luce, one rated game per match (each bot name ranked by its mean strokes "
                       "per hole), ordered by the conservative ordinal μ − 3σ."))
        b.append(("table", ["bot", "mu", "sigma", "ordinal (mu − 3σ)"],
                  [[r["bot"], f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}"] for r in data["ratings"]]))
    b.append(("h2", "Strokes per hole"))
    b.append(("p", "How holes ended: " + ", ".join(f"{k} {v:,}" for k, v in data["end_reasons"].items()) + "."))
    b.append(("img", "distribution.png", FIGURES["distribution.png"], about))
    return b


def render_markdown(t_or_data: Union[Tournament, Tally, dict], data: Optional[dict] = None) -> str:
    """The report as Markdown (images are the PNG files beside it), from :func:`report_data`'s
    numbers (or a tournament)."""
    from .report import blocks_markdown

    if data is None:
        data = t_or_data if isinstance(t_or_data, dict) else report_data(t_or_data)
    expect(data, dict, "data", "report_data(t)'s numbers")
    return blocks_markdown(_blocks(data))


def render_html(data: dict, out: Path) -> str:
    """The report as one HTML page with the PNG plots in ``out`` embedded."""
    from .report import blocks_html

    return blocks_html(_blocks(data), out, "Grid Golf tournament report")


def bot_settings_of(meta: dict) -> list[tuple[str, Optional[dict]]]:
    """Each bot name of a report's ``meta`` with its recorded settings (None: not recorded)."""
    recorded = meta.get("bot_settings")
    return [(b, None if recorded is None else recorded.get(b)) for b in dict.fromkeys(meta["bots"])]


def settings_note(meta: dict) -> str:
    """What a report says of its bots' settings: where they come from, or that they were not recorded."""
    if meta.get("bot_settings") is None:
        return ("The run did not record its bots' settings (it was made by an older golfsolve): each name is the "
                "bot as that version made it, which may differ from what the name makes now.")
    return ("Every setting that decides each bot's play, as the run recorded it when its first match was played "
            "(`--resume` and `--extend` refuse to go on with a bot whose settings have changed since).")


def _iv(lo: Optional[float], hi: Optional[float], fmt: str, scale: float = 1, matches: int = 1) -> str:
    """``[lo, hi]``; where there is none, why: a single match, or ``matches`` that all gave
    the same value (no spread to draw an interval from)."""
    if lo is None or hi is None:
        return "[no interval from one match]" if matches < 2 else "[no interval: the same in every match]"
    return interval(lo, hi, fmt, scale)


def summary_text(data: dict, rules: GridRules) -> str:
    """A few lines for the terminal (``grid simulate``, ``grid report``): the matches and
    the table, strokes and wins per bot, then the paired differences; ``data`` is
    :func:`report_data`'s."""
    expect(data, dict, "data", "report_data(t)'s numbers")
    expect(rules, GridRules, "rules", "the tournament's GridRules, e.g. t.rules")
    lines = [f"{plural(data['meta']['matches'], 'match', 'matches')}, {plural(data['holes_played'], 'hole')}: "
             f"{rules.describe()}"]
    # columns as wide as their widest entry: 'heuristic-fit' or '[6.70, 15.96]' beside
    # '[15.84, 29.49]' pushed the rest of its line out of line
    names = [b["bot"] for b in data["bots"]] + [n for n, _ in bot_settings_of(data["meta"])]
    width = max([10, *map(len, names)])
    holes = [_iv(b["hole_lo"], b["hole_hi"], ".2f", 1, b["matches"]) for b in data["bots"]]
    span = max(map(len, holes), default=0)
    for b, hole in zip(data["bots"], holes):
        exact = b["win_lo"] is not None and b["win_lo"] == b["win_hi"]
        lines.append(f"  {b['bot']:<{width}} {b['strokes_per_hole']:6.2f} strokes/hole {hole:<{span}}"
                     f"  {b['strokes_per_match']:7.2f} /match  wins {100 * b['win_rate']:5.1f}% "
                     f"{EXACT_WINS if exact else _iv(b['win_lo'], b['win_hi'], '.1f', 100)}")
    for d in data["differences"]:
        same = same_every_match(d)
        lines.append(f"  {d['a']} - {d['b']}: {d['diff']:+.2f} "
                     + (f"({same}: no interval)" if same else _iv(d['lo'], d['hi'], '+.2f')))
    if data["meta"].get("bot_settings") is None:
        lines.append(f"bots' settings: {NOT_RECORDED}")
    else:
        lines.append("bots' settings:")
        lines += [f"  {name:<{width}} {describe_settings(s)}" for name, s in bot_settings_of(data["meta"])]
    return "\n".join(lines)


def incomplete_note(data: dict) -> str:
    """``68 of 200 matches so far; --resume finishes it`` for an unfinished run ('' otherwise)."""
    if not data.get("planned_matches"):
        return ""
    # a --resume of a run another command is playing is refused: that one finishes it
    then = BEING_WRITTEN if data.get("being_written") else "the same command with --resume finishes it"
    return f"{data['meta']['matches']:,} of {plural(data['planned_matches'], 'match', 'matches')} so far; {then}"


def write_report(t: Union[Tournament, Tally], out: Path, command: str = "",
                 planned: Optional[int] = None, run: Optional[str | Path] = None,
                 drawn: Optional[Callable[[], Any]] = None,
                 writing: bool = False) -> tuple[dict[str, Any], list[Path]]:
    """Write ``report.md``, ``report.html`` and the PNG plots of :data:`FIGURES` into ``out``;
    return :func:`report_data`'s numbers and the paths written. ``planned``: the matches an
    unfinished run asks for (the report then says it covers only those played so far).
    ``run``: the run folder ``t`` was read from, whose ``_report`` folder ``out`` may be
    (any other folder inside a run is refused, as a run folder is). ``drawn``: called after
    each figure, as :func:`write_plots` does. ``writing``: as :func:`report_data` takes it."""
    from .reportfolder import finish_report, start_report
    from .atomic import write_text_atomic

    # checked before the report folder is made: a bad argument found later leaves a half-made folder
    expect(t, (Tournament, Tally), "t", "a Tournament or Tally, e.g. load_tournament(DIR)")
    expect(command, str, "command", "the command line the report shows, or ''")
    if planned is not None:
        whole_count(planned, "planned", 1, 2**63 - 1)
    callback(drawn, "drawn", "called after each figure")
    out = start_report(out, run, plots=list(FIGURES))
    data = report_data(t, command, planned, writing)
    plots = write_plots(data, out, drawn)
    paths = [out / "report.md", out / "report.html"] + plots
    write_text_atomic(out / "report.md", render_markdown(data))
    write_text_atomic(out / "report.html", render_html(data, out))
    finish_report(out, [d.name for d in plots])
    return data, paths


__all__ = ["FIGURES", "bot_settings_of", "incomplete_note", "render_html", "render_markdown", "report_data",
           "settings_note", "summary_text", "write_plots", "write_report"]
