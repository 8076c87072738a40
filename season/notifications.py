"""Emails to players: orders open, a reminder 24 h before the deadline, results published
(or resolved, in a season that auto-publishes).

`notifications_send` runs every few minutes (Celery beat). Each notice is claimed with a
conditional update on its timestamp before anything is sent, so two runs never send it twice.
"""

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import send_mass_mail
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from season.models import Orders, Round, SeasonTeam

REMINDER_BEFORE = timedelta(hours=24)


def _site_url(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _claim(round: Round, field: str, now: datetime) -> bool:
    return bool(
        Round.objects.filter(pk=round.pk, **{f"{field}__isnull": True}).update(**{field: now})
    )


def _players(round: Round, *, without_orders: bool = False) -> list[tuple[str, str, str]]:
    """(name, email, language) of the players to tell."""
    teams = SeasonTeam.objects.filter(season_id=round.season_id, owner__isnull=False)
    if without_orders:
        given = Orders.objects.filter(round=round).values("team_id")
        teams = teams.exclude(pk__in=given)
    rows = teams.values_list("owner__username", "owner__email", "owner__profile__language")
    return [
        (name, email, language or settings.LANGUAGE_CODE) for name, email, language in rows if email
    ]


def _notify(
    stages: Iterable[Round],
    *,
    field: str,
    now: datetime,
    subject: Callable[[], str],
    body: Callable[[], str],
    without_orders: bool = False,
) -> int:
    """Send one notice per stage to its players, each in their language, claiming the stage's
    `field` first. `subject` and `body` give the texts in the active language."""
    sent = 0
    for stage in stages:
        if not _claim(stage, field, now):
            continue
        deadline = timezone.localtime(stage.orders_deadline) if stage.orders_deadline else None
        values = {
            "season": stage.season.name,
            "number": stage.number,
            # A Grand Prix round has no stage.
            "start": stage.stage.start if stage.stage else "",
            "finish": stage.stage.finish if stage.stage else "",
            "url": _site_url(reverse("season-stage", args=[stage.season.slug, stage.number])),
        }
        messages = []
        for name, email, language in _players(stage, without_orders=without_orders):
            with translation.override(language):
                values["deadline"] = date_format(deadline, "j F Y, H:i") if deadline else ""
                text = body() % values
                messages.append(
                    (
                        subject() % values,
                        text.replace("{name}", name),
                        settings.DEFAULT_FROM_EMAIL,
                        [email],
                    )
                )
        sent += send_mass_mail(messages)
    return sent


def notifications_send(*, now: datetime | None = None) -> int:
    """Send every notice that is due; return the number of emails sent."""
    now = now or timezone.now()
    stages = Round.objects.select_related("season", "stage")
    sent = _notify(
        stages.filter(status=Round.Status.OPEN, orders_opened_notified_at__isnull=True),
        field="orders_opened_notified_at",
        now=now,
        subject=lambda: _("%(season)s: orders open for stage %(number)s"),
        body=lambda: _(
            "Hello {name},\n\nOrders for stage %(number)s (%(start)s – %(finish)s) are open "
            "until %(deadline)s.\n%(url)s\n"
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
        subject=lambda: _("%(season)s: your orders for stage %(number)s are missing"),
        body=lambda: _(
            "Hello {name},\n\nYou have not given orders for stage %(number)s yet. The "
            "deadline is in less than 24 hours (%(deadline)s).\n%(url)s\n"
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
        subject=lambda: _("%(season)s: results of stage %(number)s"),
        body=lambda: _(
            "Hello {name},\n\nThe results of stage %(number)s are published.\n%(url)s\n"
        ),
    )
    return sent
