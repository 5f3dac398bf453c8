"""What an oracle returns and what the loop needs from it: :class:`Pricing` and the :class:`Oracle` protocol.

An oracle prices the candidate columns not yet in the master with the master's
current duals (its ``pricing_weights``) and proposes the most violating one; the
loop :func:`mkbench.cg.column_generation` adds it, or stops when none violates
its dual constraint by more than ``tol`` (cgboost eq. 6, 10, 12, 14).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import numpy as np

from ..masters import Master, MasterSolution

__all__ = ["Oracle", "Pricing"]


@dataclass(frozen=True)
class Pricing:
    """The outcome of one pricing step.

    Attributes
    ----------
    choice : hashable or None
        The column to add (e.g. ``(kernel, centre)``), None when no priced column
        violates its dual constraint by more than ``tol`` (the master is optimal).
    column : ndarray of shape (n_rows,) or None
        Its values, as the master takes them.
    max_violation : float
        Largest dual violation among the columns priced in this step (-inf if none).
        After a step that scanned every column (always the case when ``choice`` is
        None) it is the optimality certificate: <= tol.
    duality_gap : float
        Gap between the master's primal and dual objectives at the current point,
        when the step scanned every column and the master defines it (cgboost
        Proposition 4.1), else NaN.
    n_priced : int
        Columns whose score was computed in this step: the "kernel columns
        calculated per iteration" of cgboost §5.
    stats : mapping
        Oracle-specific counters added to the history row.
    more : tuple of (choice, column) pairs
        Further violating columns that enter with ``choice``, by decreasing
        violation (multiple pricing; empty for one column per step).
    """

    choice: Hashable | None
    column: np.ndarray | None
    max_violation: float
    duality_gap: float
    n_priced: int
    stats: Mapping[str, Any] = field(default_factory=dict)
    more: tuple[tuple[Hashable, np.ndarray], ...] = ()


#: The kind of column an oracle adds (e.g. ``(kernel, centre)``): each oracle's ``add`` takes its own.
ChoiceT_contra = TypeVar("ChoiceT_contra", bound=Hashable, contravariant=True)


class Oracle(Protocol[ChoiceT_contra]):
    """What :func:`mkbench.cg.column_generation` needs from a pricing oracle, generic in its choices' type."""

    def price(self, solution: MasterSolution, master: Master, tol: float) -> Pricing:
        """Find a column whose dual constraint is violated by more than ``tol``."""

    def add(self, choice: ChoiceT_contra) -> None:
        """Record that ``choice`` entered the master (it is not priced again)."""

    def counts(self) -> Mapping[str, int]:
        """Columns in the master, by kind (e.g. by kernel), for the history."""
