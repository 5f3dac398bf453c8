"""mkbench: boosting over kernel columns and multiple kernel learning, reproduced.

The estimators follow the scikit-learn API. The data sets, splits and workflow
that reproduce the papers' tables live in :mod:`mkbench.datasets`,
:mod:`mkbench.splits` and :mod:`mkbench.experiment`.
"""

__version__ = "0.1.0"
