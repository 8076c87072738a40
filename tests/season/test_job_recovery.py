"""A Redis blip during a resolution (issue 28, case 4): a job's state matches its round's, and
a stage left locked past its deadline by an outside failure is queued again, a bounded number
of times. The resolution runs here in this process (the tasks eagerly); the worker surviving
its broker's restart is tests/integration/test_broker_restart.py."""

from datetime import timedelta

import pytest
import redis
from django.utils import timezone

from races.adapters import base as cycling_rows
from races.models import StageResult
from season.demo import demo_load
from season.models import Job, Round
from season.services import jobs, lifecycle, resolution
from season.tasks import round_resolve_task

pytestmark = pytest.mark.django_db

# What a worker's broker client raised when Redis died under it (the report of issue 28).
BROKER_GONE = AttributeError("'NoneType' object has no attribute 'hostname'")
REDIS_GONE = redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379.")


@pytest.fixture
def demo():
    return demo_load()


def stage(season, number):
    return Round.objects.select_related("stage", "season").get(season=season, number=number)


def past_deadline(round: Round) -> None:
    Round.objects.filter(pk=round.pk).update(orders_deadline=timezone.now() - timedelta(minutes=5))


def failing_once(monkeypatch, error: Exception) -> None:
    """The results' writing meets `error` (Redis gone under the worker), once."""
    real = cycling_rows.standings_update

    def once(**kwargs):
        monkeypatch.setattr(cycling_rows, "standings_update", real)
        raise error

    monkeypatch.setattr(cycling_rows, "standings_update", once)


# --- the deadline check queues again a stage an outside failure left locked ----------------


def test_a_stage_left_locked_by_an_unexpected_failure_is_resolved_by_the_next_deadline_check(
    demo, monkeypatch
):
    target = stage(demo, 1)
    lifecycle.rounds_force_lock(season=demo, numbers=[1])
    past_deadline(target)
    failing_once(monkeypatch, REDIS_GONE)
    failed = Job.objects.create(round=target)
    with pytest.raises(redis.exceptions.ConnectionError):
        round_resolve_task.apply(args=(target.pk, failed.pk), throw=True)
    failed.refresh_from_db()
    assert (failed.status, failed.failure) == ("failed", "unexpected")
    assert stage(demo, 1).status == "locked"

    [again] = jobs.rounds_resolve_due()  # beat's deadline check; eager here
    assert again.pk != failed.pk
    again.refresh_from_db()
    assert (again.status, again.progress) == ("done", 100)
    assert stage(demo, 1).status == "resolved"
    assert StageResult.objects.filter(stage=target.stage).exists()
    failed.refresh_from_db()
    assert (failed.status, failed.failure) == ("failed", "unexpected")  # history kept


def test_a_stage_that_failed_unexpectedly_at_every_start_is_left_to_the_organiser(demo):
    target = stage(demo, 1)
    lifecycle.rounds_force_lock(season=demo, numbers=[1])
    past_deadline(target)
    failed = Job.objects.create(
        round=target, status="failed", failure="unexpected", detail="ConnectionError: gone"
    )
    Round.objects.filter(pk=target.pk).update(attempts=jobs.FAILED_ATTEMPTS_MAX)
    assert jobs.rounds_resolve_due() == []
    assert list(target.jobs.all()) == [failed]
    assert stage(demo, 1).status == "locked"

    # One start fewer: queued again, and the new job is there for the organiser to see.
    Round.objects.filter(pk=target.pk).update(attempts=jobs.FAILED_ATTEMPTS_MAX - 1)
    [again] = jobs.rounds_resolve_due()
    assert target.jobs.count() == 2
    assert stage(demo, 1).status == "resolved"
    again.refresh_from_db()
    assert again.status == "done"


def test_a_stage_whose_task_vanished_with_redis_is_sent_again_once_its_job_is_silent(demo):
    """Redis restarted empty: the queued task is gone, the job says queued and no worker will
    ever report on it. Once it has been silent JOB_SILENT_AFTER_SECONDS, the check sends it."""
    target = stage(demo, 1)
    lifecycle.rounds_force_lock(season=demo, numbers=[1])
    past_deadline(target)
    lost = Job.objects.create(round=target)
    assert jobs.rounds_resolve_due() == []  # not silent yet: a worker may still take it
    Job.objects.filter(pk=lost.pk).update(updated_at=timezone.now() - timedelta(minutes=10))
    [again] = jobs.rounds_resolve_due()
    assert again.pk == lost.pk
    lost.refresh_from_db()
    assert lost.status == "done"
    assert stage(demo, 1).status == "resolved"


def test_a_failure_that_would_repeat_still_waits_for_the_organiser(demo):
    target = stage(demo, 1)
    lifecycle.rounds_force_lock(season=demo, numbers=[1])
    past_deadline(target)
    Job.objects.create(round=target, status="failed", failure="db_refused")
    assert jobs.rounds_resolve_due() == []
    assert stage(demo, 1).status == "locked"


# --- a job's state matches its round's ------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_stage_resolved_while_its_broker_dies_has_a_job_done(monkeypatch):
    """The results commit, then sending the next stage (locked, its deadline past) meets the
    broker gone: this stage is resolved and its job says so; the next stage's job is sent by a
    later deadline check."""
    demo = demo_load()
    lifecycle.rounds_force_lock(season=demo, numbers=[1, 2])
    past_deadline(stage(demo, 2))
    job = Job.objects.create(round=stage(demo, 1))

    def broker_gone(*args, **kwargs):
        raise BROKER_GONE

    monkeypatch.setattr(round_resolve_task, "apply_async", broker_gone)
    resolved = resolution.round_resolve(round_id=stage(demo, 1).pk, job_id=job.pk)
    assert resolved.status == "resolved"
    job.refresh_from_db()
    assert (job.status, job.failure, job.progress) == ("done", "", 100)
    assert stage(demo, 2).jobs.get().status == "queued"  # not sent: silent soon, sent again


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", ["demo", "demo-f1"])
def test_the_job_is_done_in_the_rounds_own_commit(monkeypatch, slug):
    """Whoever reads the round resolved reads its job done: both are written in one commit
    (a reader between two commits saw a resolved round with its job running at 60 %)."""
    from django.db import transaction

    from season.demo import motor_demo_load

    season = demo_load() if slug == "demo" else motor_demo_load()
    first = stage(season, 1)
    lifecycle.rounds_force_lock(season=season, numbers=[1])
    job = Job.objects.create(round=first)
    seen = []
    real_follow = resolution._next_round_follow

    def follow(round):
        # Run by the resolution inside its transaction: read the job as the commit leaves it.
        transaction.on_commit(
            lambda: seen.append(Job.objects.values_list("status", "progress").get(pk=job.pk))
        )
        return real_follow(round)

    monkeypatch.setattr(resolution, "_next_round_follow", follow)
    resolution.round_resolve(round_id=first.pk, job_id=job.pk)
    assert seen == [("done", 100)]


def test_a_resolved_stage_whose_job_never_reported_says_done_after_the_deadline_check(demo):
    """The worker stopped between the results' commit and its report (its broker gone): the
    stage is resolved, its job said running; an earlier failed job of the stage stays failed."""
    earlier = Job.objects.create(round=stage(demo, 1), status="failed", failure="unexpected")
    resolution.round_resolve(round_id=stage(demo, 1).pk)
    running = Job.objects.create(round=stage(demo, 1), status="running", progress=60)
    Job.objects.filter(pk=earlier.pk).update(created_at=running.created_at - timedelta(minutes=3))
    jobs.rounds_resolve_due()
    running.refresh_from_db()
    assert (running.status, running.progress, running.failure) == ("done", 100, "")
    earlier.refresh_from_db()
    assert (earlier.status, earlier.failure) == ("failed", "unexpected")
