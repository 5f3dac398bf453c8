"""scikit-learn estimators of the papers' methods, one family per module."""

from .cgboost import CGBoostClassifier, CGBoostRegressor
from .cgens import CGEnsClassifier
from .cgens_sls import CGEnsSLSClassifier
from .lpboost import LPBoostClassifier
from .mark import MARKRegressor
from .silp import SILPClassifier
from .simplemkl import SimpleMKLClassifier
from .ssmk import SSMKClassifier

__all__ = [
    "CGBoostClassifier",
    "CGBoostRegressor",
    "CGEnsClassifier",
    "CGEnsSLSClassifier",
    "LPBoostClassifier",
    "MARKRegressor",
    "SILPClassifier",
    "SSMKClassifier",
    "SimpleMKLClassifier",
]
