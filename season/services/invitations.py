"""The organiser invites a player by username or e-mail: the invitation link is e-mailed to him
(built from SITE_URL). Nothing is stored: the link is the season's, and joining checks the rest."""

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from season.leagues import join_closed_reason
from season.models import Membership, Season


class InvitationRefused(Exception):
    """The invitation cannot be sent; the message says why."""


@dataclass(frozen=True)
class Invitation:
    email: str
    username: str | None


def invitation_link(season: Season) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("season-join", args=[season.invite_code])


def invitation_send(*, season: Season, to: str, sender: object) -> Invitation:
    """E-mail the invitation link to a user (by username) or to an address."""
    to = to.strip()
    if not to:
        raise InvitationRefused(_("Give a username or an e-mail address."))
    if len(to) > 254:
        raise InvitationRefused(_("That is neither a username nor an e-mail address."))
    closed = join_closed_reason(season)
    if closed:
        raise InvitationRefused(closed)
    users = get_user_model().objects
    user = users.filter(username__iexact=to).first() or (
        users.filter(email__iexact=to).first() if "@" in to else None
    )
    if user is not None:
        if Membership.objects.filter(season=season, user=user).exists():
            raise InvitationRefused(
                _("%(name)s already plays in this season.") % {"name": user.username}
            )
        if not user.email:
            raise InvitationRefused(
                _("%(name)s has no e-mail address: send him the link.") % {"name": user.username}
            )
        email, language = user.email, getattr(getattr(user, "profile", None), "language", "")
    else:
        if "@" not in to:
            raise InvitationRefused(_("Nobody has the username %(name)s.") % {"name": to})
        try:
            validate_email(to)
        except ValidationError:
            raise InvitationRefused(
                _("%(email)s is not an e-mail address.") % {"email": to}
            ) from None
        email, language = to, ""
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
    return Invitation(email=email, username=user.username if user is not None else None)
