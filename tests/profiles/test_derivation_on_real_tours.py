"""Derived profiles on the real Tours de France 2022 and 2023: what a cycling fan would accept.

The doubtful matches of the 2023 files (JONAS VINGEGAARD HANSEN...) are confirmed first, as an
admin would, so each rider's results are his.
"""

import pytest
from django.core.management import call_command
from django.urls import reverse

from races.importing.matching import rider_match_confirm
from races.models import Stage, StageResult, Standing
from races.profile_derivation import profiles_derive
from riders.models import Rider, RiderMatch
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def tours(tour):  # type: ignore[no-untyped-def]
    for match in RiderMatch.objects.filter(status="pending"):
        rider_match_confirm(match=match)
    profiles_derive()
    return tour


def _final(year: int, classification: str, rank: int) -> Rider:
    return Standing.objects.get(
        stage__race__year=year, classification=classification, rank=rank, stage__number=21
    ).rider


@pytest.mark.parametrize("year", [2022, 2023])
@pytest.mark.parametrize("rank", [1, 2, 3])
def test_the_gc_podium_are_climbers_of_3_or_more(tours, year, rank):
    rider = _final(year, "general", rank)
    assert rider.suggested_ratings["climber"] >= 3, (rider.name, rider.suggestion_reasons)


def test_the_points_winner_is_a_sprinter_of_3_or_more(tours):
    rider = _final(2022, "points", 1)
    assert rider.name == "Wout Van Aert"
    assert rider.suggested_ratings["sprinter"] >= 3


def test_the_mountains_winner_is_a_climber_of_3_or_more(tours):
    rider = _final(2022, "mountains", 1)
    assert rider.name == "Jonas Vingegaard"
    assert rider.suggested_ratings["climber"] >= 3


def test_the_time_trial_winners_are_time_trialists_of_3_or_more(tours):
    winners = StageResult.objects.filter(stage__stage_type=Stage.StageType.ITT, rank=1)
    assert sorted(winners.values_list("rider__name", flat=True)) == [
        "Jonas Vingegaard",
        "Wout Van Aert",
        "Yves Lampaert",
    ]
    for result in winners.select_related("rider"):
        assert result.rider.suggested_ratings["time_trialist"] >= 3, result.rider.name


def test_sprinters_are_sprinters_and_poor_climbers(tours):
    philipsen = Rider.objects.get(name="Jasper Philipsen")
    assert philipsen.suggested_ratings["sprinter"] == 4  # four flat stages in two Tours
    jakobsen = Rider.objects.get(name="Fabio Jakobsen")
    assert jakobsen.suggested_ratings["sprinter"] >= 3
    assert jakobsen.suggested_ratings["climber"] == -1  # near the end of the GC
    assert "last quarter" in jakobsen.suggestion_reasons["climber"]


def test_a_rider_with_too_little_data_keeps_his_ratings_and_is_flagged(tours):
    # On the 2023 start list, abandoned before Paris, not in the 2022 Tour.
    rider = Rider.objects.get(name="Mark Cavendish")
    assert rider.profile_flagged
    assert rider.suggested_ratings == {}
    assert rider.climber == 0


def test_suggestions_are_kept_beside_the_ratings_until_applied(tours):
    vingegaard = Rider.objects.get(name="Jonas Vingegaard")
    assert vingegaard.climber == 0
    assert vingegaard.suggested_ratings["climber"] == 4
    call_command("derive_profiles", "--apply")
    vingegaard.refresh_from_db()
    assert vingegaard.climber == 4
    assert vingegaard.ratings == vingegaard.suggested_ratings


def test_the_command_can_take_one_race(tours, capsys):
    call_command("derive_profiles", "--race", "Tour de France", "--year", "2023")
    out = capsys.readouterr().out
    assert "Races: tour-de-france-2023" in out
    assert "rider(s):" in out


def test_the_admin_action_suggests_and_the_review_applies_only_the_approved_axes(client, tours):
    client.force_login(UserFactory(username="admin", is_staff=True, is_superuser=True))
    race_ids = list(Stage.objects.values_list("race_id", flat=True).distinct())
    response = client.post(
        reverse("admin:races_race_changelist"),
        {"action": "derive_profiles", "_selected_action": race_ids},
    )
    assert response.status_code == 302
    vingegaard = Rider.objects.get(name="Jonas Vingegaard")
    listing = client.get(reverse("admin:riders_rider_changelist") + "?q=Vingegaard")
    assert "climber 0→4" in listing.content.decode()
    review = client.post(
        reverse("admin:riders_rider_changelist"),
        {"action": "review_suggestions", "_selected_action": [vingegaard.pk]},
    )
    assert review.status_code == 200
    assert f'name="axes_{vingegaard.pk}" value="climber"' in review.content.decode()
    client.post(
        reverse("admin:riders_rider_changelist"),
        {
            "action": "review_suggestions",
            "_selected_action": [vingegaard.pk],
            "apply": "1",
            f"axes_{vingegaard.pk}": ["climber"],
        },
    )
    vingegaard.refresh_from_db()
    assert vingegaard.climber == 4
    assert vingegaard.time_trialist == 0  # suggested 4, not approved


def test_the_change_form_shows_the_suggestion_beside_the_ratings(client, tours):
    client.force_login(UserFactory(username="admin", is_staff=True, is_superuser=True))
    rider = Rider.objects.get(name="Jonas Vingegaard")
    html = client.get(reverse("admin:riders_rider_change", args=[rider.pk])).content.decode()
    assert "<th>climber</th><td>0</td><td>4</td><td>GC 1st of" in html
