"""Pricing oracles: which column should enter the master next (cgboost eq. 6, 10, 12, 14; §5).

An oracle prices the candidate columns not yet in the master with the master's
current duals and proposes the most violating one; the loop
:func:`mkbench.cg.column_generation` sits above its oracles and uses only the
:class:`Oracle` protocol and the :class:`Pricing` each step returns
(:mod:`~mkbench.oracles.pricing`). One oracle per kind of column:

* :mod:`~mkbench.oracles.kernel_oracle`: :class:`KernelOracle`, the kernel columns
  K_p(., x_j) of a kernel library, by a full or a stratified scan (CG-Boost, SSMK);
* :mod:`~mkbench.oracles.learner_oracle`: :class:`LearnerOracle`, the weak learners
  of a family (CGEns, LPBoost, CGEns-SLS);
* :mod:`~mkbench.oracles.width_search`: :class:`KernelColumnSearch`, RBF and weak
  RBF columns with MARK's 1-D sigma search (§4).
"""

from .kernel_oracle import STRATEGIES, KernelOracle
from .learner_oracle import LearnerOracle
from .pricing import Oracle, Pricing
from .width_search import KernelColumnSearch

__all__ = ["STRATEGIES", "KernelColumnSearch", "KernelOracle", "LearnerOracle", "Oracle", "Pricing"]
