"""Riders > Ratings to review in the admin: the queue of an import's suggestions, approve one,
approve all of the filtered list, edit; a race's page and list say how many riders wait."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from races.importing import import_files_read, results_import
from races.models import Race, RaceEntry
from riders.models import RATING_AXES, Rider, rider_not_reviewed_q
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "data"
QUEUE = "admin:riders_ratingreview_changelist"


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(username="ada", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def two_tours(db):
    for paths in ([DATA / "tdf2022"], [DATA / "tdf2023" / "riders.csv"]):
        report = results_import(files=import_files_read(paths=paths))
        assert report.ok, report.lines()
    return Race.objects.get(slug="tour-de-france-2022"), Race.objects.get(
        slug="tour-de-france-2023"
    )


def _row(html: str, name: str) -> str:
    row = html[html.index(f"<strong>{name}</strong>") :]
    return row[: row.index("</tr>\n")]


def test_the_queue_shows_current_and_suggested_ratings_and_the_results_behind(
    admin_client, two_tours
):
    response = admin_client.get(reverse(QUEUE), {"q": "Vingegaard"})
    html = response.content.decode()
    assert response.status_code == 200
    rider = Rider.objects.get(name_key__contains="vingegaard", race_entries__race=two_tours[0])
    row = _row(html, rider.name)
    # Every axis: its current value (0) and the suggestion, a change marked.
    assert row.count('<th scope="col">') == len(RATING_AXES)
    assert 'class="review-differs">4<' in row  # climber 0 -> 4: he won the Tour
    assert "<b>CLI</b> GC 1st of 133, tour-de-france-2022" in row  # the result behind it
    assert reverse("admin:riders_rider_change", args=[rider.pk]) in row  # edit
    assert "results</a>" in row
    assert "standings</a>" in row
    assert f"/admin/riders/ratingreview/{rider.pk}/approve/" in row


def test_the_queue_filtered_to_a_race_lists_its_start_list_only(admin_client, two_tours):
    tour2022, tour2023 = two_tours
    response = admin_client.get(reverse(QUEUE), {"race": tour2023.pk})
    assert response.context["cl"].result_count == 176
    newcomer = Rider.objects.get(name="Jordi Meeus")  # only in the 2023 start list
    shown = admin_client.get(reverse(QUEUE), {"race": tour2023.pk, "q": "Meeus"})
    assert list(shown.context["cl"].result_list) == [newcomer]
    hidden = admin_client.get(reverse(QUEUE), {"race": tour2022.pk, "q": "Meeus"})
    assert list(hidden.context["cl"].result_list) == []
    assert admin_client.get(reverse(QUEUE), {"race": tour2022.pk}).context["cl"].result_count == (
        176
    )


def test_the_queue_page_costs_the_same_queries_for_many_riders(admin_client, two_tours):
    with CaptureQueriesContext(connection) as queries:
        assert admin_client.get(reverse(QUEUE)).status_code == 200
    assert len(queries) < 25


def test_approve_one_makes_the_suggestion_his_ratings_and_takes_him_off_the_queue(
    admin_client, two_tours
):
    rider = Rider.objects.filter(name_key__contains="pogacar").get()
    url = reverse("admin:riders_ratingreview_approve", args=[rider.pk])
    response = admin_client.post(url)
    assert response.status_code == 302
    rider.refresh_from_db()
    assert rider.ratings == {a: int(rider.suggested_ratings[a]) for a in RATING_AXES}
    assert rider.ratings_reviewed_at is not None
    queue = admin_client.get(reverse(QUEUE), {"q": "Pogačar"}).context["cl"]
    assert list(queue.result_list) == []


def test_approve_all_approves_the_filtered_list_only(admin_client, two_tours):
    tour2022, tour2023 = two_tours
    url = reverse("admin:riders_ratingreview_approve_all") + f"?race={tour2022.pk}"
    response = admin_client.post(url, follow=True)
    assert "Approved 176 rider(s)" in response.content.decode()
    in_2022 = Rider.objects.filter(race_entries__race=tour2022)
    assert not in_2022.filter(rider_not_reviewed_q()).exists()
    only_2023 = Rider.objects.filter(race_entries__race=tour2023).exclude(
        race_entries__race=tour2022
    )
    assert only_2023.exists()
    assert only_2023.filter(rider_not_reviewed_q()).count() == only_2023.count()


def test_approve_all_is_a_post(admin_client, two_tours):
    admin_client.get(reverse("admin:riders_ratingreview_approve_all"))
    assert Rider.objects.filter(rider_not_reviewed_q()).count() == Rider.objects.count()


def test_who_may_not_change_riders_may_not_approve(client, two_tours):
    client.force_login(UserFactory(username="eve", is_staff=True))
    rider = Rider.objects.filter(name_key__contains="pogacar").get()
    response = client.post(reverse("admin:riders_ratingreview_approve", args=[rider.pk]))
    assert response.status_code == 403
    rider.refresh_from_db()
    assert rider.ratings_reviewed_at is None


def test_the_race_list_says_how_many_riders_are_not_reviewed_and_links_to_the_queue(
    admin_client, two_tours
):
    tour2022, _tour2023 = two_tours
    riders = list(RaceEntry.objects.filter(race=tour2022).values_list("rider_id", flat=True))
    Rider.objects.filter(pk__in=riders[:4]).update(climber=2)  # rated, not reviewed
    html = admin_client.get(reverse("admin:races_race_changelist")).content.decode()
    link = reverse(QUEUE) + f"?race={tour2022.pk}"
    assert f'<a href="{link}">176 riders not reviewed (172 unrated)</a>' in html
    page = admin_client.get(reverse("admin:races_race_change", args=[tour2022.pk]))
    assert "176 riders not reviewed" in page.content.decode()


def test_the_import_confirmation_points_to_the_queue(admin_client):
    url = reverse("admin:races_race_import_results")
    uploads = [SimpleUploadedFile(p.name, p.read_bytes()) for p in (DATA / "tdf2022").glob("*.csv")]
    preview = admin_client.post(url, {"uploads": uploads})
    response = admin_client.post(
        url, {"stored": preview.context["stored"], "confirm": "1"}, follow=True
    )
    html = response.content.decode()
    assert "Suggested ratings for 176 rider(s)" in html
    assert f'<a href="{reverse(QUEUE)}">Review them</a>' in html
    assert not any(any(r.ratings.values()) for r in Rider.objects.all())


def _form(rider: Rider, **ratings: int) -> dict[str, object]:
    return {
        "name": rider.name,
        "team": rider.team_id,
        "nationality": rider.nationality,
        "birth_date": "",
        "pcs_slug": rider.pcs_slug or "",
        **rider.ratings,
        **ratings,
    }


def test_editing_a_riders_ratings_in_his_form_is_a_review(admin_client, two_tours):
    rider = Rider.objects.filter(name_key__contains="pogacar").get()
    url = reverse("admin:riders_rider_change", args=[rider.pk])
    assert admin_client.post(url, _form(rider, climber=4)).status_code == 302
    rider.refresh_from_db()
    assert rider.climber == 4
    assert rider.ratings_reviewed_at is not None
    # Saving the form without touching a rating reviews nothing.
    other = Rider.objects.filter(rider_not_reviewed_q()).exclude(pk=rider.pk).first()
    url = reverse("admin:riders_rider_change", args=[other.pk])
    assert admin_client.post(url, _form(other)).status_code == 302
    other.refresh_from_db()
    assert other.ratings_reviewed_at is None
