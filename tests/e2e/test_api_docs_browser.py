"""The API's docs page (/api/docs/): Swagger UI from our own static files, under the site's
Content-Security-Policy (added to every answer here as production sends it), lists the
operations, with no console error, at 1366 and 390 px."""

import pytest
from csp.utils import build_policy
from django.conf import settings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _with_policy(route):
    """Every answer of the live server, with the production Content-Security-Policy."""
    response = route.fetch()
    policy = build_policy(config=settings.CONTENT_SECURITY_POLICY["DIRECTIVES"])
    headers = {**response.headers, "content-security-policy": policy}
    route.fulfill(response=response, headers=headers)


@pytest.mark.parametrize("width", [1366, 390])
def test_the_docs_page_lists_the_operations_from_our_static_files(
    live_server, browser, screenshot, width
):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Anything from elsewhere than the live server would mean a CDN: refused, and counted.
    elsewhere: list[str] = []
    page.route(
        lambda url: not url.startswith(live_server.url),
        lambda route: (elsewhere.append(route.request.url), route.abort()),
    )
    page.route(lambda url: url.startswith(live_server.url), _with_policy)
    page.goto(live_server.url + "/api/docs/")
    page.locator(".opblock-summary-path").first.wait_for()
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    paths = [path.replace("\u200b", "") for path in paths]
    assert "/api/seasons/{slug}/rounds/{number}/results/" in paths
    assert len(paths) == 10
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    screenshot(page, f"api-docs-{width}")
    assert errors == []
    assert elsewhere == []
    context.close()


@pytest.mark.parametrize("width", [1366, 390])
def test_a_member_makes_his_token_on_his_page(live_server, browser, screenshot, width):
    from tests.e2e.helpers import log_in
    from tests.factories import PASSWORD, UserFactory

    UserFactory(username="alice")
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    log_in(page, live_server.url, "alice", PASSWORD)
    page.goto(live_server.url + "/accounts/api/")
    page.click("button[value=renew]")
    key = page.locator("#api-token-key").inner_text()
    assert key.startswith("gt_")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    screenshot(page, f"api-token-{width}")
    assert errors == []
    context.close()
