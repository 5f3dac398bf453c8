"""Which estimators take a scipy sparse X, and the refusal of those that do not (issue 42).

The ensembles of weak learners take a sparse X in any format scikit-learn
converts (``validate_data(..., accept_sparse=ACCEPT_SPARSE)``) and never densify it:
their columns are stumps, which read one feature at a time
(:class:`mkbench.learners.SparseStumps`), or perceptrons and Fourier features,
which take the sparse product X theta. Their tags say so (:func:`sparse_tags`), so
that scikit-learn's estimator checks run their sparse checks. The estimators whose
columns need dense inputs refuse a sparse X with :func:`refuse_sparse`, which says
why and names the estimators that take it.
"""

from __future__ import annotations

from typing import Any

import scipy.sparse

__all__ = ["ACCEPT_SPARSE", "refuse_sparse", "sparse_tags"]

#: The sparse formats the weak-learner ensembles take as they are; scikit-learn converts the others to CSR.
ACCEPT_SPARSE = ["csr", "csc"]

#: The estimators a refusal names instead.
TAKE_SPARSE = "CGEnsClassifier (or another ensemble of weak learners) or SelectedSVC"


def sparse_tags(tags: Any, sparse: bool = True) -> Any:
    """scikit-learn's tags ``tags`` with ``input_tags.sparse`` set to ``sparse``."""
    tags.input_tags.sparse = sparse
    return tags


def refuse_sparse(estimator: object, X: Any, why: str) -> None:
    """Raise TypeError if X is a scipy sparse matrix, naming ``estimator``, ``why`` and the estimators that take one.

    Parameters
    ----------
    estimator : estimator
        The estimator refusing X.
    X : object
        The inputs passed.
    why : str
        Why its columns need dense inputs, e.g. "its RBF kernel columns need dense inputs".
    """
    if scipy.sparse.issparse(X):
        raise TypeError(
            f"{type(estimator).__name__} does not take sparse X: {why}. {TAKE_SPARSE} take scipy sparse X; "
            "or pass X.toarray()"
        )
