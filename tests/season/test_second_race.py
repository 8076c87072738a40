"""A start list imported on its own (issue 31, part 2): the "second race", the Tour de France
2023 of tests/data/tdf2023 (its start list and stages from ../shared/data, no result), imported
after the 2022 Tour; a league on it fields the whole start list, under the race's bibs where the
league's bib rule allows."""

from pathlib import Path

import pytest

from races.adapters.base import CyclingAdapter
from races.importing import ImportFile, import_files_read, results_import
from races.models import Race, RaceEntry
from races.services import template_races
from season import formation
from season.computer_teams import computer_teams_fill
from season.models import Season, SeasonTeam, Seat
from tests.season.builders import distinct_team_picks, joined, league

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "data"
TDF2023 = DATA / "tdf2023"
ROSTER = 4


def _import(*paths: Path, **options: bool):
    report = results_import(files=import_files_read(paths=list(paths)), **options)
    assert report.ok, report.lines()
    return report


def test_a_start_list_alone_creates_its_race_which_waits_for_its_stages():
    report = _import(TDF2023 / "riders.csv")
    race = Race.objects.get(slug="tour-de-france-2023")
    assert report.created["start list entries"] == 176
    assert not race.stages.exists()
    assert RaceEntry.objects.filter(race=race, bib__isnull=False).count() == 176
    # Not offered yet: a league needs a route.
    assert race not in template_races()
    _import(TDF2023 / "stages.csv")
    assert race in template_races()
    assert dict(CyclingAdapter().league_events())[f"race-{race.pk}"] == (
        f"{race} (176 riders not reviewed)"
    )


def test_a_start_list_is_previewed_and_written_all_or_nothing():
    preview = _import(TDF2023 / "riders.csv", dry_run=True)
    assert preview.created["start list entries"] == 176
    assert not Race.objects.exists()
    text = (TDF2023 / "riders.csv").read_text(encoding="utf-8")
    broken = text.replace("tour-de-france,2023,3,", "tour-de-france,2023,three,", 1)
    report = results_import(files=[ImportFile(name="riders.csv", content=broken.encode())])
    assert not report.ok
    assert any(error.line == 4 for error in report.errors), report.lines()
    assert not Race.objects.exists()
    assert not RaceEntry.objects.exists()


def test_a_procyclingstats_start_list_imports_alone():
    report = _import(DATA / "pcs" / "tour-de-france-2022-startlist.csv")
    race = Race.objects.get(slug="tour-de-france-2022")
    assert report.created["start list entries"] == 8
    assert not race.stages.exists()
    assert set(RaceEntry.objects.filter(race=race).values_list("bib", flat=True)) != {None}


@pytest.fixture
def tour2023(db):
    _import(DATA / "tdf2022")
    _import(TDF2023 / "riders.csv", TDF2023 / "stages.csv")
    return Race.objects.get(slug="tour-de-france-2023")


def test_a_league_on_the_second_race_fields_its_whole_start_list_under_its_bibs(
    tour2023, alice, bob
):
    season = league(
        organiser=alice,
        template=tour2023,
        roster_size=ROSTER,
        formation_mode=Season.FormationMode.BUDGET,
        max_per_real_team=1,
    )
    assert season.peloton == Season.Peloton.START_LIST
    taken: list[int] = []
    for team in joined(season, alice, bob):
        picks = distinct_team_picks(season, ROSTER, taken=taken)
        formation.team_select(team=team, pickable_ids=picks)
        taken += picks
    computer_teams_fill(season=season)

    start_list = {e.rider_id: e.bib for e in RaceEntry.objects.filter(race=tour2023)}
    seats = Seat.objects.filter(season=season)
    assert set(seats.values_list("rider_id", flat=True)) == set(start_list)
    assert seats.count() == 176
    numbers = list(seats.values_list("number", flat=True))
    assert None not in numbers
    assert len(set(numbers)) == 176
    computer = SeasonTeam.objects.filter(season=season, owner__isnull=True)
    assert computer.count() == 22
    # The players' teams hold 1-4 and 11-14: the real teams numbered 1-8 and 11-18 move to
    # the first free blocks after the real ones; the twenty others keep their real bibs.
    players_numbers = set(seats.filter(team__owner__isnull=False).values_list("number", flat=True))
    assert players_numbers == {1, 2, 3, 4, 11, 12, 13, 14}
    kept = moved = 0
    for team in computer:
        team_seats = list(team.seats.all())
        real = [start_list[s.rider_id] for s in team_seats]
        if [s.number for s in team_seats] == real:
            kept += 1
        else:
            moved += 1
            assert min(s.number for s in team_seats) > max(start_list.values())
        assert len({(s.number - 1) // 10 for s in team_seats}) == 1  # one block per team
    assert (kept, moved) == (20, 2)


def test_the_organiser_is_told_the_riders_an_admin_must_review(tour2023, alice):
    season = league(organiser=alice, template=tour2023, roster_size=ROSTER)
    notes = CyclingAdapter().league_formation_notes(season=season, players=1)
    assert any(
        note.startswith("176 riders of the start list have ratings no admin has reviewed")
        and "An admin must review them" in note
        for note in notes
    )
