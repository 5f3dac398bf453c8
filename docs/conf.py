"""Sphinx configuration of the mkbench documentation site.

Build (from the repository root, after ``pip install -e '.[docs]'``)::

    sphinx-build -W --keep-going -b html docs docs/_build/html

The gallery (``docs/examples/plot_*.py``) is executed on every build; ``-D plot_gallery=0`` skips it
for a quick look at the text. The reproduction pages (``docs/reproduction/<paper>.md``) are generated
at build time from the committed results by ``docs/_ext/reproduction_pages.py``.

Intersphinx works offline: the inventories of Python, SciPy and scikit-learn are shipped in
``docs/_inventories`` (taken from Debian's ``python3.11-doc``, ``python-scipy-doc`` and
``python-sklearn-doc``; see its README). NumPy publishes no inventory that a package registry ships, so
links to NumPy need the network: ``MKBENCH_DOCS_INTERSPHINX=online`` fetches every inventory from the
projects' sites (NumPy's included), ``=off`` turns intersphinx off. Offline, references to ``numpy.*``
are left as plain text instead of failing the build.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))

import mkbench  # noqa: E402

project = "mkbench"
author = "the mkbench authors"
copyright = "mkbench authors, BSD-3-Clause"  # noqa: A001
release = version = mkbench.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # MathJax copied into _static: the pages render their equations with no network
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
    "sphinx_design",
    "sphinx_gallery.gen_gallery",
    "reproduction_pages",  # docs/_ext: the paper pages from the committed results
    "mkbench_docs",  # docs/_ext: parameter tables from the code, command output at build time
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = [
    "_build",
    "_inventories",
    "_api_blocks.rst",
    "examples/README.rst",
    "**/README.md",
    "Thumbs.db",
    ".DS_Store",
]
templates_path = ["_templates"]
html_static_path = ["_static"]
html_css_files = ["mkbench.css"]

# -- warnings: every broken cross-reference fails the build (-W) ------------------------------------------------
nitpicky = True
# Targets no page documents on purpose: private helpers and the harness's internals that docstrings of the
# public API mention by name, and the placeholders numpydoc reads as types.
nitpick_ignore_regex = [
    (r"py:.*", r".*\._.*"),  # private modules and names (mkbench.estimators._mkl, _stump_search, ...)
    (r"py:.*", r"mkbench\.harness(\..*)?"),  # the benchmark harness: the workflow's, not the library's API
    (r"py:.*", r"mkbench\.estimators\..*"),  # implementation modules; every estimator is documented as mkbench.X
    # the implementation modules under the documented packages (mkbench.kernels.grid, mkbench.masters.simplex_ls):
    # their public names are documented at the package's level
    (r"py:.*", r"mkbench\.(kernels|learners|masters|oracles)\.[a-z_]+(\..*)?"),
    (r"py:.*", r"(array-like|ndarray|sparse matrix|callable|optional|default|of shape.*)"),
    # bare names of the library's internals quoted in docstrings (``:class:`KernelOracle```): written relative to
    # their module, which Sphinx cannot resolve from the estimator pages
    (r"py:(class|func|meth|attr|data|obj|mod)", r"[A-Za-z_][A-Za-z0-9_]*"),
    (r"py:(class|func|meth|attr|data|obj|mod)", r"\.[A-Za-z_][A-Za-z0-9_.]*"),
]

# -- intersphinx -----------------------------------------------------------------------------------------------
INTERSPHINX = os.environ.get("MKBENCH_DOCS_INTERSPHINX", "local")
if INTERSPHINX not in ("local", "online", "off"):
    raise ValueError(f"MKBENCH_DOCS_INTERSPHINX={INTERSPHINX!r}: give local (default), online or off")
_SITES = {
    "python": "https://docs.python.org/3/",
    "numpy": "https://numpy.org/doc/stable/",
    "scipy": "https://docs.scipy.org/doc/scipy/",
    "sklearn": "https://scikit-learn.org/stable/",
}
if INTERSPHINX == "online":
    intersphinx_mapping = {name: (url, None) for name, url in _SITES.items()}
elif INTERSPHINX == "local":
    intersphinx_mapping = {
        name: (url, str(DOCS / "_inventories" / f"{name}.inv"))
        for name, url in _SITES.items()
        if (DOCS / "_inventories" / f"{name}.inv").exists()
    }
else:
    intersphinx_mapping = {}
if "numpy" not in intersphinx_mapping:
    nitpick_ignore_regex.append((r"py:.*", r"numpy(\..*)?"))
if "sklearn" not in intersphinx_mapping:
    nitpick_ignore_regex.append((r"py:.*", r"sklearn(\..*)?"))
intersphinx_disabled_reftypes = ["std:doc"]
intersphinx_timeout = 10

# -- autodoc, autosummary, numpydoc ----------------------------------------------------------------------------
autosummary_generate = ["api.rst", "_api_blocks.rst"]  # the second is written at build time
autosummary_imported_members = True
# members inherited from the library's own mixins (predict, decision_function, predict_proba) are shown; those of
# scikit-learn's base classes (get_params, set_output, ...) are skipped in _ext/mkbench_docs.py
autodoc_default_options = {"members": True, "inherited-members": True}
autodoc_typehints = "none"  # numpydoc's Parameters sections give the types
autodoc_member_order = "groupwise"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

# -- MyST -------------------------------------------------------------------------------------------------------
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist", "attrs_inline"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]  # the included BENCHMARKS.md starts its headings at its own level

# -- sphinx-gallery ---------------------------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "within_subsection_order": "FileNameSortKey",
    "download_all_examples": False,
    "remove_config_comments": True,
    "doc_module": ("mkbench",),
    "reference_url": {"mkbench": None},
    "backreferences_dir": "gen_modules/backreferences",
    "show_memory": False,
    "abort_on_example_error": False,  # -W turns an example's failure into a failed build, with every failure listed
    "only_warn_on_example_error": False,
    "image_scrapers": ("matplotlib",),
    "matplotlib_animations": False,
    "min_reported_time": 1,
}

# -- HTML -------------------------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"mkbench {release}"
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "secondary_sidebar_items": ["page-toc"],  # the paper pages remove it (their front matter): tables need the width
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
    "header_links_before_dropdown": 8,
}
html_sidebars = {"index": [], "getting_started": []}
html_context = {"default_mode": "light"}
html_show_sourcelink = False
html_favicon = "_static/favicon.svg"
