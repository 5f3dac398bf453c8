"""What the column-generation loop needs from a restricted master: the :class:`Master` protocol.

Every master of this package (:mod:`mkbench.masters`) offers it; the loop
:func:`mkbench.cg.column_generation` and the oracles (:mod:`mkbench.oracles`)
use nothing else.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ._solution import MasterSolution

__all__ = ["Master"]


class Master(Protocol):
    """A restricted master problem of column generation, over the columns added so far.

    Notes
    -----
    ``tighten() -> bool`` is optional. A master that solves loosely until told
    otherwise (:meth:`mkbench.masters.LinearSVMCDMaster.tighten`) solves
    to its tight tolerance from then on and returns True if its solves were
    looser until then; the loop then re-solves it and prices again before it
    declares the optimum, or once more when it stops early. A master without it is always solved tightly: the loop
    reads it with ``getattr``, so it is not a member of the protocol.

    :meth:`duality_gap` is asked for by the kernel-column oracles
    (:class:`mkbench.oracles.KernelOracle`, :class:`mkbench.oracles.KernelColumnSearch`).
    :class:`mkbench.oracles.LearnerOracle` computes the gap from its family's
    scores and never asks, and :class:`mkbench.masters.simplex_ls.SimplexLSMaster`,
    priced only by it, does not define it.
    """

    def solve(self) -> MasterSolution:
        """Solve the restricted master over its columns (warm-started where the solver allows).

        Raises
        ------
        SolverError
            When the restricted problem is not solved to optimality.
        """

    def add_columns(self, K: np.ndarray) -> None:
        """Append candidate columns K, shape (n_rows, k) or (n_rows,), to the master."""

    def violation(self, scores: np.ndarray) -> np.ndarray:
        """Dual violation of candidate columns with pricing ``scores`` (K' w); > 0 means the column would enter."""

    def duality_gap(self, scores: np.ndarray) -> float:
        """Gap between the primal and dual objectives given the scores of every column not in the master, or NaN."""
