"""Weak learners of CGEns (Shen & Liu, §IV, §VI-A): decision stumps, perceptrons, Fourier features.

A weak learner h maps inputs X to outputs h(X) (one column of the ensemble's
feature map Phi, eq. 3). Column generation needs, for signed weights w on the
training points (w_i = y_i alpha_i of CGEns, eq. 8; u_i y_i of LPBoost, eq. 6;
a column U_{:tau} of CGEns-SLS, eq. 13), the learner of a family that maximises

    |score(h)| = |sum_i w_i h(x_i)|.

Every family here is negation complete (Claim IV.2): -h is a stump (perceptron)
whenever h is, and -cos(theta'x - kappa) = cos(theta'x - kappa - pi). So the
maximiser of |score| is returned with the sign that makes its score >= 0, which
solves eq. 6 and eq. 8 at once.

A family is bound to the training inputs once per fit and answers ``best``
for any number of weight vectors. One module per role:

* :mod:`~mkbench.learners.weak`: the learners (:class:`Stump`,
  :class:`Perceptron`, :class:`FourierFeature`), the outcome of a search
  (:class:`Best`) and the feature map Phi(X) (:func:`outputs`);
* :mod:`~mkbench.learners.stumps`: :class:`Stumps` searches every decision stump
  exactly: each feature is sorted once, then one search is a cumulative sum of
  the sorted weights, O(n d);
* :mod:`~mkbench.learners.sparse_stumps`: :class:`SparseStumps` is that search on a
  scipy sparse X, bit for bit, from its nonzero entries sorted per feature (no n x d array);
* :mod:`~mkbench.learners.binned`: :class:`BinnedStumps` searches the stumps
  between at most ``max_bins`` bins per feature (:mod:`~mkbench.learners.binning`
  chooses them), by a histogram of the weights over each feature's bins, O(n d)
  without the sort and skipping each feature's heaviest bin (zeros); the same
  family as :class:`Stumps` on features with at most ``max_bins`` values;
* :mod:`~mkbench.learners.sampled`: :class:`Perceptrons` and
  :class:`FourierFeatures` draw ``n_candidates`` random learners per search from
  the distributions behind the perceptron kernel (Lin & Li 2008) and the Gaussian
  RBF kernel (Rahimi & Recht 2007), as §VI-A does with 2000 candidates, and
  return the best of them;
* :mod:`~mkbench.learners.family`: the families by name (:func:`make_family`;
  ``make_family("stump", X, max_bins=255)`` binds :class:`BinnedStumps`).
"""

from .binned import BinnedStumps
from .family import LEARNERS, make_family
from .sampled import FourierFeatures, Perceptrons
from .sparse_stumps import SparseStumps
from .stumps import Stumps
from .weak import Best, FourierFeature, Perceptron, Stump, outputs

__all__ = [
    "LEARNERS",
    "Best",
    "BinnedStumps",
    "FourierFeature",
    "FourierFeatures",
    "Perceptron",
    "Perceptrons",
    "SparseStumps",
    "Stump",
    "Stumps",
    "make_family",
    "outputs",
]
