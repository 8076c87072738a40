"""The axe-core gate itself (tests/e2e/axe.py): the vendored file is the pinned release; a page
with a WCAG violation is reported with its rule id and node; a page changed after its load is
checked as it stands when its context closes; a clean page passes."""

import base64
import hashlib

import pytest

from tests.e2e.axe import AXE_VERSION, VENDOR

# axe-core's own integrity hash for this release (sri-history.json of the npm package).
AXE_SHA256 = "KTSJmUUM3yhJqOcLeRL8LahahJ2jnA0NU5T1HUqe2Vw="


def test_the_vendored_axe_core_is_the_pinned_release():
    content = (VENDOR / "axe.min.js").read_bytes()
    assert content.startswith(f"/*! axe v{AXE_VERSION}".encode())
    assert base64.b64encode(hashlib.sha256(content).digest()).decode() == AXE_SHA256


BAD = """<!doctype html><html lang="en"><head><title>Bad</title></head><body><main>
<h1>Orders</h1><select id="role"><option>Leader</option></select>
<p style="color:#bbb;background:#fff">Faint text</p></main></body></html>"""
GOOD = """<!doctype html><html lang="en"><head><title>Good</title></head><body><main>
<h1>Orders</h1><label for="role">Role</label><select id="role"><option>Leader</option></select>
</main></body></html>"""


@pytest.mark.browser
def test_a_violation_is_named_by_rule_and_node_and_a_clean_page_passes(browser):
    log = browser.axe_log
    context = browser.new_context()
    page = context.new_page()
    page.route(
        "http://grandtour.test/**", lambda route: route.fulfill(body=GOOD, content_type="text/html")
    )
    page.goto("http://grandtour.test/good/")
    context.close()  # checks the page one last time
    assert log.checked
    assert log.violations == []

    context = browser.new_context()
    page = context.new_page()
    page.route(
        "http://grandtour.test/**", lambda route: route.fulfill(body=BAD, content_type="text/html")
    )
    page.goto("http://grandtour.test/bad/")
    context.close()
    found = {(v["id"], n["target"]) for _url, v in log.violations for n in v["nodes"]}
    assert found == {("select-name", "#role"), ("color-contrast", "p")}
    text = log.violations_text()
    assert "select-name (critical) on http://grandtour.test/bad/: #role" in text
    log.violations.clear()  # the gate would fail this test otherwise


@pytest.mark.browser
def test_a_page_is_checked_as_it_stands_when_its_context_closes(browser):
    log = browser.axe_log
    context = browser.new_context()
    page = context.new_page()
    page.route(
        "http://grandtour.test/**", lambda route: route.fulfill(body=GOOD, content_type="text/html")
    )
    page.goto("http://grandtour.test/good/")
    page.evaluate("document.querySelector('label').remove()")
    context.close()
    assert [v["id"] for _url, v in log.violations] == ["select-name"]
    log.violations.clear()
