"""Issue 17, "Meaning": organiser actions ask first and say what they will do, every page says
who has given orders, and the status words say what is happening."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from season.models import Job, Orders, Round
from season.services.orders import orders_submit
from tests.factories import UserFactory
from tests.season.builders import joined, league

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    from season.demo import demo_load

    return demo_load()


def team_of(season, username):
    return season.teams.get(owner__username=username)


def give_orders(season, username, number=1):
    team = team_of(season, username)
    orders_submit(
        team=team,
        round=Round.objects.get(season=season, number=number),
        orders={m.rider_id: {"role": "domestique"} for m in team.seats.all()},
        user=team.owner,
    )
    return team


def confirm_url(action, number=1, slug="demo"):
    return reverse("season-stage-action-confirm", args=[slug, number, action])


def olivia(client):
    client.login(username="olivia", password="olivia-demo")
    return client


# --- resolve now ---------------------------------------------------------------------------


def test_resolve_now_asks_first_saying_how_early_and_who_has_given_orders(client, demo):
    Round.objects.filter(season=demo, number=1).update(
        orders_deadline=timezone.now() + timedelta(days=2, minutes=5)
    )
    give_orders(demo, "alice")
    stage_page = olivia(client).get(reverse("season-stage", args=["demo", 1])).content.decode()
    assert confirm_url("resolve") in stage_page  # the button leads to the question

    page = client.get(confirm_url("resolve")).content.decode()
    assert "Resolve stage 1 now, 2 days before its deadline?" in page
    assert "1 of 3 teams have given orders." in page
    assert reverse("season-stage-action", args=["demo", 1, "resolve"]) in page
    # Asking changed nothing.
    assert Round.objects.get(season=demo, number=1).status == Round.Status.OPEN
    assert not Job.objects.exists()


def test_resolve_after_the_deadline_does_not_say_before(client, demo):
    Round.objects.filter(season=demo, number=1).update(
        orders_deadline=timezone.now() - timedelta(hours=1)
    )
    page = olivia(client).get(confirm_url("resolve")).content.decode()
    assert "Resolve stage 1 now?" in page
    assert "before its deadline" not in page
    assert "0 of 3 teams have given orders." in page


def test_the_confirmed_resolution_says_once_that_the_stage_is_resolved(client, demo):
    action = reverse("season-stage-action", args=["demo", 1, "resolve"])
    olivia(client).post(action)
    # A double submit: the second press arrives before the first page is shown.
    response = client.post(action, follow=True)
    page = response.content.decode()
    assert Round.objects.get(season=demo, number=1).status == Round.Status.RESOLVED
    assert page.count("Stage 1 is resolved: its results are below.") == 1
    assert "being resolved" not in page
    assert Job.objects.filter(round__season=demo, round__number=1).count() == 1


def test_a_second_press_on_a_queued_stage_says_being_resolved_once(client, demo, monkeypatch):
    # No worker takes the job: it stays queued.
    monkeypatch.setattr("season.tasks.round_resolve_task.apply_async", lambda *a, **k: None)
    action = reverse("season-stage-action", args=["demo", 1, "resolve"])
    olivia(client).post(action)
    page = client.post(action, follow=True).content.decode()
    assert page.count("being resolved") == 1
    assert "Stage 1 is being resolved." in page
    assert Job.objects.filter(round__season=demo).count() == 1


def test_the_badge_says_resolving_while_a_job_is_on_its_way(client, demo):
    round = Round.objects.get(season=demo, number=1)
    Round.objects.filter(pk=round.pk).update(status=Round.Status.LOCKED)
    url = reverse("season-stage", args=["demo", 1])
    assert 'class="status status-locked">Locked' in client.get(url).content.decode()
    Job.objects.create(round=round)
    page = client.get(url).content.decode()
    assert 'class="status status-resolving">Resolving' in page
    assert ">Locked<" not in page


# --- publish ---------------------------------------------------------------------------------


def test_publish_asks_first(client, demo):
    olivia(client).post(reverse("season-stage-action", args=["demo", 1, "resolve"]))
    stage_page = client.get(reverse("season-stage", args=["demo", 1])).content.decode()
    assert confirm_url("publish") in stage_page
    page = client.get(confirm_url("publish")).content.decode()
    assert "Publish the results of stage 1?" in page
    assert Round.objects.get(season=demo, number=1).status == Round.Status.RESOLVED


def test_a_confirmation_the_lifecycle_does_not_allow_leads_back_to_the_stage(client, demo):
    response = olivia(client).get(confirm_url("publish"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("season-stage", args=["demo", 1])
    assert "Stage 1 cannot take that action now." in response.content.decode()
    assert client.get(confirm_url("open")).status_code == 404


# --- the draft and the invitation code -------------------------------------------------------


def test_starting_the_draft_asks_first(client, alice, bob, charlie):
    season = league(organiser=charlie)
    joined(season, alice, bob)
    client.force_login(charlie)
    dashboard = client.get(reverse("organiser-season", args=[season.slug])).content.decode()
    confirm = reverse("organiser-draft-start-confirm", args=[season.slug])
    assert confirm in dashboard
    page = client.get(confirm).content.decode()
    assert "Start the draft with 2 teams?" in page
    assert "Each team picks 2 riders, 4 picks in all." in page
    season.refresh_from_db()
    assert season.draft_started_at is None


@pytest.mark.parametrize("players", [0, 1])
def test_the_draft_is_not_offered_before_two_teams_have_joined(
    client, alice, bob, charlie, players
):
    season = league(organiser=charlie)
    joined(season, *[alice, bob][:players])
    client.force_login(charlie)
    dashboard = client.get(reverse("organiser-season", args=[season.slug])).content.decode()
    confirm = reverse("organiser-draft-start-confirm", args=[season.slug])
    assert confirm not in dashboard
    assert "A draft needs at least two teams" in dashboard
    # Typed by hand, the confirmation says why and goes back.
    page = client.get(confirm, follow=True).content.decode()
    assert "Invite the players first." in page
    assert "Start the draft with" not in page


def test_a_new_invitation_code_asks_first(client, alice, charlie):
    season = league(organiser=charlie)
    joined(season, alice)
    client.force_login(charlie)
    confirm = reverse("organiser-invite-regenerate-confirm", args=[season.slug])
    assert confirm in client.get(reverse("organiser-season", args=[season.slug])).content.decode()
    page = client.get(confirm).content.decode()
    assert "Make a new invitation code for Friends&#x27; Tour?" in page
    assert season.invite_code in page
    assert "The 1 player who has joined keeps his team." in page
    old = season.invite_code
    season.refresh_from_db()
    assert season.invite_code == old


# --- permissions, from the other side ---------------------------------------------------------


def test_a_player_cannot_reach_the_organisers_confirmations(client, demo):
    client.login(username="alice", password="alice-demo")
    for action in ("resolve", "publish"):
        assert client.get(confirm_url(action)).status_code == 403
    for name in ("organiser-draft-start-confirm", "organiser-invite-regenerate-confirm"):
        assert client.get(reverse(name, args=["demo"])).status_code == 403


def test_another_organiser_cannot_reach_them_either(client, demo, alice):
    league(organiser=alice, slug="alices")
    client.force_login(alice)
    assert client.get(confirm_url("resolve")).status_code == 403
    assert client.get(reverse("organiser-draft-start-confirm", args=["demo"])).status_code == 403


def test_a_visitor_is_asked_to_log_in_and_a_private_season_is_not_found(client, demo):
    response = client.get(confirm_url("resolve"))
    assert response.status_code == 302
    assert reverse("login") in response.url
    demo.is_public = False
    demo.save()
    client.force_login(UserFactory(username="dave"))
    assert client.get(confirm_url("resolve")).status_code == 404


# --- who has given orders ------------------------------------------------------------------


def test_the_stage_page_and_the_organisers_page_list_each_teams_orders(client, demo):
    alice_team = give_orders(demo, "alice")
    given = Orders.objects.get(team=alice_team).updated_at
    when = timezone.localtime(given, demo.tz).strftime("%H:%M")
    for url in (
        reverse("season-stage", args=["demo", 1]),
        reverse("organiser-season", args=["demo"]),
    ):
        page = olivia(client).get(url).content.decode()
        assert 'id="orders-status"' in page, url
        assert "(1 of 3)" in page
        row = page[page.index(alice_team.name, page.index('id="orders-status"')) :]
        assert f"{when} (Europe/Paris)" in row.split("</tr>")[0]
        bob_team = team_of(demo, "bob").name
        missing = page[page.index(bob_team, page.index('id="orders-status"')) :]
        assert "not yet" in missing.split("</tr>")[0]


def test_a_visitor_sees_who_has_given_orders_but_not_the_orders(client, demo):
    give_orders(demo, "alice")
    page = client.get(reverse("season-stage", args=["demo", 1])).content.decode()
    assert "(1 of 3)" in page
    assert "domestique" not in page.split('id="orders-status"')[1].split("</table>")[0]


def test_the_reminder_goes_to_the_players_without_orders_only(demo, mailoutbox):
    from season.notifications import notifications_send

    give_orders(demo, "alice")
    round = Round.objects.get(season=demo, number=1)
    Round.objects.filter(pk=round.pk).update(orders_opened_notified_at=timezone.now())
    notifications_send(now=round.orders_deadline - timedelta(hours=2))
    reminded = {address for mail in mailoutbox for address in mail.to}
    assert reminded == {"bob@example.com", "charlie@example.com"}


# --- dates and time zones ------------------------------------------------------------------


def test_the_stage_page_labels_the_league_deadline_and_the_real_date_with_its_time_zone(
    client, demo
):
    # A zone far from the server's, so that a deadline shown in the wrong zone shows.
    demo.time_zone = "America/New_York"
    demo.save()
    round = Round.objects.select_related("stage").get(season=demo, number=1)
    page = client.get(reverse("season-stage", args=["demo", 1])).content.decode()
    local = timezone.localtime(round.orders_deadline, demo.tz)
    assert "League deadline for orders" in page
    assert f"{local:%H:%M} (America/New_York)" in page
    assert "Raced in real life on" in page
    assert f"{round.stage.date.year}" in page.split("Raced in real life on")[1][:200]


# --- the words of a motor league's actions ---------------------------------------------------


def test_a_motor_leagues_confirmations_and_messages_name_its_rounds(client):
    from season.demo import MOTOR_DEMO_SLUG, motor_demo_load

    motor_demo_load()
    olivia(client)
    slug = MOTOR_DEMO_SLUG
    page = client.get(confirm_url("resolve", slug=slug)).content.decode()
    assert "Resolve round 1 now" in page
    assert "← Round 1" in page
    assert "stage" not in page.lower().replace("/stages/", "")
    action = reverse("season-stage-action", args=[slug, 1, "resolve"])
    page = client.post(action, follow=True).content.decode()
    assert "Round 1 is resolved: its results are below." in page
    page = client.get(confirm_url("publish", slug=slug)).content.decode()
    assert "Publish the results of round 1?" in page
    page = client.post(action.replace("resolve", "publish"), follow=True).content.decode()
    assert "The results of round 1 are published." in page
    page = client.get(confirm_url("publish", slug=slug), follow=True).content.decode()
    assert "Round 1 cannot take that action now." in page
