"""One-vs-rest over kernel columns on one store of kernel values, shared by the classes' fits.

The columns K_p(X, x_j) of CG-Boost's master (cgboost §3, eq. 3) do not depend on the
labels, nor do the input scaling and the library resolved on the training X (the RBF's
width, the kernels' normalisation) nor, with sample weights, the scales sqrt(w_j) of the
2-norm masters' columns. One-vs-rest (:class:`._multiclass.MarginClassifierMixin`) fits
k binary problems on the same X: :class:`SharedColumnsMixin` builds the store once
(:meth:`._kernel_columns.KernelExpansion._kernel_columns`) and each class's fit reads it
through a view with its own label signs y_j on top (``positive="label"``, the columns
y_j K_p(X, x_j); :meth:`mkbench.kernels.KernelColumns.with_signs`), so that each Gram
block (or cached column) is computed once for all classes instead of k times. The fits
run ``n_jobs`` at a time in threads sharing the store, which fills it under locks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import clone

__all__ = ["SharedColumnsMixin"]

if TYPE_CHECKING:  # the classes it is mixed with (class docstring), a base for the type checker only
    from ._kernel_columns import KernelExpansion
    from ._multiclass import MarginClassifierMixin

    class _Base(MarginClassifierMixin, KernelExpansion):
        n_jobs: int | None

        def _learner_family(self) -> str | None: ...
else:
    _Base = object


class SharedColumnsMixin(_Base):
    """``_fit_per_class`` of a classifier over kernel columns: the classes share one store of kernel values.

    The estimator is a :class:`._kernel_columns.KernelExpansion` with a one-vs-rest
    ``_fit_per_class`` further along its MRO (used over weak learners, which share nothing),
    ``_learner_family()`` (None: kernel columns) and ``_fit_binary(X, y, weights, columns)``.
    """

    def _fit_per_class(self, binary, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None) -> list:
        """The one-vs-rest models on one store of kernel values; its total count in ``n_kernel_columns_computed_``.

        The input scaling is fitted and the library resolved once (on the weighted X),
        the binary models copy them; the classes' fits run ``n_jobs`` at a time in
        threads (``require="sharedmem"``: the store is not copied to processes).
        """
        if self._learner_family() is not None:
            return super()._fit_per_class(binary, X, y, sample_weight)
        columns = self._kernel_columns(X, sample_weight)

        def fit_class(c):
            model = clone(binary)
            model.n_features_in_ = self.n_features_in_
            model.input_mean_, model.input_scale_ = self.input_mean_, self.input_scale_
            return model._fit_binary(X, (y == c).astype(int), sample_weight, columns)

        models = Parallel(n_jobs=self.n_jobs, require="sharedmem")(delayed(fit_class)(c) for c in self.classes_)
        self.n_kernel_columns_computed_ = columns.n_computed_total
        return models
