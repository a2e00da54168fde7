"""A Markdown report with PNG plots for a simulated grid Golf tournament (a `grid simulate` run)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only; never needs a display
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ..grid.ratings import rate_bots  # noqa: E402
from ..grid.tournament import Tournament, all_differences, bot_summary  # noqa: E402


def _save(fig, path):
    """Write a finished figure and free it."""
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _fmt(m: float, lo: float, hi: float, pct: bool = False) -> str:
    if pct:
        return f"{100 * m:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
    return f"{m:.2f} [{lo:.2f}, {hi:.2f}]"


def report_data(t: Tournament) -> dict[str, Any]:
    """Everything the report shows, as plain values (the ``--json`` output)."""
    s = bot_summary(t)
    h = t.holes
    kinds = h["bot"].nunique()
    return {
        "meta": t.meta(),
        "holes_played": int(h[["match", "hole"]].drop_duplicates().shape[0]),
        "bots": s.to_dict(orient="records"),
        "differences": all_differences(t),
        # Beside the pairwise differences, one scale for every bot once there are three or more.
        "ratings": rate_bots(t) if kinds > 2 else [],
        "end_reasons": {str(k): int(v) for k, v in
                        h.drop_duplicates(["match", "hole"])["reason"].value_counts().items()},
    }


def write_plots(t: Tournament, out: Path) -> list[Path]:
    """strokes.png (mean strokes per hole, 95% intervals), distribution.png (strokes per
    hole), wins.png (win rates)."""
    s = bot_summary(t)
    paths = []
    fig, ax = plt.subplots(figsize=(6, 3.5))
    y = s["strokes_per_hole"].to_numpy()
    err = np.vstack([y - s["hole_lo"].to_numpy(), s["hole_hi"].to_numpy() - y])
    ax.bar(s["bot"], y, yerr=err, capsize=6, color="#4c72b0")
    ax.set_ylabel("strokes per hole (lower is better)")
    ax.set_title("Mean strokes per hole, 95% intervals")
    paths.append(_save(fig, out / "strokes.png"))

    fig, ax = plt.subplots(figsize=(6, 3.5))
    lo, hi = int(t.holes["strokes"].min()), int(t.holes["strokes"].max())
    bins = np.arange(lo, hi + 2) - 0.5
    for bot in s["bot"]:
        ax.hist(t.holes.loc[t.holes["bot"] == bot, "strokes"], bins=bins, histtype="step", density=True, label=bot)
    ax.set_xlabel("strokes in a hole")
    ax.set_ylabel("share of holes")
    ax.legend()
    paths.append(_save(fig, out / "distribution.png"))

    fig, ax = plt.subplots(figsize=(6, 3.5))
    w = s["win_rate"].to_numpy()
    werr = np.vstack([w - s["win_lo"].to_numpy(), s["win_hi"].to_numpy() - w])
    ax.bar(s["bot"], 100 * w, yerr=100 * werr, capsize=6, color="#55a868")
    ax.set_ylabel("matches won per seat (%)")
    ax.set_title("Win rate (shared wins split), 95% intervals")
    paths.append(_save(fig, out / "wins.png"))
    return paths


def render_markdown(t: Tournament, data: dict[str, Any]) -> str:
    """The report text."""
    meta = data["meta"]
    r = t.rules
    lines = [
        "# Grid Golf simulation report",
        "",
        f"- Rules: {r.describe()} (`{meta['rules_spec']}`)",
        f"- Bots by entry: {', '.join(t.bots)}" + (f" (Monte Carlo samples: {meta['mc_samples']})" if meta.get("mc_samples") else ""),
        f"- Matches: {meta['matches']:,}, holes: {data['holes_played']:,}, seed {meta['seed']}",
        ("- Balanced seatings (every cyclic order of the bots, in every rotation) and the first player moves every "
         "hole. Intervals are 95%, taken over matches." if meta.get("seating") == "balanced" else
         "- **Old seating**: seats rotated but the cyclic order of the bots never changed, so each bot always played "
         "after the same neighbour and the comparisons below are confounded with that. Intervals are 95%."),
        "",
        "| bot | seats | player-holes | strokes per hole | strokes per match | win rate |",
        "|---|---:|---:|---|---|---|",
    ]
    for b in data["bots"]:
        lines.append(f"| {b['bot']} | {b['seats']} | {b['holes']} | {_fmt(b['strokes_per_hole'], b['hole_lo'], b['hole_hi'])}"
                     f" | {_fmt(b['strokes_per_match'], b['match_lo'], b['match_hi'])}"
                     f" | {_fmt(b['win_rate'], b['win_lo'], b['win_hi'], pct=True)} |")
    if data["differences"]:
        lines += ["", "## Paired differences (same tables)", "",
                  "| comparison | strokes per hole | 95% interval | excludes 0 |", "|---|---:|---|---|"]
        for d in data["differences"]:
            lines.append(f"| {d['a']} − {d['b']} | {d['diff']:+.2f} | [{d['lo']:+.2f}, {d['hi']:+.2f}] | "
                         f"{'yes' if d['significant'] else 'no'} |")
    if data.get("ratings"):
        lines += ["", "## Ratings (openskill Plackett-Luce, one rated game per match)", "",
                  "| bot | mu | sigma | ordinal (mu − 3σ) |", "|---|---:|---:|---:|"]
        for r in data["ratings"]:
            lines.append(f"| {r['bot']} | {r['mu']:.2f} | {r['sigma']:.2f} | {r['ordinal']:.2f} |")
    lines += ["", "How holes ended: " + ", ".join(f"{k} {v}" for k, v in data["end_reasons"].items()), "",
              "![strokes per hole](strokes.png)", "", "![distribution](distribution.png)", "", "![win rates](wins.png)", ""]
    return "\n".join(lines)


def write_report(t: Tournament, out: Path) -> tuple[str, dict[str, Any]]:
    """Write report.md and the plots into ``out``; return the Markdown and the data."""
    data = report_data(t)
    write_plots(t, out)
    md = render_markdown(t, data)
    (out / "report.md").write_text(md)
    return md, data
