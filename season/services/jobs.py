"""Resolution jobs: the organiser's "resolve now", beat's deadline check, and handing a job to
the workers (after the commit; a broker out of reach changes nothing and says so)."""

import contextlib
import logging
from datetime import datetime
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.db import DatabaseError, InterfaceError, OperationalError, transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from kombu.exceptions import OperationalError as BrokerError

from season.models import DONE_STATUSES, RESOLVABLE_STATUSES, Job, Round
from season.round_names import round_name_start
from season.services.lifecycle import RoundError, previous_resolved_check, rounds_lock_due

logger = logging.getLogger(__name__)

# Faults that pass: the same resolution may well succeed a moment later, so the task retries
# these and only these (a stage is simulated from its stored seed: any other error would repeat).
PASSING_FAULTS = (OperationalError, InterfaceError)


# Failures that a new attempt would meet again: the deadline check leaves such a stage to the
# organiser, who sees the reason on the stage page.
REPEATING_FAILURES = (
    Job.Failure.WORKER_LOST,
    Job.Failure.DATABASE_REFUSED,
    Job.Failure.TIMEOUT,
    Job.Failure.STAGE,
)


# After this many starts of a stage whose worker went silent, the deadline check stops handing
# it on and tells the organiser (a stage that kills its worker would otherwise loop forever).
SILENT_ATTEMPTS_MAX = 4

# An unexpected failure may come from outside the stage (Redis or the network gone for a
# moment): the deadline check queues the stage again while it has been started fewer times than
# this (Round.attempts, counted at each start), then leaves it to the organiser with the reason.
FAILED_ATTEMPTS_MAX = 3


# A job a worker still owes a report: queued, running, or failed with a retry scheduled.
ACTIVE_JOB = Q(status__in=(Job.Status.QUEUED, Job.Status.RUNNING)) | Q(
    status=Job.Status.FAILED, retry_at__isnull=False
)


class WorkersUnreachable(RoundError):
    """The broker did not take the task: nothing changed."""


def round_resolve_request(*, round: Round, user: Any = None) -> Job:
    """The organiser's "resolve now": lock the stage and queue its resolution, once.

    A request for a stage already queued or resolving attaches to its job instead of starting
    another; a job whose worker went silent is queued again. The task is sent after the commit
    (a worker must find the job); if the broker cannot take it, the stage goes back to where it
    was, the job records why, and WorkersUnreachable says so.
    """
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round.pk)
        if locked.status in DONE_STATUSES:
            raise RoundError(
                _("%(round)s is already resolved.")
                % {"round": round_name_start(locked.season, locked.number)}
            )
        job = locked.jobs.first()
        if job is not None and job.active and not job.silent:
            return job
        if locked.status not in RESOLVABLE_STATUSES:
            raise RoundError(
                _("%(round)s is %(status)s.")
                % {
                    "round": round_name_start(locked.season, locked.number),
                    "status": locked.get_status_display(),
                }
            )
        previous_resolved_check(locked)
        before = locked.status
        if locked.status == Round.Status.OPEN:
            locked.status = Round.Status.LOCKED
            locked.save(update_fields=["status"])
        job = job_queue(locked, job if job is not None and job.active else None, user=user)
    job_send(job, restore_status=before)
    return job


def job_queue(stage: Round, silent: Job | None, *, user: Any = None) -> Job:
    """A new queued job for the stage, or its silent job made queued again (inside the lock)."""
    if silent is None:
        return Job.objects.create(round=stage, requested_by=user)
    Job.objects.filter(pk=silent.pk).update(
        status=Job.Status.QUEUED,
        progress=0,
        message=gettext_noop("queued again: the last worker went silent"),
        failure="",
        detail="",
        retry_at=None,
        updated_at=timezone.now(),
    )
    silent.refresh_from_db()
    return silent


def job_send(job: Job, *, restore_status: str | None = None) -> None:
    """Hand a committed job to the workers. A broker that cannot take it leaves the job failed
    with the reason the page shows, and the stage in `restore_status` if given (the state before
    the request); WorkersUnreachable then says nothing changed."""
    from season.tasks import round_resolve_task

    try:
        round_resolve_task.apply_async((job.round_id, job.pk))
    except (BrokerError, OSError) as error:
        logger.warning("The broker refused the job of stage %s: %s", job.round_id, error)
        with transaction.atomic():
            if restore_status is not None and restore_status != Round.Status.LOCKED:
                Round.objects.filter(pk=job.round_id, status=Round.Status.LOCKED).update(
                    status=restore_status
                )
            job_failed(job.pk, failure=Job.Failure.WORKERS_UNREACHABLE, error=error)
        raise WorkersUnreachable(
            _("The workers cannot be reached; nothing changed, try again.")
        ) from error


def job_failed(
    job_id: int | None, *, failure: str, error: BaseException, retry_at: Any = None
) -> None:
    job_update(
        job_id,
        status=Job.Status.FAILED,
        failure=failure,
        # A lifecycle refusal is already in words; anything else keeps its exception's name.
        detail=(
            str(error) if isinstance(error, RoundError) else f"{type(error).__name__}: {error}"
        )[:2000],
        retry_at=retry_at,
    )


def failure_of(error: BaseException) -> str:
    if isinstance(error, RoundError):
        return Job.Failure.STAGE
    if isinstance(error, SoftTimeLimitExceeded):
        return Job.Failure.TIMEOUT
    if isinstance(error, PASSING_FAULTS):
        return Job.Failure.DATABASE_UNREACHABLE
    if isinstance(error, DatabaseError):
        return Job.Failure.DATABASE_REFUSED
    return Job.Failure.UNEXPECTED


def rounds_resolve_due(*, now: datetime | None = None) -> list[Job]:
    """Beat's deadline check (every STAGE_DEADLINE_CHECK_SECONDS): lock the stages whose deadline
    passed, queue each one that can be resolved now, and queue again the jobs whose worker went
    silent. A stage whose last job failed in a way that would repeat waits for the organiser,
    who sees why on the stage page (not a failure every minute in the log); one whose job failed
    unexpectedly (Redis gone in the middle) is queued again, up to FAILED_ATTEMPTS_MAX starts.
    First, the latest job of every resolved stage says done (jobs_of_resolved_done)."""
    queued = []
    jobs_of_resolved_done()
    due = set(rounds_lock_due(now=now))
    silent = {
        job.round_id
        for job in Job.objects.filter(
            round__status__in=(Round.Status.LOCKED, Round.Status.RESOLVING)
        ).filter(ACTIVE_JOB)
        if job.silent
    }
    for round_id in sorted(due | silent):
        with transaction.atomic():
            stage = Round.objects.select_for_update().get(pk=round_id)
            latest = stage.jobs.first()
            if stage.status in DONE_STATUSES or (
                latest is not None and latest.active and not latest.silent
            ):
                continue
            if latest is not None and latest.failure in REPEATING_FAILURES:
                continue
            if (
                latest is not None
                and latest.failure == Job.Failure.UNEXPECTED
                and stage.attempts >= FAILED_ATTEMPTS_MAX
            ):
                continue  # started that many times, failed each time: the organiser decides
            if latest is not None and latest.silent and stage.attempts >= SILENT_ATTEMPTS_MAX:
                # Every worker given this stage went silent (killed by its time limit, out of
                # memory...): handing it on again would only repeat that; the organiser decides.
                job_failed(
                    latest.pk,
                    failure=Job.Failure.WORKER_LOST,
                    error=RoundError(
                        _("Started %(attempts)s times, never finished.")
                        % {"attempts": stage.attempts}
                    ),
                )
                logger.warning("Stage %s: %s attempts, none finished", stage.pk, stage.attempts)
                continue
            if latest is not None and latest.failure == Job.Failure.UNEXPECTED:
                job = Job.objects.create(
                    round=stage, message=gettext_noop("queued again after a failure")
                )
                logger.warning(
                    "Stage %s queued again after a failure (%s starts)", stage.pk, stage.attempts
                )
            else:
                job = job_queue(stage, latest if latest is not None and latest.active else None)
        try:
            job_send(job)
        except WorkersUnreachable:
            continue  # recorded on the job; the next check tries again
        queued.append(job)
    return queued


def jobs_of_resolved_done() -> int:
    """A resolved stage's job says done, whatever it said last: its worker stopped between the
    results' commit and its report (the broker gone, the process killed), or a step after the
    commit failed. Only the latest job of each stage: earlier failures stay as they were."""
    latest = Job.objects.filter(round_id=OuterRef("round_id")).order_by("-created_at", "-pk")
    stale = (
        Job.objects.filter(round__status__in=DONE_STATUSES)
        .exclude(status=Job.Status.DONE)
        .filter(pk=Subquery(latest.values("pk")[:1]))
    )
    count = stale.update(
        status=Job.Status.DONE,
        progress=100,
        message=gettext_noop("resolved"),
        failure="",
        retry_at=None,
        updated_at=timezone.now(),
    )
    if count:
        logger.warning("%s job(s) of resolved stages said otherwise: now done", count)
    return count


def job_send_quietly(job: Job) -> None:
    with contextlib.suppress(WorkersUnreachable):
        job_send(job)


def job_update(job_id: int | None, **fields: Any) -> None:
    if job_id is not None:
        Job.objects.filter(pk=job_id).update(updated_at=timezone.now(), **fields)
