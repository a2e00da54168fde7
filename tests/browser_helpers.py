"""Headless Chromium (Debian's package) driven by Playwright, and the page of a running
``golfsolve serve`` opened in it: the fixtures of the page's tests (tests/serve) and of the
HTML reports' (tests/stats/test_report_html.py). Without chromium or Playwright on a
developer's machine a test that needs them skips and says why; under ``CI=true`` it fails."""

from __future__ import annotations

import os
import re
import shutil
import sys

import pytest
from hostile_helpers import ROOT

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def _need(what: str, ok: bool) -> None:
    if ok:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is missing, and under CI=true the browser test must run (.ci/run installs it)")
    pytest.skip(f"{what} is missing (apt-get install -y chromium; pip install -e '.[test]')")


@pytest.fixture(scope="module")
def page_url():
    _need("chromium (/usr/bin/chromium)", CHROMIUM is not None)
    try:
        import playwright.sync_api  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as e:
        _need(f"the Python package {e.name}", False)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from load_serve import running_server

    with running_server(workers=2) as (url, _):
        yield url


@pytest.fixture(scope="module")
def chromium():
    """Headless Chromium (skipped without it, a failure under CI=true): the page's tests and
    the HTML reports' (tests/stats/test_report_html.py) open their pages in it."""
    _need("chromium (/usr/bin/chromium)", CHROMIUM is not None)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as e:
        _need(f"the Python package {e.name}", False)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def page(page_url, chromium):
    from playwright.sync_api import expect

    pg = chromium.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.goto(page_url + "/")
    expect(pg.locator("#message")).to_have_text(re.compile("Click a free card"))  # its first deal is drawn
    yield pg
    pg.close()
    assert errors == []  # no script error and no failed load, all along
