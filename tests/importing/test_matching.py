"""Matching names to riders and teams; doubtful matches wait for the admin's answer."""

import pytest

from races.importing import results_import
from races.importing.matching import (
    loose_team_key,
    name_likeness,
    rider_key,
    rider_match_confirm,
    rider_match_reject,
    team_match_confirm,
)
from races.models import RaceEntry, StageResult, Standing
from riders.models import Rider, RiderMatch, Team, TeamMatch
from tests.importing.files import csv_file, data_files

START = "race,year,bib,rider,team,nationality\n"
STAGES = "race,year,stage,date,start,finish,distance_km,type\ntour-de-test,2024,1,,A,B,150,flat\n"
WINNERS = "race,year,stage,rider,team\n"


def test_name_keys_ignore_accents_case_order_and_letters_nfkd_keeps():
    assert rider_key("POGAČAR Tadej") == rider_key("Tadej Pogacar")
    assert rider_key("Rafał Majka") == rider_key("RAFAL MAJKA")
    assert rider_key("Søren Wærenskjold") == rider_key("Soren Waerenskjold")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Jonas Vingegaard", "JONAS VINGEGAARD HANSEN"),  # a second surname
        ("Chris Harper", "CHRISTOPHER HARPER"),  # a short form
        ("Tom Pidcock", "Thomas Pidcock"),
        ("Nick Schultz", "NICHOLAS SCHULTZ"),
        ("Fred Wright", "ALFRED BROCKWELL WRIGHT"),
        ("Matthew Binham", "MATTHEW DINHAM"),  # a typo
    ],
)
def test_these_names_may_be_one_rider(a, b):
    assert name_likeness(rider_key(a), rider_key(b))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Adam Yates", "Simon Yates"),
        ("Jonas Vingegaard", "Jonas Rutsch"),
        ("Christophe Laporte", "Christopher Harper"),
        ("Pogačar", "Tadej Pogačar"),
    ],
)
def test_these_names_are_other_riders(a, b):
    assert not name_likeness(rider_key(a), rider_key(b))


def test_team_keys_drop_class_suffixes_punctuation_and_filler_words():
    assert loose_team_key("UNO-X PRO CYCLING TEAM") == loose_team_key("Uno-X")
    assert loose_team_key("UAE Team Emirates (WT)") == loose_team_key("UAE Emirates")
    assert loose_team_key("Soudal - Quick Step") == loose_team_key("Soudal Quick-Step")
    assert loose_team_key("Team") == "team"


@pytest.fixture
def harper(db):  # type: ignore[no-untyped-def]
    """Chris Harper on the start list; CHRISTOPHER HARPER wins stage 1 in another file."""
    report = results_import(
        files=[
            csv_file(
                "riders.csv", START + "tour-de-test,2024,1,Chris Harper,Team Jayco AlUla,AUS\n"
            ),
            csv_file("stages.csv", STAGES),
            csv_file(
                "stage_winners.csv",
                WINNERS + "tour-de-test,2024,1,CHRISTOPHER HARPER,TEAM JAYCO ALULA\n",
            ),
        ]
    )
    assert report.ok, report.lines()
    return report


def test_a_doubtful_rider_is_created_apart_and_listed(harper):
    assert [str(doubt) for doubt in harper.doubts] == [
        "stage_winners.csv:2: rider 'CHRISTOPHER HARPER' may be 'Chris Harper' (similar spelling, "
        "same team in 2024): created apart, to confirm in the admin"
    ]
    assert sorted(Rider.objects.values_list("name", flat=True)) == [
        "Chris Harper",
        "Christopher Harper",
    ]
    assert Team.objects.count() == 1  # "TEAM JAYCO ALULA" is the same team


def test_confirming_merges_the_new_rider_and_keeps_the_spelling(harper):
    match = RiderMatch.objects.get()
    kept = rider_match_confirm(match=match)
    assert kept.name == "Chris Harper"
    assert kept.aliases == ["Christopher Harper"]
    assert Rider.objects.count() == 1
    assert StageResult.objects.get().rider == kept
    match.refresh_from_db()
    assert (match.status, match.rider) == ("confirmed", None)
    # The same files again: the alias matches, nothing changes, nothing is asked.
    again = results_import(
        files=[
            csv_file(
                "stage_winners.csv",
                WINNERS + "tour-de-test,2024,1,CHRISTOPHER HARPER,TEAM JAYCO ALULA\n",
            )
        ]
    )
    assert again.ok
    assert not again.changed
    assert again.doubts == []


def test_rejecting_keeps_both_riders_and_the_question_is_not_asked_again(harper):
    rider_match_reject(match=RiderMatch.objects.get())
    assert RiderMatch.objects.get().status == "rejected"
    assert Rider.objects.count() == 2
    again = results_import(
        files=[
            csv_file(
                "stage_winners.csv",
                WINNERS + "tour-de-test,2024,1,CHRISTOPHER HARPER,TEAM JAYCO ALULA\n",
            )
        ]
    )
    assert again.ok
    assert again.doubts == []
    assert not again.changed


def test_a_rider_of_another_team_the_same_year_is_not_a_candidate(db):
    report = results_import(
        files=[
            csv_file(
                "riders.csv",
                START
                + "tour-de-test,2024,1,Chris Harper,Team Jayco AlUla,AUS\n"
                + "tour-de-test,2024,2,CHRISTOPHER HARPER,Cofidis,AUS\n",
            )
        ]
    )
    assert report.ok
    assert report.doubts == []


def test_confirming_keeps_the_existing_riders_line_where_both_have_one(harper):
    stage_result = StageResult.objects.get()
    chris = Rider.objects.get(name="Chris Harper")
    StageResult.objects.create(stage=stage_result.stage, rider=chris, rank=2)
    kept = rider_match_confirm(match=RiderMatch.objects.get())
    assert list(StageResult.objects.values_list("rider_id", "rank")) == [(kept.pk, 2)]


def test_a_doubtful_team_is_created_apart_and_confirming_merges_it(db):
    report = results_import(
        files=[
            csv_file(
                "riders.csv",
                START
                + "tour-de-test,2024,1,Romain Bardet,Team dsm-firmenich PostNL,FRA\n"
                + "tour-de-test,2024,2,Frank van den Broek,DSM-Firmenich,NED\n",
            )
        ]
    )
    assert report.ok
    assert [(d.kind, d.imported_name, d.candidate_name) for d in report.doubts] == [
        ("team", "DSM-Firmenich", "Team dsm-firmenich PostNL")
    ]
    kept = team_match_confirm(match=TeamMatch.objects.get())
    assert Team.objects.count() == 1
    assert kept.aliases == ["DSM-Firmenich"]
    assert set(RaceEntry.objects.values_list("team_id", flat=True)) == {kept.pk}
    assert set(Rider.objects.values_list("team_id", flat=True)) == {kept.pk}


def test_the_real_2023_spellings_merge_once_confirmed(tour):
    vingegaard = Rider.objects.get(name="Jonas Vingegaard")
    for match in RiderMatch.objects.filter(status="pending"):
        rider_match_confirm(match=match)
    assert vingegaard.standings.filter(classification="general", rank=1).count() == 2
    assert (
        StageResult.objects.filter(rider=vingegaard, rank=1).count() == 3
    )  # 2022: 11, 18; 2023: 16
    assert Standing.objects.filter(rider__name="Jonas Vingegaard Hansen").count() == 0
    again = results_import(files=data_files())
    assert again.ok
    assert not again.changed
    assert again.doubts == []
