"""Notifications in the app (issue 17): the e-mails' service writes one notice per player beside
each e-mail (orders open with the round's commitment, reminder, results), the menu's bell
counts the unread ones (one query, none for a visitor), the notifications page marks one or all
read, each notice and e-mail links to the orders form (or the results), from SITE_URL."""

from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from season.models import Notification, Round, Season
from season.notifications import notifications_send
from season.services import lifecycle
from season.services.notices import notice_text
from season.services.orders import orders_submit
from tests.factories import UserFactory
from tests.season.builders import joined, league, only_results_due, stage

pytestmark = pytest.mark.django_db


@pytest.fixture
def olivia(db):
    return UserFactory(username="olivia")


@pytest.fixture
def friends(olivia, alice, bob):
    season = league(organiser=olivia)
    joined(season, alice, bob)
    return season


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def open_stage_1(season) -> Round:
    first = stage(season, 1)
    if first.status != Round.Status.OPEN:
        lifecycle.round_open(round=first)
    return stage(season, 1)


def test_orders_open_is_told_in_the_app_with_the_commitment_and_the_orders_link(
    friends, alice, bob
):
    first = open_stage_1(friends)
    notifications_send(now=first.orders_deadline - timedelta(days=2))
    notice = Notification.objects.get(user=alice, kind=Notification.Kind.ORDERS_OPEN)
    team = friends.teams.get(owner=alice)
    assert notice.url == reverse("player-orders", args=[friends.slug, team.pk])
    assert notice.round_id == first.pk
    with translation.override("en"):
        text = notice_text(notice)
    # The commitment's first 12 hex digits (issue 29): the round's page has all 64.
    assert len(first.commitment) == 64
    assert f"The dice of stage 1 are committed: {first.commitment[:12]}…" in text
    assert first.commitment not in text
    assert notice.params["commitment"] == first.commitment
    # The e-mail says the same, links to the same form from SITE_URL, and to the stage's page
    # for the whole commitment.
    email = next(m for m in mail.outbox if m.to == [alice.email])
    assert f"The dice of stage 1 are committed: {first.commitment[:12]}…" in email.body
    assert first.commitment not in email.body
    assert f"http://127.0.0.1:8000/seasons/{friends.slug}/teams/{team.pk}/orders/" in email.body
    assert f"http://127.0.0.1:8000/seasons/{friends.slug}/stages/1/" in email.body
    assert Notification.objects.filter(kind=Notification.Kind.ORDERS_OPEN).count() == 2
    # Once: a second run tells nobody again.
    notifications_send(now=first.orders_deadline - timedelta(days=2))
    assert Notification.objects.filter(kind=Notification.Kind.ORDERS_OPEN).count() == 2


def test_email_links_are_built_from_site_url(friends, alice, settings):
    settings.SITE_URL = "https://tour.example.org:8443/"
    first = open_stage_1(friends)
    notifications_send(now=first.orders_deadline - timedelta(days=2))
    team = friends.teams.get(owner=alice)
    email = next(m for m in mail.outbox if m.to == [alice.email])
    assert f"https://tour.example.org:8443/seasons/{friends.slug}/teams/{team.pk}/orders/" in (
        email.body
    )
    assert "127.0.0.1" not in email.body


def test_a_player_without_an_email_address_is_told_in_the_app(friends, alice):
    type(alice).objects.filter(pk=alice.pk).update(email="")
    first = open_stage_1(friends)
    notifications_send(now=first.orders_deadline - timedelta(days=2))
    assert alice.email not in [address for m in mail.outbox for address in m.to]
    assert Notification.objects.filter(user=alice).count() == 1


def test_the_reminder_goes_to_players_without_orders_and_links_to_their_form(friends, alice, bob):
    first = open_stage_1(friends)
    notifications_send(now=first.orders_deadline - timedelta(days=1, hours=1))
    team = friends.teams.get(owner=alice)
    orders = {m.rider_id: {"role": m.role} for m in team.seats.all()}
    orders_submit(team=team, round=first, orders=orders, user=alice)
    notifications_send(now=first.orders_deadline - timedelta(hours=2))
    reminders = Notification.objects.filter(kind=Notification.Kind.REMINDER)
    assert [n.user for n in reminders] == [bob]
    bob_team = friends.teams.get(owner=bob)
    assert reminders.get().url == reverse("player-orders", args=[friends.slug, bob_team.pk])
    with translation.override("en"):
        assert "your orders for stage 1 are missing" in notice_text(reminders.get())


def test_the_results_notice_links_to_the_stage(friends, alice):
    Season.objects.filter(pk=friends.pk).update(auto_publish=False)
    first = open_stage_1(friends)
    # The resolution itself is tested elsewhere: here, only what the notices make of it.
    Round.objects.filter(pk=first.pk).update(status=Round.Status.RESOLVED)
    only_results_due(friends, at=first.orders_deadline)
    notifications_send(now=first.orders_deadline)
    assert not Notification.objects.filter(kind=Notification.Kind.RESULTS).exists()
    Round.objects.filter(pk=first.pk).update(status=Round.Status.PUBLISHED)
    notifications_send(now=first.orders_deadline)
    notice = Notification.objects.get(user=alice, kind=Notification.Kind.RESULTS)
    assert notice.url == reverse("season-stage", args=[friends.slug, 1])
    email = next(m for m in mail.outbox if m.to == [alice.email])
    assert f"http://127.0.0.1:8000/seasons/{friends.slug}/stages/1/" in email.body


def _notice(user, season, kind=Notification.Kind.RESULTS, number=1):
    return Notification.objects.create(
        user=user,
        season=season,
        round=stage(season, number),
        kind=kind,
        params={"season": season.name, "number": number},
        url=reverse("season-stage", args=[season.slug, number]),
    )


def test_the_bell_counts_the_unread_notices_in_one_query(friends, alice):
    _notice(alice, friends, number=1)
    _notice(alice, friends, number=2)
    member = client_of(alice)
    with CaptureQueriesContext(connection) as queries:
        page = member.get(reverse("my-seasons")).content.decode()
    assert '<span class="bell-count">2</span>' in page
    # My seasons also reads the pending invitations; the bell is the one count.
    counted = [
        q["sql"]
        for q in queries.captured_queries
        if "season_notification" in q["sql"] and "COUNT(" in q["sql"]
    ]
    assert len(counted) == 1
    Notification.objects.filter(user=alice).update(read_at=stage(friends, 1).orders_deadline)
    assert "bell-count" not in member.get(reverse("my-seasons")).content.decode()


def test_a_visitor_has_no_bell_and_no_notification_query(friends):
    with CaptureQueriesContext(connection) as queries:
        page = Client().get(reverse("season-detail", args=[friends.slug])).content.decode()
    assert 'class="bell' not in page
    assert not [q for q in queries.captured_queries if "season_notification" in q["sql"]]


def test_a_new_notice_is_a_new_page_for_the_browser(friends, alice):
    member = client_of(alice)
    season_page = reverse("season-detail", args=[friends.slug])
    etag = member.get(season_page)["ETag"]
    assert member.get(season_page, HTTP_IF_NONE_MATCH=etag).status_code == 304
    _notice(alice, friends)
    fresh = member.get(season_page, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200
    assert '<span class="bell-count">1</span>' in fresh.content.decode()


def test_the_notifications_page_opens_and_marks_read(friends, alice):
    first, second = _notice(alice, friends, number=1), _notice(alice, friends, number=2)
    member = client_of(alice)
    page = member.get(reverse("notifications")).content.decode()
    assert page.index("results of stage 2") < page.index("results of stage 1")  # newest first
    response = member.post(reverse("notification-open", args=[first.pk]))
    assert response.status_code == 302
    assert response["Location"] == first.url
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.read_at is not None
    assert second.read_at is None
    member.post(reverse("notification-open", args=[second.pk]), {"stay": "1"})
    second.refresh_from_db()
    assert second.read_at is not None


def test_mark_all_read_touches_only_ones_own(friends, alice, bob):
    _notice(alice, friends, number=1)
    _notice(alice, friends, number=2)
    theirs = _notice(bob, friends, number=1)
    client_of(alice).post(reverse("notifications-read-all"))
    assert not Notification.objects.filter(user=alice, read_at__isnull=True).exists()
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_nobody_opens_or_reads_another_players_notice(friends, alice, bob):
    theirs = _notice(bob, friends)
    assert client_of(alice).post(reverse("notification-open", args=[theirs.pk])).status_code == 404
    anonymous = Client().post(reverse("notification-open", args=[theirs.pk]))
    assert anonymous.status_code == 302
    assert "/accounts/login/" in anonymous["Location"]
    assert Client().get(reverse("notifications")).status_code == 302
    theirs.refresh_from_db()
    assert theirs.read_at is None
    assert "results of stage" not in client_of(alice).get(reverse("notifications")).content.decode()
