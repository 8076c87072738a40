"""The demo Grand Prix championship (issue 15 item 7): the real 1981 calendar on the track files
of its circuits, six real teams of two, loaded from the project's own fixtures, idempotent."""

import shutil
from collections import Counter
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from engine.motor import parse_document
from motor.demo import (
    DEMO_CHAMPIONSHIP_SLUG,
    FIXTURES_DIR,
    TRACK_FILES,
    TRACKS_DIR,
    DemoChampionshipError,
    demo_championship_load,
)
from motor.models import (
    Championship,
    ChampionshipKind,
    Constructor,
    Driver,
    Entry,
    GrandPrix,
    Track,
)

SHARED_F1 = Path(__file__).resolve().parents[3] / "shared" / "data" / "f1"
MODELS = (Championship, GrandPrix, Track, Driver, Constructor, Entry)


def _counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def test_fifteen_rounds_of_the_real_calendar(db) -> None:
    report = demo_championship_load()
    championship = Championship.objects.get(slug=DEMO_CHAMPIONSHIP_SLUG)
    assert report.championship == championship
    assert (championship.year, championship.kind) == (1981, ChampionshipKind.REAL)
    assert championship.points_system.slug == "f1-1961-1990"
    assert championship.points_system.table == [9, 6, 4, 3, 2, 1]
    rounds = list(championship.grands_prix.order_by("round"))
    assert [gp.round for gp in rounds] == list(range(1, 16))
    first, monaco, last = rounds[0], rounds[5], rounds[14]
    assert (first.name, first.date, first.circuit_slug) == (
        "United States West",
        date(1981, 3, 15),
        "long-beach",
    )
    assert (first.laps, first.lap_km, first.country) == (
        80,
        Decimal("3.251"),
        "United States of America",
    )
    assert (monaco.circuit, monaco.laps, monaco.track.slug) == (
        "Circuit de Monaco",
        76,
        "monaco-approx",
    )
    assert (last.name, last.date, last.laps) == ("Caesars Palace", date(1981, 10, 17), 75)
    assert rounds[13].track.slug == "gilles-villeneuve-approx"  # Montréal: the spec's §3.6


def test_every_round_on_the_track_file_of_its_circuit(db) -> None:
    demo_championship_load()
    rounds = GrandPrix.objects.filter(championship__slug=DEMO_CHAMPIONSHIP_SLUG).select_related(
        "track"
    )
    assert len({gp.track.slug for gp in rounds}) == 15  # at least 8 asked; all 15 circuits
    for gp in rounds:
        path = TRACKS_DIR / TRACK_FILES.get(gp.circuit_slug, f"{gp.circuit_slug}.yaml")
        doc = parse_document(path.read_text(encoding="utf-8"), path.name)
        assert gp.track.content_hash == doc.content_hash, gp.circuit_slug
        assert (gp.track.game, gp.track.file_name) == ("grandprix", path.name)
        assert gp.track.content["lap_length_m"] == int(gp.lap_km * 1000)


def test_twelve_cars_of_six_real_teams(db) -> None:
    demo_championship_load()
    entries = Entry.objects.filter(championship__slug=DEMO_CHAMPIONSHIP_SLUG).select_related(
        "driver", "constructor"
    )
    assert len(entries) == 12
    teams = Counter(entry.constructor.slug for entry in entries)
    assert teams == dict.fromkeys(
        ("williams", "brabham", "renault", "ligier", "ferrari", "mclaren"), 2
    )
    assert len({entry.number for entry in entries}) == 12
    cars = {entry.driver.slug: entry for entry in entries}
    villeneuve = cars["gilles-villeneuve"]
    assert (villeneuve.number, villeneuve.engine, villeneuve.constructor.name) == (
        27,
        "ferrari",
        "Ferrari",
    )
    driver = villeneuve.driver
    assert (driver.name, driver.abbreviation, driver.birth_date, driver.nationality) == (
        "Gilles Villeneuve",
        "VIL",
        date(1950, 1, 18),
        "Canada",
    )
    assert (cars["alan-jones"].number, cars["patrick-tambay"].number) == (1, 25)
    assert cars["hector-rebaque"].driver.name == "Héctor Rebaque"
    assert all(entry.driver.abbreviation and entry.driver.birth_date for entry in entries)


def test_loading_twice_creates_and_changes_nothing(db) -> None:
    first = demo_championship_load()
    assert first.created == {
        "championships": 1,
        "tracks": 15,
        "grands_prix": 15,
        "drivers": 12,
        "constructors": 6,
        "entries": 12,
    }
    before = _counts()
    pks = sorted(GrandPrix.objects.values_list("pk", "track_id"))
    second = demo_championship_load()
    assert not second.changed, (second.created, second.updated)
    assert _counts() == before
    assert sorted(GrandPrix.objects.values_list("pk", "track_id")) == pks


def test_an_edited_row_is_put_back(db) -> None:
    demo_championship_load()
    GrandPrix.objects.filter(round=3).update(laps=1)
    report = demo_championship_load()
    assert report.updated == {"grands_prix": 1}
    assert GrandPrix.objects.get(round=3).laps == 53


def test_a_bad_row_is_named_and_nothing_is_written(db, tmp_path: Path) -> None:
    fixtures = tmp_path / "f1_1981"
    shutil.copytree(FIXTURES_DIR, fixtures)
    entries = fixtures / "entries.csv"
    entries.write_text(
        entries.read_text(encoding="utf-8").replace("ferrari,27,", "ferrari,twenty-seven,"),
        encoding="utf-8",
    )
    with pytest.raises(DemoChampionshipError, match=r"entries\.csv line 10, column number"):
        demo_championship_load(fixtures_dir=fixtures)
    assert _counts() == dict.fromkeys(_counts(), 0)


def test_a_circuit_without_a_track_file_is_named(db, tmp_path: Path) -> None:
    tracks = tmp_path / "tracks"
    shutil.copytree(TRACKS_DIR, tracks)
    (tracks / "zolder.yaml").unlink()
    with pytest.raises(DemoChampionshipError, match=r"races\.csv line 6: no track file zolder"):
        demo_championship_load(tracks_dir=tracks)
    assert not Championship.objects.exists()


@pytest.mark.skipif(not SHARED_F1.is_dir(), reason="the shared F1 data is not beside the checkout")
def test_the_fixtures_are_copies_of_the_real_data() -> None:
    import csv

    def rows(path: Path, key: str) -> dict[str, dict[str, str]]:
        with path.open(encoding="utf-8", newline="") as handle:
            return {row[key]: row for row in csv.DictReader(handle)}

    for name, key in (
        ("races.csv", "round"),
        ("drivers.csv", "driver_id"),
        ("constructors.csv", "constructor_id"),
    ):
        real, ours = rows(SHARED_F1 / name, key), rows(FIXTURES_DIR / name, key)
        assert ours, name
        assert all(real[k] == row for k, row in ours.items()), name
    results = list(csv.DictReader((SHARED_F1 / "results.csv").open(encoding="utf-8", newline="")))
    for car in csv.DictReader((FIXTURES_DIR / "entries.csv").open(encoding="utf-8", newline="")):
        raced = [
            r
            for r in results
            if (r["driver_id"], r["constructor_id"]) == (car["driver_id"], car["constructor_id"])
        ]
        assert len(raced) == int(car["rounds"])
        assert {(r["number"], r["engine"]) for r in raced} == {(car["number"], car["engine"])}


def test_the_real_import_afterwards_changes_no_demo_driver_or_constructor(db) -> None:
    from races.importing import import_files_read, results_import

    demo_championship_load()
    before = (list(Driver.objects.order_by("slug").values()), list(Constructor.objects.values()))
    data = Path(__file__).resolve().parents[1] / "data" / "f1"
    report = results_import(files=import_files_read(paths=[data]))
    assert report.ok, report.lines()
    after_drivers = Driver.objects.filter(slug__in=[d["slug"] for d in before[0]])
    assert list(after_drivers.order_by("slug").values()) == before[0]
    assert (
        list(Constructor.objects.filter(pk__in=[c["id"] for c in before[1]]).values()) == before[1]
    )
    assert Driver.objects.count() == 39  # the import adds the others, matched by slug
