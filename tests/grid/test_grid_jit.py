"""The grid's no-reference-counting kernels: they work on arrays in place and refuse to allocate."""

import numpy as np
import pytest
from numba.core.errors import TypingError

from golfsolve.grid.jit import kernel


@kernel
def _bump(a, by):
    for i in range(a.shape[0]):
        a[i] += by
    return a.sum()


@kernel
def _allocates(n):
    return np.zeros(n).sum()


def test_kernel_works_in_place():
    a = np.arange(4, dtype=np.int64)
    assert _bump(a, 2) == 14
    assert list(a) == [2, 3, 4, 5]


def test_kernel_refuses_to_allocate():
    # Without the runtime an allocation cannot be freed, so it must not compile at all.
    with pytest.raises(TypingError):
        _allocates(3)
