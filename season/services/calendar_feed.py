"""Calendar feeds (RFC 5545, written with ``icalendar``): a member's orders deadlines across
every season he plays or organises, and a season's rounds.

Each round with a deadline is one VEVENT at that moment (DTSTART in UTC, no DTEND: a point in
time, RFC 5545 3.6.1), whose UID stays the round's (``round-<pk>@<site host>``; the season feed
``round-<pk>.season@<site host>``) whatever moves. A deadline the organiser moves
(leagues.calendar_update: the calendar edit and the shift of every deadline) bumps the round's
``deadline_sequence`` and ``deadline_moved_at``: the SEQUENCE and LAST-MODIFIED of its event, so
a subscribed calendar moves the event instead of adding another. DTSTAMP is LAST-MODIFIED, so
the same rows give the same bytes (the views' ETag).

The texts follow the member's language (Profile.language), as the e-mails do
(season.notifications); the season feed's, the visitor's. Results are noted only where the
public sees them (permissions.status_visible with the public view), whoever reads the feed: a
feed is an address, and an address is shared.

Queries: a fixed few whatever the number of seasons (the memberships, the teams, the rounds
with their events; the calendar of each season is read from its rounds).
"""

import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import icalendar
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.calendar_tokens import calendar_token_get
from accounts.models import Profile
from plugins import adapter_for
from season.models import Membership, MembershipRole, Round, Season, SeasonTeam
from season.permissions import PUBLIC_VIEW, status_visible
from season.round_names import round_name, round_title

PRODID = "-//Grand Tour//Calendar feeds//EN"
#: How often a subscribed calendar should fetch the feed again (REFRESH-INTERVAL, RFC 7986,
#: and Outlook's X-PUBLISHED-TTL).
REFRESH = timedelta(hours=1)
#: The alarm of a member's deadline: this long before it.
ALARM_BEFORE = timedelta(hours=1)


def _site_url(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def site_host() -> str:
    """The host of SITE_URL: the right-hand side of every UID."""
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def member_language(user: Any) -> str:
    """The member's language (his profile's), as his e-mails are written in."""
    try:
        language = user.profile.language
    except Profile.DoesNotExist:
        language = ""
    return language or settings.LANGUAGE_CODE


@dataclass(frozen=True)
class FeedLinks:
    """A feed's address as a page gives it: https:// to copy, webcal:// to subscribe."""

    https: str
    webcal: str


def feed_links(path: str, *, token: str | None = None) -> FeedLinks:
    """The absolute addresses of the feed at ``path`` (with ``?token=`` when given)."""
    url = _site_url(path) + (f"?token={token}" if token else "")
    return FeedLinks(https=url, webcal="webcal://" + url.split("://", 1)[-1])


def member_feed_links(*, user: Any) -> FeedLinks:
    """The member's own feed, at the address carrying his token (made on first use)."""
    return feed_links(reverse("member-calendar", args=[calendar_token_get(user=user)]))


def season_feed_links(*, season: Any, user: Any = None) -> FeedLinks | None:
    """A season's feed as a page links it: the public address of a public season; a private
    season's with the token of ``user``, a member (None for anybody else)."""
    path = reverse("season-calendar", args=[season.slug])
    if season.is_public:
        return feed_links(path)
    if user is None or not user.is_authenticated:
        return None
    return feed_links(path, token=calendar_token_get(user=user))


@dataclass(frozen=True)
class Feed:
    """A feed's bytes and when its content last changed (the Last-Modified of the answer)."""

    body: bytes
    modified: datetime
    filename: str


def _rounds_by_season(season_ids: Iterable[int]) -> dict[int, list[Round]]:
    """Every round of these seasons, in order, with what naming it reads (one query)."""
    rounds: dict[int, list[Round]] = defaultdict(list)
    for round_ in (
        Round.objects.filter(season_id__in=list(season_ids))
        .select_related(
            "stage",
            "grand_prix",
            "season_event__race__template",
            "season_event__championship__copied_from",
        )
        .order_by("season_id", "number")
    ):
        rounds[round_.season_id].append(round_)
    return rounds


def _round_modified(season: Season, round_: Round) -> datetime:
    """When the round's event last changed: its deadline moved, or its results shown."""
    moments = [round_.deadline_moved_at or season.created_at]
    if round_.resolved_at and _results_public(season, round_):
        moments.append(round_.resolved_at)
    return max(moments)


def _results_public(season: Season, round_: Round) -> bool:
    return status_visible(round_.status, auto_publish=season.auto_publish, view=PUBLIC_VIEW)


def _when(season: Season, moment: datetime) -> str:
    local = timezone.localtime(moment, season.tz)
    return f"{date_format(local, 'j F Y, H:i')} ({season.time_zone})"


def _calendar(*, name: str, uid: str) -> icalendar.Calendar:
    calendar = icalendar.Calendar.new(
        name=name, prodid=PRODID, method="PUBLISH", uid=uid, calscale="GREGORIAN"
    )
    # RFC 7986 wants the VALUE parameter said; Outlook reads its own X-PUBLISHED-TTL.
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", icalendar.vDuration(REFRESH))
    return calendar


def _event(
    *,
    uid: str,
    round_: Round,
    modified: datetime,
    summary: str,
    description: str,
    url: str,
) -> icalendar.Event:
    assert round_.orders_deadline is not None
    event = icalendar.Event.new(
        uid=uid,
        start=round_.orders_deadline.astimezone(UTC),
        stamp=modified.astimezone(UTC),
        last_modified=modified.astimezone(UTC),
        sequence=round_.deadline_sequence,
        summary=summary,
        description=description,
        url=url,
    )
    # A deadline takes no time in the day: it never makes its reader look busy.
    event.add("transp", "TRANSPARENT")
    return event


def _results_line(season: Season, round_: Round) -> str:
    if not _results_public(season, round_):
        return ""
    return _("The results are out: %(url)s") % {
        "url": _site_url(reverse("season-stage", args=[season.slug, round_.number]))
    }


# --- a member's feed ----------------------------------------------------------------------


def member_feed(*, user: Any) -> Feed:
    """Every orders deadline of every season the member plays or organises, in his language:
    each with the season, the round, his team and the link to his orders form (the organiser
    page for the organiser without a team)."""
    memberships = list(
        Membership.objects.filter(user=user).select_related("season").order_by("season_id")
    )
    seasons = {m.season_id: m.season for m in memberships}
    roles = {m.season_id: m.role for m in memberships}
    teams = {
        team.season_id: team
        for team in SeasonTeam.objects.filter(season_id__in=list(seasons), owner=user)
    }
    rounds = _rounds_by_season(seasons)
    with translation.override(member_language(user)):
        calendar = _calendar(
            name=_("Grand Tour: %(name)s's deadlines") % {"name": user.get_username()},
            uid=str(uuid.uuid5(uuid.NAMESPACE_URL, _site_url(f"/calendar/member/{user.pk}"))),
        )
        modified = max(
            (s.changed_at or s.created_at for s in seasons.values()), default=user.date_joined
        )
        for season_id, season in seasons.items():
            own = rounds.get(season_id, [])
            for round_ in own:
                round_.season = season
            season.calendar_from_rounds(own)
            game = adapter_for(season.ruleset)
            team = teams.get(season_id)
            for round_ in own:
                if round_.orders_deadline is None:
                    continue
                name = round_name(season, round_.number)
                if team is not None:
                    url = _site_url(reverse("player-orders", args=[season.slug, team.pk]))
                    who = _("Your team: %(team)s") % {"team": team.name}
                elif roles.get(season_id) == MembershipRole.ORGANISER:
                    url = _site_url(reverse("organiser-season", args=[season.slug]))
                    who = _("You organise this season.")
                else:
                    url = _site_url(reverse("season-detail", args=[season.slug]))
                    who = ""
                lines = [
                    # "Friends' Tour · Stage 3 of Paris-Nice: Nice - Antibes"
                    f"{season.name} · {round_title(game, season, round_)}",
                    who,
                    _("Orders deadline: %(when)s")
                    % {"when": _when(season, round_.orders_deadline)},
                    _results_line(season, round_),
                    url,
                ]
                changed = _round_modified(season, round_)
                modified = max(modified, changed)
                event = _event(
                    uid=f"round-{round_.pk}@{site_host()}",
                    round_=round_,
                    modified=changed,
                    summary=_("%(season)s: orders for %(round)s")
                    % {"season": season.name, "round": name},
                    description="\n".join(line for line in lines if line),
                    url=url,
                )
                alarm = icalendar.Alarm.new(
                    description=_("Orders for %(round)s close soon") % {"round": name}
                )
                alarm.add("action", "DISPLAY")
                alarm.add("trigger", -ALARM_BEFORE)
                event.add_component(alarm)
                calendar.add_component(event)
    return Feed(body=calendar.to_ical(), modified=modified, filename="grand-tour.ics")


# --- a season's feed ----------------------------------------------------------------------


def season_feed(*, season: Season, language: str | None = None) -> Feed:
    """The season's rounds with a deadline, each with its results noted once the public sees
    them (never before, whoever reads: see the module's docstring)."""
    own = _rounds_by_season([season.pk]).get(season.pk, [])
    for round_ in own:
        round_.season = season
    season.calendar_from_rounds(own)
    game = adapter_for(season.ruleset)
    modified = season.changed_at or season.created_at
    with translation.override(language or translation.get_language()):
        calendar = _calendar(
            name=_("Grand Tour: %(season)s") % {"season": season.name},
            uid=f"season-{season.pk}@{site_host()}",
        )
        for round_ in own:
            if round_.orders_deadline is None:
                continue
            url = _site_url(reverse("season-stage", args=[season.slug, round_.number]))
            lines = [
                game.event_label(game.round_event(round_)),
                _("Orders deadline: %(when)s") % {"when": _when(season, round_.orders_deadline)},
                _results_line(season, round_),
                url,
            ]
            changed = _round_modified(season, round_)
            modified = max(modified, changed)
            calendar.add_component(
                _event(
                    uid=f"round-{round_.pk}.season@{site_host()}",
                    round_=round_,
                    modified=changed,
                    summary=_("%(season)s: orders deadline of %(round)s")
                    % {"season": season.name, "round": round_name(season, round_.number)},
                    description="\n".join(line for line in lines if line),
                    url=url,
                )
            )
    return Feed(body=calendar.to_ical(), modified=modified, filename=f"{season.slug}.ics")
