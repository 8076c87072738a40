"""The motor demo season (make run): the demo 1981 championship run as a league by olivia, alice,
bob and charlie with two cars each, computer teams on the other seats, round 1 open and
resolvable at once, replayed identically; re-loading it gives the same season again."""

import pytest
from django.core.management import call_command

from season.demo import MOTOR_DEMO_SLUG, motor_demo_load
from season.models import Round, Season, Seat
from season.replay import stage_replay
from season.services.lifecycle import can_resolve
from season.services.resolution import round_resolve

pytestmark = pytest.mark.django_db


def test_the_motor_demo_season_has_three_players_and_a_full_grid():
    season = motor_demo_load()
    assert (season.slug, season.ruleset, season.points_system.slug) == (
        MOTOR_DEMO_SLUG,
        "grandprix",
        "f1-1961-1990",
    )
    assert season.championship.copied_from.slug == "demo-1981"
    assert season.rounds.count() == 15
    assert season.organiser.username == "olivia"
    cars = Seat.objects.filter(season=season).select_related("team__owner")
    assert cars.count() == 12
    owners = sorted({c.team.owner.username for c in cars if c.team.owner})
    assert owners == ["alice", "bob", "charlie"]
    alice = season.teams.get(owner__username="alice")
    assert {c.entry.constructor.slug for c in alice.seats.select_related("entry__constructor")} == {
        "williams"
    }
    first = season.rounds.get(number=1)
    assert first.status == Round.Status.OPEN
    assert can_resolve(first, job=None)


def test_round_one_of_the_motor_demo_resolves_and_replays():
    season = motor_demo_load()
    resolved = round_resolve(round_id=season.rounds.get(number=1).pk)
    assert resolved.status == Round.Status.RESOLVED
    assert resolved.grand_prix.results.count() == 12
    assert stage_replay(round=resolved) == []


def test_reloading_the_motor_demo_starts_it_again():
    first = motor_demo_load()
    round_resolve(round_id=first.rounds.get(number=1).pk)
    again = motor_demo_load()
    assert Season.objects.filter(slug=MOTOR_DEMO_SLUG).count() == 1
    assert again.rounds.get(number=1).status == Round.Status.OPEN
    assert again.seats.count() == 12


def test_load_demo_loads_both_seasons(capsys):
    call_command("load_demo")
    out = capsys.readouterr().out
    assert "Demo Grand Prix 1981: 15 Grands Prix, 6 teams of two cars." in out
    assert set(Season.objects.values_list("slug", flat=True)) == {
        "demo",
        "demo-season",
        MOTOR_DEMO_SLUG,
    }
