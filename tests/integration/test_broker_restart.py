"""A worker outlives its broker's restart (issue 28, case 4 "A Redis blip"): a Redis server of
this test's own is killed while a real worker process resolves a stage, then started again on
the same port; the worker is still there, the stage it was resolving is resolved, and it runs
the next task sent. The worker is started as the README says (prefork, no gossip)."""

import os
import shutil
import uuid

import pytest
import redis
from django.db import connection

from config.celery import app as celery_app
from config.worker_command import NO_CHATTER
from season.demo import demo_load
from season.models import Job, Round
from season.services import jobs
from tests.integration.processes import Processes, database_url, free_port, stop, wait_for

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
]


class OwnRedis:
    """A redis-server of the test's own, on one port, that the test kills and starts again."""

    def __init__(self, processes: Processes) -> None:
        self.processes = processes
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None
        self.starts = 0

    def answers(self) -> bool:
        try:
            return bool(redis.Redis(port=self.port, socket_timeout=1).ping())
        except (OSError, redis.exceptions.ConnectionError):
            return False

    def start(self) -> None:
        self.starts += 1
        self.process, self.log = self.processes.start(
            f"redis-{self.starts}",
            "redis-server",
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        )
        wait_for(self.answers, 20, "redis-server to answer", self.log)

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()  # a crash, not a shutdown
        self.process.wait(timeout=10)


@pytest.fixture
def blip(tmp_path):
    if not shutil.which("redis-server"):
        pytest.skip("needs redis-server on the PATH")
    queue = f"test-blip-{uuid.uuid4().hex[:8]}"
    processes = Processes(
        {
            **{k: v for k, v in os.environ.items() if not k.startswith("PYTEST")},
            "DATABASE_URL": database_url(connection),
            "CELERY_QUEUE": queue,
        },
        tmp_path,
    )
    own = OwnRedis(processes)
    processes.env["REDIS_URL"] = own.url
    own.start()
    # This process sends its tasks to that Redis too (sent, not run eagerly).
    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.broker_url, conf.task_default_queue, celery_app._pool)
    conf.task_always_eager = False
    conf.broker_url = own.url
    conf.task_default_queue = queue
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    yield processes, own
    processes.stop()
    if celery_app._pool is not None:
        celery_app._pool.force_close_all()
    conf.task_always_eager, conf.broker_url, conf.task_default_queue, celery_app._pool = saved
    celery_app.amqp._producer_pool = None


def status_of(number: int) -> str:
    return Round.objects.values_list("status", flat=True).get(season__slug="demo", number=number)


def job_of(number: int) -> Job:
    return Job.objects.filter(round__season__slug="demo", round__number=number).first()


def test_a_worker_outlives_a_redis_restart_with_a_task_in_flight(blip):
    processes, own = blip
    season = demo_load()
    worker, log = processes.celery(
        "worker",
        "worker",
        "--concurrency=1",
        *NO_CHATTER,
        f"--hostname=blip-{uuid.uuid4().hex[:6]}@%h",
        STAGE_RESOLVE_PAUSE_BEFORE_COMMIT="6",
    )
    wait_for(lambda: " ready." in log.read_text(), 60, "the worker to start", log)

    jobs.round_resolve_request(round=season.rounds.get(number=1))
    # Progress 60: the worker is writing the results (and pauses before their commit).
    wait_for(lambda: job_of(1).progress == 60, 60, "the worker to start writing", log)
    own.kill()
    wait_for(lambda: "Connection to broker lost" in log.read_text(), 30, "the loss seen", log)
    own.start()  # the same port, empty (no persistence): as after a crash
    wait_for(lambda: log.read_text().count("Connected to redis") >= 2, 90, "a reconnect", log)
    wait_for(lambda: status_of(1) == "resolved", 60, "stage 1 resolved", log)
    assert job_of(1).status == "done"
    assert worker.poll() is None, log.read_text()[-3000:]

    # The next stage goes through the restarted Redis to the same worker.
    jobs.round_resolve_request(round=season.rounds.get(number=2))
    wait_for(lambda: status_of(2) == "resolved", 90, "stage 2 resolved after the restart", log)
    assert job_of(2).status == "done"
    assert worker.poll() is None
    assert "Unrecoverable error" not in log.read_text()
    stop(worker)
