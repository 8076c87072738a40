"""The cache is never on the write path: with the cache (Redis) down, a round resolves, the
pages are served uncached and a comment is posted. The cache here is Django's real Redis backend
pointed at a port where nothing listens, as when Redis has died."""

import pytest
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection
from django.urls import reverse

from races.models import StageResult
from season.demo import demo_load
from season.models import Comment, Job, Round
from season.services import lifecycle
from season.services.resolution import round_resolve

pytestmark = pytest.mark.django_db

DEAD_REDIS = {
    "BACKEND": "django.core.cache.backends.redis.RedisCache",
    "LOCATION": "redis://127.0.0.1:6399/0",
}


@pytest.fixture
def cache_down(settings):
    settings.CACHES = {name: DEAD_REDIS for name in settings.CACHES}
    yield
    for name in settings.CACHES:
        caches[name].close()


def test_a_round_resolves_and_its_pages_answer_with_the_cache_down(client, cache_down):
    season = demo_load()
    round = Round.objects.get(season=season, number=1)
    lifecycle.rounds_force_lock(season=season, numbers=[1])
    resolved = round_resolve(round_id=round.pk)
    assert resolved.status in (Round.Status.RESOLVED, Round.Status.PUBLISHED)
    for url in (
        reverse("season-detail", args=["demo"]),
        reverse("season-stage", args=["demo", 1]),
        reverse("season-standings", args=["demo", "general"]),
    ):
        assert client.get(url).status_code == 200, url


def test_a_comment_is_posted_with_the_cache_down(client, cache_down):
    season = demo_load()
    client.login(username="alice", password="alice-demo")
    response = client.post(reverse("season-comment", args=["demo"]), {"text": "Allez !"})
    assert response.status_code in (200, 302)
    assert Comment.objects.filter(season=season, text="Allez !").exists()


class WatchedRedisCache(RedisCache):
    """Django's Redis backend that notes, at each write, whether a transaction is open."""

    writes: list[tuple[str, bool]] = []

    def set(self, key, *args, **kwargs):  # type: ignore[no-untyped-def]
        WatchedRedisCache.writes.append((key, connection.in_atomic_block))
        return super().set(key, *args, **kwargs)


@pytest.mark.django_db(transaction=True)
def test_the_cache_is_written_only_once_the_results_are_committed(settings):
    """Redis dies during a resolution: the results commit, the job says resolved, and the page
    cache is told of the change only after the commit (never while the round is locked)."""
    settings.CACHES = {
        name: {**DEAD_REDIS, "BACKEND": f"{__name__}.WatchedRedisCache"} for name in settings.CACHES
    }
    try:
        season = demo_load()
        round = Round.objects.get(season=season, number=1)
        lifecycle.rounds_force_lock(season=season, numbers=[1])
        job = Job.objects.create(round=round)
        WatchedRedisCache.writes.clear()
        resolved = round_resolve(round_id=round.pk, job_id=job.pk)
        assert resolved.status in (Round.Status.RESOLVED, Round.Status.PUBLISHED)
        assert StageResult.objects.filter(stage=round.stage).count() > 100
        job.refresh_from_db()
        assert (job.status, job.failure) == (Job.Status.DONE, "")
        season_writes = [inside for key, inside in WatchedRedisCache.writes if "gt:season:" in key]
        assert season_writes, "the season's cached state is marked as changed"
        assert not any(season_writes), "no cache write while the results' transaction is open"
    finally:
        for name in settings.CACHES:
            caches[name].close()
