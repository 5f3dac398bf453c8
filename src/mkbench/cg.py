"""The generic column-generation loop: price, stop?, add, re-solve warm, record (cgboost §3).

Every boosting method of the package is this loop with its own *master* (the
restricted problem, :mod:`mkbench.masters`) and its own *oracle* (the pricing
problem over the candidate columns, :mod:`mkbench.oracles`)::

    solution = master.solve()
    loop:
        pricing = oracle.price(solution, master.violation, tol)     # eq. 6, 10, 12, 14
        record history (objective, max violation, duality gap, columns, time)
        if pricing.choice is None: optimal (no column violates by more than tol)
        master.add_columns(pricing.column); oracle.add(pricing.choice)  (and pricing.more)
        solution = master.solve()                                   # warm start

Only the oracle knows what a column is (a kernel column K_p(., x_j) here, a weak
learner in CGEns); only the master knows the optimisation problem. What the loop
needs from each is declared beside them: :class:`mkbench.oracles.Oracle` (which
returns a :class:`mkbench.oracles.Pricing`) and :class:`mkbench.masters.Master`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from time import perf_counter
from typing import Any

import numpy as np

from .masters import Master, MasterSolution
from .oracles import Oracle

__all__ = ["CGResult", "column_generation"]

STATUSES = ("optimal", "gap_tol", "max_iter", "time_limit")


@dataclass
class CGResult:
    """What a column-generation run produced.

    Attributes
    ----------
    solution : MasterSolution
        The last restricted master solution; its ``alpha`` follow ``choices``.
    choices : list
        The columns added, in order (the oracle's ``choice`` values).
    status : {"optimal", "gap_tol", "max_iter", "time_limit"}
        Why the loop stopped; only "optimal" certifies the full master's optimum.
    history : list of dict
        One row per iteration t = 0, 1, ... (the state after t pricing steps added
        columns: t columns, with one column per step):
        ``iteration``, ``objective``, ``max_violation``, ``duality_gap``,
        ``n_columns``, the oracle's counts, ``n_priced``, ``master_iterations`` and
        ``master_seconds`` (the solver's work on that restricted master, a re-solve at the
        tight tolerance after an early stop included), ``seconds`` (cumulative), plus
        what the callback returned.
    """

    solution: MasterSolution
    choices: list
    status: str
    history: list[dict[str, Any]]

    @property
    def n_iter(self) -> int:
        """Columns generated (CG iterations that added a column)."""
        return len(self.choices)


def column_generation(
    master: Master,
    oracle: Oracle[Any],
    *,
    tol: float = 1e-6,
    max_iter: int = 1000,
    time_limit: float | None = None,
    gap_tol: float | None = None,
    callback: Callable[[MasterSolution, list], Mapping[str, Any] | None] | None = None,
    verbose: int = 0,
    name: str = "column generation",
) -> CGResult:
    """Solve ``master`` over every column ``oracle`` can price, by column generation.

    Parameters
    ----------
    master : Master
        The restricted master (e.g. :class:`mkbench.masters.LPMaster`), possibly with
        initial columns; it is solved first.
        A master that solves loosely until told otherwise (:meth:`mkbench.masters.LinearSVMCDMaster.tighten`)
        is tightened and priced again when no column prices in, and the loop stops only
        when no column prices in at its tight tolerance; stopped before that (``max_iter``,
        ``time_limit``, ``gap_tol``), it is tightened and solved once more, so the returned
        solution is always solved to the tight tolerance (the last history row then has its
        objective; the other rows keep the loose solves').
    oracle : Oracle
        Prices the columns not in the master (e.g. :class:`mkbench.oracles.KernelOracle`).
    tol : float, default=1e-6
        A column enters only if its dual violation (``master.violation``: score - 1
        for the LPs, score or |score| for the QPs) exceeds ``tol``.
    max_iter : int, default=1000
        Most columns to generate (an oracle proposing several per step is cut to it).
    time_limit : float or None, default=None
        Seconds after which no further column is generated.
    gap_tol : float or None, default=None
        Stop early, with status ``"gap_tol"``, once the duality gap bounds the
        distance to the master's optimum by ``gap_tol`` times the restricted
        objective (Proposition 4.1: the restricted objective exceeds the optimum
        by at most the gap). This is the paper's "terminated earlier" (cgboost §5);
        None runs to optimality.
    callback : callable, optional
        ``callback(solution, choices)`` after each solve; a mapping it returns is
        added to that iteration's history row (e.g. a validation error, cgboost Fig. 1 bottom).
    verbose : int, default=0
        Print one line every ``verbose`` iterations, and one when the loop stops: the
        objective, the largest dual violation, the columns and the seconds. 0: silent.
    name : str, default="column generation"
        What the lines begin with (the estimator's name).

    Returns
    -------
    CGResult

    Raises
    ------
    SolverError
        From the master, when a restricted problem is not solved to optimality.
    """
    if not tol >= 0:
        raise ValueError(f"tol must be >= 0, got {tol!r}")
    if not (isinstance(max_iter, (int, np.integer)) and max_iter >= 0):
        raise ValueError(f"max_iter must be an integer >= 0, got {max_iter!r}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be > 0 seconds or None, got {time_limit!r}")
    if gap_tol is not None and not gap_tol > 0:
        raise ValueError(f"gap_tol must be > 0 or None, got {gap_tol!r}")
    if isinstance(verbose, bool) or not (isinstance(verbose, (int, np.integer)) and verbose >= 0):
        raise ValueError(
            f"verbose must be an integer >= 0 (print every verbose iterations; 0: silent), got {verbose!r}"
        )
    start = perf_counter()
    solution = master.solve()
    choices: list = []
    history: list[dict[str, Any]] = []
    steps = 0  # pricing steps that added columns
    while True:
        pricing = oracle.price(solution, master, tol)
        row = {
            "iteration": steps,
            "objective": solution.objective,
            "max_violation": pricing.max_violation,
            "duality_gap": pricing.duality_gap,
            "n_columns": len(choices),
            **oracle.counts(),
            "n_priced": pricing.n_priced,
            **pricing.stats,
            "master_iterations": solution.iterations,
            "master_seconds": solution.seconds,
            "seconds": perf_counter() - start,
        }
        if callback is not None:
            row.update(callback(solution, choices) or {})
        history.append(row)
        if verbose and row["iteration"] % verbose == 0:
            _report(name, row)
        if pricing.choice is None:
            if getattr(master, "tighten", lambda: False)():
                solution = master.solve()  # it was solved loosely: its optimality is no certificate yet
                continue
            status = "optimal"
            break
        if gap_tol is not None and pricing.duality_gap <= gap_tol * abs(solution.objective):
            status = "gap_tol"
            break
        if len(choices) >= max_iter:
            status = "max_iter"
            break
        if time_limit is not None and perf_counter() - start >= time_limit:
            status = "time_limit"
            break
        assert pricing.column is not None  # a choice comes with its column
        entering = [(pricing.choice, pricing.column), *pricing.more][: max_iter - len(choices)]
        master.add_columns(np.column_stack([column for _, column in entering]))
        for choice, _ in entering:
            oracle.add(choice)
            choices.append(choice)
        steps += 1
        solution = master.solve()
    if status != "optimal" and getattr(master, "tighten", lambda: False)():
        solution = master.solve()  # stopped early: the model is the restricted optimum at the tight tolerance
        history[-1]["objective"] = solution.objective
        history[-1]["master_iterations"] += solution.iterations
        history[-1]["master_seconds"] += solution.seconds
        history[-1]["seconds"] = perf_counter() - start
    if verbose:
        _report(name, history[-1], status)
    return CGResult(solution=solution, choices=choices, status=status, history=history)


def _report(name: str, row: Mapping[str, Any], status: str | None = None) -> None:
    """One progress line: iteration, objective, largest violation, columns, seconds (and why it stopped)."""
    end = f": {status}" if status else ""
    print(
        f"[{name}] iteration {row['iteration']}{end}: objective {row['objective']:.6g}, max violation "
        f"{row['max_violation']:.3g}, {row['n_columns']} columns, {row['seconds']:.1f} s",
        flush=True,
    )
