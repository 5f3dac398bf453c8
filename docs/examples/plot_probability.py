"""
Calibrated probabilities
========================

With ``probability=True``, :class:`~mkbench.CGBoostClassifier` fits Platt's sigmoid on 5-fold cross-validated
decision values, as scikit-learn's ``SVC(probability=True)`` did (scikit-learn now spells it
``CalibratedClassifierCV(SVC(), ensemble=False)``), so that ``predict_proba`` exists. This example compares the
reliability of its probabilities with the calibrated SVC's on the breast cancer data.
"""

# %%
import matplotlib.pyplot as plt
from sklearn.calibration import CalibratedClassifierCV, CalibrationDisplay
from sklearn.datasets import load_breast_cancer
from sklearn.metrics import brier_score_loss, log_loss
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

import mkbench

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)

models = {
    "CG-Boost L,Q,R": mkbench.CGBoostClassifier(probability=True).fit(X_train, y_train),
    "SVC (RBF), Platt": CalibratedClassifierCV(make_pipeline(StandardScaler(), SVC()), ensemble=False).fit(
        X_train, y_train
    ),
}
for name, model in models.items():
    proba = model.predict_proba(X_test)[:, 1]
    print(f"{name:15s} Brier {brier_score_loss(y_test, proba):.4f}  log loss {log_loss(y_test, proba):.4f}")

# %%
# Reliability diagram
# -------------------
# A calibrated model's points lie on the diagonal: of the test points given probability p, a fraction p are
# of the positive class. Each point is a fifth of the test points, by predicted probability.
fig, ax = plt.subplots(figsize=(4.8, 4.4), layout="constrained")
for name, model in models.items():
    CalibrationDisplay.from_estimator(model, X_test, y_test, n_bins=5, strategy="quantile", name=name, ax=ax)
ax.set_title("Reliability on 285 held-out points")
ax.legend(frameon=False, loc="upper left")
plt.show()
