"""Deterministic train/test splits of a data set.

A *split* is a ``dict[str, numpy.ndarray]`` mapping part names (``"train"``,
``"test"`` and optionally ``"validation"`` and ``"unlabeled"``) to sorted
``int64`` arrays of row indices into the data set; the parts never overlap.

:func:`make_splits` builds the list of splits of an evaluation protocol from
the protocol's parameters, an integer seed and the labels ``y`` (only their
number matters unless a protocol stratifies). Every random draw comes from
``numpy.random.default_rng(seed)``, and scikit-learn splitters get an integer
``random_state`` drawn from that generator, so the same inputs always give the
same splits. The protocols are registered in :data:`PROTOCOLS`:

``kfold(n_folds, shuffle=True, stratify=False)``
    ``n_folds`` splits whose test parts partition the data.
``random(test_size, n_repeats, stratify=False)``
    ``n_repeats`` random train/test splits; ``test_size`` is a fraction in
    (0, 1) or a number of points (70/30 is ``test_size=0.3``, 3:2 is ``0.4``).
``subsets(sizes, n_repeats)``
    Mutually exclusive random subsets of fixed sizes, e.g.
    ``{"train": 1000, "validation": 2000, "test": 10000}``.
``semisupervised(n_labeled, n_unlabeled, n_test, n_repeats, stratify_labeled=True)``
    A labelled ``train`` part, an ``unlabeled`` part and a ``test`` part.
``raetsch(n_train, n_test, n_repeats, predefined=None)``
    The IDA benchmark protocol: the first ``n_repeats`` of the ``predefined``
    realisations (pairs of 0-based train and test indices) when there are that
    many, otherwise seeded random splits of the same sizes (CGEns §VI-A).
``loo()``
    Leave-one-out: one split per point.
``official(train_idx, test_idx, train_per_class=None, n_repeats=1)``
    The single split distributed with the data set (MNIST, USPS...); with
    ``train_per_class``, ``n_repeats`` draws of that many training points per
    class from its training part, each tested on its whole test part.

Splits are stored one per ``.npz`` file with :func:`save_split` and read back
with :func:`load_split`.

One module per role: the split type and the checks every protocol shares
(:mod:`._common`); the protocols by family, resampling with scikit-learn's
splitters (:mod:`.resampling`), disjoint random subsets (:mod:`.subsets`) and
the splits distributed with a data set (:mod:`.predefined`); their registry,
:func:`make_splits` and :func:`add_validation` (:mod:`.protocols`); the files
(:mod:`.files`).
"""

from ._common import PARTS, Split
from .files import load_split, save_split
from .protocols import FROM_DATASET, PROTOCOLS, add_validation, make_splits, protocol_parameters

__all__ = [
    "FROM_DATASET",
    "PARTS",
    "PROTOCOLS",
    "Split",
    "add_validation",
    "load_split",
    "make_splits",
    "protocol_parameters",
    "save_split",
]
