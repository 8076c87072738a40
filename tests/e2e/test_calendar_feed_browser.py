"""The member's calendar feed in Chromium (issue 34): "My seasons" shows the address of his
feed, which a calendar app can read; "Renew the address" asks, then gives a new address and the
old one stops working. At 1366 and 390 px, no sideways scroll, no console error; screenshots
under test-artifacts/screenshots/ (calendar-feed-*)."""

import re

import icalendar
import pytest

from tests.e2e.helpers import check_widths, close_ups, log_in, new_page
from tests.factories import PASSWORD, UserFactory
from tests.season.builders import joined, league


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_member_reads_his_feeds_address_and_renews_it(live_server, browser, screenshot, settings):
    settings.SITE_URL = live_server.url
    alice = UserFactory(username="alice")
    season = league(organiser=UserFactory(username="olivia"))
    joined(season, alice)
    errors: list[str] = []
    page = new_page(browser, errors)
    base = live_server.url
    log_in(page, base, "alice", PASSWORD)

    page.goto(base + "/my/")
    address = page.input_value("#calendar-link")
    assert re.fullmatch(rf"{re.escape(base)}/calendar/[\w-]+\.ics", address), address
    webcal = page.get_attribute("#calendar a[href^='webcal://']", "href")
    assert webcal == "webcal://" + address.split("://", 1)[1]
    feed = page.request.get(address)
    assert feed.ok
    assert feed.headers["content-type"] == "text/calendar; charset=utf-8"
    summaries = [
        str(e["SUMMARY"]) for e in icalendar.Calendar.from_ical(feed.body()).walk("VEVENT")
    ]
    assert len(summaries) == season.rounds.count()
    page.click("#calendar button[data-copy]")
    check_widths(page, "calendar-feed-my-seasons", screenshot, errors)
    close_ups(page, "calendar-feed-my-seasons", screenshot, ["#calendar"])

    page.click("#calendar a[href$='/my/calendar/renew/']")
    page.wait_for_url(re.compile(r".*/my/calendar/renew/$"))
    assert "stops working" in page.inner_text("main")
    check_widths(page, "calendar-feed-renew", screenshot, errors)
    page.click("form.actions button[type=submit]")
    page.wait_for_url(re.compile(r".*/my/#calendar$"))
    renewed = page.input_value("#calendar-link")
    assert renewed != address
    assert "new address" in page.inner_text("main")
    assert page.request.get(address).status == 404
    assert page.request.get(renewed).ok
    check_widths(page, "calendar-feed-renewed", screenshot, errors)

    page.goto(base + f"/seasons/{season.slug}/")
    link = page.locator("#season-calendar a[href^='webcal://']")
    assert link.get_attribute("href").endswith(f"/seasons/{season.slug}/calendar.ics")
    check_widths(page, "calendar-feed-season", screenshot, errors)
