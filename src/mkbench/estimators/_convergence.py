"""The warning every iterative estimator gives when its fit stops before the optimum."""

from __future__ import annotations

import warnings

from sklearn.exceptions import ConvergenceWarning

__all__ = ["warn_unless_optimal"]


def warn_unless_optimal(
    estimator: object,
    status: str,
    count: int,
    unit: str,
    measure: str,
    remedy: str,
    *,
    accepted: tuple[str, ...] = ("optimal",),
    stacklevel: int = 2,
) -> None:
    """Warn (ConvergenceWarning) that ``estimator`` stopped with ``status`` unless that status is ``accepted``.

    The message reads "<Estimator> stopped (<status>) after <count> <unit> with <measure>; <remedy>".

    Parameters
    ----------
    estimator : object
        The estimator being fitted (its class names it).
    status : str
        Why the loop stopped (``status_``).
    count : int
        Iterations, columns or learners made.
    unit : str
        What ``count`` counts.
    measure : str
        How far from the optimum, e.g. "a dual violation of 0.3 > tol=1e-06".
    remedy : str
        Which parameters to raise.
    accepted : tuple of str, default=("optimal",)
        Statuses that need no warning (e.g. the gap tolerance the user asked for).
    stacklevel : int, default=2
        As for :func:`warnings.warn`, counted from the caller of this function.
    """
    if status in accepted:
        return
    warnings.warn(
        f"{type(estimator).__name__} stopped ({status}) after {count} {unit} with {measure}; {remedy}",
        ConvergenceWarning,
        stacklevel=stacklevel + 1,
    )
