"""The draft's pick clock with the real processes (issue 17): Celery beat's check and the workers
make the automatic pick of the team whose time ran out, once, with two beats and two workers on
PostgreSQL and Redis (the season's row lock serialises them)."""

import os
import random
import time
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from config.celery import app as celery_app
from season import formation
from season.models import DraftPick, Season
from tests.factories import UserFactory
from tests.integration.processes import Processes, database_url, log_trouble, wait_for
from tests.season.builders import joined, league

FAST_CHECKS = {"DRAFT_CLOCK_CHECK_SECONDS": "1", "STAGE_DEADLINE_CHECK_SECONDS": "60"}


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_two_beats_and_two_workers_make_one_automatic_pick_when_the_clock_runs_out(tmp_path):
    alice, bob, olivia = (UserFactory(username=name) for name in ("alice", "bob", "olivia"))
    season = league(organiser=olivia, roster_size=2, max_per_real_team=1)
    first_team, _ = joined(season, alice, bob)
    formation.draft_start(season=season, rng=random.Random(1))
    # One minute a pick, of which 50 seconds have gone: the clock runs out in about ten.
    Season.objects.filter(pk=season.pk).update(
        draft_pick_minutes=1, draft_started_at=timezone.now() - timedelta(seconds=50)
    )
    on_turn = formation.draft_status(season=Season.objects.get(pk=season.pk)).on_turn
    queue = f"draft-{uuid.uuid4().hex[:8]}"
    deployment = Processes(
        {**os.environ, "DATABASE_URL": database_url(connection), "CELERY_QUEUE": queue}, tmp_path
    )
    _, worker_1 = deployment.worker("worker-1")
    _, worker_2 = deployment.worker("worker-2")
    _, beat_1 = deployment.celery("beat-1", "beat", **FAST_CHECKS)
    # The second beat starts once the first has written the schedule: two beats creating the
    # same periodic task at one instant is a race of django-celery-beat's setup (one logs
    # "already exists"), not what this test looks at.
    wait_for(
        lambda: PeriodicTask.objects.filter(name="expire-draft-clocks").exists(),
        120,
        "the first beat's schedule",
        beat_1,
    )
    _, beat_2 = deployment.celery("beat-2", "beat", **FAST_CHECKS)
    logs = (worker_1, worker_2, beat_1, beat_2)
    try:
        assert not DraftPick.objects.filter(season=season).exists()
        wait_for(
            lambda: DraftPick.objects.filter(season=season).exists(),
            120,
            "the clock's automatic pick",
            *logs,
        )
        time.sleep(5)  # the checks that follow, from both beats, find nothing due
    finally:
        deployment.stop()
        with celery_app.connection_for_write() as broker:
            broker.default_channel.queue_delete(queue)
    pick = DraftPick.objects.get(season=season)
    assert (pick.number, pick.team_id, pick.source, pick.picked_by) == (
        1,
        on_turn.pk,
        "clock",
        None,
    )
    assert first_team.season_id == season.pk
    assert "Sending due task expire-draft-clocks" in beat_1.read_text() + beat_2.read_text()
    assert log_trouble(*logs) == []
