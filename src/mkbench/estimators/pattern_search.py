"""The compass search of Momma & Bennett (SDM 2002) in log2 space, on a lattice: :mod:`mkbench.estimators.validation_search`'s.

See :mod:`mkbench.estimators.validation_search` ("Search") for the rule and its defaults.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

Params = dict[str, float]
History = list[tuple[Params, float]]

# The pattern search walks a lattice of spacing _LATTICE in log2(parameter).
_LATTICE = 0.25  # smallest step: a factor 2 ** 0.25 ~ 1.19
_INITIAL_STEP = 8  # lattice units: 2 in log2, a factor 4
_RADIUS = 80  # lattice units: 20 in log2, a factor ~10^6 either side of the start


def _compass(point: tuple[int, ...], step: int) -> Iterator[tuple[int, ...]]:
    """The 2d lattice points ``step`` away from ``point`` along one axis."""
    for axis in range(len(point)):
        for sign in (1, -1):
            moved = list(point)
            moved[axis] += sign * step
            yield tuple(moved)


def _pattern_search(
    evaluate: Callable[[list[Params]], list[float]],
    start: Params,
    max_evals: int,
    min_improvement: float = 0.0,
    min_step: float = _LATTICE,
) -> History:
    """Compass search in log2 space (Momma & Bennett, SDM 2002).

    Parameters
    ----------
    evaluate : callable
        Maps a list of parameter dicts to their validation losses.
    start : dict of str to float
        Positive start value of every searched parameter.
    max_evals : int
        Largest number of distinct points evaluated.
    min_improvement : float, default=0.0
        The search moves to the best poll point only if its loss is below
        (1 - ``min_improvement``) times the current one (a sufficient decrease);
        0 moves on any decrease (the paper's rule).
    min_step : float, default=0.25
        Smallest step, in log2 units: the step starts at 2 (a factor 4) and the
        search stops once halving it takes it below ``min_step`` (the paper's
        0.25: a factor 2^(1/4)).

    Returns
    -------
    list of (dict, float)
        Every evaluated point and its loss, in evaluation order; the start first.
    """

    def params_at(point: tuple[int, ...]) -> Params:
        return {
            name: value * 2.0 ** (_LATTICE * offset) for (name, value), offset in zip(start.items(), point, strict=True)
        }

    best = (0,) * len(start)
    losses = {best: evaluate([params_at(best)])[0]}
    step = _INITIAL_STEP
    while step * _LATTICE >= min_step and len(losses) < max_evals:
        poll = [point for point in _compass(best, step) if point not in losses and max(map(abs, point)) <= _RADIUS][
            : max_evals - len(losses)
        ]
        losses.update(zip(poll, evaluate([params_at(point) for point in poll]), strict=True))
        challenger = min(poll, key=losses.__getitem__, default=best)
        if losses[challenger] < (1.0 - min_improvement) * losses[best]:
            best = challenger
        else:
            step //= 2
    return [(params_at(point), loss) for point, loss in losses.items()]
