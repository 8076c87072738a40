"""Issue 29 item 1: a league always crowns a winner. The organiser chooses the players'
ranking (fantasy points by default, the Teams classification, the best rider on the GC);
every player is ranked after every round whatever the size of his team, and the end of the
race names the league's winner before the riders' podium."""

import importlib
import re
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from races.models import Standing
from season import results
from season.cache import season_changed
from season.demo import MOTOR_DEMO_SLUG, demo_load, motor_demo_load
from season.forms import SeasonSettingsForm
from season.leagues import LeagueError, season_settings_of, season_settings_update
from season.models import Season, Seat
from tests.commits import committed
from tests.season.builders import league

pytestmark = pytest.mark.django_db
ROW = re.compile(r"<tr[^>]*>(.*?)</tr>", re.S)


def _small_teams_demo(*, player_ranking: str = "points", riders: int = 2) -> Season:
    """The demo cut to two stages, each player's team cut to ``riders`` riders, both stages
    resolved and published."""
    cache.clear()
    season = demo_load()
    season.rounds.filter(number__gt=2).delete()
    Season.objects.filter(pk=season.pk).update(player_ranking=player_ranking)
    for team in season.teams.filter(owner__isnull=False):
        keep = list(Seat.objects.filter(team=team).order_by("pk").values_list("pk", flat=True))
        Seat.objects.filter(team=team).exclude(pk__in=keep[:riders]).delete()
    call_command("simulate_season", "demo", "--stages", "1-2", "--in-process", verbosity=0)
    season.refresh_from_db()
    with committed():
        season_changed(season)
    return season


def _players(season):
    return season.teams.filter(owner__isnull=False)


def _finale(client):
    page = client.get(reverse("season-detail", args=["demo"])).content.decode()
    return page.split('id="finale"', 1)[1].split("</section>", 1)[0]


def test_a_league_of_two_riders_a_team_ranks_every_player_and_names_a_winner(client):
    season = _small_teams_demo()
    players = _players(season)
    # No player's team can be in the Teams classification with two riders.
    assert not Standing.objects.filter(
        stage__race=season.event,
        classification="teams",
        entry_team_id__in=players.values_list("pk", flat=True),
    ).exists()
    for number in (1, 2):
        ranking = results.players_ranking(season=season, number=number)
        assert len(ranking) == players.count()
        assert [line.rank for line in ranking] == list(range(1, players.count() + 1))
        points = [int(line.score) for line in ranking]
        assert points == sorted(points, reverse=True)
        assert points[0] > 0
    winner = results.players_ranking(season=season, number=2)[0]

    finale = _finale(client)
    trophy = finale.split('class="league-winner"', 1)[1].split("</p>", 1)[0]
    assert "🏆" in trophy
    assert f"{winner.team} wins the league".replace("'", "&#x27;") in trophy
    # The trophy comes before the players' podium, which comes before the riders' podium.
    assert finale.index("league-winner") < finale.index("players-podium")
    assert finale.index("players-podium") < finale.index("Final podium")
    podium = finale.split('class="podium players-podium"', 1)[1].split("</ol>", 1)[0]
    first_three = results.players_ranking(season=season, number=2)[:3]
    items = podium.split("<li>")[1:]
    assert len(items) == 3
    for line, item in zip(first_three, items, strict=True):
        assert line.team.replace("'", "&#x27;") in item
        assert line.score in item
    assert "Best moments" in finale
    assert "Best stage result" in finale

    page = client.get(reverse("season-players", args=["demo"])).content.decode()
    head, body = page.split("<tbody", 1)
    assert "Points" in head
    assert "Gap (points)" in head
    rows = ROW.findall(body)
    assert len(rows) == players.count()
    for line, row in zip(results.players_ranking(season=season, number=2), rows, strict=True):
        assert re.match(rf"\s*<td[^>]*>{line.rank}</td>", row)
    assert "Ties: the more stage wins" in page


def test_the_teams_classification_still_ranks_the_teams_it_leaves_out(client):
    season = _small_teams_demo(player_ranking="teams")
    players = _players(season)
    ranking = results.players_ranking(season=season, number=2)
    assert [line.rank for line in ranking] == list(range(1, players.count() + 1))
    # Left out of the Teams classification, ranked by their best rider on the GC.
    best = {
        team_id: rank
        for team_id, rank, _name in reversed(
            Standing.objects.filter(
                stage__race=season.event,
                stage__number=2,
                classification="general",
                entry_team_id__in=[line.team_id for line in ranking],
                rank__isnull=False,
            )
            .order_by("rank")
            .values_list("entry_team_id", "rank", "rider__name")
        )
    }
    assert [line.team_id for line in ranking] == sorted(
        best, key=lambda team_id: (best[team_id], "")
    )
    assert "wins the league" in _finale(client)


def test_the_best_rider_on_the_gc_ranks_the_teams(client):
    season = _small_teams_demo(player_ranking="best_gc")
    ranking = results.players_ranking(season=season, number=2)
    places = [int(line.behind) for line in ranking]
    assert places == sorted(places)
    first = Standing.objects.get(
        stage__race=season.event, stage__number=2, classification="general", rank=places[0]
    )
    assert ranking[0].team_id == first.entry_team_id
    assert ranking[0].score == first.rider.name
    page = client.get(reverse("season-players", args=["demo"])).content.decode()
    assert "Best rider" in page
    assert "GC place" in page


def test_the_riders_podium_is_numbered_once():
    css = Path("static/css/site.css").read_text(encoding="utf-8")
    assert re.search(r"\.podium \{[^}]*list-style: none", css)


def test_the_organiser_chooses_the_ranking_until_the_season_starts(alice):
    season = league(organiser=alice)
    assert season.player_ranking == "points"  # a new season's default
    form = SeasonSettingsForm(initial=SeasonSettingsForm.initial_for(season))
    assert "player_ranking" in form.fields
    settings = season_settings_of(season)
    chosen = type(settings)(**{**settings.__dict__, "player_ranking": "best_gc"})
    season_settings_update(season=season, settings=chosen)
    assert Season.objects.get(pk=season.pk).player_ranking == "best_gc"
    from season.services import lifecycle

    lifecycle.round_open(round=season.rounds.get(number=1))
    season.refresh_from_db()
    back = type(settings)(**{**settings.__dict__, "player_ranking": "teams"})
    with pytest.raises(LeagueError, match="players' ranking"):
        season_settings_update(season=season, settings=back)
    assert Season.objects.get(pk=season.pk).player_ranking == "best_gc"


def test_the_settings_page_offers_the_ranking_to_a_stage_race_only(alice):
    season = league(organiser=alice)
    organiser = Client()
    organiser.force_login(alice)
    page = organiser.get(reverse("organiser-settings", args=[season.slug])).content.decode()
    assert 'name="player_ranking"' in page
    cache.clear()
    motor = motor_demo_load()
    organiser.force_login(motor.organiser)
    page = organiser.get(reverse("organiser-settings", args=[MOTOR_DEMO_SLUG])).content.decode()
    assert 'name="player_ranking"' not in page


@pytest.mark.postgres  # migrating back and forth inside the test's transaction: PostgreSQL's DDL
def test_existing_seasons_keep_the_teams_classification(alice):
    season = league(organiser=alice)
    with connection.cursor() as cursor:  # the rows above are checked before the ALTER TABLE
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    executor = MigrationExecutor(connection)
    executor.migrate([("season", "0022_reminders")])
    executor.loader.build_graph()
    executor.migrate([("season", "0023_season_player_ranking")])
    # Only the column of 0023 is read: a later migration's columns are not there yet.
    ranking = Season.objects.filter(pk=season.pk).values_list("player_ranking", flat=True)
    assert ranking.get() == "teams"
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert league(organiser=alice, slug="newer").player_ranking == "points"
    migration = importlib.import_module("season.migrations.0023_season_player_ranking")
    assert migration.Migration.dependencies == [("season", "0022_reminders")]


def test_the_create_form_sets_the_ranking_and_the_settings_page_keeps_it(client, charlie):
    from tests.season.builders import template_race
    from tests.season.test_organiser_views import create_data

    client.force_login(charlie)
    page = client.get(reverse("season-create")).content.decode()
    assert 'name="player_ranking"' in page
    data = create_data(template_race(stages=3, start_list=True), player_ranking="best_gc")
    assert client.post(reverse("season-create"), data).status_code == 302
    season = Season.objects.get(slug="amis")
    assert season.player_ranking == "best_gc"
    # A settings form posted without the field leaves the choice as it is.
    settings = {
        key: value
        for key, value in SeasonSettingsForm.initial_for(season).items()
        if key != "player_ranking" and value is not None and value is not False
    }
    response = client.post(reverse("organiser-settings", args=[season.slug]), settings)
    assert response.status_code == 302
    assert Season.objects.get(pk=season.pk).player_ranking == "best_gc"
