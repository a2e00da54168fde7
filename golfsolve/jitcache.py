"""numba's on-disk cache of golfsolve's kernels, kept fresh when any source they use changes.

numba keys a cached kernel on its own file only: a kernel that inlines a helper from
another module (``kernel.py`` inlines ``bounds.py`` and ``packops.py``) or freezes
another module's constant would load stale machine code after that module changed.
Importing this module (every kernel module that wants it does so, directly or through
``solitaire/packops.py``, before its first ``@njit``) puts a cache locator in front of
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

from pathlib import Path

from numba.core import caching as _caching

from .kernelsources import PACKAGE, closure, sources_digest


def _in_package(py_file: str) -> bool:
    """Is ``py_file`` a golfsolve module that imports this one (directly or not)? Only
    those get the locator: a module that does not would be cached under numba's own
    stamp or this one depending on what a process happened to import first, and two
    kinds of process would overwrite each other's cache."""
    try:
        Path(py_file).resolve().relative_to(PACKAGE)
    except (ValueError, OSError):
        return False
    return py_file.endswith(".py") and Path(__file__).resolve() in closure(py_file)


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
