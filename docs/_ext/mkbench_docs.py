"""Small Sphinx directives of the mkbench site, so that pages quote the code instead of copying it.

``mkbench-defaults``: the table of an estimator's parameters, each with its default (from the signature) and
the first sentence of its description (from the numpydoc docstring). The user guide's pages use it, so a
changed default is never stale there::

    ```{mkbench-defaults} mkbench.CGBoostClassifier
    ```

``mkbench-command``: the output of a command of the repository, run at build time (``mkbench cost``)::

    ```{mkbench-command} mkbench cost --config config/config.yaml
    ```
"""

from __future__ import annotations

import importlib
import inspect
import re
import shlex
import subprocess
import sys
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]


def _resolve(dotted: str):
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _first_sentence(lines: list[str]) -> str:
    """The description's first sentence: up to the first full stop that ends a sentence (followed by a capital or
    the end) outside parentheses, so that "(eq. 3)" does not end it."""
    text = " ".join(line.strip() for line in lines).strip()
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch in "([{") - (ch in ")]}")
        if ch == "." and depth <= 0:
            rest = text[i + 1 :]
            if not rest or (rest[0] == " " and rest.lstrip()[:1].isupper()):
                return text[: i + 1]
    return text if text.endswith(".") or not text else text + "."


def parameter_rows(dotted: str) -> list[tuple[str, str, str]]:
    """(name, default, first sentence of its description) for every parameter of the estimator's ``__init__``."""
    from numpydoc.docscrape import ClassDoc

    cls = _resolve(dotted)
    described = {}
    for param in ClassDoc(cls, config={"show_class_members": False})["Parameters"]:
        for name in param.name.split(","):
            described[name.strip()] = _first_sentence(param.desc) if param.desc else ""
    rows = []
    for name, param in inspect.signature(cls.__init__).parameters.items():
        if name == "self" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        default = "required" if param.default is param.empty else repr(param.default)
        rows.append((name, default, described.get(name, "")))
    return rows


class DefaultsDirective(SphinxDirective):
    """A list-table of the estimator's parameters and defaults."""

    required_arguments = 1
    has_content = False

    def run(self):
        dotted = self.arguments[0]
        rows = parameter_rows(dotted)
        if self.env.doc2path(self.env.docname).suffix == ".md":  # a MyST page parses Markdown
            text = [
                f"Parameters of {{class}}`{dotted}` and their defaults (from the code):",
                "",
                "| parameter | default | what it sets (first sentence of its docstring) |",
                "|:--|:--|:--|",
            ]
            for name, default, what in rows:
                what = re.sub(r":(\w+):`", r"{\1}`", what).replace("|", "\\|") or " "
                text.append(f"| `{name}` | `{default.replace('|', '/')}` | {what} |")
        else:
            text = [
                f".. list-table:: Parameters of :class:`{dotted}` and their defaults (from the code)",
                "   :header-rows: 1",
                "   :widths: 18 22 60",
                "",
                "   * - parameter",
                "     - default",
                "     - what it sets (first sentence of its docstring)",
            ]
            for name, default, what in rows:
                text += [f"   * - ``{name}``", f"     - ``{default}``", f"     - {what or ' '}"]
        node = nodes.container(classes=["mk-defaults"])
        self.state.nested_parse(StringList(text, source=f"<defaults of {dotted}>"), self.content_offset, node)
        return [node]


class CommandDirective(SphinxDirective):
    """A command of the repository, run from its root at build time, shown with its output."""

    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {"language": str}

    def run(self):
        command = self.arguments[0]
        words = shlex.split(command)
        if words[0] == "mkbench":  # the console script of this environment
            words = [sys.executable, "-m", "mkbench.harness.cli", *words[1:]]
        done = subprocess.run(words, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
        if done.returncode:
            raise self.error(f"{command!r} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
        language = self.options.get("language", "text")
        if language == "markdown":  # a Markdown table printed by the command: parse it as a page would
            return (
                self.parse_text_to_nodes(done.stdout)
                if hasattr(self, "parse_text_to_nodes")
                else self._myst(done.stdout)
            )
        block = nodes.literal_block(done.stdout, done.stdout)
        block["language"] = language
        return [nodes.literal_block(f"$ {command}", f"$ {command}", language="console"), block]

    def _myst(self, text: str):
        node = nodes.container()
        self.state.nested_parse(StringList(text.splitlines()), self.content_offset, node)
        return node.children


#: Methods every scikit-learn estimator inherits for metadata routing: their docstrings refer to scikit-learn's
#: own user guide labels, and they say nothing about mkbench.
_SKLEARN_PLUMBING = re.compile(r"^(set_\w+_request|get_metadata_routing)$")


def skip_member(app, what, name, obj, skip, options):
    """Leave scikit-learn's metadata-routing methods out of the estimators' pages."""
    if _SKLEARN_PLUMBING.match(name):
        return True
    module = getattr(obj, "__module__", None) or ""
    if what == "class" and module.split(".")[0] in ("sklearn", "builtins", "abc", "typing"):
        return True  # inherited from scikit-learn or Python: documented there
    return None


_MD_LINK = re.compile(r"\[([^\]]+)\]\(([^)#\s]+\.md)(#[^)]*)?\)")


def repository_links(app, relative_path, parent_docname, content):
    """In a repository file included into a page (``config/README.md``), a Markdown link to another Markdown file
    of the repository that is no page of the site (``../CHANGELOG.md``) becomes its text: the site has no such
    page to link to, and MyST would warn."""
    source = (
        (Path(app.srcdir) / relative_path).resolve() if not Path(relative_path).is_absolute() else Path(relative_path)
    )

    def replace(match):
        target = (source.parent / match.group(2)).resolve()
        inside = Path(app.srcdir).resolve() in target.parents
        return match.group(0) if inside else match.group(1)

    content[0] = _MD_LINK.sub(replace, content[0])


#: Plain-text notation in docstrings that reST would read as markup: |x| (a substitution), name_ (a link).
_LITERAL = re.compile(r"(``.*?``|`[^`]*`)")
_BARS = re.compile(r"(?<![|\\])\|(?=\S)([^|\n]*?\S)\|(?!\|)")
_TRAILING = re.compile(r"(?<![\w`*\\])([A-Za-z][A-Za-z0-9_]*)_(?=[\s.,;:)\]'\"]|$)")
_HEADING = re.compile(r"^\s*[\w*][\w, *]*\s:\s|^\s*[\w*][\w, *]*\s*$")


def _escape(text: str) -> str:
    parts = _LITERAL.split(text)
    for i in range(0, len(parts), 2):  # outside literals and roles
        parts[i] = _TRAILING.sub(r"\1\\_", _BARS.sub(r"\\|\1\\|", parts[i]))
    return "".join(parts)


def plain_docstring(app, what, name, obj, options, lines):
    """Escape the plain-text notation of the docstrings (absolute values |K'r|, attributes such as n_iter_) that
    reST would read as substitutions and link targets; runs before numpydoc reads the sections. The headings of
    numpydoc's sections and parameters (``name : type``) are left as they are."""
    in_literal_block = in_doctest = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if in_literal_block and stripped and not line.startswith((" ", "\t")):
            in_literal_block = False
        in_doctest = stripped.startswith(">>>") or (in_doctest and bool(stripped))  # a doctest block: to a blank line
        if stripped.endswith("::"):
            in_literal_block = True
            continue
        if in_literal_block or in_doctest or set(stripped) <= set("-=~"):  # code and its output as written
            continue
        if _HEADING.match(line):  # "name : type": the name as written, the type escaped ("shape (n_iter_,)")
            name, colon, kind = line.partition(" : ")
            lines[i] = name + colon + _escape(kind)
            continue
        lines[i] = _escape(line)


#: The packages of the library's building blocks, each with its section title on the API page.
API_PACKAGES = [
    ("mkbench.kernels", "Kernels"),
    ("mkbench.learners", "Weak learners"),
    ("mkbench.masters", "Restricted masters"),
    ("mkbench.oracles", "Pricing oracles"),
    ("mkbench.cg", "The loop"),
]


def api_blocks() -> str:
    """The API page's sections of the building blocks: per package, its docstring and an autosummary of every
    class and function of its ``__all__`` (its constants are described in its docstring)."""
    lines = []
    for package, title in API_PACKAGES:
        module = importlib.import_module(package)
        heading = f"{title}: :mod:`{package}`"
        lines += [
            heading,
            "-" * len(heading),
            "",
            f".. automodule:: {package}",
            "   :no-members:",
            "   :no-inherited-members:",
            "",
            f".. currentmodule:: {package}",
            "",
            ".. autosummary::",
            "   :toctree: generated",
            "   :nosignatures:",
            "",
        ]
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) or inspect.isfunction(obj):
                lines.append(f"   {name}")
        lines.append("")
    return "\n".join(lines)


def write_api_blocks(app) -> None:
    """Write ``_api_blocks.rst`` (beside api.rst, which includes it, so that its stubs land in ``generated/`` as
    api.rst's do) before autosummary reads it (``autosummary_generate`` lists it)."""
    path = Path(app.srcdir) / "_api_blocks.rst"
    text = api_blocks()
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def setup(app):
    app.connect("builder-inited", write_api_blocks, priority=400)  # before autosummary's stubs (500)
    app.add_directive("mkbench-defaults", DefaultsDirective)
    app.add_directive("mkbench-command", CommandDirective)
    app.connect("autodoc-skip-member", skip_member)
    app.connect("include-read", repository_links)
    app.connect("autodoc-process-docstring", plain_docstring, priority=100)  # before numpydoc (500)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
