"""Thin tasks: ids in, one service call, JSON only."""

from celery import shared_task

from season import notifications, services


@shared_task(
    name="season.stage_resolve",
    acks_late=True,
    autoretry_for=(Exception,),
    dont_autoretry_for=(services.StageError,),
    retry_backoff=5,
    max_retries=3,
    soft_time_limit=60,
    time_limit=90,
)
def stage_resolve_task(season_stage_id: int, job_id: int | None = None) -> None:
    services.stage_resolve(season_stage_id=season_stage_id, job_id=job_id)


@shared_task(name="season.stages_lock_due", acks_late=True, time_limit=60)
def stages_lock_due_task() -> None:
    for season_stage_id in services.stages_lock_due():
        stage_resolve_task.delay(season_stage_id)


@shared_task(name="season.notifications_send", acks_late=True, time_limit=120)
def notifications_send_task() -> None:
    notifications.notifications_send()
