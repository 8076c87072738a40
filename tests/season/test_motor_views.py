"""The pages of a motor season, as the organiser, the players and visitors use them: creating a
season of Grands Prix, picking two cars, orders per car, the round's page, the Grand Prix and
standings pages under the season; each page checked from the other side too."""

import random
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from motor.models import GrandPrix
from season import formation
from season.models import Orders, Round, Season, Seat, WishListEntry
from season.services.lifecycle import round_publish
from tests.commits import committed
from tests.season.motor_builders import (
    free_entries,
    joined,
    motor_league,
    real_championship,
    round_resolved,
    two_cars_each,
)

pytestmark = pytest.mark.django_db


def _form(**values):
    first = timezone.localtime() + timedelta(days=3)
    data = {
        "name": "Sunday Drivers",
        "slug": "sunday-drivers",
        "ruleset": "grandprix",
        "points_system": "f1-1961-1990",
        "is_public": "on",
        "time_zone": "Europe/Paris",
        "first_deadline": first.strftime("%Y-%m-%dT%H:%M"),
        "hours_between": "168",
        "formation_mode": "budget",
        "budget": "100",
    }
    return data | values


def test_the_organiser_creates_a_season_of_grands_prix(client, alice):
    real = real_championship()
    client.force_login(alice)
    page = client.get(reverse("season-create"))
    assert page.status_code == 200
    html = page.content.decode()
    # One page for every game: the real championships and the motor rulesets among them.
    assert f'value="championship-{real.pk}"' in html
    assert 'value="grandprix"' in html
    assert 'value="ludicitude"' in html
    assert "Championships (Grands Prix)" in html
    assert "Stage races" in html
    assert 'name="points_system"' in html
    response = client.post(reverse("season-create"), _form(event=f"championship-{real.pk}"))
    assert response.status_code == 302
    season = Season.objects.get(slug="sunday-drivers")
    assert season.championship.copied_from_id == real.pk
    assert season.points_system.slug == "f1-1961-1990"
    assert season.rounds.count() == 3
    dashboard = client.get(response.url)
    assert dashboard.status_code == 200
    assert "Monza Grand Prix" in dashboard.content.decode()


def test_the_organiser_chooses_to_publish_each_grand_prix_when_resolved(client, alice):
    real = real_championship()
    client.force_login(alice)
    data = _form(event=f"championship-{real.pk}", auto_publish="on")
    assert client.post(reverse("season-create"), data).status_code == 302
    assert Season.objects.get(slug="sunday-drivers").auto_publish


def test_the_organiser_sets_a_pick_clock_for_a_draft_of_cars(client, alice):
    real = real_championship()
    client.force_login(alice)
    data = _form(event=f"championship-{real.pk}", formation_mode="draft", draft_pick_minutes="30")
    assert client.post(reverse("season-create"), data).status_code == 302
    season = Season.objects.get(slug="sunday-drivers")
    assert (season.formation_mode, season.draft_pick_minutes) == ("draft", 30)
    settings_page = client.get(reverse("organiser-settings", args=[season.slug]))
    assert 'name="draft_pick_minutes"' in settings_page.content.decode()


def test_a_cycling_ruleset_is_refused_for_a_championship(client, alice):
    real = real_championship()
    client.force_login(alice)
    response = client.post(
        reverse("season-create"), _form(event=f"championship-{real.pk}", ruleset="moreno")
    )
    assert response.status_code == 200
    (message,) = response.context["form"].errors["ruleset"]
    assert "The ruleset Moréno" in message
    assert "does not race Formula 1 1981" in message
    assert not Season.objects.exists()


def test_the_old_address_of_the_championship_page_leads_to_the_one_create_page(client, alice):
    client.force_login(alice)
    response = client.get("/my/new-season/championship/")
    assert (response.status_code, response.url) == (301, reverse("season-create"))


def test_a_season_needs_a_login_to_be_created(client):
    response = client.get(reverse("season-create"))
    assert response.status_code == 302
    assert "/login" in response.url


def _team_url(team):
    return reverse("player-team", args=[team.season.slug, team.pk])


def test_a_player_ticks_his_two_cars_within_the_budget_on_the_one_team_page(client, alice, bob):
    season = motor_league(organiser=alice, budget=12)
    (team,) = joined(season, bob)
    client.force_login(bob)
    html = client.get(_team_url(team)).content.decode()
    assert "My cars (0 of 2)" in html
    assert "Williams Driver 1" in html
    assert html.count('name="picks"') == 16
    assert "0 of 2 cars · 0 spent of 12 · 12 left" in html
    assert "the grid has 12 cars, computer teams take the seats no player takes" in html
    first, second, third = free_entries(season=season)[:3]
    # Three cars: refused with the reason, nothing seated.
    response = client.post(_team_url(team), {"picks": [first.pk, second.pk, third.pk]})
    assert "Choose exactly 2 cars (3 chosen)." in response.content.decode()
    assert not team.seats.exists()
    response = client.post(_team_url(team), {"picks": [first.pk, second.pk]}, follow=True)
    page = response.content.decode()
    assert "Your team is ready." in page
    assert "My cars (2 of 2)" in page
    assert "Orders for round 1: Monza Grand Prix (Monza)" in page
    assert set(team.seats.values_list("entry_id", flat=True)) == {first.pk, second.pk}
    assert sorted(team.seats.values_list("slot", flat=True)) == [1, 2]


def test_cars_over_the_budget_are_refused(client, alice, bob):
    season = motor_league(organiser=alice, budget=6)
    (team,) = joined(season, bob)
    client.force_login(bob)
    first, second = free_entries(season=season)[:2]
    response = client.post(_team_url(team), {"picks": [first.pk, second.pk]})
    assert "The cars cost 10, over the budget of 6." in response.content.decode()
    assert not team.seats.exists()


def test_nobody_picks_for_another_players_team(client, alice, bob, charlie):
    season = motor_league(organiser=alice, formation_mode=Season.FormationMode.DRAFT)
    bob_team, charlie_team = joined(season, bob, charlie)
    formation.draft_start(season=season, rng=random.Random(1))
    client.force_login(charlie)
    entry = free_entries(season=season)[0]
    pick = reverse("player-draft-pick", args=[season.slug, bob_team.pk])
    wish = reverse("player-wishlist", args=[season.slug, bob_team.pk])
    assert client.post(pick, {"pick": entry.pk}).status_code == 403
    assert client.post(wish, {"add": entry.pk}).status_code == 403
    assert client.get(_team_url(bob_team)).status_code == 403
    assert not Seat.objects.exists()
    assert not WishListEntry.objects.exists()
    assert charlie_team.season_id == season.pk


def test_a_budget_team_cannot_be_changed_by_another_player(client, alice, bob, charlie):
    season = motor_league(organiser=alice)
    bob_team, _charlie_team = joined(season, bob, charlie)
    client.force_login(charlie)
    first, second = free_entries(season=season)[:2]
    response = client.post(_team_url(bob_team), {"picks": [first.pk, second.pk]})
    assert response.status_code == 403
    assert not Seat.objects.exists()


@pytest.fixture
def car_draft(alice, bob, charlie):
    """Bob and Charlie draft two cars each, two minutes a pick; the draft has started."""
    season = motor_league(
        organiser=alice, formation_mode=Season.FormationMode.DRAFT, draft_pick_minutes=2
    )
    joined(season, bob, charlie)
    formation.draft_start(season=season, rng=random.Random(1))
    status = formation.draft_status(season=season)
    waiting = next(team for team in status.order if team != status.on_turn)
    return season, status.on_turn, waiting


def test_a_draft_of_cars_shows_the_board_the_wish_list_and_the_clock(client, car_draft):
    season, on_turn, waiting = car_draft
    client.force_login(on_turn.owner)
    page = client.get(_team_url(on_turn)).content.decode()
    assert "It is your turn: pick a car." in page
    assert 'id="wishlist"' in page
    assert "Your wish list is empty: add cars with the Wish buttons of the board below." in page
    board = page[page.index('id="board"') :]
    assert "Cars still free" in board
    assert board.count('name="pick"') == 16
    assert board.count('name="add"') == 16
    assert "Driver or constructor" in board
    assert 'name="speciality"' not in board  # cars have no speciality filter
    assert "data-pick-clock" in page
    # The player waiting sees the board without Pick buttons, and can still wish.
    client.force_login(waiting.owner)
    page = client.get(_team_url(waiting)).content.decode()
    assert f"{on_turn.name} is on turn." in page
    assert 'name="pick"' not in page
    assert page.count('name="add"') == 16
    # The board filters on the driver or the constructor.
    ferrari = client.get(_team_url(waiting), {"q": "ferrari"}).content.decode()
    assert ferrari.count('name="add"') == 2
    assert season.draft_started_at is not None


def test_a_car_is_wished_then_picked_through_the_one_pick_view(client, car_draft):
    season, on_turn, waiting = car_draft
    wished, other = free_entries(season=season)[:2]
    client.force_login(on_turn.owner)
    wish = reverse("player-wishlist", args=[season.slug, on_turn.pk])
    response = client.post(wish, {"add": wished.pk}, follow=True)
    assert f"{wished.driver.name} is on your wish list." in response.content.decode()
    client.post(wish, {"add": other.pk})
    client.post(wish, {"up": other.pk})
    assert [w.entry for w in formation.wish_list(team=on_turn)] == [other, wished]
    page = client.get(_team_url(on_turn)).content.decode()
    wish_list = page[page.index('id="wishlist"') : page.index('id="board"')]
    assert wish_list.index(other.driver.name) < wish_list.index(wished.driver.name)
    pick = reverse("player-draft-pick", args=[season.slug, on_turn.pk])
    response = client.post(pick, {"pick": wished.pk}, follow=True)
    page = response.content.decode()
    assert f"{wished.driver.name} joins your team." in page
    assert on_turn.seats.get().entry == wished
    assert [w.entry for w in formation.wish_list(team=on_turn)] == [other]
    history = page[page.index('id="picks"') :]
    assert wished.driver.name in history
    assert wished.constructor.name in history
    assert "My cars (1 of 2)" in page
    # Off turn now: a pick is refused with the reason.
    response = client.post(pick, {"pick": other.pk}, follow=True)
    assert f"It is {waiting.name}&#x27;s turn (pick 2)." in response.content.decode()
    assert on_turn.seats.count() == 1


def test_a_pick_of_no_car_gets_a_message_not_an_error(client, car_draft):
    season, on_turn, _waiting = car_draft
    client.force_login(on_turn.owner)
    pick = reverse("player-draft-pick", args=[season.slug, on_turn.pk])
    for data in ({}, {"pick": "abc"}, {"pick": "99999999999"}, {"entry": "1"}):
        response = client.post(pick, data, follow=True)
        assert "Choose a car of this championship." in response.content.decode()
    assert not Seat.objects.exists()


def test_the_team_page_of_a_draft_of_cars_renders_in_french(client, car_draft):
    _season, on_turn, _waiting = car_draft
    client.force_login(on_turn.owner)
    response = client.get(_team_url(on_turn), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200
    assert response["Content-Language"] == "fr"
    page = response.content.decode()
    assert '<html lang="fr">' in page
    assert "Mes saisons" in page
    assert ">Ordres</a>" in page


def _open(season):
    round_ = season.rounds.get(number=1)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.OPEN)
    return round_


def test_orders_per_car_from_the_orders_spec(client, alice, bob):
    season = motor_league(organiser=alice)
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    round_ = _open(season)
    client.force_login(bob)
    url = reverse("player-orders", args=[season.slug, team.pk])
    html = client.get(url).content.decode()
    first, second = sorted(team.seats.values_list("number", flat=True))
    for field in ("risk", "quali_risk", "max_gear", "card_min_gear", "pit_strategy"):
        assert f'name="{first}-{field}"' in html
        assert f'name="{second}-{field}"' in html
    data = {"stage": "1"}
    for number, risk, gear in ((first, "aggressive", "4"), (second, "safe", "3")):
        data |= {
            f"{number}-risk": risk,
            f"{number}-quali_risk": "same",
            f"{number}-max_gear": gear,
            f"{number}-card_min_gear": "3",
            f"{number}-pit_strategy": "lap2_insurance",
        }
    response = client.post(url, data, follow=True)
    assert "Orders saved for round 1" in response.content.decode()
    stored = Orders.objects.get(team=team, round=round_).data
    assert stored[str(first)]["risk"] == "aggressive"
    assert stored[str(second)]["max_gear"] == 3
    # Out of the spec: refused, naming the car and the field; nothing changes.
    response = client.post(url, data | {f"{first}-max_gear": "9"})
    assert response.status_code == 200
    assert "Top gear" in response.content.decode()
    assert Orders.objects.get(team=team, round=round_).data[str(first)]["max_gear"] == 4


def test_ludicitude_orders_are_risk_and_top_speed(client, alice, bob):
    season = motor_league(organiser=alice, ruleset="ludicitude", points_system="ludicitude")
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    _open(season)
    client.force_login(bob)
    html = client.get(reverse("player-orders", args=[season.slug, team.pk])).content.decode()
    number = team.seats.first().number
    assert f'name="{number}-risk"' in html
    assert f'name="{number}-max_speed"' in html
    assert f'name="{number}-mode"' not in html


def test_orders_after_the_deadline_are_refused_with_the_reason(client, alice, bob):
    season = motor_league(organiser=alice)
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    round_ = _open(season)
    Round.objects.filter(pk=round_.pk).update(orders_deadline=timezone.now() - timedelta(minutes=1))
    client.force_login(bob)
    url = reverse("player-orders", args=[season.slug, team.pk])
    assert "closed at the deadline" in client.get(url).content.decode()
    number = team.seats.first().number
    response = client.post(url, {"stage": "1", f"{number}-risk": "safe"}, follow=True)
    assert "closed at the deadline" in response.content.decode()
    assert not Orders.objects.exists()


def test_nobody_gives_orders_for_another_players_cars(client, alice, bob, charlie):
    season = motor_league(organiser=alice)
    bob_team, _ = joined(season, bob, charlie)
    two_cars_each(season, bob_team)
    _open(season)
    client.force_login(charlie)
    url = reverse("player-orders", args=[season.slug, bob_team.pk])
    assert client.get(url).status_code == 403
    number = bob_team.seats.first().number
    assert client.post(url, {"stage": "1", f"{number}-risk": "safe"}).status_code == 403
    assert not Orders.objects.exists()


def test_the_round_page_shows_results_once_visible(client, alice, bob, charlie):
    season = motor_league(organiser=alice)
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    resolved = round_resolved(season)
    url = reverse("season-stage", args=[season.slug, 1])
    gp_url = reverse("season-grand-prix", args=[season.slug, 1])
    standings = reverse("season-motor-standings", args=[season.slug, "drivers"])
    # Not published (the season does not auto-publish): a visitor and a player see no result.
    for user in (None, charlie, bob):
        client.logout()
        if user:
            client.force_login(user)
        html = client.get(url).content.decode()
        assert "not published yet" in html
        assert "Podium" not in html
        assert client.get(gp_url).status_code == 302
        assert "No Grand Prix has been raced yet" in client.get(standings).content.decode()
        assert client.get(standings + "?after=1").status_code == 404
    # The organiser sees them, and publishes.
    client.force_login(alice)
    html = client.get(url).content.decode()
    assert "Podium" in html
    assert "Publish results" in html
    with committed():
        round_publish(round=resolved)
    client.logout()
    html = client.get(url).content.decode()
    assert "Podium" in html
    page = client.get(gp_url)
    assert page.status_code == 200
    assert "track-map" in page.content.decode()
    table = client.get(standings).context["table"]
    assert len(table.rows) == 12


def test_a_private_motor_season_is_a_404_to_outsiders(client, alice, bob, charlie):
    season = motor_league(organiser=alice, is_public=False)
    (team,) = joined(season, bob)
    two_cars_each(season, team)
    client.force_login(charlie)
    for url in (
        reverse("season-detail", args=[season.slug]),
        reverse("season-stage", args=[season.slug, 1]),
        reverse("season-grand-prix", args=[season.slug, 1]),
        reverse("season-motor-standings", args=[season.slug, "drivers"]),
        reverse("season-team", args=[season.slug, team.pk]),
    ):
        assert client.get(url).status_code == 404, url
    client.force_login(bob)
    assert client.get(reverse("season-detail", args=[season.slug])).status_code == 200


def test_only_the_organiser_opens_the_dashboard_and_game_settings(client, alice, bob):
    season = motor_league(organiser=alice)
    joined(season, bob)
    client.force_login(bob)
    for name in ("organiser-season", "organiser-game-settings", "organiser-calendar"):
        assert client.get(reverse(name, args=[season.slug])).status_code == 403
    client.force_login(alice)
    html = client.get(reverse("organiser-calendar", args=[season.slug])).content.decode()
    assert "Round 1: Monza Grand Prix" in html


def test_the_game_settings_laps_go_to_the_grands_prix(client, alice):
    season = motor_league(organiser=alice)
    client.force_login(alice)
    url = reverse("organiser-game-settings", args=[season.slug])
    page = client.get(url)
    assert page.status_code == 200
    form = page.context["form"]
    data = {name: form[name].value() for name in form.fields}
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    data["laps"] = "2"
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert set(
        GrandPrix.objects.filter(championship=season.championship).values_list("laps", flat=True)
    ) == {2}
