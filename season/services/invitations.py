"""The organiser invites a player by username or e-mail: the invitation link is e-mailed to him
(built from SITE_URL) and, when he has an account, left as a notice in the app, which his
My seasons page lists until he joins. The link is the season's, and joining checks the rest."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.rate_limits import Limit, rate_take
from season.leagues import join_closed_reason
from season.models import Membership, Notification, Season


class InvitationRefused(Exception):
    """The invitation cannot be sent; the message says why."""


@dataclass(frozen=True)
class Invitation:
    #: What the organiser typed: the answer names nothing else.
    to: str


def invitation_path(season: Season) -> str:
    return reverse("season-join", args=[season.invite_code])


def invitation_link(season: Season) -> str:
    return settings.SITE_URL.rstrip("/") + invitation_path(season)


def _invitation_notice(*, season: Season, user: Any, sender: object) -> None:
    """The invitation in the app: one per player and season; sent again, it is unread again
    and carries the season's current link."""
    Notification.objects.update_or_create(
        user=user,
        season=season,
        kind=Notification.Kind.INVITATION,
        defaults={
            "round": None,
            "params": {"season": season.name, "organiser": getattr(sender, "username", "")},
            "url": invitation_path(season),
            "read_at": None,
        },
    )


@dataclass(frozen=True)
class PendingInvitation:
    season: Season
    organiser: str
    url: str


def invitations_pending(*, user: Any) -> list[PendingInvitation]:
    """The invitations the user has had and not yet taken up: seasons he does not play in,
    that still take teams, whose link has not been replaced since (a new invitation code
    retires the old link). Newest first."""
    if not getattr(user, "pk", None):
        return []
    notices = (
        Notification.objects.filter(user=user, kind=Notification.Kind.INVITATION)
        .exclude(season__memberships__user=user)
        .select_related("season")
        .order_by("-created_at", "-pk")
    )
    pending = []
    for notice in notices:
        season = notice.season
        if notice.url != invitation_path(season) or join_closed_reason(season):
            continue
        pending.append(
            PendingInvitation(
                season=season, organiser=str(notice.params.get("organiser", "")), url=notice.url
            )
        )
    return pending


#: Invitations an organiser may send for one season in an hour.
INVITATIONS_PER_HOUR = Limit(count=20, seconds=3600)


def invitation_send(
    *, season: Season, to: str, sender: object, now: datetime | None = None
) -> Invitation:
    """E-mail the invitation link to a user (by username) or to an address.

    The answer never tells whether an account has that username or address, nor shows the
    username of an address (signup promises e-mails are never shown to others): the organiser
    reads back what he typed, and a person without an address to write to gets nothing."""
    to = to.strip()
    if not to:
        raise InvitationRefused(_("Give a username or an e-mail address."))
    if len(to) > 254:
        raise InvitationRefused(_("That is neither a username nor an e-mail address."))
    closed = join_closed_reason(season)
    if closed:
        raise InvitationRefused(closed)
    if "@" in to:
        try:
            validate_email(to)
        except ValidationError:
            raise InvitationRefused(
                _("%(email)s is not an e-mail address.") % {"email": to}
            ) from None
    now = now or timezone.now()
    again = rate_take(
        f"invite:{getattr(sender, 'pk', '')}:{season.pk}", INVITATIONS_PER_HOUR, now=now
    )
    if again is not None:
        raise InvitationRefused(
            _(
                "You have sent %(count)s invitations for this season in an hour: "
                "send more after %(time)s."
            )
            % {
                "count": INVITATIONS_PER_HOUR.count,
                "time": timezone.localtime(again, season.tz).strftime("%H:%M"),
            }
        )
    users = get_user_model().objects
    user = users.filter(username__iexact=to).first() or (
        users.filter(email__iexact=to).first() if "@" in to else None
    )
    sent = Invitation(to=to)
    if user is not None:
        member = Membership.objects.filter(season=season, user=user).exists()
        if member and user.username.lower() == to.lower():
            # The organiser sees his season's players by username already.
            raise InvitationRefused(
                _("%(name)s already plays in this season.") % {"name": user.username}
            )
        if member:
            return sent  # nothing to send; the answer is the same as for anyone else
        _invitation_notice(season=season, user=user, sender=sender)
        if not user.email:
            return sent
        email, language = user.email, getattr(getattr(user, "profile", None), "language", "")
    elif "@" in to:
        email, language = to, ""
    else:
        return sent  # no such username: the same answer
    with translation.override(language or settings.LANGUAGE_CODE):
        values = {
            "season": season.name,
            "organiser": getattr(sender, "username", ""),
            "url": invitation_link(season),
        }
        send_mail(
            _("%(organiser)s invites you to %(season)s") % values,
            _(
                "Hello,\n\n%(organiser)s invites you to play %(season)s on Grand Tour: you run a "
                "team of riders and give them orders before each stage.\n\nJoin with this "
                "link:\n%(url)s\n"
            )
            % values,
            settings.DEFAULT_FROM_EMAIL,
            [email],
        )
    return sent
