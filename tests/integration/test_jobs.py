"""No job shown as running forever, with the real parts (issue 11): two organisers pressing
"Resolve now" at once on PostgreSQL, and a worker killed mid-stage on the embedded default,
where no broker redelivers its task (the filesystem broker has no visibility timeout)."""

import signal
import threading
import uuid

import pytest
from django.db import connections

from config.celery import app as celery_app
from season.demo import demo_load
from season.models import Job
from season.services import jobs
from tests.integration.processes import Embedded, log_trouble, wait_for


@pytest.fixture
def own_queue():
    """Tasks are sent to real Redis, on a queue of this test's own that no worker reads."""
    queue = f"test-{uuid.uuid4().hex[:8]}"
    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.task_default_queue)
    conf.task_always_eager = False
    conf.task_default_queue = queue
    yield queue
    conf.task_always_eager, conf.task_default_queue = saved
    with celery_app.connection_for_write() as broker:
        broker.default_channel.queue_delete(queue)


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_resolve_now_make_one_job_and_send_one_task(own_queue):
    season = demo_load()
    stage_1 = season.rounds.get(number=1)
    barrier = threading.Barrier(2)
    requested: list[Job] = []
    errors: list[BaseException] = []

    def press_resolve_now() -> None:
        try:
            barrier.wait(10)
            requested.append(jobs.round_resolve_request(round=stage_1))
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=press_resolve_now) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert [job.pk for job in requested] == [
        requested[0].pk
    ] * 2  # the second attached to the first
    assert Job.objects.filter(round=stage_1).count() == 1
    with celery_app.connection_for_write() as broker:
        queued = broker.default_channel.queue_declare(queue=own_queue, passive=True)
    assert queued.message_count == 1


def test_a_killed_worker_s_stage_waits_for_a_worker_then_beat_hands_it_to_another(tmp_path):
    """make run's layout: the job shows "waiting for a worker" once silent beyond its limit,
    and the deadline check queues it again; the stage resolves once, from its stored seed."""
    embedded = Embedded(tmp_path)
    embedded.set_up_demo()
    slow, _ = embedded.worker("slow", STAGE_RESOLVE_PAUSE_BEFORE_COMMIT="60")
    embedded.manage(
        "shell",
        "-c",
        "from season.services import jobs; from season.models import Round; "
        "jobs.round_resolve_request("
        "round=Round.objects.get(season__slug='demo', number=1))",
    )
    # Progress 60 is set just before the results are written in the last transaction.
    wait_for(lambda: embedded.jobs(1)[0][:2] == ("running", 60), 90, "the first worker")
    slow.send_signal(signal.SIGKILL)
    slow.wait(timeout=10)
    assert embedded.stage(1) == ("resolving", 1, 0)

    silent_soon = {"JOB_SILENT_AFTER_SECONDS": "2"}
    state = "from season.models import Job; print(Job.objects.get().state)"
    wait_for(
        lambda: embedded.manage("shell", "-c", state, **silent_soon).split()[-1] == "waiting",
        30,
        "the job to show waiting for a worker",
    )
    _, worker = embedded.worker("second", **silent_soon)  # the deadline check runs here
    _, beat = embedded.celery("beat", "beat", STAGE_DEADLINE_CHECK_SECONDS="1", **silent_soon)
    try:
        wait_for(
            lambda: embedded.stage(1)[0] == "resolved", 120, "the stage handed on", worker, beat
        )
    finally:
        embedded.stop()
    assert embedded.stage(1) == ("resolved", 2, 176)
    assert embedded.jobs(1) == [("done", 100, None)]
    embedded.manage("replay_stage", "demo", "1")  # exits 1 on any difference
    assert log_trouble(worker, beat) == []
