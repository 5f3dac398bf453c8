"""scikit-learn estimators of the papers' methods, one family per module."""

from .cgboost import CGBoostClassifier, CGBoostRegressor

__all__ = ["CGBoostClassifier", "CGBoostRegressor"]
