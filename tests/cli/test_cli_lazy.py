"""Commands load lazily: help needs neither the solver (numba) nor the fair-play package."""

from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest

from golfsolve.cli.main import COMMANDS, cli, main

HEAVY = ("numba", "golfsolve.fair", "golfsolve.solitaire.fair", "golfsolve.solitaire.fairvalue",
         "pandas", "pyarrow", "matplotlib")


def _imported(*args: str, env: dict | None = None) -> tuple[set[str], str]:
    """The modules a real ``golfsolve ARGS`` process imports (from ``-X importtime``), and its stdout."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "golfsolve", *args],
                          env={**os.environ, **(env or {})}, capture_output=True, text=True,
                          timeout=900)  # a cold numba cache compiles here
    assert proc.returncode == 0, proc.stderr[-2000:]
    modules = {line.rsplit("|", 1)[1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    assert "golfsolve.cli.main" in modules  # the listing is real
    return modules, proc.stdout


@pytest.mark.parametrize("args", [("--help",), ("solve", "--help"), ("hint", "--help")])
def test_help_imports_no_solver_and_no_fair_play(args):
    modules, out = _imported(*args)
    assert "Usage: golfsolve" in out
    heavy = sorted(m for m in modules if m.split(".")[0] in HEAVY or m in HEAVY or m.startswith("golfsolve.fair."))
    assert heavy in ([], ["golfsolve.fair", "golfsolve.fair.settings"])  # the presets' names: plain data
    assert "numpy" not in modules  # nor the solver's Python side


def test_top_help_lists_every_command_without_importing_them():
    modules, out = _imported("--help")
    for name in COMMANDS:
        assert f"  {name} " in out
    assert not any(m.startswith("golfsolve.cli.") and m not in {"golfsolve.cli.main", "golfsolve.cli.lazy",
                                                                  "golfsolve.cli.interrupts", "golfsolve.cli.output",
                                                                  "golfsolve.cli.startup"} for m in modules)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_map_names_a_command_and_its_own_short_help(name):
    command = cli.load(name)
    assert isinstance(command, click.Command)
    # the listing shows the map's line; it must be what the command itself says
    assert COMMANDS[name].short_help == command.get_short_help_str(limit=1000)


def test_an_unknown_command_is_one_line_and_exit_2(capsys):
    with pytest.raises(SystemExit) as e:
        main(["sovle", "GO1-E-AAAAAAB"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "sovle" in err


def test_a_warm_solve_imports_no_numba(c_compiler):
    modules, out = _imported("solve", "GO1-E-AAAAAAB")  # the ahead-of-time kernels (tests/solitaire/test_native.py)
    assert "winnable" in out
    assert "golfsolve.solitaire.solver" in modules
    assert not [m for m in modules if m.split(".")[0] in ("numba", "llvmlite", "scipy")]


def test_a_warm_odds_imports_no_numba_either(c_compiler):
    # its fair games end in the exact endgame, whose kernels are compiled with the solver's
    modules, out = _imported("odds", "GO1-C-AAAAAAB", "--games", "3")
    assert "fair chance" in out
    assert "golfsolve.fair.exact" in modules
    assert not [m for m in modules if m.split(".")[0] in ("numba", "llvmlite", "scipy")]


def test_a_warm_solve_on_numbas_jit_loads_no_scipy_linear_algebra():
    modules, out = _imported("solve", "GO1-E-AAAAAAB", env={"GOLFSOLVE_NATIVE": "0"})
    assert "winnable" in out
    assert "numba.np.arraymath" in modules  # the kernels were loaded ...
    assert "scipy.linalg" not in modules  # ... without numba's BLAS check importing SciPy's linear algebra


def test_after_the_blas_check_scipy_imports_normally():
    code = ("import sys; from golfsolve.cli.startup import skip_blas_check; skip_blas_check(); "
            "import numba.np.arraymath as am; import scipy.linalg.cython_blas, scipy.stats; "
            "print(am._HAVE_BLAS, 'scipy.linalg' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["False", "True"]


def test_a_misspelt_command_is_answered_with_the_closest_one(run_cli):
    # was: "No such command 'sovle'." with no hint (click suggests from loaded commands only),
    # where the loaded grid group's 'simluate' had one
    r = run_cli(["sovle", "GO1-E-AAAAAAB"])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert "No such command 'sovle'. Did you mean 'solve'?" in r.stderr, r.stderr
    assert "Did you mean 'simulate'?" in run_cli(["grid", "simluate"]).stderr
    assert "Did you mean" not in run_cli(["frobnicate"]).stderr
