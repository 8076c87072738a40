import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("grandtour")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

#: The tasks of the odds (season/services/odds.py): a queue of their own, so that a resolution
#: never waits behind a request's chunks (issue 28; docs/odds.md, "Queues").
ODDS_TASKS = frozenset({"season.odds_chunk", "season.odds_merge"})


def odds_queue(default_queue: str) -> str:
    """The odds' queue beside a deployment's default queue: ``grandtour`` -> ``grandtour-odds``."""
    return f"{default_queue}-odds"


#: The chat webhooks' posts (season/services/chat_hooks.py): a queue of their own, so that a
#: receiver slow to answer never holds up a resolution (docs/chat-channels.md).
HOOKS_TASKS = frozenset({"season.chat_deliveries_send"})


def hooks_queue(default_queue: str) -> str:
    """The webhooks' queue beside a deployment's default queue: ``grandtour`` ->
    ``grandtour-hooks``."""
    return f"{default_queue}-hooks"


def task_route(name: str, args: object, kwargs: object, options: object, task=None, **kw):  # type: ignore[no-untyped-def]
    """CELERY_TASK_ROUTES' router: the odds' tasks to the odds' queue of the default queue read
    when the task is sent (a test may change the default queue), the webhooks' to theirs, every
    other task unrouted."""
    if name in ODDS_TASKS:
        return {"queue": odds_queue(app.conf.task_default_queue)}
    if name in HOOKS_TASKS:
        return {"queue": hooks_queue(app.conf.task_default_queue)}
    return None
