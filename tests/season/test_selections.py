"""Squads and selections (issue 30, item 3): each team starts the riders it chose for an event
whose ``starters`` is smaller than its squad, or the documented default; nothing but his place
in the squad carries a rider from one race to the next."""

from datetime import timedelta

import pytest
from django.utils import timezone

from plugins import adapter_for
from races.models import RaceEntry, StageResult
from season import formation
from season.computer_teams import computer_teams_fill
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
from tests.season.builders import joined, league, template_race, two_race_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_races(alice, bob, charlie, request):
    """A budget season of two 2-stage races (``ruleset`` moreno unless the test is
    parametrised): squads of four, race 2 starts two riders a team."""
    return two_race_league(
        organiser=charlie, players=(alice, bob), ruleset=getattr(request, "param", "moreno")
    )


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


def test_no_selection_for_a_race_that_starts_the_whole_squad(two_races, alice):
    season, _item, alice_team, _b, riders, _br = two_races
    with pytest.raises(SelectionRefused, match="whole squad starts this race"):
        selection_save(
            team=alice_team,
            item=season.calendar()[0],
            seat_ids=_seat_ids(alice_team, riders["rouleur"], riders["domestique"]),
            user=alice,
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


# --- the selection page ---------------------------------------------------------------------


def _page(team, item):
    from django.urls import reverse

    return reverse(
        "player-selection",
        kwargs={"slug": team.season.slug, "team_id": team.pk, "number": item.number},
    )


def test_the_page_shows_the_count_the_deadline_and_the_default(two_races, client, alice):
    _season, item, alice_team, _b, riders, _br = two_races
    client.force_login(alice)
    page = client.get(_page(alice_team, item)).content.decode()
    assert 'id="selection-count"' in page
    assert "Choose the 2 riders" in page
    assert 'id="selection-deadline"' in page
    default = page.split('id="selection-default"', 1)[1].split("</p>", 1)[0]
    assert default.rstrip().endswith(f"{riders['leader'].name}, {riders['sprinter'].name}.")
    assert page.count('name="seat"') == 4
    assert page.count("checked") == 2


def test_the_owner_saves_on_the_page_and_a_refusal_names_the_rule(two_races, client, alice):
    _season, item, alice_team, _b, riders, _br = two_races
    client.force_login(alice)
    url = _page(alice_team, item)
    one = _seat_ids(alice_team, riders["rouleur"])
    response = client.post(url, {"seat": one})
    assert response.status_code == 200
    assert "Choose exactly 2 riders (1 chosen)" in response.content.decode()
    assert not Selection.objects.exists()
    two = _seat_ids(alice_team, riders["rouleur"], riders["domestique"])
    assert client.post(url, {"seat": two}).status_code == 302
    assert set(Selection.objects.filter(team=alice_team).values_list("seat_id", flat=True)) == set(
        two
    )
    assert "Your selection is saved." in client.get(url).content.decode()


def test_only_the_owner_reaches_the_page(two_races, client, bob):
    _season, item, alice_team, _b, riders, _br = two_races
    client.force_login(bob)
    url = _page(alice_team, item)
    assert client.get(url).status_code == 403
    assert client.post(url, {"seat": _seat_ids(alice_team, riders["rouleur"])}).status_code == 403
    assert not Selection.objects.exists()


def test_the_team_and_orders_pages_link_the_selection_due(two_races, client, alice):
    from django.urls import reverse

    season, item, alice_team, _b, _r, _br = two_races
    client.force_login(alice)
    for name in ("player-team", "player-orders"):
        page = client.get(reverse(name, args=[season.slug, alice_team.pk])).content.decode()
        assert 'id="selections-due"' in page
        assert _page(alice_team, item) in page
    lifecycle.rounds_force_lock(season=season, numbers=[1, 2, 3])
    page = client.get(reverse("player-team", args=[season.slug, alice_team.pk])).content.decode()
    assert 'id="selections-due"' not in page


# --- the pool of a calendar: the union of its races' start lists ----------------------------


@pytest.fixture
def start_list_calendar(alice, charlie):
    """A season of two races with start lists (two real teams of three each), alice's
    squad of two from race 1; one rider of race 1 starts race 2 too, for another team."""
    first = template_race(stages=1, real_teams=2, riders_per_team=3, start_list=True)
    second = template_race(stages=1, real_teams=2, riders_per_team=3, start_list=True)
    twice = RaceEntry.objects.filter(race=first).order_by("bib").last()
    other_team = RaceEntry.objects.filter(race=second).first().team
    RaceEntry.objects.create(race=second, rider=twice.rider, team=other_team, bib=99)
    season = league(
        organiser=charlie,
        template=first,
        formation_mode=Season.FormationMode.BUDGET,
        roster_size=2,
        budget=1000,
        max_per_real_team=None,
    )
    calendar_event_add(
        season=season,
        event=second,
        first_deadline=timezone.now() + timedelta(days=5),
        hours_between=24,
        starters=1,
    )
    season = Season.objects.get(pk=season.pk)
    (team,) = joined(season, alice)
    return season, first, second, twice, team


def test_the_pool_of_a_calendar_is_the_union_of_its_start_lists(start_list_calendar):
    season, first, second, _twice, _team = start_list_calendar
    expected = set(
        RaceEntry.objects.filter(race__in=[first, second]).values_list("rider_id", flat=True)
    )
    assert len(expected) == 12
    assert set(formation.pool(season=season).values_list("pk", flat=True)) == expected
    assert formation.team_capacity(season=season) == 6


def test_computer_teams_take_every_start_list_rider_once(start_list_calendar):
    season, first, second, twice, team = start_list_calendar
    mine = list(RaceEntry.objects.filter(race=second).values_list("rider_id", flat=True)[:2])
    formation.team_select(team=team, pickable_ids=mine)
    computer_teams_fill(season=season)
    seated = list(season.seats.filter(team__owner__isnull=True).values_list("rider_id", flat=True))
    everyone = set(
        RaceEntry.objects.filter(race__in=[first, second]).values_list("rider_id", flat=True)
    )
    assert sorted(seated) == sorted(everyone - set(mine))
    # The rider of both start lists rides for the team of the first race he starts.
    assert season.seats.get(rider=twice.rider).team.name == twice.team.name


# --- a real squad: up to thirty riders --------------------------------------------------------


def test_a_squad_holds_up_to_thirty_riders(two_races):
    from django.db import IntegrityError, transaction

    from races.adapters.formation import number_block
    from season.models import ROSTER_MAX

    season, item, *_ = two_races
    assert ROSTER_MAX == 30
    Season.objects.filter(pk=season.pk).update(roster_size=30)
    type(item).objects.filter(pk=item.pk).update(starters=30)
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.filter(pk=season.pk).update(roster_size=31)
    with pytest.raises(IntegrityError), transaction.atomic():
        type(item).objects.filter(pk=item.pk).update(starters=31)
    # Thirty bibs and a spare in each team's block: the blocks never overlap.
    assert number_block(30) == 40


def test_the_orders_page_of_race_2_lists_the_selection_only(two_races, client, alice):
    from django.urls import reverse

    season, item, alice_team, _b, riders, _br = two_races
    chosen = _seat_ids(alice_team, riders["rouleur"], riders["domestique"])
    selection_save(team=alice_team, item=item, seat_ids=chosen, user=alice)
    _resolve(season, 1, 2)
    assert Round.objects.get(season=season, number=3).status == Round.Status.OPEN
    client.force_login(alice)
    page = client.get(reverse("player-orders", args=[season.slug, alice_team.pk])).content
    page = page.decode()
    # The form's fields are named after each starter's rider id: "<id>-<field>".
    assert f'name="{riders["rouleur"].pk}-' in page
    assert f'name="{riders["domestique"].pk}-' in page
    assert f'name="{riders["leader"].pk}-' not in page
    assert f'name="{riders["sprinter"].pk}-' not in page


def test_computer_teams_start_their_default_selection(start_list_calendar):
    season, _first, _second, _twice, team = start_list_calendar
    formation.team_select(
        team=team, pickable_ids=list(formation.pool(season=season).values_list("pk", flat=True)[:2])
    )
    computer_teams_fill(season=season)
    second_race = season.calendar()[1]
    rows = selections_fill(item=second_race)
    computer = list(season.teams.filter(owner__isnull=True))
    assert computer
    assert {row.source for row in rows if row.team.owner_id is None} == {"computer"}
    larger = [squad for squad in computer if squad.seats.count() > 1]
    assert larger
    for squad in larger:
        chosen = [row.seat_id for row in rows if row.team_id == squad.pk]
        assert chosen == [seat.pk for seat in default_selection(team=squad, item=second_race)]
        assert len(chosen) == 1
    # A squad no larger than the race's starters needs no selection: none is written.
    assert not any(row.team.seats.count() <= 1 for row in rows)


def test_the_admin_lists_the_selections_read_only(two_races, client, admin_user):
    from django.urls import reverse

    _season, item, alice_team, *_ = two_races
    selections_fill(item=item)
    client.force_login(admin_user)
    page = client.get(reverse("admin:season_selection_changelist"))
    assert page.status_code == 200
    assert alice_team.name in page.content.decode()
    assert client.get(reverse("admin:season_selection_add")).status_code == 403
