"""Issue 17, "Organiser tools": invite by username or e-mail, a copy button for the link, and
every deadline shifted at once."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from season.leagues import CalendarInvalid
from season.models import Reminder, Round
from season.services.deadlines import deadlines_shift
from season.services.invitations import InvitationRefused, invitation_send
from tests.factories import UserFactory
from tests.season.builders import joined, league

pytestmark = pytest.mark.django_db


def deadlines(season):
    return list(season.rounds.order_by("number").values_list("orders_deadline", flat=True))


# --- invitations ---------------------------------------------------------------------------


def test_an_invitation_by_username_reaches_his_address_with_the_link(alice, charlie, mailoutbox):
    season = league(organiser=charlie)
    sent = invitation_send(season=season, to="ALICE", sender=charlie)
    assert sent.to == "ALICE"
    (mail,) = mailoutbox
    assert mail.to == [alice.email]
    assert f"/join/{season.invite_code}/" in mail.body
    assert "charlie invites you" in mail.body


def test_an_invitation_by_address_reaches_a_newcomer(charlie, mailoutbox):
    season = league(organiser=charlie)
    invitation_send(season=season, to="new.friend@example.org", sender=charlie)
    assert mailoutbox[0].to == ["new.friend@example.org"]


@pytest.mark.parametrize(
    ("to", "message"),
    [
        ("", "Give a username or an e-mail address."),
        ("not@an address", "not@an address is not an e-mail address."),
        ("bob", "bob already plays in this season."),
    ],
)
def test_an_invitation_that_cannot_go_says_why(bob, charlie, mailoutbox, to, message):
    season = league(organiser=charlie)
    joined(season, bob)
    with pytest.raises(InvitationRefused, match=message):
        invitation_send(season=season, to=to, sender=charlie)
    assert not mailoutbox


def test_an_invitation_answers_alike_whether_or_not_an_account_exists(
    client, alice, charlie, mailoutbox
):
    season = league(organiser=charlie)
    client.force_login(charlie)
    url = reverse("organiser-invite-send", args=[season.slug])
    answers = {}
    for to in (alice.email, "nobody.here@example.org", "alice", "nobody"):
        page = client.post(url, {"to": to}, follow=True).content.decode()
        (answer,) = re.findall(r'<ul class="messages">(.*?)</ul>', page, re.S)
        answers[to] = answer.replace(to, "WHO")
    assert answers[alice.email] == answers["nobody.here@example.org"]
    assert answers["alice"] == answers["nobody"]
    # The address's username is never shown to the organiser.
    assert ">alice<" not in client.post(url, {"to": alice.email}, follow=True).content.decode()
    assert [m.to for m in mailoutbox] == [[alice.email], ["nobody.here@example.org"]] + [
        [alice.email]
    ] * 2


def test_an_organiser_sends_at_most_twenty_invitations_an_hour_per_season(charlie, mailoutbox):
    from season.services.invitations import INVITATIONS_PER_HOUR

    season = league(organiser=charlie)
    now = timezone.now().replace(minute=10)
    for n in range(INVITATIONS_PER_HOUR.count):
        invitation_send(season=season, to=f"friend{n}@example.org", sender=charlie, now=now)
    with pytest.raises(InvitationRefused, match="send more after"):
        invitation_send(season=season, to="one.more@example.org", sender=charlie, now=now)
    assert len(mailoutbox) == INVITATIONS_PER_HOUR.count
    # The next hour's window opens again.
    later = now + timedelta(hours=1)
    invitation_send(season=season, to="one.more@example.org", sender=charlie, now=later)
    assert len(mailoutbox) == INVITATIONS_PER_HOUR.count + 1


def test_the_organiser_invites_from_his_page(client, alice, charlie, mailoutbox):
    season = league(organiser=charlie)
    client.force_login(charlie)
    page = client.get(reverse("organiser-season", args=[season.slug])).content.decode()
    assert 'data-copy="invite-link"' in page  # the copy button, next to the link
    assert "js/copy-link.js" in page
    response = client.post(
        reverse("organiser-invite-send", args=[season.slug]), {"to": "alice"}, follow=True
    )
    assert "If alice has an account with an e-mail address" in response.content.decode()
    assert mailoutbox[0].to == [alice.email]


def test_a_player_or_another_organiser_cannot_send_invitations(
    client, alice, bob, charlie, mailoutbox
):
    season = league(organiser=charlie)
    joined(season, alice)
    league(organiser=bob, slug="bobs")
    url = reverse("organiser-invite-send", args=[season.slug])
    for user in (alice, bob):
        client.force_login(user)
        assert client.post(url, {"to": "new@example.org"}).status_code == 403
    assert not mailoutbox


# --- shifting every deadline ---------------------------------------------------------------


def test_every_deadline_still_to_come_moves_by_the_same_time(charlie):
    season = league(organiser=charlie)
    before = deadlines(season)
    moved = deadlines_shift(season=season, delta=timedelta(days=7))
    assert [s.number for s in moved] == [1, 2, 3]
    assert deadlines(season) == [d + timedelta(days=7) for d in before]


def test_a_shift_into_the_past_moves_nothing_and_names_the_stage(charlie):
    season = league(organiser=charlie, first_deadline=timezone.now() + timedelta(hours=30))
    before = deadlines(season)
    with pytest.raises(CalendarInvalid) as refused:
        deadlines_shift(season=season, delta=timedelta(days=-2))
    assert refused.value.errors[0].startswith("Stage 1: the deadline would be ")
    assert refused.value.errors[0].endswith(", in the past.")
    assert not any(e.startswith("Stage 3") for e in refused.value.errors)
    assert deadlines(season) == before


def test_a_resolved_stage_keeps_its_deadline(charlie):
    season = league(organiser=charlie)
    Round.objects.filter(season=season, number=1).update(status=Round.Status.RESOLVED)
    before = deadlines(season)
    deadlines_shift(season=season, delta=timedelta(hours=-3))
    after = deadlines(season)
    assert after[0] == before[0]
    assert after[1:] == [d - timedelta(hours=3) for d in before[1:]]


def test_a_later_deadline_gets_its_own_reminder(charlie):
    season = league(organiser=charlie, first_deadline=timezone.now() + timedelta(hours=10))
    Round.objects.filter(season=season, number=1).update(status=Round.Status.OPEN)
    first = Round.objects.get(season=season, number=1)
    Reminder.objects.create(round=first, user=charlie, hours=24, sent_at=timezone.now())
    # An hour earlier: the 24 h reminder's moment is still past, it stays sent.
    deadlines_shift(season=season, delta=timedelta(hours=-1))
    assert Reminder.objects.filter(round=first, hours=24).exists()
    # Three days later: its moment is to come again, it will be sent again.
    deadlines_shift(season=season, delta=timedelta(days=3))
    assert not Reminder.objects.filter(round=first).exists()


def test_the_organiser_shifts_the_deadlines_from_his_page(client, charlie):
    season = league(organiser=charlie)
    before = deadlines(season)
    client.force_login(charlie)
    url = reverse("organiser-deadlines-shift", args=[season.slug])
    assert url in client.get(reverse("organiser-season", args=[season.slug])).content.decode()
    assert "Stage 3" in client.get(url).content.decode()
    response = client.post(url, {"days": "1", "hours": "2"}, follow=True)
    assert "3 deadlines moved." in response.content.decode()
    assert deadlines(season) == [d + timedelta(days=1, hours=2) for d in before]
    page = client.post(url, {"days": "-30", "hours": "0"}).content.decode()
    assert "Stage 1: the deadline would be" in page


def test_a_player_or_another_organiser_cannot_shift_the_deadlines(client, alice, bob, charlie):
    season = league(organiser=charlie)
    joined(season, alice)
    league(organiser=bob, slug="bobs")
    before = deadlines(season)
    url = reverse("organiser-deadlines-shift", args=[season.slug])
    for user in (alice, bob, UserFactory(username="dave")):
        client.force_login(user)
        assert client.get(url).status_code == 403
        assert client.post(url, {"days": "1", "hours": "0"}).status_code == 403
    assert deadlines(season) == before
