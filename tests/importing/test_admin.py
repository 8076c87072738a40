"""The admin's import: upload, preview with each bad row, confirm; and the doubtful matches."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from races.models import Race, Stage, StageResult
from riders.models import Rider, RiderMatch
from tests.factories import UserFactory
from tests.importing.files import BROKEN, TOUR

IMPORT_URL = "admin:races_race_import_results"


@pytest.fixture
def admin_client(client, db):
    client.force_login(UserFactory(username="admin", is_staff=True, is_superuser=True))
    return client


def _uploads(folder, *names):
    return [SimpleUploadedFile(name, (folder / name).read_bytes()) for name in names]


def test_the_race_list_links_to_the_import(admin_client):
    response = admin_client.get(reverse("admin:races_race_changelist"))
    assert reverse(IMPORT_URL) in response.content.decode()


def test_the_preview_shows_what_would_be_written_and_writes_nothing(admin_client):
    response = admin_client.post(
        reverse(IMPORT_URL), {"uploads": _uploads(TOUR, "stages.csv", "results.csv", "riders.csv")}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Preview: Would write 532 valid row(s)." in html
    assert "2 races, 255 riders, 138 stage results, 42 stages, 352 start list entries" in html
    assert 'name="confirm"' in html
    assert not Race.objects.exists()


def test_confirming_imports_the_checked_files(admin_client):
    preview = admin_client.post(reverse(IMPORT_URL), {"uploads": _uploads(TOUR, "stages.csv")})
    stored = preview.context["stored"]
    response = admin_client.post(reverse(IMPORT_URL), {"stored": stored, "confirm": "1"})
    assert response.status_code == 302
    assert Stage.objects.count() == 42
    again = admin_client.post(reverse(IMPORT_URL), {"stored": stored, "confirm": "1"})
    assert again.status_code == 302  # the files are gone: upload again
    assert Stage.objects.count() == 42


def test_the_preview_names_each_bad_row_and_offers_the_valid_rows_only(admin_client):
    response = admin_client.post(
        reverse(IMPORT_URL), {"uploads": _uploads(BROKEN, "stages.csv", "results.csv")}
    )
    html = response.content.decode()
    assert "Nothing written: 6 bad row(s) in 10." in html
    assert (
        "<td>results.csv</td><td>6</td><td>rank</td><td>rank &#x27;fifth&#x27; is not a number</td>"
        in html
    )
    assert 'name="confirm"' not in html
    assert "Import only the 4 valid rows" in html
    response = admin_client.post(
        reverse(IMPORT_URL), {"stored": response.context["stored"], "valid_only": "1"}
    )
    assert response.status_code == 302
    assert StageResult.objects.count() == 2


def test_a_tampered_confirmation_is_refused(admin_client):
    response = admin_client.post(
        reverse(IMPORT_URL), {"stored": "../../etc/passwd", "confirm": "1"}
    )
    assert response.status_code == 302
    assert not Race.objects.exists()


def test_staff_without_permission_cannot_import(client, db):
    client.force_login(UserFactory(username="clerk", is_staff=True))
    assert client.get(reverse(IMPORT_URL)).status_code == 403


def test_standings_are_listed_with_their_classification(admin_client, tour):
    response = admin_client.get(
        reverse("admin:races_standing_changelist") + "?classification=points"
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Wout Van Aert" in html


def test_doubtful_matches_are_confirmed_by_an_admin_action(admin_client, tour):
    match = RiderMatch.objects.get(imported_name="Jonas Vingegaard Hansen")
    response = admin_client.post(
        reverse("admin:riders_ridermatch_changelist"),
        {"action": "confirm", "_selected_action": [match.pk]},
    )
    assert response.status_code == 302
    assert not Rider.objects.filter(name="Jonas Vingegaard Hansen").exists()
    assert "Jonas Vingegaard Hansen" in Rider.objects.get(name="Jonas Vingegaard").aliases


def test_the_import_page_offers_the_upload_form(admin_client):
    response = admin_client.get(reverse(IMPORT_URL))
    assert response.status_code == 200
    assert 'type="file"' in response.content.decode()
    assert "multiple" in response.content.decode()


# --- imports that cannot hurt (issue 11) -----------------------------------------------------


def test_a_dimension_bomb_upload_is_refused_in_the_preview(admin_client):
    from tests.importing.files import xlsx_dimension_bomb

    upload = SimpleUploadedFile("bomb.xlsx", xlsx_dimension_bomb())
    response = admin_client.post(reverse(IMPORT_URL), {"uploads": [upload]})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Nothing written: 0 bad row(s) in 0." in html
    assert "declares the range A1:XFD1048576" in html
    assert 'name="confirm"' not in html


def test_a_truncated_csv_upload_is_refused_naming_its_line(admin_client):
    lines = (TOUR / "results.csv").read_bytes().splitlines(keepends=True)
    cut = b"".join(lines[:31]) + b"tour-de-france,2022,21,30,Bettiol Alberto,EF Ed"
    uploads = [*_uploads(TOUR, "stages.csv"), SimpleUploadedFile("results.csv", cut)]
    response = admin_client.post(reverse(IMPORT_URL), {"uploads": uploads})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<td>results.csv</td><td>32</td><td>nationality</td><td>6 cells but the header" in html
    assert 'name="confirm"' not in html
    assert not Stage.objects.exists()


def test_an_oversized_upload_is_refused_unread_and_stays_refused(admin_client, monkeypatch):
    from races.importing import limits

    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 10_000)  # stages.csv 3 KB, results.csv 11
    big = SimpleUploadedFile("results.csv", (TOUR / "results.csv").read_bytes())
    response = admin_client.post(
        reverse(IMPORT_URL), {"uploads": [*_uploads(TOUR, "stages.csv"), big]}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "the file is 10.6 KB: files up to 9.8 KB are read; split it" in html
    # Importing the valid rows writes the stages; the big file is still refused, unread.
    response = admin_client.post(
        reverse(IMPORT_URL), {"stored": response.context["stored"], "valid_only": "1"}
    )
    assert response.status_code == 302
    assert Stage.objects.count() == 42
    assert not StageResult.objects.exists()


def test_the_upload_form_says_the_size_bounds_in_the_admins_language(admin_client):
    from django.utils import translation

    from races.admin import ResultsUploadForm

    response = admin_client.get(reverse(IMPORT_URL))
    assert "Up to 10 MB a file, 50 MB in all." in response.content.decode()
    with translation.override("fr"):
        help_text = str(ResultsUploadForm().fields["uploads"].help_text)
    assert help_text.endswith("Jusqu'à 10 Mo par fichier, 50 Mo en tout.")
