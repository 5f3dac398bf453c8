"""Kernels: kernel functions and composites, the candidate kernel columns, the MKL grid, the ensemble kernels.

A kernel library S = {K_1, ..., K_P} defines the candidate columns of CG-Boost:
the Gram blocks laid side by side, K = [K^1 K^2 ... K^P] (cgboost §3; SSMK eq. 1),
column (p, j) being K_p(., x_j). One module per role:

* :mod:`~mkbench.kernels.functions`: the :class:`Kernel` interface and the
  kernels L, Q, R (sigma = mean squared distance) and weak RBF;
* :mod:`~mkbench.kernels.callables`: :class:`FunctionKernel`, any callable
  k(X, Z) a user brings (scikit-learn's pairwise functions and kernel objects);
* :mod:`~mkbench.kernels.library`: the unit-weight composite :class:`Sum` and
  the library built from names and specs (:func:`make_kernel`, :func:`make_library`);
* :mod:`~mkbench.kernels.columns`: :class:`KernelColumns`, the columns of K and
  their pricing products K^p' w, without ever holding all of K in memory;
* :mod:`~mkbench.kernels.grid`: the SimpleMKL kernel grid of the MKL methods and
  their unit-trace training kernels;
* :mod:`~mkbench.kernels.ensemble`: the stump and perceptron kernels of the
  infinite ensembles (Lin & Li 2008).

The names below are the kernel library's; the grid and the ensemble kernels are
imported from their modules.
"""

from .callables import FunctionKernel
from .columns import KernelColumns
from .functions import RBF, Kernel, Linear, Polynomial, WeakRBF, mean_squared_distance
from .library import Sum, make_kernel, make_library

__all__ = [
    "FunctionKernel",
    "RBF",
    "Kernel",
    "KernelColumns",
    "Linear",
    "Polynomial",
    "Sum",
    "WeakRBF",
    "make_kernel",
    "make_library",
    "mean_squared_distance",
]
