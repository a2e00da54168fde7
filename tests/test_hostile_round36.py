"""Round 36: installing golfsolve and the first use, as a new user meets them (a wheel in a
fresh venv, a read-only install, no writable home, the version, optional extras, the sdist)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import pytest

import golfsolve
from golfsolve import aotcache
from golfsolve.solitaire import native
from hostile_helpers import ROOT, one_line_exit_2, quiet_stderr
from test_jitcache import PROBE

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


def test_the_version_is_the_running_codes_own_and_needs_no_installed_metadata(run_cli, monkeypatch, tmp_path):
    """was: ``--version`` and the run manifests read the installed distribution's metadata: a
    checkout run with ``python -m golfsolve`` before ``pip install`` answered ``--version`` with
    "internal error: RuntimeError: 'golfsolve' is not installed", and a checkout on PYTHONPATH
    reported the version of whatever other copy was installed. pyproject.toml now takes its
    version from ``golfsolve.__version__`` too."""
    import importlib.metadata

    from golfsolve.stats.runfolder import running_version

    def another_copy(name: str) -> str:
        if name == "golfsolve":
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version", another_copy)
    r = run_cli(["--version"])
    assert r.exit_code == 0 and r.stdout == f"golfsolve, version {golfsolve.__version__}\n", r.stderr
    assert running_version() == golfsolve.__version__
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" in project["project"]["dynamic"] and "version" not in project["project"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "golfsolve.__version__"}


def test_a_missing_serve_extra_names_a_pip_command_that_works_outside_a_checkout(run_cli, monkeypatch):
    """was: "pip install -e '.[serve]'", which from a wheel's install (no checkout in the
    current folder) fails or installs whatever '.' is; `pip install 'golfsolve[serve]'`
    works for both installs (as --engine dask already said)."""
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    one_line_exit_2(run_cli(["serve", "--port", "0"]), "uvicorn is missing", "pip install 'golfsolve[serve]'")


def test_the_sdist_carries_what_its_tests_read(tmp_path):
    """was: the source distribution held tests/test_*.py only (setuptools' default), without
    tests/conftest.py, the helpers, tests/data, tests/grid, docs/ and the notebook they read:
    its test suite could not even be collected."""
    pytest.importorskip("setuptools")
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", "__pycache__", "*.egg-info", "build", "dist",
                                                              ".pytest_cache", ".hypothesis"))
    out = tmp_path / "dist"
    r = subprocess.run([sys.executable, "-c", f"from setuptools import build_meta as b; print(b.build_sdist({str(out)!r}))"],
                       cwd=src, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    with tarfile.open(out / r.stdout.strip().splitlines()[-1]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for needed in ("tests/conftest.py", "tests/hostile_helpers.py", "tests/run_helpers.py", "tests/grid/conftest.py",
                   "tests/data/golden_deals.json", "docs/formats.md", "notebooks/stats.ipynb",
                   "golfsolve/serve/static/index.html", "golfsolve/serve/static/app.js"):
        assert needed in names, needed
    assert not [n for n in names if "__pycache__" in n or n.endswith((".nbi", ".nbc", ".so"))]
