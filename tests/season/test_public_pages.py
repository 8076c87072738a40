"""The public pages of a season, as a visitor, a player and the organiser see them."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from races.models import StageResult
from season.demo import demo_load
from season.models import Round
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

MAX_QUERIES = 15


@pytest.fixture
def resolved_demo():
    season = demo_load()
    call_command("simulate_season", "demo", "--stages", "1-2", "--in-process", verbosity=0)
    return season


def page_urls(season, rider_id, team_id):
    return [
        reverse("home"),
        reverse("season-detail", args=["demo"]),
        reverse("season-stage", args=["demo", 1]),
        reverse("season-stage", args=["demo", 3]),
        reverse("season-stage-dice", args=["demo", 1]),
        *(
            reverse("season-standings", args=["demo", c]) + "?after=2"
            for c in ("general", "points", "mountains", "youth", "teams")
        ),
        reverse("season-rider", args=["demo", rider_id]),
        reverse("season-team", args=["demo", team_id]),
    ]


def test_every_page_renders_for_a_visitor_in_few_queries(
    client, resolved_demo, django_assert_max_num_queries
):
    result = StageResult.objects.filter(stage__race=resolved_demo.event).first()
    team = resolved_demo.teams.first()
    for url in page_urls(resolved_demo, result.rider_id, team.pk):
        with django_assert_max_num_queries(MAX_QUERIES):
            response = client.get(url)
        assert response.status_code == 200, url


def test_stage_results_show_same_time_and_export_csv(client, resolved_demo):
    url = reverse("season-stage", args=["demo", 1])
    html = client.get(url).content.decode()
    assert "s.t." in html
    csv = client.get(url + "?_export=csv")
    assert csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().strip().splitlines()
    assert len(lines) == 177  # header + 176 riders


def test_standings_show_the_jerseys_and_the_gc_chart(client, resolved_demo):
    html = client.get(reverse("season-standings", args=["demo", "general"])).content.decode()
    assert "Yellow" in html
    assert "Green" in html
    assert "<svg" in html


def test_a_private_season_is_hidden_from_strangers(client, resolved_demo):
    type(resolved_demo).objects.filter(pk=resolved_demo.pk).update(is_public=False)
    assert client.get(reverse("season-detail", args=["demo"])).status_code == 404
    client.force_login(UserFactory(username="dave"))
    assert client.get(reverse("season-stage", args=["demo", 1])).status_code == 404
    client.login(username="alice", password="alice-demo")
    assert client.get(reverse("season-stage", args=["demo", 1])).status_code == 200


def test_only_the_organiser_sees_the_stage_buttons(client, resolved_demo):
    url = reverse("season-stage", args=["demo", 3])
    client.login(username="alice", password="alice-demo")
    assert "Resolve now" not in client.get(url).content.decode()
    client.login(username="olivia", password="olivia-demo")
    assert "Resolve now" in client.get(url).content.decode()


def test_a_player_cannot_resolve_or_publish_a_stage(client, resolved_demo):
    client.login(username="alice", password="alice-demo")
    stage_3 = Round.objects.get(season=resolved_demo, number=3)
    response = client.post(reverse("season-stage-action", args=["demo", 3, "resolve"]))
    assert response.status_code == 403
    response = client.post(reverse("season-stage-action", args=["demo", 2, "publish"]))
    assert response.status_code == 403
    stage_3.refresh_from_db()
    assert stage_3.status == Round.Status.OPEN
    assert not stage_3.jobs.exists()
    assert Round.objects.get(season=resolved_demo, number=2).status == "resolved"


def test_the_organiser_publishes_results(client, resolved_demo):
    client.login(username="olivia", password="olivia-demo")
    response = client.post(reverse("season-stage-action", args=["demo", 2, "publish"]))
    assert response.status_code == 302
    assert Round.objects.get(season=resolved_demo, number=2).status == "published"


def test_stage_actions_need_a_post(client, resolved_demo):
    client.login(username="olivia", password="olivia-demo")
    response = client.get(reverse("season-stage-action", args=["demo", 3, "resolve"]))
    assert response.status_code == 405


def test_the_progress_fragment_reloads_the_page_once_the_stage_is_resolved(
    client, resolved_demo, django_capture_on_commit_callbacks
):
    client.login(username="olivia", password="olivia-demo")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("season-stage-action", args=["demo", 3, "resolve"]))
    response = client.get(reverse("season-stage-job", args=["demo", 3]), HTTP_HX_REQUEST="true")
    assert response["HX-Refresh"] == "true"
    assert "Resolved." in response.content.decode()
