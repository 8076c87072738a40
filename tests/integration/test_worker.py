"""A real Celery worker process against real Redis and PostgreSQL resolves stages exactly once."""

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection, connections

from config.celery import app as celery_app
from config.worker_command import worker_command
from races.models import StageResult
from season.demo import demo_load
from season.models import DiceLog, Round
from season.replay import stage_replay
from season.services import jobs, lifecycle, resolution
from tests.integration.processes import wait_for

ROOT = Path(__file__).resolve().parents[2]
VISIBILITY_TIMEOUT = 3

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
]


def _database_url() -> str:
    db = connection.settings_dict
    host = db["HOST"] or "127.0.0.1"
    port = db["PORT"] or 5432
    user = db["USER"] or "postgres"
    return f"postgres://{user}@{host}:{port}/{db['NAME']}"


class Workers:
    """Starts worker processes on a queue of this test's own, and stops them."""

    def __init__(self, queue: str) -> None:
        self.queue = queue
        self.processes: list[subprocess.Popen[bytes]] = []
        self.logs: list[Path] = []

    def start(self, **extra_env: str) -> subprocess.Popen[bytes]:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": _database_url(),
            "CELERY_QUEUE": self.queue,
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
            "CELERY_UNACKED_RESTORE_INTERVAL": "1",
            "CELERY_UNACKED_RESTORE_THROTTLE": "1",
            **extra_env,
        }
        log = ROOT / "test-artifacts" / f"worker-{self.queue}-{len(self.logs)}.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        process = subprocess.Popen(
            worker_command(
                sys.executable,
                queues=self.queue,
                hostname=f"{self.queue}-{len(self.logs)}@%h",
                concurrency=1,
                pool="solo",
            ),
            cwd=ROOT,
            env=env,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
        )
        self.processes.append(process)
        self.logs.append(log)
        return process

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture
def workers(settings):
    queue = f"test-{uuid.uuid4().hex[:8]}"
    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.task_default_queue, dict(conf.broker_transport_options))
    conf.task_always_eager = False
    conf.task_default_queue = queue
    conf.broker_transport_options = {**saved[2], "visibility_timeout": VISIBILITY_TIMEOUT}
    pool = Workers(queue)
    yield pool
    pool.stop()
    conf.task_always_eager, conf.task_default_queue, conf.broker_transport_options = saved
    with celery_app.connection_for_write() as broker:
        broker.default_channel.queue_delete(queue)


def status_of(round: Round) -> str:
    return Round.objects.values_list("status", flat=True).get(pk=round.pk)


def test_a_worker_process_resolves_a_stage(workers):
    season = demo_load()
    stage_1 = season.rounds.get(number=1)
    workers.start()
    job = jobs.round_resolve_request(round=stage_1)
    wait_for(lambda: status_of(stage_1) == "resolved", 60, "the worker to resolve stage 1")
    assert StageResult.objects.filter(stage=stage_1.stage).count() == 176
    job.refresh_from_db()
    assert (job.status, job.progress) == ("done", 100)
    assert job.worker.startswith(f"{workers.queue}-0@")  # the --hostname of the worker


def test_a_worker_killed_mid_resolution_leaves_nothing_and_the_stage_resolves_once(workers):
    season = demo_load()
    stage_1 = season.rounds.get(number=1)
    slow = workers.start(STAGE_RESOLVE_PAUSE_BEFORE_COMMIT="30")
    job = jobs.round_resolve_request(round=stage_1)
    # Progress 60 is set just before the results are written in the last transaction.
    wait_for(
        lambda: type(job).objects.get(pk=job.pk).progress == 60, 60, "the worker to start writing"
    )
    time.sleep(1.5)
    slow.send_signal(signal.SIGKILL)
    slow.wait(timeout=10)

    assert status_of(stage_1) == "resolving"
    assert StageResult.objects.filter(stage=stage_1.stage).count() == 0
    assert not DiceLog.objects.filter(round=stage_1).exists()

    workers.start()  # the task was never acknowledged: Redis hands it to this one
    wait_for(lambda: status_of(stage_1) == "resolved", 90, "the redelivered task")
    resolved = Round.objects.select_related("season", "stage").get(pk=stage_1.pk)
    assert resolved.attempts == 2
    assert StageResult.objects.filter(stage=stage_1.stage).count() == 176
    assert DiceLog.objects.filter(round=stage_1).count() == 1
    assert stage_replay(round=resolved) == []


def test_two_concurrent_resolutions_give_one_set_of_results():
    season = demo_load()
    stage_1 = season.rounds.get(number=1)
    lifecycle.round_lock(round=stage_1)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def resolve() -> None:
        try:
            barrier.wait(10)
            resolution.round_resolve(round_id=stage_1.pk)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=resolve) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert StageResult.objects.filter(stage=stage_1.stage).count() == 176
    assert DiceLog.objects.filter(round=stage_1).count() == 1
    assert status_of(stage_1) == "resolved"


def test_simulate_season_goes_through_the_workers_and_every_stage_replays(workers, capsys):
    season = demo_load()
    workers.start()
    call_command("simulate_season", "demo", "--stages", "1-4", "--timeout", "120")
    out = capsys.readouterr().out
    assert "(workers)" in out
    assert "General classification after stage 4:" in out
    for round in season.rounds.filter(number__lte=4).select_related("season", "stage"):
        assert round.status == "resolved"
        assert stage_replay(round=round) == []
