"""Who wears which jersey: one jersey a rider, the most important first; the next rider of a
classification wears the jersey its leader cannot (docs/classifications.md)."""

import pytest

from races.league.jerseys import jersey_holders
from races.models import Classification, Standing
from tests.factories import RiderFactory, StageFactory

pytestmark = pytest.mark.django_db


def _standings(stage, **orders):
    for classification, riders in orders.items():
        for rank, rider in enumerate(riders, start=1):
            Standing.objects.create(
                stage=stage, classification=classification, rank=rank, rider=rider, value=rank
            )


def _worn(stage, **options):
    return {
        j.classification: (j.name, j.leader_name)
        for j in jersey_holders(
            race_id=stage.race_id, number=stage.number, team_names=dict, **options
        )
    }


def test_a_rider_leading_everything_wears_yellow_and_the_next_ones_the_rest():
    stage = StageFactory(number=1)
    tadej, jonas, remco, juan = (RiderFactory(name=n) for n in ("Tadej", "Jonas", "Remco", "Juan"))
    _standings(
        stage,
        general=[tadej, jonas, remco],
        points=[tadej, jonas, juan],
        mountains=[tadej, remco, jonas],
        youth=[tadej, remco, juan],
    )
    assert _worn(stage) == {
        Classification.GENERAL: ("Tadej", ""),
        Classification.POINTS: ("Jonas", "Tadej"),
        Classification.MOUNTAINS: ("Remco", "Tadej"),
        # Remco, second, wears polka dot already: the third wears white.
        Classification.YOUTH: ("Juan", "Tadej"),
    }


def test_the_final_podium_gives_each_winner_his_jersey():
    stage = StageFactory(number=1)
    tadej, jonas = RiderFactory(name="Tadej"), RiderFactory(name="Jonas")
    _standings(stage, general=[tadej, jonas], points=[tadej, jonas])
    assert _worn(stage, worn=False) == {
        Classification.GENERAL: ("Tadej", ""),
        Classification.POINTS: ("Tadej", ""),
    }


def test_a_classification_of_one_leader_keeps_his_name_on_its_jersey():
    stage = StageFactory(number=1)
    tadej = RiderFactory(name="Tadej")
    _standings(stage, general=[tadej], points=[tadej])
    assert _worn(stage)[Classification.POINTS] == ("Tadej", "")
