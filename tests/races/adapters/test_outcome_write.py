"""The cycling adapter writes a stage's outcome: a rider out of the race keeps the engine's
reason (an abandon roll's criterion, a crash), or the time cut's."""

import pytest

from engine.cycling.outcome import ABANDONED, CRASHED_OUT, FINISHED, Outcome, RiderResult
from engine.outcome import DiceLog
from plugins import cycling_adapter
from races.models import StageResult
from races.timing import TimedLine
from tests.factories import RiderFactory, StageFactory

pytestmark = pytest.mark.django_db


def test_a_rider_out_of_the_race_keeps_the_engines_reason():
    stage = StageFactory(number=1)
    winner, dropped, fallen = (RiderFactory() for _ in range(3))
    statuses = [
        (winner, FINISHED, None),
        (dropped, ABANDONED, "last on GC"),
        (fallen, CRASHED_OUT, "worst crash of the stage"),
    ]
    outcome = Outcome(
        ruleset="moreno",
        seed=1,
        results=tuple(
            RiderResult(rider.pk, rank, 0, 0, 0, status, (), 0, reason)
            for rank, (rider, status, reason) in enumerate(statuses, start=1)
        ),
        events=(),
        dice=DiceLog(()),
        turns=1,
        n_cases=10,
    )
    timed = [
        TimedLine(rider.pk, rank, 100, 0, 0, status, "")
        for rank, (rider, status, _) in enumerate(statuses, start=1)
    ]
    cycling_adapter("moreno").outcome_write(
        stage=stage, outcome=outcome, timed=timed, team_of={r.pk: 1 for r, _, _ in statuses}
    )
    stored = dict(StageResult.objects.values_list("rider_id", "status_reason"))
    assert stored == {
        winner.pk: "",
        dropped.pk: "last on GC",
        fallen.pk: "worst crash of the stage",
    }
