"""A Grand Prix round keeps its dice log as a stage does (season.DiceLog): every throw, pit
throw, tie throw and card of qualifying and race, counted and hashed; the replay compares it."""

import pytest

from season.models import DiceLog
from season.replay import stage_replay
from tests.season.motor_builders import joined, motor_league, round_resolved, two_cars_each

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["grandprix", "ludicitude"])
def test_a_motor_round_keeps_its_dice_log(alice, bob, ruleset):
    season = motor_league(organiser=alice, ruleset=ruleset, points_system=ruleset)
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    resolved = round_resolved(season)
    log = DiceLog.objects.get(round=resolved)
    assert (log.seed, log.ruleset) == (resolved.seed, ruleset)
    assert log.count == len(log.rolls) > 12
    assert len(log.sha256) == 64
    kinds = {row[3] for row in log.rolls}
    cars = {row[2] for row in log.rolls if row[2] is not None}
    # Every car of the grid threw dice.
    assert cars == {str(c) for c in season.seats.values_list("number", flat=True)}
    if ruleset == "grandprix":
        assert {"throw", "pit"} <= kinds
        assert {row[0] for row in log.rolls} == {"qualifying", "race"}
    else:
        assert kinds == {"order", "speed"}
    assert stage_replay(round=resolved) == []


def test_a_changed_dice_log_is_reported_by_the_replay(alice, bob):
    season = motor_league(organiser=alice)
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    resolved = round_resolved(season)
    DiceLog.objects.filter(round=resolved).update(sha256="0" * 64)
    differences = stage_replay(round=resolved)
    assert len(differences) == 1
    assert differences[0].startswith("dice log: stored")
    assert "000000000000" in differences[0]
