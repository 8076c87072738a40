"""The standings across a season of two races, in Chromium (issue 30 item 4): the season page
links them and crowns the winner of the year; the standings page's two tabs, its history
selector, its chart and its CSV link. At 1366 and 390 px, with axe-core on every page."""

import pytest
from django.urls import reverse

from season.cache import season_changed
from season.models import Season, SeasonStanding
from tests.e2e.helpers import check_widths, new_page
from tests.season.test_season_standings import _resolve_all, _two_race_season


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_season_standings_of_two_races(live_server, browser, screenshot, alice, bob):
    season = _two_race_season(alice, alice, bob)
    Season.objects.filter(pk=season.pk).update(auto_publish=True)
    _resolve_all(season)
    season_changed(Season.objects.get(pk=season.pk))
    first = SeasonStanding.objects.filter(season=season, round=4, table="players").first()
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(live_server.url + reverse("season-detail", args=[season.slug]))
    assert f"{first.name} wins the season" in page.locator(".season-winner").inner_text()
    check_widths(page, "season-standings-season-page", screenshot, errors)

    page.get_by_role("link", name="Season standings").first.click()
    page.wait_for_url("**/season-standings/players/")
    assert page.locator("table.data tbody tr").count() == 2
    assert page.locator("svg.chart-points").count() == 1
    check_widths(page, "season-standings-players", screenshot, errors)

    page.get_by_role("link", name="Riders").click()
    page.wait_for_url("**/season-standings/riders/**")
    page.select_option("select[name=after]", "2")
    page.get_by_role("button", name="Show").click()
    page.wait_for_url("**after=2")
    assert "after round 2" in page.locator("h1").inner_text()
    rows = SeasonStanding.objects.filter(season=season, round=2, table="riders").count()
    assert page.locator("table.data tbody tr").count() == rows
    check_widths(page, "season-standings-riders", screenshot, errors)
