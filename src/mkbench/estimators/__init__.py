"""scikit-learn estimators: the papers' methods and their baselines, one family per module.

The engine: :class:`ColumnGenerationClassifier` (:mod:`.column_generation`) fits any
hinge master over kernel columns (:mod:`._kernel_columns`) or weak learners
(:mod:`._learner_columns`) by column generation; CG-Boost's classifier, CGEns and LPBoost
(:mod:`.cgboost`, :mod:`.cgens`, :mod:`.lpboost`) are its presets, subclasses with their
papers' parameter names and defaults, as skglm's ``Lasso`` is a preset of its
``GeneralizedLinearEstimator``; their shared parameter descriptions are :mod:`._docs`.

The other methods: CG-Boost's regressor (:mod:`.cgboost_regressor`), MARK (:mod:`.mark`),
SSMK (:mod:`.ssmk`), SILP and SimpleMKL (:mod:`.silp`, :mod:`.simplemkl`, sharing
:mod:`._mkl`), CGEns-SLS (:mod:`.cgens_sls`).

The baselines: RBF SVM, SVR and kernel ridge regression with parameters selected
on a validation set (:mod:`.selected_svm`, :mod:`.kernel_ridge`, both built on
:mod:`.validation_search`); AdaBoost.MH and AdaBoost.ECC with stumps
(:mod:`.stump_adaboost`); scikit-learn's AdaBoost over sampled perceptrons
(:mod:`.learner_adaboost`); the SVM with the stump or perceptron kernel
(:mod:`.infinite_ensemble`); random Fourier features with a linear SVM
(:mod:`.rff`); C and the iteration count by cross-validation (:mod:`.staged_search`);
and the features a stump ensemble splits on (:mod:`.feature_counts`).
"""

from .cgboost import CGBoostClassifier
from .cgboost_regressor import CGBoostRegressor
from .cgens import CGEnsClassifier
from .cgens_sls import CGEnsSLSClassifier
from .column_generation import ColumnGenerationClassifier
from .infinite_ensemble import InfiniteEnsembleSVC
from .kernel_ridge import KernelColumnRidge, SelectedKernelColumnRidge, SelectedKernelRidge
from .learner_adaboost import LearnerAdaBoostClassifier
from .lpboost import LPBoostClassifier
from .mark import MARKRegressor
from .rff import RFFClassifier
from .selected_svm import SelectedSVC, SelectedSVR
from .silp import SILPClassifier
from .simplemkl import SimpleMKLClassifier
from .ssmk import SSMKClassifier
from .staged_search import StagedSearchCV
from .stump_adaboost import AdaBoostECCClassifier, AdaBoostMHClassifier

__all__ = [
    "AdaBoostECCClassifier",
    "AdaBoostMHClassifier",
    "CGBoostClassifier",
    "CGBoostRegressor",
    "CGEnsClassifier",
    "CGEnsSLSClassifier",
    "ColumnGenerationClassifier",
    "InfiniteEnsembleSVC",
    "KernelColumnRidge",
    "LPBoostClassifier",
    "LearnerAdaBoostClassifier",
    "MARKRegressor",
    "RFFClassifier",
    "SILPClassifier",
    "SSMKClassifier",
    "SelectedKernelColumnRidge",
    "SelectedKernelRidge",
    "SelectedSVC",
    "SelectedSVR",
    "SimpleMKLClassifier",
    "StagedSearchCV",
]
