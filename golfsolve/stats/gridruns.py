"""Grid Golf tournaments as run folders: ``golfsolve grid simulate --out DIR``.

The matches are played in chunks (:func:`golfsolve.grid.tournament.simulate` with
``first_match``, so the chunks together equal one long run) and each chunk is written as
it ends (:mod:`golfsolve.stats.runfolder`). A chunk holds one row per player per hole with
the hole columns of :data:`golfsolve.grid.tournament.HOLE_COLUMNS` and the player's match
result repeated on each of its holes (``total``, ``winner``, ``win_share``), so the folder
is one table that ``pandas.read_parquet(DIR)`` reads, and the per-match table is a
group-by away. Folders written before run folders (``holes.parquet``, ``matches.parquet``,
``meta.json``) are still read.

The manifest's ``params.seating`` names the seating scheme
(:data:`golfsolve.grid.tournament.SEATING`, ``cyclic``, for new runs). A run made with
``balanced``, the scheme before it, is resumed and extended with ``balanced`` (its
six-player matches seated at random as before), never mixed with ``cyclic``. A run without
it was made with the old rotation, in which each bot always followed the same neighbour:
it is still read and reported (its ``before`` columns are rebuilt from the rotation), but
``--resume`` and ``--extend`` refuse it rather than mix two schemes in one run.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Literal, Optional, Sequence

from ..errors import MAX_EFFORT, InputError, clip
from ..inputs import check_seed, expect
from ..text import plural
from ..grid.engine import MAX_PLAYOFF
from ..grid.rules import GridRules
from ..grid.tournament import (HOLE_COLUMNS, OLD_SEATING, PLAYED_SEATINGS, SEATING, SEATINGS, Tournament,
                               before_entries, seating, simulate)
from .runblocks import Chunk
from .runkey import RunKey
from .chunkschema import ChunkSchema
from .runfolder import RunFolder, check_chunk_size, check_chunks_made_with, manifest_path, name_list, whole_fields
from .runlayout import GRID_SIMULATE
from .outdirs import check_out_dir
from .atomic import write_text_atomic
from .pool import check_jobs, compute
from .runkind import RunKind

if TYPE_CHECKING:  # pandas, pydantic and the bots load when a run is read or played: the arguments are checked before
    import pandas as pd
    import pyarrow as pa
    from pydantic import BaseModel

#: The largest default chunk, in matches.
MAX_DEFAULT_CHUNK = 50
MATCH_COLUMNS = ["total", "winner", "win_share"]
COLUMNS = HOLE_COLUMNS + MATCH_COLUMNS
#: Arrow type of every chunk column.
CHUNK_TYPES = {"bot": "string", "before_bot": "string", "reason": "string", "winner": "bool", "win_share": "double"}
#: Matches of a run given no ``--matches``: a whole number of seating cycles at every table
#: size (:func:`golfsolve.grid.tournament.seating_cycle`: 2, 6, 24, 20 and 60 matches for 2
#: to 6 players), so each bot sits in each seat and after each other bot equally often.
DEFAULT_MATCHES = 120
#: The columns of chunks written with the old seating (no ``before`` columns).
_OLD_COLUMNS = [c for c in COLUMNS if c not in ("before", "before_bot")]
#: Most extra holes one match can have beyond its table's: the sudden-death play-off's.
MAX_EXTRA_HOLES = MAX_PLAYOFF


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
    seating: str = SEATING
    extra: dict = field(default_factory=dict, compare=False)
    #: the bots are a run's record (its manifest): a bot of the form register_bot allows that this
    #: program has not registered is kept by name, so the run's results can be read and reported
    #: without its code (playing more of the run needs it registered: its settings are checked)
    recorded: bool = field(default=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        from ..grid.botnames import parse_bots, recorded_bot_name
        from ..inputs import expect

        expect(self.rules, GridRules, "rules", "a GridRules, e.g. parse_rules('default', players=2)")
        whole_fields(self, "matches", "seed", "samples", "chunk_size")
        name_list(self, "bots", "('mc', 'greedy')")
        if not 1 <= self.matches <= MAX_EFFORT:
            raise InputError(f"--matches must be from 1 to {MAX_EFFORT:,}, not {self.matches}")
        check_chunk_size(self.chunk_size)
        if self.samples is not None and not 1 <= self.samples <= MAX_EFFORT:
            raise InputError(f"--mc-samples must be from 1 to {MAX_EFFORT:,}, not {self.samples}")
        check_seed(self.seed)
        if not isinstance(self.seating, str) or self.seating not in SEATINGS:
            raise InputError(f"unknown seating scheme {clip(repr(self.seating))}: give one of {', '.join(SEATINGS)}")
        if len(self.bots) != self.rules.players:
            raise InputError(f"{plural(len(self.bots), 'bot')} for {self.rules.players} players")
        # every name is a bot, written one way: 'Random' and 'random' are one bot, not two in the summary
        if self.recorded:
            object.__setattr__(self, "bots", tuple(recorded_bot_name(b) for b in self.bots))
        else:
            object.__setattr__(self, "bots", tuple(parse_bots(",".join(self.bots), self.rules.players)))

    def run_key(self) -> RunKey:
        """The run folder's key for this spec (:meth:`GridKind.key`)."""
        return GRID.key(self)


@functools.cache
def _params_model() -> type[BaseModel]:
    """The pydantic model of a grid-simulate manifest's ``params`` (pydantic loads only when a run is read)."""
    from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, create_model

    _STRICT = {bool: StrictBool, int: StrictInt, str: StrictStr}
    #: A manifest's table: every field of :class:`GridRules` with its exact type.
    _Table = create_model("GridTable", __config__=ConfigDict(extra="forbid"),
                          **{f.name: (_STRICT[type(f.default)], f.default) if f.default is not None
                             # holes: None is the table's own default (18 on the 4-card grid, else 9)
                             else (Optional[StrictInt], None) for f in dataclasses.fields(GridRules)})

    class _Params(BaseModel):
        """The ``params`` of a grid-simulate manifest."""

        model_config = ConfigDict(extra="forbid")
        bots: StrictStr
        mc_samples: Optional[StrictInt] = Field(default=None, ge=1, le=MAX_EFFORT)
        seed: StrictInt = Field(ge=0, le=2**64 - 1)
        table: _Table
        seating: Optional[Literal["cyclic", "balanced"]] = None  # absent: the old rotation

    return _Params


def play_chunk(task: tuple) -> pd.DataFrame:
    """Matches ``chunk.first .. chunk.last`` of the tournament, as rows of :data:`COLUMNS`."""
    chunk, table, bots, seed, samples, scheme = task
    if scheme not in PLAYED_SEATINGS:
        raise InputError(f"runs with the {scheme!r} seating are read, not played on")
    t = simulate(GridRules(**table), bots, chunk.count, seed, samples, first_match=chunk.first, scheme=scheme)
    return one_table(t.holes, t.matches)


def one_table(holes: pd.DataFrame, matches: pd.DataFrame) -> pd.DataFrame:
    """Chunk rows of a :class:`Tournament`'s tables: each hole row with its player's match result."""
    df = holes.merge(matches[["match", "seat"] + MATCH_COLUMNS], on=["match", "seat"], how="left", validate="m:1")
    return df[COLUMNS]


def two_tables(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The holes and the matches (a :class:`Tournament`'s tables) of chunk rows: the inverse of :func:`one_table`."""
    holes = df[HOLE_COLUMNS].copy()
    matches = df.groupby(["match", "seat"], sort=True)[["entry", "bot"] + MATCH_COLUMNS].first().reset_index()
    return holes, matches[["match", "seat", "entry", "bot"] + MATCH_COLUMNS]


class GridKind(RunKind[GridSpec]):
    """``golfsolve grid simulate --out DIR``: seeded matches between bots."""

    format = GRID_SIMULATE
    command = "golfsolve grid simulate"
    item = "match"
    params_type = GridSpec
    side_files = ("_holes.csv", "_matches.csv")
    make_params_model = staticmethod(_params_model)
    group_field = None
    max_default_chunk = MAX_DEFAULT_CHUNK
    max_items = MAX_EFFORT
    field_names = {"count": "matches"}  # --matches
    as_written = ("bots",)

    def key(self, p: GridSpec) -> RunKey:
        params = {"bots": ",".join(p.bots), "mc_samples": p.samples, "seed": p.seed, "table": p.rules.to_dict()}
        if p.seating != OLD_SEATING:
            params["seating"] = p.seating
        return self.ungrouped_key(p.matches, p.chunk_size, params)

    def from_manifest(self, m: dict) -> GridSpec:
        p = m["params"]
        if m["start"] != 0:
            raise InputError("a grid run starts at match 0")
        return GridSpec(GridRules(**p["table"]), tuple(p["bots"].split(",")), m["count"], p["seed"],
                        p.get("mc_samples"), m["chunk_size"], p.get("seating") or OLD_SEATING, recorded=True)

    def schema(self, p: GridSpec) -> ChunkSchema:
        cols = COLUMNS if p.seating != OLD_SEATING else _OLD_COLUMNS
        table = (p.rules.players, p.rules.holes, frozenset(p.bots))
        return ChunkSchema(tuple((c, CHUNK_TYPES.get(c, "int64")) for c in cols), "match", None, rows_per_cell=None,
                           max_rows_per_item=p.rules.players * (p.rules.holes + MAX_EXTRA_HOLES),
                           rows=partial(check_match_rows, item="match", table_of=lambda _: table))

    def table(self, out: Optional[str | Path], rules_spec: Optional[str], players: Optional[int],
              grid: Optional[int], holes: Optional[int], openers: Optional[int],
              bots_spec: Optional[str]) -> tuple[GridRules, tuple[str, ...]]:
        """The table and the bots a command asks for. Resuming or extending the run in
        ``out``, the table and bots not given again are the run's; otherwise the players
        default to one per bot given, else 4, and the bots to heuristic ones."""
        from ..grid.botnames import table_and_bots

        old = self.read(out) if out is not None and manifest_path(out) is not None else None
        return table_and_bots(rules_spec, players, grid, holes, openers, bots_spec, old)

    def complete(self, v: dict, jobs: int) -> GridSpec:
        matches = DEFAULT_MATCHES if v["matches"] is None else v["matches"]
        # a resumed or extended run keeps its own scheme (resolve fills it in from the run)
        return GridSpec(v["rules"], tuple(v["bots"]), matches, 0 if v["seed"] is None else v["seed"], v["samples"],
                        self.default_chunk_size(matches, jobs) if v["chunk_size"] is None else v["chunk_size"],
                        SEATING if v.get("seating") is None else v["seating"])

    def source(self, todo: Sequence[Chunk], p: GridSpec, jobs: int) -> Iterator[tuple[Chunk, pd.DataFrame]]:
        from ..grid.compiling import warm

        if todo:  # compiled once here, with the notice, not silently in every worker
            warm(p.rules, p.bots, p.samples)
        # one table and bot list for every task: a dict per chunk costs a minute and 1.3 GB before
        # the first of a million one-match chunks
        table, bots = p.rules.to_dict(), list(p.bots)
        tasks = [(c, table, bots, p.seed, p.samples, p.seating) for c in todo]
        return ((task[0], df) for task, df in compute(tasks, play_chunk, jobs))

    def manifest_extra(self, p: GridSpec) -> dict:
        return {"rules_described": p.rules.describe()}

    def new_run_extra(self, p: GridSpec) -> dict:
        from ..grid.tournament import played_settings

        return {"bot_settings": played_settings(p.bots, p.samples)}

    def check_continued(self, out: str | Path, p: GridSpec, flag: str) -> None:
        old = self.read(out)
        if (old.bots, old.samples) != (p.bots, p.samples):
            return  # other bots: open_run names that difference
        check_same_bots(out, recorded_settings(out, old.bots), p.bots, p.samples, flag)

    def check_scheme(self, out: str | Path) -> None:
        """:class:`InputError` if the run in ``out`` was made with a seating scheme golfsolve
        no longer plays (continuing it with another would mix two schemes in one run)."""
        if manifest_path(out) is not None:
            old = self.read(out)
            if old.seating not in PLAYED_SEATINGS:
                # a manifest whose seating was deleted by hand reads as the old rotation: its
                # chunks, which record the scheme they were played with, say it was edited
                check_chunks_made_with(Path(out), self.key(old))
                raise InputError(f"{out} was made with the '{old.seating}' seating (each bot always after the "
                                 f"same neighbour), which golfsolve reads but does not play; it cannot be resumed "
                                 f"or extended with the '{SEATING}' one: start a new run folder")

    def resolve(self, out: str | Path, given: dict, *, resume: bool = False, extend: bool = False,
                jobs: int = 1) -> GridSpec:
        from ..grid.botnames import takes_mc_samples

        if resume or extend:
            self.check_scheme(check_out_dir(out, create=False))
        spec = super().resolve(out, given, resume=resume, extend=extend, jobs=jobs)
        if (resume or extend) and given.get("samples") is None and spec.samples is not None \
                and not any(takes_mc_samples(b) for b in spec.bots):
            # the run's sample count, not given here, came with it: refused later as "samples sets the
            # sample count ...; leave samples out", which the command line cannot do
            old = self.read(out)
            raise InputError(f"{'--resume' if resume else '--extend'}: {out} holds a run of the bots "
                             f"{','.join(old.bots)} with --mc-samples {old.samples}, and the bots "
                             f"{','.join(spec.bots)} take no sample count; repeat the run's bots, or choose "
                             "another --out")
        return spec

    def open(self, out: str | Path, p: GridSpec, *, resume: bool = False, extend: bool = False,
             command: str = "") -> RunFolder:
        if resume or extend:
            self.check_scheme(out)
            if p.seating not in PLAYED_SEATINGS:
                raise InputError(f"runs with the {p.seating!r} seating are read, not played on")
        elif p.seating != SEATING:
            # an older scheme only goes on in the run made with it
            raise InputError(f"new runs use the '{SEATING}' seating, not {p.seating!r}")
        return super().open(out, p, resume=resume, extend=extend, command=command)


#: The grid-simulate run kind.
GRID = GridKind()


def run_grid_simulate(out: str | Path, spec: GridSpec, *, resume: bool = False, extend: bool = False,
                      jobs: int = 1, command: str = "", progress: Optional[bool] = None) -> dict:
    """Play the matches of ``spec`` into the run folder ``out``, writing each chunk as it ends.

    ``resume`` plays only the missing or damaged chunks; ``extend`` adds matches to the run
    in ``out``. Returns the invocation's manifest entry (``repaired`` names damaged chunks).
    """
    from ..grid.botnames import check_distinct_bots, check_samples_used

    jobs = check_jobs(jobs)  # a plain int: a NumPy one reaches the manifest, which JSON cannot write
    if isinstance(spec, GridSpec):  # another type is named by GRID.run, as every run kind names it
        # before the folder is made: each chunk's simulate refuses both, once a manifest is written
        check_samples_used(spec.bots, spec.samples)
        check_distinct_bots(spec.bots, spec.samples)
    inv, _ = GRID.run(out, spec, resume=resume, extend=extend, jobs=jobs, command=command, progress=progress,
                      info={"workers": jobs})
    return inv


def recorded_settings(out: str | Path, bots: Sequence[str], m: Optional[dict] = None) -> Optional[dict]:
    """The bots' full settings the manifest of the run in ``out`` (or ``m``, read from it)
    records for its bots ``bots``, checked; None for a run made before they were recorded."""
    from ..grid.botnames import check_settings_table
    from .runfolder import read_manifest

    if m is None:
        m = read_manifest(out)
    try:
        return check_settings_table(m.get("bot_settings"), bots, f"{manifest_path(out) or out}: field bot_settings")
    except InputError as e:
        raise InputError(f"{e}; repair or remove the file (a run folder's manifest is written by golfsolve)") from None


def check_same_bots(out: str | Path, recorded: Optional[dict], bots: Sequence[str], samples: Optional[int],
                    flag: str) -> None:
    """:class:`InputError`, one line naming the bot and the setting, if a bot of ``bots``
    (with ``samples``, the Monte Carlo samples of ``mc`` bots named without a count) would
    now play with other settings than the run in ``out`` recorded (``recorded``; None: not
    recorded, so nothing to check): its matches so far and the new ones would be two
    players under one name. A setting the run did not record (added since) is not checked."""
    if recorded is None:
        return
    from ..grid.botnames import settings_difference
    from ..grid.bots import bot_settings

    for name in dict.fromkeys(bots):
        if name not in recorded:
            continue
        diff = settings_difference(recorded[name], bot_settings(name, samples))
        if diff is not None:
            key, was, now = diff
            raise InputError(f"{flag}: bot {name!r} of the run in {out} played with {key} {was}, but this "
                             f"golfsolve's {name!r} plays with {key} {now}; the run cannot go on with the same "
                             "bot: start a new run in another --out")


def load_tournament(out: str | Path) -> Tournament:
    """The tournament in the folder ``out``: a run folder, or the older ``meta.json`` layout."""
    from .outdirs import check_out_type

    check_out_type(out)
    out = Path(out)
    if not out.is_dir():
        raise InputError(f"no results directory {str(out)!r}")
    if manifest_path(out) is None and (out / "meta.json").exists():
        return _load_old(out)
    m, spec, frames = GRID.load(out)  # a folder that holds no run is refused before pandas loads
    import pandas as pd

    if not frames:
        raise InputError(f"{out}: no chunk is finished yet, so there is nothing to report")
    df = pd.concat(frames, ignore_index=True).sort_values(["match", "hole", "seat"], kind="stable")
    df = _with_before(df.reset_index(drop=True), spec.bots, spec.seed, spec.seating)
    holes, matches = two_tables(df)
    return Tournament(rules=spec.rules, bots=list(spec.bots), seed=spec.seed, holes=holes, matches=matches,
                      samples=spec.samples, seating=spec.seating, bot_settings=recorded_settings(out, spec.bots, m))


def _with_before(df: pd.DataFrame, bots: Sequence[str], seed: int, scheme: str) -> pd.DataFrame:
    """``df`` with the ``before`` columns, rebuilt from the seating when a run lacks them."""
    if "before" in df.columns:
        return df
    n = len(bots)
    before = {m: before_entries(seating(n, m, seed, scheme)) for m in df["match"].unique().tolist()}
    df = df.copy()
    df["before"] = [before[m][s] for m, s in zip(df["match"].tolist(), df["seat"].tolist())]
    df["before_bot"] = [bots[e] for e in df["before"].tolist()]
    return df


def check_match_rows(table: pa.Table, item: str, table_of: Callable[[int], tuple[int, int, frozenset]]) -> Optional[str]:
    """Why a chunk's rows are not whole matches (None: they are): every match numbered by
    the column ``item`` must have holes 0..k-1 (its table's holes, plus at most ten
    sudden-death holes), one row per seat and hole, and only its table's bots.
    ``table_of(item)`` is ``(players, holes, bots)``. A chunk edited by hand (a row removed,
    a seat or bot changed) is refused here, before any statistic counts it."""
    import numpy as np

    df = table.select([item, "hole", "seat", "bot"]).to_pandas()
    items, inv = np.unique(df[item].to_numpy(), return_inverse=True)
    tables = [table_of(int(i)) for i in items]
    players = np.array([t[0] for t in tables])
    holes = np.array([t[1] for t in tables])
    span = df.groupby(inv)["hole"].agg(["min", "max", "size"])
    k = span["max"].to_numpy() + 1
    bad = ((span["min"].to_numpy() != 0) | (k < holes) | (k > holes + MAX_EXTRA_HOLES)
           | (span["size"].to_numpy() != k * players))
    seat = df["seat"].to_numpy()
    wrong_seat = (seat < 0) | (seat >= players[inv]) | df.duplicated([item, "hole", "seat"]).to_numpy()
    bad[inv[wrong_seat]] = True
    if bad.any():
        j = int(np.argmax(bad))
        return (f"does not hold one row per seat and hole of {item} {items[j]} "
                f"({players[j]} players, {holes[j]}+ holes)")
    line_ups: dict[frozenset, list[int]] = {}
    for j, t in enumerate(tables):
        line_ups.setdefault(t[2], []).append(j)
    bots = df["bot"].to_numpy()
    for allowed, js in line_ups.items():
        rows = np.isin(inv, js)
        stray = rows & ~np.isin(bots, list(allowed))
        if stray.any():
            return f"names a bot that {item} {items[inv[int(np.argmax(stray))]]} does not seat"
    return None


def _load_old(out: Path) -> Tournament:
    import pandas as pd

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
        scheme = meta.get("seating", OLD_SEATING)
        holes = _with_before(tables["holes"], meta["bots"], meta["seed"], scheme)
        holes = holes[[c for c in HOLE_COLUMNS if c in holes.columns]]
        return Tournament(rules=GridRules(**meta["rules"]), bots=meta["bots"], seed=meta["seed"],
                          holes=holes, matches=tables["matches"], samples=meta.get("mc_samples"), seating=scheme)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise InputError(f"{out} is not a readable 'golfsolve grid simulate' folder: {e}") from None


def run_command(out: str | Path) -> str:
    """The command that made the run in ``out`` as it stands ('' for a folder without a manifest)."""
    from .runfolder import read_manifest, run_commands

    if manifest_path(out) is None:
        return ""
    return "\n".join(run_commands(read_manifest(out, GRID.format)))


def planned_matches(out: str | Path) -> Optional[int]:
    """The matches the run in ``out`` asks for while it is unfinished (killed, still being
    played, or a chunk lost since); None once it is complete (or for a folder without a manifest)."""
    from .runfolder import chunk_files, read_manifest

    if manifest_path(out) is None:
        return None
    m = read_manifest(out, GRID.format)
    every_chunk = set(chunk_files(out)) >= {c.name for c in RunFolder(Path(out), m).chunks()}
    return None if m.get("complete") and every_chunk else int(m["count"])


def export_csv(t: Tournament, out: str | Path) -> list[Path]:
    """Write ``_holes.csv`` and ``_matches.csv`` beside the chunks (pandas skips the ``_`` names).

    ``out`` is the run folder ``t`` was read from, or a folder that holds no run (made if
    new); the folder of another run is :class:`InputError`: its exports would describe
    matches it never played, and a later ``--resume`` of it would keep them."""
    from .runfolder import chunk_files, read_manifest
    from .outdirs import check_out_type

    expect(t, Tournament, "t", "a Tournament, e.g. load_tournament(DIR)")
    check_out_type(out)
    if manifest_path(out) is not None:
        spec = GRID.read(out)  # a run of another kind is named as such
        m = read_manifest(out, GRID.format)
        have = set(chunk_files(out))
        played = {i for c in RunFolder(Path(out), m).chunks() if c.name in have for i in range(c.first, c.last + 1)}
        same = (spec.rules, spec.bots, spec.seed, spec.samples, spec.seating) == \
            (t.rules, tuple(t.bots), t.seed, t.samples, t.seating)
        if not same or set(t.matches["match"].tolist()) != played:
            raise InputError(f"{out} holds another tournament ({plural(len(played), 'match', 'matches')} of "
                             f"{','.join(spec.bots)}, seed {spec.seed}: {spec.rules.describe()}), not this one of "
                             f"{plural(t.meta()['matches'], 'match', 'matches')} of {','.join(t.bots)}, seed "
                             f"{t.seed}; export load_tournament({str(out)!r}) there, or this one into a new directory")
    else:
        check_out_dir(out, "out")
    paths = []
    for name, df in (("holes", t.holes), ("matches", t.matches)):
        p = Path(out) / f"_{name}.csv"
        write_text_atomic(p, df.to_csv(index=False))  # replaces what is there (a FIFO would block a plain write)
        paths.append(p)
    return paths


__all__ = ["CHUNK_TYPES", "COLUMNS", "DEFAULT_MATCHES", "GRID", "GridSpec", "MAX_EXTRA_HOLES", "check_match_rows",
           "check_same_bots", "export_csv", "load_tournament", "one_table", "play_chunk", "recorded_settings",
           "run_command", "run_grid_simulate", "two_tables"]
