"""The pre-registered rules that turn a claim's words into a threshold, and the other readings its words allow.

Every claim with a check names its ``rule`` in ``config/claims.yaml``; the check's
``at_least`` / ``at_most`` must be the threshold the rule gives (:func:`rule_problems`),
so no threshold is chosen claim by claim. The rules:

``direction``
    "lower / sparser / faster / rises": a paired difference ``>= 0`` (or ``<= 0``), a ratio
    ``>= 1`` (or ``<= 1``). Other reading: the same comparison as the other statistic (ratio of
    means for a difference, paired difference for a ratio).
``intensifier``
    "much / dramatically / significantly": a ratio of at least 2 (or at most 1/2). Other
    readings: 1.5 and 3.
``{factor: "a / b"}``
    a factor the claim's words state (``"15"``, or two numbers of the paper, ``"3000 / 255"``):
    a ratio of at least ``k / 1.25`` (the 25% tolerance of counts). Other readings: ``k`` itself,
    and any ``alternatives`` whose ``words`` the paper also uses.
``comparable``
    "comparable / on par / small differences": within the tables' tolerance ``t``, a difference in
    ``[-t, t]`` or a ratio in ``[1 / (1 + t), 1 + t]``. Other readings: ``t / 2`` and ``2 t``.
``slightly``
    "slightly / marginally better": a difference in ``[0, t]``. Other readings: ``[0, t / 2]``,
    ``[0, 2 t]``, and "better" alone (``>= 0``).
``trend``
    "generally reduced": Spearman's rho ``<= -0.5`` (steps up allowed). Other reading: ``rho <= 0``.
``{bound: x}``
    a bound the words imply (``"near linear"``: a log-log slope of at most 1.2), with its
    ``alternatives`` and the ``words``.
"""

from __future__ import annotations

import ast
import math
import operator
from typing import Any

#: The rules a claim may name as a string; factor and bound are mappings.
NAMED = ("direction", "intensifier", "comparable", "slightly", "trend")

#: The tolerance a stated factor allows: that of counts in config/reproduction.yaml.
FACTOR_TOLERANCE = 1.25

#: Each rule for the report: the words it reads, the threshold it gives, and the other readings it allows.
RULES = {
    "direction": (
        "lower, sparser, faster, more, rises",
        "paired difference >= 0 (or <= 0), ratio of means >= 1 (or <= 1)",
        "the other statistic: ratio of means for a difference, paired difference for a ratio",
    ),
    "intensifier": ("much, dramatically, significantly", "ratio >= 2 (or <= 1/2)", "1.5x and 3x"),
    "factor": (
        "a factor the words state: '15 times', '255 vs 3000'",
        "ratio >= k / 1.25 (the 25% tolerance of counts); over several data sets, their smallest k",
        "k itself; a factor other words of the paper use for the same claim ('significantly': 2x)",
    ),
    "comparable": (
        "comparable, on par, small differences",
        "within the tables' tolerance t: paired difference in [-t, t], ratio in [1 / (1 + t), 1 + t]",
        "t / 2 and 2 t",
    ),
    "slightly": (
        "slightly, marginally better",
        "paired difference in [0, t]",
        "[0, t / 2], [0, 2 t], and 'better' alone (>= 0)",
    ),
    "trend": (
        "generally reduced",
        "Spearman's rho of the difference's size against the field <= -0.5",
        "rho <= 0 (any fall)",
    ),
    "bound": (
        "a bound the words imply: 'near linear'",
        "the bound (a log-log slope <= 1.2)",
        "the other bounds the words allow (1.1 and 1.3)",
    ),
}

_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def evaluate(expression: str) -> float:
    """The value of an arithmetic ``expression`` of numbers with ``+ - * /`` and brackets (``"3000 / 255"``)."""

    def value(node: ast.AST) -> float:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return float(node.value)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        raise ValueError(f"not arithmetic of numbers: {expression!r}")

    return value(ast.parse(expression.replace("x", "*").replace("×", "*"), mode="eval").body)


def kind(rule: str | dict) -> str:
    """The rule's kind: one of :data:`NAMED`, ``factor`` or ``bound``."""
    return rule if isinstance(rule, str) else ("factor" if "factor" in rule else "bound")


def _spec(rule: str | dict) -> dict[str, Any]:
    """The fields of a ``factor`` or ``bound`` rule (a named rule has none)."""
    return {} if isinstance(rule, str) else rule


def _bounds(check: dict[str, Any]) -> dict[str, float]:
    return {key: check[key] for key in ("at_least", "at_most") if check.get(key) is not None}


def _close(x: float, y: float) -> bool:
    """Equal to the three significant digits a threshold is written with."""
    return math.isclose(x, y, rel_tol=5e-3, abs_tol=1e-9)


def rule_problems(rule: str | dict, check: dict[str, Any]) -> list[str]:
    """What is wrong with ``check``'s threshold under ``rule`` (empty when it is the rule's)."""
    statistic = check.get("statistic", "difference" if "b" in check else "mean")
    bounds = _bounds(check)
    which, spec = kind(rule), _spec(rule)
    one = next(iter(bounds.values())) if len(bounds) == 1 else None
    if which == "direction":
        unit = 1.0 if statistic == "ratio" else 0.0
        if one is None or one != unit:
            return [f"rule direction needs one bound of {unit:g} for statistic {statistic}, not {bounds}"]
    elif which == "intensifier":
        if statistic not in ("ratio", "mean") or bounds not in ({"at_least": 2}, {"at_most": 0.5}):
            return [f"rule intensifier needs a ratio with at_least 2 (or at_most 0.5), not {statistic} {bounds}"]
    elif which == "factor":
        wanted = evaluate(spec["factor"]) / FACTOR_TOLERANCE
        if "at_least" not in bounds or len(bounds) != 1 or not _close(bounds["at_least"], wanted):
            return [
                f"rule factor {spec['factor']} needs at_least {wanted:.3g} (the factor / {FACTOR_TOLERANCE}), "
                f"not {bounds}"
            ]
    elif which == "comparable":
        low, high = bounds.get("at_least"), bounds.get("at_most")
        symmetric = (
            low is not None
            and high is not None
            and (_close(low * high, 1.0) if statistic == "ratio" else _close(-low, high))
        )
        if not symmetric:
            centre = "1" if statistic == "ratio" else "0"
            return [f"rule comparable needs bounds symmetric about {centre}, not {bounds}"]
    elif which == "slightly":
        if bounds.get("at_least") != 0 or not bounds.get("at_most", 0) > 0:
            return [f"rule slightly needs at_least 0 and at_most the tolerance, not {bounds}"]
    elif which == "trend":
        if statistic != "trend" or bounds != {"at_most": -0.5}:
            return [f"rule trend needs statistic trend with at_most -0.5, not {statistic} {bounds}"]
    elif one is None or not _close(one, spec["bound"]):
        return [f"rule bound {spec['bound']} needs that one bound, not {bounds}"]
    return []


def alternatives(rule: str | dict, check: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The other readings the claim's words allow: ``(name, check)`` pairs, each a variant of ``check``."""
    which, spec = kind(rule), _spec(rule)
    bounds = _bounds(check)
    side = next(iter(bounds)) if len(bounds) == 1 else None
    out: list[tuple[str, dict[str, Any]]] = []

    def with_bounds(name: str, **new: float) -> None:
        base = {k: v for k, v in check.items() if k not in ("at_least", "at_most")}
        out.append((name, {**base, **new}))

    # direction, intensifier and bound vary the one bound (side); rule_problems rejects a check without it
    if (
        which == "direction"
        and side is not None
        and "b" in check
        and check.get("statistic", "difference") in ("difference", "ratio")
    ):
        swapped = "difference" if check.get("statistic") == "ratio" else "ratio"
        unit = 1.0 if swapped == "ratio" else 0.0
        what = "ratio of means" if swapped == "ratio" else "paired difference"
        name = f"{what} {'>=' if side == 'at_least' else '<='} {unit:g}"
        out.append(
            (
                name,
                {
                    **{k: v for k, v in check.items() if k not in ("at_least", "at_most")},
                    "statistic": swapped,
                    side: unit,
                },
            )
        )
    elif which == "intensifier" and side is not None:
        for factor in (1.5, 3.0):
            value = factor if side == "at_least" else 1 / factor
            with_bounds(f"{factor:g}x", **{side: value})
    elif which == "factor":
        k = evaluate(spec["factor"])
        with_bounds(f"the stated factor {k:.3g} without tolerance", at_least=k)
        for value in spec.get("alternatives", []):
            with_bounds(f"{value:g}x ({spec['words']})", at_least=value)
    elif which == "comparable":
        ratio = check.get("statistic") == "ratio"
        t = bounds["at_most"] - 1 if ratio else bounds["at_most"]
        for scale, name in ((0.5, "half"), (2.0, "twice")):
            u = t * scale
            if ratio:
                with_bounds(f"{name} the tolerance (ratio within {1 + u:.3g})", at_least=1 / (1 + u), at_most=1 + u)
            else:
                with_bounds(f"{name} the tolerance (±{u:.3g})", at_least=-u, at_most=u)
    elif which == "slightly":
        for scale, name in ((0.5, "half"), (2.0, "twice")):
            with_bounds(
                f"{name} the tolerance (in [0, {bounds['at_most'] * scale:.3g}])",
                at_least=0,
                at_most=bounds["at_most"] * scale,
            )
        with_bounds("better alone (>= 0)", at_least=0)
    elif which == "trend":
        with_bounds("rho <= 0 (any fall)", at_most=0.0)
    elif which == "bound" and side is not None:
        for value in spec["alternatives"]:
            with_bounds(f"{'>=' if side == 'at_least' else '<='} {value:g}", **{side: value})
    return out


def describe(rule: str | dict) -> str:
    """The rule in a few words, for the report."""
    which, spec = kind(rule), _spec(rule)
    if which == "factor":
        k = evaluate(spec["factor"])
        stated = spec["factor"] if spec["factor"].strip() == f"{k:g}" else f"{spec['factor']} = {k:.3g}"
        return f"stated factor {stated}, less 25%"
    if which == "bound":
        return f"bound {spec['bound']:g} ({spec['words']})"
    return which
