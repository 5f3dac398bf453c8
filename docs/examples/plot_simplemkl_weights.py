"""
SimpleMKL and SILP: the kernel weights
======================================

Multiple kernel learning fits an SVM with the kernel :math:`\\sum_k \\beta_k K_k`, the weights :math:`\\beta` on
the simplex. SimpleMKL (Rakotomamonjy et al., JMLR 2008) descends the SVM's dual objective along its reduced
gradient; SILP (Sonnenburg et al., JMLR 2006) solves the semi-infinite LP by column generation. Here both
weigh RBF kernels of several widths and one kernel per feature group of the breast cancer data (the means,
the standard errors and the "worst" values of the 10 cell measurements).
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

import mkbench

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
scaler = StandardScaler().fit(X_train)
X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)

groups = {"mean": slice(0, 10), "standard error": slice(10, 20), "worst": slice(20, 30)}
kernels, names = [], []
for gamma in (0.003, 0.03, 0.3):
    kernels.append({"name": "rbf", "gamma": gamma})
    names.append(f"RBF γ={gamma:g}, all features")
for group, columns in groups.items():
    kernels.append(lambda A, B, columns=columns: A[:, columns] @ B[:, columns].T)
    names.append(f"linear, {group} features")

models = {
    "SimpleMKL": mkbench.SimpleMKLClassifier(kernels, scaling=None).fit(X_train, y_train),
    "SILP": mkbench.SILPClassifier(kernels, scaling=None).fit(X_train, y_train),
}
for name, model in models.items():
    print(f"{name:9s} test error {1 - model.score(X_test, y_test):.3f}  weights {np.round(model.weights_, 3)}")

# %%
# The weights
# -----------
# Both put their weight on few kernels; the kernels with zero weight are not evaluated at prediction time.
fig, ax = plt.subplots(figsize=(6.4, 3.4), layout="constrained")
positions = np.arange(len(names))
for k, (name, model) in enumerate(models.items()):
    ax.barh(positions + 0.4 * k - 0.2, model.weights_, height=0.4, label=name)
ax.set_yticks(positions, names)
ax.invert_yaxis()
ax.set_xlabel("kernel weight β")
ax.legend(frameon=False, loc="lower right")
ax.set_title("Kernel weights learned on breast cancer")
plt.show()
