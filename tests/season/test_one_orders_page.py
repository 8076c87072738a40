"""One orders page for riders and cars (issue 27): one view, one template and one form
(season.forms.SeatOrdersForm) for every game; what differs is the adapter's (its seat_key, its
seat_clean and its orders page members, plugins.orders_page)."""

import re
import subprocess
from pathlib import Path

import pytest
from django.urls import resolve, reverse

from plugins import adapter_for
from season import selectors
from season.demo import demo_load
from season.forms import SeatOrdersForm
from season.models import Orders, Round, Season
from season.services.orders import OrdersInvalid, orders_submit
from tests.season.motor_builders import joined, motor_league, two_cars_each

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
WHICH_GAME = r"is_motor|race_id is None|grand_prix_id|championship_id is None"


def test_the_season_layer_never_asks_which_game_a_season_plays():
    found = subprocess.run(
        ["grep", "-rnE", WHICH_GAME, "season/", "templates/season/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert found.stdout == ""


def test_there_is_no_motor_copy_of_the_orders_page():
    assert not (ROOT / "templates/season/motor/orders.html").exists()
    assert not (ROOT / "season/views/motor.py").exists()
    text = (ROOT / "season/forms.py").read_text()
    assert not re.search(r"class (TeamOrdersForm|CarOrdersForm)\b", text)


# --- the one page, for a car and for a rider ---------------------------------------------------


def _open(season):
    round_ = season.rounds.select_related("grand_prix", "stage").get(number=1)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.OPEN)
    return round_


@pytest.fixture
def cars(alice, bob):
    season = motor_league(organiser=alice)
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    return team, _open(season)


@pytest.fixture
def cyclosim():
    season = demo_load()
    Season.objects.filter(pk=season.pk).update(ruleset="cyclosim")
    season.refresh_from_db()
    team = season.teams.get(owner__username="alice")
    return team, season.rounds.select_related("stage", "season").get(number=1)


def _url(team):
    return reverse("player-orders", args=[team.season.slug, team.pk])


def _shown(form):
    """The form as the page shows it, posted back as is."""
    data = {name: form[name].value() for name in form.fields}
    return {
        k: ("on" if v is True else v) for k, v in data.items() if v is not None and v is not False
    }


def test_a_motor_team_gives_its_orders_through_the_one_page(client, cars):
    team, round_ = cars
    client.force_login(team.owner)
    assert resolve(_url(team)).func.__name__ == "orders"
    page = client.get(_url(team))
    used = {t.name for t in page.templates}
    assert {"season/player/orders.html", "motor/league/_orders.html"} <= used
    assert "races/league/_orders.html" not in used
    html = page.content.decode()
    assert f"Orders · round 1, {round_.grand_prix.name}" in html
    assert 'id="orders-track"' in html
    first = team.seats.order_by("slot").first()
    data = _shown(page.context["form"]) | {f"{first.number}-risk": "aggressive"}
    saved = client.post(_url(team), data, follow=True).content.decode()
    assert f"Orders saved for round 1, {round_.grand_prix.name}." in saved
    assert Orders.objects.get(team=team, round=round_).data[str(first.number)]["risk"] == (
        "aggressive"
    )
    # Once the round is locked, the page shows the orders given per car, and no form.
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.LOCKED)
    locked = client.get(_url(team))
    assert locked.context["form"] is None
    assert "Your orders" in locked.content.decode()
    assert f"#{first.number}" in locked.content.decode()


def test_a_cyclosim_team_gives_its_orders_through_the_one_page(client, cyclosim):
    team, round_ = cyclosim
    client.force_login(team.owner)
    page = client.get(_url(team))
    used = {t.name for t in page.templates}
    assert {"season/player/orders.html", "races/league/_orders.html"} <= used
    assert "motor/league/_orders.html" not in used
    html = page.content.decode()
    assert "Orders · stage 1" in html
    for part in ('id="orders-profile"', 'class="energy"', 'id="ratings"', "seat-orders"):
        assert part in html
    assert "At most per team:" in html
    leader = team.seats.get(role="gc_leader")
    data = _shown(page.context["form"]) | {f"{leader.rider_id}-pace_climb": "max"}
    saved = client.post(_url(team), data, follow=True)
    assert saved.redirect_chain, saved.context["form"].error_lines()
    assert "Orders saved for stage 1." in saved.content.decode()
    stored = Orders.objects.get(team=team, round=round_).data
    assert stored[str(leader.rider_id)]["pace_climb"] == "max"


def test_a_motor_form_that_lost_its_round_says_round_not_stage(client, cars):
    team, _round = cars
    client.force_login(team.owner)
    data = _shown(client.get(_url(team)).context["form"])
    del data["stage"]
    html = client.post(_url(team), data).content.decode()
    assert "These orders do not say which round they are for" in html
    assert "which stage" not in html
    assert not Orders.objects.exists()


# --- the one form --------------------------------------------------------------------------------


def test_the_one_form_names_a_car_by_its_number(cars):
    team, round_ = cars
    adapter = adapter_for(team.season.ruleset)
    seats = selectors.team_starters(team=team, round=round_)
    form = SeatOrdersForm(adapter=adapter, seats=seats, current={}, round=round_)
    assert [key for _seat, key in form.seats] == [str(seat.number) for seat in seats]
    car = seats[0]
    # A top gear out of the spec: the summary above the form names the car, "#44 Name".
    data = {"stage": "1", f"{car.number}-max_gear": "9"}
    bad = SeatOrdersForm(data, adapter=adapter, seats=seats, current={}, round=round_)
    assert not bad.is_valid()
    assert any(
        line.startswith(f"#{car.number} {car.entry.driver.name}, Top gear")
        for line in bad.error_lines()
    )


def test_the_one_form_names_a_rider_by_his_id(cyclosim):
    team, round_ = cyclosim
    seats = selectors.team_starters(team=team, round=round_)
    form = SeatOrdersForm(adapter=adapter_for("cyclosim"), seats=seats, current={}, round=round_)
    assert [key for _seat, key in form.seats] == [str(seat.rider_id) for seat in seats]
    assert len(form.rows()) == 8
    # The seat's role is the field's start when the team gave no orders yet.
    leader = next(seat for seat in seats if seat.role == "gc_leader")
    assert form[f"{leader.rider_id}-role"].value() == "gc_leader"


def test_an_attack_window_with_only_a_start_is_refused_by_the_form_and_the_service(cyclosim):
    team, round_ = cyclosim
    adapter = adapter_for("cyclosim")
    seats = selectors.team_starters(team=team, round=round_)
    shown = SeatOrdersForm(adapter=adapter, seats=seats, current={}, round=round_)
    rider = seats[0]
    data = _shown(shown) | {f"{rider.rider_id}-attack_from_km": "50"}
    form = SeatOrdersForm(data, adapter=adapter, seats=seats, current={}, round=round_)
    assert not form.is_valid()
    assert form.errors[f"{rider.rider_id}-attack_to_km"] == [
        "Give both ends of the attack window, or neither."
    ]
    # The service refuses the same orders, however they reach it.
    orders = {str(s.rider_id): {"role": s.role} for s in seats}
    orders[str(rider.rider_id)] |= {"attack_from_km": 50.0}
    with pytest.raises(OrdersInvalid, match="Give both ends of the attack window"):
        orders_submit(team=team, round=round_, orders=orders, user=team.owner)
    assert not Orders.objects.filter(team=team).exists()


def test_no_file_of_the_season_layer_is_named_after_a_discipline():
    """Issue 27: the season layer and its templates are every game's."""
    names = ("motor", "cycling", "grand_prix", "grandprix", "championship")
    for folder in ("season", "templates/season"):
        for path in (ROOT / folder).rglob("*"):
            if "migrations" in path.parts or "__pycache__" in path.parts:
                continue
            relative = path.relative_to(ROOT / folder)
            assert not any(n in part.lower() for part in relative.parts for n in names), path
