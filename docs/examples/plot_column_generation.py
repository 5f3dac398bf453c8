"""
Composing columns and masters
=============================

:class:`~mkbench.ColumnGenerationClassifier` is the engine of the library's boosting methods: any hinge
master — the 1-norm LP or the 2-norm QP, free or non-negative weights — over any family of columns — kernel
columns, or the weak learners ``"stump"``, ``"perceptron"`` and ``"fourier"``. CG-Boost, CGEns and LPBoost are
presets of it (subclasses with their papers' parameter names and defaults). This example fits four
compositions on the same data and reads, for each, the optimality certificate: ``status_`` and
``max_violation_`` say where the loop stopped, and ``history_`` keeps every pricing step, whose largest
violation of the dual constraints falls to ``tol`` when no column prices in.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_moons
from sklearn.model_selection import train_test_split

import mkbench

X, y = make_moons(n_samples=400, noise=0.25, random_state=0)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0)

compositions = {
    "stumps, LP": mkbench.ColumnGenerationClassifier("stump", penalty="l1", C=1.0),
    "perceptrons, LP": mkbench.ColumnGenerationClassifier("perceptron", penalty="l1", C=1.0, random_state=0),
    "RBF columns, LP": mkbench.ColumnGenerationClassifier(["rbf"], penalty="l1", C=1.0),
    # strategy="full": price every column of the three kernels at each step (the default, "auto", solves the
    # whole 2-norm QP at once when it fits in memory, one step)
    "L,Q,R columns, QP": mkbench.ColumnGenerationClassifier(["linear", "quadratic", "rbf"], C=1.0, strategy="full"),
}
for name, model in compositions.items():
    model.fit(X_train, y_train)
    print(
        f"{name:18s} status {model.status_:9s} columns {model.n_iter_:4d}  "
        f"largest violation {model.max_violation_:.2g}  test error {1 - model.score(X_test, y_test):.3f}"
    )

# %%
# Decision functions and certificates
# -----------------------------------
# Top: each model's decision boundary (test points drawn). Bottom: the largest violation at each pricing step;
# the loop stops when it is at most ``tol`` (dotted; a violation at or below 0 is drawn at ``tol`` / 1000). The LPs stay sparse; the 2-norm QP over kernel columns is
# dense — every column enters, several per step — and stops when no column is left to price.
xx, yy = np.meshgrid(np.linspace(-1.6, 2.6, 200), np.linspace(-1.2, 1.7, 150))
grid = np.c_[xx.ravel(), yy.ravel()]
fig, axes = plt.subplots(2, 4, figsize=(11, 5.2), layout="constrained", height_ratios=[1.3, 1])
for (name, model), ax, ax_cert in zip(compositions.items(), axes[0], axes[1], strict=True):
    z = model.decision_function(grid).reshape(xx.shape)
    ax.contourf(xx, yy, z, levels=[-1e9, 0, 1e9], colors=["#f4c6a5", "#a9c8e8"], alpha=0.8)
    ax.contour(xx, yy, z, levels=[0], colors="k", linewidths=1)
    ax.scatter(X_test[:, 0], X_test[:, 1], c=y_test, cmap="coolwarm", s=8, edgecolors="none")
    ax.set_title(f"{name}\n{model.n_iter_} columns, error {1 - model.score(X_test, y_test):.2f}", fontsize="medium")
    ax.set_xticks([])
    ax.set_yticks([])
    # a violation at or below 0 (nothing prices in) is drawn at tol / 1000, the bottom of the log scale
    violation = [max(row["max_violation"], model.tol / 1e3) for row in model.history_]
    ax_cert.semilogy(np.arange(1, len(violation) + 1), violation, color="C3")
    ax_cert.xaxis.get_major_locator().set_params(integer=True)
    ax_cert.axhline(model.tol, color="k", linestyle=":", linewidth=1)
    ax_cert.set_xlabel("pricing step")
axes[1, 0].set_ylabel("largest violation")
fig.suptitle("ColumnGenerationClassifier: columns x masters on two moons")
plt.show()
