"""Ratings reviewed at import (issue 31, part 1): every import suggests ratings for the riders it
touched, never changes a rating; an admin approves; a race says how many of its riders are not
reviewed, to the admin and to the organiser."""

from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from races.adapters.base import CyclingAdapter
from races.importing import ImportFile, import_files_read, results_import
from races.models import Race, RaceEntry
from races.services import start_list_review_counts
from riders.models import RATING_AXES, Rider, rider_not_reviewed_q, rider_unrated_q
from riders.profiles import (
    MAX_APPROVED,
    ProfileSuggestion,
    rider_suggestion_apply,
    rider_suggestions_store,
    riders_ratings_approve,
)
from tests.factories import RiderFactory

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "data"
TDF2022 = DATA / "tdf2022"
TDF2023 = DATA / "tdf2023"


def _import(*paths: Path, **options: bool):
    report = results_import(files=import_files_read(paths=list(paths)), **options)
    assert report.ok, report.lines()
    return report


def _pogacar() -> Rider:
    return Rider.objects.get(name_key__contains="pogacar")


def test_an_import_suggests_ratings_for_every_rider_it_touched_and_changes_none():
    report = _import(TDF2022)
    riders = Rider.objects.all()
    assert report.suggested == riders.count() == 176
    assert "Ratings to review" in report.lines()[-2]
    # Every rider has a suggestion or the "too little data" flag, and every rating is still 0.
    assert all(rider.suggested_ratings or rider.profile_flagged for rider in riders)
    assert all(not any(rider.ratings.values()) for rider in riders)
    # The results say it: Vingegaard won the Tour, Pogačar was second.
    assert int(_pogacar().suggested_ratings["climber"]) >= 3
    assert riders.filter(rider_not_reviewed_q()).count() == 176
    assert riders.filter(rider_unrated_q()).count() == 176


def test_the_preview_suggests_nothing():
    report = _import(TDF2022, dry_run=True)
    assert report.suggested == 0
    assert not Rider.objects.exists()


def test_the_command_suggests_too_and_says_where_to_review(capsys):
    call_command("import_results", str(TDF2022))
    assert "Ratings to review" in capsys.readouterr().out
    assert Rider.objects.exclude(suggested_ratings={}).exists()
    assert not any(any(r.ratings.values()) for r in Rider.objects.all())


def test_a_suggestion_reads_every_real_race_of_the_rider_not_only_the_file():
    _import(TDF2022)
    before = dict(_pogacar().suggested_ratings)
    # A start list of another race touches Pogačar again: his 2022 results still count.
    _import(TDF2023 / "riders.csv")
    assert _pogacar().suggested_ratings == before
    newcomer = Rider.objects.get(name="Jordi Meeus")
    assert newcomer.profile_flagged
    assert newcomer.suggested_ratings == {}
    assert newcomer.unrated


def test_approving_one_rider_makes_his_suggestion_his_ratings_and_marks_him_reviewed():
    _import(TDF2022)
    rider = _pogacar()
    changed = rider_suggestion_apply(rider=rider, axes=rider.suggested_ratings)
    rider.refresh_from_db()
    assert changed
    assert rider.ratings == {axis: int(rider.suggested_ratings[axis]) for axis in RATING_AXES}
    assert rider.ratings_reviewed_at is not None
    assert not Rider.objects.filter(rider_not_reviewed_q(), pk=rider.pk).exists()


def test_approving_all_takes_each_riders_whole_suggestion_and_keeps_the_ratings_of_the_rest():
    _import(TDF2022)
    flagged = Rider.objects.filter(profile_flagged=True).first()
    assert flagged is not None
    approved, changed = riders_ratings_approve(riders=Rider.objects.values_list("pk", flat=True))
    assert approved == 176
    assert changed > 0
    assert not Rider.objects.filter(rider_not_reviewed_q()).exists()
    for rider in Rider.objects.exclude(suggested_ratings={}):
        assert rider.ratings == {a: int(rider.suggested_ratings[a]) for a in RATING_AXES}
    flagged.refresh_from_db()
    assert not any(flagged.ratings.values())  # no suggestion: nothing to take


def test_approving_all_is_bounded():
    with pytest.raises(ValueError, match=f"at most {MAX_APPROVED}"):
        riders_ratings_approve(riders=range(1, MAX_APPROVED + 2))


def test_a_reimport_keeps_a_reviewed_rider_reviewed_and_a_new_differing_suggestion_clears_it():
    _import(TDF2022)
    rider = _pogacar()
    rider_suggestion_apply(rider=rider, axes=[])  # reviewed: the admin kept his ratings (0)
    _import(TDF2022)  # the same facts: the same suggestion, asked once
    rider.refresh_from_db()
    assert rider.ratings_reviewed_at is not None
    # New results suggest something else than what he was reviewed with: back in the queue.
    other = {**rider.suggested_ratings, "sprinter": 4}
    rider_suggestions_store(
        suggestions={rider.pk: ProfileSuggestion(ratings=other, enough_data=True)}
    )
    rider.refresh_from_db()
    assert rider.ratings_reviewed_at is None
    assert rider.ratings["sprinter"] == 0  # still a suggestion only


def test_a_race_counts_its_riders_not_reviewed_and_unrated_in_one_query():
    _import(TDF2022)
    _import(TDF2023 / "riders.csv", TDF2023 / "stages.csv")
    tour2022 = Race.objects.get(slug="tour-de-france-2022")
    riders = list(RaceEntry.objects.filter(race=tour2022).values_list("rider_id", flat=True))
    riders_ratings_approve(riders=riders[:100])
    with CaptureQueriesContext(connection) as queries:
        counts = start_list_review_counts(Race.objects.all())
    assert len(queries) == 1
    unrated = Rider.objects.filter(rider_unrated_q(), race_entries__race=tour2022).count()
    assert counts[tour2022.pk] == (76, unrated)
    tour2023 = Race.objects.get(slug="tour-de-france-2023")
    not_reviewed_2023 = (
        RaceEntry.objects.filter(race=tour2023).filter(rider_not_reviewed_q("rider__")).count()
    )
    assert counts[tour2023.pk][0] == not_reviewed_2023 > 0


def test_the_organiser_is_told_how_many_riders_an_admin_must_review_when_he_picks_the_race():
    _import(TDF2022)
    race = Race.objects.get(slug="tour-de-france-2022")
    adapter = CyclingAdapter()
    with CaptureQueriesContext(connection) as queries:
        labels = dict(adapter.league_events())
    assert len(queries) == 1  # the races, their start lists' counts as subqueries
    assert labels[f"race-{race.pk}"] == f"{race} (176 riders not reviewed)"
    riders_ratings_approve(riders=Rider.objects.values_list("pk", flat=True))
    assert dict(adapter.league_events())[f"race-{race.pk}"] == str(race)


def test_the_warning_names_the_count_and_the_admins_queue():
    from races.adapters.formation import review_warning_text

    text = review_warning_text(not_reviewed=12, unrated=3)
    assert text.startswith("12 riders of the start list have ratings no admin has reviewed")
    assert "(3 never rated" in text
    assert "An admin must review them (Riders › Ratings to review)" in text
    assert review_warning_text(not_reviewed=0, unrated=0) == ""


def test_a_factory_rider_is_reviewed_and_an_imported_one_is_not():
    assert RiderFactory().ratings_reviewed_at is not None
    _import(TDF2023 / "riders.csv")
    assert Rider.objects.filter(ratings_reviewed_at__isnull=True).count() == 176


def test_a_refused_import_suggests_nothing_and_valid_rows_only_suggests_for_what_it_wrote():
    text = (TDF2023 / "riders.csv").read_text(encoding="utf-8")
    broken = text.replace("tour-de-france,2023,3,", "tour-de-france,2023,three,", 1)
    files = [ImportFile(name="riders.csv", content=broken.encode())]
    refused = results_import(files=files)
    assert not refused.ok
    assert refused.suggested == 0
    assert not Rider.objects.exists()
    partial = results_import(files=files, valid_rows_only=True)
    assert partial.written
    assert partial.suggested == Rider.objects.count() == 175
