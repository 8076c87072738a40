"""The league runs itself: a real Celery beat and a real worker resolve a stage whose deadline
passes, in both layouts the README names (issue 11).

1. The embedded default, as `make run` starts it: scripts/run_local.py (web, worker, beat) on a
   SQLite file and the filesystem broker, in a temporary folder of this test's own.
2. PostgreSQL and Redis with a separate worker and beat process (markers; CI runs it).

Beat checks the deadlines every STAGE_DEADLINE_CHECK_SECONDS (5 in production, 1 here).
"""

import os
import sys
import time
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from config.celery import app as celery_app
from races.models import StageResult
from season.demo import demo_load
from season.models import Job, Round
from tests.integration.processes import (
    Embedded,
    Processes,
    database_url,
    free_port,
    log_trouble,
    wait_for,
)

FAST_CHECKS = {"STAGE_DEADLINE_CHECK_SECONDS": "1"}


def test_make_run_resolves_a_stage_when_its_deadline_passes(tmp_path):
    """SQLite file + filesystem broker, started as `make run` does (no server of any kind)."""
    embedded = Embedded(tmp_path)
    embedded.set_up_demo()
    embedded.manage(
        "shell",
        "-c",
        "from datetime import timedelta; from django.utils import timezone; "
        "from season.models import Round; "
        "Round.objects.filter(season__slug='demo', number=1)"
        ".update(orders_deadline=timezone.now() + timedelta(seconds=8))",
    )
    _, terminal = embedded.start(
        "make-run", sys.executable, "scripts/run_local.py", PORT=str(free_port()), **FAST_CHECKS
    )
    try:
        assert embedded.stage(1)[0] == "open"
        wait_for(lambda: "beat: Starting" in terminal.read_text(), 60, "beat", terminal)
        wait_for(lambda: embedded.stage(1)[0] == "resolved", 120, "the resolution", terminal)
        time.sleep(2)  # a later deadline check must not complain either
    finally:
        embedded.stop()
    assert embedded.stage(1) == ("resolved", 1, 176)
    assert embedded.jobs(1) == [("done", 100, None)]  # queued by beat, not by a person
    assert embedded.stage(2)[0] == "open"
    assert "Sending due task lock-due-stages" in terminal.read_text()
    assert log_trouble(terminal) == []


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_beat_and_a_worker_on_redis_and_postgres_resolve_a_stage_at_its_deadline(tmp_path):
    season = demo_load()
    stage_1 = season.rounds.get(number=1)
    Round.objects.filter(pk=stage_1.pk).update(
        orders_deadline=timezone.now() + timedelta(seconds=8)
    )
    queue = f"beat-{uuid.uuid4().hex[:8]}"
    deployment = Processes(
        {**os.environ, "DATABASE_URL": database_url(connection), "CELERY_QUEUE": queue}, tmp_path
    )
    _, worker = deployment.worker("worker")
    _, beat = deployment.celery("beat", "beat", **FAST_CHECKS)
    try:
        assert Round.objects.get(pk=stage_1.pk).status == "open"
        wait_for(
            lambda: Round.objects.get(pk=stage_1.pk).status == "resolved",
            120,
            "beat and the worker to resolve stage 1",
            worker,
            beat,
        )
        time.sleep(2)  # a later deadline check must not complain either
    finally:
        deployment.stop()
        with celery_app.connection_for_write() as broker:
            broker.default_channel.queue_delete(queue)
    resolved = Round.objects.get(pk=stage_1.pk)
    assert resolved.attempts == 1
    assert resolved.resolved_at > resolved.orders_deadline
    assert StageResult.objects.filter(stage=resolved.stage).count() == 176
    job = Job.objects.get(round=resolved)
    assert (job.status, job.progress, job.requested_by) == ("done", 100, None)
    assert Round.objects.get(season=season, number=2).status == "open"
    assert "Sending due task lock-due-stages" in beat.read_text()
    assert log_trouble(worker, beat) == []
