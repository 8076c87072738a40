import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from engine.cycling.profile import PROFILE_AXES
from riders.models import RATING_AXES, Rating, Rider
from riders.names import name_key, team_key
from tests.factories import RiderFactory, TeamFactory


def test_name_key_matches_surname_first_and_accents():
    assert name_key("POGAČAR Tadej") == name_key("Tadej Pogacar")
    assert name_key("Vingegaard Jonas") == name_key("Jonas Vingegaard")
    assert name_key("Jonas Vingegaard") != name_key("Jonas Vingegaard Hansen")


def test_team_key_ignores_punctuation_case_and_class_suffix():
    assert team_key("Soudal - Quick Step") == team_key("Soudal Quick-Step")
    assert team_key("UAE Team Emirates (WT)") == team_key("UAE Team Emirates")


def test_rating_parses_h_and_digits_and_refuses_others():
    assert Rating.parse("H") == Rating.H == -1
    assert Rating.parse(" 4 ") == 4
    with pytest.raises(ValueError, match="'5' is not a rating"):
        Rating.parse("5")


@pytest.mark.django_db
def test_rider_keeps_a_normalised_name_key():
    rider = RiderFactory(name="Tadej Pogačar")
    assert rider.name_key == "pogacar tadej"


@pytest.mark.django_db
def test_a_rating_of_5_is_refused_by_validation_with_a_clear_message():
    rider = RiderFactory.build(team=TeamFactory(), climber=5)
    with pytest.raises(ValidationError) as error:
        rider.full_clean()
    assert "5 is not a rating: ratings go from H (handicap) to 4 (mythical)." in str(
        error.value.message_dict
    )


@pytest.mark.django_db
def test_the_database_refuses_a_rating_out_of_range():
    rider = RiderFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Rider.objects.filter(pk=rider.pk).update(sprinter=5)
    rider.refresh_from_db()
    assert rider.sprinter == 0


@pytest.mark.django_db
def test_two_riders_cannot_share_a_procyclingstats_id():
    RiderFactory(pcs_slug="jonas-vingegaard")
    with pytest.raises(IntegrityError), transaction.atomic():
        RiderFactory(pcs_slug="jonas-vingegaard")


def test_the_riders_axes_are_the_engines_profile_axes():
    # Each side of the engine boundary names the eight axes; they must stay the same list.
    assert RATING_AXES == PROFILE_AXES
