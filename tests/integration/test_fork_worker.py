"""Issue 31's "Done when" for a real race forked at a stage, end to end on PostgreSQL with a
real Celery worker process and Redis: a league forked after stage 10 of the Tour de France 2022
(tests/data/fork, imported through the import) has, before stage 11, the real general
classification after stage 10 (riders, order, gaps) and the real jerseys; the worker resolves
its stage 11 (season.services.jobs -> season.tasks -> season.services.resolution) from that
state, and the stage replays identically (season.replay, the verify page's check)."""

import pytest

from races.league.jerseys import jersey_holders
from races.models import Classification, StageResult, Standing
from season import formation
from season.models import DiceLog, Round, Season
from season.replay import stage_replay
from season.services import jobs
from tests.integration.test_worker import status_of, wait_for, workers  # noqa: F401 (fixture)
from tests.season.builders import joined, stage
from tests.season.test_fork import ROSTER, forked, real_general, tour2022  # noqa: F401

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
]


def general_lines(race, number):
    return list(
        Standing.objects.filter(
            stage__race=race, stage__number=number, classification=Classification.GENERAL
        )
        .order_by("rank")
        .values_list("rider_id", "value", "gap")
    )


def test_a_worker_resolves_stage_11_of_a_tour_forked_after_stage_10(
    tour2022,  # noqa: F811
    alice,
    bob,
    workers,  # noqa: F811
):
    season = forked(alice, tour2022, formation_mode=Season.FormationMode.DRAFT)
    copy = season.event

    # Before stage 11: the real GC after stage 10 (riders, order, gaps) and the real jerseys.
    real = general_lines(tour2022, 10)
    assert general_lines(copy, 10) == real
    assert [gap for _, _, gap in real] == [value - real[0][1] for _, value, _ in real]
    real_jerseys = [
        (j.classification, j.rider_id)
        for j in jersey_holders(race_id=tour2022.pk, number=10, team_names=dict)
        if j.classification != Classification.TEAMS
    ]
    assert [
        (j.classification, j.rider_id)
        for j in jersey_holders(race_id=copy.pk, number=10, team_names=dict)
        if j.classification != Classification.TEAMS
    ] == real_jerseys
    assert len(real_jerseys) == 4

    joined(season, alice, bob)
    formation.draft_start(season=season)
    for _pick in range(2 * ROSTER):
        formation.draft_autopick(season=season, user=alice)
    first = stage(season, 1)
    assert (first.status, first.stage.number) == (Round.Status.OPEN, 11)

    workers.start()
    job = jobs.round_resolve_request(round=first)
    wait_for(lambda: status_of(first) == "resolved", 120, "the worker to resolve stage 11")
    job.refresh_from_db()
    assert (job.status, job.progress) == ("done", 100)
    resolved = Round.objects.select_related("season", "stage").get(pk=first.pk)

    # Every rider still in the race started from his real GC time and rank after stage 10 ...
    entrants = {e["rider_id"]: e for e in resolved.engine_inputs["entrants"]}
    assert set(entrants) == {rider for rider, _, _ in real}
    for rank, (rider, value, _) in enumerate(real, start=1):
        assert (entrants[rider]["gc_rank_before"], entrants[rider]["gc_time_before"]) == (
            rank,
            value,
        )
    # ... and his GC after stage 11 is that time plus his stage 11.
    results = {r.rider_id: r for r in StageResult.objects.filter(stage=resolved.stage)}
    before = {rider: value for rider, value, _ in real}
    after = general_lines(copy, 11)
    assert after
    for rider, value, _ in after:
        result = results[rider]
        assert value == before[rider] + result.time_seconds - result.bonus_seconds
    assert DiceLog.objects.filter(round=resolved).count() == 1
    assert stage_replay(round=resolved) == []
