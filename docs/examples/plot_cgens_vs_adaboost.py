"""
CGEns against AdaBoost
======================

CGEns (Shen and Liu) is the linear SVM over the outputs of all decision stumps, solved by column generation:
each step adds the stump with the largest :math:`|\\sum_i y_i \\alpha_i h(x_i)|` and re-solves the SVM over
every stump chosen so far (*fully corrective*), where AdaBoost fixes each weight when its stump enters. This
example follows the training and test error of both along the stumps added, on the breast cancer data.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import AdaBoostClassifier
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

import mkbench

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
n_stumps = 100

cgens = mkbench.CGEnsClassifier("stump", C=1.0, max_iter=n_stumps).fit(X_train, y_train)
adaboost = AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=n_stumps, random_state=0)
adaboost.fit(X_train, y_train)


def errors(staged, X, y):
    return np.array([np.mean(pred != y) for pred in staged(X)]) * 100


curves = {
    "CGEns": (errors(cgens.staged_predict, X_train, y_train), errors(cgens.staged_predict, X_test, y_test)),
    "AdaBoost": (errors(adaboost.staged_predict, X_train, y_train), errors(adaboost.staged_predict, X_test, y_test)),
}
print("CGEns status:", cgens.status_, "stumps:", cgens.n_iter_)

# %%
# Error along the iterations
# --------------------------
# Solid lines are the training error, dashed lines the test error.
fig, ax = plt.subplots(figsize=(6.4, 3.6), layout="constrained")
for (name, (train, test)), colour in zip(curves.items(), ("C0", "C1"), strict=True):
    ax.plot(np.arange(1, len(train) + 1), train, color=colour, label=f"{name}, training")
    ax.plot(np.arange(1, len(test) + 1), test, color=colour, linestyle="--", label=f"{name}, test")
ax.set_xlabel("stumps added")
ax.set_ylabel("error (%)")
ax.set_ylim(0, None)
ax.legend(frameon=False, ncol=2)
ax.set_title("CGEns vs AdaBoost with decision stumps, breast cancer")
plt.show()
