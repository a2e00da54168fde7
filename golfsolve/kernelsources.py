"""A digest of a golfsolve kernel file and of every golfsolve module it depends on.

The salt of the solver's compiled code: numba's on-disk cache (:mod:`golfsolve.jitcache`)
and the ahead-of-time compiled kernels (:mod:`golfsolve.solitaire.native`) are both keyed
on it, so editing any module a kernel uses, directly or not, makes them stale. A module
"depends on" every golfsolve module it imports anywhere in its text (a lazy import inside
a function counts). Plain Python: no numba, so checking the native kernels costs no
numba start-up.

:func:`scratch_cache` is where both caches go when neither the package's folder nor the
user's home cache can be written.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Optional

PACKAGE = Path(__file__).resolve().parent


def _module_file(name: str) -> Path | None:
    """The file of golfsolve module ``name`` (``solitaire.bounds``), None when there is none."""
    base = PACKAGE.joinpath(*name.split(".")) if name else PACKAGE
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.is_file():
            return p
    return None


# An import statement at the start of a line (indented too: a lazy import inside a function
# counts), its names in parentheses over several lines or to the end of the line. A regular
# expression, not Python's parser: checking the ahead-of-time kernels is on every single
# answer's path, and parsing the kernel files took longer than loading them. Text that only
# looks like an import (in a docstring) can add a file, never drop one: a stamp too wide
# recompiles more often, never too little (tests/solitaire/test_jitcache.py compares with the parser).
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(?P<module>\.*[\w.]*)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\n]*)"
                     r"|import[ \t]+(?P<plain>[^\n]*))", re.M)
_COMMENT = re.compile(r"#[^\n]*")


def _names(text: str) -> list[str]:
    """``a as b, c`` (or in parentheses, with comments) -> ``["a", "c"]``."""
    text = _COMMENT.sub("", text).replace("(", " ").replace(")", " ").replace("\\", " ")
    return [part.split()[0] for part in text.split(",") if part.split()]


@lru_cache(maxsize=None)  # kernel files share most of their imports: scan each file once per process
def _direct_imports(path: Path) -> frozenset[Path]:
    """The golfsolve files ``path`` imports anywhere in its text."""
    rel = path.relative_to(PACKAGE)
    package = list(rel.parts[:-1])
    names: set[str] = set()
    for m in _IMPORT.finditer(path.read_text(encoding="utf-8")):
        if m.group("plain") is not None:
            names |= {n[len("golfsolve."):] for n in _names(m.group("plain")) if n.startswith("golfsolve.")}
            continue
        module = m.group("module")
        level = len(module) - len(module.lstrip("."))
        module = module[level:]
        if level == 0:
            if not (module == "golfsolve" or module.startswith("golfsolve.")):
                continue
            mod = module[len("golfsolve."):] if module != "golfsolve" else ""
        else:
            base = package[:len(package) - (level - 1)]
            mod = ".".join(base + ([module] if module else []))
        names.add(mod)
        # ``from . import bounds`` names modules, not attributes
        names |= {f"{mod}.{n}".strip(".") for n in _names(m.group("names"))}
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


def scratch_cache() -> Optional[Path]:
    """This user's folder in the temporary directory (``golfsolve-cache-UID``, made private)
    for compiled kernels when neither the package's folder nor the home cache can be written:
    a read-only install run by a user without a writable home (a service, a read-only
    container), where numba would otherwise refuse to define a cached kernel at all. None
    when it cannot be made, or is not this user's alone: another user could plant compiled
    code in it, which this process would then load and run."""
    uid = os.getuid() if hasattr(os, "getuid") else None
    folder = Path(tempfile.gettempdir()) / f"golfsolve-cache-{uid if uid is not None else 'user'}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        st = folder.lstat()
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or (uid is not None and (st.st_uid != uid or st.st_mode & 0o077)):
        return None
    return folder
