"""The report on a grid Golf study (``golfsolve grid report DIR`` on a ``grid study`` folder):
per option set, with 95% intervals, what the rules do to the game.

Every measure is taken over matches (the holes of one match share a table), except the
shares of holes, which are Wilson intervals over holes, and the strongest bot's match win
rate, a Wilson interval over its matches. Markdown and HTML (with the plot embedded) are
written from the same blocks as the other reports (:func:`golfsolve.stats.report.blocks_markdown`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import numpy as np
import pandas as pd

from ..grid.botnames import NOT_RECORDED, describe_settings
from ..grid.engine import END_REASONS, END_STALLED
from ..grid.tournament import BALANCED_SEATING, Tournament, paired_difference, seating_described
from ..intervals import mean_ci, no_spread, wilson
from ..text import estimate, plural
from .gridstudy import HEURISTIC, RANDOM, Study
from .atomic import save_footed_figure

#: The study's one figure, beside report.md and report.html.
PLOT = "study.png"
TITLE = "Grid Golf: a study of the table options"
PLOT_TITLE = "Per option set: skill gap, first player's edge and turns a hole (95% intervals)"


def _ci(m: float, lo: float, hi: float) -> dict[str, float]:
    return {"mean": m, "lo": lo, "hi": hi}


def _per_match(frames: list[pd.DataFrame], value: str) -> np.ndarray:
    """One value per (table, match): the mean of ``value`` over that match's rows."""
    return np.concatenate([f.groupby("match")[value].mean().to_numpy() for f in frames if len(f)]) \
        if any(len(f) for f in frames) else np.array([])


def bot_strokes(ts: list[Tournament], bot: str) -> Optional[dict[str, float]]:
    """``bot``'s mean strokes a hole, interval over the matches it played (at any table)."""
    frames = [t.holes[t.holes["bot"] == bot] for t in ts]
    x = _per_match(frames, "strokes")
    return _ci(*mean_ci(x)) if len(x) else None


def turns_per_hole(ts: list[Tournament]) -> dict[str, float]:
    """Turns each player takes in a hole (the hole's turns over the players), interval over matches."""
    frames = []
    for t in ts:
        h = t.holes.drop_duplicates(["match", "hole"]).copy()
        h["each"] = h["turns"] / t.rules.players
        frames.append(h)
    return _ci(*mean_ci(_per_match(frames, "each")))


def skill_gap(ts: list[Tournament], better: str, worse: str) -> Optional[dict[str, float]]:
    """Strokes a hole ``worse`` scores above ``better`` at the same tables (positive: ``better``
    is better), interval over matches; None when no table seats both."""
    for t in ts:
        if better in t.bots and worse in t.bots:
            d = paired_difference(t, worse, better)
            return {"mean": d["diff"], "lo": d["lo"], "hi": d["hi"], "matches": d["matches"]}
    return None


def strong_wins(ts: list[Tournament], strong: str) -> Optional[dict[str, float]]:
    """The share of its matches the strongest bot wins, a win shared by ``k`` players counting
    ``1/k`` (as ``grid simulate``'s win rates count it), with the Wilson interval of those
    shares over its matches. A shared win counted whole would credit every tied player with
    the match, so two equal players would each seem to win more than half their matches."""
    units = n = 0
    for t in ts:
        if strong in t.bots:
            m = t.matches[t.matches["bot"] == strong]
            # in sixtieths, as the tally keeps them: thirds summed as floats miss a whole match by a bit
            units += int(np.rint(m["win_share"].to_numpy() * 60).sum())
            n += int(m["match"].nunique())
    if n == 0:
        return None
    k = units / 60
    p, lo, hi = wilson(min(k, n), n)
    return {"mean": p, "lo": lo, "hi": hi, "won": k, "matches": n}


def first_player(ts: list[Tournament]) -> dict[str, float]:
    """Strokes of a hole's first player minus the mean of the others at that hole, interval
    over matches (negative: moving first helps). The first seat moves every hole and the
    seating is balanced (either scheme), so over matches each bot moves first equally often and the line-up
    cancels."""
    frames = []
    for t in ts:
        h = t.holes
        total = h.groupby(["match", "hole"])["strokes"].transform("sum")
        first = h[h["seat"] == h["first"]]
        adv = first["strokes"] - (total[first.index] - first["strokes"]) / (t.rules.players - 1)
        first = first.assign(adv=adv)
        frames.append(first)
    return _ci(*mean_ci(_per_match(frames, "adv")))


def neighbour_after(ts: list[Tournament], strong: str) -> Optional[dict[str, Any]]:
    """The heuristic's strokes a hole when the strongest bot plays just before it minus when
    another heuristic does (positive: the strongest bot's discards are worth less to the player
    after it), paired within each match: both come from the same matches, so each match gives
    one value, the heuristic's mean strokes a hole over its seats after the strongest bot there
    minus its mean over its seats after a heuristic there, and the interval is Student's t
    (:func:`golfsolve.intervals.mean_ci`) over those matches; none (NaN ends) from one match or
    when every match gave the same value (``same_every_match``). None when no table seats the
    heuristic after both (at two players the one before you is your only opponent)."""
    for t in ts:
        h = t.holes[t.holes["bot"] == HEURISTIC]
        per = h.groupby(["match", "before_bot"])["strokes"].mean().unstack("before_bot")
        if strong not in per.columns or HEURISTIC not in per.columns:
            continue
        d = (per[strong] - per[HEURISTIC]).dropna().to_numpy(dtype=float)
        if len(d) == 0:
            continue
        m, lo, hi = mean_ci(d)
        return {"mean": m, "lo": lo, "hi": hi, "matches": len(d), "same_every_match": no_spread(d)}
    return None


def end_shares(ts: list[Tournament]) -> dict[str, dict[str, float]]:
    """How holes ended: count and share (Wilson interval) of every end reason."""
    ends = pd.concat([t.holes.drop_duplicates(["match", "hole"])["reason"] for t in ts], ignore_index=True)
    n = len(ends)
    out = {}
    for r in END_REASONS:
        k = int((ends == r).sum())
        p, lo, hi = wilson(k, n)
        out[r] = {"holes": k, "mean": p, "lo": lo, "hi": hi}
    return out


def _holes(ts: list[Tournament]) -> int:
    return int(sum(len(t.holes.drop_duplicates(["match", "hole"])) for t in ts))


def set_data(study: Study, name: str) -> dict[str, Any]:
    """Every measure of the option set ``name`` (see the module's docstring): the game's
    measures from the strongest bot's table, the random bot's from its own table."""
    ts = study.of_set(name)
    strong = study.spec.strong
    rules = study.cells[[c.set for c in study.cells].index(name)].rules
    top = [t for t in ts if strong in t.bots]
    low = [t for t in ts if RANDOM in t.bots]
    out: dict[str, Any] = {"set": name, "rules": rules.describe(), "spec": rules.spec(), "players": rules.players,
                           "tables": [",".join(t.bots) for t in ts], "holes": _holes(top),
                           "holes_random_table": _holes(low),
                           "matches": int(sum(t.matches["match"].nunique() for t in ts)),
                           "strokes": {strong: bot_strokes(top, strong), HEURISTIC: bot_strokes(top, HEURISTIC),
                                       RANDOM: bot_strokes(low, RANDOM)},
                           "gap_random": skill_gap(low, HEURISTIC, RANDOM)}
    if not top:
        return out
    ends = end_shares(top)
    return {**out,
            "turns": turns_per_hole(top),
            "gap_strong": skill_gap(top, strong, HEURISTIC),
            "strong_wins": strong_wins(top, strong),
            "first_player": first_player(top),
            "neighbour": neighbour_after(top, strong),
            "stalled": ends[END_STALLED],
            "ends": ends}


def report_data(study: Study) -> dict[str, Any]:
    """Everything the report shows, as plain values (the ``--json`` output)."""
    from .runfolder import latest_command

    m = study.manifest
    spec = study.spec
    return {
        "format": m["format"], "command": latest_command(m), "complete": bool(m.get("complete")),
        "strong": spec.strong, "matches_per_table": spec.matches, "seed": spec.seed, "sets": list(spec.sets),
        "seating": spec.seating,
        # None: a study made before its bots' settings were recorded
        "bot_settings": m.get("bot_settings"),
        "results": [set_data(study, s) for s in spec.sets],
    }


# -- text ---------------------------------------------------------------------------
def _f(d: Optional[dict], pct: bool = False, sign: bool = False) -> str:
    if d is None or not np.isfinite(d["mean"]):
        return "—"
    if pct:
        return estimate(d["mean"], d["lo"], d["hi"], ".1f", percent=True)
    s = "+" if sign else ""
    if not np.isfinite(d["lo"]):
        return f"{d['mean']:{s}.2f}"
    return estimate(d["mean"], d["lo"], d["hi"], f"{s}.2f")


def _paired(d: Optional[dict]) -> str:
    """A paired difference over matches, or what stands in for its interval where it has none."""
    if d is None or not np.isfinite(d["mean"]):
        return "—"
    if not np.isfinite(d["lo"]):
        why = "the same in every match" if d.get("same_every_match") else "one match"
        return f"{d['mean']:+.2f} ({why}: no interval)"
    return _f(d, sign=True)


def main_table(data: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The study's table: one row per option set (what docs/grid.md publishes)."""
    head = ["option set", "holes", "strokes a hole (heuristic)", "turns a hole (each player)",
            "skill: heuristic − strongest", "skill: random − heuristic", "strongest wins the match",
            "first player − others", "neighbour: after strongest − after heuristic", "holes stalled"]
    rows = []
    for r in data["results"]:
        if not r["holes"]:
            rows.append([r["set"], "0", "—", "—", "—", _f(r["gap_random"], sign=True)] + ["—"] * 4)
            continue
        rows.append([r["set"], f"{r['holes']:,}", _f(r["strokes"][HEURISTIC]), _f(r["turns"]),
                     _f(r["gap_strong"], sign=True), _f(r["gap_random"], sign=True), _f(r["strong_wins"], pct=True),
                     _f(r["first_player"], sign=True), _paired(r["neighbour"]), _f(r["stalled"], pct=True)])
    return head, rows


def study_summary(data: dict[str, Any]) -> str:
    """A few lines for the terminal: what the study is and its table of results."""
    from .report import blocks_markdown

    head, rows = main_table(data)
    done = "" if data["complete"] else " (incomplete: the chunks finished so far)"
    text = blocks_markdown([("p", f"{plural(len(data['sets']), 'option set')}, {plural(data['matches_per_table'], 'match', 'matches')} per table, "
                                  f"strongest bot {data['strong']}, seed {data['seed']}{done}"),
                            ("table", head, rows)]).rstrip("\n")
    return text + "\n" + "\n".join(settings_lines(data))


def _study_bots(data: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys([data["strong"], HEURISTIC, RANDOM]))


def settings_lines(data: dict[str, Any]) -> list[str]:
    """The bots' settings for the terminal: one line each, or one saying they were not recorded."""
    recorded = data.get("bot_settings")
    if recorded is None:
        return [f"bots' settings: {NOT_RECORDED}"]
    return ["bots' settings:"] + [f"  {b:<10} {describe_settings(recorded.get(b))}" for b in _study_bots(data)]


def _blocks(data: dict[str, Any]) -> list[tuple]:
    strong = data["strong"]
    recorded = data.get("bot_settings")
    settings = (recorded or {}).get(strong, {})
    shown = ", ".join(f"{k} {v}" for k, v in settings.items() if k not in ("class", "kind", "hp"))
    b: list[tuple] = [("h1", TITLE)]
    b.append(("p", f"{plural(len(data['sets']), 'option set')}, two tables each, {plural(data['matches_per_table'], 'match', 'matches')} per "
                   f"table, seed {data['seed']}. The first table seats the strongest bot (**{strong}**"
                   + (": " + ", ".join(x for x in (settings.get("class", ""), shown) if x) if settings else "") + f") and {HEURISTIC}s: every "
                   f"measure but one comes from it. The second seats {HEURISTIC}s and the {RANDOM} bot, for the "
                   f"bottom of the skill scale (so the game measured is one between players who try to win). "
                   f"{seating_described(data.get('seating', BALANCED_SEATING))}; the first player moves every hole."))
    if not data["complete"]:
        # how much each table has played: the header's matches per table are those planned, and
        # "the random bot's table plays as many" below is not so yet
        played = ", ".join(f"{r['set']} {r['holes']:,} and {r['holes_random_table']:,}" for r in data["results"])
        b.append(("p", "**The study is incomplete**: the numbers cover the chunks finished so far. Holes played "
                       f"at the strongest bot's table and at the random bot's: {played}."))
    b.append(("p", "Made by:"))
    b.append(("code", data["command"] or "(command not recorded)"))
    b.append(("h2", "Bots' settings"))
    if recorded is None:
        b.append(("p", "The study did not record its bots' settings (it was made by an older golfsolve): each name "
                       "is the bot as that version made it, which may differ from what the name makes now."))
    else:
        b.append(("p", "Every setting that decides each bot's play, as the study recorded it when it began "
                       "(`--resume` refuses to go on with a bot whose settings have changed since)."))
        b.append(("table", ["bot", "settings"], [[x, describe_settings(recorded.get(x))] for x in _study_bots(data)]))
    b.append(("h2", "Results"))
    head, rows = main_table(data)
    b.append(("table", head, rows))
    b.append(("p", "95% intervals. Holes: at the strongest bot's table (the random bot's table plays as many). "
                   "Strokes and turns a hole, the skill gaps, the first player's edge and the neighbour effect are "
                   "taken over matches (the holes of a match share a table); the win rate (a shared win counts) and "
                   "the share of stalled holes are Wilson intervals. Skill: strokes a hole the better bot saves "
                   "against the worse one at the same tables (bigger: more a game of skill). First player − others: "
                   "the first player's strokes minus the mean of the others at that hole (negative: moving first "
                   "helps). Neighbour: the heuristic's strokes when the strongest bot plays just before it (and "
                   "leaves it its discards) minus when another heuristic does, paired within each match: each match "
                   "gives one value (the heuristic's mean strokes a hole after the strongest bot there minus its mean "
                   "after a heuristic there), and the interval is Student's t over those matches (none where every "
                   "match gave the same value; —: two players, where the player before you is your only opponent). "
                   "Stalled: holes called because every player declined to "
                   "close for two laps."))
    b.append(("h2", "Strokes a hole by bot"))
    b.append(("table", ["option set", strong, HEURISTIC, RANDOM],
              [[r["set"]] + [_f(r["strokes"].get(x)) for x in (strong, HEURISTIC, RANDOM)] for r in data["results"]]))
    b.append(("h2", "How holes ended at the strongest bot's table"))
    reasons = list(END_REASONS)
    b.append(("table", ["option set"] + reasons,
              [[r["set"]] + ([f"{r['ends'][x]['holes']:,} ({100 * r['ends'][x]['mean']:.1f}%)" for x in reasons]
                             if r["holes"] else ["—"] * len(reasons)) for r in data["results"]]))
    b.append(("h2", "Option sets"))
    b.append(("table", ["option set", "rules", "spec"], [[r["set"], r["rules"], f"`{r['spec']}`"]
                                                         for r in data["results"]]))
    b.append(("img", PLOT, PLOT_TITLE, footer_head(data)))
    return b


def footer_head(data: dict[str, Any]) -> str:
    """What the study's figure shows data of: option sets, matches, bots and seed."""
    return (f"{plural(len(data['sets']), 'option set')} ({', '.join(data['sets'])}), two tables each, "
            f"{plural(data['matches_per_table'], 'match', 'matches')} per table; strongest bot {data['strong']}; "
            f"seed {data['seed']}{'' if data['complete'] else '; study incomplete'}")


def footer(data: dict[str, Any]) -> str:
    """The provenance footer of the study's figure: option sets, matches, bots, seed and the command."""
    from .atomic import figure_footer

    return figure_footer(footer_head(data), data.get("command"))


def write_plot(data: dict[str, Any], out: Path) -> Path:
    """study.png: the skill gap, the first player's edge and the turns a hole per option set,
    with the footer every report figure carries (what was played, and the command)."""
    # The object API, not pyplot: no backend is chosen or changed (a notebook's inline plots
    # keep working), and no display is needed.
    from matplotlib.figure import Figure

    res = [r for r in data["results"] if r["holes"]]
    names = [r["set"] for r in res]
    y = np.arange(len(res))[::-1]
    panels = [("gap_strong", "heuristic − strongest (strokes a hole)"),
              ("first_player", "first player − others (strokes a hole)"), ("turns", "turns a hole, each player")]
    fig = Figure(figsize=(12, 0.35 * len(res) + 1.9))
    axes = fig.subplots(1, 3, sharey=True)
    for ax, (key, label) in zip(axes, panels):
        vals = [r[key] or {"mean": np.nan, "lo": np.nan, "hi": np.nan} for r in res]
        m = np.array([v["mean"] for v in vals])
        err = np.vstack([m - np.array([v["lo"] for v in vals]), np.array([v["hi"] for v in vals]) - m])
        ax.errorbar(m, y, xerr=err, fmt="o", capsize=3, color="#4c72b0")
        if key != "turns":
            ax.axvline(0, color="#999", lw=0.8)
        ax.set_xlabel(label)
    axes[0].set_yticks(y, names)
    fig.suptitle(PLOT_TITLE)
    return save_footed_figure(fig, footer(data), out / PLOT)  # replaces a link there, never writes through it


def write_study_report(study: Study, out: Path, run: Optional[str | Path] = None) -> tuple[str, dict[str, Any]]:
    """Write report.md, report.html and study.png into ``out``; return the Markdown and the
    data. ``run``: the study's run folder, whose ``_report`` folder ``out`` may be."""
    from .report import blocks_html, blocks_markdown
    from .reportfolder import finish_report, start_report
    from .atomic import write_text_atomic

    data = report_data(study)
    out = start_report(out, run, plots=[PLOT])
    write_plot(data, out)
    blocks = _blocks(data)
    md = blocks_markdown(blocks)
    write_text_atomic(out / "report.md", md)
    write_text_atomic(out / "report.html", blocks_html(blocks, out, TITLE))
    finish_report(out, [PLOT])
    return md, data


__all__ = ["bot_strokes", "end_shares", "first_player", "main_table", "neighbour_after", "report_data", "set_data",
           "settings_lines", "skill_gap", "strong_wins", "study_summary", "turns_per_hole", "write_study_report"]
