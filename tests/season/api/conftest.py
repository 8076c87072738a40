"""The leagues the API's tests read: the demo stage race and the demo championship, each with
rounds 1 and 2 published, round 3 resolved but not published (auto-publish off) and round 4
open for orders; and a private season of Olivia's that Alice plays in."""

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client

from accounts.api_tokens import api_token_renew
from season.demo import demo_load, motor_demo_load
from season.models import Round, Season
from season.services import lifecycle
from tests.season.builders import joined, league

CYCLING = "demo"
MOTOR = "demo-f1"
PRIVATE = "secret-tour"


def _four_rounds(slug: str) -> Season:
    season = Season.objects.get(slug=slug)
    Season.objects.filter(pk=season.pk).update(auto_publish=False)
    call_command("simulate_season", slug, "--stages", "1-3", "--in-process", verbosity=0)
    for number in (1, 2):
        lifecycle.round_publish(round=Round.objects.get(season=season, number=number))
    fourth = Round.objects.get(season=season, number=4)
    if fourth.status == Round.Status.SCHEDULED:
        lifecycle.round_open(round=fourth)
    season.refresh_from_db()
    return season


@pytest.fixture
def leagues(db):
    cache.clear()
    demo_load()
    motor_demo_load()
    cycling, motor = _four_rounds(CYCLING), _four_rounds(MOTOR)
    from django.contrib.auth.models import User

    olivia, alice = User.objects.get(username="olivia"), User.objects.get(username="alice")
    private = league(organiser=olivia, slug=PRIVATE, is_public=False)
    joined(private, alice)
    cache.clear()
    return {"cycling": cycling, "motor": motor, "private": private}


@pytest.fixture
def api(settings):
    """A client of the API, without the rate limits' usual bounds."""
    settings.API_RATE_ANONYMOUS = 100_000
    settings.API_RATE_TOKEN = 100_000
    return Client()


def token_of(username: str) -> str:
    from django.contrib.auth.models import User

    return api_token_renew(user=User.objects.get(username=username))


def bearer(key: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}
