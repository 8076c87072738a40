"""The organiser's part of a league on a real race, in Chromium: the admin imports the real
Tour de France 2022 files, looks at a generated course in the course editor and edits a row
(the profile is redrawn), then creates a season on the imported race, opens stage 1 and
resolves it: the whole start list is in the results. Screenshots at 1366 and 390 px."""

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from races.models import Race, RaceEntry, Stage, StageResult
from season.models import Season, SeasonTeam
from tests.e2e.helpers import admin_log_in, log_in
from tests.factories import UserFactory

TDF2022 = Path(__file__).resolve().parents[1] / "data" / "tdf2022"
WIDTHS = {"desktop": 1366, "phone": 390}


def _shots(page, screenshot, name, *, parts=()):
    """The whole page at each width, and close-ups of `parts` (CSS selectors) on the phone."""
    for label, width in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": 900})
        path = screenshot(page, f"real-race-{name}-{label}")
    for index, selector in enumerate(parts):
        page.locator(selector).first.screenshot(
            path=str(path.with_name(f"{path.stem}-{index}.png"))
        )
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_organiser_races_a_real_tour_he_just_imported(live_server, page, screenshot):
    base = live_server.url
    admin = UserFactory(username="ada", is_staff=True, is_superuser=True)
    admin.set_password("ada-secret")
    admin.save()

    # The admin imports the real files: a preview first, then the import.
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})
    admin_log_in(page, base, "ada", "ada-secret")
    page.goto(base + "/admin/races/race/import-results/")
    page.set_input_files("input[type=file]", sorted(str(p) for p in TDF2022.glob("*.csv")))
    page.click("input[value='Check the files']")
    page.wait_for_load_state()
    assert "generated courses" in page.content()
    _shots(page, screenshot, "import-preview")
    page.click("input[name=confirm]")
    page.wait_for_url(re.compile(r".*/admin/races/race/$"))
    race = Race.objects.get(slug="tour-de-france-2022")
    assert RaceEntry.objects.filter(race=race).count() == 176
    assert all(s.course_generated and s.segments for s in race.stages.all())

    # The course editor of a generated mountain stage: editing a row redraws the profile.
    stage = Stage.objects.get(race=race, number=7)
    page.goto(base + f"/admin/races/stage/{stage.pk}/change/")
    assert page.locator("#course-editor tr.segment-row").count() == len(stage.segments) + 3
    assert page.locator("#course-preview svg.chart-profile").count() == 1
    total = page.locator("#course-preview .course-total")
    assert "176.0 km; the stage is 176.0 km" in total.inner_text()
    first_km = float(stage.segments[0]["km"])
    page.fill("#id_segment-0-km", f"{first_km - 10:.1f}")
    page.wait_for_function(
        "document.querySelector('#course-preview').innerText.includes('10.0 km missing')"
    )
    assert "166.0 km; the stage is 176.0 km" in total.inner_text()
    _shots(page, screenshot, "course-editor", parts=["#course-editor tbody", "#course-profile"])
    page.goto(base + f"/admin/races/stage/{stage.pk}/change/")  # leave it unsaved

    # The organiser's season on the imported race.
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", "ada")
    page.fill("#id_password", "ada-secret")
    page.click("form[action='/accounts/login/'] button[type=submit]")
    page.wait_for_load_state()
    page.goto(base + "/my/new-season/")
    page.fill("#id_name", "Tour 2022 League")
    page.fill("#id_slug", "tour-2022")
    page.select_option("#id_event", f"race-{race.pk}")
    page.select_option("#id_formation_mode", "budget")
    first_deadline = timezone.localdate() + timedelta(days=7)
    page.fill("#id_first_deadline", f"{first_deadline.isoformat()}T20:00")
    page.click("form[action='/my/new-season/'] button[type=submit]")
    page.wait_for_load_state()
    page.wait_for_url(base + "/seasons/tour-2022/organise/")
    season = Season.objects.get(slug="tour-2022")

    # Stage 1: open, then resolved at once; every rider of the start list is in the results.
    page.goto(base + "/seasons/tour-2022/stages/1/")
    # The profile shown at this width (a phone's drawing of it is hidden on a desktop).
    assert page.locator("svg.chart-profile >> visible=true").count() == 1
    page.click("text=Open orders")
    page.wait_for_load_state()
    assert SeasonTeam.objects.filter(season=season, owner__isnull=True).count() == 22
    page.click("text=Resolve now")
    page.click("button:has-text('Resolve stage 1 now')")  # the confirmation (issue 17)
    page.wait_for_load_state()
    page.wait_for_selector("table.data tbody tr", timeout=60000)
    assert "Resolved" in page.content()
    first = Stage.objects.get(race=season.event, number=1)
    assert StageResult.objects.filter(stage=first).count() == 176
    results = page.locator("table.data").first.locator("tbody tr")  # the GC top 10 follows
    assert results.count() == 50  # the first page of 176
    # Each rider's team by name: the winner's (the dice decide who wins: read it back).
    winner = StageResult.objects.get(stage=first, rank=1)
    winners_team = SeasonTeam.objects.get(pk=winner.entry_team_id).name
    assert winners_team in results.first.inner_text()
    _shots(page, screenshot, "stage-1-resolved", parts=["table.data"])
    page.goto(base + "/seasons/tour-2022/stages/7/")
    assert page.locator("svg.chart-profile >> visible=true").count() == 1
    _shots(page, screenshot, "stage-7-profile")
    assert page.console_errors == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_organiser_races_the_players_riders_only(live_server, page, screenshot):
    from races.importing import import_files_read, results_import
    from races.team_rules import rider_price
    from season import formation
    from season.leagues import season_join

    report = results_import(files=import_files_read(paths=[TDF2022]))
    assert report.ok, report.lines()
    race = Race.objects.get(slug="tour-de-france-2022")
    base = live_server.url
    olivia = UserFactory(username="olivia-small")
    olivia.set_password("olivia-secret")
    olivia.save()
    alice = UserFactory(username="alice-small")

    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})
    log_in(page, base, "olivia-small", "olivia-secret")

    # The organiser chooses a smaller field: the players' riders only.
    page.goto(base + "/my/new-season/")
    page.fill("#id_name", "Small Tour")
    page.fill("#id_slug", "small-tour")
    page.select_option("#id_event", f"race-{race.pk}")
    page.select_option("#id_formation_mode", "budget")
    page.fill("#id_roster_size", "4")
    page.select_option("#id_peloton", "players")
    first_deadline = timezone.localdate() + timedelta(days=7)
    page.fill("#id_first_deadline", f"{first_deadline.isoformat()}T20:00")
    _shots(page, screenshot, "create-small-field", parts=["#id_peloton"])
    page.click("form[action='/my/new-season/'] button[type=submit]")
    page.wait_for_url(base + "/seasons/small-tour/organise/")
    assert "Peloton: the players’ riders only" in page.locator(
        "#formation-notes"
    ).inner_text().replace("'", "’")
    season = Season.objects.get(slug="small-tour")
    assert season.peloton == Season.Peloton.PLAYERS

    # Two teams of four (formed through the services: the browser's part is the organiser's).
    for user in (olivia, alice):
        team = season_join(season=season, user=user, team_name=f"{user.username} team")
        pool = sorted(formation.pool(season=season), key=lambda r: (rider_price(r), r.pk))
        taken = set(season.teams.exclude(pk=team.pk).values_list("seats__rider_id", flat=True))
        picks, real_teams = [], set()
        for rider in pool:
            if rider.pk not in taken and rider.team_id not in real_teams:
                picks.append(rider.pk)
                real_teams.add(rider.team_id)
            if len(picks) == 4:
                break
        formation.team_select(team=team, pickable_ids=picks)

    # Stage 1 opens and resolves with the eight riders alone: no computer team.
    page.goto(base + "/seasons/small-tour/stages/1/")
    page.click("text=Open orders")
    page.wait_for_load_state()
    assert not SeasonTeam.objects.filter(season=season, owner__isnull=True).exists()
    page.click("text=Resolve now")
    page.click("button:has-text('Resolve stage 1 now')")
    page.wait_for_load_state()
    page.wait_for_selector("table.data tbody tr", timeout=60000)
    first = Stage.objects.get(race=season.event, number=1)
    assert StageResult.objects.filter(stage=first).count() == 8
    assert page.locator("table.data").first.locator("tbody tr").count() == 8
    _shots(page, screenshot, "small-field-stage-1", parts=["table.data"])
    page.goto(base + "/seasons/small-tour/organise/")
    _shots(page, screenshot, "small-field-dashboard", parts=["#formation"])
    assert page.console_errors == []
