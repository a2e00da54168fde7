"""docs/formats.md's field tables, read: what every ``--json`` answer is checked against
(tests/docs/test_formats_doc.py runs the commands; tests/serve/test_serve_fuzz.py the API)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path

from hostile_helpers import ROOT

FORMATS = ROOT / "docs" / "formats.md"

_MARK = re.compile(r"<!--\s*fields:\s*([\w-]+)\s*-->")


@dataclass(frozen=True)
class Table:
    """A field table of the page."""

    always: frozenset[str]  # fields every object holds
    sometimes: frozenset[str]  # fields marked "(only ...)"
    #: field -> (the keys its object holds, whether it maps names to such objects)
    nested: dict[str, tuple[frozenset[str], bool]] = dataclass_field(default_factory=dict)


_BRACES = re.compile(r"(→\s*)?\{([^{}]*`[^{}]*)\}")


def field_tables(path: Path) -> dict[str, Table]:
    """Each ``<!-- fields: NAME -->`` table of ``path`` by NAME."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: dict[str, Table] = {}
    for i, line in enumerate(lines):
        m = _MARK.fullmatch(line.strip())
        if not m:
            continue
        name = m.group(1)
        assert name not in out, f"{path.name}:{i + 1}: a second table named {name!r}"
        assert lines[i + 1].startswith("|") and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", lines[i + 2].strip()), \
            f"{path.name}:{i + 1}: no table follows the marker"
        always, sometimes, nested = set(), set(), {}
        for row in lines[i + 3:]:
            if not row.startswith("|"):
                break
            cells = row.split("|")
            names = re.findall(r"`([^`]+)`", cells[1].split("(")[0])
            assert names, f"{path.name}: a row of table {name!r} names no field: {row[:60]}"
            (sometimes if "(only" in cells[1] else always).update(names)
            braces = _BRACES.search(cells[-2])
            if braces:
                keys = re.findall(r"`([^`]+)`", re.sub(r"\([^()]*\)", "", braces.group(2)))
                nested.update({n: (frozenset(keys), braces.group(1) is not None) for n in names})
        out[name] = Table(frozenset(always), frozenset(sometimes), nested)
    return out
