"""Fair play against clairvoyant play over a range of deals: the batch run and its report.

The fair player itself is :func:`golfsolve.solitaire.fair.play_fair`; this module plays it
over many deals (in worker processes), and turns the rows into the report's table.
"""

from __future__ import annotations

from typing import Callable, Iterator, Optional, Sequence

from ..errors import InputError
from ..solitaire.fair import _progress, play_fair, wilson
from ..solitaire.layout import layout_from_number
from ..solitaire.rules import get_rules
from ..solitaire.solver import Solver

_WORKER_SOLVER: Optional[Solver] = None


def _worker_init() -> None:
    # one Solver per process: its work tables are large and reused by every solve
    global _WORKER_SOLVER
    _WORKER_SOLVER = Solver()


def fair_deal_row(rules_name: str, number: int, samples: int, first_samples: int, seed: int,
                  solver: Optional[Solver] = None) -> dict:
    """One row of the fair-stats table: deal ``number`` under ``rules_name``, played fairly."""

    rules = get_rules(rules_name)
    letter = "C" if rules_name == "classic" else "E"
    layout = layout_from_number(number, rules, letter)
    # the seed names the deal and the rules, so a row does not depend on which worker ran it
    g = play_fair(layout, rules, samples, f"{seed}-{rules_name}-{number}", solver or _WORKER_SOLVER, first_samples)
    return {
        "rules": rules_name, "deal": number, "code": layout.name,
        "clairvoyant_won": g.clairvoyant_won, "clairvoyant_left": g.clairvoyant_left,
        "fair_won": g.won, "lost_at": -1 if g.lost_at is None else g.lost_at, "lost_on_draw": g.lost_on_draw,
        "moves": len(g.moves), "decisions": g.decisions, "solves": g.solves, "seconds": round(g.seconds, 4),
    }


def _row_task(args: tuple) -> dict:
    return fair_deal_row(*args)


def run_fair_stats(
    start: int,
    count: int,
    rules_names: Sequence[str],
    samples: int = 16,
    first_samples: Optional[int] = None,
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
    checkpoint: Optional[Callable[[list[dict]], None]] = None,
    checkpoint_every: int = 200,
) -> list[dict]:
    """Play deals ``start .. start+count-1`` under each rule set fairly; one row each.

    Deals go out deal by deal with every rule set, so a run stopped early still covers
    the rule sets evenly; ``checkpoint(rows)`` is called every ``checkpoint_every`` rows.
    """
    for r in rules_names:
        get_rules(r)  # bad names are bad input before any work starts
    first_samples = samples if first_samples is None else first_samples
    if count < 1 or samples < 1 or first_samples < 1 or workers < 1:
        raise InputError("count, samples, first samples and workers must be at least 1")
    tasks = [(r, n, samples, first_samples, seed) for n in range(start, start + count) for r in rules_names]
    rows: list[dict] = []

    def collect(it: Iterator[dict]) -> None:
        for row in _progress(it, len(tasks), progress, "fair games"):
            rows.append(row)
            if checkpoint is not None and len(rows) % checkpoint_every == 0:
                checkpoint(rows)

    if workers == 1:
        _worker_init()
        collect(_row_task(t) for t in tasks)
    else:
        import multiprocessing as mp

        with mp.get_context().Pool(workers, initializer=_worker_init) as pool:
            collect(pool.imap_unordered(_row_task, tasks, chunksize=2))
    rows.sort(key=lambda r: (list(rules_names).index(r["rules"]), r["deal"]))
    return rows


FAIR_TITLE = "Fair play against clairvoyant play"


def fair_intro(command: str, samples: int, first_samples: int, seed: int) -> str:
    """The paragraph that says what the fair-play table measures and how it was made."""
    return (
        f"Command: `{command}`. "
        "Clairvoyant: the deal is winnable (exact solve with the real stock order visible). Fair: the "
        "fair player's real result: at each step it picks the move that keeps a win in the most sampled stock "
        + (f"orders (first {first_samples} orders, {samples} when the choice is contested; "
           if first_samples < samples else f"orders ({samples} per decision; ")
        + f"every order once there are at most {samples}), without seeing the stock, then the real next card "
        "is turned. "
        "Every fair win is a clairvoyant win, so the gap is the share of deals that are winnable but lost "
        "by the fair player; its interval is a Wilson interval on those paired per-deal differences. "
        "95% Wilson intervals throughout; seed " + str(seed) + "."
    )


def fair_table(rows: Sequence[dict]) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the fair-play table: win rates, intervals and the paired gap per rule set."""
    head = ["rules", "deals", "clairvoyant win rate", "fair player win rate", "gap (paired)",
            "fair wins / winnable deals", "lost on a draw", "solves per deal"]
    names: list[str] = []
    for r in rows:
        if r["rules"] not in names:
            names.append(r["rules"])

    def pct(k: int, n: int) -> str:
        lo, hi = wilson(k, n)
        return f"{100 * k / n:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})" if n else "–"

    out = []
    for name in names:
        rs = [r for r in rows if r["rules"] == name]
        n = len(rs)
        c = sum(bool(r["clairvoyant_won"]) for r in rs)
        f = sum(bool(r["fair_won"]) for r in rs)
        gap = sum(bool(r["clairvoyant_won"]) and not r["fair_won"] for r in rs)
        on_draw = sum(bool(r["lost_on_draw"]) for r in rs)
        lo_deal, hi_deal = min(r["deal"] for r in rs), max(r["deal"] for r in rs)
        out.append([name, f"{n:,} (deals {lo_deal}–{hi_deal})", pct(c, n), pct(f, n), pct(gap, n), pct(f, c),
                    f"{on_draw} of {gap}", f"{sum(r['solves'] for r in rs) / n:,.0f}"])
    return head, out


def fair_report_markdown(rows: Sequence[dict], command: str, samples: int, first_samples: int, seed: int) -> str:
    """The Markdown section of a fair-stats run: win rates, intervals and the paired gap."""
    head, table = fair_table(rows)
    lines = [f"## {FAIR_TITLE}", "", fair_intro(command, samples, first_samples, seed), "",
             "| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    lines += ["| " + " | ".join(r) + " |" for r in table]
    lines.append("")
    return "\n".join(lines)


def write_fair_report(rows: Sequence[dict], out_dir: str, command: str, samples: int, first_samples: int,
                      seed: int) -> dict[str, str]:
    """Write ``fair_deals.parquet`` (or ``.csv`` without pyarrow), ``fair.json`` (how it was made)
    and ``fair.md`` into ``out_dir``. In a ``golfsolve stats`` directory, ``golfsolve report``
    then adds the section to its report."""
    import json
    from pathlib import Path

    import pandas as pd

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    df = pd.DataFrame(list(rows))
    paths = {}
    try:
        df.to_parquet(out / "fair_deals.parquet", index=False)
        paths["table"] = str(out / "fair_deals.parquet")
    except ImportError:
        df.to_csv(out / "fair_deals.csv", index=False)
        paths["table"] = str(out / "fair_deals.csv")
    meta = {"command": command, "samples": samples, "first_samples": first_samples, "seed": seed}
    (out / "fair.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
    (out / "fair.md").write_text(fair_report_markdown(rows, command, samples, first_samples, seed), encoding="utf-8")
    paths["report"] = str(out / "fair.md")
    return paths


def load_fair_section(directory: str) -> Optional[dict]:
    """The fair-play section of a directory written by :func:`write_fair_report`, if any:
    ``{"title", "intro", "head", "rows"}``, ready for a report."""
    import json
    from pathlib import Path

    import pandas as pd

    d = Path(directory)
    if not (d / "fair.json").exists():
        return None
    table = d / "fair_deals.parquet"
    df = pd.read_parquet(table) if table.exists() else pd.read_csv(d / "fair_deals.csv")
    meta = json.loads((d / "fair.json").read_text(encoding="utf-8"))
    head, rows = fair_table(df.to_dict("records"))
    return {"title": FAIR_TITLE, "head": head, "rows": rows,
            "intro": fair_intro(meta["command"], meta["samples"], meta["first_samples"], meta["seed"])}


