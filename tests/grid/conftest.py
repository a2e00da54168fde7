"""Fixtures the grid tests share."""

from __future__ import annotations

import pytest

from golfsolve.grid.botnames import BOTS, register_bot


@pytest.fixture
def registered():
    """register_bot for one test: the names it added are removed after it."""
    added = []

    def reg(name, target, **kw):
        register_bot(name, target, **kw)
        added.append(name)

    yield reg
    for name in added:
        BOTS.pop(name, None)
