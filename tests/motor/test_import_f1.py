"""The import of the real 1981 championship and its tables (issue 15 items 3 and 4)."""

import csv
import io
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from motor.models import Championship, Driver, Result, ResultStatus, Standing
from races.importing import ImportFile, import_files_read, results_import

DATA = Path(__file__).resolve().parents[1] / "data" / "f1"


def f1_files(**replace: bytes) -> list[ImportFile]:
    files = import_files_read(paths=[DATA])
    return [ImportFile(f.name, replace.get(f.name, f.content)) for f in files]


@pytest.fixture
def season_1981(db):
    report = results_import(files=f1_files())
    assert report.ok, report.lines()
    return Championship.objects.get(slug="formula-1-1981")


def table(slug: str, *options: str) -> list[tuple[str, str, str]]:
    out = io.StringIO()
    call_command("championship_table", slug, "--format", "csv", *options, stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0] == ["position", "name", "points"]
    return [tuple(row) for row in rows[1:]]


def scorers(rows: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The official tables list the point scorers; ours lists everyone, the others after."""
    scoring = [row for row in rows if row[2] != "0"]
    assert rows[: len(scoring)] == scoring
    return scoring


def official(file: str, key: str, names: dict[str, str]) -> list[tuple[str, str, str]]:
    with (DATA / file).open(encoding="utf-8") as handle:
        return [(r["position"], names[r[key]], r["points"]) for r in csv.DictReader(handle)]


def names(file: str, key: str) -> dict[str, str]:
    with (DATA / file).open(encoding="utf-8") as handle:
        return {r[key]: r["name"] for r in csv.DictReader(handle)}


def test_drivers_table_equals_the_official_one(season_1981):
    mine = scorers(table("formula-1-1981"))
    expected = official("driver_standings.csv", "driver_id", names("drivers.csv", "driver_id"))
    # Shared positions (four drivers 18th) are listed in any order within the position.
    assert sorted(mine) == sorted(expected)
    assert mine[:3] == [
        ("1", "Nelson Piquet", "50"),
        ("2", "Carlos Reutemann", "49"),
        ("3", "Alan Jones", "46"),
    ]


def test_constructors_table_equals_the_official_one(season_1981):
    mine = scorers(table("formula-1-1981", "--table", "constructors"))
    expected = official(
        "constructor_standings.csv", "constructor_id", names("constructors.csv", "constructor_id")
    )
    assert sorted(mine) == sorted(expected)


def test_rescored_under_2010_every_result_counts(season_1981):
    mine = table("formula-1-1981", "--points-system", "f1-2010")
    # Reutemann under 2010 points: his 15 results summed, no best 11 (hand-added from the file).
    with (DATA / "results.csv").open(encoding="utf-8") as handle:
        places = [
            int(r["position"])
            for r in csv.DictReader(handle)
            if r["driver_id"] == "carlos-reutemann" and r["position"].isdigit()
        ]
    modern = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
    expected = sum(modern[p - 1] for p in places if p <= 10)
    assert dict((n, p) for _, n, p in mine)["Carlos Reutemann"] == str(expected)


def test_statuses_and_classified_retirements(season_1981):
    statuses = set(Result.objects.values_list("status", flat=True))
    assert {"DNF", "NC", "DSQ", "DNS", "DNQ", "DNPQ", "DNP", "finished"} <= statuses
    retired_classified = Result.objects.filter(status=ResultStatus.DNF, position__isnull=False)
    assert retired_classified.exists()
    # Standings stored after each of the 15 rounds, both tables.
    assert Standing.objects.values("grand_prix").distinct().count() == 15
    last = Standing.objects.filter(grand_prix__round=15, table="drivers", position=1).get()
    assert (last.driver.slug, last.points, last.wins) == ("nelson-piquet", 50, 3)


def test_reimport_changes_nothing(season_1981):
    before = list(Result.objects.order_by("pk").values())
    report = results_import(files=f1_files())
    assert report.ok, report.lines()
    assert not report.changed, report.lines()
    assert not report.written
    assert list(Result.objects.order_by("pk").values()) == before


def test_dry_run_writes_nothing(db):
    report = results_import(files=f1_files(), dry_run=True)
    assert report.ok
    assert report.changed
    assert not Championship.objects.exists()


def test_bad_rows_named_and_nothing_written(db):
    results = (
        (DATA / "results.csv")
        .read_bytes()
        .replace(b"1981,1,1,1,alan-jones,williams", b"1981,1,WON,1,alan-jones,williams", 1)
        .replace(b"1981,1,2,2,carlos-reutemann,williams", b"1981,1,2,2,carlos-r,williams", 1)
    )
    report = results_import(files=f1_files(**{"results.csv": results}))
    assert not report.ok
    texts = [str(error) for error in report.errors]
    assert any(t.startswith("results.csv:2 [position]: 'WON' is neither") for t in texts), texts
    assert any(t.startswith("results.csv:3 [driver_id]: unknown driver 'carlos-r'") for t in texts)
    assert not Driver.objects.exists()
    assert not Championship.objects.exists()


def test_an_entry_list_alone_names_its_bad_rows_and_writes_nothing(db):
    entries = (
        b"season,number,driver_id,constructor_id,engine\n"
        b"1981,1,alan-jones,williams,ford\n"
        b"1981,two,carlos-reutemann,williams,ford\n"
        b"1981,3,nobody,williams,ford\n"
        b"1981,1,alan-jones,williams,ford\n"
    )
    files = [f for f in f1_files() if f.name in ("drivers.csv", "constructors.csv")]
    report = results_import(files=[*files, ImportFile("entries.csv", entries)])
    assert not report.ok
    texts = [str(error) for error in report.errors]
    assert any(t.startswith("entries.csv:3 [number]") for t in texts), texts
    assert any(t.startswith("entries.csv:4 [driver_id]: unknown driver 'nobody'") for t in texts)
    assert any(t.startswith("entries.csv:5 [driver_id]: alan-jones in this car") for t in texts)
    assert not Championship.objects.exists()


def test_doubtful_driver_match_listed(season_1981):
    drivers = (DATA / "drivers.csv").read_bytes().replace(b"alan-jones,", b"alan-jones-2,", 1)
    results = (DATA / "results.csv").read_bytes().replace(b",alan-jones,", b",alan-jones-2,")
    report = results_import(files=f1_files(**{"drivers.csv": drivers, "results.csv": results}))
    assert [str(d) for d in report.doubts] == [
        "drivers.csv:2: driver 'Alan Jones' may be 'Alan Jones' (same name): created apart, "
        "to confirm in the admin"
    ]


def test_command_import_then_table(db, tmp_path):
    out = io.StringIO()
    call_command("import_results", str(DATA), stdout=out)
    assert "results.csv: f1 results, 448 row(s)" in out.getvalue()
    assert Championship.objects.get().points_system.slug == "f1-1981"
    with pytest.raises(CommandError, match="No championship 'formula-1-1982'"):
        call_command("championship_table", "formula-1-1982")
    with pytest.raises(CommandError, match="No points system 'nope'"):
        call_command("championship_table", "formula-1-1981", "--points-system", "nope")
    assert Standing.objects.filter(points__gt=Decimal(0)).exists()


def test_races_alone_with_a_renamed_circuit_keeps_every_result_and_standing(season_1981):
    results, standings = Result.objects.count(), Standing.objects.count()
    assert (results, standings) == (448, 799)
    races = (
        (DATA / "races.csv").read_bytes().replace(b",Long Beach,long-beach,", b",LB,long-beach,")
    )
    preview = results_import(files=[ImportFile("races.csv", races)], dry_run=True)
    assert preview.ok, preview.lines()
    assert not any("delete" in line for line in preview.lines()), preview.lines()
    report = results_import(files=[ImportFile("races.csv", races)])
    assert report.ok, report.lines()
    assert (Result.objects.count(), Standing.objects.count()) == (results, standings)


def test_a_replaced_result_is_shown_as_a_deletion(season_1981):
    # One result row of round 1 left out of a full upload: the stored row is replaced away.
    rows = (DATA / "results.csv").read_bytes().splitlines(keepends=True)
    kept = b"".join(row for row in rows if not row.startswith(b"1981,1,2,2,"))
    preview = results_import(files=f1_files(**{"results.csv": kept}), dry_run=True)
    assert any("delete" in line and "1" in line for line in preview.lines()), preview.lines()
    assert Result.objects.count() == 448  # a preview writes nothing


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        (
            b"1981,1,1,1,alan-jones,williams,ford,2,",
            b"1981,1,\xc2\xb2,1,alan-jones,williams,ford,2,",
            "position",
        ),
        (
            b"1981,1,1,1,alan-jones,williams,ford,2,",
            b"1981,1,1,1,alan-jones,williams,ford,\xc2\xb2,",
            "grid",
        ),
        (b",ford,2,80,1:50:41.330,", b",ford,2,80,99999999999999:00,", "time"),
    ],
)
def test_a_hostile_cell_is_a_row_error_naming_its_field(db, old, new, field):
    results = (DATA / "results.csv").read_bytes()
    assert old in results
    report = results_import(files=f1_files(**{"results.csv": results.replace(old, new, 1)}))
    assert not report.ok
    assert any(str(e).startswith(f"results.csv:2 [{field}]") for e in report.errors), [
        str(e) for e in report.errors
    ]
    assert not Championship.objects.exists()


def test_the_command_names_a_superscript_digit_without_a_traceback(db, tmp_path):
    for source in DATA.glob("*.csv"):
        (tmp_path / source.name).write_bytes(source.read_bytes())
    results = tmp_path / "results.csv"
    results.write_bytes(results.read_bytes().replace(b"1981,1,1,1,", "1981,1,²,1,".encode(), 1))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_results", str(tmp_path), stdout=out, stderr=err)
    assert "results.csv:2 [position]: '²'" in out.getvalue() + err.getvalue()
    assert not Championship.objects.exists()


def test_an_admin_imports_a_season_before_its_results_preview_then_confirm(client, db):
    """Drivers, constructors, the calendar and the entry list, in the admin's import: the
    preview counts the entries, the confirmation writes them (docs/import.md)."""
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    client.force_login(get_user_model().objects.create_superuser("root", "r@example.org", "pw"))
    url = reverse("admin:races_race_import_results")
    uploads = [
        SimpleUploadedFile(name, (DATA / name).read_bytes())
        for name in ("drivers.csv", "constructors.csv", "races.csv")
    ]
    entries = b"season,number,driver_id,constructor_id,engine\n1981,1,alan-jones,williams,ford\n"
    uploads.append(SimpleUploadedFile("entries.csv", entries))
    preview = client.post(url, {"uploads": uploads})
    html = preview.content.decode()
    assert "<td>entries.csv</td><td>f1 entries</td><td>1</td><td>0</td>" in html
    assert "1 championships, 17 constructors, 39 drivers, 1 entries, 15 grands prix" in html
    assert not Championship.objects.exists()
    response = client.post(url, {"stored": preview.context["stored"], "confirm": "1"})
    assert response.status_code == 302
    entry = Championship.objects.get(slug="formula-1-1981").entries.get()
    assert (entry.driver.slug, entry.constructor.slug) == ("alan-jones", "williams")
    assert entry.number == 1
