"""The admin's track editor (issue 31 item 5): the map, the versions, every broken edit
refused by the rule the engine names (nothing saved), a valid edit a new version."""

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from motor.models import Track
from motor.track_editing import TrackEditor
from motor.track_files import SHIPPED, track_store

MONACO = SHIPPED / "grandprix" / "monaco.yaml"
LACETS = SHIPPED / "ludicitude" / "lacets.yaml"


@pytest.fixture
def admin_client(client, db):
    client.force_login(get_user_model().objects.create_superuser("root", "r@example.org", "pw"))
    return client


@pytest.fixture
def monaco(db) -> Track:
    return track_store(content=MONACO.read_bytes(), file_name=MONACO.name)[0]


@pytest.fixture
def lacets(db) -> Track:
    return track_store(content=LACETS.read_bytes(), file_name=LACETS.name)[0]


def form_data(track: Track, **cells: Any) -> dict[str, Any]:
    """What the change page posts for ``track`` as stored, with ``cells`` (html names such as
    ``corners-0-max_gear``) typed over it."""
    editor = TrackEditor(track=track)
    data: dict[str, Any] = {}
    for form in [editor.main, *(formset.management_form for formset in editor.lists.values())]:
        data.update({f.html_name: f.value() for f in form})
    for formset in editor.lists.values():
        for row in formset.forms:
            data.update({f.html_name: f.value() for f in row if f.value() not in (None, False)})
    data.update(cells)
    return {k: v for k, v in data.items() if v is not None}


def errors_of(response) -> list[str]:
    return re.findall(r"errorlist[^>]*>(.*?)</ul>", response.content.decode(), re.S)


def change(client, track: Track, **cells: Any):
    return client.post(f"/admin/motor/track/{track.pk}/change/", form_data(track, **cells))


def test_the_change_page_draws_the_map_lists_the_versions_and_the_corners(admin_client, monaco):
    page = admin_client.get(f"/admin/motor/track/{monaco.pk}/change/").content.decode()
    assert "<svg" in page
    assert "Sainte-Dévote" in page
    assert "v1" in page
    assert 'name="corners-0-max_gear"' in page
    assert 'value="2"' in page
    assert 'name="track-pit_gate"' in page
    assert "<script>" not in page  # CSP: no inline script


def test_a_staff_member_who_may_only_view_sees_the_map_not_the_editor(client, monaco):
    from django.contrib.auth.models import Permission

    viewer = get_user_model().objects.create_user("vic", "v@example.org", "pw", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_track"))
    client.force_login(viewer)
    page = client.get(f"/admin/motor/track/{monaco.pk}/change/").content.decode()
    assert "<svg" in page
    assert 'name="corners-0-max_gear"' not in page
    assert (
        client.post(f"/admin/motor/track/{monaco.pk}/change/", form_data(monaco)).status_code == 403
    )


def test_a_corner_edit_saves_a_new_version_of_the_same_slug(admin_client, monaco):
    response = change(admin_client, monaco, **{"corners-0-max_gear": "3"})
    assert response.status_code == 302, errors_of(response)
    new = Track.objects.get(slug=monaco.slug, version=2)
    assert new.content["corners"][0]["max_gear"] == 3
    assert new.content["corners"][1:] == monaco.content["corners"][1:]
    assert new.content["green"] == monaco.content["green"]  # what the forms do not show is kept
    monaco.refresh_from_db()
    assert monaco.content["corners"][0]["max_gear"] == 2  # the old version is untouched
    old_page = admin_client.get(f"/admin/motor/track/{monaco.pk}/change/").content.decode()
    assert "This is version 1; the latest is version 2." in old_page


def test_an_unchanged_save_changes_nothing(admin_client, monaco):
    response = change(admin_client, monaco)
    assert response.status_code == 302
    assert Track.objects.filter(slug=monaco.slug).count() == 1


def test_a_deleted_corner_and_an_added_one(admin_client, monaco):
    count = len(monaco.content["corners"])
    blank = f"corners-{count}"
    response = change(
        admin_client,
        monaco,
        **{
            "corners-3-DELETE": "on",
            f"{blank}-id": "T7",
            f"{blank}-name": "Tunnel",
            f"{blank}-max_gear": "3",
            f"{blank}-marked": "44",
            f"{blank}-zone_from": "43",
            f"{blank}-zone_to": "45",
            f"{blank}-rejoin": "46",
        },
    )
    assert response.status_code == 302, errors_of(response)
    corners = Track.objects.get(slug=monaco.slug, version=2).content["corners"]
    assert [c["id"] for c in corners] == ["T1", "T3", "T5", "T8", "T10", "T12", "T13", "T18", "T7"]


def faults_of(response) -> list[str]:
    assert response.status_code == 200
    page = response.content.decode()
    return re.findall(r"<li>((?:V-?\d|SCHEMA)[^<]*)</li>", page)


@pytest.mark.parametrize(
    ("cells", "rule", "where"),
    [
        # A corner beyond the end of the lane (V2: its zone is not on the track).
        ({"corners-8-marked": "90", "corners-8-zone_to": "91"}, "V2", "T18"),
        # Two corners' zones overlap (V2).
        ({"corners-1-zone_from": "4"}, "V2", "T3"),
        # A racing line through a corner that does not exist (V3).
        ({"racing_lines-0-corner": "T99"}, "V3", "RL-T3"),
        # A racing line on a square past the end of the lane (V1).
        ({"racing_lines-0-squares": "B18 B19 A20 A99"}, "V1", "A99"),
        # The pit gate past the lane's length (V1) and inside a corner's zone (V4).
        ({"track-pit_gate": "80"}, "V1", "pit"),
        ({"track-pit_gate": "66"}, "V4", "pit"),
        # Too many grid slots (V6).
        ({"track-grid_slots": "13"}, "V6", "grid.slots"),
        # A lane shorter than the minimum (V1).
        ({"track-length": "30"}, "V1", "length"),
    ],
)
def test_a_broken_edit_is_refused_by_its_rule_and_nothing_is_saved(
    admin_client, monaco, cells, rule, where
):
    faults = faults_of(change(admin_client, monaco, **cells))
    assert any(f.startswith(rule) and where in f for f in faults), faults
    assert Track.objects.filter(slug=monaco.slug).count() == 1


def test_every_fault_is_listed_and_placed_next_to_its_row(admin_client, monaco):
    response = change(
        admin_client,
        monaco,
        **{"track-grid_slots": "13", "corners-2-zone_from": "20", "racing_lines-1-corner": "X"},
    )
    page = response.content.decode()
    faults = faults_of(response)
    assert {re.split(r"[ ,]", f)[0] for f in faults} >= {"V2", "V3", "V6"}
    # The corner's fault sits in the row under the corner (the third row of the table).
    corners = page[page.index('id="track-corners"') : page.index('id="track-racing_lines"')]
    assert "row-errors" in corners
    assert "T5" in corners
    assert "Not saved" in page


def test_a_form_error_is_named_by_its_row(admin_client, monaco):
    page = change(admin_client, monaco, **{"corners-2-max_gear": "two"}).content.decode()
    assert "corners 3 Max gear: Enter a whole number." in page
    assert Track.objects.filter(slug=monaco.slug).count() == 1


@pytest.mark.parametrize(
    ("cells", "rule"),
    [
        ({"cards-3-tokens": "MAX9"}, "SCHEMA card 3"),  # no such token
        ({"cards-3-DELETE": "on"}, "V-1"),  # 23 cards
        ({"cards-3-tokens": "START"}, "V-1 card 3"),  # START only at 0
        ({"cards-3-tokens": "MIN4 MAX2"}, "V-3 card 3"),  # min above max
        ({"cards-3-tokens": "MAX1", "cards-4-tokens": "MIN5"}, "V-2 card 4"),  # no overlap
    ],
)
def test_a_broken_ludicitude_edit_is_refused_by_its_rule(admin_client, lacets, cells, rule):
    faults = faults_of(change(admin_client, lacets, **cells))
    assert any(f.startswith(rule) for f in faults), faults
    assert Track.objects.filter(slug=lacets.slug).count() == 1


def test_a_ludicitude_card_edit_saves_a_new_version(admin_client, lacets):
    old = lacets.content["cards"][5]
    new_card = "MAX2" if old != "MAX2" else "MAX3"
    response = change(admin_client, lacets, **{"cards-5-tokens": new_card})
    if response.status_code == 200:
        pytest.fail(str(faults_of(response)))
    assert Track.objects.get(slug=lacets.slug, version=2).content["cards"][5] == new_card


def test_the_preview_draws_the_edit_and_names_its_faults_saving_nothing(admin_client, monaco):
    url = f"/admin/motor/track/{monaco.pk}/preview/"
    drawn = admin_client.post(url, form_data(monaco, **{"corners-0-max_gear": "3"}))
    assert "<svg" in drawn.content.decode()
    assert "max gear 3" in drawn.content.decode()
    refused = admin_client.post(url, form_data(monaco, **{"track-grid_slots": "13"}))
    assert "V6" in refused.content.decode()
    assert "<svg" not in refused.content.decode()
    assert Track.objects.filter(slug=monaco.slug).count() == 1
    assert admin_client.get(url).status_code == 403
