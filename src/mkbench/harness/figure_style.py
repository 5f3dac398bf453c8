"""How the harness's figures read (:mod:`mkbench.harness.figures` draws them): titles, legends, panels, axes.

* a title wraps only between phrases a reader keeps together (never inside ``N' = 50``) and writes powers as
  superscripts (``Q^2`` as ``Q²``, as the axes do);
* a legend names the methods as the papers do (:data:`METHOD_NAMES`), not by the config's ids;
* a figure of one data set has no ``dataset = ...`` panel header: the data set is named in the note under
  the legend instead, which also says what the lines and the bands are (mean and ± 1 standard deviation over
  how many runs);
* a linear axis prints its ticks in a human format (``2``, ``4``, ... with ``×10⁻⁵`` once at its end, not
  ``0.00002``).
"""

from __future__ import annotations

import re
import textwrap

import pandas as pd

#: Legend names of the workflow's methods (config ids), as the papers name them. A grid setting keeps its name
#: with the setting after it ("MARK-L (C = 10)"); an id not listed is shown as it is.
METHOD_NAMES = {
    # MARK (Bennett, Momma, Embrechts, KDD 2002)
    "mark-l": "MARK-L",
    "mark-l-sample50": "MARK-L, N' = 50 sampled centres",
    "mark-l-all": "MARK-L, all centres",
    "mark-s-sample50": "MARK-S, N' = 50 sampled centres",
    "mark-s-all": "MARK-S, all centres",
    "mark-l-rbf": "MARK-L, regular RBF",
    "mark-l-C": "MARK-L",
    "mark-s-nu": "MARK-S",
    "svr": "SVR",
    "krr": "KRR (eq. 8)",
    "krr-sklearn": "KRR (scikit-learn)",
    # SSMK (Bi, Fung, Dundar, Rao, ICDM 2005)
    "ssmk": "SSMK",
    "imk": "IMK",
    "imk-cg": "IMK, column generation",
    "ssmk-full": "SSMK, full LP",
    # CG-Boost Figure 1 (Bi, Zhang, Bennett, KDD 2004)
    "regular": "regular CG",
    "stratified": "stratified CG",
    "regular-C1000": "regular CG, C = 1000",
    "stratified-large-C": "stratified CG, C = 1000",
    # SILP / SimpleMKL
    "silp": "SILP",
    "simplemkl": "SimpleMKL",
    # CGEns (Shen, Liu)
    "cgens": "CGEns",
    "cgens-sls": "CGEns-SLS",
    "adaboost": "AdaBoost",
    "adaboost-ecc": "AdaBoost.ECC",
    "adaboost-mh": "AdaBoost.MH",
    "adaboost-samme": "AdaBoost (SAMME)",
}

_GREEK = {"nu": "ν", "sigma": "σ", "gamma": "γ", "alpha": "α"}
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def method_name(method: str) -> str:
    """The legend name of a method as the figures label it: ``"mark-l-C [C=10.0]"`` -> ``"MARK-L (C = 10)"``;
    CG-Boost's Table 1 kernels ``"cgboost-l2-L+Q"`` -> ``"L+Q"``."""
    base, _, setting = str(method).partition(" [")
    name = METHOD_NAMES.get(base)
    if name is None:
        match = re.fullmatch(r"cgboost-l[12]-(.+)", base)
        name = match.group(1) if match else base
    if setting:
        name += f" ({_setting(setting.rstrip(']'))})"
    return name


def _setting(setting: str) -> str:
    """``"C=10.0, nu=0.5"`` -> ``"C = 10, ν = 0.5"``."""
    parts = []
    for pair in setting.split(", "):
        key, _, value = pair.partition("=")
        try:
            value = f"{float(value):g}"
        except ValueError:
            pass
        parts.append(f"{_GREEK.get(key, key)} = {value}" if _ else pair)
    return ", ".join(parts)


def title_text(title: str, width: int) -> str:
    """The title wrapped to ``width`` characters a line, each line of it apart; a phrase ``a = b`` (and ``vs``'s
    neighbours) never split; ``^2`` written ``²``."""
    title = re.sub(r"\^(-?\d+)", lambda m: m.group(1).translate(_SUPERSCRIPT), title)
    lines = []
    for line in title.splitlines():
        kept = re.sub(r"(\S+) = (\S+)", lambda m: f"{m.group(1)}\u00a0=\u00a0{m.group(2)}", line)
        lines.append(textwrap.fill(kept, width, break_on_hyphens=False, break_long_words=False))
    return "\n".join(lines)


def runs_note(data: pd.DataFrame, band: str = "± 1 standard deviation over the runs") -> str:
    """What a line is: the mean over how many runs (seeds x splits), and what its ``band`` is ("" for none)."""
    keys = [c for c in ("seed", "split") if c in data]
    if not keys or "method" not in data:
        return ""
    counts = data.groupby("method")[keys].apply(lambda g: len(g.drop_duplicates()))
    if counts.empty:
        return ""
    low, high = int(counts.min()), int(counts.max())
    if high <= 1:
        return "one run per line"
    runs = f"{low}" if low == high else f"{low}-{high}"
    return f"lines: mean of {runs} runs" + (f"; bands: {band}" if band else "")


def facets(grid, datasets: list[str]) -> str:
    """Panel headers: the data set's name alone, or none where the figure has one data set (then returned, for
    the note under the legend)."""
    if len(datasets) > 1:
        grid.set_titles("{col_name}")
        return ""
    grid.set_titles("")
    return f"data: {datasets[0]}" if datasets else ""


def human_axes(grid) -> None:
    """Linear y axes with plain tick labels and, for very small or large values, one ×10ⁿ at the axis' end."""
    from matplotlib.ticker import ScalarFormatter

    for ax in grid.axes.flat:
        if ax.get_yscale() == "linear":
            formatter = ScalarFormatter(useMathText=True)
            formatter.set_powerlimits((-3, 4))
            ax.yaxis.set_major_formatter(formatter)


def note_below(figure, legend, text: str) -> None:
    """Small text under the legend (or under the panels where there is none), wrapped to the figure's width
    (about 13 characters an inch at the small size) so that it never widens the figure."""
    if not text:
        return
    text = textwrap.fill(text, max(50, int(figure.get_figwidth() * 13)), break_long_words=False)
    figure.canvas.draw()
    inverse = figure.transFigure.inverted()
    if legend is not None:
        box = legend.get_window_extent()
        y = inverse.transform((0, box.y0))[1]
    else:
        y = min(inverse.transform((0, ax.get_tightbbox().y0))[1] for ax in figure.axes)
    figure.text(0.5, y - 0.01, text, ha="center", va="top", fontsize="small", color="0.3")
