"""scikit-learn estimators: the papers' methods and their baselines, one family per module.

The methods: CG-Boost (:mod:`.cgboost`), MARK (:mod:`.mark`), SSMK (:mod:`.ssmk`),
SILP and SimpleMKL (:mod:`.silp`, :mod:`.simplemkl`, sharing :mod:`._mkl`), CGEns,
CGEns-SLS and LPBoost (:mod:`.cgens`, :mod:`.cgens_sls`, :mod:`.lpboost`); the framework
CG-Boost, CGEns and LPBoost are presets of, any hinge master over kernel columns or weak
learners (:mod:`.column_generation`).

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
