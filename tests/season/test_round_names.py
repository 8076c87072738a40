"""A motor league never reads "stage" (issue 27): the messages both disciplines meet name the
round as its season calls it, "stage 3" or "round 3", in English and in French."""

import pytest
from django.utils import translation

from season.demo import demo_load
from season.leagues import orders_window
from season.models import Round
from season.round_names import round_name, round_name_start
from season.services import lifecycle
from tests.season.motor_builders import motor_league

pytestmark = pytest.mark.django_db


def test_a_round_is_a_stage_in_a_stage_race_and_a_round_in_a_championship(alice):
    stage_race = demo_load()
    championship = motor_league(organiser=alice)
    assert round_name(stage_race, 3) == "stage 3"
    assert round_name(championship, 3) == "round 3"
    assert round_name_start(championship, 3) == "Round 3"
    with translation.override("fr"):
        assert round_name_start(stage_race, 3) == "L'étape 3"
        assert round_name(championship, 3) == "la manche 3"


def test_a_championships_refusals_say_round(alice):
    season = motor_league(organiser=alice)
    second = season.rounds.get(number=2)
    assert orders_window(season=season).reason == "Orders for round 1 are not open yet."
    with pytest.raises(lifecycle.RoundError, match=r"^Round 2 is not open: it cannot be locked"):
        lifecycle.round_lock(round=second)
    with pytest.raises(lifecycle.RoundError, match=r"^Season f1-friends has no round 9"):
        lifecycle.rounds_force_lock(season=season, numbers=[9])
    with translation.override("fr"):
        assert orders_window(season=season).reason == (
            "Les ordres de la manche 1 ne sont pas encore ouverts."
        )


def test_a_championship_that_is_over_says_so(alice):
    season = motor_league(organiser=alice)
    Round.objects.filter(season=season).update(status=Round.Status.PUBLISHED)
    assert orders_window(season=season).reason == (
        "The championship is over: every round has been resolved."
    )


def test_a_stage_race_still_says_stage():
    season = demo_load()
    second = season.rounds.get(number=2)
    with pytest.raises(lifecycle.RoundError, match=r"^Stage 2 is not open: it cannot be locked"):
        lifecycle.round_lock(round=second)
