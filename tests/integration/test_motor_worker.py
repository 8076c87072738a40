"""A real Celery worker process against real Redis and PostgreSQL resolves a Grand Prix round
exactly once: one set of results, one dice log, the next round opened; asking again, or two
resolutions at the same time, changes nothing."""

import importlib
import threading

import pytest
from django.apps import apps
from django.db import connections

from motor.models import GrandPrixEvent, Result
from season.demo import motor_demo_load
from season.models import DiceLog, Job, Round
from season.replay import stage_replay
from season.services import jobs, resolution
from tests.integration.test_worker import status_of, wait_for, workers  # noqa: F401 (fixture)

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(autouse=True)
def _points_systems():
    """A transactional test empties every table after it, the points systems the motor
    migration ships included: put them back."""
    migration = importlib.import_module("motor.migrations.0002_points_presets")
    migration.presets_create(apps, None)


def test_a_worker_process_resolves_a_grand_prix_once(workers):  # noqa: F811
    season = motor_demo_load()
    first = season.rounds.get(number=1)
    workers.start()
    job = jobs.round_resolve_request(round=first)
    wait_for(lambda: status_of(first) == "resolved", 90, "the worker to resolve round 1")
    job.refresh_from_db()
    assert (job.status, job.progress) == ("done", 100)
    results = Result.objects.filter(grand_prix=first.grand_prix)
    assert results.count() == 12
    events = GrandPrixEvent.objects.filter(grand_prix=first.grand_prix).count()
    assert DiceLog.objects.filter(round=first).count() == 1
    assert status_of(season.rounds.get(number=2)) == "open"

    # Asked again: the worker says it is done already and writes nothing.
    again = Job.objects.create(round=first)
    jobs.job_send_quietly(again)
    wait_for(lambda: Job.objects.get(pk=again.pk).status == "done", 60, "the second job to finish")
    assert Job.objects.get(pk=again.pk).message == "already resolved"
    assert results.count() == 12
    assert GrandPrixEvent.objects.filter(grand_prix=first.grand_prix).count() == events
    assert DiceLog.objects.filter(round=first).count() == 1
    resolved = Round.objects.select_related("season", "grand_prix").get(pk=first.pk)
    assert resolved.attempts == 1
    assert stage_replay(round=resolved) == []


def test_two_concurrent_resolutions_give_one_grand_prix():
    season = motor_demo_load()
    first = season.rounds.get(number=1)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def resolve() -> None:
        try:
            barrier.wait(10)
            resolution.round_resolve(round_id=first.pk)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=resolve) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)
    assert errors == []
    assert Result.objects.filter(grand_prix=first.grand_prix).count() == 12
    assert DiceLog.objects.filter(round=first).count() == 1
    assert status_of(first) == "resolved"
