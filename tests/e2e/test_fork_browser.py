"""An organiser forks the Tour de France 2022 after stage 10, in Chromium: the new-season form
refuses a stage whose real state is unknown, naming it, then creates the league after stage 10;
the organiser's page says so, and before stage 11 the season page shows the real jerseys and
the classifications page the real general classification after stage 10 (tests/data/fork).
Screenshots at 1366 and 390 px."""

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from races.importing import import_files_read, results_import
from races.models import Classification, Race, Standing
from season.models import Season
from tests.e2e.helpers import log_in
from tests.factories import UserFactory

FORK = Path(__file__).resolve().parents[1] / "data" / "fork"
WIDTHS = {"desktop": 1366, "phone": 390}


def _shots(page, screenshot, name):
    for label, width in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": 900})
        screenshot(page, f"fork-{name}-{label}")
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_organiser_forks_the_tour_after_stage_10(live_server, page, screenshot):
    report = results_import(files=import_files_read(paths=[FORK]))
    assert report.ok, report.lines()
    race = Race.objects.get(slug="tour-de-france-2022")
    base = live_server.url
    olivia = UserFactory(username="olivia-fork")
    olivia.set_password("olivia-secret")
    olivia.save()
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})
    log_in(page, base, "olivia-fork", "olivia-secret")

    page.goto(base + "/my/new-season/")
    page.fill("#id_name", "After the rest day")
    page.fill("#id_slug", "rest-day")
    page.select_option("#id_event", f"race-{race.pk}")
    page.select_option("#id_formation_mode", "draft")
    page.fill("#id_roster_size", "4")
    first_deadline = timezone.localdate() + timedelta(days=7)
    page.fill("#id_first_deadline", f"{first_deadline.isoformat()}T20:00")
    # Stage 14: no real state after it was imported.
    page.fill("#id_start_after", "14")
    page.click("form[action='/my/new-season/'] button[type=submit]")
    page.wait_for_load_state()
    errors = page.locator("#id_start_after").locator("xpath=..").inner_text()
    assert "no results for stages 11, 12, 13, 14" in errors
    assert "can start after stage: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10" in errors
    _shots(page, screenshot, "create-refused")
    assert not Season.objects.filter(slug="rest-day").exists()

    page.fill("#id_start_after", "10")
    page.fill("#id_first_deadline", f"{first_deadline.isoformat()}T20:00")
    page.click("form[action='/my/new-season/'] button[type=submit]")
    page.wait_for_url(base + "/seasons/rest-day/organise/")
    assert "Starts after stage 10 (the real race's state)." in page.locator(
        "#formation-notes"
    ).inner_text().replace("’", "'")
    _shots(page, screenshot, "organiser")

    # The season page: the real jerseys after stage 10, and its first stage is stage 11.
    page.goto(base + "/seasons/rest-day/")
    assert "Starts after stage 10" in page.locator("#fork").inner_text()
    leader = Standing.objects.select_related("rider").get(
        stage__race=race, stage__number=10, classification=Classification.GENERAL, rank=1
    )
    assert "Jerseys after stage 10" in page.content()
    assert leader.rider.name in page.locator(".jerseys, main").first.inner_text()
    _shots(page, screenshot, "season")

    # The general classification before stage 11: the real one after stage 10.
    page.goto(base + "/seasons/rest-day/standings/general/")
    rows = page.locator("table.data tbody tr")
    real = list(
        Standing.objects.filter(
            stage__race=race, stage__number=10, classification=Classification.GENERAL
        )
        .select_related("rider")
        .order_by("rank")[:5]
    )
    for index, line in enumerate(real):
        assert line.rider.name in rows.nth(index).inner_text()
    assert "after stage 10 of the real race" in page.locator("h1").inner_text()
    _shots(page, screenshot, "gc-before-stage-11")
    assert page.console_errors == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_takes_over_a_real_team_of_the_forked_tour(live_server, page, screenshot):
    from season.leagues import season_join
    from tests.season.builders import league

    report = results_import(files=import_files_read(paths=[FORK]))
    assert report.ok, report.lines()
    race = Race.objects.get(slug="tour-de-france-2022")
    alice = UserFactory(username="alice-fork")
    alice.set_password("alice-secret")
    alice.save()
    season = league(
        organiser=alice,
        template=race,
        slug="take-over",
        roster_size=4,
        max_per_real_team=None,
        formation_mode=Season.FormationMode.REAL_TEAMS,
        options={"start_after": 10},
    )
    team = season_join(season=season, user=alice, team_name="Alice Racing")
    base = live_server.url
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})
    log_in(page, base, "alice-fork", "alice-secret")
    page.goto(base + f"/seasons/take-over/teams/{team.pk}/manage/")
    assert "Take over a real team" in page.locator("#real-teams h2").inner_text()
    _shots(page, screenshot, "take-over")
    page.click("button[aria-label='Take over Jumbo-Visma']")
    page.wait_for_url(base + f"/seasons/take-over/teams/{team.pk}/manage/")
    assert "Your team is ready." in page.content()
    assert team.seats.count() == 4
    assert "Orders for stage 11: Albertville – Col du Granon" in page.content()
    _shots(page, screenshot, "taken-over")
    assert page.console_errors == []
