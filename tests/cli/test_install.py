"""Installing golfsolve as a new user meets it: the version the running code reports, the serve extra's
pip command outside a checkout, and a source distribution that carries what its tests read. (Where a
read-only install keeps its compiled kernels: tests/solitaire/test_jitcache.py.)"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile

import pytest
from hostile_helpers import ROOT, one_line_exit_2

import golfsolve


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
