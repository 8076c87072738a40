"""Orders that carry over to the next round, and standing orders (issue 29, item 3): the orders
page of a round starts from the team's latest orders where they still apply, and standing
orders are raced at every following round the player gives none for, with a nonce of their
own, so that the dice and the replay stay honest."""

import pytest
from django.urls import reverse

from races.models import Stage, StageResult
from season.demo import demo_load
from season.models import Orders, Round, Season
from season.services import resolution
from season.services.carry import orders_carried, standing_orders_write
from season.services.commitment import round_nonces, round_verify
from season.services.orders import orders_submit
from tests.season.motor_builders import joined as motor_joined
from tests.season.motor_builders import motor_league, round_resolved, two_cars_each

pytestmark = pytest.mark.django_db


@pytest.fixture
def cyclosim():
    season = demo_load()
    Season.objects.filter(pk=season.pk).update(ruleset="cyclosim")
    season.refresh_from_db()
    return season


@pytest.fixture
def moreno():
    return demo_load()


def stage(season, number):
    return Round.objects.select_related("stage", "season").get(season=season, number=number)


def alice_team(season):
    return season.teams.get(owner__username="alice")


def team_orders(team, **leader_orders):
    """Every rider at his squad role, the first one (by bib) with ``leader_orders`` too."""
    seats = list(team.seats.order_by("number"))
    orders = {m.rider_id: {"role": m.role} for m in seats}
    orders[seats[0].rider_id] |= leader_orders
    return orders, seats[0].rider_id


# --- carry-over: what the orders page starts from ----------------------------------------


def test_orders_still_valid_carry_to_the_next_stage(cyclosim):
    team = alice_team(cyclosim)
    orders, leader = team_orders(team, pace_climb="max", floor_pct=20)
    orders_submit(team=team, round=stage(cyclosim, 1), orders=orders, user=team.owner)
    carry = orders_carried(team=team, round=stage(cyclosim, 2))
    assert carry is not None
    assert carry.number == 1
    assert carry.data[str(leader)]["pace_climb"] == "max"
    assert carry.data[str(leader)]["floor_pct"] == 20
    assert carry.dropped == []


def test_an_attack_window_past_this_stages_finish_does_not_carry_and_says_why(cyclosim):
    team = alice_team(cyclosim)
    orders, leader = team_orders(team, pace_climb="max", attack_from_km=150, attack_to_km=170)
    orders_submit(team=team, round=stage(cyclosim, 1), orders=orders, user=team.owner)
    Stage.objects.filter(pk=stage(cyclosim, 2).stage_id).update(distance_km=120)
    carry = orders_carried(team=team, round=stage(cyclosim, 2))
    leader_orders = carry.data[str(leader)]
    # The window loses both ends (one end alone is no window); the pace still carries.
    assert "attack_from_km" not in leader_orders
    assert "attack_to_km" not in leader_orders
    assert leader_orders["pace_climb"] == "max"
    name = team.seats.get(rider_id=leader).rider.name
    assert any(
        note.startswith(f"{name}, Attack from km: not carried") and "120 km long" in note
        for note in carry.dropped
    ), carry.dropped


def test_a_rider_out_of_the_race_carries_nothing_and_is_named(cyclosim):
    team = alice_team(cyclosim)
    orders, leader = team_orders(team, pace_climb="max")
    orders_submit(team=team, round=stage(cyclosim, 1), orders=orders, user=team.owner)
    resolution.round_resolve(round_id=stage(cyclosim, 1).pk)
    StageResult.objects.filter(stage=stage(cyclosim, 1).stage, rider_id=leader).update(
        status=StageResult.Status.ABANDONED
    )
    carry = orders_carried(team=team, round=stage(cyclosim, 2))
    assert str(leader) not in carry.data
    assert len(carry.data) == len(orders) - 1
    name = team.seats.get(rider_id=leader).rider.name
    assert f"{name} no longer races: his orders do not carry." in carry.dropped


def test_nothing_carries_once_the_round_has_orders_of_its_own(moreno):
    team = alice_team(moreno)
    orders, _leader = team_orders(team)
    orders_submit(team=team, round=stage(moreno, 1), orders=orders, user=team.owner)
    assert orders_carried(team=team, round=stage(moreno, 1)) is None


def test_a_cars_orders_carry_to_the_next_grand_prix(alice, bob):
    season = motor_league(organiser=alice)
    (team,) = motor_joined(season, bob)
    two_cars_each(season, team)
    first = season.rounds.get(number=1)
    from season.services.lifecycle import round_open

    round_open(round=first)
    car = str(team.seats.order_by("number").first().number)
    orders_submit(
        team=team,
        round=first,
        orders={car: {"risk": "aggressive", "pit_strategy": "lap2_insurance"}},
        user=bob,
    )
    # A value the round's form no longer offers does not carry, and says so.
    Orders.objects.filter(round=first).update(data={car: {"risk": "aggressive", "max_gear": 9}})
    carry = orders_carried(team=team, round=season.rounds.get(number=2))
    assert carry.data[car] == {"risk": "aggressive"}
    assert any("Top gear: not carried" in note for note in carry.dropped), carry.dropped


# --- standing orders at resolution ----------------------------------------------------------


def test_standing_orders_are_raced_at_the_next_stage_with_their_own_nonce(cyclosim):
    team = alice_team(cyclosim)
    orders, leader = team_orders(team, pace_climb="max", floor_pct=20)
    orders_submit(
        team=team, round=stage(cyclosim, 1), orders=orders, user=team.owner, standing=True
    )
    resolution.round_resolve(round_id=stage(cyclosim, 1).pk)
    assert not Orders.objects.filter(round=stage(cyclosim, 2)).exists()

    resolved = resolution.round_resolve(round_id=stage(cyclosim, 2).pk)
    copy = Orders.objects.get(team=team, round=resolved)
    assert (copy.source, copy.standing, len(copy.nonce)) == ("standing", True, 32)
    assert copy.data[str(leader)]["pace_climb"] == "max"
    # The copy's nonce is one of the round's dice: revealed, and the replay verifies.
    assert (team.pk, team.name, copy.nonce) in round_nonces(round=resolved)
    entrant = next(e for e in resolved.engine_inputs["entrants"] if e["rider_id"] == leader)
    assert entrant["orders"]["pace_climb"] == "max"
    assert round_verify(round=resolved) == []
    # And they stand on: stage 3 races them too.
    resolved = resolution.round_resolve(round_id=stage(cyclosim, 3).pk)
    assert Orders.objects.get(team=team, round=resolved).source == "standing"


def test_orders_no_longer_standing_are_not_copied(moreno):
    team = alice_team(moreno)
    orders, _leader = team_orders(team, no_breakaway=True)
    orders_submit(team=team, round=stage(moreno, 1), orders=orders, user=team.owner, standing=True)
    # Unticked on the same round's orders: nothing stands any more.
    orders_submit(team=team, round=stage(moreno, 1), orders=orders, user=team.owner)
    resolution.round_resolve(round_id=stage(moreno, 1).pk)
    resolved = resolution.round_resolve(round_id=stage(moreno, 2).pk)
    assert not Orders.objects.filter(team=team, round=resolved).exists()


def test_standing_orders_do_not_replace_orders_given_for_the_round(moreno):
    team = alice_team(moreno)
    orders, leader = team_orders(team, no_breakaway=True)
    orders_submit(team=team, round=stage(moreno, 1), orders=orders, user=team.owner, standing=True)
    resolution.round_resolve(round_id=stage(moreno, 1).pk)
    orders[leader]["no_breakaway"] = False
    given = orders_submit(team=team, round=stage(moreno, 2), orders=orders, user=team.owner)
    assert standing_orders_write(round=stage(moreno, 2)) == []
    given.refresh_from_db()
    assert (given.source, given.data[str(leader)]["no_breakaway"]) == ("player", False)


def test_a_motor_teams_standing_orders_race_the_next_grand_prix(alice, bob):
    season = motor_league(organiser=alice)
    (team,) = motor_joined(season, bob)
    two_cars_each(season, team)
    from season.services.lifecycle import round_open

    first = round_open(round=season.rounds.get(number=1))
    car = str(team.seats.order_by("number").first().number)
    orders_submit(
        team=team, round=first, orders={car: {"risk": "aggressive"}}, user=bob, standing=True
    )
    round_resolved(season, 1)
    second = round_resolved(season, 2)
    copy = Orders.objects.get(team=team, round=second)
    assert (copy.source, copy.data[car]["risk"]) == ("standing", "aggressive")
    assert round_verify(round=second) == []


# --- the orders page -------------------------------------------------------------------------


def test_the_orders_page_starts_from_the_orders_of_the_previous_stage(client, cyclosim):
    team = alice_team(cyclosim)
    orders, leader = team_orders(team, pace_climb="max", attack_from_km=150, attack_to_km=170)
    orders_submit(
        team=team, round=stage(cyclosim, 1), orders=orders, user=team.owner, standing=True
    )
    resolution.round_resolve(round_id=stage(cyclosim, 1).pk)
    Stage.objects.filter(pk=stage(cyclosim, 2).stage_id).update(distance_km=120)
    client.force_login(team.owner)
    url = reverse("player-orders", args=[cyclosim.slug, team.pk])
    page = client.get(url)
    form = page.context["form"]
    assert form[f"{leader}-pace_climb"].initial == "max"
    assert form[f"{leader}-attack_from_km"].initial is None
    assert form["standing"].initial is True
    text = page.content.decode()
    assert "These orders are carried over from stage 1" in text
    assert "Standing orders:" in text
    assert "not carried" in text

    # Saved unchanged: recorded as carried, and standing again since the box stays ticked.
    data = {"stage": 2, "standing": "on"}
    for name in form.fields:
        if "-" in name:
            value = form[name].initial
            if isinstance(value, bool):
                if value:
                    data[name] = "on"
            elif value is not None:
                data[name] = value
    assert client.post(url, data).status_code == 302
    saved = Orders.objects.get(team=team, round=stage(cyclosim, 2))
    assert (saved.source, saved.standing) == ("carried", True)


def test_a_moreno_riders_no_breakaway_order_carries(moreno):
    team = alice_team(moreno)
    orders, leader = team_orders(team, no_breakaway=True)
    orders_submit(team=team, round=stage(moreno, 1), orders=orders, user=team.owner)
    carry = orders_carried(team=team, round=stage(moreno, 2))
    assert carry.data[str(leader)]["no_breakaway"] is True
    assert carry.data[str(leader)]["role"] == orders[leader]["role"]


def test_a_ludicitude_cars_orders_carry_but_not_a_mode_the_form_does_not_offer(alice, bob):
    season = motor_league(organiser=alice, ruleset="ludicitude")
    (team,) = motor_joined(season, bob)
    two_cars_each(season, team)
    first = season.rounds.get(number=1)
    car = str(team.seats.order_by("number").first().number)
    Orders.objects.create(
        team=team,
        round=first,
        data={car: {"mode": "interactive", "risk": "aggressive", "max_speed": 5}},
        nonce="b" * 32,
    )
    carry = orders_carried(team=team, round=season.rounds.get(number=2))
    # The league drives every car "auto": the form offers no mode, and none carries.
    assert carry.data[car] == {"risk": "aggressive", "max_speed": 5}


def test_the_closed_orders_page_says_standing_orders_will_race(client, moreno):
    team = alice_team(moreno)
    orders, _leader = team_orders(team)
    orders_submit(team=team, round=stage(moreno, 1), orders=orders, user=team.owner, standing=True)
    resolution.round_resolve(round_id=stage(moreno, 1).pk)
    Round.objects.filter(pk=stage(moreno, 2).pk).update(status=Round.Status.LOCKED)
    client.force_login(team.owner)
    page = client.get(reverse("player-orders", args=[moreno.slug, team.pk]))
    assert page.context["form"] is None
    assert "your orders of stage 1 stand: they race this round" in page.content.decode()
