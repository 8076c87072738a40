"""A real Formula 1 season imported as an admin would (drivers, constructors, calendar and
results of 1981) seeds a championship league whose cars are the real entry list (issue 31
item 5): real drivers in their real constructors' cars with their real numbers, each Grand Prix
on the shipped track of its circuit."""

import csv
import io
from pathlib import Path

import pytest

from motor.league_copy import championship_problems
from motor.models import Championship, GrandPrix, Result
from motor.track_files import shipped_tracks_load
from races.importing import ImportFile, import_files_read, results_import
from tests.season.motor_builders import joined, motor_league, round_resolved, two_cars_each

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "data" / "f1"
CALENDAR_FILES = {"drivers.csv", "constructors.csv", "races.csv"}


def imported_1981() -> Championship:
    report = results_import(files=import_files_read(paths=[DATA]))
    assert report.ok, report.lines()
    return Championship.objects.get(slug="formula-1-1981")


def entry_list(championship: Championship) -> list[tuple[str, str, str, int | None]]:
    return sorted(
        championship.entries.values_list("driver__slug", "constructor__slug", "engine", "number")
    )


def test_the_imported_season_seeds_a_league_on_the_real_entry_list(alice, bob):
    real = imported_1981()
    shipped_tracks_load()
    assert championship_problems(real, game="grandprix") == []
    season = motor_league(organiser=alice, championship=real, points_system="f1-1981")
    league = season.championship
    assert entry_list(league) == entry_list(real)
    assert ("alan-jones", "williams", "ford", 1) in entry_list(league)
    # Every round of the real calendar, in order, on the shipped track of its circuit.
    rounds = list(season.rounds.select_related("grand_prix__track").order_by("number"))
    assert [r.grand_prix.name for r in rounds] == list(
        real.grands_prix.order_by("round").values_list("name", flat=True)
    )
    tracks = {r.grand_prix.circuit_slug: r.grand_prix.track.slug for r in rounds}
    assert tracks["long-beach"] == "long-beach-approx"
    assert tracks["montreal"] == "gilles-villeneuve-approx"
    # The first Grand Prix races real cars: each with its real driver, constructor and number.
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    first = round_resolved(season, 1)
    real_cars = {(e.driver_id, e.constructor_id, e.number) for e in real.entries.all()}
    results = Result.objects.filter(grand_prix=first.grand_prix).select_related("entry")
    assert results.count() == 12
    assert {(r.entry.driver_id, r.entry.constructor_id, r.entry.number) for r in results} <= (
        real_cars
    )
    assert {r.entry.championship_id for r in results} == {league.pk}


def test_a_circuit_without_a_track_is_named(alice):
    real = imported_1981()
    shipped_tracks_load()
    GrandPrix.objects.filter(championship=real, round=6).update(circuit_slug="nowhere")
    assert championship_problems(real, game="grandprix") == [
        "Round 6, Monaco: no grandprix track for Circuit de Monaco."
    ]


def round_one_entry_list() -> bytes:
    """The entry list of the 1981 season's first Grand Prix (Long Beach), as an admin would
    upload it before the race: season, number, driver, constructor, engine."""
    with (DATA / "results.csv").open(encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["round"] == "1"]
    out = io.StringIO()
    writer = csv.writer(out)
    columns = ("season", "number", "driver_id", "constructor_id", "engine")
    writer.writerow(columns)
    for r in rows:
        writer.writerow([r[column] for column in columns])
    return out.getvalue().encode()


def test_a_season_without_results_seeds_a_league_on_its_entry_list(alice):
    """Drivers, constructors, the calendar and the entry list, no result: the league's cars
    are the entry list's, with their real numbers."""
    files = [f for f in import_files_read(paths=[DATA]) if f.name in CALENDAR_FILES]
    files.append(ImportFile("entries.csv", round_one_entry_list()))
    report = results_import(files=files)
    assert report.ok, report.lines()
    real = Championship.objects.get(slug="formula-1-1981")
    assert not Result.objects.filter(grand_prix__championship=real).exists()
    shipped_tracks_load()
    season = motor_league(organiser=alice, championship=real, points_system="f1-1981")
    cars = entry_list(season.championship)
    assert len(cars) == 29  # everyone entered at Long Beach, the non-qualifiers too
    assert ("nelson-piquet", "brabham", "ford", 5) in cars
    assert ("gilles-villeneuve", "ferrari", "ferrari", 27) in cars
    # Importing the same entry list again changes nothing.
    again = results_import(files=files)
    assert again.ok
    assert real.entries.count() == 29
