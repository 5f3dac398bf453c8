"""The documentation site (docs/): its reproduction pages agree with results/REPRODUCTION.md, the docstrings'
Examples run, and the built site works in a real browser.

* The reproduction pages and REPRODUCTION.md are two renderings of one computation
  (``docs/_ext/reproduction_pages.py`` runs :func:`mkbench.harness.reproduction.build_reproduction`); the test
  checks that the committed REPRODUCTION.md says what the pages say: the same verdict for every claim, the same
  status and largest gap for every item, the same values compared. It needs no Sphinx.
* Every docstring example of the library runs as a doctest (``doctest`` on each module of ``mkbench``): part of
  the README's test command, so it needs no docs extra either.
* The browser test opens the built site (``sphinx-build -b html docs docs/_build/html``) in headless Chromium
  (Debian's ``chromium`` and ``chromium-driver``, driven by selenium from the docs extra), served on 127.0.0.1:
  the home page, an API page and a paper page load without console errors, every image loads, the paper page's
  tables have rows; a screenshot of each is saved under ``docs/_build/screenshots``. It is skipped, with the
  reason, where the docs extra, Chromium or the built site is missing, unless ``MKBENCH_DOCS_REQUIRED=1``
  (``.ci/run`` sets it), which turns the skip into a failure.
"""

from __future__ import annotations

import functools
import http.server
import importlib
import importlib.util
import os
import re
import shutil
import sys
import threading
from pathlib import Path

import pytest

import mkbench

from ..conftest import ROOT

DOCS = ROOT / "docs"
HTML = Path(os.environ.get("MKBENCH_DOCS_HTML", DOCS / "_build" / "html"))
SCREENSHOTS = DOCS / "_build" / "screenshots"
REQUIRED = os.environ.get("MKBENCH_DOCS_REQUIRED") == "1"


def _skip(reason: str):
    """Skip with ``reason``, or fail where the docs test must run (CI's docs step)."""
    if REQUIRED:
        pytest.fail(f"MKBENCH_DOCS_REQUIRED=1 but {reason}")
    pytest.skip(reason)


def _pages_module():
    spec = importlib.util.spec_from_file_location("reproduction_pages", DOCS / "_ext" / "reproduction_pages.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("reproduction_pages", module)
    spec.loader.exec_module(module)
    return module


@functools.cache
def _reproduction():
    pages = _pages_module()
    return pages, pages.collect(ROOT)


# -- the reproduction pages against REPRODUCTION.md ---------------------------------------------------------------


def _cells(line: str) -> list[str]:
    """The cells of a Markdown table row, with REPRODUCTION.md's escaped pipes restored."""
    parts = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return [part.strip().replace("\\|", "|") for part in parts]


def _committed_report() -> tuple[dict[str, str], dict[tuple[str, str], tuple[str, str]]]:
    """From results/REPRODUCTION.md: each claim's verdict, and each (paper, item)'s status and largest gap."""
    text = (ROOT / "results" / "REPRODUCTION.md").read_text(encoding="utf-8")
    verdicts = {}
    for match in re.finditer(r"^\| \[([^\]]+)\]\(#[^)]*\) \|.*?\| \*\*(\w+)\*\* \|", text, flags=re.M):
        verdicts[match.group(1)] = match.group(2)
    items = {}
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        paper = section.split(":", 1)[0].strip()
        rows = [line for line in section.splitlines() if line.startswith("|")]
        if not rows or _cells(rows[0])[:3] != ["item", "shows", "status"]:
            continue
        for line in rows[2:]:
            cells = _cells(line)
            items[(paper, cells[0])] = (cells[2], cells[3])
    return verdicts, items


def test_reproduction_pages_agree_with_reproduction_md():
    """Every claim's verdict and every item's status and largest gap, as the pages have them, are those of the
    committed REPRODUCTION.md; a stale REPRODUCTION.md (results or catalogues changed since) fails here."""
    pages, rep = _reproduction()
    facts = pages.facts(rep)
    verdicts, items = _committed_report()
    hint = "; regenerate: mkbench report --config config/config.yaml --reproduction results/REPRODUCTION.md"
    assert verdicts == facts["verdicts"], "claims' verdicts differ" + hint
    ours = {key: (status.replace("\n", " "), gap.replace("\n", " ")) for key, (status, gap) in facts["items"].items()}
    assert items == ours, "items' statuses or gaps differ" + hint
    text = (ROOT / "results" / "REPRODUCTION.md").read_text(encoding="utf-8")
    for entry, assessment in zip(rep.entries, rep.assessments, strict=True):  # the compared values themselves
        if assessment.by_metric:
            assert f"- Largest gap per metric: {assessment.by_metric}." in text, (entry.paper, entry.item) + (hint,)


def test_each_paper_page_shows_its_verdicts_tables_and_figures(tmp_path):
    """The generated pages: one per paper with its written verdict, every claim with its verdict badge, every
    item with its status badge, an HTML table with a row per compared (data set, method) and each figure."""
    pages, rep = _reproduction()
    written = {path.name for path in pages.write_pages(tmp_path, rep)}
    assert written == {"index.md", "methodology.md", *(f"{paper}.md" for paper in rep.papers)}
    for paper, info in rep.papers.items():
        text = (tmp_path / f"{paper}.md").read_text(encoding="utf-8")
        assert pages._md_text(info["verdict"].strip()) in text
        for claim, verdict in rep.paper_claims(paper):
            assert f"[{claim.id}](#{paper}-claim-" in text
            assert f"### {claim.id}\n\n{pages.verdict_badge(verdict.verdict)}" in text
        for entry, assessment in rep.rows(paper):
            assert pages.status_badge(assessment.status) in text
            for name in entry.figures:
                assert f"results/figures/{name}.png" in text
            for gap in assessment.gaps:  # every compared value is a cell of the item's table, outside tolerance marked
                assert f"<td>{gap.dataset}</td><td>{gap.method}</td>" in text
            if any(g.excess > 1 for g in assessment.gaps):
                assert "mk-out" in text


# -- the API pages (the docstrings' examples run in tests/test_docstring_examples.py) ------------------------------


def test_every_estimator_of_all_has_an_api_page():
    """docs/api.rst lists every name of mkbench.__all__ (autosummary writes a page for each)."""
    listed = set(re.findall(r"^   (\w+)$", (DOCS / "api.rst").read_text(encoding="utf-8"), flags=re.M))
    assert set(mkbench.__all__) <= listed, sorted(set(mkbench.__all__) - listed)


# -- the built site in a real browser ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site():
    """The built site served on 127.0.0.1 (a free port), for as long as the module's tests run."""
    if not (HTML / "index.html").exists():
        _skip(f"no built site at {HTML}: sphinx-build -W --keep-going -b html docs docs/_build/html")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # no line per request in the test's output
            pass

    handler = functools.partial(Quiet, directory=str(HTML))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium through chromedriver (both from Debian), its console log kept."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _skip("selenium is not installed: pip install -e '.[docs]'")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        _skip("chromium and chromedriver are not installed: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        "--hide-scrollbars",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def _open(driver, url: str, shot: str) -> list[dict]:
    """Load ``url``, wait until every image has loaded or failed, save a screenshot of the whole page (up to 8000
    pixels) as ``shot``; return the console's SEVERE entries."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get_log("browser")  # drop what came before
    driver.set_window_size(1280, 900)
    driver.get(url)
    WebDriverWait(driver, 30).until(lambda d: d.execute_script("return document.readyState") == "complete")
    driver.execute_script("document.querySelectorAll('img[loading=lazy]').forEach(i => i.loading = 'eager')")
    WebDriverWait(driver, 30).until(
        lambda d: d.execute_script("return Array.from(document.images).every(i => i.complete)")
    )
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1280, min(max(height, 900), 8000))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / shot))
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def _broken_images(driver) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"
    )


PAGES = [
    ("index.html", "home.png"),
    ("generated/mkbench.CGBoostClassifier.html", "api-cgboostclassifier.png"),
    ("reproduction/mkl.html", "reproduction-mkl.png"),
    ("reproduction/mark.html", "reproduction-mark.png"),
]


@pytest.mark.parametrize(("page", "shot"), PAGES, ids=[p for p, _ in PAGES])
def test_page_loads_without_console_errors_and_every_image_loads(site, browser, page, shot):
    severe = _open(browser, f"{site}/{page}", shot)
    assert severe == [], f"console errors on {page}: {severe}"
    assert _broken_images(browser) == [], f"images that did not load on {page}"
    assert browser.find_elements("css selector", "h1"), f"{page} has no title"


def _catalogued_figures(paper: str) -> int:
    """How many figures config/reproduction.yaml lists under the paper's items (each is shown on its page)."""
    from mkbench.harness.catalogue import load_catalogue
    from mkbench.harness.config import load_config

    config = load_config(ROOT / "config" / "config.yaml")
    _, entries = load_catalogue(ROOT / "config" / "reproduction.yaml", config, root=ROOT)
    return sum(len(entry.figures) for entry in entries if entry.paper == paper)


def test_paper_page_tables_have_their_rows(site, browser):
    """The MARK page: its items' tables (ours beside the paper's) and its claims table have rows, its figures are
    shown, and the compared cells outside tolerance are marked."""
    from selenium.webdriver.common.by import By

    _open(browser, f"{site}/reproduction/mark.html", "reproduction-mark.png")
    tables = browser.find_elements(By.CSS_SELECTOR, "table.mk-repro")
    assert tables, "no reproduction table on the MARK page"
    for table in tables:
        assert table.find_elements(By.CSS_SELECTOR, "tbody tr"), f"empty table {table.get_attribute('data-table')}"
    browser.execute_script("arguments[0].scrollIntoView()", tables[0])
    tables[0].screenshot(str(SCREENSHOTS / "reproduction-mark-table.png"))
    assert browser.find_elements(By.CSS_SELECTOR, "td.mk-compared")
    assert browser.find_elements(By.CSS_SELECTOR, "td.mk-out")
    claims = [
        t
        for t in browser.find_elements(By.CSS_SELECTOR, "table")
        if "verdict" in " ".join(h.text for h in t.find_elements(By.CSS_SELECTOR, "thead th"))
    ]
    assert claims and len(claims[0].find_elements(By.CSS_SELECTOR, "tbody tr")) >= 10
    figures = browser.find_elements(By.CSS_SELECTOR, "figure img")
    assert len(figures) >= _catalogued_figures("mark") and all(f.get_property("naturalWidth") > 0 for f in figures)


def test_the_docstrings_notation_is_escaped_for_rest_but_never_inside_code():
    """|K'r| and n_iter_ in prose are escaped for reST; a doctest's code and its output lines are left as written."""
    if importlib.util.find_spec("sphinx") is None:
        _skip("the docs extension imports Sphinx, and the docs extra is not installed")
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from mkbench_docs import plain_docstring
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    lines = ["Prose with n_iter_ and |K'r|.", "", ">>> model.n_iter_", "... # more", "|x| n_iter_", "", "Then n_iter_."]
    plain_docstring(None, "class", "name", None, {}, lines)
    assert lines == [
        "Prose with n_iter\\_ and \\|K'r\\|.",
        "",
        ">>> model.n_iter_",
        "... # more",
        "|x| n_iter_",
        "",
        "Then n_iter\\_.",
    ]
