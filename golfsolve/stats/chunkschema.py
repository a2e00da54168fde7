"""What a chunk file of a run must hold, and the check of one.

Each run kind says what its chunks hold in a :class:`ChunkSchema`: the columns with their
Arrow types, which column numbers the items and which names the group, how many rows an
item has, and a check of the rows' values where every honest row agrees (built with
:func:`row_values`, :func:`first_bad_row` and :func:`bad_time`). :func:`check_chunk` says
why a file is not the chunk it should be, or gives its table: a chunk cut short, with a
column missing or of another type, or with the wrong rows is redone by ``--resume`` and
refused by the reports; one that records other settings than its run
(:func:`~.runkey.check_made_with`) is refused by both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from ..text import plural, plural_of
from .runblocks import Chunk
from .runkey import MADE_WITH, RunKey, check_made_with


@dataclass(frozen=True)
class ChunkSchema:
    """What every chunk file of a run kind holds: its columns with their Arrow types, which
    column numbers the items and which names the group, and how many rows each item has."""

    #: ``(name, Arrow type)`` of every column, e.g. ``("deal", "int64")``
    columns: tuple[tuple[str, str], ...]
    item: str
    group: Optional[str] = None
    #: columns that may hold nulls (all others may not)
    nullable: frozenset = frozenset()
    #: columns that chunks written by older versions may lack
    optional: frozenset = frozenset()
    #: rows per item and group; None when it varies (then at most ``max_rows_per_item`` per item)
    rows_per_cell: Optional[int] = 1
    max_rows_per_item: int = 1
    #: the run kind's check of a chunk's rows (pyarrow table in, why it is wrong or None out):
    #: what the columns' types and the row count cannot say (a row removed or made up by hand)
    rows: Optional[Callable[[Any], Optional[str]]] = field(default=None, compare=False)
    #: the values the item column holds for the chunk of items ``first .. first + count - 1``,
    #: given ``(first, count)``; None: the item numbers themselves. A run that takes every
    #: k-th deal numbers its items by position in the run and keeps the deal numbers.
    item_values: Optional[Callable[[int, int], Iterable[int]]] = field(default=None, compare=False)


def row_values(table: Any, name: str, fill: Any = 0) -> Any:
    """The column ``name`` of a chunk's table as a NumPy array, its nulls (where the schema
    allows them) as ``fill``: what a run kind's :attr:`ChunkSchema.rows` check compares."""
    col = table.column(name)
    if col.null_count:
        col = col.fill_null(fill)
    return col.to_numpy()


def first_bad_row(table: Any, item: str, group: Optional[str],
                  checks: Iterable[tuple[Any, Callable[[int], str]]]) -> Optional[str]:
    """What is wrong with the first row that breaks one of ``checks`` (None: no row does),
    the row named by its ``item`` and ``group``: a run kind's :attr:`ChunkSchema.rows` check of
    the values no honest run writes (a count out of range, two fields that disagree), which
    the columns' types cannot refuse. Each check is a boolean array over the rows (True: the
    row breaks it) and what is wrong with row ``i``, in words."""
    import numpy as np

    for bad, why in checks:
        hit = np.flatnonzero(bad)
        if hit.size:
            i = int(hit[0])
            where = f"{item} {table.column(item)[i].as_py()}"
            if group is not None:
                where += f" under {table.column(group)[i].as_py()!r}"
            return f"has {where} with {why(i)}"
    return None


def bad_time(x: Any) -> Any:
    """Which of the seconds ``x`` (a NumPy array) no clock measures: NaN, infinite or below 0."""
    import numpy as np

    with np.errstate(invalid="ignore"):
        return ~(np.isfinite(x) & (x >= 0))


#: Arrow types that hold the same values (pandas writes strings as large_string).
_SAME_TYPE = {"large_string": "string", "large_utf8": "string", "utf8": "string"}


def _type_name(t: Any) -> str:
    s = str(t)
    return _SAME_TYPE.get(s, s)


def check_chunk(path: Path, chunk: Chunk, schema: ChunkSchema,
                key: Optional[RunKey] = None) -> tuple[Optional[str], Any]:
    """Why the chunk file at ``path`` is not the chunk ``chunk`` of a run whose chunks follow
    ``schema`` (None when it is), and the file's table when it is.

    The columns and their types are checked from the file's footer, and its row count,
    before any data is read, so a damaged or hostile file costs no more memory than a good one.
    A chunk that records other settings than the run ``key`` (its manifest edited by hand)
    is :class:`InputError`: making it again would finish the run under other settings.
    """
    import pyarrow.parquet as pq

    if not path.is_file():
        return "is not a file", None
    try:
        pf = pq.ParquetFile(path)
        have = pf.schema_arrow
        n_rows = pf.metadata.num_rows
    except Exception:  # pyarrow raises several types for a cut or garbled file
        return ("is empty" if path.stat().st_size == 0 else "cannot be read (truncated, or not a Parquet file)"), None
    if key is not None:
        check_made_with(path, (have.metadata or {}).get(MADE_WITH.encode()), key)
    for name, typ in schema.columns:
        i = have.get_field_index(name)
        if i < 0:
            if name in schema.optional:
                continue
            return f"lacks the column {name!r}", None
        if _type_name(have.field(i).type) != _type_name(typ):
            return f"has the column {name!r} as {have.field(i).type}, not {typ}", None
    cells = chunk.count * max(1, len(chunk.groups))
    if schema.rows_per_cell is not None and n_rows != cells * schema.rows_per_cell:
        return f"has {n_rows} rows, not {cells * schema.rows_per_cell}", None
    if n_rows > chunk.count * schema.max_rows_per_item * max(1, len(chunk.groups)):
        return f"has {n_rows} rows, more than {plural(chunk.count, schema.item)} can make", None
    try:
        table = pf.read()
    except Exception:
        return "cannot be read (damaged data pages)", None
    for name, _ in schema.columns:
        if name in table.column_names and name not in schema.nullable and table.column(name).null_count:
            return f"has empty values in the column {name!r}", None
    items = table.column(schema.item).to_pylist()
    if schema.item_values is None:
        if set(items) != set(range(chunk.first, chunk.first + chunk.count)):
            return f"does not hold exactly {plural_of(schema.item)} {chunk.first}..{chunk.last}", None
    elif set(items) != set(schema.item_values(chunk.first, chunk.count)):
        return (f"does not hold exactly the {plural_of(schema.item)} at positions {chunk.first}..{chunk.last} "
                "of the run"), None
    if schema.group is not None:
        cells_found = set(zip(items, table.column(schema.group).to_pylist()))
        if len(cells_found) != cells or {g for _, g in cells_found} != set(chunk.groups):
            return f"does not hold exactly the rule sets {','.join(chunk.groups)} for each {schema.item}", None
    if schema.rows is not None:
        why = schema.rows(table)
        if why is not None:
            return why, None
    return None, table


__all__ = ["bad_time", "check_chunk", "ChunkSchema", "first_bad_row", "row_values"]
