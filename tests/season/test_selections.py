"""Squads and selections (issue 30, item 3): each team starts the riders it chose for an event
whose ``starters`` is smaller than its squad, or the documented default; nothing but his place
in the squad carries a rider from one race to the next."""

from datetime import timedelta

import pytest
from django.utils import timezone

from plugins import adapter_for
from races.models import StageResult
from season import formation
from season.leagues import calendar_event_add
from season.models import Round, Season, Selection
from season.selectors import season_seats, team_starters
from season.services import lifecycle
from season.services.orders import OrdersInvalid, team_orders_check
from season.services.resolution import round_resolve, round_starters
from season.services.selections import (
    SelectionRefused,
    default_selection,
    selection_of,
    selection_save,
    selections_fill,
)
from tests.factories import RiderFactory, TeamFactory
from tests.season.builders import joined, league, template_race

pytestmark = pytest.mark.django_db


def _squad_riders(year=2023):
    """Four riders of distinct prices: a climber (the GC leader), a sprinter, a rouleur and a
    domestique (the cheapest)."""
    team = TeamFactory(year=year)
    return {
        "leader": RiderFactory(team=team, climber=4, time_trialist=3),
        "sprinter": RiderFactory(team=team, sprinter=3),
        "rouleur": RiderFactory(team=team, rouleur=2),
        "domestique": RiderFactory(team=team),
    }


@pytest.fixture
def two_races(alice, bob, charlie, request):
    """A budget season of two 2-stage races (``ruleset`` moreno unless the test is
    parametrised): squads of four, race 2 starts two riders a team."""
    ruleset = getattr(request, "param", "moreno")
    first = template_race(stages=2, real_teams=0)
    alice_riders, bob_riders = _squad_riders(), _squad_riders()
    season = league(
        organiser=charlie,
        template=first,
        ruleset=ruleset,
        formation_mode=Season.FormationMode.BUDGET,
        roster_size=4,
        budget=1000,
        max_per_real_team=None,
        first_deadline=timezone.now() + timedelta(days=2),
    )
    alice_team, bob_team = joined(season, alice, bob)
    formation.team_select(team=alice_team, pickable_ids=[r.pk for r in alice_riders.values()])
    formation.team_select(team=bob_team, pickable_ids=[r.pk for r in bob_riders.values()])
    item = calendar_event_add(
        season=season,
        event=template_race(stages=2, real_teams=0),
        first_deadline=timezone.now() + timedelta(days=5),
        hours_between=24,
        starters=2,
    )
    season = Season.objects.get(pk=season.pk)
    return season, item, alice_team, bob_team, alice_riders, bob_riders


def _seat_ids(team, *riders):
    return [team.seats.get(rider=rider).pk for rider in riders]


def _resolve(season, *numbers):
    lifecycle.rounds_force_lock(season=season, numbers=list(numbers))
    for number in numbers:
        round_resolve(round_id=Round.objects.get(season=season, number=number).pk)


def test_the_default_selection_is_the_gc_leader_then_the_dearest(two_races):
    _season, item, alice_team, _b, riders, _br = two_races
    chosen = default_selection(team=alice_team, item=item)
    assert [seat.rider_id for seat in chosen] == [riders["leader"].pk, riders["sprinter"].pk]
    assert selection_of(team=alice_team, item=item) == chosen


def test_the_owner_saves_a_selection_and_it_is_the_one_that_starts(two_races, alice):
    season, item, alice_team, _b, riders, _br = two_races
    ids = _seat_ids(alice_team, riders["rouleur"], riders["domestique"])
    selection_save(team=alice_team, item=item, seat_ids=ids, user=alice)
    assert [s.pk for s in selection_of(team=alice_team, item=item)] == sorted(ids)
    third = Round.objects.get(season=season, number=3)
    assert {s.pk for s in team_starters(team=alice_team, round=third)} == set(ids)
    keys = {s.key for s in season_seats(season=season, team=alice_team, round=third)}
    assert keys == {str(riders["rouleur"].pk), str(riders["domestique"].pk)}
    # A new save replaces the old one.
    selection_save(
        team=alice_team,
        item=item,
        seat_ids=_seat_ids(alice_team, riders["leader"], riders["rouleur"]),
        user=alice,
    )
    assert Selection.objects.filter(team=alice_team, season_event=item).count() == 2


def test_race_1_starts_the_whole_squad_and_race_2_the_selection(two_races):
    season, _item, alice_team, _b, _r, _br = two_races
    first, third = (Round.objects.get(season=season, number=n) for n in (1, 3))
    assert len(team_starters(team=alice_team, round=first)) == 4
    assert len(team_starters(team=alice_team, round=third)) == 2


@pytest.mark.parametrize(
    ("who", "ids", "message"),
    [
        ("bob", ["rouleur", "domestique"], "Only the team's owner"),
        ("alice", ["rouleur"], r"Choose exactly 2 riders \(1 chosen\)"),
        ("alice", ["rouleur", "domestique", "leader"], r"Choose exactly 2 riders \(3 chosen\)"),
        ("alice", ["rouleur", "bob:leader"], "is not in the team's squad"),
    ],
)
def test_a_selection_the_rules_refuse_names_the_rule_and_stores_nothing(
    two_races, alice, bob, who, ids, message
):
    _season, item, alice_team, bob_team, riders, bob_riders = two_races
    seat_ids = [
        bob_team.seats.get(rider=bob_riders[name[4:]]).pk
        if name.startswith("bob:")
        else alice_team.seats.get(rider=riders[name]).pk
        for name in ids
    ]
    with pytest.raises(SelectionRefused, match=message):
        selection_save(
            team=alice_team, item=item, seat_ids=seat_ids, user={"alice": alice, "bob": bob}[who]
        )
    assert not Selection.objects.exists()


def test_no_selection_after_the_events_first_deadline(two_races, alice):
    season, item, alice_team, _b, riders, _br = two_races
    lifecycle.rounds_force_lock(season=season, numbers=[1, 2, 3])
    with pytest.raises(SelectionRefused, match="first deadline has passed"):
        selection_save(
            team=alice_team,
            item=item,
            seat_ids=_seat_ids(alice_team, riders["rouleur"], riders["domestique"]),
            user=alice,
        )


def test_orders_for_a_rider_left_out_of_the_selection_are_refused(two_races, alice):
    season, _item, alice_team, _b, riders, _br = two_races
    third = Round.objects.get(season=season, number=3)
    with pytest.raises(OrdersInvalid, match="not in this team's starting riders"):
        team_orders_check(team=alice_team, round=third, orders={riders["domestique"].pk: {}})


def test_the_claim_writes_the_default_for_who_chose_none_and_it_is_what_raced(two_races, alice):
    season, item, alice_team, bob_team, riders, bob_riders = two_races
    chosen = _seat_ids(alice_team, riders["rouleur"], riders["domestique"])
    selection_save(team=alice_team, item=item, seat_ids=chosen, user=alice)
    _resolve(season, 1, 2, 3)
    rows = Selection.objects.filter(season_event=item)
    assert {(r.team_id, r.source) for r in rows} == {
        (alice_team.pk, "player"),
        (bob_team.pk, "default"),
    }
    stage_1 = item.race.stages.get(number=1)
    raced = set(StageResult.objects.filter(stage=stage_1).values_list("rider_id", flat=True))
    assert raced == {
        riders["rouleur"].pk,
        riders["domestique"].pk,
        bob_riders["leader"].pk,
        bob_riders["sprinter"].pk,
    }
    assert raced == set(rows.values_list("seat__rider_id", flat=True))


def test_selections_fill_is_idempotent_and_none_for_whole_squads(two_races):
    season, item, _a, _b, _r, _br = two_races
    assert len(selections_fill(item=item)) == 4
    assert selections_fill(item=item) == []
    assert selections_fill(item=season.calendar()[0]) == []


@pytest.mark.parametrize("two_races", ["moreno", "cyclosim"], indirect=True)
def test_a_rider_who_abandoned_race_1_starts_race_2_fresh(two_races, alice):
    """Nothing carries from one race to the next but the squad: an abandon, the crashes and
    the energy stay in their race (docs/league.md "Squads and selections")."""
    season, _item, alice_team, _b, riders, _br = two_races
    _resolve(season, 1)
    leader = riders["leader"]
    StageResult.objects.filter(stage__race=season.calendar()[0].race, rider=leader).update(
        status=StageResult.Status.ABANDONED,
        crashes=[{"turn": 1, "case": 2, "severity": 1}],
        state={"pe_consumed": 50},
    )
    second = Round.objects.get(season=season, number=2)
    assert leader.pk not in {s.rider_id for s in team_starters(team=alice_team, round=second)}
    third = Round.objects.select_related("stage", "season").get(season=season, number=3)
    adapter = adapter_for(season.ruleset)
    entrants, _yellow, _green = adapter.round_entrants(
        event=third.stage, starters=round_starters(round=third)
    )
    mine = {spec.rider_id: spec for spec in entrants}
    assert leader.pk in mine
    assert mine[leader.pk].tour_crash_count == 0
    assert mine[leader.pk].carried == {}
