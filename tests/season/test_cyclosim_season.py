"""A season run under the Cyclo Sim rules: its orders, the energy carried between stages,
resolution and replay."""

import re

import pytest
from django.urls import reverse

from plugins import cycling_adapter
from races.models import StageResult
from season import selectors
from season.demo import demo_load
from season.models import Orders, Round, Season
from season.replay import stage_replay
from season.services import resolution
from season.services.orders import OrdersInvalid, orders_submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    season = demo_load()
    Season.objects.filter(pk=season.pk).update(ruleset="cyclosim")
    season.refresh_from_db()
    return season


def stage(season, number):
    return Round.objects.select_related("stage", "season").get(season=season, number=number)


def entrants_of(round):
    """The cycling adapter's start list of a round, from the season's seats and orders."""
    return cycling_adapter(round.season.ruleset).round_entrants(
        event=round.stage, starters=resolution.round_starters(round=round)
    )


def alice_orders(team, **changes):
    orders = {m.rider_id: {"role": m.role} for m in team.seats.order_by("number")}
    leader = team.seats.order_by("number").first().rider_id
    orders[leader] = {"role": "gc_leader", **changes}
    return orders, leader


def test_energy_spent_on_one_stage_is_carried_to_the_next(league):
    resolution.round_resolve(round_id=stage(league, 1).pk)
    first = StageResult.objects.filter(stage=stage(league, 1).stage)
    spent = dict(first.values_list("rider_id", "state"))
    assert all("pe_consumed" in state for state in spent.values())
    assert any(state["pe_consumed"] > 0 for state in spent.values())

    entrants, _, _ = entrants_of(stage(league, 2))
    for entrant in entrants:
        assert entrant.carried["pe_consumed"] == spent[entrant.rider_id]["pe_consumed"]


def test_a_cyclosim_stage_replays_identically(league):
    resolution.round_resolve(round_id=stage(league, 1).pk)
    resolution.round_resolve(round_id=stage(league, 2).pk)
    assert stage_replay(round=stage(league, 1)) == []
    assert stage_replay(round=stage(league, 2)) == []


def test_given_orders_reach_the_engine_with_the_attack_window_in_board_rows(league):
    team = league.teams.get(owner__username="alice")
    orders, leader = alice_orders(
        team, pace_climb="max", floor_pct=20, attack_from_km=150, attack_to_km=170
    )
    orders_submit(team=team, round=stage(league, 1), orders=orders, user=team.owner)
    resolved = resolution.round_resolve(round_id=stage(league, 1).pk)
    entrant = next(e for e in resolved.engine_inputs["entrants"] if e["rider_id"] == leader)
    assert entrant["orders"]["pace_climb"] == "max"
    assert entrant["orders"]["floor_pct"] == 20
    (window,) = entrant["orders"]["attacks"]
    assert 0 < window["from_row"] < window["to_row"]
    others = [e for e in resolved.engine_inputs["entrants"] if e["team_id"] != team.pk]
    assert all(e["orders"] is None for e in others)  # no orders: the default AI rides them


def test_an_attack_window_past_the_finish_is_refused_with_the_rule(league):
    team = league.teams.get(owner__username="alice")
    orders, leader = alice_orders(team, attack_from_km=900, attack_to_km=950)
    name = team.seats.get(rider_id=leader).rider.name
    with pytest.raises(OrdersInvalid, match=f"{name}, attack window .*past the line"):
        orders_submit(team=team, round=stage(league, 1), orders=orders, user=team.owner)


def test_the_service_refuses_an_attack_window_with_one_end_as_the_form_does(league):
    team = league.teams.get(owner__username="alice")
    orders, leader = alice_orders(team, attack_from_km=50.0, attack_to_km=None)
    name = team.seats.get(rider_id=leader).rider.name
    with pytest.raises(OrdersInvalid, match=f"{name}, .*Give both ends of the attack window"):
        orders_submit(team=team, round=stage(league, 1), orders=orders, user=team.owner)
    assert not Orders.objects.filter(team=team).exists()


def test_the_orders_page_asks_for_the_cyclosim_orders(client, league):
    team = league.teams.get(owner__username="alice")
    client.login(username="alice", password="alice-demo")
    url = reverse("player-orders", args=["demo", team.pk])
    html = client.get(url).content.decode()
    assert "Pace climbing" in html
    assert "Attack from km" in html
    rider_id = team.seats.order_by("number").first().rider_id
    data = {"stage": 1}
    for member in team.seats.all():
        prefix = f"{member.rider_id}-"
        data |= {
            prefix + "role": "domestique",
            prefix + "pace_flat": "tempo",
            prefix + "pace_climb": "tempo",
            prefix + "pace_descent": "safe",
            prefix + "floor_pct": 0,
            prefix + "wheel": "any",
            prefix + "relay": "team",
        }
    data[f"{rider_id}-attack_from_km"] = 100
    response = client.post(url, data)
    assert "Give both ends of the attack window, or neither." in response.content.decode()
    # Stage 1 is 182 km long: a window after the finish is refused next to its field.
    name = team.seats.get(rider_id=rider_id).rider.name
    data |= {f"{rider_id}-attack_from_km": 300, f"{rider_id}-attack_to_km": 320}
    html = client.post(url, data).content.decode()
    error = "The stage is 182 km long: the attack must start before the finish."
    assert f"{name}, Attack from km: {error}" in html  # the summary names rider and field
    assert not team.orders.filter(round=stage(league, 1)).exists()
    data[f"{rider_id}-attack_from_km"] = 100
    data[f"{rider_id}-attack_to_km"] = 120
    data[f"{rider_id}-role"] = "gc_leader"
    assert client.post(url, data).status_code == 302
    stored = team.orders.get(round=stage(league, 1)).data[str(rider_id)]
    assert (stored["role"], stored["attack_from_km"], stored["attack_to_km"]) == (
        "gc_leader",
        100.0,
        120.0,
    )


def test_orders_given_show_in_the_cyclosim_fields_once_the_stage_is_locked(client, league):
    team = league.teams.get(owner__username="alice")
    orders, leader = alice_orders(
        team, pace_climb="max", floor_pct=20, attack_from_km=100, attack_to_km=120
    )
    orders_submit(team=team, round=stage(league, 1), orders=orders, user=team.owner)
    Round.objects.filter(pk=stage(league, 1).pk).update(status=Round.Status.LOCKED)
    client.login(username="alice", password="alice-demo")
    response = client.get(reverse("player-orders", args=["demo", team.pk]))
    html = response.content.decode()
    assert response.context["form"] is None
    name = team.seats.get(rider_id=leader).rider.name
    # The rider's card: his name as its heading, each order as a term and its value.
    card = re.search(rf"{re.escape(name)}</h3>\s*<dl class=\"seat-values\">(.*?)</dl>", html)
    assert card is not None
    cells = re.findall(r"<dd>(.*?)</dd>", card.group(1))
    assert cells == [
        "GC leader",
        "tempo",
        "all out",
        "safe",
        "20",
        "anyone",
        "team-mates",
        "100",
        "120",
    ]
    assert "<dt>Pace climbing</dt>" in html
    assert "No breakaway" not in html  # a Moréno field, not one of this ruleset's


def test_the_orders_page_shows_each_riders_energy_after_the_nights_recovery(client, league):
    resolution.round_resolve(round_id=stage(league, 1).pk)
    team = league.teams.get(owner__username="alice")
    client.login(username="alice", password="alice-demo")
    html = client.get(reverse("player-orders", args=["demo", team.pk])).content.decode()
    assert "Energy" in html
    spent = dict(
        StageResult.objects.filter(stage=stage(league, 1).stage).values_list("rider_id", "state")
    )
    # Riders out of the race after stage 1 (the seed is drawn fresh) are not starters.
    starters = selectors.team_starters(team=team, round=stage(league, 2))
    assert starters
    for member in starters:
        rider = member.rider
        pe_max = 60 + 5 * rider.rouleur  # cyclosim.md §2.3, advanced game
        pe = pe_max - min(pe_max, max(0, spent[rider.pk]["pe_consumed"] - 40))
        card = rf'{re.escape(rider.name)}</legend>\s*<p class="seat-facts">.*?'
        card += rf'<strong class="energy">{pe}/{pe_max}</strong>'
        assert re.search(card, html), rider.name


def test_a_moreno_orders_page_has_no_energy_column(client, league):
    from season.models import Season

    Season.objects.filter(pk=league.pk).update(ruleset="moreno")
    team = league.teams.get(owner__username="alice")
    client.login(username="alice", password="alice-demo")
    html = client.get(reverse("player-orders", args=["demo", team.pk])).content.decode()
    assert "Energy" not in html
