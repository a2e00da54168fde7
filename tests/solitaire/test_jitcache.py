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
