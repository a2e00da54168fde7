"""A digest of a golfsolve kernel file and of every golfsolve module it depends on.

The salt of the solver's compiled code: numba's on-disk cache (:mod:`golfsolve.jitcache`)
and the ahead-of-time compiled kernels (:mod:`golfsolve.solitaire.native`) are both keyed
on it, so editing any module a kernel uses, directly or not, makes them stale. A module
"depends on" every golfsolve module it imports anywhere in its text (a lazy import inside
a function counts). Plain Python: no numba, so checking the native kernels costs no
numba start-up.
"""

from __future__ import annotations

import ast
import hashlib
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def _module_file(name: str) -> Path | None:
    """The file of golfsolve module ``name`` (``solitaire.bounds``), None when there is none."""
    base = PACKAGE.joinpath(*name.split(".")) if name else PACKAGE
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.is_file():
            return p
    return None


@lru_cache(maxsize=None)  # kernel files share most of their imports: parse each file once per process
def _direct_imports(path: Path) -> frozenset[Path]:
    """The golfsolve files ``path`` imports anywhere in its text."""
    rel = path.relative_to(PACKAGE)
    package = list(rel.parts[:-1])
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name[len("golfsolve."):] for a in node.names if a.name.startswith("golfsolve.")}
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if not (node.module == "golfsolve" or (node.module or "").startswith("golfsolve.")):
                    continue
                mod = node.module[len("golfsolve."):] if node.module != "golfsolve" else ""
            else:
                base = package[:len(package) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            names.add(mod)
            # ``from . import bounds`` names modules, not attributes
            names |= {f"{mod}.{a.name}".strip(".") for a in node.names}
    return frozenset(p for p in map(_module_file, names) if p is not None and p != path)


@lru_cache(maxsize=None)
def closure(path: str) -> tuple[Path, ...]:
    """``path`` and every golfsolve file it depends on, sorted."""
    start = Path(path).resolve()
    seen = {start}
    todo = [start]
    while todo:
        for dep in _direct_imports(todo.pop()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return tuple(sorted(seen))


@lru_cache(maxsize=None)
def sources_digest(path: str) -> str:
    """A digest of the contents of ``path`` and of every golfsolve module it depends on."""
    h = hashlib.sha256()
    for p in closure(path):
        h.update(str(p.relative_to(PACKAGE)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()
