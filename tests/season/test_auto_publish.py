"""Auto-publish (issue 18): the organiser turns it on and off in the season's settings, the
season's pages follow at once, and an auto-publishing season tells its players of the results
as soon as a round is resolved."""

from datetime import timedelta

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from season.demo import demo_load
from season.forms import SeasonSettingsForm
from season.models import Round, Season
from season.notifications import notifications_send
from season.services import lifecycle
from season.services.resolution import round_resolve
from tests.commits import committed
from tests.season.builders import only_results_due

pytestmark = pytest.mark.django_db

STAGE_1 = reverse("season-stage", args=["demo", 1])


@pytest.fixture
def demo():
    cache.clear()
    season = demo_load()
    lifecycle.rounds_force_lock(season=season, numbers=[1])
    round_resolve(round_id=Round.objects.get(season=season, number=1).pk)
    return Season.objects.get(pk=season.pk)


def _settings_post(organiser, season, **changes):
    data = {
        key: value
        for key, value in SeasonSettingsForm.initial_for(season).items()
        if value is not None and value is not False
    }
    for key, value in changes.items():
        if value is False:
            data.pop(key, None)
        else:
            data[key] = value
    return organiser.post(reverse("organiser-settings", args=[season.slug]), data)


def test_the_organiser_turns_auto_publish_off_and_on(demo):
    visitor, olivia = Client(), Client()
    olivia.login(username="olivia", password="olivia-demo")
    assert demo.auto_publish
    form = olivia.get(reverse("organiser-settings", args=["demo"])).content.decode()
    assert 'name="auto_publish"' in form
    assert "Results</h2>" in visitor.get(STAGE_1).content.decode()
    assert "Results</h2>" in visitor.get(STAGE_1).content.decode()  # kept

    with committed():
        response = _settings_post(olivia, demo, auto_publish=False)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert not Season.objects.get(pk=demo.pk).auto_publish
    # The visitor's next page no longer shows the unpublished results; the organiser's does.
    assert "Results</h2>" not in visitor.get(STAGE_1).content.decode()
    assert "Results</h2>" in olivia.get(STAGE_1).content.decode()

    with committed():
        _settings_post(olivia, Season.objects.get(pk=demo.pk), auto_publish="on")
    assert Season.objects.get(pk=demo.pk).auto_publish
    assert "Results</h2>" in visitor.get(STAGE_1).content.decode()


def test_a_settings_form_without_the_field_leaves_auto_publish_alone(demo):
    from season.leagues import season_settings_of, season_settings_update

    unchanged = season_settings_of(demo)
    season_settings_update(
        season=demo, settings=type(unchanged)(**{**unchanged.__dict__, "auto_publish": None})
    )
    assert Season.objects.get(pk=demo.pk).auto_publish


def _players_told(season):
    first = Round.objects.get(season=season, number=1)
    # Only the results notices are due.
    only_results_due(season, at=first.orders_deadline)
    mail.outbox.clear()
    return notifications_send(now=first.orders_deadline + timedelta(minutes=5))


def test_an_auto_publishing_season_tells_its_players_once_a_round_is_resolved():
    season = demo_load()
    assert season.auto_publish
    lifecycle.rounds_force_lock(season=season, numbers=[1])
    assert _players_told(season) == 0  # locked: nothing to tell yet
    round_resolve(round_id=Round.objects.get(season=season, number=1).pk)
    assert _players_told(season) == 3
    assert "results of stage 1" in mail.outbox[0].subject
    assert "/seasons/demo/stages/1/" in mail.outbox[0].body
    assert _players_told(season) == 0  # once


def test_a_season_that_publishes_by_hand_tells_its_players_on_publication():
    season = demo_load()
    Season.objects.filter(pk=season.pk).update(auto_publish=False)
    lifecycle.rounds_force_lock(season=season, numbers=[1])
    round_resolve(round_id=Round.objects.get(season=season, number=1).pk)
    assert _players_told(season) == 0
    lifecycle.round_publish(round=Round.objects.get(season=season, number=1))
    assert _players_told(season) == 3
