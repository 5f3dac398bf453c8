"""Pricing over kernel columns: which kernel column should enter the master next (cgboost eq. 6, 10, 12, 14; §5).

:class:`KernelOracle` prices the candidate columns not yet in the master with the
master's current duals and proposes the most violating one (see :mod:`mkbench.cg`).
It prices the kernel columns K_p(., x_j) of a
:class:`~mkbench.kernels.KernelColumns`, either by a full scan (regular CG) or
by the stratified process of cgboost §5.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..kernels import KernelColumns
from ..masters import MasterSolution
from .pricing import Pricing

__all__ = ["STRATEGIES", "KernelOracle", "check_columns_per_iteration"]

STRATEGIES = ("full", "stratified")


def check_columns_per_iteration(value, rules: tuple[str, ...] = ("sqrt",)) -> int | str:
    """``value`` if it is one of the named ``rules`` or an integer >= 1 (as int); else a ValueError naming them.

    "sqrt" is :class:`KernelOracle`'s rule, ceil(sqrt(m)) columns per step with m in the master.
    """
    if value in rules:
        return value
    if isinstance(value, bool) or not (isinstance(value, (int, np.integer)) and value >= 1):
        names = " or ".join(filter(None, (", ".join(map(repr, rules[:-1])), repr(rules[-1]))))
        raise ValueError(f"columns_per_iteration must be an integer >= 1, {names}, got {value!r}")
    return int(value)


class KernelOracle:
    """Pricing over the columns (p, j) of a kernel library, full scan or stratified.

    Parameters
    ----------
    columns : KernelColumns
        The candidate columns K = [K^1 ... K^P].
    strategy : {"full", "stratified"}, default="full"
        ``"full"``: score every column not in the master and take the largest
        violation (regular CG; eq. 6, 10, 12, 14). ``"stratified"`` (cgboost §5):
        step (i) prices only the columns centred at error points (rows with a
        slack xi_i > 0), step (ii) the remaining centres; within each step the
        kernels are priced one at a time in ``priority`` order, and the first
        kernel with a violating column supplies the column, so the columns of
        later kernels are not even computed in that iteration.
    priority : sequence of int or str, default=None
        Kernel order for the stratified strategy, as indices into
        ``columns.kernels`` or kernel names; None keeps the library order (put the
        cheap, interpretable kernels first: "linear", "quadratic", "rbf").
    error_tol : float, default=1e-8
        Slack above which a row is an error point.
    columns_per_iteration : int or "sqrt", default=1
        Columns proposed per pricing step (multiple pricing): the most violating
        one and the next ``columns_per_iteration - 1`` violating columns of the
        same scan, by decreasing violation. 1 is the papers' algorithm; more
        columns per step mean fewer restricted solves on the way to the same
        optimum. ``"sqrt"``: ceil(sqrt(m)) columns when the master holds m (one
        while it holds at most one), so the steps grow with the model and a
        model of m columns takes about 2 sqrt(m) master solves instead of m.
    stratify_ratio : float, default=0.0
        What the stratified strategy calls an "appropriate" column of a kernel (cgboost §5:
        "if no appropriate linear kernel column can be added, then we consider columns from
        more complicated kernels"). 0: any column violating by more than ``tol`` (the
        default reading). r > 0: kernel p supplies the column only while its largest
        violation exceeds r times its largest violation the first time its columns were
        priced (each kernel measured in its own units, so one r means the same for every
        C and kernel scale); otherwise the next kernel in ``priority`` order is priced.
        When no kernel passes its threshold in any step, the most violating column priced
        (above ``tol``) enters, so the run still ends at the master's optimum: r changes
        the path, not the optimum. Ignored by the full strategy.

    Notes
    -----
    Error points index centres only when the centres are the master's rows
    (CG-Boost, where column j is centred at training point j); otherwise step (i)
    is skipped.
    """

    def __init__(
        self,
        columns: KernelColumns,
        *,
        strategy: str = "full",
        priority: Sequence[int | str] | None = None,
        error_tol: float = 1e-8,
        columns_per_iteration: int | str = 1,
        stratify_ratio: float = 0.0,
    ) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"strategy={strategy!r} is not one of {', '.join(map(repr, STRATEGIES))}")
        self.columns_per_iteration = check_columns_per_iteration(columns_per_iteration)
        self.columns = columns
        self.strategy = strategy
        self.priority = self._order(priority)
        self.error_tol = error_tol
        self.in_master = np.zeros((columns.n_kernels, columns.n_centres), dtype=bool)
        if isinstance(stratify_ratio, bool) or not (
            isinstance(stratify_ratio, (int, float, np.number)) and 0 <= stratify_ratio < 1
        ):
            raise ValueError(f"stratify_ratio must be a number in [0, 1), got {stratify_ratio!r}")
        self.stratify_ratio = float(stratify_ratio)
        self._first_violation: dict[int, float] = {}  # kernel -> its largest violation when first priced

    def _order(self, priority: Sequence[int | str] | None) -> list[int]:
        names = [kernel.name for kernel in self.columns.kernels]
        if priority is None:
            return list(range(len(names)))
        named = [names.index(p) if isinstance(p, str) and p in names else p for p in priority]
        # a name not in the library is no index: it fails the check (sorted with the ints, it raised TypeError)
        order = [int(p) for p in named if not isinstance(p, str)]
        if len(order) != len(named) or sorted(order) != list(range(len(names))):
            raise ValueError(
                f"priority {list(priority)!r} must list each kernel of the library exactly once "
                f"(by index or by name: {', '.join(names)})"
            )
        return order

    def add(self, choice: tuple[int, int]) -> None:
        """Mark column (kernel p, centre j) as in the master."""
        self.in_master[choice] = True

    def counts(self) -> dict[str, int]:
        """Columns in the master per kernel, as ``columns_<kernel name>``."""
        per_kernel = self.in_master.sum(axis=1)
        return {f"columns_{k.name}": int(c) for k, c in zip(self.columns.kernels, per_kernel, strict=True)}

    def price(self, solution: MasterSolution, master, tol: float) -> Pricing:
        """Propose the next column, or None if none violates by more than ``tol``."""
        w = solution.pricing_weights
        computed_before = self.columns.n_computed
        if self.strategy == "full":
            steps = [np.arange(self.columns.n_centres)]
            kernel_groups = [list(range(self.columns.n_kernels))]
        else:
            errors = self._error_centres(solution)
            rest = np.setdiff1d(np.arange(self.columns.n_centres), errors)
            steps = [s for s in (errors, rest) if s.size]
            kernel_groups = [[p] for p in self.priority]
        best = -np.inf
        n_priced, gap = np.zeros(self.columns.n_kernels, dtype=int), 0.0
        priced = []  # (violations, kernel, centres) of every scan of this pricing
        for centres in steps:
            candidates = []  # (violations, kernel, centres) of this step's scans
            for group in kernel_groups:
                for p in group:
                    scores = self.columns.kernel_scores(p, w, centres)
                    n_priced[p] += centres.size
                    fresh = ~self.in_master[p, centres]
                    gap += master.duality_gap(scores[fresh])
                    violation = np.where(fresh, master.violation(scores), -np.inf)
                    best = max(best, float(violation.max()))
                    candidates.append((violation, p, centres))
                    if p not in self._first_violation and np.isfinite(violation.max()):
                        self._first_violation[p] = float(violation.max())
                priced += candidates[-len(group) :]
                if self.stratify_ratio and self.strategy == "stratified":
                    ((violation, p, _),) = candidates[-1:]
                    threshold = self.stratify_ratio * self._first_violation.get(p, 0.0)
                    if float(violation.max()) > max(tol, threshold):
                        choices = self._most_violating([candidates[-1]], tol)
                        return self._pricing(best, choices, n_priced, float("nan"), computed_before)
                elif best > tol:  # the full strategy has scanned everything by now
                    scanned_all = self.strategy == "full"
                    choices = self._most_violating(candidates, tol)
                    return self._pricing(best, choices, n_priced, gap if scanned_all else float("nan"), computed_before)
        if best > tol:  # stratify_ratio: no kernel passed its threshold; every column was priced
            return self._pricing(best, self._most_violating(priced, tol), n_priced, gap, computed_before)
        return self._pricing(best, [], n_priced, gap, computed_before)

    def entering_per_step(self) -> int:
        """Columns the next pricing step proposes at most: ``columns_per_iteration``, or ceil(sqrt(m)) for ``"sqrt"``."""
        if isinstance(self.columns_per_iteration, str):  # "sqrt", the one rule
            return max(1, math.ceil(math.sqrt(int(self.in_master.sum()))))
        return self.columns_per_iteration

    def _most_violating(self, candidates, tol: float) -> list[tuple[int, int]]:
        """The :meth:`entering_per_step` columns (p, j) of ``candidates`` that violate most (> ``tol``), most first."""
        violation = np.concatenate([v for v, _, _ in candidates])
        kernel = np.concatenate([np.full(c.size, p) for _, p, c in candidates])
        centre = np.concatenate([c for _, _, c in candidates])
        order = np.argsort(-violation, kind="stable")[: self.entering_per_step()]
        order = order[violation[order] > tol]
        return [(int(kernel[i]), int(centre[i])) for i in order]

    def _error_centres(self, solution: MasterSolution) -> np.ndarray:
        if self.columns.centres is not self.columns.X:
            return np.zeros(0, dtype=np.intp)
        return solution.error_points(self.error_tol)

    def _pricing(
        self, violation: float, choices: list, n_priced: np.ndarray, gap: float, computed_before: int
    ) -> Pricing:
        columns = [self.columns.column(*choice) for choice in choices]
        per_kernel = {f"priced_{k.name}": int(c) for k, c in zip(self.columns.kernels, n_priced, strict=True)}
        return Pricing(
            choice=choices[0] if choices else None,
            column=columns[0] if columns else None,
            max_violation=violation,
            duality_gap=gap,
            n_priced=int(n_priced.sum()),
            stats={**per_kernel, "n_computed": self.columns.n_computed - computed_before},
            more=tuple(zip(choices[1:], columns[1:], strict=True)),
        )
