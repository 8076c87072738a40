"""Thin tasks: ids in, one service call, JSON only.

Every task states both of its time limits, the soft one below the hard one: a task that named only
`time_limit` inherited the global soft limit (CELERY_TASK_SOFT_TIME_LIMIT, 120 s) above its own
hard limit, and Celery refused to queue it (beat's SchedulingError, issue 11). A test checks every
registered task against the settings.
"""

from typing import Any

from celery import shared_task

from season import notifications
from season.services import chat_hooks, draft_clock, jobs, odds, resolution

# Seconds before each retry of a resolution that met a passing fault (the database busy or out of
# reach). A stage is simulated from its stored seed, so any other error would only repeat itself:
# those are not retried and the organiser is told why.
RETRY_DELAYS = (5, 30, 120)


@shared_task(
    bind=True,
    name="season.stage_resolve",
    acks_late=True,
    max_retries=len(RETRY_DELAYS),
    soft_time_limit=60,
    time_limit=90,
)
def round_resolve_task(self: Any, round_id: int, job_id: int | None = None) -> None:
    retries = self.request.retries
    retry_in = RETRY_DELAYS[retries] if retries < len(RETRY_DELAYS) else None
    try:
        resolution.round_resolve(
            round_id=round_id,
            job_id=job_id,
            retry_in=retry_in,
            worker=self.request.hostname or "",
        )
    except jobs.PASSING_FAULTS as error:
        if retry_in is None:
            raise
        raise self.retry(exc=error, countdown=retry_in) from error


@shared_task(name="season.stages_lock_due", acks_late=True, soft_time_limit=50, time_limit=60)
def rounds_lock_due_task() -> None:
    jobs.rounds_resolve_due()


@shared_task(name="season.draft_clocks_expire", acks_late=True, soft_time_limit=50, time_limit=60)
def draft_clocks_expire_task() -> None:
    draft_clock.draft_clocks_expire()


@shared_task(name="season.notifications_send", acks_late=True, soft_time_limit=100, time_limit=120)
def notifications_send_task() -> None:
    notifications.notifications_send()


# The odds of a round (season/services/odds.py): a chord of chunks. A chunk's counts travel back
# through the result backend (the chord's callback needs them), so this task keeps its result;
# its limits leave room for the largest chunk (RUNS_MAX / CHUNKS_TARGET runs) on a busy machine.
@shared_task(
    bind=True,
    name="season.odds_chunk",
    ignore_result=False,
    acks_late=True,
    soft_time_limit=600,
    time_limit=660,
)
def odds_chunk_task(self: Any, key: str, index: int) -> dict[str, Any]:
    return odds.odds_chunk(key=key, index=index, worker=self.request.hostname or "")


@shared_task(name="season.odds_merge", acks_late=True, soft_time_limit=50, time_limit=60)
def odds_merge_task(parts: list[dict[str, Any]], key: str) -> None:
    odds.odds_merge(key=key, parts=parts)


# The chat webhooks' posts (season/services/chat_hooks.py), on their own queue: a run posts at
# most chat_hooks.BATCH deliveries, each within the guard's 10 s.
@shared_task(
    name="season.chat_deliveries_send", acks_late=True, soft_time_limit=290, time_limit=300
)
def chat_deliveries_send_task() -> None:
    chat_hooks.deliveries_send()
