"""The motor season's Grand Prix and standings pages from the page cache (issue 18), like the
cycling pages: an anonymous hit runs no query, and no page is stale after the next round is
resolved or after a publication."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from season.cache import season_changed
from season.demo import MOTOR_DEMO_SLUG, motor_demo_load
from season.models import Round, Season
from season.services import lifecycle
from season.services.resolution import round_resolve
from tests.commits import committed

pytestmark = pytest.mark.django_db

DRIVERS = reverse("season-motor-standings", args=[MOTOR_DEMO_SLUG, "drivers"])
CONSTRUCTORS = reverse("season-motor-standings", args=[MOTOR_DEMO_SLUG, "constructors"])


def _grand_prix(number):
    return reverse("season-grand-prix", args=[MOTOR_DEMO_SLUG, number])


def _resolve(season, number):
    round = Round.objects.get(season=season, number=number)
    with committed():
        lifecycle.rounds_force_lock(season=season, numbers=[number])
        return round_resolve(round_id=round.pk)


@pytest.fixture
def motor_after_1(settings):
    # As in test_page_cache.py: only what the services invalidate, not the 2-second window.
    settings.PAGE_CACHE_STATE_SECONDS = 3600
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()
    season = motor_demo_load()
    _resolve(season, 1)
    return season


def test_a_grand_prix_and_the_standings_are_answered_from_the_cache(
    client, motor_after_1, django_assert_num_queries
):
    first = client.get(_grand_prix(1))
    assert first.status_code == 200
    assert client.get(DRIVERS).status_code == 200
    with django_assert_num_queries(0):
        again = client.get(_grand_prix(1))
        drivers = client.get(DRIVERS)
    assert again.status_code == 200
    assert drivers.status_code == 200
    assert again.content.count(b"<tr") == first.content.count(b"<tr") > 12


def test_the_standings_are_not_stale_after_the_next_round(client, motor_after_1):
    assert "after round 1" in client.get(DRIVERS).content.decode()
    assert "after round 1" in client.get(CONSTRUCTORS).content.decode()
    # Round 2 is not resolved yet: its Grand Prix page sends the visitor to the round's page.
    assert client.get(_grand_prix(2)).status_code == 302
    _resolve(motor_after_1, 2)
    assert "after round 2" in client.get(DRIVERS).content.decode()
    assert "after round 2" in client.get(CONSTRUCTORS).content.decode()
    assert client.get(_grand_prix(2)).status_code == 200


def test_an_unpublished_round_stays_hidden_until_published(client, motor_after_1):
    with committed():
        Season.objects.filter(pk=motor_after_1.pk).update(auto_publish=False)
        season_changed(motor_after_1)
        lifecycle.round_publish(round=Round.objects.get(season=motor_after_1, number=1))
    _resolve(motor_after_1, 2)
    assert client.get(_grand_prix(2)).status_code == 302
    assert "after round 1" in client.get(DRIVERS).content.decode()
    with committed():
        lifecycle.round_publish(round=Round.objects.get(season=motor_after_1, number=2))
    assert client.get(_grand_prix(2)).status_code == 200
    assert "after round 2" in client.get(DRIVERS).content.decode()
