"""A run's identity, and how two runs differ.

A :class:`RunKey` is what a run covers and every setting that must not change within it:
a ``--resume`` must give the same key as the run's manifest, an ``--extend`` the same but
for more items or rule sets, and :func:`differences` says in one line what is not the same.
Each chunk records the key it was made with (:func:`made_with`), so a manifest edited by
hand afterwards is refused (:func:`check_made_with`) instead of finishing the run under other
settings. A fair player's settings are compared complete (:func:`as_played_key`): a setting
added to golfsolve after a run was made has its default there.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence

from ..errors import InputError
from ..text import ordinal, plural
from .runlayout import GRID_SIMULATE, GRID_STUDY


@dataclass(frozen=True)
class RunKey:
    """What a run covers: ``count`` items from ``start`` under each of ``groups``, in chunks
    of ``chunk_size``; ``params`` are the settings that must not change within a run."""

    fmt: str
    start: int
    count: int
    groups: tuple[str, ...]
    chunk_size: int
    params: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict:
        """The key's fields as a manifest holds them."""
        return {"start": self.start, "count": self.count, "rules": list(self.groups),
                "chunk_size": self.chunk_size, "params": dict(self.params)}

    def items(self) -> str:
        """What the run's items are called: ``deals`` or ``matches``."""
        return "matches" if self.fmt in (GRID_SIMULATE, GRID_STUDY) else "deals"

    def describe(self) -> str:
        """The run in one line, for messages: its items, rule sets, chunk size and plain settings."""
        p = dict(self.params)
        strided = bool(p.get("stride"))
        if strided:  # the items are positions in the run; the params say which deals they are
            s = f"{plural(self.count, 'deal' if self.items() == 'deals' else 'match', self.items())}, every {ordinal(p['stride'])} from {p.get('first_deal')}"
        else:
            s = f"{self.items()} {self.start}..{self.start + self.count - 1}"
        if self.groups:
            s += f", rules {','.join(self.groups)}"
        s += f", chunk size {self.chunk_size}"
        for k, v in self.params:
            # a whole table of settings is too long to show; the stride is said above; every
            # fair-stats run this golfsolve makes seeds its games and names its losing moves alike,
            # so "game_seed" and "lost_at" say nothing
            if (v is not None and not isinstance(v, (dict, list)) and not (strided and k in ("first_deal", "stride"))
                    and k not in MARKERS):
                s += f", {k} {v}"
        return s


#: Params golfsolve records of how it plays a run, not settings a user chooses: a run made
#: by an older golfsolve that played otherwise lacks them (or has another value) and cannot be
#: continued by this one.
MARKERS = ("game_seed", "lost_at")

#: The params that record a fair player's settings: fair-stats' player, a --difficulty census's.
_PLAYER_PARAMS = ("player", "difficulty_player")


def _as_played(params: dict) -> dict:
    """``params`` as a run's manifest or chunk records them, with every fair player's settings
    complete: a setting added after the run was made is missing there, and its player had the
    setting's default, so the run resumes as the same run when its player is the same."""
    if not any(isinstance(params.get(k), dict) for k in _PLAYER_PARAMS):
        return params
    from ..fair.settings import PlayerSettings  # plain data, not the player

    defaults = {f.name: f.default for f in dataclasses.fields(PlayerSettings)}
    return {k: {**defaults, **v} if k in _PLAYER_PARAMS and isinstance(v, dict) else v for k, v in params.items()}


def as_played_key(key: RunKey) -> RunKey:
    """``key`` with its params as a manifest reads them (:func:`key_from_manifest`): every fair
    player's settings complete."""
    return dataclasses.replace(key, params=tuple(sorted(_as_played(dict(key.params)).items())))


def check_same_player(old: dict, player: Any, flag: str, param: str = "player", done: str = "was played",
                      option: Optional[str] = "--player") -> None:
    """Refuse (:class:`InputError`, one line; ``flag`` is ``--resume`` or ``--extend``) to
    continue a run whose recorded fair player ``old`` (its params' ``param``) differs from
    ``player`` (a :class:`~golfsolve.fair.settings.PlayerSettings`), naming the first setting
    that differs. A preset of this golfsolve that plays as the run did is named as ``option``
    gives it; else the preset changed since the run was made, which no option sets right
    ("repeat the run's options" sent the user round): a new run it is."""
    from ..fair.settings import PRESETS, PlayerSettings  # plain data, not the player

    new = player.as_dict()
    # a setting added after the run was made is missing from its manifest: its player had the
    # setting's default (what the manifest reads back as), not None
    played = PlayerSettings().as_dict()
    played.update(old)
    same = [name for name, p in PRESETS.items() if {**p.as_dict(), "preset": None} == {**played, "preset": None}]
    for k in new:
        if k != "preset" and played.get(k) != new[k]:
            unrecorded = " (not recorded: the run was made by an older golfsolve)" if k not in old else ""
            then = (f"give {option} {same[0]} (the run's) or leave it out" if option and same
                    else "start a new run in another --out")
            raise InputError(f"{flag}: the run {done} with {param}.{k} = {played.get(k)!r}{unrecorded}, the "
                             f"{new['preset']} player has {new[k]!r}; {then}")


def key_from_manifest(m: dict) -> RunKey:
    """The :class:`RunKey` a manifest describes."""
    return RunKey(m["format"], int(m["start"]), int(m["count"]), tuple(m["rules"]), int(m["chunk_size"]),
                  tuple(sorted(_as_played(m.get("params", {})).items())))


# ---------------------------------------------------------------------------
# how two runs differ
# ---------------------------------------------------------------------------
def _flat(prefix: str, v: Any) -> dict[str, Any]:
    if isinstance(v, dict):
        out: dict[str, Any] = {}
        for k, x in v.items():
            out.update(_flat(f"{prefix}.{k}", x))
        return out
    return {prefix: v}


_NONE = object()


def _flat_pair(prefix: str, x: Any, y: Any, a: dict[str, Any], b: dict[str, Any]) -> None:
    # a nested setting both keys hold is compared field by field (player.samples); one only
    # one of them holds is one setting, not each of its fields "(here none)"
    if isinstance(x, dict) and isinstance(y, dict):
        for k in dict.fromkeys([*x, *y]):
            _flat_pair(f"{prefix}.{k}", x.get(k, _NONE), y.get(k, _NONE), a, b)
        return
    if x is not _NONE:
        a[prefix] = x
    if y is not _NONE:
        b[prefix] = y


#: what a setting left out of a run's key means, where it is not "none": a stats run records
#: ``fields`` and ``stride`` only when they are not the default, and a run without them has
#: all fields and consecutive deals, not "none"
_ABSENT = {"fields": "all", "stride": "1"}


def differences(old: RunKey, new: RunKey, ignore: Sequence[str] = (),
                names: Optional[Mapping[str, Optional[str]]] = None) -> str:
    """The fields in which two run keys differ, named (a nested setting as ``player.field``)
    with both values: ``chunk size 4 (here 5)``. ``ignore``: fields that may differ (an
    ``--extend`` changes the count and the rule sets, so they are not why it is refused).
    ``names``: how a field is shown where the user gave it by another name (a grid run's
    ``count`` is its ``--matches``); None for a field that follows from the others, named only
    when nothing else says why."""
    names = names or {}
    a = {"start": old.start, "count": old.count, "rules": ",".join(old.groups), "chunk_size": old.chunk_size}
    b = {"start": new.start, "count": new.count, "rules": ",".join(new.groups), "chunk_size": new.chunk_size}
    pa, pb = dict(old.params), dict(new.params)
    for k in dict.fromkeys([*pa, *pb]):
        _flat_pair(k, pa.get(k, _NONE), pb.get(k, _NONE), a, b)
    # a run of every K-th deal numbers its items from 0 and keeps its first deal in params:
    # the start a user gave is that deal: the stored start and first_deal are internal names
    for side in (a, b):
        if "first_deal" in side:
            side["start"] = side.pop("first_deal")
    def shown(v: Any) -> str:  # a whole list of tables would make a message of pages
        text = str(v)
        return text if len(text) <= 60 else text[:57] + "..."

    def one(k: str) -> str:
        name = names.get(k) or k
        if k not in a:
            return f"{name} (here {shown(b[k])}, the run has {_ABSENT.get(k, 'none')})"
        if k not in b:
            return f"{name} {shown(a[k])} (here {_ABSENT.get(k, 'none')})"
        return f"{name} {shown(a[k])} (here {shown(b[k])})"

    keys = [k for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k) and k not in ignore]
    # a whole table of settings (a study's cells), like a field ``names`` says follows from the
    # others, is named only when nothing else says why: its Python dicts beside --sets would be noise
    plain = [k for k in keys if not isinstance(a.get(k, b.get(k)), (dict, list)) and names.get(k, k) is not None]
    return ", ".join(one(k) for k in (plain or keys)) or "nothing"


# ---------------------------------------------------------------------------
# the key each chunk records
# ---------------------------------------------------------------------------
#: The key of a chunk's Parquet metadata that records the settings it was made with.
MADE_WITH = "golfsolve.made_with"


def made_with(key: RunKey) -> str:
    """What a chunk of the run ``key`` records about how it was made: the settings no
    ``--resume`` or ``--extend`` may change (kind, start, chunk size, params), as JSON. A
    manifest edited by hand afterwards no longer agrees with its chunks, and is refused
    (:func:`~.chunkschema.check_chunk`) instead of finishing the run under other settings."""
    return json.dumps({"format": key.fmt, "start": key.start, "chunk_size": key.chunk_size,
                       "params": dict(key.params)}, sort_keys=True, separators=(",", ":"))


def check_made_with(path: Path, recorded: Optional[bytes], key: RunKey) -> None:
    """:class:`InputError` if the chunk at ``path`` records other settings than the run ``key``
    (nothing recorded: a chunk written before chunks recorded them, taken as it is)."""
    if recorded is None:
        return
    try:
        was = json.loads(recorded)
        old = RunKey(was["format"], was["start"], key.count, key.groups, was["chunk_size"],
                     tuple(sorted(_as_played(was["params"]).items())))
    except (ValueError, KeyError, TypeError, AttributeError):
        raise InputError(f"chunk {path} records settings golfsolve cannot read; move it out of the folder "
                         "(it is made again by --resume)") from None
    key = as_played_key(key)
    if made_with(old) != made_with(key):
        a = {"format": old.fmt, "start": old.start, "chunk_size": old.chunk_size, **_flat("params", dict(old.params))}
        b = {"format": key.fmt, "start": key.start, "chunk_size": key.chunk_size, **_flat("params", dict(key.params))}
        diff = [f"{k.removeprefix('params.')} {a.get(k, 'none')} where the manifest now has {b.get(k, 'none')}"
                for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k)]
        raise InputError(f"chunk {path} was made with {', '.join(diff[:3])}{', ...' if len(diff) > 3 else ''}: "
                         "the manifest was edited (put it back as it was, or start a new run) or the chunk comes "
                         "from another run (move it out of the folder)")


__all__ = ["as_played_key", "check_made_with", "differences", "key_from_manifest", "MADE_WITH", "made_with", "RunKey"]
