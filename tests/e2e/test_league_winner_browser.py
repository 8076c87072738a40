"""The end of a league whose teams have two riders each, in Chromium (issue 29 item 1): the
season page crowns the league's winner first (a trophy line a screen reader reads), then the
players' podium and best moments, then the riders' podium numbered once; the players' ranking
ranks every player. At 1366 and 390 px, with axe-core on every page (tests/e2e/conftest.py)."""

import pytest
from django.urls import reverse

from season import results
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.helpers import check_widths, new_page
from tests.season.test_player_ranking import _small_teams_demo


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_end_of_a_two_rider_league_names_its_winner(live_server, browser, screenshot):
    season = _small_teams_demo()
    ranking = results.players_ranking(season=season, number=2)
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(live_server.url + reverse("season-detail", args=["demo"]))
    winner = page.locator(".league-winner")
    assert f"{ranking[0].team} wins the league" in winner.inner_text()
    # The riders' podium: each line's place once ("1 Rider", never "1. 1 Rider").
    first = page.locator(".podium").last.locator("li").first
    assert first.evaluate("li => getComputedStyle(li).listStyleType") == "none"
    assert first.inner_text().strip().startswith("1")
    assert page.locator(".players-podium li").count() == 3
    page.locator("#finale").scroll_into_view_if_needed()
    check_widths(page, "league-winner-season", screenshot, errors)
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.locator("#finale").screenshot(
            path=str(ARTIFACTS / f"league-winner-finale-{width}.png")
        )
    page.goto(live_server.url + reverse("season-players", args=["demo"]))
    assert page.locator("table.data tbody tr").count() == len(ranking)
    check_widths(page, "league-winner-players", screenshot, errors)
