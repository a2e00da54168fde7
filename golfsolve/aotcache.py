"""Kernels compiled ahead of time into a cached extension module: loaded without numba.

numba's JIT costs a process about 0.4 s before its first cached kernel runs (importing
numba, readying its CPU target). For a command that answers once and exits that is most
of its time, so a domain can have its kernels compiled once more by numba's ahead-of-time
compiler (``numba.pycc``: the same kernels and compiler, written out as a CPython
extension module) into the folder where numba caches them, and load that module later
with plain ``importlib`` and numpy. A :class:`Spec` says which kernels, with one
signature each; :func:`load`, :func:`build`, :func:`buildable`, :func:`failure` act on it.

* The module's name carries a digest of every golfsolve source the spec's file uses
  (:mod:`golfsolve.kernelsources`, the digest that keys numba's cache too; the kernels'
  module must be among them), numpy's version and Python's: editing a kernel source makes
  it stale and the next build makes a new one. Older builds in the folder are removed,
  those of this Python, platform and CPU target only: virtual environments of other Python
  versions on one checkout (or machines sharing a cache) keep theirs (each build removing
  the others' would make every switch between them compile again).
* :func:`load` wraps each compiled function so that an array argument of another type is
  refused (the compiled entry point checks only the item size), not misread.
* The folder is numba's: ``NUMBA_CACHE_DIR`` when set (the sub-folder numba uses for the
  kernels' file), else ``__pycache__`` next to it when it is writable, else
  ``~/.cache/golfsolve``, else :func:`golfsolve.kernelsources.scratch_cache`.
* Building runs in a child process (``python -m golfsolve.aotcache``), about 50 s of CPU
  for the solver (numba compiles the kernels' callees for its JIT on the way, and caches
  them), and needs a working C compiler (numba links its small runtime in). When it fails
  (no compiler, a numba without ``pycc``), a ``.failed`` file with the reason is left
  where the module would be; :func:`buildable` is then False until the sources or the
  compiler settings (``CC``, ``LDSHARED``, ``CFLAGS``, ``LDFLAGS``, the compiler ``PATH``
  finds) change or the file is deleted, and the domain uses numba's JIT as before (one
  run with ``CC=false`` or a ``PATH`` without a compiler no longer turns them off for good). ``GOLFSOLVE_NATIVE=0``
  turns the ahead-of-time kernels off everywhere.
* Beside the module a ``.sha256`` file holds its digest, checked before it is loaded: a
  module truncated or changed after its build (a full disk, a copied cache) is rebuilt,
  never handed to the dynamic loader (a truncated one crashes the process with SIGBUS).
* A build holds a lock (``flock`` on a ``.lock`` file beside the module) around "check the
  cache, build if missing, publish": processes started together on a cold cache (a batch's
  workers, a server's, a test suite's, two commands at once) build the module once; the
  others wait, told so (:func:`build`'s ``waiting``), and load what was built. The kernel
  releases the lock when its holders exit, killed or not (the build's child holds it too,
  so a builder killed while its child compiles leaves the others waiting for that child,
  not building again). Without ``fcntl`` (Windows) there is no lock: each builds, as before.

The code targets x86-64-v3 (AVX2, BMI1/2, LZCNT, POPCNT, the Haswell generation and later)
when this CPU has every one of its features, else the generic CPU family: 1.02x the solver's
speed under the King–Ace wrap and 1.03–1.04x under the others (docs/performance.md). The
target is part of the module's name, so a cache shared between machines stays valid: a CPU
without those features builds and loads a generic module of its own.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterator, Optional

import numpy as np

try:
    import fcntl
except ImportError:  # Windows: no build lock
    fcntl = None  # type: ignore[assignment]

from .kernelsources import scratch_cache, sources_digest


@dataclass(frozen=True)
class Spec:
    """Kernels to compile ahead of time.

    ``owner``: the module whose ``SPEC`` this is (the build process finds it there);
    ``kernels``: the module that defines them (numba dispatchers, by name); ``source``:
    the file whose sources digest salts the build (the spec's own, importing the kernels'
    module); ``prefix``: the start of the module's name; ``signatures``: called only when
    building, a dict of name to numba signature; ``arrays``: per name, the (dtype, ndim)
    of each array argument by position (C-contiguous arrays of exactly that type).
    """

    owner: str
    kernels: str
    source: str
    prefix: str
    signatures: Callable[[], dict]
    arrays: dict


def enabled() -> bool:
    """Are ahead-of-time kernels on (``GOLFSOLVE_NATIVE`` is not ``0``)?"""
    return os.environ.get("GOLFSOLVE_NATIVE", "1") != "0"


#: x86-64-v3's features as Linux's /proc/cpuinfo names them (v2's included; ``abm`` is LZCNT)
_V3_FLAGS = frozenset("cx16 lahf_lm popcnt pni sse4_1 sse4_2 ssse3 avx avx2 bmi1 bmi2 f16c fma abm movbe xsave".split())


def _cpu_flags() -> frozenset:
    """This CPU's feature flags from /proc/cpuinfo (empty where there is none): a file read,
    so that choosing the target costs a command no import of numba or llvmlite."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return frozenset(line.partition(":")[2].split())
    except OSError:
        pass
    return frozenset()


def target_cpu() -> str:
    """The CPU the module is compiled for: ``x86-64-v3`` on an x86-64 CPU with all of its
    features, else ``""`` (numba's default, the generic CPU of the family)."""
    machine = os.uname().machine.lower() if hasattr(os, "uname") else ""
    if machine in ("x86_64", "amd64") and _V3_FLAGS <= _cpu_flags():
        return "x86-64-v3"
    return ""


def _kind(spec: Spec, target: str) -> str:
    """The start of the module's name shared by every build for this Python, platform and
    CPU ``target`` (:func:`target_cpu`): the builds one of them replaces."""
    h = hashlib.sha256()
    for part in (sys.version, sys.platform, target):
        h.update(part.encode() + b"\0")
    return f"{spec.prefix}{h.hexdigest()[:8]}_"


def module_name(spec: Spec) -> str:
    """The module's name: the spec's prefix, a digest of Python's version, the platform and the
    CPU it is compiled for, and a digest of those, its sources and numpy's version."""
    target = target_cpu()
    h = hashlib.sha256()
    for part in (sources_digest(spec.source), np.__version__, sys.version, sys.platform, target):
        h.update(part.encode() + b"\0")
    return _kind(spec, target) + h.hexdigest()[:24]


def _replaced(spec: Spec, name: str, file: Path) -> bool:
    """Is ``file`` (in the folder of module ``name``) an earlier build's, failure's or lock's
    that a build of ``name`` replaces: this Python's, platform's and CPU target's, or one whose
    name does not say whose it is (the spec's prefix and the digest alone, an older form)?"""
    if file.name.startswith(name) or not file.name.startswith(spec.prefix):
        return False
    rest = file.name[len(spec.prefix):]
    return file.name.startswith(_kind(spec, target_cpu())) or re.fullmatch(r"[0-9a-f]{24}(\..*)?", rest) is not None


def _suffix() -> str:
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def _folders(spec: Spec) -> list[Path]:
    """Where the module may be, in the order a build chooses the first it can write to."""
    here = Path(spec.source).resolve().parent
    # the sub-folder numba gives a file's cache under NUMBA_CACHE_DIR: its folder's name and a hash of its path
    sub = f"{here.name}_{hashlib.sha1(str(here).encode()).hexdigest()}"
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        return [Path(env) / sub]
    folders = [here / "__pycache__"]
    try:
        folders.append(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "golfsolve" / sub)
    except RuntimeError:  # no home: no HOME and a user id without a passwd entry (a container's)
        pass
    if not any(_writable(f) for f in folders):
        scratch = scratch_cache()
        if scratch is not None:
            folders.append(scratch / "golfsolve" / sub)
    return folders


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
        return True
    except OSError:
        return False


def _checked(name: str, fn: Callable, arrays: dict) -> Callable:
    wanted = tuple((i, np.dtype(dt), nd) for i, (dt, nd) in arrays.items())

    def call(*args):
        for i, dt, nd in wanted:
            a = args[i]
            if not (isinstance(a, np.ndarray) and a.dtype == dt and a.ndim == nd and a.flags.c_contiguous):
                raise TypeError(f"{name}: argument {i} must be a C-contiguous {nd}-d {dt} array")
        return fn(*args)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"{name}, compiled ahead of time."
    return call


class Kernels:
    """The compiled kernels of a loaded module, as checked callables (attributes by name)."""

    def __init__(self, module: ModuleType, path: Path, spec: Spec) -> None:
        self.module = module
        self.path = path
        for name, arrays in spec.arrays.items():
            setattr(self, name, _checked(name, getattr(module, name), arrays))


_loaded: dict[str, Kernels] = {}


def load(spec: Spec) -> Optional[Kernels]:
    """The spec's fresh compiled kernels if a build is in the cache (None: there is none,
    or they are turned off). Imports no numba."""
    if not enabled():
        return None
    name = module_name(spec)
    if name in _loaded:
        return _loaded[name]
    for folder in _folders(spec):
        path = folder / (name + _suffix())
        if path.is_file():
            if not _intact(path):
                return None  # damaged: a build replaces it
            try:
                return _load_file(spec, name, path)
            except (ImportError, OSError, AttributeError):  # damaged, or not ours: a build replaces it
                return None
    return None


def _digest_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def _intact(path: Path) -> bool:
    """Is the module at ``path`` the one its build wrote (its digest file agrees)?"""
    try:
        return _digest_path(path).read_text(encoding="ascii").strip() == hashlib.sha256(path.read_bytes()).hexdigest()
    except (OSError, UnicodeDecodeError):
        return False


def _load_file(spec: Spec, name: str, path: Path) -> Kernels:
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_file_location(name, path, loader=loader))
    loader.exec_module(module)
    _loaded[name] = Kernels(module, path, spec)
    return _loaded[name]


def _compiler_settings() -> str:
    """A digest of what decides whether a build finds a working C compiler."""
    import sysconfig

    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    parts = [os.environ.get(k, "") for k in ("CC", "LDSHARED", "CFLAGS", "LDFLAGS")] + [str(shutil.which(cc[0]))]
    return "compiler settings " + hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def failure(spec: Spec) -> Optional[str]:
    """Why the last build of these sources failed with these compiler settings (None: none did)."""
    name = module_name(spec)
    for folder in _folders(spec):
        marker = folder / (name + ".failed")
        if marker.is_file():
            settings, _, reason = marker.read_text(encoding="utf-8", errors="replace").partition("\n")
            if settings.strip() == _compiler_settings():
                return reason.strip() or "unknown"
    return None


def buildable(spec: Spec) -> bool:
    """Should :func:`build` be tried: on, no failed build of these sources, a folder to write to?"""
    return enabled() and failure(spec) is None and any(_writable(f) for f in _folders(spec))


def build(spec: Spec, building: Optional[Callable[[], None]] = None,
          waiting: Optional[Callable[[], None]] = None) -> Optional[Kernels]:
    """Compile the kernels into a new module in the cache and load it; None when that
    fails (the reason is kept, see :func:`failure`). Seconds of CPU, and a C compiler.

    Under the folder's build lock: when another process holds it, ``waiting`` is called
    and this one waits for it, then loads what it built (or returns None if its build
    failed) instead of building again; ``building`` is called just before this process
    compiles (not at all when the module turns out to be built already).

    The compiling runs in a child process (``python -m golfsolve.aotcache``): the C
    compiler's output stays out of this process's streams, a crash in it cannot take this
    process down, and numba's compiler starts from a fresh heap (in a process that had run
    a command first, glibc's allocator answered it with half a million ``mmap`` and
    ``munmap`` calls: 4 s of system time)."""
    folder = next((f for f in _folders(spec) if _writable(f)), None)
    if folder is None:
        return None
    name = module_name(spec)
    with _build_lock(folder, name, waiting) as held:
        # built (or failed) by another process while this one waited, or since it looked
        kernels = load(spec)
        if kernels is not None or failure(spec) is not None:
            return kernels
        if building is not None:
            building()
        kernels = _build(spec, folder, name, held)
    if kernels is None:
        return None
    for old in folder.glob(spec.prefix + "*"):
        # earlier builds, failures and locks (a build under way elsewhere works in a folder: kept)
        if old.is_file() and _replaced(spec, name, old):
            try:
                old.unlink()
            except OSError:  # in use elsewhere (Windows), or gone already
                pass
    return kernels


@contextlib.contextmanager
def _build_lock(folder: Path, name: str, waiting: Optional[Callable[[], None]]) -> Iterator[tuple[int, ...]]:
    """Hold the build lock of module ``name`` in ``folder``; yield the descriptors the build's
    child inherits (so that it holds the lock too). ``waiting`` is called when another
    process holds it, before waiting. No lock where ``flock`` is missing or the lock file
    cannot be opened: the build goes ahead unlocked, as it did before there was a lock."""
    fd = -1
    if fcntl is not None:
        for flags in (os.O_RDWR | os.O_CREAT, os.O_RDONLY):  # flock needs no write access: another user's lock file
            try:
                fd = os.open(folder / (name + ".lock"), flags, 0o666)
                break
            except OSError:
                pass
    if fd < 0:
        yield ()
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                waiting()
            fcntl.flock(fd, fcntl.LOCK_EX)  # until the holder (and its build's child) is done or dead
        yield (fd,)
    finally:
        os.close(fd)  # the lock file stays: removing it would let a third process lock another file


def _build(spec: Spec, folder: Path, name: str, held: tuple[int, ...]) -> Optional[Kernels]:
    """Run the build's child, under the lock, and load what it made."""
    # the child imports this very golfsolve, whatever put it on this process's path
    path_now = os.environ.get("PYTHONPATH")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parent.parent)]
                                                      + ([path_now] if path_now else [])))
    try:
        child = subprocess.run([sys.executable, "-m", __name__, spec.owner, str(folder)], env=env,
                               capture_output=True, text=True, errors="replace", pass_fds=held)
    except OSError as e:
        _fail(folder, name, f"{type(e).__name__}: {e}")
        return None
    target = folder / (name + _suffix())
    if not target.is_file():
        if failure(spec) is None:  # the child died before it could say why
            _fail(folder, name, f"the build exited {child.returncode}: {(child.stderr or child.stdout).strip()[-2000:]}")
        return None
    try:
        return _load_file(spec, name, target)
    except (ImportError, OSError, AttributeError) as e:
        _fail(folder, name, f"built but not loadable: {type(e).__name__}: {e}")
        return None


def _fail(folder: Path, name: str, reason: str) -> None:
    (folder / (name + ".failed")).write_text(f"{_compiler_settings()}\n{reason.rstrip()}\n", encoding="utf-8")


def _compile(spec: Spec, folder: Path) -> int:
    """The child's part of :func:`build`: compile into ``folder`` (exit status 0), or
    leave the reason there (1)."""
    name = module_name(spec)
    work = Path(tempfile.mkdtemp(prefix=name + "-", dir=folder))
    # numba's compiler check leaves a temporary folder behind per build (its clean-up removes
    # a file object, not the file): they go in the work folder, removed below
    tmp_before, tempfile.tempdir = tempfile.tempdir, str(work)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pycc's pending deprecation: the fallback covers its removal
            from numba.pycc import CC

            defining = importlib.import_module(spec.kernels)
            cc = CC(name)  # raises when no C compiler works
            cc.target_cpu = target_cpu()
            cc.output_dir = str(work)
            cc.output_file = name + _suffix()
            for export, sig in spec.signatures().items():
                cc.export(export, sig)(getattr(defining, export).py_func)
            cc.compile()
        built = work / (name + _suffix())
        # the digest first: a reader between the two renames sees a mismatch and rebuilds, never a bad module
        (work / "digest").write_text(hashlib.sha256(built.read_bytes()).hexdigest() + "\n", encoding="ascii")
        os.replace(work / "digest", _digest_path(folder / built.name))
        os.replace(built, folder / built.name)
        (folder / (name + ".failed")).unlink(missing_ok=True)  # an earlier failure with other compiler settings
    except Exception as e:  # noqa: BLE001  (any failure: the JIT takes over)
        _fail(folder, name, f"{type(e).__name__}: {e}")
        return 1
    finally:
        tempfile.tempdir = tmp_before
        shutil.rmtree(work, ignore_errors=True)
    return 0


__all__ = ["Kernels", "Spec", "build", "buildable", "enabled", "failure", "load", "module_name"]


if __name__ == "__main__":  # the build's child process: python -m golfsolve.aotcache OWNER FOLDER
    sys.exit(_compile(importlib.import_module(sys.argv[1]).SPEC, Path(sys.argv[2])))
