from itertools import pairwise

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils.html import escape

from races.models import Race, StageResult
from riders.models import Rider, Team
from season.demo import (
    DEMO_LOGINS,
    SEASON_DEMO_ROSTER,
    SEASON_DEMO_SLUG,
    SEASON_DEMO_STARTERS,
    season_demo_load,
)
from season.models import DONE_STATUSES, Round, Season, SeasonStanding, SeasonTeam, Seat
from season.services.season_standings import standings_lines


@pytest.mark.django_db
def test_load_demo_builds_the_tour_de_france_2023_as_a_league():
    call_command("load_demo", verbosity=0)
    season = Season.objects.get(slug="demo")
    assert season.is_public
    assert season.event.kind == Race.Kind.LEAGUE
    assert season.event.template.slug == "tour-de-france-2023"
    assert season.event.stages.count() == 21
    assert Team.objects.count() == 22
    assert Rider.objects.count() == 176
    assert SeasonTeam.objects.filter(season=season).count() == 22
    assert Seat.objects.filter(season=season).count() == 176
    assert list(season.rounds.values_list("status", flat=True)[:2]) == [
        Round.Status.OPEN,
        Round.Status.SCHEDULED,
    ]
    owners = dict(
        SeasonTeam.objects.filter(owner__isnull=False).values_list("owner__username", "name")
    )
    assert owners == {
        "alice": "Jumbo-Visma",
        "bob": "UAE Emirates",
        "charlie": "Alpecin – Deceuninck",
    }


@pytest.mark.django_db
def test_the_demo_profiles_are_plausible():
    call_command("load_demo", verbosity=0)
    assert Rider.objects.get(name="Jonas Vingegaard").climber == 4
    assert Rider.objects.get(name="Tadej Pogačar").climber == 4
    assert Rider.objects.get(name="Jasper Philipsen").sprinter == 4


@pytest.mark.django_db
def test_loading_the_demo_twice_replaces_the_season_without_duplicating_riders():
    call_command("load_demo", verbosity=0)
    call_command("load_demo", verbosity=0)
    assert Season.objects.filter(slug="demo").count() == 1
    assert Rider.objects.count() == 176
    # The Tour and its copy; the season's two short races and the copies of its three.
    assert Race.objects.count() == 7
    assert Season.objects.filter(slug="demo-season").count() == 1


@pytest.mark.django_db
def test_load_demo_if_empty_leaves_an_existing_season_alone():
    call_command("load_demo", verbosity=0)
    season = Season.objects.get(slug="demo")
    call_command("load_demo", "--if-empty", verbosity=0)
    assert Season.objects.get(slug="demo").pk == season.pk


@pytest.mark.django_db
def test_load_demo_builds_a_season_of_three_races_played_by_the_same_three_players():
    call_command("load_demo", verbosity=0)
    season = Season.objects.get(slug=SEASON_DEMO_SLUG)
    calendar = season.calendar()
    assert [item.event.template.slug for item in calendar] == [
        "demo-criterium-2023",
        "demo-week-2023",
        "tour-de-france-2023",
    ]
    assert [item.rounds.count() for item in calendar] == [4, 7, 21]
    assert [item.first_round for item in calendar] == [1, 5, 12]
    rounds = list(season.rounds.select_related("stage").order_by("number"))
    assert [r.number for r in rounds] == list(range(1, 33))
    # Round 5 is the week's stage 1: rounds run on across the calendar, stages within a race.
    assert (rounds[4].stage.race_id, rounds[4].stage.number) == (calendar[1].race_id, 1)
    # A stage a day within a race, three days from a race's last stage to the next's first.
    days = [(b.orders_deadline - a.orders_deadline).days for a, b in pairwise(rounds)]
    assert days == [1] * 3 + [3] + [1] * 6 + [3] + [1] * 20
    assert [r.status for r in rounds[:2]] == [Round.Status.OPEN, Round.Status.SCHEDULED]
    # Squads of ten, of whom six, seven and eight start the three races.
    assert [item.starters for item in calendar] == list(SEASON_DEMO_STARTERS)
    players = {login.username for login in DEMO_LOGINS if login.role == "player"}
    squads = {
        team.owner.username: team.seats.count()
        for team in season.teams.filter(owner__isnull=False).select_related("owner")
    }
    assert squads == dict.fromkeys(players, SEASON_DEMO_ROSTER)
    # Computer teams ride the rest of the start list.
    assert Seat.objects.filter(season=season).count() == 176
    assert season.organiser.username == "olivia"
    # The other demo seasons are as they were.
    assert Season.objects.get(slug="demo").rounds.count() == 21
    assert Season.objects.get(slug="demo-f1").rounds.count() == 15


@pytest.mark.django_db
def test_simulate_season_resolves_every_round_of_the_demo_season_and_names_its_winner(capsys):
    season = season_demo_load()
    call_command("simulate_season", SEASON_DEMO_SLUG, "--in-process")
    assert not season.rounds.exclude(status__in=DONE_STATUSES).exists()
    out = capsys.readouterr().out
    assert "Resolved 32 stages of demo-season" in out
    # Each race was started by the selected riders only: the default where nobody chose.
    for item in season.calendar():
        for team in season.teams.filter(owner__isnull=False):
            raced = StageResult.objects.filter(
                stage__race=item.race, stage__number=1, rider__in=team.seats.values("rider")
            ).count()
            assert raced == item.starters
    # Each race's GC after its own last stage, in calendar order.
    gcs = [out.index(f"General classification after stage {n}:") for n in (4, 7, 21)]
    assert gcs == sorted(gcs)
    for race in ("Demo Critérium 2023", "Demo Week 2023", "Tour de France 2023"):
        assert f"\n{race}\n" in out
    # The winner of the year is the first of the season standings across the three races.
    table = standings_lines(season=season, number=32, table=SeasonStanding.Table.PLAYERS)
    winner = table[0]
    assert winner.rank == 1
    player = season.teams.get(pk=winner.team_id).owner.username
    assert out.rstrip().endswith(f"{winner.name} ({player}) wins Demo Season 2023.")
    # The season's page ends with the same winner.
    page = Client().get(f"/seasons/{SEASON_DEMO_SLUG}/")
    shared = table[1].rank == 1  # a tie on every countback: no trophy is given
    assert (escape(f"{winner.name} wins the season") in page.content.decode()) is not shared


@pytest.mark.django_db
def test_simulate_season_across_two_races_prints_each_races_gc_after_its_last_stage_run(capsys):
    season = season_demo_load()
    call_command("simulate_season", SEASON_DEMO_SLUG, "--stages", "1-6", "--in-process")
    out = capsys.readouterr().out
    # Rounds 1-4 are the critérium's stages 1-4, rounds 5-6 the week's stages 1-2.
    assert out.index("\nDemo Critérium 2023\n") < out.index("after stage 4:")
    assert out.index("\nDemo Week 2023\n") < out.index("after stage 2:")
    assert "after stage 6:" not in out
    leader = standings_lines(season=season, number=6, table=SeasonStanding.Table.PLAYERS)[0]
    player = season.teams.get(pk=leader.team_id).owner.username
    assert out.rstrip().endswith(f"{leader.name} ({player}) leads Demo Season 2023.")
    assert season.rounds.get(number=7).status == Round.Status.OPEN
