"""Reminders a player can count on (issue 29): each member chooses when (default 24 h and 2 h
before each deadline) and where (e-mail, the app); each reminder goes once, only while his
orders are missing and the deadline is ahead; a deadline passed without his orders is told,
with what his team did instead. The beat's function is called with `now=`, as the beat would."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation

from accounts.models import Profile
from accounts.reminders import ReminderChoiceInvalid, reminder_choice_of, reminder_choice_update
from season.models import Notification, Orders, Reminder
from season.notifications import notifications_send
from season.services import lifecycle
from season.services.deadlines import deadlines_shift
from season.services.notices import notice_text
from season.services.orders import orders_submit
from tests.factories import UserFactory
from tests.season.builders import joined, league, stage

pytestmark = pytest.mark.django_db


@pytest.fixture
def olivia(db):
    return UserFactory(username="olivia")


@pytest.fixture
def friends(olivia, alice, bob):
    # A daily calendar: a deadline every 24 hours.
    season = league(organiser=olivia, hours_between=24)
    joined(season, alice, bob)
    first = stage(season, 1)
    lifecycle.round_open(round=first)
    # The orders-open notices are out: what follows is the reminders'.
    notifications_send(now=stage(season, 1).orders_deadline - timedelta(days=2))
    mail.outbox.clear()
    return season


def deadline(season):
    return stage(season, 1).orders_deadline


def reminded_by_email():
    return sorted(address for m in mail.outbox if "are missing" in m.subject for address in m.to)


def reminders_in_app(user=None):
    notices = Notification.objects.filter(kind=Notification.Kind.REMINDER).order_by("pk")
    if user is not None:
        notices = notices.filter(user=user)
    return [(n.user.username, n.params["hours"]) for n in notices]


def give_orders(season, user, *, now):
    team = season.teams.get(owner=user)
    orders = {m.rider_id: {"role": m.role} for m in team.seats.all()}
    orders_submit(team=team, round=stage(season, 1), orders=orders, user=user, now=now)


def test_by_default_a_player_is_reminded_24_hours_and_2_hours_before(friends, alice, bob):
    due = deadline(friends)
    assert notifications_send(now=due - timedelta(hours=24, minutes=5)) == 0
    assert notifications_send(now=due - timedelta(hours=24)) == 2
    assert reminded_by_email() == [alice.email, bob.email]
    assert reminders_in_app() == [("alice", 24), ("bob", 24)]
    mail.outbox.clear()
    # Once: the next runs of the beat send nothing until the next lead time.
    assert notifications_send(now=due - timedelta(hours=24)) == 0
    assert notifications_send(now=due - timedelta(hours=12)) == 0
    assert notifications_send(now=due - timedelta(hours=2, minutes=1)) == 0
    assert notifications_send(now=due - timedelta(hours=2)) == 2
    assert reminded_by_email() == [alice.email, bob.email]
    assert reminders_in_app(alice) == [("alice", 24), ("alice", 2)]
    email = next(m for m in mail.outbox if m.to == [alice.email])
    assert "is less than 2 h away" in email.body
    team = friends.teams.get(owner=alice)
    assert f"http://127.0.0.1:8000/seasons/{friends.slug}/teams/{team.pk}/orders/" in email.body
    assert "http://127.0.0.1:8000/accounts/notifications/" in email.body
    mail.outbox.clear()
    assert notifications_send(now=due - timedelta(minutes=30)) == 0
    assert Reminder.objects.count() == 4


def test_the_reminder_in_the_app_says_how_soon_the_deadline_is(friends, alice):
    notifications_send(now=deadline(friends) - timedelta(hours=2))
    notice = Notification.objects.get(user=alice, kind=Notification.Kind.REMINDER)
    with translation.override("en"):
        text = notice_text(notice)
    assert "your orders for stage 1 are missing; the deadline, " in text
    assert ", is less than 2 h away." in text


def test_no_reminder_once_the_orders_are_given(friends, alice, bob):
    due = deadline(friends)
    give_orders(friends, alice, now=due - timedelta(hours=30))
    notifications_send(now=due - timedelta(hours=24))
    notifications_send(now=due - timedelta(hours=2))
    assert reminded_by_email() == [bob.email, bob.email]
    assert reminders_in_app(alice) == []


def test_each_member_chooses_when_and_where(friends, alice, bob):
    reminder_choice_update(user=alice, hours=[2], by_email=True, in_app=False)
    reminder_choice_update(user=bob, hours=[24], by_email=False, in_app=True)
    due = deadline(friends)
    notifications_send(now=due - timedelta(hours=24))
    assert reminded_by_email() == []
    assert reminders_in_app() == [("bob", 24)]
    notifications_send(now=due - timedelta(hours=2))
    assert reminded_by_email() == [alice.email]
    assert reminders_in_app() == [("bob", 24)]


def test_a_member_may_choose_no_reminders(friends, alice, bob):
    reminder_choice_update(user=alice, hours=[], by_email=True, in_app=True)
    due = deadline(friends)
    notifications_send(now=due - timedelta(hours=24))
    notifications_send(now=due - timedelta(hours=2))
    assert reminded_by_email() == [bob.email, bob.email]
    assert reminders_in_app(alice) == []
    assert not Reminder.objects.filter(user=alice).exists()


def test_a_reminder_missed_while_the_worker_was_down_goes_once_and_only_the_latest(
    friends, alice, bob
):
    due = deadline(friends)
    # Both the 24 h and the 2 h reminders are due: only the 2 h one goes, once.
    assert notifications_send(now=due - timedelta(hours=1)) == 2
    assert reminders_in_app() == [("alice", 2), ("bob", 2)]
    assert notifications_send(now=due - timedelta(minutes=30)) == 0


def test_no_reminder_once_the_deadline_has_passed(friends):
    # The round is still open (the lock job has not run yet): a late reminder would lie.
    assert notifications_send(now=deadline(friends) + timedelta(minutes=1)) == 0
    assert not Reminder.objects.exists()


def test_a_reminder_is_claimed_once_per_player_round_and_lead_time(friends, alice):
    first = stage(friends, 1)
    Reminder.objects.create(round=first, user=alice, hours=2, sent_at=first.orders_deadline)
    with pytest.raises(IntegrityError), transaction.atomic():
        Reminder.objects.create(round=first, user=alice, hours=2, sent_at=first.orders_deadline)
    # Claimed by another run: this one sends nothing to alice.
    notifications_send(now=first.orders_deadline - timedelta(hours=2))
    assert reminders_in_app() == [("bob", 2)]


def test_a_deadline_moved_later_gets_its_reminders_again(friends, alice, bob):
    due = deadline(friends)
    notifications_send(now=due - timedelta(hours=24))
    mail.outbox.clear()
    deadlines_shift(season=friends, delta=timedelta(days=2), now=due - timedelta(hours=23))
    later = deadline(friends)
    assert later == due + timedelta(days=2)
    assert notifications_send(now=due - timedelta(hours=2)) == 0  # no longer 2 h before
    assert notifications_send(now=later - timedelta(hours=24)) == 2
    assert reminders_in_app(alice) == [("alice", 24), ("alice", 24)]


# --- a deadline passed without the player's orders -----------------------------------------


def test_a_deadline_passed_without_orders_is_told_with_what_the_team_did(friends, alice, bob):
    due = deadline(friends)
    give_orders(friends, alice, now=due - timedelta(hours=30))
    reminder_choice_update(user=bob, hours=[], by_email=True, in_app=True)
    lifecycle.round_lock(round=stage(friends, 1))
    mail.outbox.clear()
    notifications_send(now=due + timedelta(minutes=5))
    told = [m for m in mail.outbox if "no orders from you" in m.subject]
    assert [m.to for m in told] == [[bob.email]]
    assert "your riders raced with the default orders" in told[0].body
    assert f"http://127.0.0.1:8000/seasons/{friends.slug}/stages/1/" in told[0].body
    notice = Notification.objects.get(kind=Notification.Kind.MISSED)
    assert notice.user == bob
    assert notice.url == reverse("season-stage", args=[friends.slug, 1])
    with translation.override("en"):
        assert "passed without your orders: your riders raced with the default orders" in (
            notice_text(notice)
        )
    # Once.
    mail.outbox.clear()
    notifications_send(now=due + timedelta(minutes=10))
    assert not [m for m in mail.outbox if "no orders from you" in m.subject]


def test_the_missed_deadline_notice_goes_the_way_the_player_chose(friends, alice, bob):
    reminder_choice_update(user=bob, hours=[24, 2], by_email=False, in_app=True)
    reminder_choice_update(user=alice, hours=[24, 2], by_email=True, in_app=False)
    lifecycle.round_lock(round=stage(friends, 1))
    mail.outbox.clear()
    notifications_send(now=deadline(friends) + timedelta(minutes=5))
    told = [m.to for m in mail.outbox if "no orders from you" in m.subject]
    assert told == [[alice.email]]
    missed = Notification.objects.filter(kind=Notification.Kind.MISSED)
    assert [n.user for n in missed] == [bob]


# --- the member's choice ----------------------------------------------------------------


def test_the_choice_is_24_and_2_hours_by_email_and_in_the_app_by_default(alice):
    choice = reminder_choice_of(alice)
    assert (choice.hours, choice.by_email, choice.in_app) == ((24, 2), True, True)


def test_the_service_refuses_other_lead_times_and_reminders_going_nowhere(alice):
    with pytest.raises(ReminderChoiceInvalid):
        reminder_choice_update(user=alice, hours=[3], by_email=True, in_app=True)
    with pytest.raises(ReminderChoiceInvalid):
        reminder_choice_update(user=alice, hours=[2], by_email=False, in_app=False)
    assert reminder_choice_of(alice).hours == (24, 2)
    # No reminders at all, and no way: that is a choice too.
    reminder_choice_update(user=alice, hours=[], by_email=False, in_app=False)
    assert reminder_choice_of(alice).hours == ()


def test_the_database_refuses_unknown_lead_times(alice):
    with pytest.raises(IntegrityError), transaction.atomic():
        Profile.objects.update_or_create(user=alice, defaults={"reminder_leads": 64})


def test_the_member_chooses_on_his_notification_settings_page(client, alice):
    client.force_login(alice)
    url = reverse("notification-settings")
    page = client.get(url).content.decode()
    checked = re.findall(r'name="hours" value="(\d+)" id="id_hours_\d" checked', page)
    assert checked == ["2", "24"]
    response = client.post(url, {"hours": ["48", "1"], "by_email": "on"})
    assert response.status_code == 302
    choice = reminder_choice_of(alice)
    assert (choice.hours, choice.by_email, choice.in_app) == ((48, 1), True, False)
    refused = client.post(url, {"hours": ["2"]})
    assert refused.status_code == 200
    assert "Choose how to be reminded" in refused.content.decode()
    assert reminder_choice_of(alice).hours == (48, 1)
    assert url in client.get(reverse("notifications")).content.decode()


def test_the_settings_page_is_a_members(client):
    response = client.get(reverse("notification-settings"))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_the_reminders_links_are_built_from_site_url(friends, alice, settings):
    settings.SITE_URL = "http://192.168.1.5:8123/"
    notifications_send(now=deadline(friends) - timedelta(hours=2))
    email = next(m for m in mail.outbox if m.to == [alice.email])
    team = friends.teams.get(owner=alice)
    assert f"http://192.168.1.5:8123/seasons/{friends.slug}/teams/{team.pk}/orders/" in email.body
    assert "http://192.168.1.5:8123/accounts/notifications/" in email.body
    assert "127.0.0.1" not in email.body


# --- standing orders (issue 29, item 3) ---------------------------------------------------


@pytest.mark.parametrize("standing", [True, False])
def test_a_team_whose_orders_stand_is_neither_reminded_nor_told_it_missed(
    friends, alice, bob, standing
):
    alice_team = friends.teams.get(owner=alice)
    Orders.objects.create(
        team=alice_team, round=stage(friends, 1), data={}, standing=standing, nonce="a" * 32
    )
    lifecycle.round_lock(round=stage(friends, 1))
    lifecycle.round_open(round=stage(friends, 2))
    due = stage(friends, 2).orders_deadline
    notifications_send(now=due - timedelta(hours=24))
    second = Notification.objects.filter(params__number=2)
    expected = ["bob"] if standing else ["alice", "bob"]
    assert sorted(n.user.username for n in second.filter(kind=Notification.Kind.REMINDER)) == (
        expected
    )
    lifecycle.round_lock(round=stage(friends, 2))
    notifications_send(now=due + timedelta(minutes=5))
    assert sorted(n.user.username for n in second.filter(kind=Notification.Kind.MISSED)) == (
        expected
    )
