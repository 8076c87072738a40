"""The lifecycle's checks, read by the services and the stage page alike (one definition of what
the organiser may do with a round now)."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from races.models import StageResult
from season.demo import demo_load
from season.models import Job, Round
from season.services import lifecycle, reinstate

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    return demo_load()


@pytest.fixture
def resolved_demo(demo):
    call_command("simulate_season", "demo", "--stages", "1-2", "--in-process", verbosity=0)
    return demo


def round_of(season, number):
    return Round.objects.select_related("stage", "season").get(season=season, number=number)


def actions_of(season, number):
    target = round_of(season, number)
    return lifecycle.round_actions(target, job=target.jobs.first())


def test_each_status_allows_its_own_actions_only(demo):
    Round.objects.filter(season=demo, number=2).update(status=Round.Status.SCHEDULED)
    scheduled = actions_of(demo, 2)
    assert (scheduled.open, scheduled.lock, scheduled.resolve, scheduled.publish) == (
        True,
        False,
        False,
        False,
    )
    opened = actions_of(demo, 1)
    assert (opened.open, opened.lock, opened.resolve, opened.publish) == (False, True, True, False)
    Round.objects.filter(season=demo, number=1).update(status=Round.Status.RESOLVED)
    resolved = actions_of(demo, 1)
    assert (resolved.open, resolved.lock, resolved.resolve, resolved.publish) == (
        False,
        False,
        False,
        True,
    )
    assert resolved.reinstate
    assert not opened.reinstate


def test_a_round_cannot_be_resolved_before_the_earlier_ones(demo):
    Round.objects.filter(season=demo, number=2).update(status=Round.Status.LOCKED)
    assert not lifecycle.can_resolve(round_of(demo, 2), job=None)
    Round.objects.filter(season=demo, number=1).update(status=Round.Status.RESOLVED)
    assert lifecycle.can_resolve(round_of(demo, 2), job=None)


def test_resolve_is_not_offered_while_a_worker_is_on_it_but_is_once_it_went_silent(demo, settings):
    target = round_of(demo, 1)
    job = Job.objects.create(round=target, status=Job.Status.RUNNING)
    assert not lifecycle.can_resolve(target, job=job)
    settings.JOB_SILENT_AFTER_SECONDS = -1
    assert lifecycle.can_resolve(target, job=job)


def test_reinstating_is_allowed_until_the_next_round_is_resolved(resolved_demo):
    assert not lifecycle.can_reinstate(round_of(resolved_demo, 1))
    assert lifecycle.can_reinstate(round_of(resolved_demo, 2))
    # The service refuses on the same rule the page reads.
    rider_id = StageResult.objects.filter(stage=round_of(resolved_demo, 1).stage).first().rider_id
    with pytest.raises(lifecycle.RoundError, match="before the next stage is resolved"):
        reinstate.rider_reinstate(round=round_of(resolved_demo, 1), rider_id=rider_id)


def _outside_time_limit(season, number):
    result = (
        StageResult.objects.filter(stage=round_of(season, number).stage)
        .select_related("rider")
        .order_by("-rank")
        .first()
    )
    StageResult.objects.filter(pk=result.pk).update(status=StageResult.Status.OUTSIDE_TIME_LIMIT)
    return result.rider


def test_the_stage_page_offers_reinstating_only_while_the_rule_allows_it(client, resolved_demo):
    client.login(username="olivia", password="olivia-demo")
    earlier = _outside_time_limit(resolved_demo, 1)
    latest = _outside_time_limit(resolved_demo, 2)
    stage_1 = client.get(reverse("season-stage", args=["demo", 1])).content.decode()
    stage_2 = client.get(reverse("season-stage", args=["demo", 2])).content.decode()
    assert f"Reinstate {earlier.name}" not in stage_1  # stage 2 is resolved already
    assert f"Reinstate {latest.name}" in stage_2
    client.login(username="alice", password="alice-demo")
    assert "Reinstate" not in client.get(reverse("season-stage", args=["demo", 2])).content.decode()


def test_the_stage_page_shows_the_actions_the_lifecycle_allows(client, resolved_demo):
    client.login(username="olivia", password="olivia-demo")
    stage_2 = client.get(reverse("season-stage", args=["demo", 2])).content.decode()
    stage_3 = client.get(reverse("season-stage", args=["demo", 3])).content.decode()
    stage_4 = client.get(reverse("season-stage", args=["demo", 4])).content.decode()
    assert "Publish results" in stage_2
    assert "Resolve now" not in stage_2
    assert "Lock orders" in stage_3
    assert "Resolve now" in stage_3
    # Stage 4 is scheduled: it opens; it cannot be resolved before stage 3.
    assert "Open orders" in stage_4
    assert "Resolve now" not in stage_4
