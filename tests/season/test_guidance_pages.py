"""Issue 17, "Guidance": the rules in the app, what the orders page shows, error pages in the
site's layout, and the way around (login, My seasons, an invitation read while logged out)."""

import re

import pytest
from django.test import RequestFactory, override_settings
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import gettext, override

from plugins import adapter_for, adapter_names
from season import formation
from season.models import Round
from season.services.orders import orders_submit
from season.views.rules import rule_anchor, rule_text
from tests.factories import PASSWORD
from tests.season.builders import joined, league

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    from season.demo import demo_load

    return demo_load()


def login(client, username):
    client.login(username=username, password=f"{username}-demo")
    return client


# --- How it works ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", adapter_names())
def test_every_ruleset_has_a_how_it_works_page_from_its_adapter(client, name):
    adapter = adapter_for(name)
    page = client.get(reverse("ruleset-rules", args=[name])).content.decode()
    assert str(adapter.label).replace("'", "&#x27;") in page
    assert str(adapter.how_it_works)[:60].replace("'", "&#x27;") in page
    for field in adapter.orders_spec:
        assert f'id="order-{field.name}"' in page
        assert gettext(field.label).replace("'", "&#x27;") in page
    for code in adapter.rule_texts:
        assert f"<code>{code}</code>" in page
    # The game's own noun for what a player orders: riders, or cars.
    entrant = "car" if adapter.discipline == "motor" else "rider"
    other = "rider" if entrant == "car" else "car"
    assert f"The orders you give each {entrant}" in page
    assert f"each {other}" not in page
    assert f"A {other} without orders" not in page


def test_the_how_it_works_page_speaks_french(client):
    with override("fr"):
        url = reverse("ruleset-rules", args=["moreno"])
    client.cookies["django_language"] = "fr"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Comment ça marche" in page
    assert "Ce que décident les dés" in page


def test_an_unknown_ruleset_has_no_page(client):
    assert client.get(reverse("ruleset-rules", args=["chess"])).status_code == 404


def test_the_rule_codes_of_a_stage_are_explained_and_linked(client, demo):
    login(client, "olivia").post(reverse("season-stage-action", args=["demo", 1, "resolve"]))
    Round.objects.filter(season=demo, number=1).update(status=Round.Status.PUBLISHED)
    rules = reverse("ruleset-rules", args=[demo.ruleset])
    texts = adapter_for(demo.ruleset).rule_texts
    titles = adapter_for(demo.ruleset).rule_titles
    dice = client.get(reverse("season-stage-dice", args=["demo", 1])).content.decode()
    links = re.findall(r'<a class="rule-code" href="([^"]+)"><abbr title="([^"]+)">([^<]+)<', dice)
    assert links, "no rule code linked in the dice log"
    for href, title, code in links:
        listed, text = rule_text(texts, code, titles)
        assert href == f"{rules}#{rule_anchor(listed)}"
        assert title == escape(text)
    stage_page = client.get(reverse("season-stage", args=["demo", 1])).content.decode()
    events = stage_page.split("What happened")[1]
    assert re.search(r'\(<a class="rule-code" href="' + re.escape(rules) + "#rule-", events)


# --- the orders page -------------------------------------------------------------------------


def test_the_orders_page_shows_the_profile_the_ratings_and_the_rules(client, demo):
    team = demo.teams.get(owner__username="alice")
    page = (
        login(client, "alice")
        .get(reverse("player-orders", args=["demo", team.pk]))
        .content.decode()
    )
    assert f'href="{reverse("ruleset-rules", args=[demo.ruleset])}"' in page
    assert 'id="orders-profile"' in page
    assert "<svg" in page.split('id="orders-profile"')[1][:200]
    ratings = page.split('id="ratings"')[1].split("</table>")[0]
    for member in team.seats.all():
        assert member.rider.name in ratings
    assert '<abbr title="Climber">' in ratings
    # Each rating says what it means, and the scale is read once below the table.
    assert re.search(r'<td class="num"><abbr title="[a-z ]+">[H0-4]</abbr></td>', ratings)
    legend = page.split('id="ratings-legend"')[1].split("</p>")[0]
    assert "from weakest to strongest" in legend
    assert '<abbr title="handicap">H</abbr> handicap' in legend
    # The "not saved yet" hint is there, hidden until the form changes (static/js).
    assert 'id="unsaved"' in page
    assert 'data-unsaved-hint="unsaved"' in page
    assert "js/orders-unsaved.js" in page


# --- error pages ---------------------------------------------------------------------------


@override_settings(DEBUG=False)
def test_a_missing_page_is_in_the_sites_layout_with_a_way_back(client, demo):
    login(client, "alice")
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Page not found" in page
    assert 'class="site-header"' in page
    assert f'href="{reverse("my-seasons")}"' in page
    assert "Back to the seasons" in page


@override_settings(DEBUG=False)
def test_a_missing_page_lists_the_players_leagues(client, demo):
    login(client, "alice")
    page = client.get("/no/such/page/").content.decode()
    assert "Your seasons" in page
    assert f'href="{reverse("season-detail", args=["demo"])}"' in page
    assert f'href="{reverse("home")}"' in page


@override_settings(DEBUG=False)
def test_a_missing_page_tells_a_visitor_how_to_find_his_leagues(client, db):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert f'href="{reverse("home")}"' in page
    assert f"{reverse('login')}?next={reverse('my-seasons')}" in page
    assert "Resolver404" not in page
    # A season's own message still shows.
    missing = client.get(reverse("season-join", args=["nosuchcode"])).content.decode()
    assert "No season has this invitation code." in missing


@override_settings(DEBUG=False)
def test_a_forbidden_page_says_why_in_the_sites_layout(client, demo):
    response = login(client, "alice").get(reverse("organiser-season", args=["demo"]))
    assert response.status_code == 403
    page = response.content.decode()
    assert "Only the organiser of this season can do that." in page
    assert 'class="site-header"' in page
    assert "Back to the seasons" in page


@override_settings(DEBUG=False)
def test_a_server_error_page_is_in_the_sites_layout(db):
    from django.views.defaults import server_error

    response = server_error(RequestFactory().get("/"))
    page = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong on our side" in page
    assert 'class="site-header"' in page
    assert "Back to the seasons" in page


# --- navigation ------------------------------------------------------------------------------


def test_after_logging_in_a_player_lands_on_his_seasons(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert response.url == reverse("my-seasons")


def test_logging_in_from_a_link_still_returns_to_it(client, alice):
    target = reverse("season-create")
    response = client.post(
        reverse("login"), {"username": "alice", "password": PASSWORD, "next": target}
    )
    assert response.url == target


def test_after_signing_up_a_player_lands_on_his_seasons(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "zoe",
            "email": "zoe@example.com",
            "password1": "a long pass phrase 42",
            "password2": "a long pass phrase 42",
        },
    )
    assert response.status_code == 302
    assert response.url == reverse("my-seasons")


def test_my_seasons_lists_a_private_season_i_play_in(client, alice, charlie):
    season = league(organiser=charlie, is_public=False, slug="secret")
    joined(season, alice)
    client.force_login(alice)
    page = client.get(reverse("my-seasons")).content.decode()
    assert reverse("season-detail", args=["secret"]) in page
    assert ">private<" in page


def _my_page(client, user) -> str:
    client.force_login(user)
    return client.get(reverse("my-seasons")).content.decode()


YOUR_TURN = "It is your turn to pick: go to the draft"
DRAFT_ON = "The draft is on: go to the draft"


def test_my_seasons_links_to_the_draft_while_it_runs(client, alice, bob, charlie):
    season = league(organiser=charlie)
    joined(season, alice, bob)
    assert DRAFT_ON not in _my_page(client, alice)
    assert "Waiting for the organiser to start the draft." in _my_page(client, alice)
    assert "Start the draft when every player is in" in _my_page(client, charlie)
    first, second = formation.draft_start(season=season)
    on_turn, waiting = _my_page(client, first.owner), _my_page(client, second.owner)
    assert YOUR_TURN in on_turn
    assert reverse("player-team", args=[season.slug, first.pk]) in on_turn
    assert DRAFT_ON in waiting
    assert YOUR_TURN not in waiting
    assert "The draft is on: follow it" in _my_page(client, charlie)
    season.refresh_from_db()
    while formation.draft_status(season=season).on_turn is not None:
        formation.draft_autopick(season=season, user=charlie)
    for user in (alice, bob):
        page = _my_page(client, user)
        assert DRAFT_ON not in page
        assert YOUR_TURN not in page
        assert "Give your orders for stage 1" in page


def test_my_seasons_says_when_the_orders_are_in(client, alice, bob, charlie):
    season = league(organiser=charlie)
    alice_team, _bob_team = joined(season, alice, bob)
    while formation.draft_status(season=season).on_turn is not None or not season.draft_started_at:
        if not season.draft_started_at:
            formation.draft_start(season=season)
            season.refresh_from_db()
            continue
        formation.draft_autopick(season=season, user=charlie)
    round_one = season.rounds.get(number=1)
    alice_team.refresh_from_db()
    orders = {r: {"role": role} for r, role in alice_team.seats.values_list("rider_id", "role")}
    orders_submit(team=alice_team, round=round_one, orders=orders, user=alice)
    page = _my_page(client, alice)
    assert "Your orders for stage 1 are in" in page
    assert "Give your orders" not in page


def test_my_seasons_says_the_motor_draft_is_over_once_every_car_is_picked(
    client, alice, bob, charlie
):
    from season.formation import draft_start as car_draft_start
    from tests.season import motor_builders
    from tests.season.motor_builders import car_pick, free_entries

    season = motor_builders.motor_league(organiser=charlie, formation_mode="draft")
    motor_builders.joined(season, alice, bob)
    first, second = car_draft_start(season=season)
    assert YOUR_TURN in _my_page(client, first.owner)
    assert DRAFT_ON in _my_page(client, second.owner)
    for team in (first, second, second, first):
        car_pick(season=season, team=team, entry=free_entries(season=season)[0])
    for user in (alice, bob):
        page = _my_page(client, user)
        assert DRAFT_ON not in page
        assert YOUR_TURN not in page
        # Round 1 opened at the last pick; a championship's round is never a "stage".
        assert "Give your orders for round 1" in page
        assert "Round 1: " in page
        assert "Stage" not in page
        assert "stage" not in page


def test_my_seasons_tells_a_french_member_what_to_do(client, alice, bob, charlie):
    from season.formation import draft_start as car_draft_start
    from tests.season import motor_builders

    season = motor_builders.motor_league(organiser=charlie, formation_mode="draft")
    motor_builders.joined(season, alice, bob)
    first, _second = car_draft_start(season=season)
    client.force_login(first.owner)
    page = client.get(reverse("my-seasons"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Mes saisons" in page
    assert "C’est votre tour de choisir : aller à la draft" in page
    assert YOUR_TURN not in page


def test_an_invitation_read_while_logged_out_explains_the_season(client, charlie):
    season = league(organiser=charlie, is_public=False)
    link = reverse("season-join", args=[season.invite_code])
    page = client.get(link).content.decode()
    assert "Friends&#x27; Tour" in page
    assert "charlie invites you to play this season" in page
    assert "3 stages" in page
    assert str(adapter_for(season.ruleset).label).replace("'", "&#x27;") in page
    assert f'href="{reverse("ruleset-rules", args=[season.ruleset])}"' in page
    assert f'href="{reverse("login")}?next={link}"' in page
    assert f'href="{reverse("signup")}?next={link}"' in page
    assert 'name="team_name"' not in page


def test_an_invitation_for_a_logged_in_user_asks_his_team_name(client, alice, charlie):
    season = league(organiser=charlie)
    client.force_login(alice)
    page = client.get(reverse("season-join", args=[season.invite_code])).content.decode()
    assert 'name="team_name"' in page


def test_a_logged_in_invitee_reads_the_deadline_and_the_players_as_a_visitor_does(
    client, alice, bob, charlie
):
    season = league(organiser=charlie)
    joined(season, bob)
    link = reverse("season-join", args=[season.invite_code])
    visitor = client.get(link).content.decode()
    client.force_login(alice)
    invitee = client.get(link).content.decode()
    for page in (visitor, invitee):
        assert "first orders due" in page
        assert "1 player has joined so far." in page
        assert "3 stages" in page
        assert "charlie invites you to play this season" in page
    assert 'name="team_name"' in invitee


def test_an_unknown_user_cannot_join_without_an_account(client, charlie):
    season = league(organiser=charlie)
    client.post(reverse("season-join", args=[season.invite_code]), {"team_name": "X"})
    assert not season.teams.filter(name="X").exists()
