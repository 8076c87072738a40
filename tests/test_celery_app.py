"""The Celery app as configured: every task it can run can be queued (issue 11, beat's
SchedulingError "soft_time_limit must be less than or equal to time_limit")."""

import importlib

import pytest
from django.conf import settings

import config.settings
from config.celery import app as celery_app


def registered_tasks():
    celery_app.loader.import_default_modules()  # autodiscovery: every app's tasks module
    return {name: task for name, task in celery_app.tasks.items()}


def test_every_project_task_is_registered():
    names = set(registered_tasks())
    assert {"season.stage_resolve", "season.stages_lock_due", "season.notifications_send"} <= names


@pytest.mark.parametrize("name", sorted(registered_tasks()))
def test_every_task_stops_softly_before_it_is_killed(name, monkeypatch):
    """Against the settings' defaults (no CELERY_* in the environment): a task that names only one
    of its limits inherits the other from the settings."""
    for variable in ("CELERY_TASK_SOFT_TIME_LIMIT", "CELERY_TASK_TIME_LIMIT"):
        monkeypatch.delenv(variable, raising=False)
    defaults = importlib.reload(config.settings)
    try:
        task = registered_tasks()[name]
        soft = task.soft_time_limit or defaults.CELERY_TASK_SOFT_TIME_LIMIT
        hard = task.time_limit or defaults.CELERY_TASK_TIME_LIMIT
        assert soft < hard, f"{name}: soft limit {soft} s is not below its hard limit {hard} s"
    finally:
        importlib.reload(config.settings)


def test_a_silent_job_is_one_past_the_resolution_time_limit():
    """The page says "waiting for a worker" only once the worker cannot still be running."""
    stage_task = registered_tasks()["season.stage_resolve"]
    assert stage_task.time_limit < settings.JOB_SILENT_AFTER_SECONDS


def test_the_deadline_check_runs_every_five_seconds_by_default(monkeypatch):
    """A round waits at most a few seconds past its deadline (issue 33); a check that waited
    in the queue past the next one expires instead of piling up behind the resolutions."""
    monkeypatch.delenv("STAGE_DEADLINE_CHECK_SECONDS", raising=False)
    defaults = importlib.reload(config.settings)
    try:
        entry = defaults.CELERY_BEAT_SCHEDULE["lock-due-stages"]
        assert (entry["task"], entry["schedule"]) == ("season.stages_lock_due", 5.0)
        assert entry["task"] in registered_tasks()
    finally:
        importlib.reload(config.settings)


@pytest.mark.django_db
def test_beat_sends_the_deadline_check_with_an_expiry_of_one_interval():
    """As beat's DatabaseScheduler reads the schedule into its table and sends from it."""
    from django_celery_beat.schedulers import ModelEntry

    schedule = settings.CELERY_BEAT_SCHEDULE["lock-due-stages"]
    entry = ModelEntry.from_entry("lock-due-stages", app=celery_app, **schedule)
    assert entry.options["expires"] == settings.STAGE_DEADLINE_CHECK_SECONDS


def test_a_worker_retries_its_broker_for_as_long_as_it_is_down():
    """Redis restarted, or down for an hour: the workers and beat wait for it, never exit (a
    real worker through a Redis restart: tests/integration/test_broker_restart.py)."""
    assert celery_app.conf.broker_connection_retry is True
    assert celery_app.conf.broker_connection_retry_on_startup is True
    assert celery_app.conf.broker_connection_max_retries is None


def test_the_webhooks_task_has_a_queue_of_its_own_and_a_beat():
    """A receiver slow to answer never holds up a resolution (config.celery.hooks_queue)."""
    from config.celery import hooks_queue

    router = celery_app.amqp.router
    default = celery_app.conf.task_default_queue
    assert router.route({}, "season.chat_deliveries_send")["queue"].name == hooks_queue(default)
    assert router.route({}, "season.stage_resolve")["queue"].name == default
    beat = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "season.chat_deliveries_send" in beat


def test_a_host_lost_holding_the_restore_lock_holds_up_redeliveries_half_a_minute(monkeypatch):
    """A worker looks for the tasks of dead workers under a lock in Redis (kombu's
    "unacked_mutex"); a host lost in the middle keeps it until it expires, and no task is handed
    on meanwhile: 30 s, not kombu's 300, and well below the visibility timeout."""
    from kombu.transport.redis import Channel

    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    for variable in ("CELERY_UNACKED_MUTEX_EXPIRE", "CELERY_VISIBILITY_TIMEOUT"):
        monkeypatch.delenv(variable, raising=False)
    try:
        options = importlib.reload(config.settings).CELERY_BROKER_TRANSPORT_OPTIONS
    finally:
        monkeypatch.undo()
        importlib.reload(config.settings)
    assert "unacked_mutex_expire" in Channel.from_transport_options  # kombu reads it
    assert options["unacked_mutex_expire"] == 30
    assert options["unacked_mutex_expire"] < options["visibility_timeout"] == 120
