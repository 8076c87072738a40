"""A league's organisation: creating a season, its settings and calendar, invitations, joining.

Services write (keyword-only, `<entity>_<action>`); the few reads the organiser and player
pages need live here too, next to the rules they reflect (docs/league.md).
"""

import itertools
import string
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from plugins import adapter_for
from season.cache import season_changed
from season.formation import formation_started, race_started, ratings_freeze, team_capacity
from season.models import (
    CALENDAR_MAX,
    DONE_STATUSES,
    Membership,
    Round,
    Season,
    SeasonEvent,
    SeasonPoints,
    SeasonTeam,
    ruleset_mismatch,
)
from season.notifications import reminders_reset
from season.round_names import round_name, round_name_start
from season.rule_settings import RuleSettings

INVITE_CODE_CHARS = frozenset(string.ascii_letters + string.digits + "-_")
EDITABLE_DEADLINE = (Round.Status.SCHEDULED, Round.Status.OPEN)


class LeagueError(Exception):
    """A step the league's rules refuse; the message says why."""


class JoinRefused(LeagueError):
    pass


class RouteInvalid(LeagueError):
    """The route has stages that cannot be raced; `errors` names each of them."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__(" ".join(errors))
        self.errors = errors


class CalendarInvalid(LeagueError):
    def __init__(self, errors: list[str]) -> None:
        super().__init__(" ".join(errors))
        self.errors = errors


# --- templates and the calendar ----------------------------------------------------------


#: How far ahead a deadline may lie: a season runs for weeks or months, not for years.
DEADLINE_HORIZON = timedelta(days=2 * 366)


def deadline_too_far(deadline: datetime, *, now: datetime | None = None) -> bool:
    return deadline > (now or timezone.now()) + DEADLINE_HORIZON


def stage_deadlines(*, first: datetime, hours_between: int, count: int) -> list[datetime]:
    """One orders deadline per stage: the first, then one every `hours_between` hours.
    CalendarInvalid when the last would lie beyond DEADLINE_HORIZON."""
    if deadline_too_far(first) or hours_between * max(count - 1, 0) > 24 * 2 * 366:
        raise CalendarInvalid([_("The season must end within two years of today.")])
    deadlines = [first + timedelta(hours=hours_between * index) for index in range(count)]
    if deadlines and deadline_too_far(deadlines[-1]):
        raise CalendarInvalid([_("The season must end within two years of today.")])
    return deadlines


FIRST_DEADLINE_PAST = _("The first deadline must be in the future.")


def first_deadline_check(first: datetime, *, now: datetime | None = None) -> None:
    """CalendarInvalid unless the season's first deadline is still to come (the create forms
    show this under their field; the services refuse it whoever calls them)."""
    if first <= (now or timezone.now()):
        raise CalendarInvalid([str(FIRST_DEADLINE_PAST)])


# --- creating and editing a season -------------------------------------------------------


@dataclass(frozen=True)
class SeasonSettings:
    """What the organiser chooses for a season (all of it can change until teams form)."""

    name: str
    ruleset: str
    is_public: bool
    rule_settings: RuleSettings
    roster_size: int
    formation_mode: str
    budget: int
    max_per_real_team: int | None
    time_zone: str
    #: Results public as soon as a round is resolved; None leaves it as it is.
    auto_publish: bool | None = None
    #: The draft's pick clock in minutes, 0 for none; None leaves it as it is.
    draft_pick_minutes: int | None = None
    #: Who races a stage race: the whole start list or the players' riders (Season.Peloton).
    peloton: str = Season.Peloton.START_LIST
    #: Who wins the league (Season.PlayerRanking); fixed once the season has started.
    player_ranking: str = Season.PlayerRanking.POINTS
    #: The points of the standings across the season (Season.SeasonPoints); fixed likewise.
    season_points: str = SeasonPoints.FANTASY


FORMATION_FIELDS = (
    "ruleset",
    "roster_size",
    "formation_mode",
    "budget",
    "max_per_real_team",
    "peloton",
)


def season_create(
    *,
    organiser: Any,
    slug: str,
    event: Any,
    settings: SeasonSettings,
    first_deadline: datetime,
    hours_between: int,
    options: Mapping[str, Any] | None = None,
) -> Season:
    """A new season whose calendar starts with the league's own copy of ``event`` (a real
    stage race or championship, copied by the ruleset's adapter: a route's stages, a
    championship's entries and Grands Prix), one round per round of the copy with its deadline,
    every round scheduled (round 1 opens when the teams are formed), its creator organising it.
    ``options`` are the values of the game's own create fields
    (GameAdapter.league_create_fields). More races join the calendar by
    :func:`calendar_event_add`.

    Refused before anything is written: a ruleset that does not race the event (LeagueError
    naming both), an event the game cannot run (RouteInvalid naming each round: a stage that
    cannot be raced, a Grand Prix without a track of the game), a calendar beyond the horizon.
    """
    first_deadline_check(first_deadline)
    adapter = adapter_for(settings.ruleset)
    _event_check(
        adapter,
        ruleset=settings.ruleset,
        event=event,
        peloton=settings.peloton,
        options=options or {},
    )
    with transaction.atomic():
        copy = adapter.league_event(
            event=event,
            slug=slug,
            name=settings.name,
            rules=settings.rule_settings,
            options=options or {},
        )
        fields = _model_fields(settings) | adapter.league_season_fields(copy)
        season = Season(slug=slug, organiser=organiser, **fields)
        season.full_clean()
        season.save()
        _event_write(
            season,
            adapter=adapter,
            copy=copy,
            number=1,
            first_round=1,
            deadlines=stage_deadlines(
                first=first_deadline,
                hours_between=hours_between,
                count=adapter.league_round_count(copy),
            ),
            starters=None,
        )
        Membership.objects.create(season=season, user=organiser, role=Membership.Role.ORGANISER)
    return season


def _event_check(
    adapter: Any, *, ruleset: str, event: Any, peloton: str, options: Mapping[str, Any]
) -> None:
    """Refuse an event the season's game cannot run (see :func:`season_create`), or its game's
    options cannot be used with (a stage to start after whose real state is unknown)."""
    mismatch = ruleset_mismatch(ruleset, event)
    if mismatch:
        raise LeagueError(mismatch)
    problems = adapter.league_event_problems(event)
    if problems:
        raise RouteInvalid(problems)
    refused = adapter.league_options_problems(event, options=options)
    if refused:
        raise LeagueError(" ".join(refused))
    refusal = adapter.peloton_problems(event, peloton=peloton)
    if refusal:
        raise LeagueError(" ".join(refusal))


def _event_write(
    season: Season,
    *,
    adapter: Any,
    copy: Any,
    number: int,
    first_round: int,
    deadlines: list[datetime],
    starters: int | None,
) -> SeasonEvent:
    """The calendar's event ``number`` on the league copy ``copy``, its rounds numbered on
    from ``first_round`` with ``deadlines`` (inside the caller's transaction)."""
    item = SeasonEvent(
        season=season, number=number, starters=starters, **adapter.league_event_fields(copy)
    )
    item.full_clean()
    item.save()
    rounds = adapter.league_rounds(copy)
    Round.objects.bulk_create(
        Round(
            season=season,
            season_event=item,
            orders_deadline=deadline,
            **(fields | {"number": first_round + offset}),
        )
        for offset, (fields, deadline) in enumerate(zip(rounds, deadlines, strict=True))
    )
    season.calendar_forget()
    return item


def event_started(item: SeasonEvent) -> bool:
    """Whether an event of the calendar has begun: one of its rounds is open or further on."""
    return item.rounds.exclude(status=Round.Status.SCHEDULED).exists()


def calendar_event_add(
    *,
    season: Season,
    event: Any,
    first_deadline: datetime,
    hours_between: int,
    starters: int | None = None,
    now: datetime | None = None,
    options: Mapping[str, Any] | None = None,
) -> SeasonEvent:
    """Add the league's copy of ``event`` (a real stage race or a route) at the end of the
    season's calendar, its first deadline after the last round's, its rounds numbered on;
    ``options`` as :func:`season_create` takes them (a stage to start after).

    Refused, naming the rule: a game whose event is the whole calendar (a championship); an
    event its game cannot run; a calendar already CALENDAR_MAX long; a first deadline in the
    past, beyond the horizon or not after the calendar's last one; ``starters`` above the
    squad's size; a season whose every round is done (its trophy is given).
    """
    now = now or timezone.now()
    adapter = adapter_for(season.ruleset)
    if not adapter.league_calendar_grows:
        raise LeagueError(
            _("A championship is the whole calendar: its Grands Prix are its rounds.")
        )
    _event_check(
        adapter,
        ruleset=season.ruleset,
        event=event,
        peloton=season.peloton,
        options=options or {},
    )
    first_deadline_check(first_deadline, now=now)
    if starters is not None and not 1 <= starters <= season.roster_size:
        raise LeagueError(
            _("Starters per team: between 1 and the squad's %(size)d riders.")
            % {"size": season.roster_size}
        )
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        calendar = list(locked.events.order_by("number"))
        if len(calendar) >= CALENDAR_MAX:
            raise LeagueError(
                _("The calendar already holds %(count)d events, the most a season may.")
                % {"count": CALENDAR_MAX}
            )
        last = locked.rounds.order_by("-number").first()
        # Rounds are resolved in order: the last one done, every one is.
        if last is not None and last.status in DONE_STATUSES:
            raise LeagueError(_("The season is over: its last round is resolved."))
        if last is not None and last.orders_deadline and first_deadline <= last.orders_deadline:
            raise LeagueError(
                _("The first deadline must come after the calendar's last one (%(last)s).")
                % {
                    "last": timezone.localtime(last.orders_deadline, locked.tz).strftime(
                        "%Y-%m-%d %H:%M"
                    )
                }
            )
        number = (calendar[-1].number if calendar else 0) + 1
        copy = adapter.league_event(
            event=event,
            slug=f"{locked.slug}-{number}",
            name=f"{locked.name} – {event.name}"[:120],
            rules=locked.rules,
            options=options or {},
        )
        item = _event_write(
            locked,
            adapter=adapter,
            copy=copy,
            number=number,
            first_round=(last.number if last is not None else 0) + 1,
            deadlines=stage_deadlines(
                first=first_deadline,
                hours_between=hours_between,
                count=adapter.league_round_count(copy),
            ),
            starters=starters,
        )
        season.calendar_forget()
        if formation_started(locked):
            # The new race races with the season's ratings (docs/league.md "A season keeps
            # its ratings").
            locked.calendar_forget()
            ratings_freeze(locked)
        season_changed(locked)
    return item


def calendar_event_starters(*, season: Season, number: int, starters: int | None) -> SeasonEvent:
    """Set how many of its squad each team starts in event ``number`` (None: the whole
    squad), until the event begins.

    Refused, naming the rule: an event not in the calendar, an event that has begun (its
    teams' selections were written when its first round was claimed), a count outside 1 and
    the squad's size."""
    if starters is not None and not 1 <= starters <= season.roster_size:
        raise LeagueError(
            _("Starters per team: between 1 and the squad's %(size)d riders.")
            % {"size": season.roster_size}
        )
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        item = locked.events.filter(number=number).first()
        if item is None:
            raise LeagueError(_("The calendar has no race number %(number)d.") % {"number": number})
        if event_started(item):
            raise LeagueError(_("This race has started: who starts it can no longer change."))
        item.starters = starters
        item.full_clean()
        item.save(update_fields=["starters"])
        season.calendar_forget()
        season_changed(locked)
    return item


def calendar_event_remove(*, season: Season, number: int) -> None:
    """Take event ``number`` off the season's calendar with its rounds and its league copy;
    the events and rounds after it move up one place so that the numbers stay contiguous
    (one transaction).

    Refused, naming the rule: an event not in the calendar, the calendar's only event, an
    event that has begun (:func:`event_started`: its first round is open or further on)."""
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        item = locked.events.filter(number=number).first()
        if item is None:
            raise LeagueError(_("The calendar has no race number %(number)d.") % {"number": number})
        if locked.events.count() == 1:
            raise LeagueError(_("A season races at least one event: this is its only one."))
        if event_started(item):
            raise LeagueError(
                _("This race has started: its first round is open, it stays in the calendar.")
            )
        rounds = item.rounds.count()
        copy = item.event
        item.rounds.all().delete()
        item.delete()
        copy.delete()
        _renumber_after(locked, number=number, rounds_removed=rounds)
        season.calendar_forget()
        season_changed(locked)


#: Where the rounds after a removed event wait while they are renumbered (the numbers are
#: unique within the season, and checked row by row).
_RENUMBER_OFFSET = 10_000


def _renumber_after(season: Season, *, number: int, rounds_removed: int) -> None:
    """Move the events after ``number`` up one place, and their rounds up ``rounds_removed``."""
    later = season.rounds.filter(season_event__number__gt=number)
    later.update(number=F("number") + _RENUMBER_OFFSET)
    later.update(number=F("number") - _RENUMBER_OFFSET - rounds_removed)
    for item in season.events.filter(number__gt=number).order_by("number"):
        item.number -= 1
        item.save(update_fields=["number"])


def _model_fields(settings: SeasonSettings) -> dict[str, Any]:
    publication: dict[str, Any] = (
        {} if settings.auto_publish is None else {"auto_publish": settings.auto_publish}
    )
    if settings.draft_pick_minutes is not None:
        publication["draft_pick_minutes"] = settings.draft_pick_minutes
    return publication | {
        "name": settings.name,
        "ruleset": settings.ruleset,
        "is_public": settings.is_public,
        "rule_settings": settings.rule_settings.to_data(),
        "roster_size": settings.roster_size,
        "formation_mode": settings.formation_mode,
        "budget": settings.budget,
        "max_per_real_team": settings.max_per_real_team,
        "time_zone": settings.time_zone,
        "peloton": settings.peloton,
        "player_ranking": settings.player_ranking,
        "season_points": settings.season_points,
    }


def season_settings_of(season: Season) -> SeasonSettings:
    return SeasonSettings(
        name=season.name,
        ruleset=season.ruleset,
        is_public=season.is_public,
        rule_settings=season.rules,
        roster_size=season.roster_size,
        formation_mode=season.formation_mode,
        budget=season.budget,
        max_per_real_team=season.max_per_real_team,
        time_zone=season.time_zone,
        auto_publish=season.auto_publish,
        draft_pick_minutes=season.draft_pick_minutes,
        peloton=season.peloton,
        player_ranking=season.player_ranking,
        season_points=season.season_points,
    )


#: The settings fixed once the season has started (formation.race_started: a round opened).
START_FIELDS = ("player_ranking", "season_points")


def rules_frozen(season: Season) -> bool:
    """Once a stage is resolved its standings were made with these rules: they stay."""
    return season.rounds.filter(status__in=DONE_STATUSES).exists()


def season_settings_update(*, season: Season, settings: SeasonSettings) -> Season:
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        current = season_settings_of(locked)
        if formation_started(locked):
            changed = [f for f in FORMATION_FIELDS if getattr(settings, f) != getattr(current, f)]
            if changed:
                raise LeagueError(
                    _("Teams are being formed: the ruleset and team rules can no longer change.")
                )
        started = [f for f in START_FIELDS if getattr(settings, f) != getattr(current, f)]
        if started and race_started(locked):
            raise LeagueError(
                _(
                    "The season has started: the players' ranking and the season's points can "
                    "no longer change."
                )
            )
        if settings.rule_settings != current.rule_settings and rules_frozen(locked):
            raise LeagueError(
                _("A round has been resolved: the rule settings can no longer change.")
            )
        for item in locked.calendar():
            if settings.ruleset != current.ruleset:
                mismatch = ruleset_mismatch(settings.ruleset, item.event)
                if mismatch:
                    raise LeagueError(mismatch)
            if settings.peloton != current.peloton:
                peloton = adapter_for(settings.ruleset).peloton_problems(
                    item.event, peloton=settings.peloton
                )
                if peloton:
                    raise LeagueError(" ".join(peloton))
        for field, value in _model_fields(settings).items():
            setattr(locked, field, value)
        locked.full_clean()
        locked.save()
        season_changed(locked)  # its name, visibility or publication shows on its pages
    return locked


def calendar_update(
    *, season: Season, deadlines: Mapping[int, datetime], now: datetime | None = None
) -> list[Round]:
    """Move orders deadlines. Only stages still scheduled or open can move, never into the
    past, and every deadline must come after the previous stage's."""
    now = now or timezone.now()
    with transaction.atomic():
        stages = list(Round.objects.select_for_update().filter(season=season).order_by("number"))
        errors = []
        changed = []
        for stage in stages:
            new = deadlines.get(stage.number)
            if new is None or new == stage.orders_deadline:
                continue
            if stage.status not in EDITABLE_DEADLINE:
                errors.append(
                    _("%(round)s is %(status)s: its deadline can no longer change.")
                    % {
                        "round": round_name_start(season, stage.number),
                        "status": stage.get_status_display(),
                    }
                )
                continue
            if new <= now:
                errors.append(
                    _("%(round)s: the deadline is in the past.")
                    % {"round": round_name_start(season, stage.number)}
                )
                continue
            if deadline_too_far(new, now=now):
                errors.append(
                    _("%(round)s: the deadline is more than two years away.")
                    % {"round": round_name_start(season, stage.number)}
                )
                continue
            stage.orders_deadline = new
            # The calendar feeds' SEQUENCE and LAST-MODIFIED of the round's event.
            stage.deadline_sequence += 1
            stage.deadline_moved_at = now
            changed.append(stage)
        for previous, stage in itertools.pairwise(stages):
            if (
                previous.orders_deadline
                and stage.orders_deadline
                and stage.orders_deadline <= previous.orders_deadline
            ):
                errors.append(
                    _("%(round)s: the deadline must come after %(previous)s's.")
                    % {
                        "round": round_name_start(season, stage.number),
                        "previous": round_name(season, previous.number),
                    }
                )
        if errors:
            raise CalendarInvalid(errors)
        Round.objects.bulk_update(
            changed, ["orders_deadline", "deadline_sequence", "deadline_moved_at"]
        )
        for stage in changed:
            # A reminder whose moment is to come again is sent again, at its new moment.
            assert stage.orders_deadline is not None
            reminders_reset(round=stage, deadline=stage.orders_deadline, now=now)
    return stages


# --- invitations and joining -------------------------------------------------------------


def invite_code_regenerate(*, season: Season) -> str:
    """A new invitation code; the old link and code stop working."""
    from season.models import invite_code_new

    season.invite_code = invite_code_new()
    season.save(update_fields=["invite_code"])
    return season.invite_code


def season_by_invite_code(code: str) -> Season | None:
    code = code.strip()
    # Codes are URL-safe base64 (invite_code_new); anything else (a NUL byte, which
    # PostgreSQL refuses in a query, or a megabyte of text) matches no season.
    if not code or len(code) > 32 or not INVITE_CODE_CHARS.issuperset(code):
        return None
    return Season.objects.select_related("organiser").filter(invite_code=code).first()


def join_closed_reason(season: Season) -> str | None:
    """Why nobody can join now, or None while teams can still be formed."""
    if season.draft_started_at is not None:
        return _("The draft has started: this season takes no new teams.")
    if race_started(season):
        return _("The race has started: this season takes no new teams.")
    if season.teams.count() >= team_capacity(season=season):
        return _("This season is full: its start list has no riders left for another team.")
    return None


def team_of(*, season: Season, user: Any) -> SeasonTeam | None:
    if not getattr(user, "pk", None):
        return None
    return season.teams.filter(owner=user).first()


def team_name_key(name: str) -> str:
    """A team's name as players tell names apart: without case, accents or extra spaces
    ("Les Échappés" = "les echappes"). Compared in Python under the season's row lock, so the
    rule is the same on SQLite (whose LIKE folds ASCII only) and PostgreSQL."""
    letters = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in letters if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def season_join(*, season: Season, user: Any, team_name: str) -> SeasonTeam:
    """The user joins as a player with a new, empty team named as he chooses."""
    team_name = " ".join(team_name.split())
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        mine = team_of(season=locked, user=user)
        if mine is not None:
            raise JoinRefused(
                _("You already play in this season with %(team)s.") % {"team": mine.name}
            )
        reason = join_closed_reason(locked)
        if reason:
            raise JoinRefused(reason)
        if not team_name:
            raise JoinRefused(_("Give your team a name."))
        taken = locked.teams.values_list("name", flat=True)
        if team_name_key(team_name) in {team_name_key(name) for name in taken}:
            raise JoinRefused(
                _("A team of this season is already called %(name)s.") % {"name": team_name}
            )
        Membership.objects.get_or_create(
            season=locked, user=user, defaults={"role": Membership.Role.PLAYER}
        )
        team = SeasonTeam(season=locked, name=team_name, owner=user)
        team.full_clean()
        team.save()
    return team


# --- the player's pages ------------------------------------------------------------------


@dataclass(frozen=True)
class MySeason:
    season: Season
    role: str
    team: SeasonTeam | None
    next_stage: Round | None


def my_seasons(*, user: Any) -> list[MySeason]:
    """The user's seasons (organised or played), each with his team, its calendar read
    (Season.calendar) and the next stage that takes or will take orders (four queries whatever
    the number of seasons)."""
    memberships = list(
        Membership.objects.filter(user=user)
        .select_related("season__organiser")
        .order_by("-season__created_at")
    )
    season_ids = [m.season_id for m in memberships]
    # The page names each season's event: every calendar in one query, not one a season.
    Season.calendars_read(m.season for m in memberships)
    teams = {
        t.season_id: t for t in SeasonTeam.objects.filter(season_id__in=season_ids, owner=user)
    }
    upcoming: dict[int, Round] = {}
    for stage in (
        Round.objects.filter(season_id__in=season_ids)
        .filter(Q(status=Round.Status.OPEN) | Q(status=Round.Status.SCHEDULED))
        .select_related("stage", "grand_prix")
        .order_by("number")
    ):
        upcoming.setdefault(stage.season_id, stage)
    return [
        MySeason(
            season=m.season,
            role=m.role,
            team=teams.get(m.season_id),
            next_stage=upcoming.get(m.season_id),
        )
        for m in memberships
    ]


@dataclass(frozen=True)
class OrdersWindow:
    """The stage a player gives orders for now, or why he cannot."""

    stage: Round | None
    is_open: bool
    reason: str


def orders_window(*, season: Season, now: datetime | None = None) -> OrdersWindow:
    now = now or timezone.now()
    stage = (
        season.rounds.exclude(status__in=DONE_STATUSES)
        .select_related("stage", "season_event")
        .order_by("number")
        .first()
    )
    if stage is None:
        return OrdersWindow(
            None,
            False,
            str(adapter_for(season.ruleset).over_text),
        )
    if stage.status == Round.Status.SCHEDULED:
        return OrdersWindow(
            stage,
            False,
            _("Orders for %(round)s are not open yet.")
            % {"round": round_name(season, stage.number)},
        )
    if stage.status != Round.Status.OPEN:
        return OrdersWindow(
            stage,
            False,
            _("Orders for %(round)s are closed: it is %(status)s.")
            % {"round": round_name(season, stage.number), "status": stage.get_status_display()},
        )
    if stage.orders_deadline and now >= stage.orders_deadline:
        return OrdersWindow(
            stage,
            False,
            _("Orders for %(round)s closed at the deadline.")
            % {"round": round_name(season, stage.number)},
        )
    return OrdersWindow(stage, True, "")
