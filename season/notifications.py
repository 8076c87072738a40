"""Emails to players, and the same notices in the app (season.services.notices shows them):
orders open (with the round's commitment, issue 19), a reminder 24 h before the deadline,
results published (or resolved, in a season that auto-publishes). The links are built from
SITE_URL and lead to the player's orders form (the results: to the stage page).

`notifications_send` runs every few minutes (Celery beat). Each notice is claimed with a
conditional update on its timestamp before anything is sent, so two runs never send it twice.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import send_mass_mail
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from plugins import adapter_for
from season.models import Notification, Orders, Round, SeasonTeam
from season.round_names import round_name
from season.services.commitment import round_seed_commit

REMINDER_BEFORE = timedelta(hours=24)


def _site_url(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


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


def _players(round: Round, *, without_orders: bool = False) -> list[Player]:
    """The players to tell (those without an e-mail address are told in the app only)."""
    teams = SeasonTeam.objects.filter(season_id=round.season_id, owner__isnull=False)
    if without_orders:
        given = Orders.objects.filter(round=round).values("team_id")
        teams = teams.exclude(pk__in=given)
    rows = teams.order_by("pk").values_list(
        "owner_id", "pk", "owner__username", "owner__email", "owner__profile__language"
    )
    return [
        Player(user_id, team_id, name, email, language or settings.LANGUAGE_CODE)
        for user_id, team_id, name, email, language in rows
    ]


def _notify(
    stages: Iterable[Round],
    *,
    field: str,
    now: datetime,
    kind: str,
    subject: Callable[[], str],
    body: Callable[[], str],
    without_orders: bool = False,
) -> int:
    """Tell each stage's players, claiming the stage's `field` first: one notice in the app
    each (season.services.notices shows them) and one e-mail each, in their language.
    `subject` and `body` give the e-mail's texts in the active language. The orders' notices
    link to the player's orders form, the results' to the stage page."""
    sent = 0
    for stage in stages:
        if not _claim(stage, field, now):
            continue
        deadline = timezone.localtime(stage.orders_deadline) if stage.orders_deadline else None
        # The dice are committed before orders are taken (issue 19): the notice says so.
        commitment = round_seed_commit(round=stage) if kind == Notification.Kind.ORDERS_OPEN else ""
        slug = stage.season.slug
        stage_path = reverse("season-stage", args=[slug, stage.number])
        game = adapter_for(stage.season.ruleset)
        values = {
            "season": stage.season.name,
            "number": stage.number,
            "event": game.event_label(stage.event),
            "commitment": commitment,
        }
        params = {
            "season": stage.season.name,
            "number": stage.number,
            "deadline": stage.orders_deadline.isoformat() if stage.orders_deadline else "",
            "time_zone": stage.season.time_zone,
            "commitment": commitment,
        }
        notices = []
        messages = []
        for player in _players(stage, without_orders=without_orders):
            path = (
                stage_path
                if kind == Notification.Kind.RESULTS
                else reverse("player-orders", args=[slug, player.team_id])
            )
            notices.append(
                Notification(
                    user_id=player.user_id,
                    season_id=stage.season_id,
                    round=stage,
                    kind=kind,
                    params=params,
                    url=path,
                )
            )
            if not player.email:
                continue
            with translation.override(player.language):
                values["deadline"] = date_format(deadline, "j F Y, H:i") if deadline else ""
                # "stage 3", "round 3": the game's name of a round, in the player's language.
                values["round"] = round_name(stage.season, stage.number)
                values["url"] = _site_url(path)
                text = body() % values
                messages.append(
                    (
                        subject() % values,
                        text.replace("{name}", player.name),
                        settings.DEFAULT_FROM_EMAIL,
                        [player.email],
                    )
                )
        # The claim above makes this once per round and kind; the constraint backstops it.
        Notification.objects.bulk_create(notices, ignore_conflicts=True)
        sent += send_mass_mail(messages)
    return sent


def notifications_send(*, now: datetime | None = None) -> int:
    """Send every notice that is due; return the number of emails sent."""
    now = now or timezone.now()
    stages = Round.objects.select_related("season", "stage", "grand_prix")
    sent = _notify(
        stages.filter(status=Round.Status.OPEN, orders_opened_notified_at__isnull=True),
        field="orders_opened_notified_at",
        now=now,
        kind=Notification.Kind.ORDERS_OPEN,
        subject=lambda: _("%(season)s: orders open for %(round)s"),
        body=lambda: _(
            "Hello {name},\n\nOrders for %(round)s (%(event)s) are open until %(deadline)s.\n"
            "The dice of %(round)s are committed: %(commitment)s\nYour orders: %(url)s\n"
        ),
    )
    sent += _notify(
        stages.filter(
            Q(status=Round.Status.OPEN),
            Q(reminder_sent_at__isnull=True),
            Q(orders_deadline__gt=now),
            Q(orders_deadline__lte=now + REMINDER_BEFORE),
        ),
        field="reminder_sent_at",
        now=now,
        kind=Notification.Kind.REMINDER,
        subject=lambda: _("%(season)s: your orders for %(round)s are missing"),
        body=lambda: _(
            "Hello {name},\n\nYou have not given orders for %(round)s yet. The deadline is "
            "in less than 24 hours (%(deadline)s).\nYour orders: %(url)s\n"
        ),
        without_orders=True,
    )
    # Results are out once published, or once resolved where the season auto-publishes.
    results_out = Q(status=Round.Status.PUBLISHED) | Q(
        status=Round.Status.RESOLVED, season__auto_publish=True
    )
    sent += _notify(
        stages.filter(results_out, results_notified_at__isnull=True),
        field="results_notified_at",
        now=now,
        kind=Notification.Kind.RESULTS,
        subject=lambda: _("%(season)s: results of %(round)s"),
        body=lambda: _("Hello {name},\n\nThe results of %(round)s are published.\n%(url)s\n"),
    )
    return sent
