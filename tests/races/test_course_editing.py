"""The admin's course editor: the segments as a table, the profile redrawn by htmx, the
engine's checks on save, the "generated" flag cleared by an edit."""

import json

import pytest
from django.urls import reverse

from races.course_generation import stage_courses_generate
from races.models import Stage
from tests.factories import StageFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def generated():
    stage = StageFactory(
        number=7,
        start="Tomblaine",
        finish="La Planche des Belles Filles",
        distance_km=176,
        stage_type="mountain",
        segments=[],
    )
    stage_courses_generate(stages=[stage])
    stage.refresh_from_db()
    return stage


def _post(stage, segments, **changes):
    data = {
        "race": stage.race_id,
        "number": stage.number,
        "date": stage.date.isoformat() if stage.date else "",
        "start": stage.start,
        "finish": stage.finish,
        "distance_km": str(stage.distance_km),
        "stage_type": stage.stage_type,
        "intermediate_sprints_km": json.dumps(stage.intermediate_sprints_km),
        "profile_icon": stage.profile_icon,
        "profile_score": "",
        "vertical_meters": "",
        "segment-TOTAL_FORMS": str(len(segments)),
        "segment-INITIAL_FORMS": "0",
        "segment-MIN_NUM_FORMS": "0",
        "segment-MAX_NUM_FORMS": "1000",
    }
    for index, row in enumerate(segments):
        for field, value in row.items():
            data[f"segment-{index}-{field}"] = value
    data.update(changes)
    return data


def _change_url(stage):
    return reverse("admin:races_stage_change", args=[stage.pk])


def test_the_change_page_shows_the_segments_as_a_table_and_the_profile(admin_client, generated):
    page = admin_client.get(_change_url(generated))
    assert page.status_code == 200
    html = page.content.decode()
    rows = len(generated.segments)
    assert html.count('class="segment-row"') == rows + 3  # and three blank rows to add to
    assert 'name="segment-0-terrain"' in html
    assert 'value="plain" selected' in html
    assert "<svg" in html
    assert "chart-profile" in html
    assert "La Planche des Belles Filles" in html
    assert "This course was generated" in html


def test_the_blank_rows_post_nothing(admin_client, generated):
    html = admin_client.get(_change_url(generated)).content.decode()
    select = f'name="segment-{len(generated.segments)}-terrain"'
    blank = html.split(select)[1].split("</select>")[0]
    assert '<option value="" selected>' in blank


def test_an_edited_course_is_saved_and_no_longer_generated(admin_client, generated):
    segments = [
        {"terrain": "plain", "km": "150", "name": "Tomblaine – La Planche"},
        {"terrain": "col1", "km": "7", "name": "La Planche des Belles Filles"},
        {"terrain": "descent", "km": "4", "name": ""},
        {"terrain": "colhc", "km": "15", "name": "Super Planche"},
        {"terrain": "", "km": "", "name": ""},  # a blank row is left out
    ]
    response = admin_client.post(_change_url(generated), _post(generated, segments))
    assert response.status_code == 302, response.content.decode()[:3000]
    generated.refresh_from_db()
    assert generated.course_generated is False
    assert [(s["terrain"], s["km"], s["name"]) for s in generated.segments] == [
        ("plain", 150.0, "Tomblaine – La Planche"),
        ("col1", 7.0, "La Planche des Belles Filles"),
        ("descent", 4.0, ""),
        ("colhc", 15.0, "Super Planche"),
    ]


def test_saving_the_stage_unchanged_keeps_it_generated(admin_client, generated):
    segments = [
        {"terrain": s["terrain"], "km": str(s["km"]), "name": s["name"]} for s in generated.segments
    ]
    response = admin_client.post(_change_url(generated), _post(generated, segments))
    assert response.status_code == 302
    generated.refresh_from_db()
    assert generated.course_generated is True


def test_a_course_that_does_not_add_up_is_refused_naming_the_stage_and_the_gap(
    admin_client, generated
):
    before = list(generated.segments)
    segments = [{"terrain": "plain", "km": "170", "name": ""}]
    response = admin_client.post(_change_url(generated), _post(generated, segments))
    assert response.status_code == 200
    html = response.content.decode()
    assert (
        "Stage 7 (Tomblaine – La Planche des Belles Filles): the segments add up to 170.0 km "
        "but the stage is 176.0 km: 6.0 km missing."
    ) in html
    generated.refresh_from_db()
    assert generated.segments == before
    assert generated.course_generated is True


def test_a_bad_row_is_named_and_nothing_is_saved(admin_client, generated):
    before = list(generated.segments)
    segments = [
        {"terrain": "plain", "km": "100", "name": ""},
        {"terrain": "col1", "km": "-3", "name": ""},
        {"terrain": "plain", "km": "79", "name": ""},
    ]
    response = admin_client.post(_change_url(generated), _post(generated, segments))
    assert response.status_code == 200
    assert "Row 2, km: Ensure this value is greater than or equal to 0.1." in (
        response.content.decode()
    )
    generated.refresh_from_db()
    assert generated.segments == before


def test_a_course_with_no_segment_is_refused(admin_client, generated):
    response = admin_client.post(_change_url(generated), _post(generated, []))
    assert response.status_code == 200
    assert "The course needs at least one segment." in response.content.decode()
    generated.refresh_from_db()
    assert generated.segments


def test_the_preview_redraws_the_profile_of_the_rows_as_typed(admin_client, generated):
    url = reverse("admin:races_stage_course_preview")
    segments = [
        {"terrain": "plain", "km": "100", "name": ""},
        {"terrain": "colhc", "km": "12", "name": "Col de la Loze"},
    ]
    response = admin_client.post(url, _post(generated, segments, distance_km="120"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<svg" in html
    assert "Col de la Loze" in html
    assert "The segments add up to 112.0 km; the stage is 120.0 km." in html
    assert "8.0 km missing" in html
    assert Stage.objects.get(pk=generated.pk).segments == generated.segments  # nothing saved


def test_the_preview_names_a_bad_row_instead_of_drawing(admin_client, generated):
    url = reverse("admin:races_stage_course_preview")
    response = admin_client.post(url, _post(generated, [{"terrain": "plain", "km": "x"}]))
    html = response.content.decode()
    assert "<svg" not in html
    assert "Row 1, km: Enter a number." in html


def test_the_preview_is_for_staff_only(client, generated):
    url = reverse("admin:races_stage_course_preview")
    response = client.post(url, _post(generated, [{"terrain": "plain", "km": "176"}]))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
