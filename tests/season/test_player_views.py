"""The player's pages, end to end: my seasons, joining, forming a team, giving orders."""

import random
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from season import formation
from season.models import Membership, Orders, Round, Season, SeasonTeam
from season.views.player import time_left
from tests.factories import RiderFactory, TeamFactory, UserFactory
from tests.season.builders import free_riders, joined, league, stage, template_race

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    from season.demo import demo_load

    return demo_load()


def alice_team(season):
    return season.teams.get(owner__username="alice")


def orders_url(team):
    return reverse("player-orders", kwargs={"slug": team.season.slug, "team_id": team.pk})


def team_url(team):
    return reverse("player-team", kwargs={"slug": team.season.slug, "team_id": team.pk})


# --- time left ---------------------------------------------------------------------------------


def test_time_left_reads_in_days_and_hours_then_minutes():
    assert time_left(timedelta(days=2, hours=4, minutes=30)) == "2 days 4 hours"
    assert time_left(timedelta(days=1)) == "1 day"
    assert time_left(timedelta(hours=3, minutes=12)) == "3 hours 12 minutes"
    assert time_left(timedelta(minutes=1)) == "1 minute"
    assert time_left(timedelta(seconds=20)) == "less than a minute"
    assert time_left(timedelta(seconds=-5)) == "no time"


# --- my seasons --------------------------------------------------------------------------------


def test_my_seasons_shows_my_team_and_the_next_deadline(client, demo):
    alice = demo.teams.get(owner__username="alice").owner
    client.force_login(alice)
    response = client.get(reverse("my-seasons"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Demo Tour 2023" in page
    assert "Jumbo-Visma" in page
    assert orders_url(alice_team(demo)) in page
    deadline = timezone.localtime(stage(demo, 1).orders_deadline, demo.tz)
    assert deadline.strftime("%H:%M") in page


def test_my_seasons_lists_a_pending_invitation_with_its_accept_link(client, alice, charlie):
    from season.services.invitations import invitation_send

    season = league(organiser=charlie)
    invitation_send(season=season, to="alice", sender=charlie)
    client.force_login(alice)
    page = client.get(reverse("my-seasons")).content.decode()
    assert "Your invitations" in page
    assert "charlie invites you to Friends&#x27; Tour." in page
    assert f'href="{reverse("season-join", args=[season.invite_code])}"' in page
    joined(season, alice)
    assert "Your invitations" not in client.get(reverse("my-seasons")).content.decode()


def test_my_seasons_needs_an_account(client):
    response = client.get(reverse("my-seasons"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


# --- joining -----------------------------------------------------------------------------------


def test_a_visitor_following_the_link_logs_in_first_and_comes_back(client, charlie):
    season = league(organiser=charlie)
    link = reverse("season-join", kwargs={"code": season.invite_code})
    # Issue 17: the visitor reads what the season is, then logs in (or signs up) and returns.
    response = client.get(link)
    assert response.status_code == 200
    assert f'href="{reverse("login")}?next={link}"' in response.content.decode()
    response = client.post(link, {"team_name": "Sneaky"})
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={link}"


def test_a_player_joins_with_the_link_and_lands_on_his_team(client, alice, charlie):
    season = league(organiser=charlie, is_public=False)
    client.force_login(alice)
    link = reverse("season-join", kwargs={"code": season.invite_code})
    assert "Friends&#x27; Tour" in client.get(link).content.decode()
    response = client.post(link, {"team_name": "Les Grimpeurs"})
    team = SeasonTeam.objects.get(season=season, owner=alice)
    assert response.status_code == 302
    assert response.url == team_url(team)
    assert team.name == "Les Grimpeurs"
    assert Membership.objects.get(season=season, user=alice).role == "player"
    assert client.get(team_url(team)).status_code == 200


def test_typing_the_code_leads_to_the_invitation(client, alice, charlie):
    season = league(organiser=charlie)
    client.force_login(alice)
    response = client.post(reverse("season-join-code"), {"code": f" {season.invite_code} "})
    assert response.url == reverse("season-join", kwargs={"code": season.invite_code})
    wrong = client.post(reverse("season-join-code"), {"code": "nope"})
    assert "No season has this invitation code." in wrong.content.decode()


def test_an_unknown_invitation_is_not_found(client, alice):
    client.force_login(alice)
    assert client.get(reverse("season-join", kwargs={"code": "nope"})).status_code == 404


def test_the_join_page_says_why_joining_is_closed(client, demo):
    dora = UserFactory(username="dora")
    client.force_login(dora)
    link = reverse("season-join", kwargs={"code": demo.invite_code})
    page = client.get(link).content.decode()
    assert "The race has started: this season takes no new teams." in page
    assert 'name="team_name"' not in page
    client.post(link, {"team_name": "Late"})
    assert not Membership.objects.filter(season=demo, user=dora).exists()


def test_a_taken_team_name_is_refused_on_the_form(client, alice, bob, charlie):
    season = league(organiser=charlie)
    joined(season, alice)
    client.force_login(bob)
    link = reverse("season-join", kwargs={"code": season.invite_code})
    response = client.post(link, {"team_name": "alice racing"})
    assert response.status_code == 200
    assert "A team of this season is already called alice racing." in response.content.decode()
    assert not SeasonTeam.objects.filter(owner=bob).exists()


# --- forming the team --------------------------------------------------------------------------


def test_the_team_page_shows_whose_turn_it_is_and_lets_the_player_on_turn_pick(
    client, alice, bob, charlie
):
    season = league(organiser=charlie)
    joined(season, alice, bob)
    formation.draft_start(season=season, rng=random.Random(1))
    on_turn = formation.draft_status(season=season).on_turn
    other = season.teams.exclude(pk=on_turn.pk).get()
    client.force_login(other.owner)
    page = client.get(team_url(other)).content.decode()
    assert f"{on_turn.name} is on turn." in page
    assert 'name="pick"' not in page

    client.force_login(on_turn.owner)
    page = client.get(team_url(on_turn)).content.decode()
    assert "It is your turn: pick a rider." in page
    rider = free_riders(season)[0]
    pick_url = reverse("player-draft-pick", kwargs={"slug": season.slug, "team_id": on_turn.pk})
    response = client.post(pick_url, {"pick": rider.pk}, follow=True)
    assert f"{rider.name} joins your team." in response.content.decode()
    assert list(on_turn.seats.values_list("rider_id", flat=True)) == [rider.pk]


def test_a_pick_off_turn_is_refused_with_the_reason(client, alice, bob, charlie):
    season = league(organiser=charlie)
    joined(season, alice, bob)
    formation.draft_start(season=season, rng=random.Random(1))
    on_turn = formation.draft_status(season=season).on_turn
    other = season.teams.exclude(pk=on_turn.pk).get()
    client.force_login(other.owner)
    pick_url = reverse("player-draft-pick", kwargs={"slug": season.slug, "team_id": other.pk})
    response = client.post(pick_url, {"pick": free_riders(season)[0].pk}, follow=True)
    assert f"It is {on_turn.name}&#x27;s turn (pick 1)." in response.content.decode()
    assert not other.seats.exists()


@pytest.fixture
def budget_season(alice, bob, charlie):
    template = template_race(real_teams=0)
    team = TeamFactory(name="Jumbo-Visma", year=2023)
    riders = [
        RiderFactory(team=team, climber=3, name="Climber One"),  # 23
        RiderFactory(team=team, sprinter=3, name="Sprinter Two"),  # 17
        RiderFactory(team=team, name="Domestique Three"),  # 5
    ]
    season = league(
        organiser=charlie,
        template=template,
        formation_mode=Season.FormationMode.BUDGET,
        roster_size=1,
        budget=20,
    )
    (team,) = joined(season, alice)
    return season, team, riders


def test_a_player_picks_his_riders_within_the_budget_on_the_page(client, alice, budget_season):
    _season, team, riders = budget_season
    client.force_login(alice)
    page = client.get(team_url(team)).content.decode()
    assert "Climber One" in page
    assert "0 of 1 riders · 0 spent of 20 · 20 left" in page
    response = client.post(team_url(team), {"picks": [riders[1].pk]}, follow=True)
    assert "Your team is ready." in response.content.decode()
    assert "My riders (1 of 1)" in response.content.decode()
    assert "Orders for stage 1: " in response.content.decode()
    assert list(team.seats.values_list("rider_id", "role")) == [(riders[1].pk, "gc_leader")]


def test_a_selection_over_budget_shows_the_rule_broken_and_keeps_the_team(
    client, alice, budget_season
):
    _season, team, riders = budget_season
    client.force_login(alice)
    response = client.post(team_url(team), {"picks": [riders[0].pk]})
    assert response.status_code == 200
    assert "The riders cost 23, over the budget of 20." in response.content.decode()
    assert not team.seats.exists()


def test_the_budget_summary_follows_the_ticks_without_saving(client, alice, budget_season):
    _season, team, riders = budget_season
    client.force_login(alice)
    response = client.post(
        team_url(team), {"picks": [riders[0].pk], "preview": "1"}, HTTP_HX_REQUEST="true"
    )
    page = response.content.decode()
    assert page.startswith('<div id="budget-summary"')
    assert "23 spent of 20" in page
    assert "over the budget of 20" in page
    assert not team.seats.exists()


def _pick_names(page):
    import re

    return re.findall(r'<label for="pick-\d+">([^<]+)</label>', page)


def test_the_budget_pick_filters_by_name_or_team_by_link(client, alice, budget_season):
    _season, team, _riders = budget_season
    client.force_login(alice)
    page = client.get(team_url(team), {"q": "sprint"}).content.decode()
    assert _pick_names(page) == ["Sprinter Two"]
    assert "1 of 3 shown" in page
    page = client.get(team_url(team), {"q": "jumbo"}).content.decode()
    assert len(_pick_names(page)) == 3


def test_the_budget_pick_filters_by_speciality(client, alice, budget_season):
    _season, team, _riders = budget_season
    client.force_login(alice)
    page = client.get(team_url(team), {"speciality": "climber"}).content.decode()
    assert _pick_names(page) == ["Climber One"]
    # An unknown speciality filters nothing.
    page = client.get(team_url(team), {"speciality": "juggler"}).content.decode()
    assert len(_pick_names(page)) == 3


def test_filtering_the_budget_pick_keeps_the_ticks_and_saves_nothing(client, alice, budget_season):
    _season, team, riders = budget_season
    client.force_login(alice)
    response = client.post(team_url(team), {"picks": [riders[2].pk], "q": "climber", "filter": "1"})
    page = response.content.decode()
    assert response.status_code == 200
    # What matches, and the rider ticked before, still ticked, so that saving keeps him.
    assert _pick_names(page) == ["Domestique Three", "Climber One"]
    assert f'value="{riders[2].pk}" id="pick-{riders[2].pk}" checked' in page
    assert 'value="climber"' in page
    assert not team.seats.exists()
    # Enter in the search field filters: the form's first submit control is Filter's.
    form = page[page.index('<form method="post" action="' + team_url(team)) :]
    assert form.index('name="filter"') < form.index("Save my team")


def test_a_long_start_list_folds_by_real_team(client, alice, charlie):
    season = league(
        organiser=charlie,
        template=template_race(real_teams=22, riders_per_team=8),
        formation_mode=Season.FormationMode.BUDGET,
        roster_size=8,
    )
    (team,) = joined(season, alice)
    client.force_login(alice)
    page = client.get(team_url(team)).content.decode()
    assert page.count('<details class="pick-group"') == 22
    assert '<details class="pick-group" open' not in page
    assert page.count('name="picks"') == 176
    first = formation.free_pickables(season=season)[0]
    page = client.get(team_url(team), {"q": first.name}).content.decode()
    assert '<details class="pick-group"' not in page  # a filtered list is one table
    assert first.name in _pick_names(page)


def test_names_written_by_players_are_escaped(client, alice, charlie):
    season = league(organiser=charlie)
    client.force_login(alice)
    link = reverse("season-join", kwargs={"code": season.invite_code})
    client.post(link, {"team_name": "<script>alert(1)</script>"})
    team = SeasonTeam.objects.get(owner=alice)
    page = client.get(team_url(team)).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


# --- orders ------------------------------------------------------------------------------------


def test_the_orders_form_starts_from_the_riders_roles_and_shows_the_time_left(client, demo):
    team = alice_team(demo)
    client.force_login(team.owner)
    first = stage(demo, 1)
    now = timezone.now()
    response = client.get(orders_url(team))
    assert response.status_code == 200
    form = response.context["form"]
    leader = team.seats.get(role="gc_leader")
    assert form[f"{leader.rider_id}-role"].value() == "gc_leader"
    assert len(form.rows()) == 8
    page = response.content.decode()
    assert time_left(first.orders_deadline - now) in page
    local = timezone.localtime(first.orders_deadline, demo.tz)
    assert f"{local:%H:%M}, Europe/Paris" in page


def post_orders(client, team, stage_number, roles, no_breakaway=()):
    data = {"stage": stage_number}
    for rider_id, role in roles.items():
        data[f"{rider_id}-role"] = role
        if rider_id in no_breakaway:
            data[f"{rider_id}-no_breakaway"] = "on"
    return client.post(orders_url(team), data)


def test_a_player_saves_his_orders_and_finds_them_again(client, demo):
    team = alice_team(demo)
    client.force_login(team.owner)
    members = list(team.seats.order_by("number"))
    roles = {m.rider_id: "domestique" for m in members}
    roles[members[2].rider_id] = "gc_leader"
    response = post_orders(client, team, 1, roles, no_breakaway={members[5].rider_id})
    assert response.status_code == 302
    orders = Orders.objects.get(team=team, round=stage(demo, 1))
    assert orders.data[str(members[2].rider_id)] == {"role": "gc_leader", "no_breakaway": False}
    assert orders.data[str(members[5].rider_id)]["no_breakaway"] is True
    assert orders.submitted_by == team.owner
    form = client.get(orders_url(team)).context["form"]
    assert form[f"{members[2].rider_id}-role"].value() == "gc_leader"
    assert form[f"{members[5].rider_id}-no_breakaway"].value() is True


def test_orders_breaking_a_role_limit_are_refused_with_the_message_as_is(client, demo):
    team = alice_team(demo)
    client.force_login(team.owner)
    roles = {m.rider_id: "sprinter" for m in team.seats.all()}
    response = post_orders(client, team, 1, roles)
    assert response.status_code == 200
    assert "At most 1 sprinter per team (8 given)." in response.content.decode()
    assert not Orders.objects.filter(team=team).exists()


def test_after_the_deadline_the_page_says_why_and_shows_no_form(client, demo):
    team = alice_team(demo)
    client.force_login(team.owner)
    Round.objects.filter(pk=stage(demo, 1).pk).update(
        orders_deadline=timezone.now() - timedelta(minutes=1)
    )
    response = client.get(orders_url(team))
    assert response.context["form"] is None
    assert "Orders for stage 1 closed at the deadline." in response.content.decode()
    roles = {m.rider_id: m.role for m in team.seats.all()}
    refused = post_orders(client, team, 1, roles)
    assert refused.status_code == 302
    assert not Orders.objects.filter(team=team).exists()


def test_a_locked_stage_shows_the_orders_given_and_no_form(client, demo):
    team = alice_team(demo)
    client.force_login(team.owner)
    roles = {m.rider_id: m.role for m in team.seats.all()}
    post_orders(client, team, 1, roles)
    Round.objects.filter(pk=stage(demo, 1).pk).update(status=Round.Status.LOCKED)
    response = client.get(orders_url(team))
    page = response.content.decode()
    assert response.context["form"] is None
    assert "Orders for stage 1 are closed: it is locked." in page
    assert "Your orders" in page
    assert "GC leader" in page


def test_a_form_left_open_on_a_closed_stage_does_not_land_on_the_next_one(client, demo):
    team = alice_team(demo)
    client.force_login(team.owner)
    Round.objects.filter(pk=stage(demo, 1).pk).update(status=Round.Status.RESOLVED)
    Round.objects.filter(pk=stage(demo, 2).pk).update(status=Round.Status.OPEN)
    roles = {m.rider_id: m.role for m in team.seats.all()}
    response = post_orders(client, team, 1, roles)
    assert response.status_code == 302
    assert not Orders.objects.filter(team=team).exists()
    page = client.get(orders_url(team)).content.decode()
    assert "Orders for stage 1 are closed." in page


# --- cost of the big pages ---------------------------------------------------------------------


def test_the_big_pages_cost_a_fixed_number_of_queries(client, demo, django_assert_max_num_queries):
    team = alice_team(demo)
    client.force_login(team.owner)
    # Each reads the selections the team can still give (one query, season.services.selections)
    # and the riders' ratings as the season keeps them (one query, races.ratings).
    with django_assert_max_num_queries(14):
        assert client.get(orders_url(team)).status_code == 200
    with django_assert_max_num_queries(14):
        assert client.get(team_url(team)).status_code == 200
    # "My seasons" shows the member's calendar address (one query), made on his first visit.
    assert client.get(reverse("my-seasons")).status_code == 200
    with django_assert_max_num_queries(11):
        assert client.get(reverse("my-seasons")).status_code == 200


def test_the_budget_page_costs_the_same_whatever_the_start_list(
    client, alice, charlie, django_assert_max_num_queries
):
    season = league(
        organiser=charlie,
        template=template_race(real_teams=22, riders_per_team=8),
        formation_mode=Season.FormationMode.BUDGET,
        roster_size=8,
    )
    (team,) = joined(season, alice)
    client.force_login(alice)
    with django_assert_max_num_queries(12):
        page = client.get(team_url(team)).content.decode()
    assert page.count('name="picks"') == 176
