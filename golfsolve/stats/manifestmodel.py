"""The pydantic model of a run folder's manifest (:func:`golfsolve.stats.runfolder.validate_manifest`).

Apart from :mod:`.runfolder` so that the commands' checks of their arguments, which use
the run folder's light helpers, do not load pydantic.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError, model_validator

from ..errors import MAX_INT64, InputError
from .runlayout import COMMANDS, MAX_BLOCKS, MAX_CHUNKS, MAX_GROUPS


class _Block(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rules: list[StrictStr] = Field(max_length=MAX_GROUPS)
    start: StrictInt = Field(ge=0, le=MAX_INT64)
    count: StrictInt = Field(ge=1, le=MAX_INT64)


class _Invocation(BaseModel):
    model_config = ConfigDict(extra="allow")
    command: Optional[StrictStr] = None


class ManifestModel(BaseModel):
    """The fields every run manifest has, with their types and bounds (the run kind checks
    its own ``params``): a manifest edited by hand is checked here before anything uses it."""

    model_config = ConfigDict(extra="allow")
    format: StrictStr
    start: StrictInt = Field(ge=0, le=MAX_INT64)
    count: StrictInt = Field(ge=1, le=MAX_INT64)
    rules: list[StrictStr] = Field(max_length=MAX_GROUPS)
    chunk_size: StrictInt = Field(ge=1, le=MAX_INT64)
    params: dict[StrictStr, Any] = Field(default_factory=dict)
    blocks: Optional[list[_Block]] = Field(default=None, min_length=1, max_length=MAX_BLOCKS)
    command: StrictStr = ""
    complete: StrictBool = False
    invocations: list[_Invocation] = Field(default_factory=list)
    rules_described: dict[StrictStr, StrictStr] | StrictStr = Field(default_factory=dict)
    columns: Optional[list[StrictStr]] = None

    @model_validator(mode="after")
    def _consistent(self) -> "ManifestModel":
        if self.format not in COMMANDS:
            raise ValueError(f"format: unknown run kind {self.format!r} (known: {', '.join(COMMANDS)})")
        if len(set(self.rules)) != len(self.rules):
            raise ValueError("rules: a rule set is listed twice")
        end = self.start + self.count
        blocks = self.blocks or [_Block(rules=self.rules, start=self.start, count=self.count)]
        n_chunks = 0
        for b in blocks:
            if b.start < self.start or b.start + b.count > end:
                raise ValueError(f"blocks: a block ({b.start}..{b.start + b.count - 1}) lies outside the run "
                                 f"({self.start}..{end - 1})")
            if not set(b.rules) <= set(self.rules) or len(set(b.rules)) != len(b.rules):
                raise ValueError(f"blocks: a block's rule sets ({','.join(b.rules)}) are not distinct rule sets "
                                 f"of the run ({','.join(self.rules)})")
            n_chunks += -(-b.count // self.chunk_size)
            if n_chunks > MAX_CHUNKS:  # checked before any list of chunks is made
                raise ValueError(f"count: the run would have more than {MAX_CHUNKS:,} chunk files")
        # a count edited by hand (40 made 50) leaves the blocks as they were: the report would say
        # "deals 0..49, complete" over 40 deals, and --resume record --count 50 and solve nothing
        items = "matches" if self.format.startswith("golfsolve-grid") else "deals"
        for g in self.rules or [None]:
            spans = sorted((b.start, b.start + b.count) for b in blocks if g is None or g in b.rules)
            if not spans:  # the rules list edited: name it, not the blocks
                raise ValueError(f"rules: {g} is in none of the run's blocks (the list was edited)")
            reach = self.start
            for lo, hi in spans:
                if lo != reach:  # a gap, or two blocks over the same items
                    break
                reach = hi
            else:
                if reach == end:
                    continue
            under = "" if g is None else f" under {g}"
            raise ValueError(f"blocks: the blocks{under} do not cover {items} {self.start}..{end - 1} (the run's "
                             "start and count) each once")
        return self


def field_error(path: Path, e: ValidationError) -> InputError:
    """One line naming the manifest, the first bad field and what is wrong with it."""
    err = e.errors()[0]
    msg = err["msg"].removeprefix("Value error, ")
    where = ".".join(str(x) for x in err["loc"])
    if not where:  # a check across fields names its field first
        where, _, msg = msg.partition(": ")
    return InputError(f"{path}: field {where}: {msg}; repair or remove the file (a run folder's manifest "
                      "is written by golfsolve)")
