"""The import on the real files of ../shared/data (copied to tests/data/tour)."""

import pytest

from races.importing import results_import
from races.models import Race, RaceEntry, ResultStatus, Stage, StageResult, Standing
from riders.models import Rider, RiderMatch, Team
from tests.importing.files import data_files

pytestmark = pytest.mark.django_db


def _snapshot() -> dict[str, list[tuple[object, ...]]]:
    return {
        "races": list(Race.objects.values_list("slug", "name", "year", "kind").order_by("slug")),
        "stages": list(
            Stage.objects.values_list("race__slug", "number", "stage_type", "distance_km").order_by(
                "pk"
            )
        ),
        "teams": list(Team.objects.values_list("pk", "name", "year", "code").order_by("pk")),
        "riders": list(
            Rider.objects.values_list("pk", "name", "nationality", "pcs_slug", "team_id").order_by(
                "pk"
            )
        ),
        "entries": list(
            RaceEntry.objects.values_list("pk", "race_id", "rider_id", "bib").order_by("pk")
        ),
        "results": list(
            StageResult.objects.values_list(
                "pk", "rider_id", "rank", "status", "time_seconds", "gap_seconds"
            ).order_by("pk")
        ),
        "standings": list(
            Standing.objects.values_list(
                "pk", "rider_id", "classification", "rank", "value", "gap"
            ).order_by("pk")
        ),
        "matches": list(
            RiderMatch.objects.values_list("pk", "rider_id", "candidate_id").order_by("pk")
        ),
    }


def test_the_real_tours_import_without_a_bad_row(tour):
    assert tour.ok
    assert tour.written
    assert tour.bad_rows == 0
    assert {summary.name: summary.layout for summary in tour.files} == {
        "classifications.csv": "classifications (points, mountains, youth)",
        "gc.csv": "gc (general classification)",
        "results.csv": "results (stage results)",
        "riders.csv": "riders (start list)",
        "stage_winners.csv": "stage winners",
        "stages.csv": "stages",
    }
    assert list(Race.objects.values_list("slug", "name", "kind").order_by("slug")) == [
        ("tour-de-france-2022", "Tour de France", "real"),
        ("tour-de-france-2023", "Tour de France", "real"),
    ]
    assert Stage.objects.count() == 42
    assert RaceEntry.objects.filter(race__year=2022).count() == 176
    assert RaceEntry.objects.filter(race__year=2023).count() == 176


def test_reimporting_the_same_files_changes_nothing(tour):
    before = _snapshot()
    again = results_import(files=data_files())
    assert again.ok
    assert not again.changed
    assert not again.written
    assert again.doubts == []
    assert _snapshot() == before
    assert again.outcome() == "Nothing to change: the database already holds these facts."


def test_files_are_applied_in_the_order_their_contents_need(db):
    backwards = data_files(
        "classifications.csv",
        "gc.csv",
        "stage_winners.csv",
        "results.csv",
        "stages.csv",
        "riders.csv",
    )
    report = results_import(files=backwards)
    assert report.ok, report.lines()
    assert StageResult.objects.filter(stage__race__year=2022, stage__number=21).count() == 138


def test_stage_results_keep_times_gaps_and_statuses(tour):
    stage = Stage.objects.get(race__slug="tour-de-france-2022", number=21)
    winner = StageResult.objects.get(stage=stage, rank=1)
    assert (winner.rider.name, winner.time_seconds, winner.gap_seconds) == (
        "Jasper Philipsen",
        10712,
        0,
    )
    dns = StageResult.objects.filter(stage=stage, status=ResultStatus.DID_NOT_START)
    assert sorted(dns.values_list("rider__name", flat=True)) == [
        "Gorka Izagirre",
        "Guillaume Boivin",
        "Michael Woods",
    ]
    assert set(dns.values_list("rank", "time_seconds")) == {(None, None)}


def test_stage_winners_give_the_stages_without_results_their_rank_1(tour):
    itt = StageResult.objects.get(stage__race__year=2022, stage__number=20, rank=1)
    assert itt.rider.name == "Wout Van Aert"
    assert itt.time_seconds is None
    # Stage 21 has full results: the winners file only checks them.
    assert StageResult.objects.filter(stage__race__year=2022, stage__number=21, rank=1).count() == 1


def test_gc_and_classifications_are_standings_after_the_last_stage(tour):
    last = Stage.objects.get(race__slug="tour-de-france-2022", number=21)
    general = Standing.objects.filter(stage=last, classification="general").order_by("rank")
    assert [(line.rank, line.rider.name, line.gap) for line in general[:3]] == [
        (1, "Jonas Vingegaard", 0),
        (2, "Tadej Pogačar", 163),
        (3, "Geraint Thomas", 442),
    ]
    assert general.first().value == 286400
    points = Standing.objects.get(stage=last, classification="points", rank=1)
    mountains = Standing.objects.get(stage=last, classification="mountains", rank=1)
    assert (points.rider.name, mountains.rider.name) == ("Wout Van Aert", "Jonas Vingegaard")
    youth = Standing.objects.get(stage=last, classification="youth", rank=2)
    assert (youth.rider.name, youth.gap, youth.value) == (
        "Thomas Pidcock",
        3512,
        290075,
    )  # his GC time


def test_riders_struck_out_later_are_not_classified(tour):
    quintana = Rider.objects.get(name="Nairo Quintana")
    # Disqualified in the GC (status DSQ, no time): no line there.
    assert not Standing.objects.filter(rider=quintana, classification="general").exists()
    # The points and mountains files list him without a rank (0 points): stored as written,
    # unranked, never with a place.
    assert set(
        Standing.objects.filter(rider=quintana).values_list("classification", "rank", "value")
    ) == {("points", None, 0), ("mountains", None, 0)}
    # He keeps his road place in one classification (a gap in the ranks) and loses it in
    # another (the next riders move up): both are imported as written.
    points = Standing.objects.filter(stage__race__year=2022, classification="points")
    ranks = set(points.values_list("rank", flat=True))
    assert 106 not in ranks
    assert {105, 107} <= ranks
    assert any("Quintana Nairo not classified (dsq)" in str(note) for note in tour.notes)


def test_spellings_of_one_rider_in_the_files_of_a_race_are_one_rider(tour):
    # "Vingegaard Jonas" (gc, results), "VINGEGAARD Jonas" (winners, no team), "Jonas
    # Vingegaard" (2023 start list); "POGAČAR Tadej", "Pogačar Tadej", "TADEJ POGACAR".
    assert Rider.objects.filter(name_key="jonas vingegaard").count() == 1
    pogacar = Rider.objects.get(name="Tadej Pogačar")
    assert pogacar.standings.filter(classification="general").count() == 2
    assert pogacar.race_entries.count() == 2
    assert pogacar.nationality == "SLO"
    assert pogacar.team.name == "UAE Emirates"
    assert pogacar.team.year == 2023


def test_teams_match_across_spellings_within_a_year(tour):
    # "Alpecin - Deceuninck" (an en dash), "ALPECIN-DECEUNINCK"; "Uno-X", "UNO-X PRO CYCLING TEAM";
    # "Movistar", "MOVISTAR TEAM"; "Uae Team Emirates", "UAE Emirates".
    assert Team.objects.filter(year=2022).count() == 22
    assert Team.objects.filter(year=2023).count() == 22


def test_a_longer_or_misspelt_name_is_a_doubtful_match_never_merged(tour):
    doubt = next(d for d in tour.doubts if d.imported_name == "Jonas Vingegaard Hansen")
    assert (doubt.kind, doubt.candidate_name, doubt.file) == (
        "rider",
        "Jonas Vingegaard",
        "stage_winners.csv",
    )
    match = RiderMatch.objects.get(imported_name="Jonas Vingegaard Hansen")
    assert match.status == "pending"
    assert match.candidate.name == "Jonas Vingegaard"
    assert match.rider.name == "Jonas Vingegaard Hansen"
    names = {(d.imported_name, d.candidate_name) for d in tour.doubts}
    assert ("MATTHEW DINHAM", "Matthew Binham") in names
    assert ("CHRISTOPHER HARPER", "Chris Harper") in names
    assert ("Tom Pidcock", "Thomas Pidcock") in names


def test_nationalities_are_kept_where_the_files_give_them(tour):
    assert Rider.objects.get(name="Jasper Philipsen").nationality == "BEL"
    # The 2023 start list gives none: a rider new in 2023 has none.
    assert Rider.objects.get(name="Jordi Meeus").nationality == ""


def test_a_dry_run_reports_and_writes_nothing(db):
    report = results_import(files=data_files(), dry_run=True)
    assert report.ok
    assert not report.written
    assert report.created["stage results"] == 179
    assert report.outcome().startswith("Would write 1063 valid row(s)")
    assert not Race.objects.exists()
    assert not Rider.objects.exists()
