"""Fixtures the run-folder tests share."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from run_helpers import finished_stats_run


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A finished stats run, made once per test file: deals 0..5 under easy and classic, chunks
    of 2 deals (deal 1 is lost under classic, 4 cards left)."""
    return finished_stats_run(tmp_path_factory.mktemp("finished") / "run")


@pytest.fixture
def run(finished, tmp_path) -> Path:
    """A private copy of the finished run, for a test to damage."""
    return Path(shutil.copytree(finished, tmp_path / "run"))
