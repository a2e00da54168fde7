"""Fair play against clairvoyant play over a range of deals: the batch run and its report.

The player is :func:`golfsolve.fair.play` with one of the :data:`~golfsolve.fair.PRESETS`;
this module plays it over many deals (in worker processes) and turns the rows into the
report's table. The run's manifest records the player's full settings (``params.player``),
so a resumed or extended run never mixes two players.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Optional, Sequence, Union

from ..errors import InputError
from ..inputs import check_seed
from ..fair import PRESETS, PlayerSettings, play, player_settings
from ..intervals import wilson
from ..solitaire.dealcode import N_DEALS
from ..solitaire.layout import layout_from_number
from ..solitaire.rules import code_letter, get_rules
from ..solitaire.solver import Solver
from ..text import estimate, stretches
from .runblocks import Chunk
from .runkey import RunKey, check_same_player, key_from_manifest
from .chunkschema import ChunkSchema
from .runfolder import (check_chunk_size, check_chunks_made_with, how_to_finish, latest_command, manifest_path, name_list,
                        whole_fields)
from .runlayout import FAIR_STATS
from .runlock import being_written
from .outdirs import check_out_type
from .atomic import write_text_atomic
from .pool import check_jobs, compute
from .runkind import RunKind, parse_rules_list, rules_described

if TYPE_CHECKING:  # pandas and pydantic load when a run is read or played: the arguments are checked before
    import pandas as pd
    import pyarrow as pa
    from pydantic import BaseModel

#: The largest default chunk: a fair game takes about a second, so an interrupted run loses
#: well under a minute per worker.
MAX_DEFAULT_CHUNK = 20
#: Columns of every chunk (one row per deal and rule set).
FAIR_COLUMNS = ("rules", "deal", "code", "clairvoyant_won", "clairvoyant_left", "fair_won", "lost_at",
                "lost_on_draw", "moves", "decisions", "solves", "seconds")


def check_rows(table: "pa.Table") -> Optional[str]:
    """Why a chunk's values are not what :func:`fair_deal_row` writes (None: they are): a code
    that is not its deal's, a fair win of a deal the clairvoyant solve lost, a game that does
    not end as its verdicts say (an unwinnable deal is not played: no move, lost at 0; a won
    game clears the table, lost at -1; a lost one stops where it was lost), a count out of
    range, a time that is no time. Only what holds for every honest row; a value edited by
    hand would otherwise reach the report's win rates."""
    import numpy as np

    from ..cards import N_STANDARD
    from ..solitaire.layout import N_TABLEAU
    from .chunkschema import bad_time, first_bad_row, row_values
    from .runkind import code_check

    cw, fw, on_draw = (row_values(table, c) for c in ("clairvoyant_won", "fair_won", "lost_on_draw"))
    left, lost_at, moves, decisions, solves, seconds = (row_values(table, c) for c in (
        "clairvoyant_left", "lost_at", "moves", "decisions", "solves", "seconds"))
    jokers = {name: get_rules(name).jokers for name in set(row_values(table, "rules").tolist())}
    deck = np.array([N_STANDARD + jokers[r] for r in row_values(table, "rules").tolist()], dtype=np.int64)
    stop = np.where(fw, -1, np.where(cw, moves, 0))  # where each game was lost (-1: won; 0: never played)
    return first_bad_row(table, "deal", "rules", [
        code_check(table),
        (fw & ~cw, lambda i: "fair_won True where clairvoyant_won is False (every fair win is a clairvoyant win)"),
        (np.where(cw, left != 0, (left < 1) | (left > N_TABLEAU)),
         lambda i: f"clairvoyant_left {left[i]}, not "
                   + ("0 (the deal is winnable)" if cw[i] else f"1..{N_TABLEAU} (the deal is lost)")),
        (~cw & ((moves != 0) | (decisions != 0)),
         lambda i: f"{moves[i]} moves and {decisions[i]} decisions on a deal that is lost, which is not played"),
        ((moves < 0) | (moves > deck), lambda i: f"moves {moves[i]}, not 0..{deck[i]}"),
        (fw & (moves < N_TABLEAU), lambda i: f"a fair win in {moves[i]} moves (a win removes all {N_TABLEAU} "
                                             "table cards)"),
        ((decisions < 0) | (decisions > moves), lambda i: f"decisions {decisions[i]}, not 0..{moves[i]} (its moves)"),
        (solves < 1, lambda i: f"solves {solves[i]}, not at least 1 (the clairvoyant solve)"),
        (lost_at != stop, lambda i: f"lost_at {lost_at[i]}, not {stop[i]} ("
                                    + ("a fair win" if fw[i] else "the moves of the lost game" if cw[i]
                                       else "a lost deal is not played") + ")"),
        (on_draw & (fw | ~cw), lambda i: "lost_on_draw True in a game that was "
                                         + ("won" if fw[i] else "not played (the deal is lost)")),
        (bad_time(seconds), lambda i: f"seconds {seconds[i]}, which no clock measures"),
    ])


#: What every chunk holds.
SCHEMA = ChunkSchema((("rules", "string"), ("deal", "int64"), ("code", "string"), ("clairvoyant_won", "bool"),
                      ("clairvoyant_left", "int64"), ("fair_won", "bool"), ("lost_at", "int64"),
                      ("lost_on_draw", "bool"), ("moves", "int64"), ("decisions", "int64"), ("solves", "int64"),
                      ("seconds", "double")), "deal", "rules", rows=check_rows)
#: The report written into the run folder (the underscore keeps it out of pandas' way).
REPORT_NAME = "_fair.md"

_WORKER_SOLVER: Optional[Solver] = None
#: How each game's fair player is seeded, recorded in the run: the run's seed alone.
GAME_SEED = "the run's seed"
#: Which move a lost game's ``lost_at`` and ``lost_on_draw`` name, recorded in the run: runs
#: before it named the last move before the referee's check, nearly always a draw.
LOST_AT = "the move that lost"


def _worker_init(rules: Sequence[str] = ()) -> None:
    # one Solver per process: its work tables are large and reused by every solve; a solve
    # under each rule set loads its kernel before any game is timed
    global _WORKER_SOLVER
    _WORKER_SOLVER = Solver()
    for r in rules:
        rs = get_rules(r)
        _WORKER_SOLVER.solve(layout_from_number(0, rs), rs)


def fair_deal_row(rules_name: str, number: int, seed: int, player: "str | PlayerSettings" = "strong",
                  solver: Optional[Solver] = None) -> dict:
    """One row of the fair-stats table: deal ``number`` under ``rules_name``, played fairly by ``player``."""
    rules = get_rules(rules_name)
    layout = layout_from_number(number, rules, code_letter(rules))
    # every game's player has the run's seed, whichever worker plays it: one fixed strategy,
    # as odds' games have. A seed naming the deal number (which fixes the hidden stock) played
    # twin deals, alike but for cards not yet drawn, with differently seeded players
    g = play(layout, rules, player, seed, solver or _WORKER_SOLVER)
    return {
        "rules": rules_name, "deal": number, "code": layout.name,
        "clairvoyant_won": g.clairvoyant_won, "clairvoyant_left": g.clairvoyant_left,
        "fair_won": g.won, "lost_at": -1 if g.lost_at is None else g.lost_at, "lost_on_draw": g.lost_on_draw,
        "moves": len(g.moves), "decisions": g.decisions, "solves": g.solves, "seconds": round(g.seconds, 4),
    }


@dataclass(frozen=True)
class FairSpec:
    """A fair-stats run: deals ``start .. start + count - 1`` under each of ``rules``, played
    by the fair player with ``player``'s settings, seeded by ``seed``, in chunks of
    ``chunk_size`` deals."""

    start: int
    count: int
    rules: tuple[str, ...]
    seed: int = 0
    chunk_size: int = MAX_DEFAULT_CHUNK
    player: PlayerSettings = PRESETS["strong"]

    def __post_init__(self) -> None:
        from ..solitaire.dealcode import N_DEALS

        whole_fields(self, "start", "count", "seed", "chunk_size")
        name_list(self, "rules", "('easy', 'classic')")
        object.__setattr__(self, "player", player_settings(self.player))  # a preset's name, or the settings
        if not self.rules:
            raise InputError("--rules needs at least one rule set, e.g. easy,classic")
        parse_rules_list(self.rules)  # bad names, or one rule set twice, are bad input before any work starts
        if self.count < 1:
            raise InputError(f"--count must be at least 1, not {self.count}")
        check_chunk_size(self.chunk_size)
        if not 0 <= self.start or self.start + self.count > N_DEALS:
            raise InputError(f"deals {self.start}..{self.start + self.count - 1} are outside 0..{N_DEALS - 1}")
        check_seed(self.seed)

    def run_key(self) -> RunKey:
        """The run folder's key for this spec."""
        # the player's full settings are part of the key: a run never mixes players
        # game_seed: how a game's player is seeded (runs before it named the deal number in the
        # seed, which a player does not see: they are not continued with other seeds); lost_at:
        # runs before it recorded another move as the losing one, not to be mixed with these
        return RunKey(FairKind.format, self.start, self.count, tuple(self.rules), self.chunk_size,
                      (("game_seed", GAME_SEED), ("lost_at", LOST_AT), ("player", self.player.as_dict()),
                       ("seed", self.seed)))


def recorded_player(m: dict) -> dict:
    """The player settings a fair-stats manifest records; :class:`InputError` for a run made
    with a player this golfsolve does not have."""
    p = m["params"].get("player", "sampled")
    if not isinstance(p, dict):
        raise InputError(f"this run was made with the {p!r} player, which this golfsolve does not have; "
                         "start a new run in another --out")
    return p


def read_fair_manifest(out: str | Path) -> dict:
    """The checked manifest of the fair-stats run in ``out``; :class:`InputError` when there is
    none or a field of it is wrong."""
    return FAIR.read_manifest(out)


def play_chunk(task: tuple) -> pd.DataFrame:
    """The rows of one chunk: its deals, deal-major, under each of its rule sets."""
    import pandas as pd

    chunk, seed, player = task
    rows = [fair_deal_row(r, n, seed, player) for n in range(chunk.first, chunk.first + chunk.count)
            for r in chunk.groups]
    return pd.DataFrame(rows, columns=list(FAIR_COLUMNS))


@functools.cache
def _params_model() -> type[BaseModel]:
    """The pydantic model of a fair-stats manifest's ``params`` (pydantic loads only when a run is read)."""
    from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr, create_model

    _STRICT = {bool: StrictBool, int: StrictInt, str: StrictStr, float: Union[StrictFloat, StrictInt]}
    #: A manifest's player: every field of :class:`PlayerSettings` with its exact type, and its preset's name.
    _Player = create_model("PlayerModel", __config__=ConfigDict(extra="forbid"), preset=(StrictStr, ""),
                           **{f.name: (_STRICT[type(f.default)], f.default) for f in dataclasses.fields(PlayerSettings)})

    class _Params(BaseModel):
        """The ``params`` of a fair-stats manifest (runs of players golfsolve no longer has name
        the player by a string and keep their settings beside it)."""

        model_config = ConfigDict(extra="allow")
        seed: StrictInt = Field(ge=0, le=2**64 - 1)
        player: Union[_Player, StrictStr] = "sampled"

    return _Params


class FairKind(RunKind[FairSpec]):
    """``golfsolve fair-stats``: deals x rule sets, played by the fair player."""

    format = FAIR_STATS
    command = "golfsolve fair-stats"
    item = "deal"
    params_type = FairSpec
    side_files = (REPORT_NAME,)
    make_params_model = staticmethod(_params_model)
    max_default_chunk = MAX_DEFAULT_CHUNK
    max_items = N_DEALS

    def from_manifest(self, m: dict) -> FairSpec:
        return FairSpec(m["start"], m["count"], tuple(m["rules"]), m["params"]["seed"], m["chunk_size"],
                        PlayerSettings.from_dict(recorded_player(m)))

    def schema(self, p: FairSpec) -> ChunkSchema:
        return SCHEMA

    def resolve(self, out: str | Path, given: dict, *, resume: bool = False, extend: bool = False, jobs: int = 1) -> FairSpec:
        # Not given again, the player is the run's preset by name: if that preset's settings
        # changed since, the run is refused (check_same_player), never continued with others.
        if given.get("player") is None and (resume or extend) and manifest_path(out) is not None:
            named = recorded_player(self.read_manifest(out)).get("preset")
            given = {**given, "player": PRESETS.get(named)}
        return super().resolve(out, given, resume=resume, extend=extend, jobs=jobs)

    def complete(self, v: dict, jobs: int) -> FairSpec:
        count = 100 if v["count"] is None else v["count"]
        return FairSpec(0 if v["start"] is None else v["start"], count, tuple(v["rules"] or ("easy", "classic")),
                        0 if v["seed"] is None else v["seed"],
                        self.default_chunk_size(count, jobs) if v["chunk_size"] is None else v["chunk_size"],
                        v["player"] or PRESETS["strong"])

    def source(self, todo: Sequence[Chunk], p: FairSpec, jobs: int) -> Iterator[tuple[Chunk, pd.DataFrame]]:
        tasks = [(c, p.seed, p.player) for c in todo]
        return ((task[0], df) for task, df in compute(tasks, play_chunk, jobs, partial(_worker_init, p.rules)))

    def manifest_extra(self, p: FairSpec) -> dict:
        return {"rules_described": rules_described(p.rules)}


#: The fair-stats run kind.
FAIR = FairKind()


def run_fair_stats(
    out: str | Path,
    spec: FairSpec,
    *,
    resume: bool = False,
    extend: bool = False,
    jobs: int = 1,
    command: str = "",
    progress: Optional[bool] = None,
) -> dict:
    """Play the deals of ``spec`` fairly into the run folder ``out``, chunk by chunk.

    Only the chunks that are missing or damaged are played (``resume``); ``extend`` grows
    the run in ``out`` to ``spec``. A run recorded with other player settings is refused,
    naming the setting. Every finished chunk is on disk at once, so an interrupted run
    (KeyboardInterrupt, kill) keeps them. Returns the invocation's manifest entry, with
    ``repaired`` naming the chunks that were damaged.
    """
    jobs = check_jobs(jobs)  # a plain int: a NumPy one reaches the manifest, which JSON cannot write
    check_out_type(out)
    if (resume or extend) and manifest_path(out) is not None:
        m = read_fair_manifest(out)
        # a player edited in the manifest is named as edited, not as the one the run was played with
        check_chunks_made_with(Path(out), key_from_manifest(m))
        check_same_player(recorded_player(m), spec.player, "--resume" if resume else "--extend")
    inv, _ = FAIR.run(out, spec, resume=resume, extend=extend, jobs=jobs, command=command, progress=progress,
                      info={"workers": jobs})
    return inv


def load_fair_results(out: str | Path, allow_incomplete: bool = True) -> pd.DataFrame:
    """Every row of the fair-stats run in ``out``, sorted by rule order then deal."""
    import pandas as pd

    m, _, frames = FAIR.load(out, allow_incomplete)
    if not frames:
        return pd.DataFrame(columns=list(FAIR_COLUMNS))
    df = pd.concat(frames, ignore_index=True)
    order = {r: i for i, r in enumerate(m["rules"])}
    return (df.assign(_r=df["rules"].map(order)).sort_values(["_r", "deal"], kind="stable")
            .drop(columns="_r").reset_index(drop=True))


def compare_fair_runs(a: str | Path, b: str | Path) -> list[dict]:
    """Two fair-stats runs (say ``--player strong`` and ``--player fast`` with the same
    deals and seed) paired deal by deal, per rule set, over the deals both have played:
    each player's wins, the deals only one of them won, the mean per-deal difference
    (a minus b) with its Student t 95% interval (NaN ends when the two won the same deals,
    or only one deal is shared: no spread to draw it from), and the mean wall seconds per deal."""
    import numpy as np

    from ..intervals import mean_ci

    players = [FAIR.from_manifest(read_fair_manifest(d)).player.preset for d in (a, b)]
    both = load_fair_results(a).merge(load_fair_results(b), on=["rules", "deal"], suffixes=("_a", "_b"))
    out = []
    for name in dict.fromkeys(both["rules"]):
        rs = both[both["rules"] == name]
        d = rs["fair_won_a"].astype(int).to_numpy() - rs["fair_won_b"].astype(int).to_numpy()
        mean, lo, hi = mean_ci(d.astype(np.float64))
        out.append({"rules": name, "deals": len(rs), "first": int(rs["deal"].min()), "last": int(rs["deal"].max()),
                    "player_a": players[0], "player_b": players[1],
                    "wins_a": int(rs["fair_won_a"].sum()), "wins_b": int(rs["fair_won_b"].sum()),
                    "clairvoyant": int(rs["clairvoyant_won_a"].sum()),
                    "only_a": int((d > 0).sum()), "only_b": int((d < 0).sum()),
                    "difference": float(mean), "ci95": [float(lo), float(hi)],
                    "seconds_a": float(rs["seconds_a"].mean()), "seconds_b": float(rs["seconds_b"].mean())})
    return out


FAIR_TITLE = "Fair play against clairvoyant play"


def describe_player(p: PlayerSettings) -> str:
    """The fair player's settings in words, for reports."""
    cost = (f", the last ranking costing each card on the table {100 * p.card_cost:g}% of the orders raced"
            if p.card_cost else "")
    race = (f"the states within {p.race_slack} orders of the best raced on common orders up to {p.race_budget} "
            f"in all{cost}" if p.race_budget else f"ties raced on {p.extra} more orders")
    exact = (f"exact expectimax{' by the compiled kernel' if p.compiled_exact else ''} once at most "
             f"{p.exact_unknown} stock cards are unknown")
    times = "twice" if p.wrap_scale == 2 else f"{p.wrap_scale} times"
    wrap = f"; {times} as many orders where King and Ace are linked" if p.wrap_scale > 1 else ""
    more = (f"; where no position wins on any order, more orders until one does, up to {p.hopeless}"
            if p.hopeless and p.race_budget else "")
    carry = ("; each decision's orders are the last decision's with the cards drawn since taken out"
             if p.carry else "")
    by_rank = "; the cards named by rank, as suits play no part" if p.by_rank else ""
    return (f"the {p.preset} preset: before each blind draw it picks the pre-draw position that keeps a win in the "
            f"most of {p.samples} sampled stock orders ({race}, then fewer cards on the table; {exact}{wrap}"
            f"{more}{carry}{by_rank})")


def fair_intro(command: str, spec: FairSpec) -> str:
    """The paragraph that says what the fair-play table measures and how it was made."""
    # the rules in words, from the rule sets themselves as the stats report gives them: the
    # table named them only ("classic"), which a reader of the summary alone had to look up
    rules = "; ".join(rules_described(spec.rules).values())
    return (
        f"Command: `{command}`. Rules: {rules}. "
        "Clairvoyant: the deal is winnable (exact solve with the real stock order visible). Fair: the fair "
        f"player's real result, {describe_player(spec.player)}, without seeing the stock; then the real next card "
        "is turned. Every fair win is a clairvoyant win, so the gap is the share of deals that are winnable but "
        "lost by the fair player; its interval is a Wilson interval on those paired per-deal differences. "
        "Fair wins / winnable deals: of the deals the clairvoyant player wins, the share the fair player wins too "
        "(— where no deal is winnable). Gap "
        "deals lost on a draw: of the gap's deals, those whose last winning line a blind draw broke (the card "
        "turned up), the others lost by a remove. "
        f"95% Wilson intervals throughout; seed {spec.seed}."
    )


def fair_table(rows: Sequence[dict]) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the fair-play table: win rates, intervals and the paired gap per rule set."""
    # each interval column says so, as every other report's table does (the paragraph alone did)
    head = ["rules", "deals", "clairvoyant win rate [95% Wilson]", "fair player win rate [95% Wilson]",
            "gap (paired) [95% Wilson]", "fair wins / winnable deals [95% Wilson]", "gap deals lost on a draw",
            "solves per deal"]
    names: list[str] = []
    for r in rows:
        if r["rules"] not in names:
            names.append(r["rules"])

    def pct(k: int, n: int) -> str:
        _, lo, hi = wilson(k, n)
        return estimate(k / n, lo, hi, ".1f", percent=True) if n else "—"  # said in the paragraph

    out = []
    for name in names:
        rs = [r for r in rows if r["rules"] == name]
        n = len(rs)
        c = sum(bool(r["clairvoyant_won"]) for r in rs)
        f = sum(bool(r["fair_won"]) for r in rs)
        gap = sum(bool(r["clairvoyant_won"]) and not r["fair_won"] for r in rs)
        on_draw = sum(bool(r["lost_on_draw"]) for r in rs)
        played = stretches((r["deal"] for r in rs), sep="–")
        out.append([name, f"{n:,} ({'deal' if n == 1 else 'deals'} {played})", pct(c, n), pct(f, n), pct(gap, n), pct(f, c),
                    f"{on_draw} of {gap}", f"{sum(r['solves'] for r in rs) / n:,.0f}"])
    return head, out


def fair_report_markdown(rows: Sequence[dict], command: str, spec: FairSpec) -> str:
    """The Markdown section of a fair-stats run: win rates, intervals and the paired gap."""
    head, table = fair_table(rows)
    lines = [f"## {FAIR_TITLE}", "", fair_intro(command, spec), "",
             "| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    lines += ["| " + " | ".join(r) + " |" for r in table]
    lines.append("")
    return "\n".join(lines)


def write_fair_report(out: str | Path) -> dict[str, str]:
    """Write the fair-play section of the run in ``out`` to ``out/_fair.md``; return the paths
    of the run folder (its table) and of the report."""
    m = read_fair_manifest(out)
    spec = FAIR.from_manifest(m)
    rows = load_fair_results(out).to_dict("records")
    path = Path(out) / REPORT_NAME
    write_text_atomic(path, fair_report_markdown(rows, latest_command(m), spec))
    return {"table": str(out), "report": str(path)}


def load_fair_section(directory: str | Path) -> Optional[dict]:
    """The fair-play section of the fair-stats run in ``directory``:
    ``{"title", "intro", "head", "rows", "complete"}``, ready for a report; None when it has
    no rows yet. An unfinished run (killed, or a chunk lost since) says so in its intro."""
    m = read_fair_manifest(directory)
    spec = FAIR.from_manifest(m)
    rows = load_fair_results(directory).to_dict("records")
    if not rows:
        return None
    head, table = fair_table(rows)
    planned = spec.count * len(spec.rules)
    intro = fair_intro(latest_command(m), spec)
    if len(rows) < planned:
        # a --resume of a run another command is playing is refused: that one finishes it
        then = how_to_finish(m, directory, being_written(Path(directory)))
        intro += (f" **The run is unfinished**: {len(rows):,} of its {planned:,} games (deals times rule sets) are "
                  f"played; {then}.")
    return {"title": FAIR_TITLE, "head": head, "rows": table, "intro": intro, "complete": len(rows) >= planned}
