"""A study of grid Golf's table options: ``golfsolve grid study --out DIR``.

A study plays the same seeded tournament (:func:`golfsolve.grid.tournament.simulate`)
under several *option sets*: a base table (the default rules, four players, six
cards) and one-at-a-time variations of it (grid size, players, openers, the final putt,
knocking, pairwise cancelling, jokers, the Danish rule text's ``danish`` preset). Every option set
plays two tables (cells) with fixed line-ups (:func:`lineups`): the strongest bot among
heuristics, which gives every measure of the report (:mod:`golfsolve.stats.studyreport`)
but one, and the random bot among heuristics, which gives the bottom of the skill scale.

The study is one run folder (:mod:`golfsolve.stats.runfolder`): item ``i`` is match
``i % matches`` of cell ``i // matches``, so chunks are written as they end, a killed
study resumes with ``--resume`` and gives the same table, and every chunk holds the
columns of a ``grid simulate`` chunk plus ``item``, ``cell`` and ``set``. Seats follow the
tournaments' seating scheme (:data:`golfsolve.grid.tournament.SEATING`, recorded as
``params.seating``); a study made with the earlier ``balanced`` scheme resumes with it.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Literal, Optional, Sequence

from ..errors import MAX_EFFORT, InputError, clip
from ..inputs import ascii_lower, check_seed, expect, split_items
from ..text import plural
from ..grid.rules import DEFAULT_HOLES, GridRules, parse_rules
from ..grid.tournament import PLAYED_SEATINGS, SEATING, Tournament, simulate
from .gridruns import COLUMNS as GRID_COLUMNS
from .gridruns import DEFAULT_MATCHES as RUN_MATCHES
from .gridruns import CHUNK_TYPES, MAX_EXTRA_HOLES, check_match_rows, one_table, two_tables
from .runblocks import Chunk
from .runkey import RunKey
from .chunkschema import ChunkSchema
from .runfolder import check_chunk_size, name_list, whole_fields
from .runlayout import GRID_STUDY
from .outdirs import check_out_type
from .pool import check_jobs, compute
from .runkind import RunKind

if TYPE_CHECKING:  # pandas, pydantic and the bots load when a study is read or played: the arguments are checked before
    import pandas as pd
    from pydantic import BaseModel

#: The strongest bot of the default study: ISMCTS at 300 iterations, a third of the CPU of
#: ``ismcts:1000``, so the default study fits in its time (in it, +0.65 [+0.09, +1.20]
#: strokes a hole better than the heuristic on the base table; docs/grid.md). Another
#: (``ismcts:1000``, a stronger bot) is named with ``--strong``; the study records it and
#: its settings.
DEFAULT_STRONG = "ismcts:300"
#: Matches per table of the default study: a ``grid simulate`` run's default, whole seating
#: cycles at every table size. One match at each of its 16 strongest bot's tables costs
#: about 8 s of CPU with :data:`DEFAULT_STRONG` (each 3x3 grid 2.5 s; the random bot's
#: tables next to nothing), so about 1,000 s of CPU in all (docs/grid.md gives the measured run).
DEFAULT_MATCHES = RUN_MATCHES
#: The reference player and the floor of the skill scale.
HEURISTIC, RANDOM = "heuristic", "random"
#: The base table every variation starts from, with its holes: "grid-4" is the base table on
#: the 4-card grid, one change, not also the 4-card game's 18 holes.
BASE_TABLE = {"players": 4, "grid": 6, "holes": DEFAULT_HOLES}

#: The default design: the base table, then one option changed at a time. Pairwise
#: cancelling is tried on the 3x3 grid: in a column of two cards it is the plain column rule.
DEFAULT_SETS = ("base", "grid-4", "grid-8", "grid-9", "players-2", "players-3", "players-5", "players-6",
                "openers-0", "openers-4", "putt", "knock10", "knock-double", "grid-9+pairs", "jokers", "danish")
#: Named option sets that are rule switches on the base table (``danish`` is the preset).
_NAMED = {"base": "default", "putt": "default+putt", "knock10": "default+knock10",
          "knock-double": "default+knock-double", "jokers": "default+jokers",
          "danish": "danish"}
_TABLE_SET = re.compile(r"^(players|grid|openers|holes)-([0-9]{1,3})((?:\+[a-z0-9-]+)*)$")  # \d takes '٣' too
#: Chunk columns beyond a grid-simulate chunk's.
STUDY_COLUMNS = ["item", "cell", "set"]
COLUMNS = STUDY_COLUMNS + GRID_COLUMNS
#: The largest default chunk, in matches.
MAX_DEFAULT_CHUNK = 10
MAX_SETS = 64


def option_rules(name: str) -> GridRules:
    """The rules of the option set ``name``: a name of :data:`DEFAULT_SETS`, ``players-N``,
    ``grid-N``, ``openers-N`` or ``holes-N`` (the base table with that one change, and any
    rule switches after it: ``grid-9+pairs``), or a rule spec such as
    ``default+putt+knock10`` on the base table."""
    key = ascii_lower(expect(name, str, "an option set", "named by text, e.g. 'putt' or 'players-3'").strip())
    if not key:
        raise InputError("--sets has an empty option set name (two commas in a row?)")
    m = _TABLE_SET.match(key)
    try:
        if m:
            return parse_rules("default" + m.group(3), **{**BASE_TABLE, m.group(1): int(m.group(2))})
        return parse_rules(_NAMED.get(key, key), **BASE_TABLE)
    except InputError as e:
        if str(e).startswith("unknown grid rule"):
            raise InputError(f"unknown option set {clip(name)}: give one of {', '.join(DEFAULT_SETS)}, players-N, "
                             "grid-N, openers-N, holes-N or a rule spec such as default+putt") from None
        raise InputError(f"option set {clip(name)}: {e}") from None


def lineups(rules: GridRules, strong: str) -> list[tuple[str, ...]]:
    """The two tables (line-ups) that one option set plays: the strongest bot among
    heuristics, and the random bot among heuristics.

    The random bot sits at a table of its own so that every measure of the game (length,
    the first player's edge, the neighbour effect, stalls) comes from players who try to
    win, and the strongest bot's play-outs, which play the others as heuristics, fit its
    table (docs/experiments.md has the one-table design's numbers)."""
    n = rules.players
    return [(strong,) + (HEURISTIC,) * (n - 1), (HEURISTIC,) * (n - 1) + (RANDOM,)]


@dataclass(frozen=True)
class Cell:
    """One table of the study: an option set's rules and one line-up."""

    set: str
    rules: GridRules
    bots: tuple[str, ...]


@dataclass(frozen=True)
class StudySpec:
    """A study: ``matches`` seeded matches (``seed``) at every table of every option set of
    ``sets``, the strongest seat played by ``strong``, in chunks of ``chunk_size`` matches."""

    sets: tuple[str, ...] = DEFAULT_SETS
    strong: str = DEFAULT_STRONG
    matches: int = DEFAULT_MATCHES
    seed: int = 0
    chunk_size: int = MAX_DEFAULT_CHUNK
    #: the seating scheme: :data:`SEATING` for a new study, a study made with ``balanced`` keeps it
    seating: str = SEATING

    def __post_init__(self) -> None:
        from ..grid.botnames import split_bots

        whole_fields(self, "matches", "seed", "chunk_size")
        if not isinstance(self.seating, str) or self.seating not in PLAYED_SEATINGS:
            raise InputError(f"a study's seating scheme is one of {', '.join(PLAYED_SEATINGS)}, "
                             f"not {clip(repr(self.seating))}")
        name_list(self, "sets", "('base', 'putt')")
        # each name written one way, as --sets writes them: 'Base' would be recorded (and
        # reported) as a set of its own name, and --resume --sets base refused as another study
        object.__setattr__(self, "sets", tuple(ascii_lower(expect(s, str, "an option set", "named by text, e.g. 'putt'")
                                                           .strip()) for s in self.sets))
        if not isinstance(self.strong, str):
            raise TypeError(f"strong must be a bot's name, e.g. 'ismcts:300', not {type(self.strong).__name__}")
        if not self.sets:
            raise InputError("--sets needs at least one option set, e.g. base,putt")
        if len(self.sets) > MAX_SETS:
            raise InputError(f"a study has at most {MAX_SETS} option sets, not {len(self.sets)}")
        seen: dict[GridRules, str] = {}
        for s in self.sets:
            r = option_rules(s)
            if r in seen:
                raise InputError(f"option sets {seen[r]!r} and {s!r} are the same table; give one"
                                 if seen[r] != s else f"option set {s!r} is listed twice")
            seen[r] = s
        strong = split_bots(self.strong, "--strong")  # a bot name, checked before any play, written one way
        if len(strong) != 1:
            raise InputError(f"--strong is one bot, not {len(strong)} ({clip(self.strong)})")
        object.__setattr__(self, "strong", strong[0])
        if ascii_lower(self.strong.strip()) in (HEURISTIC, RANDOM):
            raise InputError(f"--strong must be a bot other than {HEURISTIC} and {RANDOM}, which every table seats; "
                             f"not {self.strong!r}")
        if not 1 <= self.matches <= MAX_EFFORT:
            raise InputError(f"--matches must be from 1 to {MAX_EFFORT:,}, not {self.matches}")
        check_chunk_size(self.chunk_size)
        check_seed(self.seed)
        if len(self.cells()) * self.matches > MAX_EFFORT:
            raise InputError(f"{plural(len(self.cells()), 'table')} of {plural(self.matches, 'match')} are more than {MAX_EFFORT:,}")

    def cells(self) -> list[Cell]:
        """Every table of the study, in order (an option set's tables side by side)."""
        out = []
        for s in self.sets:
            r = option_rules(s)
            out += [Cell(s, r, b) for b in lineups(r, self.strong)]
        return out

    def items(self) -> int:
        """Matches in the whole study."""
        return len(self.cells()) * self.matches


def parse_sets(spec: Optional[str]) -> Optional[tuple[str, ...]]:
    """``"base,putt,players-6"`` as a tuple of names (checked by :class:`StudySpec`); None stays None."""
    if spec is None:
        return None
    expect(spec, str, "sets", "the option sets' names as text, e.g. 'base,putt', or None")
    return tuple(ascii_lower(s) for s in split_items(spec, "--sets", "option set name"))


@functools.cache
def _params_model() -> type[BaseModel]:
    """The pydantic model of a grid-study manifest's ``params`` (pydantic loads only when a study is read)."""
    from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

    class _Cell(BaseModel):
        model_config = ConfigDict(extra="forbid")
        set: StrictStr
        bots: StrictStr
        table: dict[StrictStr, Any]

    class _Params(BaseModel):
        """The ``params`` of a grid-study manifest."""

        model_config = ConfigDict(extra="forbid")
        sets: StrictStr
        strong: StrictStr
        matches: StrictInt = Field(ge=1, le=MAX_EFFORT)
        seed: StrictInt = Field(ge=0, le=2**64 - 1)
        cells: list[_Cell] = Field(max_length=2 * MAX_SETS)
        seating: Literal["cyclic", "balanced"]

    return _Params


def _cells_json(p: StudySpec) -> list[dict]:
    return [{"set": c.set, "bots": ",".join(c.bots), "table": c.rules.to_dict()} for c in p.cells()]


def _first_change(recorded: list, now: list) -> str:
    """Where a study's recorded tables first differ from its option sets' now, for the message
    that refuses it: a definition changed since (danish gained openers_exact), and which."""
    def shown(table: dict, f: str) -> str:
        return json.dumps(table[f]) if f in table else "none"  # as the manifest writes it

    for old, new in zip(recorded, now):
        if not isinstance(old, dict) or old.get("set") != new["set"] or not isinstance(old.get("table"), dict):
            break
        for f in dict.fromkeys([*new["table"], *old["table"]]):
            if shown(old["table"], f) != shown(new["table"], f):
                return f": option set {new['set']!r} has {f} {shown(new['table'], f)} now, {shown(old['table'], f)} in the study"
    return ""


def play_chunk(task: tuple) -> pd.DataFrame:
    """Items ``chunk.first .. chunk.last`` of the study, as rows of :data:`COLUMNS`."""
    import pandas as pd

    chunk, cells, matches, seed, scheme = task
    frames = []
    item = chunk.first
    while item <= chunk.last:
        c, first = divmod(item, matches)
        count = min(matches - first, chunk.last - item + 1)
        cell = cells[c]
        t = simulate(GridRules(**cell["table"]), cell["bots"].split(","), count, seed, first_match=first,
                     scheme=scheme)
        df = one_table(t.holes, t.matches)
        df.insert(0, "set", cell["set"])
        df.insert(0, "cell", c)
        df.insert(0, "item", c * matches + df["match"])
        frames.append(df[COLUMNS])
        item += count
    return pd.concat(frames, ignore_index=True)


def bot_settings(name: str) -> dict[str, Any]:
    """The full settings a bot of this name plays with (:func:`golfsolve.grid.bots.bot_settings`), for the manifest."""
    from ..grid.bots import bot_settings as settings

    return settings(name)


def study_bots(p: StudySpec) -> tuple[str, ...]:
    """The bots every study seats: its strongest bot, the heuristic and the random bot."""
    return (p.strong, HEURISTIC, RANDOM)


class StudyKind(RunKind[StudySpec]):
    """``golfsolve grid study --out DIR``: seeded tournaments under several option sets."""

    format = GRID_STUDY
    command = "golfsolve grid study"
    item = "match"
    extendable = False
    params_type = StudySpec
    field_names = {"count": None}  # the matches of all tables: --matches times the tables of --sets
    as_written = ("sets", "strong")
    make_params_model = staticmethod(_params_model)
    group_field = None
    max_default_chunk = MAX_DEFAULT_CHUNK
    max_items = MAX_EFFORT

    def key(self, p: StudySpec) -> RunKey:
        return self.ungrouped_key(p.items(), p.chunk_size, {"sets": ",".join(p.sets), "strong": p.strong,
                                                             "matches": p.matches, "seed": p.seed,
                                                             "cells": _cells_json(p), "seating": p.seating})

    def from_manifest(self, m: dict) -> StudySpec:
        p = m["params"]
        spec = StudySpec(tuple(p["sets"].split(",")), p["strong"], p["matches"], p["seed"], m["chunk_size"],
                         p["seating"])
        if m["start"] != 0 or m["count"] != spec.items():
            raise InputError(f"a study of {plural(len(spec.cells()), 'table')} of {plural(spec.matches, 'match')} covers matches "
                             f"0..{spec.items() - 1}, not {m['start']}..{m['start'] + m['count'] - 1}")
        if p["cells"] != _cells_json(spec):
            raise InputError("its tables are not the ones its option sets make in this version of golfsolve"
                             + _first_change(p["cells"], _cells_json(spec)))
        return spec

    def schema(self, p: StudySpec) -> ChunkSchema:
        cells = p.cells()
        most = max(c.rules.players * (c.rules.holes + MAX_EXTRA_HOLES) for c in cells)
        types = {**CHUNK_TYPES, "set": "string"}
        tables = [(c.rules.players, c.rules.holes, frozenset(c.bots)) for c in cells]
        match_rows = partial(check_match_rows, item="item", table_of=lambda i: tables[i // p.matches])

        def rows(table) -> Optional[str]:
            items = table.column("item").to_numpy()
            cell_of = items // p.matches
            if (table.column("cell").to_numpy() != cell_of).any():
                return "has rows whose table (column 'cell') is not their match's"
            names = [cells[c].set for c in cell_of]
            if table.column("set").to_pylist() != names:
                return "has rows whose option set (column 'set') is not their match's"
            return match_rows(table)

        return ChunkSchema(tuple((c, types.get(c, "int64")) for c in COLUMNS), "item", None, rows_per_cell=None,
                           max_rows_per_item=most, rows=rows)

    def complete(self, v: dict, jobs: int) -> StudySpec:
        sets = DEFAULT_SETS if v["sets"] is None else v["sets"]
        matches = DEFAULT_MATCHES if v["matches"] is None else v["matches"]
        chunk = v["chunk_size"]
        if chunk is None:  # about ten chunks per worker and table: a killed study loses little
            chunk = max(1, min(MAX_DEFAULT_CHUNK, -(-matches // 8)))
        # a resumed study keeps its own scheme (resolve fills it in from the study)
        return StudySpec(sets, DEFAULT_STRONG if v["strong"] is None else v["strong"], matches,
                         0 if v["seed"] is None else v["seed"], chunk, SEATING if v.get("seating") is None
                         else v["seating"])

    def source(self, todo: Sequence[Chunk], p: StudySpec, jobs: int) -> Iterator[tuple[Chunk, pd.DataFrame]]:
        from ..grid.compiling import warm

        if todo:  # compiled once here, with the notice, not silently in every worker
            warm(GridRules(), (p.strong, HEURISTIC, RANDOM))
        cells = _cells_json(p)
        tasks = [(c, cells, p.matches, p.seed, p.seating) for c in todo]
        return ((task[0], df) for task, df in compute(tasks, play_chunk, jobs))

    def manifest_extra(self, p: StudySpec) -> dict:
        return {"rules_described": {s: option_rules(s).describe() for s in p.sets}}

    def new_run_extra(self, p: StudySpec) -> dict:
        return {"bot_settings": {b: bot_settings(b) for b in study_bots(p)}}

    def open(self, out: str | Path, p: StudySpec, *, resume: bool = False, extend: bool = False,
             command: str = ""):
        if not (resume or extend) and p.seating != SEATING:
            # an older scheme only goes on in the study made with it
            raise InputError(f"new studies use the '{SEATING}' seating, not {p.seating!r}")
        return super().open(out, p, resume=resume, extend=extend, command=command)

    def check_continued(self, out: str | Path, p: StudySpec, flag: str) -> None:
        from .gridruns import check_same_bots, recorded_settings

        old = self.read(out)
        if old.strong != p.strong:
            return  # another strongest bot: open_run names that difference
        check_same_bots(out, recorded_settings(out, study_bots(old)), study_bots(p), None, flag)


#: The grid-study run kind.
STUDY = StudyKind()


def run_study(out: str | Path, spec: StudySpec, *, resume: bool = False, jobs: int = 1, command: str = "",
              progress: Optional[bool] = None) -> dict:
    """Play every match of ``spec`` into the run folder ``out``, writing each chunk as it ends.

    ``resume`` plays only the chunks that are missing or damaged. Returns the invocation's
    manifest entry (``repaired`` names damaged chunks).
    """
    jobs = check_jobs(jobs)  # a plain int: a NumPy one reaches the manifest, which JSON cannot write
    inv, _ = STUDY.run(out, spec, resume=resume, jobs=jobs, command=command, progress=progress,
                       info={"workers": jobs})
    return inv


@dataclass
class Study:
    """A loaded study: its parameters, manifest, and one :class:`Tournament` per table."""

    spec: StudySpec
    manifest: dict
    cells: list[Cell]
    tournaments: list[Optional[Tournament]]

    def of_set(self, name: str) -> list[Tournament]:
        """The tournaments (with any match played) of the option set ``name``."""
        return [t for c, t in zip(self.cells, self.tournaments) if c.set == name and t is not None]


def is_study(out: str | Path) -> bool:
    """Whether the folder ``out`` holds a grid study (rather than a ``grid simulate`` run)."""
    from .runfolder import manifest_path

    check_out_type(out)
    p = manifest_path(out)
    if p is None:
        return False
    try:
        return json.loads(p.read_text(encoding="utf-8")).get("format") == StudyKind.format
    except (OSError, ValueError, AttributeError):
        return False  # the run kind's own reading says what is wrong


def load_study(out: str | Path) -> Study:
    """The study in the folder ``out``, every finished chunk checked."""
    check_out_type(out)
    out = Path(out)
    if not out.is_dir():
        raise InputError(f"no results directory {str(out)!r}")
    import pandas as pd

    m, spec, frames = STUDY.load(out)
    from .gridruns import recorded_settings

    settings = recorded_settings(out, study_bots(spec), m)  # checked: a field edited by hand is named
    if not frames:
        raise InputError(f"{out}: no chunk is finished yet, so there is nothing to report")
    df = pd.concat(frames, ignore_index=True).sort_values(["item", "hole", "seat"], kind="stable")
    cells = spec.cells()
    ts: list[Optional[Tournament]] = []
    for k, c in enumerate(cells):
        d = df[df["cell"] == k].reset_index(drop=True)
        if d.empty:
            ts.append(None)
            continue
        holes, matches = two_tables(d)
        ts.append(Tournament(rules=c.rules, bots=list(c.bots), seed=spec.seed, holes=holes, matches=matches,
                             seating=spec.seating, bot_settings=None if settings is None
                             else {b: settings[b] for b in dict.fromkeys(c.bots)}))
    return Study(spec=spec, manifest=m, cells=cells, tournaments=ts)


__all__ = ["COLUMNS", "DEFAULT_MATCHES", "DEFAULT_SETS", "DEFAULT_STRONG", "STUDY", "Cell", "Study", "StudySpec",
           "is_study", "lineups", "load_study", "option_rules", "parse_sets", "play_chunk", "run_study"]
