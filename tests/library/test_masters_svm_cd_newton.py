"""The dual CD masters' Newton products (masters/svm_cd_newton.py): from int8 rows, numpy's float64 product bit for bit."""

import numpy as np
import pytest

from mkbench.masters.svm_cd_newton import rows_times


@pytest.mark.parametrize("n", [1, 2, 255, 257, 258, 513, 1000, 4999])
@pytest.mark.parametrize("k", [1, 4, 7, 64, 301])
def test_rows_times_give_numpys_float64_product_bit_for_bit(n, k):
    rng = np.random.default_rng(n * k)
    X = rng.standard_normal((n, k + 5))[:, :k]  # a strided view, as the masters' rows are
    signs = rng.integers(-1, 2, size=(n, k + 3)).astype(np.int8)[:, :k]  # the int8 copy of sign columns
    v = rng.standard_normal(k)
    assert np.array_equal(rows_times(X, v), X @ v)
    assert np.array_equal(rows_times(signs, v), signs.astype(np.float64) @ v)
