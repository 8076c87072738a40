"""Notifications in the app (issue 17): the copy of each e-mail season.notifications sends
(orders open, reminders, a deadline missed, results), read on the notifications page and
counted by the bell of the menu. The text is built in the reader's language from the
notice's kind and params."""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import datetime

from django.http import HttpRequest
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from plugins import adapter_for
from season.models import Notification
from season.round_names import round_name

#: The notifications page shows the latest ones.
PAGE_SIZE = 50


def unread_count(request: HttpRequest) -> int:
    """The bell's figure: one query per request for a logged-in user (kept on the request,
    since the page's tag and its menu both ask), none for a visitor."""
    user = request.user
    if not user.is_authenticated:
        return 0
    held: int | None = getattr(request, "_unread_notices", None)
    if held is None:
        held = Notification.objects.filter(user_id=user.pk, read_at__isnull=True).count()
        request._unread_notices = held  # type: ignore[attr-defined]
    return held


def _deadline(params: dict[str, object]) -> str:
    value = parse_datetime(str(params.get("deadline") or ""))
    if value is None:
        return ""
    zone = zoneinfo.ZoneInfo(str(params.get("time_zone") or "UTC"))
    return f"{date_format(timezone.localtime(value, zone), 'SHORT_DATETIME_FORMAT')} ({zone})"


def notice_text(notice: Notification) -> str:
    """What the notice says, in the active language."""
    from season.notifications import commitment_short

    params = notice.params
    if notice.kind == Notification.Kind.INVITATION:
        return _("%(organiser)s invites you to %(season)s: follow the link to join.") % {
            "organiser": params.get("organiser", ""),
            "season": params.get("season", ""),
        }
    values = {
        "season": params.get("season", ""),
        "number": params.get("number", ""),
        "deadline": _deadline(params),
        "commitment": commitment_short(str(params.get("commitment", ""))),
        "hours": params.get("hours") or 0,
        "leader": params.get("leader", ""),
        "leader_player": params.get("leader_player", ""),
        "rank": params.get("rank") or "",
    }
    # "stage 3", "round 3": the season's game names its rounds (season.round_names).
    values["round"] = round_name(notice.season, int(params.get("number") or 0))
    if notice.kind == Notification.Kind.ORDERS_OPEN:
        text = _("%(season)s: orders for %(round)s are open until %(deadline)s.") % values
        if values["commitment"]:
            text += " " + _("The dice of %(round)s are committed: %(commitment)s") % values
        return text
    if notice.kind == Notification.Kind.REMINDER:
        if values["hours"]:
            return (
                _(
                    "%(season)s: your orders for %(round)s are missing; the deadline, "
                    "%(deadline)s, is less than %(hours)s h away."
                )
                % values
            )
        return (
            _("%(season)s: your orders for %(round)s are missing (deadline %(deadline)s).") % values
        )
    if notice.kind == Notification.Kind.MISSED:
        values["pickables"] = adapter_for(notice.season.ruleset).pickables_noun
        return (
            _(
                "%(season)s: the deadline of %(round)s passed without your orders: your "
                "%(pickables)s raced with the default orders."
            )
            % values
        )
    text = _("%(season)s: the results of %(round)s are out.") % values
    if values["rank"] == 1:
        text += " " + _("Your team leads the players.")
    elif values["leader"]:
        text += " " + _("%(leader)s (%(leader_player)s) leads the players.") % values
        if values["rank"]:
            text += " " + _("Your team is number %(rank)s.") % values
    return text


def _pk(user: object) -> int:
    """The user's id; 0 (nobody's) for an anonymous visitor."""
    return int(getattr(user, "pk", None) or 0)


@dataclass(frozen=True)
class ShownNotice:
    pk: int
    text: str
    url: str
    created_at: datetime
    read: bool


def notices_of(*, user: object) -> list[ShownNotice]:
    """The user's latest notices, newest first: one query."""
    rows = (
        Notification.objects.filter(user_id=_pk(user))
        .select_related("season")
        .order_by("-created_at", "-pk")[:PAGE_SIZE]
    )
    return [
        ShownNotice(
            pk=row.pk,
            text=notice_text(row),
            url=row.url,
            created_at=row.created_at,
            read=row.read_at is not None,
        )
        for row in rows
    ]


def notice_read(*, user: object, notice_id: int, now: datetime | None = None) -> str | None:
    """Mark one of the user's notices read; its link, or None if the user has no such notice
    (another user's: nothing changes)."""
    notice = Notification.objects.filter(pk=notice_id, user_id=_pk(user)).first()
    if notice is None:
        return None
    Notification.objects.filter(pk=notice.pk, read_at__isnull=True).update(
        read_at=now or timezone.now()
    )
    return notice.url


def notices_read_all(*, user: object, now: datetime | None = None) -> int:
    """Mark all the user's notices read; how many were unread."""
    return Notification.objects.filter(user_id=_pk(user), read_at__isnull=True).update(
        read_at=now or timezone.now()
    )
