"""No job shown as running forever, and a failure explained to the right person (issue 11).

The broker here is real kombu: a Redis URL on a closed port (the broker down) or the in-memory
transport (a broker that holds the message while no worker runs). The concurrent cases on
PostgreSQL and a worker killed for real are in tests/integration/test_jobs.py.
"""

import socket
from datetime import timedelta

import pytest
from django.db import DataError, OperationalError
from django.urls import reverse
from django.utils import timezone

from config.celery import app as celery_app
from races.adapters import base as cycling_rows
from races.adapters.base import CyclingAdapter
from races.models import StageResult
from season.demo import demo_load
from season.models import Job, Round
from season.services import jobs, lifecycle, resolution
from season.tasks import round_resolve_task

pytestmark = pytest.mark.django_db

UNREACHABLE = "The workers cannot be reached; nothing changed, try again."


@pytest.fixture
def demo():
    return demo_load()


def stage(season, number):
    return Round.objects.select_related("stage", "season").get(season=season, number=number)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # closed again when the probe is


@pytest.fixture
def broker():
    """Point the Celery app at another broker for one test (tasks are sent, not run eagerly)."""
    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.broker_url, celery_app._pool)

    def use(url: str) -> None:
        conf.task_always_eager = False
        conf.broker_url = url
        celery_app._pool = None
        celery_app.amqp._producer_pool = None

    yield use
    if celery_app._pool is not None:
        celery_app._pool.force_close_all()
    conf.task_always_eager, conf.broker_url, celery_app._pool = saved
    celery_app.amqp._producer_pool = None


def queued_messages(queue: str) -> int:
    with celery_app.connection_for_write() as connection:
        return connection.default_channel.queue_declare(queue=queue, passive=True).message_count


def organiser(client):
    client.login(username="olivia", password="olivia-demo")
    return client


# --- (a) the broker down ---------------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # as in production: the request commits, then sends
def test_resolve_now_with_the_broker_down_changes_nothing_and_says_so(client, demo, broker):
    broker(f"redis://127.0.0.1:{closed_port()}/0")
    organiser(client)
    url = reverse("season-stage", args=["demo", 1])
    response = client.post(reverse("season-stage-action", args=["demo", 1, "resolve"]), follow=True)
    assert response.status_code == 200
    assert UNREACHABLE in response.content.decode()

    unchanged = stage(demo, 1)
    assert (unchanged.status, unchanged.attempts) == ("open", 0)
    # No seed but the one committed when the open stage was shown (issue 19): none drawn by a
    # resolution.
    assert unchanged.seed is None or unchanged.commitment
    job = unchanged.jobs.get()
    assert (job.status, job.failure) == ("failed", "workers")
    assert "Connection refused" in job.detail
    page = client.get(url).content.decode()
    assert "The resolution failed: the workers cannot be reached." in page
    assert "Check that the Celery worker and its broker (Redis) are running" in page
    assert "Resolving…" not in page
    assert "Resolve now" in page  # the organiser can try again


# --- (b) a second request attaches to the job on its way --------------------------------


def test_a_second_resolve_now_attaches_to_the_queued_job(client, demo, broker, settings):
    broker("memory://")
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    first = jobs.round_resolve_request(round=stage(demo, 1))
    second = jobs.round_resolve_request(round=stage(demo, 1))
    assert second.pk == first.pk
    assert Job.objects.filter(round__season=demo).count() == 1
    assert queued_messages(queue) == 1
    page = organiser(client).get(reverse("season-stage", args=["demo", 1])).content.decode()
    assert "Resolving…" in page
    assert "Resolve now" not in page  # one job on its way: nothing to press


def test_a_job_that_lost_the_race_to_another_worker_is_done_not_running(demo, monkeypatch):
    """Two deliveries of one stage: the one that simulated second finds the stage written."""
    target = stage(demo, 1)
    lifecycle.round_lock(round=target)
    winner = Job.objects.create(round=target)
    loser = Job.objects.create(round=target)
    real_simulate = CyclingAdapter.simulate
    raced = []

    def simulate_while_the_other_worker_writes(self, inputs, **kwargs):
        if not raced:
            raced.append(True)
            resolution.round_resolve(round_id=target.pk, job_id=winner.pk)
        return real_simulate(self, inputs, **kwargs)

    monkeypatch.setattr(CyclingAdapter, "simulate", simulate_while_the_other_worker_writes)
    resolution.round_resolve(round_id=target.pk, job_id=loser.pk)
    for job in (winner, loser):
        job.refresh_from_db()
        assert (job.status, job.progress) == ("done", 100)
    assert StageResult.objects.filter(stage=target.stage).count() == 176


# --- (c) a worker gone silent -----------------------------------------------------------


def make_silent(job: Job, *, minutes: int = 10) -> None:
    Job.objects.filter(pk=job.pk).update(updated_at=timezone.now() - timedelta(minutes=minutes))


def test_a_job_whose_worker_went_silent_waits_for_a_worker_and_is_picked_up_again(client, demo):
    target = stage(demo, 1)
    # The state a worker killed mid-simulation leaves behind (tests/integration kill one).
    Round.objects.filter(pk=target.pk).update(status="resolving", attempts=1, seed=7)
    job = Job.objects.create(
        round=target, status="running", progress=10, message="simulating the stage"
    )
    make_silent(job)
    url = reverse("season-stage", args=["demo", 1])
    public = client.get(url).content.decode()
    assert "Waiting for a worker: none has reported on this stage since" in public
    assert "Resolving…" not in public
    fragment = client.get(reverse("season-stage-job", args=["demo", 1]), HTTP_HX_REQUEST="true")
    assert 'hx-trigger="every 5s"' in fragment.content.decode()  # still watching for the worker
    assert "Resolve now" in organiser(client).get(url).content.decode()

    queued = jobs.rounds_resolve_due()  # beat's deadline check; eager here
    assert [j.pk for j in queued] == [job.pk]
    job.refresh_from_db()
    assert (job.status, job.progress) == ("done", 100)
    resolved = stage(demo, 1)
    assert (resolved.status, resolved.attempts, resolved.seed) == ("resolved", 2, 7)


def test_a_stage_whose_every_worker_went_silent_is_left_to_the_organiser(client, demo):
    """Not "waiting for a worker" forever: after SILENT_ATTEMPTS_MAX starts, the reason."""
    target = stage(demo, 1)
    Round.objects.filter(pk=target.pk).update(
        status="resolving", attempts=jobs.SILENT_ATTEMPTS_MAX, seed=7
    )
    job = Job.objects.create(round=target, status="running", progress=10)
    make_silent(job)
    assert jobs.rounds_resolve_due() == []
    job.refresh_from_db()
    assert (job.status, job.failure) == ("failed", "lost")
    assert jobs.rounds_resolve_due() == []  # and it stays so until the organiser acts
    page = organiser(client).get(reverse("season-stage", args=["demo", 1])).content.decode()
    assert "The resolution failed: the workers stopped answering while resolving the stage." in page
    assert "Waiting for a worker" not in page
    assert "Resolve now" in page


def test_the_deadline_check_leaves_a_job_whose_worker_is_reporting(demo, broker):
    broker("memory://")
    target = stage(demo, 1)
    lifecycle.round_lock(round=target)
    Round.objects.filter(pk=target.pk).update(orders_deadline=timezone.now() - timedelta(minutes=1))
    Job.objects.create(round=target, status="running", progress=10)
    assert jobs.rounds_resolve_due() == []
    assert Job.objects.filter(round=target).count() == 1


def test_the_deadline_check_queues_a_due_stage_with_a_job_the_page_shows(client, demo):
    target = stage(demo, 1)
    Round.objects.filter(pk=target.pk).update(orders_deadline=timezone.now() - timedelta(seconds=1))
    [job] = jobs.rounds_resolve_due()
    job.refresh_from_db()
    assert (job.status, job.requested_by) == ("done", None)
    assert stage(demo, 1).status == "resolved"


def test_a_resolved_stage_shows_its_results_whatever_a_stale_job_says(client, demo):
    resolved = resolution.round_resolve(round_id=stage(demo, 1).pk)
    stale = Job.objects.create(round=resolved, status="running", progress=60)
    make_silent(stale)
    page = client.get(reverse("season-stage", args=["demo", 1])).content.decode()
    assert "Resolving…" not in page
    assert "Waiting for a worker" not in page
    assert "<h2>Results</h2>" in page
    assert page.count("<tr") > 50  # a full page of the results table
    # A page opened while it ran reloads to show the results.
    fragment = client.get(reverse("season-stage-job", args=["demo", 1]), HTTP_HX_REQUEST="true")
    assert fragment["HX-Refresh"] == "true"


# --- 4. a failure explained to the right person -----------------------------------------


def fail_writes_with(monkeypatch, error: Exception) -> None:
    def refused(**kwargs):
        raise error

    monkeypatch.setattr(cycling_rows, "standings_update", refused)


def test_a_database_refusal_is_explained_to_the_organiser_and_kept_off_the_public_page(
    client, demo, monkeypatch
):
    fail_writes_with(monkeypatch, DataError("numeric field overflow"))
    job = Job.objects.create(round=stage(demo, 1))
    with pytest.raises(DataError):
        round_resolve_task.apply(args=(stage(demo, 1).pk, job.pk), throw=True)
    job.refresh_from_db()
    assert (job.status, job.failure, job.retry_at) == ("failed", "db_refused", None)

    url = reverse("season-stage", args=["demo", 1])
    public = client.get(url).content.decode()
    assert "DataError" not in public
    assert "numeric field overflow" not in public
    assert "will be retried" not in public
    assert "The results of this stage are delayed: it could not be resolved yet." in public

    page = organiser(client).get(url).content.decode()
    assert "The resolution failed: the database refused the results." in page
    assert "check the season&#x27;s rules, then press “Resolve now” again" in page
    assert "DataError: numeric field overflow" in page  # the detail, for the organiser
    assert "will be retried" not in page
    assert "Resolve now" in page


def test_a_passing_fault_says_will_be_retried_only_while_a_retry_is_scheduled(
    client, demo, monkeypatch
):
    fail_writes_with(monkeypatch, OperationalError("server closed the connection"))
    job = Job.objects.create(round=stage(demo, 1))
    with pytest.raises(OperationalError):
        resolution.round_resolve(round_id=stage(demo, 1).pk, job_id=job.pk, retry_in=30)
    job.refresh_from_db()
    assert (job.status, job.failure) == ("failed", "db_down")
    assert job.retry_at > timezone.now() + timedelta(seconds=25)
    url = reverse("season-stage", args=["demo", 1])
    retry_time = timezone.localtime(job.retry_at).strftime("%H:%M")
    public = client.get(url).content.decode()
    assert f"The resolution failed and will be retried at {retry_time}." in public
    assert "OperationalError" not in public

    # The task's last attempt: no retry left, and the page stops promising one.
    with pytest.raises(OperationalError):
        resolution.round_resolve(round_id=stage(demo, 1).pk, job_id=job.pk, retry_in=None)
    job.refresh_from_db()
    assert job.retry_at is None
    assert "will be retried" not in client.get(url).content.decode()


def test_the_task_retries_a_passing_fault_and_then_resolves(demo, monkeypatch):
    real = cycling_rows.standings_update
    calls = []

    def busy_once(**kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("database is locked")
        return real(**kwargs)

    monkeypatch.setattr(cycling_rows, "standings_update", busy_once)
    job = Job.objects.create(round=stage(demo, 1))
    # Eagerly, apply() runs the retry at once when it does not re-raise.
    assert round_resolve_task.apply(args=(stage(demo, 1).pk, job.pk), throw=False).successful()
    job.refresh_from_db()
    assert (job.status, job.failure, job.retry_at) == ("done", "", None)
    assert stage(demo, 1).attempts == 2


def test_a_stage_that_cannot_be_resolved_yet_fails_its_job_with_the_reason(client, demo):
    lifecycle.rounds_force_lock(season=demo, numbers=[2])
    job = Job.objects.create(round=stage(demo, 2))
    with pytest.raises(lifecycle.RoundError):
        round_resolve_task.apply(args=(stage(demo, 2).pk, job.pk), throw=True)
    job.refresh_from_db()
    assert (job.status, job.failure) == ("failed", "stage")
    page = organiser(client).get(reverse("season-stage", args=["demo", 2])).content.decode()
    assert "The resolution failed: Stage 2 cannot be resolved before stage 1." in page
    assert "Resolving…" not in page
