"""The season pages from the cache (issue 18): no stale page after a resolution or a publication,
on the local memory cache and on a real Redis; conditional GET; nothing of one visitor's shown
to another."""

import os
import re
import uuid

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from season.cache import season_changed
from season.demo import demo_load
from season.models import Round, Season
from season.services import lifecycle
from season.services.resolution import round_resolve

pytestmark = pytest.mark.django_db

GENERAL = reverse("season-standings", args=["demo", "general"])
SEASON = reverse("season-detail", args=["demo"])


@pytest.fixture(
    params=["locmem", pytest.param("redis", marks=pytest.mark.redis)],
)
def page_cache(request, settings):
    if request.param == "redis":
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": os.environ.get("REDIS_URL", ""),
                # A prefix of this test's own: nothing else's keys are read or written.
                "KEY_PREFIX": f"test-page-cache-{uuid.uuid4().hex}",
            }
        }
    else:
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
        cache.clear()
    return request.param


def _resolve(season, number):
    round = Round.objects.get(season=season, number=number)
    lifecycle.rounds_force_lock(season=season, numbers=[number])
    return round_resolve(round_id=round.pk)


@pytest.fixture
def demo_after_1(page_cache):
    season = demo_load()
    _resolve(season, 1)
    return season


def test_no_stale_page_after_a_resolution(client, demo_after_1, django_assert_num_queries):
    assert "after stage 1" in client.get(GENERAL).content.decode()
    assert "Latest stage (1)" in client.get(SEASON).content.decode()
    # Served from the cache: no query at all for an anonymous visitor.
    with django_assert_num_queries(0):
        assert "after stage 1" in client.get(GENERAL).content.decode()
    lifecycle.rounds_force_lock(season=demo_after_1, numbers=[2])
    assert "after stage 1" in client.get(GENERAL).content.decode()
    assert "Latest stage (1)" in client.get(SEASON).content.decode()
    round_resolve(round_id=Round.objects.get(season=demo_after_1, number=2).pk)
    assert "after stage 2" in client.get(GENERAL).content.decode()
    assert "Latest stage (2)" in client.get(SEASON).content.decode()
    stage_2 = client.get(reverse("season-stage", args=["demo", 2])).content.decode()
    assert "Results</h2>" in stage_2


def test_no_stale_page_after_a_publication(client, demo_after_1):
    Season.objects.filter(pk=demo_after_1.pk).update(auto_publish=False)
    season_changed(demo_after_1)
    stage_1 = reverse("season-stage", args=["demo", 1])
    assert "Results</h2>" not in client.get(stage_1).content.decode()
    assert "after stage 1" not in client.get(GENERAL).content.decode()
    lifecycle.round_publish(round=Round.objects.get(season=demo_after_1, number=1))
    assert "Results</h2>" in client.get(stage_1).content.decode()
    assert "after stage 1" in client.get(GENERAL).content.decode()


def test_a_browser_and_htmx_get_304_until_the_next_change(client, demo_after_1):
    first = client.get(GENERAL)
    etag = first["ETag"]
    assert first["Last-Modified"]
    assert "no-cache" in first["Cache-Control"]
    assert "private" in first["Cache-Control"]
    again = client.get(GENERAL, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert client.get(GENERAL, HTTP_IF_NONE_MATCH=etag, HTTP_HX_REQUEST="true").status_code == 304
    _resolve(demo_after_1, 2)
    after = client.get(GENERAL, HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200
    assert after["ETag"] != etag
    # The job poll of a resolved stage: 304 while nothing moves.
    job_url = reverse("season-stage-job", args=["demo", 2])
    poll = client.get(job_url, HTTP_HX_REQUEST="true")
    assert client.get(job_url, HTTP_IF_NONE_MATCH=poll["ETag"]).status_code != 304  # not htmx
    assert (
        client.get(job_url, HTTP_IF_NONE_MATCH=poll["ETag"], HTTP_HX_REQUEST="true").status_code
        == 304
    )


def test_a_logged_in_page_is_not_a_visitors_and_back(demo_after_1):
    visitor, alice, olivia = Client(), Client(), Client()
    alice.login(username="alice", password="alice-demo")
    olivia.login(username="olivia", password="olivia-demo")
    for url in (SEASON, GENERAL, reverse("season-stage", args=["demo", 1])):
        anonymous = visitor.get(url).content.decode()
        player = alice.get(url).content.decode()
        organiser = olivia.get(url).content.decode()
        again = visitor.get(url).content.decode()
        for html in (anonymous, again):
            assert "Log out" not in html
            assert 'class="who"' not in html
            assert "My team" not in html
            assert "/organise/" not in html
        assert "Log out" in player
        assert '<span class="who">alice</span>' in player
        assert "/organise/" not in player
        assert '<span class="who">olivia</span>' in organiser
        assert '<span class="who">alice</span>' not in organiser
        if url == SEASON:
            assert "My team" in player
            assert "My team" not in organiser
            assert "/organise/" in organiser
        # Same tag for nobody: a visitor's copy never answers a player's request.
        assert alice.get(url, HTTP_IF_NONE_MATCH=visitor.get(url)["ETag"]).status_code == 200


def test_each_visitor_gets_a_csrf_token_of_their_own(demo_after_1):
    tokens = []
    for _ in range(2):
        browser = Client(enforce_csrf_checks=True)
        html = browser.get(GENERAL).content.decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        tokens.append(token)
        # The page's token works with this browser's cookie: the language switch is accepted.
        response = browser.post(
            reverse("set_language"),
            {"language": "fr", "next": GENERAL, "csrfmiddlewaretoken": token},
        )
        assert response.status_code == 302
        assert "Classements" in browser.get(GENERAL).content.decode()
    assert tokens[0] != tokens[1]


def test_each_language_has_its_own_page(client, demo_after_1):
    english = client.get(GENERAL).content.decode()
    french = client.get(GENERAL, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Classifications" in english
    assert "Classements" in french
