"""What a run covers: its *blocks* of items and the *chunks* they are cut into.

A run covers a range of items (deals, matches) under each of its groups (rule sets). A run
is *extended* by giving more items or more groups: its manifest then lists *blocks*, each a
rectangle of groups x items chunked on its own, so what is there is never redone. Each
chunk is one file of the run folder (:mod:`.runfolder`),
``chunk-<first item, 10 digits>[-<block>].parquet``, so the files sort by item.

Plain data and arithmetic: no file is read here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..errors import InputError
from .runlayout import CHUNK_PREFIX


@dataclass(frozen=True)
class Block:
    """Items ``start .. start + count - 1`` under each of ``groups`` (for example rule sets)."""

    groups: tuple[str, ...]
    start: int
    count: int

    def to_json(self) -> dict:
        """The block as a manifest lists it."""
        return {"rules": list(self.groups), "start": self.start, "count": self.count}

    @staticmethod
    def from_json(d: dict) -> "Block":
        """The block a manifest lists (:meth:`to_json`'s dict)."""
        return Block(tuple(d["rules"]), int(d["start"]), int(d["count"]))


@dataclass(frozen=True)
class Chunk:
    """One chunk file: items ``first .. first + count - 1`` under each of ``groups``."""

    name: str
    first: int
    count: int
    groups: tuple[str, ...]

    @property
    def last(self) -> int:
        """The last item number of the chunk."""
        return self.first + self.count - 1


def chunk_name(first: int, block: int = 0) -> str:
    """File name of the chunk of ``block`` starting at item ``first`` (names sort by item)."""
    return f"{CHUNK_PREFIX}{first:010d}{'' if block == 0 else f'-{block}'}.parquet"


def block_chunks(blocks: Sequence[Block], chunk_size: int) -> list[Chunk]:
    """Every chunk of ``blocks``, each block cut into ``chunk_size`` items from its start."""
    out = []
    for k, b in enumerate(blocks):
        end = b.start + b.count
        for f in range(b.start, end, chunk_size):
            out.append(Chunk(chunk_name(f, k), f, min(chunk_size, end - f), b.groups))
    return out


def extend_blocks(blocks: Sequence[Block], groups: Sequence[str], start: int, count: int,
                  new_groups: Sequence[str], new_count: int,
                  items: str = "items") -> tuple[list[Block], tuple[str, ...]]:
    """The blocks of a run of ``groups`` x items ``start..start+count-1`` grown to
    ``new_groups`` x ``new_count`` items: the old items under new groups, and new items
    under all groups. Returns the blocks and the run's groups in order (old ones first).

    Raises :class:`InputError` when the new run would drop items (called ``items`` there) or groups.
    """
    dropped = [g for g in groups if g not in new_groups]
    if dropped:
        raise InputError(f"--extend keeps every rule set of the run; {', '.join(dropped)} is missing "
                         f"(give {','.join(list(groups) + [g for g in new_groups if g not in groups])})")
    if new_count < count:
        raise InputError(f"--extend cannot shrink the run from {count:,} {items} to {new_count:,}")
    added = tuple(g for g in new_groups if g not in groups)
    out = list(blocks)
    if new_count > count:
        out.append(Block(tuple(groups), start + count, new_count - count))
    if added:
        out.append(Block(added, start, new_count))
    return out, tuple(groups) + added


__all__ = ["Block", "block_chunks", "Chunk", "chunk_name", "extend_blocks"]
