"""Shared fixtures: the test data directory, the seed 000 layouts, a CLI runner and the server's test client."""

from __future__ import annotations

import os
import shutil
import signal
import sysconfig
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

import pytest
from click.testing import CliRunner

from golfsolve.solitaire.layout import Layout, read_layout_file

DATA = Path(__file__).parent / "data"


@pytest.fixture(autouse=True)
def _ctrl_c_reaches_children():
    """Give the processes a test starts Ctrl-C as a terminal's foreground job has it.

    A test run started in the background (a CI runner, ``cmd &``) inherits SIGINT ignored,
    and so would every ``golfsolve`` a test starts, which then cannot be interrupted: the
    interrupt tests would fail for a reason that is the runner's, not golfsolve's.
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield


@pytest.fixture(scope="session")
def c_compiler() -> str:
    """The C compiler numba's ahead-of-time build would use; a test that needs the
    ahead-of-time kernels is skipped where there is none (numba's JIT serves there)."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    path = shutil.which(cc)
    if path is None:
        pytest.skip(f"no C compiler ({cc}): the solver runs on numba's JIT")
    return path


def _shared_tmp(tmp_path_factory) -> Path:
    """The temporary folder every xdist worker of this test run shares (this run's, without xdist)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session", autouse=True)
def _solver_module_built_once(request, tmp_path_factory):
    """When a test that needs it is to run (tests/solitaire/test_native.py's), the cold batch (a real cold build of the solver's
    ahead-of-time module) runs first, in the first worker to start, and its module serves the
    suite's own cache too: a cold suite builds it once, not once for that test and once more
    for the suite (nor once more per worker). The other worker carries on with its tests, and
    waits for the build only if it needs the module meanwhile."""
    from run_helpers import cold_solver_batch

    if any("cold_solver_batch" in getattr(item, "fixturenames", ()) for item in request.session.items):
        cold_solver_batch(_shared_tmp(tmp_path_factory), wait=False)
    yield


@pytest.fixture(scope="session")
def cold_solver_batch(tmp_path_factory) -> dict:
    """The test run's cold batch (:func:`run_helpers.cold_solver_batch`): the cache folder it
    started empty, and ``batch`` and ``solve``, each with ``returncode``, ``stdout`` and ``stderr``."""
    from run_helpers import cold_solver_batch

    return cold_solver_batch(_shared_tmp(tmp_path_factory), wait=True)


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def seed000_start() -> Layout:
    """The rule text's worked example at the start: discard AC, only 8S known in the stock."""
    return read_layout_file(DATA / "seed000_start.txt")


@pytest.fixture
def seed000_move35() -> Layout:
    """The worked example at move 35: discard KC, 6 unknown stock cards."""
    return read_layout_file(DATA / "seed000_move35.txt")


@dataclass
class CliResult:
    exit_code: int
    stdout: str
    stderr: str


@pytest.fixture
def run_cli():
    """Run ``golfsolve ARGS`` in-process through the real entry point.

    The entry point (not the bare click group) is used because it is what maps bad
    input to exit code 2 and a one-line message.
    """
    from golfsolve.cli.main import main
    from hostile_helpers import quiet_stderr

    def run(args: Sequence[str], input: Optional[str] = None) -> CliResult:
        runner = CliRunner()
        with runner.isolation(input=input) as streams:
            try:
                main(list(args))
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            out = streams[0].getvalue().decode("utf-8", "replace")
            err = streams[1].getvalue().decode("utf-8", "replace") if streams[1] is not None else ""
        # whichever test first needs a kernel compiles it, and its command says so first
        return CliResult(code, out, quiet_stderr(err))

    return run


@pytest.fixture(scope="module")
def client():
    """``golfsolve serve``'s app behind Starlette's test client, with two real worker
    processes (one server per test module; skipped without the serve extra)."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from golfsolve.serve.app import create_app

    with TestClient(create_app(workers=2)) as c:
        yield c
