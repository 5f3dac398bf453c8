"""
MARK: learning curves of MARK-L and MARK-S
==========================================

MARK (Bennett, Momma, Embrechts, KDD 2002) boosts over RBF columns, each with its own centre and width; the
*weak* RBF kernel acts on one attribute. MARK-L refits kernel ridge regression on every column chosen so far;
MARK-S fits the new column only and shrinks it by :math:`\\nu`. ``staged_predict`` gives the model after each
column, so one fit draws the whole learning curve. Data: Friedman's regression problem #1 (scikit-learn's
``make_friedman1``: 10 inputs, 5 of them used, additively but for one interaction), 600 points, inputs
standardised.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_friedman1
from sklearn.metrics import r2_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

import mkbench

X, y = make_friedman1(n_samples=600, noise=1.0, random_state=0)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0)
scaler = StandardScaler().fit(X_train)
X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)

models = {
    "MARK-L, weak RBF": mkbench.MARKRegressor("L", max_iter=60, random_state=0),
    "MARK-L, RBF": mkbench.MARKRegressor("L", kernel="rbf", max_iter=60, random_state=0),
    "MARK-S, weak RBF (ν = 0.1)": mkbench.MARKRegressor("S", nu=0.1, max_iter=60, random_state=0),
}
curves = {}
for name, model in models.items():
    model.fit(X_train, y_train)
    train = [1 - r2_score(y_train, p) for p in model.staged_predict(X_train)]
    test = [1 - r2_score(y_test, p) for p in model.staged_predict(X_test)]
    curves[name] = (train, test)
    print(f"{name:28s} test Q² after {len(test) - 1} columns: {test[-1]:.3f}")

# %%
# Q² = 1 - R² along the columns
# -----------------------------
# The papers' measure, :math:`Q^2 = \sum (y - \hat y)^2 / \sum (y - \bar y)^2`: 0 is perfect, 1 is the mean.
# Solid: training points; dashed: test points.
fig, ax = plt.subplots(figsize=(6.4, 3.8), layout="constrained")
for (name, (train, test)), colour in zip(curves.items(), ("C0", "C1", "C2"), strict=True):
    ax.plot(np.arange(len(train)), train, color=colour, label=f"{name}, training")
    ax.plot(np.arange(len(test)), test, color=colour, linestyle="--", label=f"{name}, test")
ax.set_xlabel("columns generated")
ax.set_ylabel("Q²")
ax.legend(frameon=False, fontsize="small")
ax.set_title("MARK on Friedman #1: training and test Q²")
plt.show()
