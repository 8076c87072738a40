"""Issue 30 item 4: standings across the season. League points for every race of the calendar
from the organiser's points system (races.league.season_points), the riders' and the players'
teams' tables after every round with countback, stored as snapshots in the round's
transaction, and `manage.py season_table`."""

import csv
import io
from dataclasses import replace
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.urls import reverse

from plugins.countback import Line, place_count, ranked
from races.league.fantasy import StageFacts, stage_points, team_scores
from races.league.season_points import (
    FANTASY,
    GRAND_PRIX,
    PRESETS,
    UCI,
    RaceFacts,
    race_points,
    season_tables,
)
from races.models import Classification
from season import formation
from season.cache import season_changed
from season.forms import SeasonSettingsForm
from season.leagues import (
    LeagueError,
    calendar_event_add,
    season_settings_of,
    season_settings_update,
)
from season.models import Round, Season, SeasonPoints, SeasonStanding
from season.services import lifecycle, resolution
from season.services.season_standings import season_tables_compute
from tests.commits import committed
from tests.season.builders import joined, league, stage, template_race

GC = Classification.GENERAL


def _stage(number, finish, gc, *, last=False):
    return StageFacts(
        number=number,
        finish={rider: place for place, rider in enumerate(finish, start=1)},
        standings={GC: list(gc)},
        last=last,
    )


# --- the presets (pure) -------------------------------------------------------------------------


def test_the_model_offers_exactly_the_presets_the_default_first():
    assert [c.value for c in SeasonPoints] == list(PRESETS)
    assert Season._meta.get_field("season_points").default == FANTASY == next(iter(PRESETS))


def test_grand_prix_pays_the_final_gc_top_ten_once_the_last_stage_is_done():
    riders = list(range(1, 13))
    first = _stage(1, riders, riders)
    assert race_points(RaceFacts(1, [first], {}), PRESETS[GRAND_PRIX]) == {}
    last = _stage(2, riders, list(reversed(riders)), last=True)
    points = race_points(RaceFacts(1, [first, last], {}), PRESETS[GRAND_PRIX])
    assert points == {12: 25, 11: 18, 10: 15, 9: 12, 8: 10, 7: 8, 6: 6, 5: 4, 4: 2, 3: 1}


def test_uci_pays_stage_places_and_the_final_gc():
    riders = list(range(1, 25))
    points = race_points(RaceFacts(1, [_stage(1, riders, riders, last=True)], {}), PRESETS[UCI])
    assert points[1] == 21 + 130
    assert points[5] == 6 + 60
    assert points[6] == 48
    assert points[20] == 1
    assert 21 not in points


def test_fantasy_is_the_sum_of_the_races_fantasy_points():
    riders = list(range(1, 30))
    stages = [_stage(1, riders, riders), _stage(2, riders[::-1], riders, last=True)]
    expected: dict[int, int] = {}
    for facts in stages:
        for rider, kinds in stage_points(facts).items():
            expected[rider] = expected.get(rider, 0) + sum(kinds.values())
    assert race_points(RaceFacts(1, stages, {}), PRESETS[FANTASY]) == expected


# --- the countback ------------------------------------------------------------------------------


def test_equal_points_go_to_the_most_race_wins_then_seconds_then_the_latest_race():
    gp = PRESETS[GRAND_PRIX]

    def race(event, order):
        return RaceFacts(event, [_stage(1, order, order, last=True)], {r: r for r in order})

    # Rider 1 scores 25 (1st) + 8 (6th) = 33, rider 2 18 (2nd) + 15 (3rd) = 33: rider 1 won a
    # race, rider 2 did not.
    one = race(1, [1, 2, 3, 4, 5, 6])
    two = race(2, [3, 4, 2, 5, 7, 1])
    tables = season_tables([one, two], gp, players=[1, 2])
    riders = {line.key: line for line in tables.riders}
    assert riders["1"].points == riders["2"].points == Decimal(33)
    assert riders["1"].position < riders["2"].position
    # The players' teams (team = rider here) are placed among themselves in each race: each won
    # one and was second in the other, so the latest race decides: team 2 won it.
    assert [line.points for line in tables.players] == [Decimal(33), Decimal(33)]
    assert [line.key for line in tables.players] == ["2", "1"]
    assert [line.wins for line in tables.players] == [1, 1]


def test_a_whole_countback_tie_goes_to_the_better_place_in_the_latest_race():
    a, b = Line("a"), Line("b")
    for line, places in ((a, {1: 1, 2: 2}), (b, {1: 2, 2: 1})):
        line.points = Decimal(10)
        for event, place in places.items():
            place_count(line, place, event)
    assert [line.key for line in ranked([a, b])] == ["b", "a"]


# --- a season of two races, resolved -----------------------------------------------------------


def _two_race_season(organiser, *players):
    season = league(
        organiser=organiser,
        template=template_race(stages=2),
        formation_mode=Season.FormationMode.BUDGET,
        max_per_real_team=1,
        season_points=UCI,
    )
    last = season.rounds.order_by("-number").first()
    calendar_event_add(
        season=season,
        event=template_race(stages=2),
        first_deadline=last.orders_deadline + timedelta(days=2),
        hours_between=24,
    )
    taken: list[int] = []
    for team in joined(season, *players):
        chosen = []
        teams: set[int] = set()
        for rider in formation.pool(season=season).order_by("team_id", "pk"):
            if rider.pk not in taken and rider.team_id not in teams:
                chosen.append(rider.pk)
                teams.add(rider.team_id)
            if len(chosen) == season.roster_size:
                break
        formation.team_select(team=team, pickable_ids=chosen)
        taken += chosen
    season.refresh_from_db()
    return season


def _resolve_all(season):
    numbers = list(season.rounds.order_by("number").values_list("number", flat=True))
    lifecycle.round_open(round=stage(season, 1))
    lifecycle.rounds_force_lock(season=season, numbers=numbers)
    for number in numbers:
        resolved = resolution.round_resolve(round_id=stage(season, number).pk)
        assert resolved.status == Round.Status.RESOLVED, number
    return numbers


def _stored(season, number, table):
    return [
        (row.rank, row.team_id or row.competitor_id, row.points, row.wins, row.detail["races"])
        for row in SeasonStanding.objects.filter(season=season, round=number, table=table)
    ]


def _computed(lines):
    return [(line.rank, line.key, line.points, line.wins, line.detail["races"]) for line in lines]


def test_a_two_race_season_stores_the_standings_of_every_round_as_recomputed(alice, bob):
    season = _two_race_season(alice, alice, bob)
    numbers = _resolve_all(season)
    assert numbers == [1, 2, 3, 4]
    season = Season.objects.get(pk=season.pk)
    for number in numbers:
        tables = season_tables_compute(season=season, number=number)
        assert _stored(season, number, "players") == _computed(tables.players), number
        assert _stored(season, number, "riders") == _computed(tables.riders), number
    final = SeasonStanding.objects.filter(season=season, round=4, table="players")
    assert final.count() == 2
    # After round 4 both races count: every race's final GC paid points (UCI-like).
    riders = SeasonStanding.objects.filter(season=season, round=4, table="riders")
    assert {"1", "2"} <= {key for row in riders for key in row.detail["races"]}
    assert sum(row.points for row in final) == sum(row.points for row in riders)
    # After round 2 (race 1 done) only race 1 counts.
    after_one = SeasonStanding.objects.filter(season=season, round=2, table="riders")
    assert all(set(row.detail["races"]) == {"1"} for row in after_one)


def test_season_table_prints_the_stored_tables_as_csv(alice, bob):
    season = _two_race_season(alice, alice, bob)
    _resolve_all(season)
    out = io.StringIO()
    call_command("season_table", season.slug, "--format", "csv", stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0] == ["position", "name", "points", "wins"]
    stored = SeasonStanding.objects.filter(season=season, round=4, table="players")
    assert [row[1] for row in rows[1:]] == [line.name for line in stored]
    out = io.StringIO()
    call_command(
        "season_table",
        season.slug,
        "--table",
        "riders",
        "--after",
        "2",
        "--format",
        "csv",
        stdout=out,
    )
    riders = list(csv.reader(io.StringIO(out.getvalue())))[1:]
    assert (
        len(riders) == SeasonStanding.objects.filter(season=season, round=2, table="riders").count()
    )
    # --rebuild recomputes every round's snapshot from the stored results: the same lines.
    before = list(
        SeasonStanding.objects.filter(season=season).values_list(
            "round", "table", "rank", "team_id", "competitor_id", "points", "wins", "detail"
        )
    )
    SeasonStanding.objects.filter(season=season, round__in=[1, 3]).delete()
    call_command("season_table", season.slug, "--rebuild", "--format", "csv", stdout=io.StringIO())
    after = list(
        SeasonStanding.objects.filter(season=season).values_list(
            "round", "table", "rank", "team_id", "competitor_id", "points", "wins", "detail"
        )
    )
    assert sorted(after, key=str) == sorted(before, key=str)
    with pytest.raises(CommandError, match="No season 'nope'"):
        call_command("season_table", "nope")


# --- the pages ----------------------------------------------------------------------------------


@pytest.fixture
def resolved_season(alice, bob):
    cache.clear()
    season = _two_race_season(alice, alice, bob)
    Season.objects.filter(pk=season.pk).update(auto_publish=True)
    _resolve_all(season)
    season = Season.objects.get(pk=season.pk)
    with committed():
        season_changed(season)
    return season


def test_the_season_standings_page_shows_both_tables_their_history_chart_and_csv(
    client, resolved_season
):
    season = resolved_season
    url = reverse("season-table", args=[season.slug, "players"])
    page = client.get(url).content.decode()
    assert "Season standings" in page
    assert "after round 4" in page
    first = SeasonStanding.objects.filter(season=season, round=4, table="players").first()
    assert first.name.replace("'", "&#x27;") in page
    assert 'class="chart chart-points"' in page
    assert reverse("season-table", args=[season.slug, "riders"]) in page
    # The history: after round 2 only the first race counts.
    riders = client.get(
        reverse("season-table", args=[season.slug, "riders"]), {"after": 2}
    ).content.decode()
    assert "after round 2" in riders
    top = SeasonStanding.objects.filter(season=season, round=2, table="riders").first()
    assert top.name in riders
    export = client.get(url, {"after": 4, "_export": "csv"})
    assert export["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(export.content.decode())))
    names = [
        line.name for line in SeasonStanding.objects.filter(season=season, round=4, table="players")
    ]
    assert [row[1] for row in rows[1:]] == names
    assert client.get(reverse("season-table", args=[season.slug, "nope"])).status_code == 404
    assert client.get(url, {"after": 9}).status_code == 404


def test_the_season_page_links_the_standings_and_its_finale_names_the_winner_of_the_year(
    client, resolved_season
):
    season = resolved_season
    page = client.get(reverse("season-detail", args=[season.slug])).content.decode()
    assert reverse("season-table", args=[season.slug, "players"]) in page
    finale = page.split('id="finale"', 1)[1].split("</section>", 1)[0]
    winner = SeasonStanding.objects.filter(season=season, round=4, table="players").first()
    trophy = finale.split('class="season-winner"', 1)[1].split("</p>", 1)[0]
    assert f"{winner.name} wins the season".replace("'", "&#x27;") in trophy


def test_under_fantasy_a_teams_season_points_are_its_races_fantasy_points(alice, bob):
    season = _two_race_season(alice, alice, bob)
    Season.objects.filter(pk=season.pk).update(season_points=FANTASY)
    _resolve_all(season)
    season = Season.objects.get(pk=season.pk)
    players = list(season.teams.filter(owner__isnull=False).values_list("pk", flat=True))
    totals = {team: 0 for team in players}
    for item in season.calendar():
        last = item.race.stages.order_by("-number").first()
        for team, score in team_scores(last, players=players).items():
            totals[team] += score.points
    stored = SeasonStanding.objects.filter(season=season, round=4, table="players")
    assert {row.team_id: int(row.points) for row in stored} == totals
    assert sum(totals.values()) > 0


# --- the choice -----------------------------------------------------------------------------


def test_the_create_form_sets_the_season_points_fixed_once_round_one_opens(client, charlie):
    from tests.season.test_organiser_views import create_data

    client.force_login(charlie)
    page = client.get(reverse("season-create")).content.decode()
    assert 'name="season_points"' in page
    data = create_data(template_race(stages=3, start_list=True), season_points=GRAND_PRIX)
    assert client.post(reverse("season-create"), data).status_code == 302
    season = Season.objects.get(slug="amis")
    assert season.season_points == GRAND_PRIX
    settings = reverse("organiser-settings", args=[season.slug])
    assert 'name="season_points"' in client.get(settings).content.decode()
    # A settings form posted without the field leaves the choice as it is.
    values = {
        key: value
        for key, value in SeasonSettingsForm.initial_for(season).items()
        if key != "season_points" and value is not None and value is not False
    }
    assert client.post(settings, values).status_code == 302
    assert Season.objects.get(pk=season.pk).season_points == GRAND_PRIX
    # Once round 1 opens the choice is fixed: the service refuses, naming it.
    lifecycle.round_open(round=stage(season, 1))
    changed = replace(season_settings_of(season), season_points=UCI)
    with pytest.raises(LeagueError, match="season's points"):
        season_settings_update(season=season, settings=changed)
    assert Season.objects.get(pk=season.pk).season_points == GRAND_PRIX


def test_a_championship_offers_no_season_points(client, db):
    from season.demo import MOTOR_DEMO_SLUG, motor_demo_load

    cache.clear()
    season = motor_demo_load()
    client.force_login(season.organiser)
    page = client.get(reverse("organiser-settings", args=[MOTOR_DEMO_SLUG])).content.decode()
    assert 'name="season_points"' not in page


def test_a_motor_seasons_standings_are_its_championships_own_tables(alice, bob):
    from motor.models import Standing as DriverStanding
    from season.results import players_ranking
    from tests.season.motor_builders import joined as motor_joined
    from tests.season.motor_builders import motor_league, round_resolved, two_cars_each

    season = motor_league(organiser=alice)
    two_cars_each(season, *motor_joined(season, bob))
    gp = round_resolved(season, 1).grand_prix
    drivers = [
        (row.position, row.driver_id, row.points, row.wins)
        for row in DriverStanding.objects.filter(grand_prix=gp, table="drivers").order_by(
            "position", "driver__name"
        )
    ]
    stored = [
        (row.rank, row.competitor_id, row.points, row.wins)
        for row in SeasonStanding.objects.filter(season=season, round=1, table="riders")
    ]
    assert stored == drivers
    (line,) = players_ranking(season=season, number=1)
    (player,) = SeasonStanding.objects.filter(season=season, round=1, table="players")
    assert (player.rank, player.team_id, f"{player.points.normalize():f}") == (
        line.rank,
        line.team_id,
        line.score,
    )
