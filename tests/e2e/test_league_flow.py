"""A whole week of a league in Chromium: an organiser sets up a season, two players join, pick
their riders and give orders; the organiser resolves the stage; the players read the results."""

import pytest

from races.models import StageResult
from season.demo import demo_load
from season.models import SeasonTeam
from tests.e2e.helpers import (
    cheap_riders,
    logged_in_pages,
    season_create,
    stage_publish,
    team_join,
)

ROSTER = 4


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_league_week_from_creation_to_results(live_server, browser, screenshot):
    demo_load()
    base = live_server.url
    errors = []
    pages = logged_in_pages(browser, base, ("olivia", "alice", "bob"), errors)
    olivia, alice, bob = pages["olivia"], pages["alice"], pages["bob"]

    # The organiser creates a season from the real Tour, teams picked within a budget.
    season = season_create(
        olivia,
        base,
        name="Browser League",
        slug="browser-league",
        roster=ROSTER,
        screenshot=screenshot,
        peloton="players",  # the players' riders only: the results are theirs
    )
    assert f"/join/{season.invite_code}/" in olivia.content()
    screenshot(olivia, "organiser-dashboard")

    # Two players follow the invitation and pick their riders.
    taken = []
    for name, page in (("Alice Racing", alice), ("Bob Wheelers", bob)):
        riders = cheap_riders(ROSTER, exclude=taken)
        taken += [r.pk for r in riders]
        team_join(page, base, season, name=name, riders=riders)
        assert page.locator("#roster tbody tr").count() == ROSTER, name
    screenshot(alice, "player-team")

    # The organiser opens the first stage's orders.
    olivia.goto(base + "/seasons/browser-league/stages/1/")
    olivia.click("text=Open orders")
    olivia.wait_for_load_state()
    assert "Open for orders" in olivia.content()

    # Each player gives orders: the cheapest rider leads, the others ride for him.
    for name, page in (("Alice Racing", alice), ("Bob Wheelers", bob)):
        team = SeasonTeam.objects.get(season=season, name=name)
        page.goto(base + f"/seasons/browser-league/teams/{team.pk}/orders/")
        assert "Orders close in" in page.content()
        members = list(team.seats.order_by("number", "pk"))
        for index, member in enumerate(members):
            role = "gc_leader" if index == 0 else "domestique"
            page.select_option(f"#id_{member.rider_id}-role", role)
        page.click("text=Save my orders")
        page.wait_for_load_state()
        assert "Last saved" in page.content(), name
    screenshot(bob, "player-orders")

    # The organiser resolves the stage now; the job finishes.
    olivia.goto(base + "/seasons/browser-league/stages/1/")
    olivia.click("text=Resolve now")
    olivia.click("button:has-text('Resolve stage 1 now')")  # the confirmation (issue 17)
    olivia.wait_for_load_state()
    olivia.wait_for_selector("table.data tbody tr", timeout=30000)
    assert "Resolved" in olivia.content()

    # Until the organiser publishes them, the results are his alone (issue 17).
    alice.goto(base + "/seasons/browser-league/stages/1/")
    assert alice.locator("table.data tbody tr").count() == 0
    assert "not published yet" in alice.content()
    stage_publish(olivia, base, "browser-league", 1)

    # The players see the results and the general classification.
    alice.goto(base + "/seasons/browser-league/stages/1/")
    results = alice.locator("table.data").first.locator("tbody tr")  # then the GC top 10
    assert results.count() == 2 * ROSTER
    assert "Alice Racing" in alice.content()
    screenshot(alice, "stage-results")
    bob.goto(base + "/seasons/browser-league/standings/general/")
    # Riders drawn by the abandon roll or cut for time leave the GC: the seed is drawn fresh.
    still_racing = StageResult.objects.filter(stage__race=season.event, status="finished").count()
    assert bob.locator("table.data tbody tr").count() == still_racing
    assert "Bob Wheelers" in bob.content()
    screenshot(bob, "general-classification")

    # Stage 2 opened by itself; once the organiser locks it, the orders form says why it is shut.
    team = SeasonTeam.objects.get(season=season, name="Alice Racing")
    orders_url = base + f"/seasons/browser-league/teams/{team.pk}/orders/"
    alice.goto(orders_url)
    assert "Orders close in" in alice.content()
    olivia.goto(base + "/seasons/browser-league/stages/2/")
    olivia.click("text=Lock orders")
    olivia.wait_for_load_state()
    alice.goto(orders_url)
    assert alice.locator("#closed").count() == 1
    screenshot(alice, "player-orders-closed")

    assert errors == []
