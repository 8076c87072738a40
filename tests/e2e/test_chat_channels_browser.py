"""The organiser's chat channels page in Chromium (issue 34): he adds a webhook (a local test
receiver), sends it a test message and sees the delivery listed; an address on a private
network is refused with the field named. axe-core checks every page (the conftest's gate);
screenshots at 1366 and 390 px."""

import pytest
from django.urls import reverse

from tests.e2e.helpers import check_widths, log_in, new_page
from tests.factories import UserFactory
from tests.season.builders import joined, league


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_organiser_adds_a_webhook_and_sends_a_test_message(
    live_server, browser, screenshot, receiver, settings
):
    olivia = UserFactory(username="olivia")
    olivia.set_password("olivia-pass")
    olivia.save()
    season = league(organiser=olivia, slug="chat-league")
    joined(season, UserFactory(username="alice"))
    base = live_server.url
    errors: list[str] = []
    page = new_page(browser, errors)
    log_in(page, base, "olivia", "olivia-pass")

    page.goto(base + reverse("organiser-season", args=[season.slug]))
    page.click("nav.tabs >> text=Chat channels")
    page.wait_for_selector("h1:has-text('Chat channels')")
    check_widths(page, "chat-empty", screenshot, errors)

    # A private address, with the guard on (the receiver's setting off for this post): refused.
    settings.CHAT_HOOKS_ALLOW_PRIVATE = False
    page.select_option("#id_kind", "discord")
    page.fill("#id_url", "https://192.168.1.5/api/webhooks/1/token")
    page.click("#chat-add button[type=submit]")
    error = page.locator("#chat-add .error").first.inner_text()
    assert error.startswith("Webhook address:")
    assert "private" in error
    check_widths(page, "chat-refused", screenshot, errors)

    settings.CHAT_HOOKS_ALLOW_PRIVATE = True
    page.fill("#id_url", receiver.url)
    page.check("#id_on_comment")
    page.click("#chat-add button[type=submit]")
    page.wait_for_selector(".chat-hook")
    assert "secret-token" not in page.content()
    assert "…oken" in page.locator(".chat-hook code").inner_text()

    page.click(".chat-hook >> text=Send a test message")
    page.wait_for_selector("#chat-deliveries .delivery-sent")
    [post] = receiver.answered()
    assert post["content"].startswith("Friends' Tour: a test message from Grand Tour")
    row = page.locator("#chat-deliveries tbody tr").first.inner_text()
    assert "Test message" in row
    assert "sent" in row
    check_widths(page, "chat-sent", screenshot, errors)
