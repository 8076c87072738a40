"""A new player reads a motor league in words (issue 29), in Chromium at 1366 and 390 px: the
Grand Prix says its retirements and incidents, the orders form links the rules it cites with
their wording, and the link lands on that rule's line of the rules page."""

import pytest
from django.urls import reverse

from season.models import Round
from tests.e2e.helpers import check_widths, log_in, new_page
from tests.factories import PASSWORD
from tests.season.test_motor_words_pages import CODES, _raced_with_a_retirement


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_motor_league_in_words_in_the_browser(live_server, browser, screenshot, alice, bob):
    season = _raced_with_a_retirement(alice, bob)
    base = live_server.url
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(base + reverse("season-grand-prix", args=[season.slug, 1]))
    text = page.inner_text("main")
    assert "retired (out of fuel, lap 2)" in text
    assert CODES.findall(text) == []
    check_widths(page, "words-grand-prix", screenshot, errors)

    # The next Grand Prix is open for orders: Bob reads the form's help.
    Round.objects.filter(season=season, number=2).update(status=Round.Status.OPEN)
    team = season.teams.get(owner=bob)
    log_in(page, base, "bob", PASSWORD)
    page.goto(base + reverse("player-orders", args=[season.slug, team.pk]))
    link = page.locator("a.rule-ref", has_text="§7.1 The orders of a car").first
    check_widths(page, "words-orders", screenshot, errors)
    link.click()
    page.wait_for_url("**#rule-s7-1")
    target = page.locator(":target")
    assert target.inner_text().strip() == "§7.1"
    assert target.is_visible()
    check_widths(page, "words-rules", screenshot, errors)
