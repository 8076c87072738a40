"""Issue 29: an invitation by username reaches the player in the app too, and waits on his My
seasons page until he joins."""

import pytest
from django.urls import reverse

from season.leagues import invite_code_regenerate
from season.models import Notification
from season.services.invitations import invitation_send, invitations_pending
from season.services.notices import notices_of, unread_count
from tests.factories import UserFactory
from tests.season.builders import joined, league

pytestmark = pytest.mark.django_db


def test_an_invitation_by_username_leaves_a_notice_with_the_join_link(alice, charlie):
    season = league(organiser=charlie)
    invitation_send(season=season, to="alice", sender=charlie)
    (notice,) = notices_of(user=alice)
    assert notice.text == "charlie invites you to Friends' Tour: follow the link to join."
    assert notice.url == reverse("season-join", args=[season.invite_code])
    assert not notice.read


def test_a_player_without_an_address_still_gets_the_notice(charlie, mailoutbox):
    season = league(organiser=charlie)
    dora = UserFactory(username="dora", email="")
    invitation_send(season=season, to="dora", sender=charlie)
    assert not mailoutbox
    assert [p.season for p in invitations_pending(user=dora)] == [season]


def test_an_invitation_sent_twice_is_one_notice_unread_again(alice, charlie):
    season = league(organiser=charlie)
    invitation_send(season=season, to="alice", sender=charlie)
    Notification.objects.update(read_at="2026-01-01T00:00Z")
    invitation_send(season=season, to="alice", sender=charlie)
    assert Notification.objects.filter(user=alice).count() == 1
    assert Notification.objects.get(user=alice).read_at is None


def test_an_invitation_is_pending_until_the_player_joins(alice, charlie):
    season = league(organiser=charlie)
    invitation_send(season=season, to="alice", sender=charlie)
    (pending,) = invitations_pending(user=alice)
    assert (pending.season, pending.organiser) == (season, "charlie")
    joined(season, alice)
    assert invitations_pending(user=alice) == []


def test_a_renewed_invitation_code_retires_the_pending_invitation(alice, charlie):
    season = league(organiser=charlie)
    invitation_send(season=season, to="alice", sender=charlie)
    invite_code_regenerate(season=season)
    assert invitations_pending(user=alice) == []


def test_an_invitation_by_address_to_nobody_leaves_no_notice(charlie):
    season = league(organiser=charlie)
    invitation_send(season=season, to="nobody@example.org", sender=charlie)
    assert not Notification.objects.exists()


def test_the_bell_counts_the_invitation(rf, alice, charlie):
    invitation_send(season=league(organiser=charlie), to="alice", sender=charlie)
    request = rf.get("/")
    request.user = alice
    assert unread_count(request) == 1
