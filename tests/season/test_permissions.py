"""Every refusal, seen from the other side: what Alice, Bob and Charlie may not do, and that
nothing changes when they try."""

import random

import pytest
from django.test import Client
from django.urls import reverse

from season import formation
from season.models import DraftPick, Orders, Round, Season, SeasonTeam, Seat
from tests.factories import UserFactory
from tests.season.builders import free_riders, joined, league

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    from season.demo import demo_load

    return demo_load()


def team_of(season, username):
    return season.teams.get(owner__username=username)


def orders_data(team, stage_number=1):
    data = {"stage": stage_number}
    for member in team.seats.all():
        data[f"{member.rider_id}-role"] = "domestique"
    return data


def url(name, season, **kwargs):
    return reverse(name, kwargs={"slug": season.slug, **kwargs})


# --- a player and somebody else's team ---------------------------------------------------------


def test_alice_cannot_give_orders_to_bobs_team(client, demo):
    alice, bob_team = team_of(demo, "alice").owner, team_of(demo, "bob")
    client.force_login(alice)
    target = url("player-orders", demo, team_id=bob_team.pk)
    assert client.get(target).status_code == 403
    assert client.post(target, orders_data(bob_team)).status_code == 403
    assert not Orders.objects.exists()


def test_alice_cannot_slip_bobs_riders_into_her_own_orders(client, demo):
    alice_team, bob_team = team_of(demo, "alice"), team_of(demo, "bob")
    client.force_login(alice_team.owner)
    data = orders_data(alice_team) | orders_data(bob_team)
    client.post(url("player-orders", demo, team_id=alice_team.pk), data)
    saved = Orders.objects.get(team=alice_team).data
    assert set(saved) == {str(m.rider_id) for m in alice_team.seats.all()}
    assert not Orders.objects.filter(team=bob_team).exists()


def test_alice_cannot_see_or_change_bobs_team(client, alice, bob, charlie):
    season = league(organiser=charlie, formation_mode=Season.FormationMode.BUDGET, roster_size=1)
    _alice_team, bob_team = joined(season, alice, bob)
    client.force_login(alice)
    target = url("player-team", season, team_id=bob_team.pk)
    assert client.get(target).status_code == 403
    rider = free_riders(season)[0]
    assert client.post(target, {"picks": [rider.pk]}).status_code == 403
    assert not bob_team.seats.exists()


def test_alice_cannot_pick_for_bob_on_his_turn(client, alice, bob, charlie):
    season = league(organiser=charlie)
    joined(season, alice, bob)
    formation.draft_start(season=season, rng=random.Random(1))
    on_turn = formation.draft_status(season=season).on_turn
    other = season.teams.exclude(pk=on_turn.pk).get()
    client.force_login(other.owner)
    response = client.post(
        url("player-draft-pick", season, team_id=on_turn.pk), {"pick": free_riders(season)[0].pk}
    )
    assert response.status_code == 403
    assert not DraftPick.objects.exists()
    assert not Seat.objects.exists()


def test_the_organiser_cannot_give_orders_for_a_players_team(client, demo):
    bob_team = team_of(demo, "bob")
    client.force_login(demo.organiser)
    response = client.post(url("player-orders", demo, team_id=bob_team.pk), orders_data(bob_team))
    assert response.status_code == 403
    assert not Orders.objects.exists()


def test_a_team_of_another_season_is_not_found_under_this_one(client, demo):
    alice = team_of(demo, "alice").owner
    other = league(organiser=demo.organiser, slug="other")
    (team,) = joined(other, alice)
    client.force_login(alice)
    assert client.get(url("player-team", demo, team_id=team.pk)).status_code == 404


# --- a player and the season's settings --------------------------------------------------------


def test_a_player_cannot_touch_the_seasons_organisation(client, alice, bob, charlie):
    season = league(organiser=charlie)
    joined(season, alice, bob)
    code, name = season.invite_code, season.name
    deadlines = list(season.rounds.values_list("orders_deadline", flat=True))
    client.force_login(alice)
    for page in ("organiser-season", "organiser-settings", "organiser-calendar", "organiser-chat"):
        assert client.get(url(page, season)).status_code == 403, page
    assert client.post(url("organiser-settings", season), {"name": "Mine"}).status_code == 403
    assert client.post(url("organiser-calendar", season), {}).status_code == 403
    for action in ("organiser-invite-regenerate", "organiser-draft-start"):
        assert client.post(url(action, season)).status_code == 403, action
    season.refresh_from_db()
    assert (season.invite_code, season.name, season.draft_started_at) == (code, name, None)
    assert list(season.rounds.values_list("orders_deadline", flat=True)) == deadlines


def test_a_player_cannot_pick_for_the_team_on_turn_through_the_organisers_button(
    client, alice, bob, charlie
):
    season = league(organiser=charlie)
    joined(season, alice, bob)
    formation.draft_start(season=season, rng=random.Random(1))
    client.force_login(alice)
    assert client.post(url("organiser-draft-autopick", season)).status_code == 403
    assert not DraftPick.objects.exists()


# --- private seasons and other organisers ------------------------------------------------------


def test_a_non_member_cannot_see_a_private_season(client, alice, bob, charlie):
    season = league(organiser=charlie, is_public=False)
    (team,) = joined(season, bob)
    client.force_login(alice)
    pages = ("season-detail", "organiser-season", "organiser-settings", "organiser-calendar")
    for page in (*pages, "organiser-chat"):
        assert client.get(url(page, season)).status_code == 404, page
    assert client.get(url("player-team", season, team_id=team.pk)).status_code == 404
    assert client.get(url("player-orders", season, team_id=team.pk)).status_code == 404
    assert client.post(url("organiser-invite-regenerate", season)).status_code == 404


def test_an_organiser_cannot_manage_another_organisers_season(client, alice, charlie):
    public = league(organiser=charlie, slug="public")
    private = league(organiser=charlie, slug="private", is_public=False)
    client.force_login(alice)
    assert client.get(url("organiser-season", public)).status_code == 403
    assert client.post(url("organiser-invite-regenerate", public)).status_code == 403
    assert client.get(url("organiser-season", private)).status_code == 404
    assert client.post(url("organiser-settings", private), {"name": "Mine"}).status_code == 404
    public.refresh_from_db()
    private.refresh_from_db()
    assert (public.name, private.name) == ("Friends' Tour", "Friends' Tour")


def test_every_organiser_and_player_page_needs_an_account(client, demo):
    team = team_of(demo, "alice")
    pages = [
        reverse("my-seasons"),
        reverse("season-create"),
        url("organiser-season", demo),
        url("organiser-settings", demo),
        url("organiser-calendar", demo),
        url("organiser-chat", demo),
        url("player-team", demo, team_id=team.pk),
        url("player-orders", demo, team_id=team.pk),
    ]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 302, page
        assert response.url.startswith(reverse("login")), page
    response = client.post(url("player-orders", demo, team_id=team.pk), orders_data(team))
    assert response.status_code == 302
    assert not Orders.objects.exists()
    # The invitation explains the season to a visitor (issue 17); joining needs an account.
    join = reverse("season-join", kwargs={"code": demo.invite_code})
    assert client.get(join).status_code == 200
    response = client.post(join, {"team_name": "Intruders"})
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert not demo.teams.filter(name="Intruders").exists()


def test_a_post_without_the_csrf_token_is_refused(demo):
    team = team_of(demo, "alice")
    client = Client(enforce_csrf_checks=True)
    client.force_login(team.owner)
    response = client.post(url("player-orders", demo, team_id=team.pk), orders_data(team))
    assert response.status_code == 403
    assert not Orders.objects.exists()


# --- the permissions themselves ----------------------------------------------------------------


def test_the_permissions_follow_ownership_and_organisation(alice, bob, charlie):
    season = league(organiser=charlie, is_public=False)
    alice_team, bob_team = joined(season, alice, bob)
    dora = UserFactory(username="dora")
    assert alice.has_perm("season.manage_team", alice_team)
    assert not alice.has_perm("season.manage_team", bob_team)
    assert not charlie.has_perm("season.manage_team", bob_team)
    assert charlie.has_perm("season.manage_season", season)
    assert not alice.has_perm("season.manage_season", season)
    assert alice.has_perm("season.view_season", season)
    assert not dora.has_perm("season.view_season", season)
    computer = SeasonTeam.objects.create(season=season, name="Computer", owner=None)
    assert not charlie.has_perm("season.manage_team", computer)
    assert Round.objects.filter(season=season).count() == 3


def test_the_season_permissions_are_registered_when_the_app_is_ready():
    """season.permissions is not a rules.py module that django-rules would autodiscover: the app
    imports it from ready(), and every view's permission exists from the start."""
    import rules

    for name in ("season.view_season", "season.manage_season", "season.manage_team"):
        assert rules.perm_exists(name), name
