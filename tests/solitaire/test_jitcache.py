"""numba's cache of a kernel goes stale when any golfsolve source it uses changes, and only then.

Each check runs a copy of the package in a temporary folder, in a fresh process, with
its own numba cache: ``bounds.removable_bound`` (in ``bounds.py``) inlines
``packops.rank_unit`` (in ``packops.py``), which numba alone does not track.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import golfsolve
import numpy as np
import tempfile

import pytest

from golfsolve import aotcache
from golfsolve.solitaire import native

from hostile_helpers import quiet_stderr

PROBE = """
import json
import numpy as np
from golfsolve.solitaire import bounds
T = np.zeros(16, dtype=np.int64); S = np.zeros((1, 16), dtype=np.int64)
T[0] = 2; T[6] = 3; T[9] = 2; S[0, 11] = 1
links = np.array([[1, 1]] * 13, dtype=np.int64)
value = int(bounds.removable_bound(T, S, 0, 12, links))
st = bounds.removable_bound.stats
print(json.dumps({"value": value, "hits": sum(st.cache_hits.values()), "misses": sum(st.cache_misses.values())}))
"""


def _run(root: Path, cache: Path, probe: str = PROBE) -> dict:
    env = dict(os.environ, PYTHONPATH=str(root), NUMBA_CACHE_DIR=str(cache))
    out = subprocess.run([sys.executable, "-c", probe], cwd=root, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_editing_an_inlined_module_recompiles_the_kernels_that_use_it(tmp_path):
    root = tmp_path / "tree"
    shutil.copytree(Path(golfsolve.__file__).parent, root / "golfsolve",
                    ignore=shutil.ignore_patterns("__pycache__"))
    cache = tmp_path / "cache"
    first = _run(root, cache)
    assert first == {"value": 1, "hits": 0, "misses": 1}

    # a module the kernel does not import: the cache stays good, loaded and not compiled (one
    # warm run shows both; a cache that did not load would miss with or without the edit)
    _edit(root / "golfsolve" / "cli" / "main.py", '"""', '"""An edit. ')
    assert _run(root, cache) == {**first, "hits": 1, "misses": 0}

    # the inlined helper now adds no card at all: the discard top (a King, the only base
    # that reaches the Aces when ranks wrap) no longer counts, and the bound must see it
    _edit(root / "golfsolve" / "solitaire" / "packops.py",
          "return np.int64(1) << (FIELD * r)", "return np.int64(0) * r")
    edited = _run(root, cache)
    assert edited == {"value": 0, "hits": 0, "misses": 1}


# a grid kernel module calling (not inlining) another module's kernel: numba links the
# callee's machine code into the caller's cache, so the caller must go stale with it
GRID_MODULE = """
import numpy as np
from numba import njit
from .jit import kernel  # noqa: F401  (as every grid kernel module does)
from .layout import hidden_count


@njit(cache=True)
def hidden_twice(up, p, g):
    return 2 * hidden_count(up, p, g)
"""

GRID_PROBE = """
import json
import numpy as np
from golfsolve.grid import probe
up = np.zeros((2, 6), dtype=np.bool_); up[0, :2] = True
value = int(probe.hidden_twice(up, 0, 6))
st = probe.hidden_twice.stats
print(json.dumps({"value": value, "hits": sum(st.cache_hits.values()), "misses": sum(st.cache_misses.values())}))
"""


def test_editing_a_grid_kernel_module_recompiles_the_grid_kernels_that_call_it(tmp_path):
    root = tmp_path / "tree"
    shutil.copytree(Path(golfsolve.__file__).parent, root / "golfsolve",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (root / "golfsolve" / "grid" / "probe.py").write_text(GRID_MODULE, encoding="utf-8")
    cache = tmp_path / "cache"
    first = _run(root, cache, GRID_PROBE)
    assert first == {"value": 8, "hits": 0, "misses": 1}
    assert _run(root, cache, GRID_PROBE) == {**first, "hits": 1, "misses": 0}
    _edit(root / "golfsolve" / "grid" / "layout.py", "        if not up[p, i]:\n            h += 1",
          "        if not up[p, i]:\n            h += 2")
    assert _run(root, cache, GRID_PROBE) == {"value": 16, "hits": 0, "misses": 1}


def test_only_modules_that_import_it_get_the_locator():
    # else a module would be cached under one stamp or the other depending on what a
    # process imported first, and two kinds of process would recompile it in turn
    from golfsolve import jitcache

    root = Path(golfsolve.__file__).parent
    assert jitcache._in_package(str(root / "solitaire" / "kernel.py"))
    assert jitcache._in_package(str(root / "solitaire" / "bounds.py"))
    assert not jitcache._in_package(str(root / "solitaire" / "dealcode.py"))
    assert jitcache._in_package(str(root / "grid" / "greedy.py"))  # through grid/jit.py
    assert not jitcache._in_package(str(root / "grid" / "rules.py"))
    assert not jitcache._in_package(np.__file__)


def _parsed_imports(path: Path) -> set[Path]:
    """What ``path`` imports of golfsolve by Python's own parser (the scan's reference)."""
    import ast

    from golfsolve import kernelsources

    package = list(path.relative_to(kernelsources.PACKAGE).parts[:-1])
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name[len("golfsolve."):] for a in node.names if a.name.startswith("golfsolve.")}
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if not (node.module or "").startswith("golfsolve"):
                    continue
                mod = node.module[len("golfsolve."):] if node.module != "golfsolve" else ""
            else:
                mod = ".".join(package[:len(package) - (node.level - 1)] + ([node.module] if node.module else []))
            names |= {mod} | {f"{mod}.{a.name}".strip(".") for a in node.names}
    return {p for p in map(kernelsources._module_file, names) if p is not None and p != path}


def test_the_import_scan_finds_every_import_the_parser_finds():
    from golfsolve import kernelsources

    modules = sorted(p for p in kernelsources.PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
    for path in modules:
        assert kernelsources._direct_imports(path) >= _parsed_imports(path), path
    # the kernels' closure: lazy imports inside functions and parenthesised lists over lines
    names = {p.name for p in kernelsources.closure(str(kernelsources.PACKAGE / "solitaire" / "native.py"))}
    assert {"kernel.py", "bounds.py", "packops.py", "packing.py", "jitcache.py", "aotcache.py"} <= names


PACKAGE = Path(golfsolve.__file__).parent


UID = os.getuid() if hasattr(os, "getuid") else "user"


def _nowhere_writable(tmp_path: Path) -> tuple[Path, dict]:
    """A copy of the package whose folders cannot take a ``__pycache__`` (a file holds each
    name: refused even to root, as a read-only install refuses a user), a home whose
    ``.cache`` cannot be made, and a temporary directory of the test's own."""
    root = tmp_path / "tree"
    shutil.copytree(PACKAGE, root / "golfsolve", ignore=shutil.ignore_patterns("__pycache__"))
    for init in (root / "golfsolve").rglob("__init__.py"):
        (init.parent / "__pycache__").write_text("not a folder")
    home = tmp_path / "home"
    home.mkdir()
    (home / ".cache").write_text("not a folder")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env.update(PYTHONPATH=str(root), HOME=str(home), TMPDIR=str(tmp), GOLFSOLVE_NATIVE="0")
    return root, env


#: Printed after :data:`PROBE`: the line the command would print before compiling the solver.
NOTICE = "from golfsolve.compilenotice import notice_line; print(notice_line(50))\n"


def _probe(root: Path, env: dict, probe: str = PROBE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", probe], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300)


def test_a_read_only_install_without_a_writable_home_compiles_its_kernels_and_caches_them(tmp_path):
    """was: a wheel installed read-only (system-wide, a container) run by a user whose home
    cannot be written: every solver command failed with "golfsolve: internal error:
    RuntimeError: cannot cache function 'rank_unit': no locator available" (numba found no
    folder for its cache). Now the cache goes in a private folder of the temporary directory,
    and a second run loads it."""
    root, env = _nowhere_writable(tmp_path)
    first = _probe(root, env)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout.splitlines()[-1])["misses"] == 1
    scratch = tmp_path / "tmp" / f"golfsolve-cache-{UID}"
    assert (scratch.stat().st_mode & 0o777) == 0o700
    assert list((scratch / "numba").rglob("*.nbi"))
    again = _probe(root, env)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout.splitlines()[-1])["hits"] == 1


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="folder ownership is POSIX's")
def test_a_shared_scratch_cache_is_not_trusted_and_the_kernels_still_work(tmp_path):
    """The scratch folder in the temporary directory is used only when it is this user's alone:
    one that others can write (planted code would be loaded and run) is left alone, and the
    kernels compile into a folder of the process's own, removed when it exits."""
    root, env = _nowhere_writable(tmp_path)
    shared = tmp_path / "tmp" / f"golfsolve-cache-{UID}"
    shared.mkdir()
    shared.chmod(0o777)
    r = _probe(root, env, PROBE + NOTICE)
    assert r.returncode == 0, r.stderr
    assert list(shared.iterdir()) == []
    assert [p.name for p in (tmp_path / "tmp").iterdir()] == [shared.name]  # its own folder is gone
    # was: the compile notice promised "later runs start at once", and every run compiled again
    line = r.stdout.splitlines()[-1]
    assert "later runs start at once" not in line and "every run compiles them" in line
    assert quiet_stderr(line + "\n") == ""


def test_the_compile_notice_promises_a_fast_next_run_where_the_cache_is_kept(tmp_path):
    """The other side of the test above: with the cache in a folder that stays, the notice
    says later runs start at once."""
    root, env = _nowhere_writable(tmp_path)
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "kept")
    r = _probe(root, env, PROBE + NOTICE)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1].endswith("; later runs start at once")


def _unwritable_places(tmp_path: Path, monkeypatch) -> aotcache.Spec:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__pycache__").write_text("not a folder")
    (pkg / "kernels.py").write_text("")
    (tmp_path / "cache-file").write_text("not a folder")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-file" / "x"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    return aotcache.Spec(owner="x", kernels="x", source=str(pkg / "kernels.py"), prefix="golfsolve_test_",
                         signatures=dict, arrays={})


def test_the_compiled_module_goes_to_the_scratch_cache_when_nothing_else_is_writable(tmp_path, monkeypatch):
    """was: the ahead-of-time module had no folder either (numba's JIT then failed, above);
    now it is built once into the private scratch folder and loaded from there later."""
    spec = _unwritable_places(tmp_path, monkeypatch)
    folders = aotcache._folders(spec)
    assert folders[-1].parent == tmp_path / "tmp" / f"golfsolve-cache-{UID}" / "golfsolve"
    assert aotcache._writable(folders[-1])
    if hasattr(os, "getuid"):  # a folder others can write: not used
        folders[-1].parents[1].chmod(0o777)
        assert all(tmp_path / "tmp" not in f.parents for f in aotcache._folders(spec))


def test_no_home_directory_is_no_internal_error(tmp_path, monkeypatch):
    """was: with no HOME and a user id without a passwd entry (``docker run --user 12345``),
    finding the cache folder raised RuntimeError("Could not determine home directory"): an
    internal error from every solver command."""
    spec = _unwritable_places(tmp_path, monkeypatch)
    monkeypatch.delenv("XDG_CACHE_HOME")

    def no_home(cls=None):
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", classmethod(no_home))
    folders = aotcache._folders(spec)
    assert folders[0] == tmp_path / "pkg" / "__pycache__" and aotcache._writable(folders[-1])


def test_a_build_leaves_no_temporary_folders_behind(tmp_path, monkeypatch):
    """was: every ahead-of-time build left two folders (temp.c, temp.o) in /tmp: numba's
    compiler check removes a file object instead of its file, and never its folder."""
    pytest.importorskip("numba.pycc")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    folder = tmp_path / "cache"
    folder.mkdir()

    def stop() -> dict:
        raise RuntimeError("stopped after the compiler check")

    spec = aotcache.Spec(owner="x", kernels="json", source=native.SPEC.source, prefix="golfsolve_test_",
                         signatures=stop, arrays={})
    assert aotcache._compile(spec, folder) == 1
    assert "stopped after the compiler check" in (folder / (aotcache.module_name(spec) + ".failed")).read_text()
    assert list((tmp_path / "tmp").iterdir()) == []
    assert tempfile.tempdir == str(tmp_path / "tmp")  # the process's own setting is given back
