"""The command line's start-up: numba's BLAS check without SciPy's linear algebra, and a
word before the solver's kernels compile.

The first time numba loads a cached kernel it imports ``numba.np.arraymath``, which checks
for a BLAS by importing ``scipy.linalg.cython_blas``; with SciPy 1.17 that pulls in
``scipy.linalg`` and, through its array-API layer, ``numpy.f2py``: about 0.15 s of CPU,
more than a warm ``golfsolve solve CODE`` spends on everything else but numba itself
(docs/performance.md). No golfsolve kernel uses BLAS, and without one numba's array code
falls back to a plain loop in its one BLAS-using helper, so the answer is the same. The
hook below makes that one import fail while ``numba.np.arraymath`` runs, and only then;
SciPy imports normally afterwards (the statistics reports use it). It is installed by the
``golfsolve`` command only, never by the library.

Compiling: the first command that needs a kernel the numba cache lacks prints one line on
stderr before compiling starts (:func:`golfsolve.compilenotice.notice_line`), so
that a first run's silence has a reason; on a terminal, a progress line follows that names
each kernel as it compiles and ends with the time it took (:func:`install_compile_notice`).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import time

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


def install_compile_notice() -> None:
    """Make the command tell about compiling on stderr (the library alone stays silent)."""
    from .. import compilenotice  # no numba: the kernels are imported only to compile them
    from ..solitaire import compiling

    class CompileNotice(compilenotice.Notice):
        def __init__(self) -> None:
            self.tty = bool(getattr(sys.stderr, "isatty", lambda: False)())
            self.waited = None
            self.shown = 0  # the length of the progress line on the screen

        def _line(self, text: str) -> None:
            # padded over the last line, not erased with an escape code a dumb terminal prints
            sys.stderr.write("\r" + text.ljust(self.shown))
            self.shown = len(text)

        def start(self, kernels, seconds: float, what: str = compilenotice.SOLVER) -> None:
            print(compilenotice.notice_line(seconds, what), file=sys.stderr, flush=True)

        def wait(self, seconds: float, what: str = compilenotice.SOLVER) -> None:
            print(compilenotice.wait_line(seconds, what), file=sys.stderr, flush=True)
            self.waited = time.monotonic()

        def kernel(self, name: str, i: int, n: int) -> None:
            if self.tty:
                self._line(f"  {i}/{n}: {compiling.describe(name)} ...")
                sys.stderr.flush()

        def done(self, seconds: float) -> None:
            if self.tty and self.waited is not None:  # the time waited: this process compiled nothing
                sys.stderr.write(f"  compiled by the other process, ready after {time.monotonic() - self.waited:.1f} s\n")
                sys.stderr.flush()
            elif self.tty:
                self._line(f"  compiled in {seconds:.1f} s")
                sys.stderr.write("\n")
                sys.stderr.flush()
                self.shown = 0
            self.waited = None

    compilenotice.set_notice(CompileNotice())
