"""Results are the organiser's until published (issue 17 "Publish results hides nothing"), or
public as soon as resolved when the season auto-publishes; seen as a visitor, a player and the
organiser, before and after publishing."""

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse

from races.models import StageResult
from season.demo import demo_load
from season.models import Round, Season
from season.permissions import (
    ORGANISER_VIEW,
    PUBLIC_VIEW,
    round_results_visible,
    status_visible,
    visible_upto,
)
from season.services import lifecycle
from tests.commits import committed

pytestmark = pytest.mark.django_db

HIDDEN_NOTE = "The results of this stage are not published yet."


@pytest.fixture
def private_results():
    """The demo with auto-publish off and stages 1 and 2 resolved, none published."""
    cache.clear()
    season = demo_load()
    Season.objects.filter(pk=season.pk).update(auto_publish=False)
    call_command("simulate_season", "demo", "--stages", "1-2", "--in-process", verbosity=0)
    season.refresh_from_db()
    return season


def _as(client, who):
    client.logout()
    if who != "visitor":
        client.login(username=who, password=f"{who}-demo")
    return client


def _winner_name(season, number):
    return (
        StageResult.objects.filter(stage__race=season.event, stage__number=number, rank=1)
        .select_related("rider")
        .get()
        .rider.name
    )


def _pages(season):
    rider_id = _rider_of_team_with_results(season)
    team_id = season.teams.get(seats__rider_id=rider_id).pk
    return {
        "stage": reverse("season-stage", args=["demo", 1]),
        "dice": reverse("season-stage-dice", args=["demo", 1]),
        # The printed communiqué (issue 34): the same rule as the stage's results.
        "sheet": reverse("season-round-sheet", args=["demo", 1]),
        "general after 1": reverse("season-standings", args=["demo", "general"]) + "?after=1",
        "rider": reverse("season-rider", args=["demo", rider_id]),
        "team": reverse("season-team", args=["demo", team_id]),
    }


def _rider_of_team_with_results(season):
    return (
        StageResult.objects.filter(stage__race=season.event, stage__number=1, rank=1)
        .values_list("rider_id", flat=True)
        .get()
    )


@pytest.mark.parametrize("who", ["visitor", "alice"])
def test_unpublished_results_are_hidden_from_visitors_and_players(client, private_results, who):
    pages = _pages(private_results)
    # The organiser reads every page first: nothing of the organiser's view is served on.
    organiser = _as(client, "olivia")
    for url in [*pages.values(), reverse("season-standings", args=["demo", "general"]), "/"]:
        assert organiser.get(url).status_code == 200, url
    organiser.get(reverse("season-detail", args=["demo"]))
    client = _as(client, who)
    stage = client.get(pages["stage"]).content.decode()
    assert HIDDEN_NOTE in stage
    assert _winner_name(private_results, 1) not in stage
    assert "Results</h2>" not in stage
    assert client.get(pages["dice"]).status_code == 404
    assert client.get(pages["sheet"]).status_code == 404
    assert client.get(reverse("season-sheet", args=["demo"])).status_code == 404
    assert client.get(pages["general after 1"]).status_code == 404
    # The standings page itself shows no stage's standings, nor any jersey.
    general = client.get(reverse("season-standings", args=["demo", "general"])).content.decode()
    assert "after stage" not in general
    assert "Yellow" not in general
    season_page = client.get(reverse("season-detail", args=["demo"])).content.decode()
    assert "Jerseys after stage" not in season_page
    assert "Latest stage" not in season_page
    rider = client.get(pages["rider"]).content.decode()
    assert "/stages/1/" not in rider.split("<table", 1)[-1]
    team = client.get(pages["team"]).content.decode()
    assert "+0:" not in team
    assert "s.t." not in team


def test_the_organiser_sees_unpublished_results(client, private_results):
    client = _as(client, "olivia")
    pages = _pages(private_results)
    stage = client.get(pages["stage"]).content.decode()
    assert HIDDEN_NOTE not in stage
    assert _winner_name(private_results, 1) in stage
    assert "Publish results (hidden from players and visitors until then)" in stage
    assert client.get(pages["dice"]).status_code == 200
    general = client.get(pages["general after 1"])
    assert general.status_code == 200
    assert "after stage 2" in client.get(
        reverse("season-standings", args=["demo", "general"])
    ).content.decode("utf-8")


@pytest.mark.parametrize("who", ["visitor", "alice"])
def test_published_results_are_shown_to_everyone_stage_by_stage(client, private_results, who):
    # Everyone looks once before (the pages are cached), then the organiser publishes stage 1.
    client = _as(client, who)
    pages = _pages(private_results)
    assert HIDDEN_NOTE in client.get(pages["stage"]).content.decode()
    with committed():
        lifecycle.round_publish(round=Round.objects.get(season=private_results, number=1))
    stage = client.get(pages["stage"]).content.decode()
    assert HIDDEN_NOTE not in stage
    assert _winner_name(private_results, 1) in stage
    assert client.get(pages["dice"]).status_code == 200
    assert client.get(pages["sheet"]).status_code == 200
    assert client.get(pages["general after 1"]).status_code == 200
    general = client.get(reverse("season-standings", args=["demo", "general"])).content.decode()
    # The latest standings a visitor may see: after stage 1, stage 2 is not published.
    assert "after stage 1" in general
    assert "after stage 2" not in general
    stage_2 = client.get(reverse("season-stage", args=["demo", 2])).content.decode()
    assert HIDDEN_NOTE in stage_2
    assert (
        client.get(reverse("season-standings", args=["demo", "general"]) + "?after=2").status_code
        == 404
    )


def test_with_auto_publish_results_are_public_once_resolved(client, private_results):
    private_results.auto_publish = True
    private_results.save(update_fields=["auto_publish"])
    client = _as(client, "visitor")
    stage = client.get(reverse("season-stage", args=["demo", 2])).content.decode()
    assert HIDDEN_NOTE not in stage
    assert _winner_name(private_results, 2) in stage
    general = client.get(reverse("season-standings", args=["demo", "general"])).content.decode()
    assert "after stage 2" in general
    organiser = _as(client, "olivia").get(reverse("season-stage", args=["demo", 2]))
    assert "Publish results (already public: auto-publish is on)" in organiser.content.decode()


def test_one_rule_decides_for_every_status():
    assert not status_visible("open", auto_publish=True, view=ORGANISER_VIEW)
    assert not status_visible("resolving", auto_publish=True, view=ORGANISER_VIEW)
    assert status_visible("resolved", auto_publish=False, view=ORGANISER_VIEW)
    assert not status_visible("resolved", auto_publish=False, view=PUBLIC_VIEW)
    assert status_visible("resolved", auto_publish=True, view=PUBLIC_VIEW)
    assert status_visible("published", auto_publish=False, view=PUBLIC_VIEW)
    # Standings sum every round up to theirs: a hidden round hides the later standings too.
    statuses = [(1, "published"), (2, "resolved"), (3, "published"), (4, "open")]
    assert visible_upto(statuses, auto_publish=False, view=PUBLIC_VIEW) == 1
    assert visible_upto(statuses, auto_publish=False, view=ORGANISER_VIEW) == 3
    assert visible_upto(statuses, auto_publish=True, view=PUBLIC_VIEW) == 3


def test_round_results_visible_reads_the_season_and_the_user(private_results):
    alice = User.objects.get(username="alice")
    round = Round.objects.get(season=private_results, number=1)
    assert round_results_visible(private_results, round, private_results.organiser)
    assert not round_results_visible(private_results, round, alice)
    private_results.auto_publish = True
    assert round_results_visible(private_results, round, alice)
