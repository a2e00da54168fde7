"""Grid Golf tournaments as run folders: ``golfsolve grid simulate --out DIR``.

The matches are played in chunks (:func:`golfsolve.grid.tournament.simulate` with
``first_match``, so the chunks together equal one long run) and each chunk is written as
it ends (:mod:`golfsolve.stats.runfolder`). A chunk holds one row per player per hole with
the hole columns of :data:`golfsolve.grid.tournament.HOLE_COLUMNS` and the player's match
result repeated on each of its holes (``total``, ``winner``, ``win_share``), so the folder
is one table that ``pandas.read_parquet(DIR)`` reads, and the per-match table is a
group-by away. Folders written before run folders (``holes.parquet``, ``matches.parquet``,
``meta.json``) are still read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import pandas as pd

from ..errors import InputError
from ..grid.rules import GridRules
from ..grid.tournament import HOLE_COLUMNS, Tournament, simulate
from .runfolder import RunKey, compute, load_chunks, manifest_path, open_run, run_folder_chunks

FORMAT = "golfsolve-grid-simulate/1"
#: The largest default chunk, in matches.
MAX_DEFAULT_CHUNK = 50
MATCH_COLUMNS = ["total", "winner", "win_share"]
COLUMNS = HOLE_COLUMNS + MATCH_COLUMNS


@dataclass(frozen=True)
class GridSpec:
    """A tournament: ``matches`` matches of ``rules`` between ``bots``, seeded by ``seed``
    (``samples``: Monte Carlo samples), played in chunks of ``chunk_size`` matches."""

    rules: GridRules
    bots: tuple[str, ...]
    matches: int
    seed: int = 0
    samples: Optional[int] = None
    chunk_size: int = MAX_DEFAULT_CHUNK
    extra: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.matches < 1:
            raise InputError(f"--matches must be at least 1, not {self.matches}")
        if self.chunk_size < 1:
            raise InputError(f"--chunk-size must be at least 1, not {self.chunk_size}")
        if len(self.bots) != self.rules.players:
            raise InputError(f"{len(self.bots)} bots for {self.rules.players} players")

    def run_key(self) -> RunKey:
        # JSON round trip: the manifest's copy must compare equal to a fresh one
        params = json.loads(json.dumps({"bots": ",".join(self.bots), "mc_samples": self.samples,
                                        "seed": self.seed, "table": self.rules.to_dict()}))
        return RunKey(FORMAT, 0, self.matches, (), self.chunk_size, tuple(sorted(params.items())))


def spec_from_manifest(m: dict) -> GridSpec:
    """The :class:`GridSpec` a grid-simulate manifest describes."""
    p = m["params"]
    return GridSpec(GridRules(**p["table"]), tuple(p["bots"].split(",")), int(m["count"]), int(p["seed"]),
                    p["mc_samples"], int(m["chunk_size"]))


def play_chunk(task: tuple) -> pd.DataFrame:
    """Matches ``chunk.first .. chunk.last`` of the tournament, as rows of :data:`COLUMNS`."""
    chunk, table, bots, seed, samples = task
    t = simulate(GridRules(**table), bots, chunk.count, seed, samples, first_match=chunk.first)
    return _one_table(t.holes, t.matches)


def _one_table(holes: pd.DataFrame, matches: pd.DataFrame) -> pd.DataFrame:
    df = holes.merge(matches[["match", "seat"] + MATCH_COLUMNS], on=["match", "seat"], how="left", validate="m:1")
    return df[COLUMNS]


def run_grid_simulate(out: str | Path, spec: GridSpec, *, resume: bool = False, extend: bool = False,
                      workers: int = 1, command: str = "", progress: Optional[bool] = None) -> dict:
    """Play the matches of ``spec`` into the run folder ``out``, writing each chunk as it ends.

    ``resume`` plays only the missing or damaged chunks; ``extend`` adds matches to the run
    in ``out``. Returns the invocation's manifest entry (``repaired`` names damaged chunks).
    """
    if workers < 1:
        raise InputError(f"--workers must be at least 1, not {workers}")
    folder = open_run(out, spec.run_key(), resume=resume, extend=extend, command=command,
                      extra={"rules_described": spec.rules.describe()})
    todo = folder.todo("match", None, None)
    full = spec_from_manifest(folder.manifest)
    tasks = [(c, full.rules.to_dict(), list(full.bots), full.seed, full.samples) for c in todo]
    source = ((task[0], df) for task, df in compute(tasks, play_chunk, workers))
    inv = run_folder_chunks(folder, todo, source, command=command, progress=progress, unit="match",
                            info={"workers": workers})
    inv["repaired"] = [f"{name}: {why}" for name, why in folder.repairs]
    return inv


def load_tournament(out: str | Path) -> Tournament:
    """The tournament in the folder ``out``: a run folder, or the older ``meta.json`` layout."""
    out = Path(out)
    if not out.is_dir():
        raise InputError(f"no results directory {str(out)!r}")
    if manifest_path(out) is None and (out / "meta.json").exists():
        return _load_old(out)
    m, frames = load_chunks(out, FORMAT, "match", None, None)
    spec = spec_from_manifest(m)
    if not frames:
        raise InputError(f"{out}: no chunk is finished yet, so there is nothing to report")
    df = pd.concat(frames, ignore_index=True).sort_values(["match", "hole", "seat"], kind="stable")
    df = df.reset_index(drop=True)
    holes = df[HOLE_COLUMNS].copy()
    matches = (df.groupby(["match", "seat"], sort=True)[["entry", "bot"] + MATCH_COLUMNS].first().reset_index())
    matches = matches[["match", "seat", "entry", "bot"] + MATCH_COLUMNS]
    return Tournament(rules=spec.rules, bots=list(spec.bots), seed=spec.seed, holes=holes, matches=matches,
                      samples=spec.samples)


def _load_old(out: Path) -> Tournament:
    try:
        meta = json.loads((out / "meta.json").read_text())
        tables = {}
        for name in ("holes", "matches"):
            if (out / f"{name}.parquet").exists():
                tables[name] = pd.read_parquet(out / f"{name}.parquet")
            elif (out / f"{name}.csv").exists():
                tables[name] = pd.read_csv(out / f"{name}.csv")
            else:
                raise InputError(f"{str(out)!r} has no {name}.parquet or {name}.csv")
        return Tournament(rules=GridRules(**meta["rules"]), bots=meta["bots"], seed=meta["seed"],
                          holes=tables["holes"], matches=tables["matches"], samples=meta.get("mc_samples"))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise InputError(f"{out} is not a readable 'golfsolve grid simulate' folder: {e}") from None


def export_csv(t: Tournament, out: str | Path) -> list[Path]:
    """Write ``_holes.csv`` and ``_matches.csv`` beside the chunks (pandas skips the ``_`` names)."""
    paths = []
    for name, df in (("holes", t.holes), ("matches", t.matches)):
        p = Path(out) / f"_{name}.csv"
        df.to_csv(p, index=False)
        paths.append(p)
    return paths


__all__ = ["COLUMNS", "FORMAT", "GridSpec", "export_csv", "load_tournament", "play_chunk", "run_grid_simulate",
           "spec_from_manifest"]
