"""Motor seasons (issue 15 item 5): a season created from a championship, teams of two cars,
computer cars up to the grid, orders per car before the deadline, a Grand Prix resolved through
the season's lifecycle with results, events, trace and standings, replayed identically."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.utils import timezone

from motor.models import Championship, GrandPrixEvent, Result, Standing
from season.computer_teams import computer_teams_fill as computer_cars_fill
from season.formation import FormationError
from season.formation import draft_start as car_draft_start
from season.leagues import LeagueError
from season.models import Round, Season, SeasonEvent, Seat
from season.replay import stage_replay
from season.services.lifecycle import round_open
from season.services.orders import OrdersClosed, OrdersInvalid, orders_submit
from season.services.resolution import round_resolve
from tests.season.motor_builders import (
    car_pick,
    free_entries,
    joined,
    motor_league,
    real_championship,
)

pytestmark = pytest.mark.django_db


def _two_cars_each(season, *teams):
    for team in teams:
        for _ in range(2):
            car_pick(season=season, team=team, entry=free_entries(season=season)[0])


def test_a_season_copies_the_championship_calendar(alice):
    real = real_championship()
    season = motor_league(organiser=alice, championship=real)
    copy = season.championship
    assert (copy.kind, copy.copied_from_id, copy.points_system.slug) == (
        "league",
        real.pk,
        "grandprix",
    )
    assert [item.race_id for item in season.calendar()] == [None]
    assert season.points_system == copy.points_system
    rounds = list(season.rounds.select_related("grand_prix__track").order_by("number"))
    assert [r.grand_prix.circuit_slug for r in rounds] == ["monza", "monaco", "gilles-villeneuve"]
    # The game's laps (the track file's: 3), not the real race's 60.
    assert {r.grand_prix.laps for r in rounds} == {3}
    assert all(r.grand_prix.track.game == "grandprix" for r in rounds)
    assert copy.entries.count() == real.entries.count()
    assert [r.orders_deadline for r in rounds] == sorted(r.orders_deadline for r in rounds)


def test_a_championship_without_tracks_of_the_game_is_refused(alice):
    real = real_championship()  # Grand Prix tracks only
    with pytest.raises(LeagueError, match="Round 1, Monza Grand Prix: no ludicitude track"):
        motor_league(organiser=alice, championship=real, ruleset="ludicitude")
    assert not Season.objects.exists()


def test_a_cycling_ruleset_cannot_run_a_championship(alice):
    real = real_championship()
    with pytest.raises(
        LeagueError, match=r"The ruleset Moréno .* does not race Formula 1 1981: choose one of"
    ):
        motor_league(organiser=alice, championship=real, ruleset="moreno")
    assert not Season.objects.exists()
    assert not Round.objects.exists()
    assert list(Championship.objects.all()) == [real]


def test_the_database_holds_exactly_one_of_race_and_championship_per_event(alice):
    season = motor_league(organiser=alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        SeasonEvent.objects.filter(season=season).update(championship=None)
    round_ = season.rounds.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.filter(pk=round_.pk).update(grand_prix=None)


def test_teams_of_two_cars_within_a_budget(alice, bob):
    season = motor_league(organiser=alice)
    (team,) = joined(season, bob)
    _two_cars_each(season, team)
    assert team.seats.count() == 2
    with pytest.raises(FormationError, match="A team has at most 2 cars"):
        car_pick(season=season, team=team, entry=free_entries(season=season)[0])
    car = team.seats.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(
            season=season,
            team=team,
            entry=free_entries(season=season)[0],
            slot=3,
            grid=9,
            number=90,
        )
    assert car.slot in (1, 2)


def test_a_car_beyond_the_budget_is_refused(alice, bob):
    season = motor_league(organiser=alice, budget=9)
    (team,) = joined(season, bob)
    car_pick(season=season, team=team, entry=free_entries(season=season)[0])  # costs 5
    with pytest.raises(FormationError, match="costs 5: 4 of the budget is left"):
        car_pick(season=season, team=team, entry=free_entries(season=season)[0])


def test_a_draft_goes_in_turns(alice, bob, charlie):
    season = motor_league(organiser=alice, formation_mode=Season.FormationMode.DRAFT)
    bob_team, charlie_team = joined(season, bob, charlie)
    with pytest.raises(FormationError, match="not started"):
        car_pick(season=season, team=bob_team, entry=free_entries(season=season)[0])
    first, second = car_draft_start(season=season)
    season.refresh_from_db()
    with pytest.raises(FormationError, match="turn \\(pick 1\\)"):
        car_pick(season=season, team=second, entry=free_entries(season=season)[0])
    for team in (first, second, second, first):  # the snake order
        assert season.rounds.get(number=1).status == Round.Status.SCHEDULED
        car_pick(season=season, team=team, entry=free_entries(season=season)[0])
    assert {bob_team.seats.count(), charlie_team.seats.count()} == {2}
    # The last pick ends the draft: round 1 opens, committed, and computer cars fill the grid.
    opened = season.rounds.get(number=1)
    assert opened.status == Round.Status.OPEN
    assert opened.commitment
    assert Seat.objects.filter(season=season).count() == 12


def test_computer_teams_fill_the_grid_to_twelve_cars(alice, bob):
    season = motor_league(organiser=alice)
    (team,) = joined(season, bob)
    _two_cars_each(season, team)
    teams = computer_cars_fill(season=season)
    assert len(teams) == 5
    assert all(t.owner_id is None for t in teams)
    assert Seat.objects.filter(season=season).count() == 12
    # Named after their real constructors, in the pool's order; Alfa's two cars are Bob's.
    assert [t.name for t in teams] == ["Brabham", "Ferrari", "Ligier", "Lotus", "McLaren"]
    assert computer_cars_fill(season=season) == []


def _computer_seats_promised(season):
    from plugins import adapter_for

    notes = adapter_for(season.ruleset).league_formation_notes(
        season=season, players=season.teams.filter(owner__isnull=False).count()
    )
    (note,) = [n for n in notes if "for the computer" in n]
    return int(note.split()[0])


@pytest.mark.parametrize(("constructors", "fielded"), [(6, 10), (4, 6)])
def test_the_computer_fields_the_seats_it_promised_when_team_mates_are_split(
    alice, bob, constructors, fielded
):
    season = motor_league(
        organiser=alice, championship=real_championship(constructors=constructors)
    )
    (team,) = joined(season, bob)
    free = free_entries(season=season)
    # Cars of two constructors: their team-mates are left without a partner.
    car_pick(season=season, team=team, entry=free[0])
    car_pick(season=season, team=team, entry=free[2])
    promised = _computer_seats_promised(season)
    teams = computer_cars_fill(season=season)
    assert Seat.objects.filter(team__in=teams).count() == promised == fielded
    assert teams[-1].name == f"{free[0].constructor.name} / {free[2].constructor.name}"


def _opened(season):
    first = season.rounds.get(number=1)
    return round_open(round=first)


def test_orders_per_car_are_stored_with_the_specs_defaults(alice, bob):
    season = motor_league(organiser=alice)
    (team,) = joined(season, bob)
    _two_cars_each(season, team)
    first = _opened(season)
    numbers = sorted(team.seats.values_list("number", flat=True))
    orders = orders_submit(
        team=team, round=first, orders={numbers[0]: {"risk": "aggressive"}}, user=bob
    )
    assert orders.data[str(numbers[0])]["risk"] == "aggressive"
    assert orders.data[str(numbers[0])]["max_gear"] == 4  # the default


def test_orders_out_of_the_spec_or_for_another_teams_car_are_refused(alice, bob, charlie):
    season = motor_league(organiser=alice)
    bob_team, charlie_team = joined(season, bob, charlie)
    _two_cars_each(season, bob_team, charlie_team)
    first = _opened(season)
    bob_car = bob_team.seats.first().number
    charlie_car = charlie_team.seats.first().number
    with pytest.raises(OrdersInvalid, match=f"Car {bob_car}, max_gear: 7 is not within 2 .. 4"):
        orders_submit(team=bob_team, round=first, orders={bob_car: {"max_gear": 7}}, user=bob)
    # Charlie's orders cannot steer Bob's car.
    with pytest.raises(OrdersInvalid, match=f"Cars {bob_car} are not this team's"):
        orders_submit(
            team=charlie_team, round=first, orders={bob_car: {"risk": "safe"}}, user=charlie
        )
    orders_submit(
        team=charlie_team, round=first, orders={charlie_car: {"risk": "safe"}}, user=charlie
    )


def test_orders_after_the_deadline_are_refused_with_the_reason(alice, bob):
    season = motor_league(organiser=alice)
    (team,) = joined(season, bob)
    _two_cars_each(season, team)
    first = _opened(season)
    late = first.orders_deadline + timedelta(seconds=1)
    with pytest.raises(OrdersClosed, match="Orders for round 1 closed at"):
        orders_submit(
            team=team, round=first, orders={team.seats.first().number: {}}, user=bob, now=late
        )


def _resolved(season, team, number=1):
    round_ = season.rounds.get(number=number)
    Round.objects.filter(pk=round_.pk).update(orders_deadline=timezone.now())
    return round_resolve(round_id=round_.pk)


@pytest.mark.parametrize("ruleset", ["grandprix", "ludicitude"])
def test_a_round_resolves_with_results_events_and_standings(alice, bob, ruleset):
    season = motor_league(organiser=alice, ruleset=ruleset, points_system=ruleset)
    (team,) = joined(season, bob)
    _two_cars_each(season, team)
    first = _opened(season)
    orders_submit(
        team=team, round=first, orders={team.seats.first().number: {"risk": "safe"}}, user=bob
    )
    resolved = _resolved(season, team)
    assert resolved.status == Round.Status.RESOLVED
    gp = resolved.grand_prix
    results = list(Result.objects.filter(grand_prix=gp))
    assert len(results) == 12  # the computer filled the grid
    classified = sorted(r.position for r in results if r.position is not None)
    assert classified == list(range(1, len(classified) + 1))
    winner = next(r for r in results if r.position == 1)
    assert winner.points == 25
    assert GrandPrixEvent.objects.filter(grand_prix=gp).exists()
    # The stored inputs embed the track raced on (its content and hash).
    assert resolved.engine_inputs["track"]["hash"] == gp.track.content_hash
    assert resolved.engine_inputs["track"]["content"] == gp.track.content
    drivers = Standing.objects.filter(grand_prix=gp, table="drivers")
    assert drivers.count() == 12
    assert drivers.get(position=1).driver_id == winner.entry.driver_id
    assert Standing.objects.filter(grand_prix=gp, table="constructors").exists()
    # The next round opens for orders.
    assert season.rounds.get(number=2).status == Round.Status.OPEN
    assert stage_replay(round=resolved) == []


def test_a_replay_names_what_changed(alice, bob):
    season = motor_league(organiser=alice)
    (team,) = joined(season, bob)
    _two_cars_each(season, team)
    _opened(season)
    resolved = _resolved(season, team)
    Result.objects.filter(grand_prix=resolved.grand_prix, position=1).update(pit_stops=9)
    differences = stage_replay(round=resolved)
    assert len(differences) == 1
    assert "stored" in differences[0]


def test_the_commands_resolve_and_replay_a_motor_season(alice, bob, capsys, settings):
    settings.REDIS_URL = ""
    season = motor_league(organiser=alice)
    (team,) = joined(season, bob)
    _two_cars_each(season, team)
    call_command("simulate_season", season.slug, "--in-process")
    assert season.rounds.filter(status=Round.Status.RESOLVED).count() == 3
    out = capsys.readouterr().out
    assert "Drivers' standings after round 3" in out
    assert f"Resolved 3 Grands Prix of {season.slug}" in out
    call_command("replay_stage", season.slug, "2")
    assert f"Grand Prix 2 of {season.slug} replays identically" in capsys.readouterr().out


def test_a_season_without_a_points_system_of_its_own_scores_as_the_real_championship(alice):
    from season.leagues import SeasonSettings, season_create
    from season.rule_settings import RuleSettings

    real = real_championship()
    season = season_create(
        organiser=alice,
        slug="as-real",
        event=real,
        settings=SeasonSettings(
            name="As the real one",
            ruleset="grandprix",
            is_public=True,
            rule_settings=RuleSettings(),
            roster_size=8,  # a motor league's teams are its game's two cars, whatever is asked
            formation_mode=Season.FormationMode.BUDGET,
            budget=100,
            max_per_real_team=3,
            time_zone="Europe/Paris",
        ),
        first_deadline=timezone.now() + timedelta(days=2),
        hours_between=24,
    )
    assert season.points_system == real.points_system
    assert season.championship.copied_from == real
    assert (season.roster_size, season.max_per_real_team) == (2, None)
