"""The database holds the motor seasons' invariants on PostgreSQL (the CHECK and UNIQUE
constraints of season/models.py), whatever the services do: a season runs a race or a
championship, a round a stage or a Grand Prix, a team has at most two cars, a season twelve;
and the motor services' row locks are accepted by PostgreSQL (FOR UPDATE of the season alone:
a motor season has no race to join)."""

import pytest
from django.db import IntegrityError, connection, transaction

from season.demo import motor_demo_load
from season.models import Round, SeasonEvent, SeasonTeam, Seat
from tests.factories import RiderFactory
from tests.season.motor_builders import joined, motor_league, round_resolved, two_cars_each

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def _refused(constraint, action):
    with pytest.raises(IntegrityError, match=constraint), transaction.atomic():
        action()


def test_an_event_of_the_calendar_is_a_race_or_a_championship_never_both_nor_neither(alice):
    assert connection.vendor == "postgresql"
    season = motor_league(organiser=alice)
    _refused(
        "season_event_race_or_championship",
        lambda: SeasonEvent.objects.filter(season=season).update(championship=None),
    )


def test_a_round_is_a_stage_or_a_grand_prix(alice):
    season = motor_league(organiser=alice)
    first = season.rounds.get(number=1)
    _refused(
        "round_stage_or_grand_prix",
        lambda: Round.objects.filter(pk=first.pk).update(grand_prix=None),
    )


def test_a_team_has_two_cars_and_a_season_twelve(alice, bob):
    season = motor_demo_load()  # twelve cars seated, two a team
    team = season.teams.get(owner__username="alice")
    car = team.seats.order_by("slot").first()
    other = season.seats.exclude(team=team).first()
    _refused("seat_slot_range", lambda: Seat.objects.filter(pk=car.pk).update(slot=3))
    _refused("seat_grid_range", lambda: Seat.objects.filter(pk=car.pk).update(grid=13))
    # Another team's car cannot become this team's car 1 (the slot is taken) ...
    _refused(
        "seat_slot_per_team",
        lambda: Seat.objects.filter(pk=other.pk).update(team=team, slot=car.slot),
    )
    # ... nor take a seat already taken.
    _refused(
        "seat_grid_place_per_season",
        lambda: Seat.objects.filter(pk=other.pk).update(grid=car.grid),
    )
    _refused(
        "seat_car_number_per_season",
        lambda: Seat.objects.filter(pk=other.pk).update(number=car.number),
    )


def test_joining_picking_and_resolving_take_their_locks_on_postgresql(alice, bob):
    season = motor_league(organiser=alice)
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    resolved = round_resolved(season)
    assert resolved.status == Round.Status.RESOLVED
    assert resolved.grand_prix.results.count() == 12


def test_a_seat_is_a_rider_or_a_car_and_a_car_has_its_slot_and_place(alice, bob):
    season = motor_demo_load()
    car = season.seats.order_by("grid").first()
    rider = RiderFactory()
    _refused("seat_rider_or_car", lambda: Seat.objects.filter(pk=car.pk).update(rider=rider))
    _refused("seat_car_complete", lambda: Seat.objects.filter(pk=car.pk).update(grid=None))
    _refused(
        "seat_rider_no_grid",
        lambda: Seat.objects.create(
            season=season,
            team=SeasonTeam.objects.create(season=season, name="Riders"),
            rider=rider,
            slot=1,
        ),
    )
