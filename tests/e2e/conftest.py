import os
from pathlib import Path

import pytest

from tests.e2e.axe import AxeLog, axe_install
from tests.season.chat_receiver import receiver  # noqa: F401 (the chat channels' test receiver)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


@pytest.fixture
def browser():
    """Chromium; every context it opens (``new_context``, ``new_page``) runs axe-core on every
    page it loads (tests/e2e/axe.py), and the test fails on any violation."""
    # Playwright's sync API runs an event loop in this thread; the ORM calls that the
    # live server and the test make are still synchronous.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS, headless=True
        )
        chromium.axe_log = AxeLog()
        new_context = chromium.new_context

        def new_context_with_axe(*args, **kwargs):
            context = new_context(*args, **kwargs)
            axe_install(context, chromium.axe_log)
            return context

        def new_page_with_axe(*args, **kwargs):
            return new_context_with_axe(*args, **kwargs).new_page()

        chromium.new_context = new_context_with_axe
        chromium.new_page = new_page_with_axe
        yield chromium
        chromium.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """A browser test fails on any axe-core violation of the pages it visited, named by rule id,
    page and node (the pages still open are checked as they stand at the end)."""
    browser = item.funcargs.get("browser")
    log = getattr(browser, "axe_log", None)
    try:
        result = yield
    except BaseException:
        # The test failed on its own: what axe-core found so far goes beside its report.
        if log is not None and (log.violations or log.errors):
            item.add_report_section("call", "axe-core", log.violations_text())
        raise
    if log is not None:
        log.flush_all()
        if log.violations or log.errors:
            pytest.fail("axe-core (WCAG 2.2 A, AA):\n" + log.violations_text(), pytrace=False)
    return result


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.console_errors = []
    page.on(
        "console", lambda msg: page.console_errors.append(msg.text) if msg.type == "error" else None
    )
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    yield page
    context.close()


@pytest.fixture
def screenshot():
    """Saves a page's screenshot as a test artefact: screenshot(page, "name")."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
