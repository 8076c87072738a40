"""The admin's road from real results to a fair league, in Chromium (issue 31, "Done when" 1):
results of the Tour de France 2022 uploaded, previewed and confirmed; the queue shows each
rider's suggested ratings; approve all; the start list of a second race (the 2023 Tour) imported
alone, then its stages; the race says how many riders wait for a review; a season created on it
as an organiser; its teams (the players' and the computer's) hold the whole start list.
Screenshots of the queue at 1366 and 390 px."""

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from races.models import Race, RaceEntry
from riders.models import Rider, rider_not_reviewed_q
from season.models import Season, SeasonTeam, Seat
from tests.e2e.helpers import admin_log_in, log_in
from tests.factories import UserFactory
from tests.season.builders import distinct_team_picks

DATA = Path(__file__).resolve().parents[1] / "data"
WIDTHS = {"desktop": 1366, "phone": 390}
ROSTER = 4


def _shots(page, screenshot, name):
    for label, width in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": 900})
        path = screenshot(page, f"ratings-review-{name}-{label}")
        # The first screen as the admin sees it (the whole page is 50 rows long).
        page.screenshot(path=str(path.with_name(f"{path.stem}-top.png")))
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})


def _upload(page, base, paths):
    page.goto(base + "/admin/races/race/import-results/")
    page.set_input_files("input[type=file]", [str(p) for p in paths])
    page.click("input[value='Check the files']")
    page.wait_for_load_state()
    assert "Preview:" in page.content()
    page.click("input[name=confirm]")
    page.wait_for_url(re.compile(r".*/admin/races/race/$"))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_admin_reviews_imported_ratings_and_a_league_fields_a_start_list_imported_alone(
    live_server, page, screenshot
):
    from season import formation
    from season.leagues import season_join

    base = live_server.url
    ada = UserFactory(username="ada", is_staff=True, is_superuser=True)
    ada.set_password("ada-secret")
    ada.save()
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})
    admin_log_in(page, base, "ada", "ada-secret")

    # The results of the 2022 Tour: preview, confirm; the import suggests, the ratings stay 0.
    _upload(page, base, sorted((DATA / "tdf2022").glob("*.csv")))
    assert "Suggested ratings for 176 rider(s)" in page.content()
    assert not any(any(r.ratings.values()) for r in Rider.objects.all())
    page.click("text=Review them")
    page.wait_for_url(re.compile(r".*/admin/riders/ratingreview/$"))
    assert "Approve all 176 riders of this list" in page.content()
    _shots(page, screenshot, "queue")
    # The winner's row: his ratings (0), the suggestion, the result behind it.
    page.fill("#searchbar", "Vingegaard")
    page.press("#searchbar", "Enter")
    page.wait_for_load_state()
    vingegaard = page.locator("#result_list tr", has_text="Jonas Vingegaard")
    assert "GC 1st of 133, tour-de-france-2022" in vingegaard.inner_text()
    assert vingegaard.locator("td.review-differs").count() >= 4
    _shots(page, screenshot, "queue-one-rider")

    # Approve all of the list (unfiltered).
    page.goto(base + "/admin/riders/ratingreview/")
    page.click("#review-approve-all button")
    page.wait_for_load_state()
    assert "Approved 176 rider(s)" in page.content()
    assert not Rider.objects.filter(rider_not_reviewed_q()).exists()
    assert Rider.objects.get(name="Jonas Vingegaard").climber == 4

    # The second race: its start list alone (no stage yet), then its stages.
    _upload(page, base, [DATA / "tdf2023" / "riders.csv"])
    tour2023 = Race.objects.get(slug="tour-de-france-2023")
    assert RaceEntry.objects.filter(race=tour2023).count() == 176
    assert not tour2023.stages.exists()
    _upload(page, base, [DATA / "tdf2023" / "stages.csv"])
    assert tour2023.stages.count() == 21
    # Its newcomers wait for a review: the race list says how many and links to them.
    waiting = RaceEntry.objects.filter(race=tour2023).filter(rider_not_reviewed_q("rider__"))
    count = waiting.count()
    assert 0 < count < 176
    link = page.locator(f"a[href$='/admin/riders/ratingreview/?race={tour2023.pk}']")
    assert link.inner_text().startswith(f"{count} riders not reviewed")
    link.click()
    page.wait_for_load_state()
    assert f"Approve all {count} riders of this list" in page.content()
    _shots(page, screenshot, "queue-of-a-race")

    # The organiser picks it: the choice says how many riders an admin must review.
    log_in(page, base, "ada", "ada-secret")
    page.goto(base + "/my/new-season/")
    option = page.locator(f"#id_event option[value='race-{tour2023.pk}']")
    assert option.inner_text() == f"{tour2023} ({count} riders not reviewed)"
    page.fill("#id_name", "Tour 2023 League")
    page.fill("#id_slug", "tour-2023")
    page.select_option("#id_event", f"race-{tour2023.pk}")
    page.select_option("#id_formation_mode", "budget")
    page.fill("#id_roster_size", str(ROSTER))
    first_deadline = timezone.localdate() + timedelta(days=7)
    page.fill("#id_first_deadline", f"{first_deadline.isoformat()}T20:00")
    page.click("form[action='/my/new-season/'] button[type=submit]")
    page.wait_for_url(base + "/seasons/tour-2023/organise/")
    notes = page.locator("#formation-notes").inner_text()
    assert f"{count} riders of the start list have ratings no admin has reviewed" in notes
    season = Season.objects.get(slug="tour-2023")

    # Two players' teams (formed through the services: the browser's part is the admin's and
    # the organiser's), then stage 1 opens: the computer teams take the rest.
    bea = UserFactory(username="bea")
    for user in (ada, bea):
        team = season_join(season=season, user=user, team_name=f"{user.username} team")
        taken = set(Seat.objects.filter(season=season).values_list("rider_id", flat=True))
        picks = distinct_team_picks(season, ROSTER, taken=taken)
        formation.team_select(team=team, pickable_ids=picks)
    page.goto(base + "/seasons/tour-2023/stages/1/")
    page.click("text=Open orders")
    page.wait_for_load_state()
    start_list = set(RaceEntry.objects.filter(race=tour2023).values_list("rider_id", flat=True))
    seats = Seat.objects.filter(season=season)
    assert set(seats.values_list("rider_id", flat=True)) == start_list
    assert seats.filter(team__owner__isnull=False).count() == 2 * ROSTER
    assert SeasonTeam.objects.filter(season=season, owner__isnull=True).count() == 22
    assert page.console_errors == []
