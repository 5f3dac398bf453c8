"""Fixtures the library's test modules share."""

import pytest

from ._masters_common import masters_problem


@pytest.fixture(scope="module")
def problem():
    """masters_problem(): 50 points, 150 columns (linear, quadratic and RBF kernels), labels and responses.

    The problem of the masters' tests (``test_masters_*.py``); a module with another problem defines its own.
    """
    return masters_problem()
