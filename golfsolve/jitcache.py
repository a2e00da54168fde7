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

Where numba finds no folder to write (neither the package's ``__pycache__`` nor the user's
cache: a read-only install and an unwritable home), numba would refuse to define the
kernel at all ("cannot cache function"); this locator then stores the cache in
:func:`~golfsolve.kernelsources.scratch_cache`, or, when even that is not safe to use, in a
folder of this process's own, removed at its exit (the kernels work, compiled each run).

The locator is numba's own extension point (``CacheImpl._locator_classes``, also what
``NUMBA_CACHE_LOCATOR_CLASSES`` fills); if a numba version lacks it, caching falls back
to numba's plain behaviour.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Optional

from numba.core import caching as _caching

from .compilenotice import cache_not_kept
from .kernelsources import PACKAGE, closure, scratch_cache, sources_digest


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


@lru_cache(maxsize=None)
def _scratch_root() -> Optional[str]:
    """The folder for numba's cache when it has none it can write (see the module's text)."""
    folder = scratch_cache()
    if folder is not None:
        return str(folder / "numba")
    try:
        own = tempfile.mkdtemp(prefix="golfsolve-numba-")
    except OSError:
        return None
    atexit.register(shutil.rmtree, own, True)
    cache_not_kept()
    return own


if _CacheImpl is not None and _Locator is not None and hasattr(_CacheImpl, "_locator_classes"):

    class ScratchLocator(_Locator):
        """numba's cache of a golfsolve file in :func:`_scratch_root`."""

        def __init__(self, py_func, py_file: str, root: str) -> None:
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._path = os.path.join(root, self.get_suitable_cache_subpath(py_file))

        def get_cache_path(self):
            return self._path

        def get_source_stamp(self):
            st = os.stat(self._py_file)
            return st.st_mtime, st.st_size

        def get_disambiguator(self):
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            root = _scratch_root()
            if root is None:
                return None
            self = cls(py_func, py_file, root)
            try:
                self.ensure_cache_path()
            except OSError:
                return None
            return self

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
            inner = ScratchLocator.from_function(py_func, py_file)
            return cls(inner, py_file) if inner is not None else None

    if KernelSourcesLocator.__name__ not in {c.__name__ for c in _CacheImpl._locator_classes}:
        _CacheImpl._locator_classes.insert(0, KernelSourcesLocator)
