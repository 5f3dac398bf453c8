"""
CG-Boost: a mixture of kernels against composite kernels
========================================================

CG-Boost (Bi, Zhang, Bennett, KDD 2004) gives every kernel column :math:`K_p(\\cdot, x_j)` of a library its own
coefficient, so each training point can enter the model with the linear, the quadratic or the RBF kernel — a
*mixture*. A *composite* kernel such as ``"L+Q+R"`` is one kernel, the sum, whose columns enter whole. With the
1-norm LP (``penalty="l1"``) both models are sparse; this example compares their accuracy and how many columns
each keeps, on the breast cancer data, and draws the column-generation path of the mixture.
"""

# %%
# Fit the mixture, the composite and each kernel alone
# ----------------------------------------------------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split

import mkbench

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)

libraries = {"L,Q,R (mixture)": "L,Q,R", "L+Q+R (composite)": "L+Q+R", "L": "L", "Q": "Q", "R": "R"}
models = {
    name: mkbench.CGBoostClassifier(kernels, penalty="l1", C=1.0).fit(X_train, y_train)
    for name, kernels in libraries.items()
}
for name, model in models.items():
    print(
        f"{name:18s} test error {1 - model.score(X_test, y_test):.3f}  columns {model.n_columns_by_kernel_}"
        f"  status {model.status_}"
    )

# %%
# Accuracy and size
# -----------------
# The mixture picks, point by point, the kernel that helps, and keeps a model about as small as the best
# single kernel's.
fig, (ax_error, ax_size) = plt.subplots(1, 2, figsize=(9, 3.4), layout="constrained")
names = list(models)
errors = [100 * (1 - models[n].score(X_test, y_test)) for n in names]
ax_error.barh(names, errors, color="0.6")
ax_error.set_xlabel("test error (%)")
ax_error.invert_yaxis()
bottom = np.zeros(len(names))
kinds = (
    ("linear", "C0", "linear"),
    ("quadratic", "C1", "quadratic"),
    ("rbf", "C2", "RBF"),
    ("linear+quadratic+rbf", "0.45", "composite L+Q+R"),
)
for kernel, colour, shown in kinds:
    counts = np.array([models[n].n_columns_by_kernel_.get(kernel, 0) for n in names], dtype=float)
    ax_size.barh(names, counts, left=bottom, color=colour, label=shown)
    bottom += counts
for y, total in enumerate(bottom):
    ax_size.text(total + 0.4, y, f"{total:.0f}", va="center", fontsize="small")
ax_size.set_xlabel("columns in the model")
ax_size.set_yticklabels([])
ax_size.set_xlim(0, bottom.max() * 1.15)
ax_size.invert_yaxis()
fig.legend(
    *ax_size.get_legend_handles_labels(), title="kernel of the column", frameon=False, loc="outside right center"
)
fig.suptitle("CG-Boost, 1-norm LP, breast cancer (70/30 split)")

# %%
# The column-generation path
# --------------------------
# ``history_`` has a row per pricing step: the restricted master's objective falls as columns enter, and the
# largest violation of the dual constraints reaches ``tol``: no column prices in, the model is optimal for
# the full LP over all :math:`3n` columns.
# (A violation at or below 0 is drawn at ``tol`` / 1000, the bottom of the log scale.)
mixture = models["L,Q,R (mixture)"]
history = mixture.history_
steps = [row["n_columns"] for row in history]
fig, (ax, ax2) = plt.subplots(2, 1, figsize=(6, 4.6), sharex=True, layout="constrained")
ax.plot(steps, [row["objective"] for row in history], color="C0")
ax.set_ylabel("restricted LP\nobjective")
ax2.semilogy(steps, [max(row["max_violation"], mixture.tol / 1e3) for row in history], color="C3", marker=".")
ax2.axhline(mixture.tol, color="k", linestyle=":", linewidth=1)
ax2.annotate("tol", (steps[0], mixture.tol), textcoords="offset points", xytext=(2, 3), fontsize="small")
ax2.set_ylabel("largest violation")
ax2.set_xlabel("columns generated")
ax2.xaxis.get_major_locator().set_params(integer=True)
fig.suptitle(f"L,Q,R mixture: columns enter until none prices in (status_ = {mixture.status_!r})")
plt.show()
