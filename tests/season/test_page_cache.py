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
from tests.commits import committed

pytestmark = pytest.mark.django_db

GENERAL = reverse("season-standings", args=["demo", "general"])
SEASON = reverse("season-detail", args=["demo"])


@pytest.fixture(
    params=["locmem", pytest.param("redis", marks=pytest.mark.redis)],
)
def page_cache(request, settings):
    # A page's state is kept PAGE_CACHE_STATE_SECONDS (2 s) for changes made outside the
    # services; on a loaded machine two requests can be further apart than that. These tests
    # look at what the services invalidate, so the state lives as long as the test.
    settings.PAGE_CACHE_STATE_SECONDS = 3600
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
    with committed():
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
    with committed():
        lifecycle.rounds_force_lock(season=demo_after_1, numbers=[2])
    assert "after stage 1" in client.get(GENERAL).content.decode()
    assert "Latest stage (1)" in client.get(SEASON).content.decode()
    with committed():
        round_resolve(round_id=Round.objects.get(season=demo_after_1, number=2).pk)
    assert "after stage 2" in client.get(GENERAL).content.decode()
    assert "Latest stage (2)" in client.get(SEASON).content.decode()
    stage_2 = client.get(reverse("season-stage", args=["demo", 2])).content.decode()
    assert "Results</h2>" in stage_2


def test_no_stale_page_after_a_publication(client, demo_after_1):
    with committed():
        Season.objects.filter(pk=demo_after_1.pk).update(auto_publish=False)
        season_changed(demo_after_1)
    stage_1 = reverse("season-stage", args=["demo", 1])
    assert "Results</h2>" not in client.get(stage_1).content.decode()
    assert "after stage 1" not in client.get(GENERAL).content.decode()
    with committed():
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


def _token_secret(html: str) -> str:
    from django.middleware.csrf import _unmask_cipher_token

    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    return _unmask_cipher_token(token)


def test_an_anonymous_page_is_answered_whole_before_the_view(
    client, demo_after_1, monkeypatch, django_assert_num_queries
):
    assert "after stage 1" in client.get(GENERAL).content.decode()
    # From now on neither the view nor the block cache is reached for an anonymous visitor.
    monkeypatch.setattr("season.cache.season_access", _unreachable)
    monkeypatch.setattr("season.cache.page_parts", _unreachable)
    with django_assert_num_queries(0):
        kept = client.get(GENERAL)
    assert kept.status_code == 200
    assert "after stage 1" in kept.content.decode()
    assert kept["Content-Language"] == "en"
    assert kept["X-Frame-Options"] == "DENY"
    assert int(kept["Content-Length"]) == len(kept.content)
    # Each new visitor gets a CSRF secret of their own and a token made from it, which works.
    secrets = set()
    for _ in range(2):
        browser = Client(enforce_csrf_checks=True)
        with django_assert_num_queries(0):
            page = browser.get(GENERAL)
        secret = page.cookies["csrftoken"].value
        html = page.content.decode()
        assert _token_secret(html) == secret
        assert secret not in html
        secrets.add(secret)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        monkeypatch.undo()  # the language switch and the French page go through the stack
        response = browser.post(
            reverse("set_language"),
            {"language": "fr", "next": GENERAL, "csrfmiddlewaretoken": token},
        )
        assert response.status_code == 302
        assert "Classements" in browser.get(GENERAL).content.decode()
        monkeypatch.setattr("season.cache.season_access", _unreachable)
        monkeypatch.setattr("season.cache.page_parts", _unreachable)
    assert len(secrets) == 2
    # A visitor who keeps a cookie gets pages made from that same secret.
    assert _token_secret(client.get(GENERAL).content.decode()) == client.cookies["csrftoken"].value


def _unreachable(*args, **kwargs):
    raise AssertionError("a kept anonymous page went through the view")


def test_a_logged_in_visitor_is_never_answered_a_kept_page(demo_after_1):
    visitor, alice = Client(), Client()
    visitor.get(GENERAL)
    assert "Log out" not in visitor.get(GENERAL).content.decode()
    alice.login(username="alice", password="alice-demo")
    player = alice.get(GENERAL).content.decode()
    assert '<span class="who">alice</span>' in player
    # and her page is never kept for the next visitor
    assert "alice" not in Client().get(GENERAL).content.decode()


def test_a_season_made_private_is_not_answered_from_a_kept_page(client, demo_after_1):
    for url in (GENERAL, SEASON, reverse("season-stage", args=["demo", 1])):
        assert client.get(url).status_code == 200
        assert client.get(url).status_code == 200
    with committed():
        Season.objects.filter(pk=demo_after_1.pk).update(is_public=False)
        season_changed(demo_after_1)
    for url in (GENERAL, SEASON, reverse("season-stage", args=["demo", 1])):
        assert client.get(url).status_code == 404


def test_who_may_get_a_kept_page():
    from django.test import RequestFactory

    from season.cache import anonymous

    factory = RequestFactory()
    assert anonymous(factory.get(GENERAL))
    with_cookies = factory.get(GENERAL)
    with_cookies.COOKIES = {"csrftoken": "x" * 32, "django_language": "fr"}
    assert anonymous(with_cookies)
    for cookie in ("sessionid", "messages"):
        request = factory.get(GENERAL)
        request.COOKIES = {cookie: "x"}
        assert not anonymous(request)
    assert not anonymous(factory.get(GENERAL, HTTP_HX_REQUEST="true"))
    assert not anonymous(factory.post(GENERAL))
    assert not anonymous(factory.head(GENERAL))


def test_a_state_read_while_a_change_commits_is_not_kept(demo_after_1, monkeypatch):
    """A request that reads the season's rows just before a change commits must not keep what
    it read after the change has marked the state: the next request would show the old pages."""
    from season import cache as page_cache

    build = page_cache._state_build

    def build_during_a_change(slug):
        state = build(slug)  # the rows as they were
        with committed():
            page_cache.season_changed(demo_after_1)  # a change commits meanwhile
        return state

    with committed():
        page_cache.season_changed(demo_after_1)
    monkeypatch.setattr(page_cache, "_state_build", build_during_a_change)
    old = page_cache.season_state("demo")
    monkeypatch.setattr(page_cache, "_state_build", build)
    assert old is not None
    new = page_cache.season_state("demo")
    assert new.version != old.version
    assert page_cache.season_state("demo") == new  # kept once nothing changes meanwhile


def test_a_copy_kept_in_this_process_goes_soon_after_the_shared_one(
    client, demo_after_1, page_cache, monkeypatch, settings
):
    """The shared entry expired or the cache was cleared: this process's copy of the page
    (same version) is served for PAGE_CACHE_STATE_SECONDS at most, then the page is rebuilt."""
    if page_cache == "redis":
        pytest.skip("clearing a Redis cache empties its whole database")
    import time
    from types import SimpleNamespace

    from season import cache as pages

    assert "after stage 1" in client.get(GENERAL).content.decode()
    cache.clear()
    reached = []
    real = pages.season_access
    monkeypatch.setattr(pages, "season_access", lambda *a, **k: reached.append(1) or real(*a, **k))
    assert "after stage 1" in client.get(GENERAL).content.decode()
    assert reached == []  # this process's copy, still fresh
    later = time.monotonic() + settings.PAGE_CACHE_STATE_SECONDS + 1
    monkeypatch.setattr(pages, "time", SimpleNamespace(monotonic=lambda: later))
    assert "after stage 1" in client.get(GENERAL).content.decode()
    assert reached == [1]


def _page_entries(page_cache) -> list[str]:
    """The keys of kept pages and whole responses in the cache (this test's own on Redis)."""
    if page_cache == "redis":
        keys = [k.decode() for k in cache._cache.get_client().keys(cache.make_key("*"))]
    else:
        keys = list(cache._cache)
    return sorted(k for k in keys if "gt:page:" in k or "gt:response:" in k)


@pytest.mark.parametrize("url", [SEASON, GENERAL])
def test_unknown_query_parameters_keep_no_more_pages(client, demo_after_1, page_cache, url):
    """Issue 28: each ``?z=N`` was rendered and kept, 2,000 of them filled Redis."""
    plain = client.get(url).content.decode()
    before = _page_entries(page_cache)
    assert len(before) == 2  # the shared parts and the whole response
    for n in range(200):
        response = client.get(f"{url}?z={n}")
        assert response.status_code == 200
    assert _page_entries(page_cache) == before
    # The same page: the parameter is one no page reads.
    assert "stage 1" in plain
    assert client.get(f"{url}?z=7").content.decode().count("<table") == plain.count("<table")


def test_at_most_max_variants_of_a_page_are_kept(client, demo_after_1, page_cache):
    from season.cache import MAX_VARIANTS

    for n in range(MAX_VARIANTS + 30):
        assert client.get(f"{GENERAL}?page={n}").status_code == 200
    # One response and one set of parts per kept query string, the page without one aside.
    assert len(_page_entries(page_cache)) <= 2 * MAX_VARIANTS


def test_the_order_of_known_parameters_is_one_page(client, demo_after_1, page_cache):
    client.get(f"{GENERAL}?sort=rank&page=1")
    kept = len(_page_entries(page_cache))
    client.get(f"{GENERAL}?page=1&sort=rank")
    assert len(_page_entries(page_cache)) == kept == 2
    # A known parameter given twice, or too long, is rendered and not kept.
    client.get(f"{GENERAL}?page=1&page=2")
    client.get(f"{GENERAL}?sort=" + "x" * 500)
    assert len(_page_entries(page_cache)) == kept


def test_a_query_of_known_parameters_is_kept_whole(
    client, demo_after_1, page_cache, django_assert_num_queries
):
    first = client.get(f"{SEASON}?comments=2").content.decode()
    with django_assert_num_queries(0):
        again = client.get(f"{SEASON}?comments=2").content.decode()
    assert again.count("<table") == first.count("<table")
    # An unknown parameter beside it: rendered around the kept blocks, never kept whole.
    client.get(f"{SEASON}?comments=2&z=1")
    assert len(_page_entries(page_cache)) == 2
