"""Cheaper start-up for the command line: numba's BLAS check without SciPy's linear algebra.

The first time numba loads a cached kernel it imports ``numba.np.arraymath``, which checks
for a BLAS by importing ``scipy.linalg.cython_blas``; with SciPy 1.17 that pulls in
``scipy.linalg`` and, through its array-API layer, ``numpy.f2py``: about 0.15 s of CPU,
more than a warm ``golfsolve solve CODE`` spends on everything else but numba itself
(docs/performance.md). No golfsolve kernel uses BLAS, and without one numba's array code
falls back to a plain loop in its one BLAS-using helper, so the answer is the same. The
hook below makes that one import fail while ``numba.np.arraymath`` runs, and only then;
SciPy imports normally afterwards (the statistics reports use it). It is installed by the
``golfsolve`` command only, never by the library.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys

_CHECKED = "numba.np.arraymath"
_BLAS = "scipy.linalg.cython_blas"


class _SkipBlasCheck(importlib.abc.MetaPathFinder):
    """Finds nothing itself; wraps the loading of ``numba.np.arraymath`` once, then leaves."""

    def find_spec(self, name, path=None, target=None):
        if name != _CHECKED:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            hide = _BLAS not in sys.modules
            if hide:
                sys.modules[_BLAS] = None  # 'import scipy.linalg.cython_blas' raises ImportError at once
            try:
                run(module)
            finally:
                if hide and sys.modules.get(_BLAS, 0) is None:
                    del sys.modules[_BLAS]

        spec.loader.exec_module = exec_module  # this spec's own loader object
        return spec


def skip_blas_check() -> None:
    """Install the hook unless numba's array code or SciPy's linear algebra is loaded already."""
    if _CHECKED in sys.modules or _BLAS in sys.modules:
        return
    if not any(isinstance(f, _SkipBlasCheck) for f in sys.meta_path):
        sys.meta_path.insert(0, _SkipBlasCheck())
