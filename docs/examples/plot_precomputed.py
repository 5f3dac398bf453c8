"""
Precomputed Gram matrices
=========================

The MKL estimators also take the kernels as Gram matrices, as MKLpy users pass them: a list of :math:`(n, n)`
training kernels to ``fit``, and a list of :math:`(n_\\text{test}, n)` kernels between the test and the training
points to ``predict``. The fit is the same as from the kernel functions; this example checks it on the wine
data (class 0 against the rest) and shows the Gram matrices, rows ordered by class.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from functools import partial

from sklearn.datasets import load_wine
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

import mkbench

X, target = load_wine(return_X_y=True)
y = (target == 0).astype(int)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.4, stratify=y, random_state=0)
scaler = StandardScaler().fit(X_train)
X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)


def grams(A, B):
    return [rbf_kernel(A, B, gamma=0.01), rbf_kernel(A, B, gamma=0.1), polynomial_kernel(A, B, degree=2)]


# the same three kernels as functions k(A, B), for the fit from X (inputs as given: scaling=None)
kernels = [partial(rbf_kernel, gamma=0.01), partial(rbf_kernel, gamma=0.1), partial(polynomial_kernel, degree=2)]
precomputed = mkbench.SILPClassifier(kernels="precomputed").fit(grams(X_train, X_train), y_train)
from_x = mkbench.SILPClassifier(kernels, scaling=None).fit(X_train, y_train)

predicted = precomputed.predict(grams(X_test, X_train))
print("weights, precomputed:", np.round(precomputed.weights_, 3))
print("weights, from X:     ", np.round(from_x.weights_, 3))
print(
    "same predictions:", np.array_equal(predicted, from_x.predict(X_test)), " test error:", np.mean(predicted != y_test)
)

# %%
# The three training kernels
# --------------------------
order = np.argsort(-y_train, kind="stable")
fig, axes = plt.subplots(1, 3, figsize=(9, 3.3), layout="constrained")
titles = ["RBF, γ = 0.01", "RBF, γ = 0.1", "polynomial, degree 2"]
for ax, gram, title, weight in zip(axes, grams(X_train, X_train), titles, precomputed.weights_, strict=True):
    ax.imshow(gram[np.ix_(order, order)], cmap="viridis")
    ax.set_title(f"{title}\nweight β = {weight:.2f}", fontsize="medium")
    ax.set_xticks([])
    ax.set_yticks([])
fig.suptitle("Training Gram matrices (class 0 first), as passed to fit")
plt.show()
