"""Track files stored as versions, validated by the engine (issue 15 item 1)."""

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from motor.models import Track
from motor.track_files import SHIPPED, TrackFaults, shipped_tracks_load, track_store

MONACO = SHIPPED / "grandprix" / "monaco.yaml"


def test_shipped_tracks_load_once(db):
    first = shipped_tracks_load()
    assert all(created for _, created in first)
    assert len(first) == 19  # 15 Grand Prix (the 1981 calendar) and 4 Ludicitude tracks
    assert not any(created for _, created in shipped_tracks_load())


def test_new_content_is_a_new_version_and_the_old_is_kept(db):
    old, _ = track_store(content=MONACO.read_bytes(), file_name="monaco.yaml")
    edited = MONACO.read_text(encoding="utf-8").replace("name:", "# a comment\nname:", 1)
    same, created = track_store(content=edited.encode(), file_name="monaco.yaml")
    assert (same.pk, created) == (old.pk, False)  # comments do not change the content hash
    text = MONACO.read_text(encoding="utf-8")
    assert "laps: 3" in text
    new, created = track_store(
        content=text.replace("laps: 3", "laps: 4", 1).encode(), file_name="monaco.yaml"
    )
    assert created
    assert (new.version, old.version) == (2, 1)
    assert new.content_hash != old.content_hash
    assert Track.objects.filter(slug=old.slug).count() == 2


def test_every_fault_is_reported_and_nothing_stored(db):
    with pytest.raises(TrackFaults) as caught:
        track_store(content=b"game: grandprix\nname: x\n", file_name="bad.yaml")
    assert "bad.yaml line 1: SCHEMA, field corners: missing" in caught.value.lines
    assert len(caught.value.lines) >= 4
    with pytest.raises(TrackFaults, match="is not a motor game"):
        track_store(content=b"game: chess\n", file_name="chess.yaml")
    assert not Track.objects.exists()


def test_admin_upload_shows_the_faults(client, db):
    admin = get_user_model().objects.create_superuser("root", "r@example.org", "pw")
    client.force_login(admin)
    bad = Path("bad.yaml")
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(
        "/admin/motor/track/add/",
        {"upload": SimpleUploadedFile(bad.name, b"game: grandprix\nname: x\n"), "slug": ""},
    )
    assert response.status_code == 200
    assert "field corners: missing" in response.content.decode()
    response = client.post(
        "/admin/motor/track/add/",
        {"upload": SimpleUploadedFile("monaco.yaml", MONACO.read_bytes()), "slug": ""},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Track.objects.get().version == 1


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        (("slots: 12", "slots: 100000000"), "grid.slots: 100000000 is more than the maximum 12"),
        (("length: 75", "length: 100000000"), "length: 100000000 is more than the maximum 1500"),
        (("laps: 3", "laps: " + "9" * 5000), "a number of more than 20 characters"),
        (("laps: 3", "laps: 3\nx: &a [1]\ny: *a"), "aliases (*name) are not allowed"),
    ],
)
def test_admin_upload_of_a_hostile_track_shows_the_fault_not_a_500(client, db, replace, message):
    """Issue 28: the bounds of the engine's loader are the admin's form errors."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(get_user_model().objects.create_superuser("root", "r@example.org", "pw"))
    text = MONACO.read_text(encoding="utf-8")
    assert replace[0] in text
    upload = SimpleUploadedFile("hostile.yaml", text.replace(*replace, 1).encode())
    response = client.post("/admin/motor/track/add/", {"upload": upload, "slug": ""})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Track.objects.exists()


def test_a_long_file_name_is_stored_cut_to_its_column(db):
    """An upload's name may be 255 characters; the column holds 200 (PostgreSQL refused)."""
    name = "m" * 240 + ".yaml"
    track, created = track_store(content=MONACO.read_bytes(), file_name=name)
    assert created
    assert Track.objects.get(pk=track.pk).file_name == name[:200]
