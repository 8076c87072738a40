"""Issue 17, Results a fan reads: the abandoned riders with their stage and reason, the end of
the race (final podium, final jerseys, which player won the league) and the players' ranking,
each shown only once the results are visible to the visitor."""

import re
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse

from motor.models import Standing as MotorStanding
from races.models import StageResult, Standing
from season import results
from season.cache import season_changed
from season.demo import MOTOR_DEMO_SLUG, demo_load, motor_demo_load
from season.formatting import clock, gap
from season.models import Round, Season
from season.services import lifecycle
from season.services.resolution import round_resolve
from tests.commits import committed

pytestmark = pytest.mark.django_db
ROW = re.compile(r"<tr[^>]*>(.*?)</tr>", re.S)


def _two_stage_demo(*, auto_publish: bool, player_ranking: str = "teams"):
    """The demo cut to its first two stages, both resolved; published only if auto_publish;
    its players ranked by ``player_ranking``."""
    cache.clear()
    season = demo_load()
    season.rounds.filter(number__gt=2).delete()
    Season.objects.filter(pk=season.pk).update(
        auto_publish=auto_publish, player_ranking=player_ranking
    )
    call_command("simulate_season", "demo", "--stages", "1-2", "--in-process", verbosity=0)
    season.refresh_from_db()
    with committed():
        season_changed(season)
    return season


def _players_teams_order(season, number):
    owned = set(season.teams.filter(owner__isnull=False).values_list("pk", flat=True))
    lines = Standing.objects.filter(
        stage__race=season.event, stage__number=number, classification="teams"
    ).order_by("rank")
    return [line for line in lines if line.entry_team_id in owned and line.rank is not None]


def _section(page, element_id):
    return page.split(f'id="{element_id}"', 1)[1].split("</section>", 1)[0]


def test_the_end_of_the_race_shows_podium_jerseys_and_the_league_winner(client):
    season = _two_stage_demo(auto_publish=False)
    url = reverse("season-detail", args=["demo"])
    assert 'id="finale"' not in client.get(url).content.decode()  # not published yet
    client.login(username="olivia", password="olivia-demo")
    assert 'id="finale"' in client.get(url).content.decode()  # the organiser sees it
    client.logout()
    with committed():
        lifecycle.round_publish(round=season.rounds.get(number=1))
    assert 'id="finale"' not in client.get(url).content.decode()  # the last stage is not out
    with committed():
        lifecycle.round_publish(round=season.rounds.get(number=2))
    finale = _section(client.get(url).content.decode(), "finale")
    podium = finale.split('class="podium"', 1)[1].split("</ol>", 1)[0]
    lines = Standing.objects.filter(
        stage__race=season.event, stage__number=2, classification="general", rank__lte=3
    ).order_by("rank")
    items = podium.split("<li>")[1:]
    assert len(items) == 3
    for line, item in zip(lines, items, strict=True):
        assert line.rider.name.replace("'", "&#x27;") in item
        assert (clock(line.value) if line.rank == 1 else gap(line.gap)) in item
    for classification in ("points", "mountains", "youth"):
        leader = Standing.objects.get(
            stage__race=season.event, stage__number=2, classification=classification, rank=1
        )
        assert f"jersey-{classification}" in finale
        assert leader.rider.name.replace("'", "&#x27;") in finale
    assert "jersey-general" not in finale  # the yellow jersey is the podium's first
    best = _players_teams_order(season, 2)[0]
    team = season.teams.select_related("owner").get(pk=best.entry_team_id)
    assert f"{team.name} wins the league" in finale.replace("&#x27;", "'")
    assert team.owner.username in finale
    assert "The end of the race" in finale
    # The figure after a score on the players' podium says what it is (the ranking's column).
    players_podium = finale.split("players-podium", 1)[1].split("</ol>", 1)[0]
    for line in results.players_ranking(season=season, number=2)[:3]:
        if line.behind:
            assert f"Gap: {line.behind}" in players_podium


def test_before_the_last_stage_there_is_no_end_of_the_race(client):
    cache.clear()
    demo_load()
    call_command("simulate_season", "demo", "--stages", "1-2", "--in-process", verbosity=0)
    page = client.get(reverse("season-detail", args=["demo"])).content.decode()
    assert 'id="finale"' not in page
    assert reverse("season-players", args=["demo"]) in page


def test_the_players_ranking_is_the_teams_classification_of_the_players_teams(client):
    season = _two_stage_demo(auto_publish=True)
    expected = _players_teams_order(season, 2)
    computer = season.teams.filter(owner__isnull=True)
    assert computer.exists()
    ranking = results.players_ranking(season=season, number=2)
    assert [line.team_id for line in ranking] == [line.entry_team_id for line in expected]
    assert [line.rank for line in ranking] == list(range(1, len(expected) + 1))
    best = expected[0].value
    assert [line.behind for line in ranking] == [gap(line.value - best) for line in expected]
    page = client.get(reverse("season-players", args=["demo"])).content.decode()
    rows = ROW.findall(page.split("<tbody", 1)[1])
    assert len(rows) == len(expected)
    for line, row in zip(ranking, rows, strict=True):
        assert f">{line.player}</td>" in row
        assert line.team.replace("'", "&#x27;") in row
    for team in computer:
        assert f">{team.name}</a>" not in page
    # After stage 1 on request, the stage-1 order.
    after_one = client.get(reverse("season-players", args=["demo"]) + "?after=1")
    assert after_one.status_code == 200
    first = _players_teams_order(season, 1)[0]
    assert (
        next(line.team_id for line in results.players_ranking(season=season, number=1))
        == first.entry_team_id
    )


def test_the_players_ranking_hides_what_is_not_published(client):
    _two_stage_demo(auto_publish=False)
    url = reverse("season-players", args=["demo"])
    assert client.get(url + "?after=1").status_code == 404
    page = client.get(url).content.decode()
    assert "No results yet" in page
    client.login(username="olivia", password="olivia-demo")
    assert client.get(url + "?after=2").status_code == 200


def test_the_abandons_list_the_stage_and_the_reason(client):
    season = _two_stage_demo(auto_publish=False)
    lifecycle.round_publish(round=season.rounds.get(number=1))
    one, two = (
        StageResult.objects.filter(stage__race=season.event, stage__number=n, rank__gt=100)
        .select_related("rider")
        .first()
        for n in (1, 2)
    )
    StageResult.objects.filter(pk=one.pk).update(
        status=StageResult.Status.CRASHED_OUT, status_reason="crash"
    )
    StageResult.objects.filter(pk=two.pk).update(status=StageResult.Status.OUTSIDE_TIME_LIMIT)
    cache.clear()
    out = [s for s in StageResult.Status.values if s != StageResult.Status.FINISHED]
    out_in = {
        n: set(
            StageResult.objects.filter(
                stage__race=season.event, stage__number=n, status__in=out
            ).values_list("rider_id", flat=True)
        )
        for n in (1, 2)
    }
    url = reverse("season-abandons", args=["demo"])
    page = client.get(url).content.decode()
    rows = ROW.findall(page.split("<tbody", 1)[1])
    # Stage 2 is not published: its abandons are not shown.
    assert len(rows) == len(out_in[1])
    assert all(reverse("season-stage", args=["demo", 1]) in row for row in rows)
    (row,) = [r for r in rows if reverse("season-rider", args=["demo", one.rider_id]) in r]
    assert "crashed out" in row
    assert ">a crash</td>" in row
    assert not any(reverse("season-rider", args=["demo", two.rider_id]) in r for r in rows)
    client.login(username="olivia", password="olivia-demo")
    rows = ROW.findall(client.get(url).content.decode().split("<tbody", 1)[1])
    assert len(rows) == len(out_in[1]) + len(out_in[2])
    (row,) = [r for r in rows if reverse("season-rider", args=["demo", two.rider_id]) in r]
    assert "outside time limit" in row
    # No reason stored: the status in words, never a bare dash.
    assert ">finished outside the time limit</td>" in row
    assert "—" not in "".join(rows)
    assert reverse("season-stage", args=["demo", 2]) in row
    # Linked from the stage page and the classifications.
    client.logout()
    for page_url in (
        reverse("season-stage", args=["demo", 1]),
        reverse("season-standings", args=["demo", "general"]),
    ):
        assert url in client.get(page_url).content.decode(), page_url


def test_a_motor_seasons_players_ranking_adds_up_each_teams_drivers(client):
    cache.clear()
    season = motor_demo_load()
    round_resolve(round_id=season.rounds.get(number=1).pk)
    ranking = results.players_ranking(season=season, number=1)
    points = {
        s.driver_id: s.points
        for s in MotorStanding.objects.filter(
            grand_prix=season.rounds.get(number=1).grand_prix, table="drivers"
        )
    }
    players = season.teams.filter(owner__isnull=False)
    assert {line.team_id for line in ranking} == set(players.values_list("pk", flat=True))
    totals = {
        team.pk: sum(
            (points.get(car.entry.driver_id, Decimal(0)) for car in team.seats.all()), Decimal(0)
        )
        for team in players
    }
    assert [totals[line.team_id] for line in ranking] == sorted(totals.values(), reverse=True)
    for line in ranking:
        assert Decimal(line.score) == totals[line.team_id]
    page = client.get(reverse("season-players", args=[MOTOR_DEMO_SLUG])).content.decode()
    assert "Wins" in page
    assert ranking[0].team in page


def _motor_demo_after_two_rounds():
    """The motor demo cut to its first two Grands Prix, both resolved: the end of its race."""
    season = motor_demo_load()
    season.rounds.filter(number__gt=2).delete()
    for number in (1, 2):
        round = season.rounds.get(number=number)
        if round.status == Round.Status.SCHEDULED:
            lifecycle.round_open(round=round)
        round_resolve(round_id=round.pk)
    with committed():
        season_changed(season)
    return season


def test_a_motor_season_ends_with_the_drivers_podium_and_the_league_winner(client):
    cache.clear()
    season = _motor_demo_after_two_rounds()
    page = client.get(reverse("season-detail", args=[MOTOR_DEMO_SLUG])).content.decode()
    finale = _section(page, "finale")
    gp = season.rounds.get(number=2).grand_prix
    # Drivers level on points and countback share a place: the podium shows them all.
    top = MotorStanding.objects.filter(grand_prix=gp, table="drivers", position__lte=3).order_by(
        "position"
    )
    items = finale.split('class="podium"', 1)[1].split("</ol>", 1)[0].split("<li>")[1:]
    assert len(items) == top.count() >= 3
    for line in top:
        assert sum(line.driver.name in item for item in items) == 1, line.driver.name
    best = results.players_ranking(season=season, number=2)[0]
    assert f"{best.team} wins the league" in finale.replace("&#x27;", "'")
    assert "Drivers' championship" in finale.replace("&#x27;", "'")
    # A championship ends, not a race; the figure after each player's points is his wins.
    assert "The end of the championship" in finale
    assert "race" not in finale.lower()
    players_podium = finale.split("players-podium", 1)[1].split("</ol>", 1)[0]
    for line in results.players_ranking(season=season, number=2):
        assert f"Wins: {line.behind}" in players_podium


def test_the_season_page_at_the_end_stays_within_fifteen_queries(
    client, django_assert_max_num_queries
):
    """Issue 18: no page above 15 queries on a cache miss, the end of the race included (the
    last round's number, the teams' names, the last Grand Prix and the cars read once)."""
    _two_stage_demo(auto_publish=True)
    _motor_demo_after_two_rounds()
    for slug in ("demo", MOTOR_DEMO_SLUG):
        cache.clear()
        with django_assert_max_num_queries(15):
            page = client.get(reverse("season-detail", args=[slug])).content.decode()
        assert 'id="finale"' in page
