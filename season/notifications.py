"""Emails to players, and the same notices in the app (season.services.notices shows them):
orders open (with the short form of the round's commitment, issue 19), reminders of missing
orders at the hours each player chose before the deadline (accounts.reminders, default 24 h and
2 h), a deadline passed without his orders (what his team did instead), results published (or
resolved, in a season that auto-publishes) with the news in a line. The links are built from
SITE_URL (`make run` derives it from HOST and PORT) and lead to the player's orders form (the
results and a missed deadline: to the round's page).

`notifications_send` runs every few minutes (Celery beat). Each notice is claimed before
anything is sent, so two runs never send it twice: a round's notices with a conditional update
on the round's timestamp, a reminder with its own row (season.models.Reminder, unique per round,
player and lead time). The season's chat channels get their messages at the same claims
(season.services.chat_hooks: a round opens, results out and the end of a race, and a reminder
of a deadline two hours away).
"""

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import send_mass_mail
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.models import REMINDER_HOURS
from accounts.reminders import ReminderChoice, reminder_choice_from
from plugins import adapter_for
from season.models import DONE_STATUSES, Notification, Orders, Reminder, Round, SeasonTeam
from season.results import players_ranking
from season.round_names import round_name, round_name_start
from season.services import chat_hooks
from season.services.carry import standing_teams
from season.services.commitment import round_seed_commit

#: The earliest a player may be reminded before a deadline (accounts.models.REMINDER_HOURS).
REMINDER_BEFORE = timedelta(hours=max(REMINDER_HOURS))
#: A deadline passed longer ago than this is no news: its missed-orders notice is not sent.
MISSED_NEWS_FOR = timedelta(days=2)
#: How much of a round's commitment (64 hex digits) a notice quotes: the round's page has it all.
COMMITMENT_SHOWN = 12


def _site_url(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def commitment_short(commitment: str) -> str:
    """The commitment as a notice quotes it: its first hex digits and an ellipsis."""
    if len(commitment) <= COMMITMENT_SHOWN:
        return commitment
    return commitment[:COMMITMENT_SHOWN] + "…"


def _claim(round: Round, field: str, now: datetime) -> bool:
    return bool(
        Round.objects.filter(pk=round.pk, **{f"{field}__isnull": True}).update(**{field: now})
    )


@dataclass(frozen=True)
class Player:
    user_id: int
    team_id: int
    name: str
    email: str
    language: str
    choice: ReminderChoice = field(default_factory=ReminderChoice)


def _players(round: Round, *, without_orders: bool = False) -> list[Player]:
    """The players to tell (those without an e-mail address are told in the app only)."""
    teams = SeasonTeam.objects.filter(season_id=round.season_id, owner__isnull=False)
    if without_orders:
        given = Orders.objects.filter(round=round).values("team_id")
        # A team whose standing orders race this round has not missed it.
        teams = teams.exclude(pk__in=given).exclude(standing_teams(round=round))
    rows = teams.order_by("pk").values_list(
        "owner_id",
        "pk",
        "owner__username",
        "owner__email",
        "owner__profile__language",
        "owner__profile__reminder_leads",
        "owner__profile__reminders_by_email",
        "owner__profile__reminders_in_app",
    )
    return [
        Player(
            user_id,
            team_id,
            name,
            email,
            language or settings.LANGUAGE_CODE,
            reminder_choice_from(leads, by_email, in_app),
        )
        for user_id, team_id, name, email, language, leads, by_email, in_app in rows
    ]


@dataclass
class Telling:
    """What one round's players are told: the notices in the app and the e-mails, gathered
    then written and sent together."""

    stage: Round
    kind: str
    params: dict[str, Any]
    notices: list[Notification] = field(default_factory=list)
    messages: list[tuple[str, str, str, list[str]]] = field(default_factory=list)

    def tell(
        self,
        player: Player,
        *,
        path: str,
        subject: Callable[[dict[str, Any]], str],
        body: Callable[[dict[str, Any]], str],
        params: dict[str, Any] | None = None,
        values: dict[str, Any] | None = None,
        in_app: bool = True,
        by_email: bool = True,
    ) -> None:
        """Tell ``player``: a notice in the app (``params`` added to the round's) and an
        e-mail in his language, whose texts ``subject`` and ``body`` give in the active
        language from ``values`` (the round's, added to these)."""
        stage = self.stage
        if in_app:
            self.notices.append(
                Notification(
                    user_id=player.user_id,
                    season_id=stage.season_id,
                    round=stage,
                    kind=self.kind,
                    params=self.params | (params or {}),
                    url=path,
                )
            )
        if not (by_email and player.email):
            return
        with translation.override(player.language):
            deadline = stage.orders_deadline
            local = timezone.localtime(deadline, stage.season.tz) if deadline else None
            shown = {
                "season": stage.season.name,
                "number": stage.number,
                "event": adapter_for(stage.season.ruleset).event_label(stage.event),
                "deadline": (
                    f"{date_format(local, 'j F Y, H:i')} ({stage.season.time_zone})"
                    if local
                    else ""
                ),
                # "stage 3", "round 3": the game's name of a round, in the player's language.
                "round": round_name(stage.season, stage.number),
                "Round": round_name_start(stage.season, stage.number),
                "url": _site_url(path),
                "settings_url": _site_url(reverse("notification-settings")),
                "name": player.name,
            } | (values or {})
            self.messages.append(
                (subject(shown), body(shown), settings.DEFAULT_FROM_EMAIL, [player.email])
            )

    def send(self) -> int:
        Notification.objects.bulk_create(self.notices, ignore_conflicts=True)
        return send_mass_mail(self.messages)


def _params(stage: Round, **more: Any) -> dict[str, Any]:
    return {
        "season": stage.season.name,
        "number": stage.number,
        "deadline": stage.orders_deadline.isoformat() if stage.orders_deadline else "",
        "time_zone": stage.season.time_zone,
    } | more


def _orders_path(stage: Round, player: Player) -> str:
    return reverse("player-orders", args=[stage.season.slug, player.team_id])


def _stage_path(stage: Round) -> str:
    return reverse("season-stage", args=[stage.season.slug, stage.number])


# --- orders open ------------------------------------------------------------------------------


def _opened_subject(v: dict[str, Any]) -> str:
    return _("%(season)s: orders open for %(round)s") % v


def _opened_body(v: dict[str, Any]) -> str:
    return (
        _("Hello %(name)s,\n\nOrders for %(round)s (%(event)s) are open until %(deadline)s.\n") % v
        + _("Your orders: %(url)s\n") % v
        + "\n"
        + _("The dice of %(round)s are committed: %(commitment)s (all of it: %(stage_url)s)\n") % v
    )


def orders_open_send(stages: Iterable[Round], *, now: datetime) -> int:
    sent = 0
    for stage in stages:
        if not _claim(stage, "orders_opened_notified_at", now):
            continue
        chat_hooks.round_opened(round=stage, now=now)
        # The dice are committed before orders are taken (issue 19): the notice says so.
        commitment = round_seed_commit(round=stage)
        telling = Telling(
            stage, Notification.Kind.ORDERS_OPEN, _params(stage, commitment=commitment)
        )
        values = {
            "commitment": commitment_short(commitment),
            "stage_url": _site_url(_stage_path(stage)),
        }
        for player in _players(stage):
            telling.tell(
                player,
                path=_orders_path(stage, player),
                subject=_opened_subject,
                body=_opened_body,
                values=values,
            )
        sent += telling.send()
    return sent


# --- reminders --------------------------------------------------------------------------------


def reminder_due(choice: ReminderChoice, *, deadline: datetime, now: datetime) -> int | None:
    """The lead time (hours) of the reminder due now: the latest whose moment has come (one
    missed while the worker was down is not sent beside it); None before the first, and once
    the deadline has passed."""
    if deadline <= now:
        return None
    due = [hours for hours in choice.hours if deadline - timedelta(hours=hours) <= now]
    return min(due) if due else None


def _reminder_subject(v: dict[str, Any]) -> str:
    return _("%(season)s: your orders for %(round)s are missing") % v


def _reminder_body(v: dict[str, Any]) -> str:
    return _with_settings_link(
        _(
            "Hello %(name)s,\n\nYou have not given orders for %(round)s yet: the deadline, "
            "%(deadline)s, is less than %(hours)d h away.\nYour orders: %(url)s\n"
        )
        % v,
        v,
    )


def _with_settings_link(body: str, v: dict[str, Any]) -> str:
    """A reminder's or a missed-deadline e-mail, ending with where to choose them."""
    return body + "\n" + _("Choose when and how you are reminded: %(settings_url)s\n") % v


def reminders_send(*, now: datetime) -> int:
    """Remind each player without orders for an open round at the lead times he chose, each
    once (claimed in Reminder before it is sent)."""
    stages = Round.objects.select_related("season", "stage", "grand_prix").filter(
        status=Round.Status.OPEN,
        orders_deadline__gt=now,
        orders_deadline__lte=now + REMINDER_BEFORE,
    )
    sent = 0
    for stage in stages.order_by("orders_deadline", "pk"):
        assert stage.orders_deadline is not None
        telling = Telling(stage, Notification.Kind.REMINDER, _params(stage))
        for player in _players(stage, without_orders=True):
            hours = reminder_due(player.choice, deadline=stage.orders_deadline, now=now)
            if hours is None or not (player.choice.in_app or player.choice.by_email):
                continue
            _reminder, claimed = Reminder.objects.get_or_create(
                round=stage, user_id=player.user_id, hours=hours, defaults={"sent_at": now}
            )
            if not claimed:
                continue
            telling.tell(
                player,
                path=_orders_path(stage, player),
                subject=_reminder_subject,
                body=_reminder_body,
                params={"hours": hours},
                values={"hours": hours},
                in_app=player.choice.in_app,
                by_email=player.choice.by_email,
            )
        sent += telling.send()
    return sent


def reminders_reset(*, round: Round, deadline: datetime, now: datetime) -> int:
    """A round's deadline moved to ``deadline``: the reminders whose moment is to come again
    are sent again (their claims dropped); those whose moment has passed stay sent."""
    left = (deadline - now).total_seconds() / 3600
    # A lead time of ``hours`` is to come while hours < left.
    deleted, _kinds = Reminder.objects.filter(round=round, hours__lte=math.ceil(left) - 1).delete()
    return deleted


# --- a deadline passed without the player's orders -----------------------------------------


def _missed_subject(v: dict[str, Any]) -> str:
    return _("%(season)s: no orders from you for %(round)s") % v


def _missed_body(v: dict[str, Any]) -> str:
    return _with_settings_link(
        _(
            "Hello %(name)s,\n\nThe deadline of %(round)s, %(deadline)s, passed without your "
            "orders: your %(pickables)s raced with the default orders.\n%(Round)s: %(url)s\n"
        )
        % v,
        v,
    )


def missed_send(*, now: datetime) -> int:
    """Tell each player whose orders a round's deadline passed without what his team did
    instead (once per round: the round's claim)."""
    stages = Round.objects.select_related("season", "stage", "grand_prix").filter(
        Q(status=Round.Status.LOCKED)
        | Q(status=Round.Status.RESOLVING)
        | Q(status__in=DONE_STATUSES),
        orders_deadline__lte=now,
        orders_deadline__gt=now - MISSED_NEWS_FOR,
        missed_notified_at__isnull=True,
    )
    sent = 0
    for stage in stages.order_by("orders_deadline", "pk"):
        if not _claim(stage, "missed_notified_at", now):
            continue
        game = adapter_for(stage.season.ruleset)
        telling = Telling(stage, Notification.Kind.MISSED, _params(stage))
        for player in _players(stage, without_orders=True):
            with translation.override(player.language):
                pickables = str(game.pickables_noun)
            telling.tell(
                player,
                path=_stage_path(stage),
                subject=_missed_subject,
                body=_missed_body,
                values={"pickables": pickables},
                in_app=player.choice.in_app,
                by_email=player.choice.by_email,
            )
        sent += telling.send()
    return sent


# --- results ------------------------------------------------------------------------------


def _results_subject(v: dict[str, Any]) -> str:
    return _("%(season)s: results of %(round)s") % v


def _results_body(v: dict[str, Any]) -> str:
    if v.get("rank") == 1:
        news = _("%(Round)s of %(season)s: your team %(team)s leads the players.") % v
    elif v.get("leader"):
        news = _("%(Round)s of %(season)s: %(leader)s (%(leader_player)s) leads the players.") % v
        if v.get("rank"):
            news += " " + _("Your team %(team)s is number %(rank)s.") % v
    else:
        news = _("%(Round)s of %(season)s: the results are out.") % v
    return _("Hello %(name)s,\n\n") % v + news + "\n" + _("The results: %(url)s\n") % v


def _ranking_news(stage: Round) -> tuple[dict[str, Any], dict[int, tuple[int, str]]]:
    """The players' ranking after the round: its leader (team, player) and each team's place."""
    lines = players_ranking(season=stage.season, number=stage.number)
    ranked = [line for line in lines if line.rank is not None]
    leader = {"leader": ranked[0].team, "leader_player": ranked[0].player} if ranked else {}
    places = {line.team_id: (line.rank, line.team) for line in ranked if line.rank is not None}
    return leader, places


def results_send(stages: Iterable[Round], *, now: datetime) -> int:
    sent = 0
    for stage in stages:
        if not _claim(stage, "results_notified_at", now):
            continue
        chat_hooks.results_out(round=stage, now=now)
        leader, places = _ranking_news(stage)
        telling = Telling(stage, Notification.Kind.RESULTS, _params(stage, **leader))
        for player in _players(stage):
            rank, team = places.get(player.team_id, (None, ""))
            values = leader | {"rank": rank, "team": team}
            telling.tell(
                player,
                path=_stage_path(stage),
                subject=_results_subject,
                body=_results_body,
                params={"rank": rank} if rank else {},
                values=values,
            )
        sent += telling.send()
    return sent


def notifications_send(*, now: datetime | None = None) -> int:
    """Send every notice that is due; return the number of emails sent."""
    now = now or timezone.now()
    stages = Round.objects.select_related("season", "stage", "grand_prix")
    sent = orders_open_send(
        stages.filter(status=Round.Status.OPEN, orders_opened_notified_at__isnull=True), now=now
    )
    sent += reminders_send(now=now)
    chat_hooks.reminders_enqueue(now=now)
    sent += missed_send(now=now)
    # Results are out once published, or once resolved where the season auto-publishes.
    results_out = Q(status=Round.Status.PUBLISHED) | Q(
        status=Round.Status.RESOLVED, season__auto_publish=True
    )
    sent += results_send(stages.filter(results_out, results_notified_at__isnull=True), now=now)
    return sent
