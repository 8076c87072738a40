"""The calendar in Chromium at 1366 and 390 px (issue 30): the organiser adds a race on the
page of the calendar's races, the season page shows the year, an event's page its rounds;
nothing scrolls sideways. Screenshots under /tmp/shots/cal/."""

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from season.models import Round
from tests.e2e.helpers import WIDTHS, log_in, new_page
from tests.factories import PASSWORD, UserFactory
from tests.season.builders import template_race
from tests.season.test_calendar import three_races

SHOTS = Path("/tmp/shots/cal")


def fits(page, name, errors):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert scroll <= inner, f"{name} at {width} px scrolls sideways ({scroll} > {inner})"
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 900})
    assert not errors, f"{name}: {errors}"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_organiser_adds_a_race_and_the_season_page_shows_the_year(live_server, browser):
    organiser = UserFactory(username="olivia")
    season = three_races(organiser)
    Round.objects.filter(season=season, number__lte=3).update(status=Round.Status.PUBLISHED)
    added = template_race(stages=2)
    errors: list[str] = []
    page = new_page(browser, errors)
    base = live_server.url
    log_in(page, base, "olivia", PASSWORD)

    page.goto(base + f"/seasons/{season.slug}/organise/")
    page.click("nav.tabs a[href$='/organise/races/']")
    page.wait_for_url(re.compile(r".*/organise/races/$"))
    page.select_option("#id_event", f"race-{added.pk}")
    first = timezone.localtime(timezone.now() + timedelta(days=60), season.tz)
    page.fill("#id_first_deadline", first.strftime("%Y-%m-%dT20:00"))
    page.fill("#id_starters", "2")
    page.click("#race-add button[type=submit]")
    page.wait_for_selector("#event-4")
    assert season.events.count() == 4
    assert page.locator("#event-4 tbody tr").count() == 2
    fits(page, "organiser-races", errors)

    page.goto(base + f"/seasons/{season.slug}/")
    year = page.locator("#calendar-year tbody tr")
    assert year.count() == 4
    assert page.locator("#calendar-year .status-done").count() == 1
    fits(page, "season", errors)

    page.click("#calendar-year tbody tr:nth-child(2) a")
    page.wait_for_url(re.compile(r".*/races/2/$"))
    assert "Race 2 of the calendar" in page.locator("#event-heading").inner_text()
    fits(page, "event-2", errors)
