"""numba's on-disk cache of golfsolve's kernels, kept fresh when any source they use changes.

numba keys a cached kernel on its own file only: a kernel that inlines a helper from
another module (``kernel.py`` inlines ``bounds.py`` and ``packing.py``) or freezes
another module's constant would load stale machine code after that module changed.
Importing this module (every kernel module that wants it does so, directly or through
``solitaire/packing.py``, before its first ``@njit``) puts a cache locator in front of
numba's own for the golfsolve files that import it: it stores the cache
where numba would, and its source stamp is numba's stamp plus a digest of every golfsolve
module the kernel's file imports, directly or not (a lazy import inside a function
counts). Editing any of them makes the cache of every kernel that depends on it stale,
so it is compiled again.

The locator is numba's own extension point (``CacheImpl._locator_classes``, also what
``NUMBA_CACHE_LOCATOR_CLASSES`` fills); if a numba version lacks it, caching falls back
to numba's plain behaviour.
"""

from __future__ import annotations

import ast
import hashlib
from functools import lru_cache
from pathlib import Path

from numba.core import caching as _caching

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
def _closure(path: str) -> tuple[Path, ...]:
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
    for p in _closure(path):
        h.update(str(p.relative_to(PACKAGE)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def _in_package(py_file: str) -> bool:
    """Is ``py_file`` a golfsolve module that imports this one (directly or not)? Only
    those get the locator: a module that does not would be cached under numba's own
    stamp or this one depending on what a process happened to import first, and two
    kinds of process would overwrite each other's cache."""
    try:
        Path(py_file).resolve().relative_to(PACKAGE)
    except (ValueError, OSError):
        return False
    return py_file.endswith(".py") and Path(__file__).resolve() in _closure(py_file)


_CacheImpl = getattr(_caching, "CacheImpl", None) or getattr(_caching, "_CacheImpl", None)
_Locator = getattr(_caching, "_CacheLocator", None)


if _CacheImpl is not None and _Locator is not None and hasattr(_CacheImpl, "_locator_classes"):

    class KernelSourcesLocator(_Locator):
        """numba's locator for a golfsolve file, with a stamp over all the sources it uses."""

        def __init__(self, inner, py_file: str) -> None:
            self._inner = inner
            self._py_file = py_file

        def ensure_cache_path(self):
            return self._inner.ensure_cache_path()

        def get_cache_path(self):
            return self._inner.get_cache_path()

        def get_source_stamp(self):
            return (self._inner.get_source_stamp(), sources_digest(self._py_file))

        def get_disambiguator(self):
            return self._inner.get_disambiguator()

        @classmethod
        def from_function(cls, py_func, py_file):
            if not _in_package(py_file):
                return None
            for other in _CacheImpl._locator_classes:
                if other is cls:
                    continue
                inner = other.from_function(py_func, py_file)
                if inner is not None:
                    return cls(inner, py_file)
            return None

    if KernelSourcesLocator.__name__ not in {c.__name__ for c in _CacheImpl._locator_classes}:
        _CacheImpl._locator_classes.insert(0, KernelSourcesLocator)
