"""The docstrings' Examples sections run, one pytest case per docstring, and every estimator has one (issue 45).

The examples collected are those of every name of ``mkbench.__all__`` and of every module of
the package (their functions, classes and methods), found by
:class:`doctest.DocTestFinder` and run as doctests with ``NORMALIZE_WHITESPACE | ELLIPSIS``. Each runs in a
namespace of its own (no module globals): an example imports what it uses, as a reader who copies it must.
The case's id is the docstring's qualified name (``mkbench.estimators.cgboost.CGBoostClassifier``).

A second test fails, naming the class, where a public estimator (a class of ``mkbench.__all__`` that is a
scikit-learn estimator) has no Examples section with a ``>>>`` line: the API pages show the section
(numpydoc), and the first test runs it.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
import re

import pytest
from sklearn.base import BaseEstimator

import mkbench
import mkbench.estimators
import mkbench.kernels

OPTIONS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS

#: A numpydoc Examples section of a cleaned docstring: its heading, underline and text, to the next section.
_EXAMPLES = re.compile(r"^Examples\n-{3,}\n(.*?)(?=^\S[^\n]*\n-{3,}\n|\Z)", re.M | re.S)


def _modules() -> list:
    """mkbench and every module under it (private ones, the harness and the peers' adapters too)."""
    return [mkbench] + [
        importlib.import_module(info.name) for info in pkgutil.walk_packages(mkbench.__path__, "mkbench.")
    ]


def _public_names() -> list[tuple[str, object]]:
    return [(name, getattr(mkbench, name)) for name in mkbench.__all__]


def _doctests() -> list[doctest.DocTest]:
    """Every docstring with examples, once each (a class of __all__ is also found in its module)."""
    finder = doctest.DocTestFinder(exclude_empty=True)
    found: dict[str, doctest.DocTest] = {}
    for module in _modules():
        for test in finder.find(module, module.__name__, globs={}):
            found.setdefault(test.name, test)
    for _, obj in _public_names():
        module = inspect.getmodule(obj)
        name = f"{obj.__module__}.{obj.__qualname__}"
        for test in finder.find(obj, name, module=module, globs={}):
            found.setdefault(test.name, test)
    return [found[name] for name in sorted(found) if found[name].examples]


DOCTESTS = _doctests()


@pytest.mark.parametrize("test", DOCTESTS, ids=[test.name for test in DOCTESTS])
def test_docstring_example_runs(test: doctest.DocTest):
    """The docstring's examples run and print what they say."""
    output: list[str] = []
    runner = doctest.DocTestRunner(optionflags=OPTIONS, verbose=False)
    runner.run(test, out=output.append)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {test.name} failed:\n" + "".join(
        output
    )


def test_docstring_examples_are_collected():
    """The collection finds the estimators' examples (a broken finder would pass vacuously)."""
    names = {test.name for test in DOCTESTS}
    assert "mkbench.estimators.cgboost.CGBoostClassifier" in names
    assert "mkbench.kernels.library.make_kernel" in names


ESTIMATORS = [name for name, obj in _public_names() if inspect.isclass(obj) and issubclass(obj, BaseEstimator)]


@pytest.mark.parametrize("name", ESTIMATORS)
def test_every_public_estimator_has_an_examples_section(name: str):
    """Each estimator of mkbench.__all__ has a numpydoc Examples section with a doctest in it (its own docstring,
    not one inherited)."""
    section = _EXAMPLES.search(inspect.cleandoc(getattr(mkbench, name).__doc__ or ""))
    assert section, f"{name} has no Examples section in its docstring (numpydoc: 'Examples', underlined)"
    assert ">>> " in section.group(1), f"{name}'s Examples section has no example ('>>> ' line)"
