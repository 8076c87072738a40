"""Shift every deadline still to come by the same time (the organiser's "shift all deadlines"):
one transaction; a shift that would put a deadline in the past moves nothing and names the
stage."""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from season.leagues import EDITABLE_DEADLINE, CalendarInvalid, calendar_update
from season.models import Round, Season
from season.round_names import round_name_start


def deadlines_shift(
    *, season: Season, delta: timedelta, now: datetime | None = None
) -> list[Round]:
    """Move the deadline of every stage still scheduled or open by ``delta`` (earlier when
    negative); return the stages moved. CalendarInvalid lists why nothing moved."""
    now = now or timezone.now()
    if not delta:
        raise CalendarInvalid([_("Give a shift of at least one hour, earlier or later.")])
    with transaction.atomic():
        stages = list(
            Round.objects.select_for_update()
            .filter(season=season, status__in=EDITABLE_DEADLINE, orders_deadline__isnull=False)
            .order_by("number")
        )
        if not stages:
            raise CalendarInvalid([_("No deadline is still to come.")])
        errors = []
        shifted: dict[int, datetime] = {}
        for stage in stages:
            assert stage.orders_deadline is not None
            new = stage.orders_deadline + delta
            shifted[stage.number] = new
            if new <= now:
                errors.append(
                    _("%(round)s: the deadline would be %(when)s, in the past.")
                    % {
                        "round": round_name_start(season, stage.number),
                        "when": date_format(timezone.localtime(new, season.tz), "D j M Y H:i"),
                    }
                )
        if errors:
            raise CalendarInvalid(errors)
        # calendar_update drops the reminders whose moment is to come again (reminders_reset).
        calendar_update(season=season, deadlines=shifted, now=now)
        moved = list(Round.objects.filter(pk__in=[s.pk for s in stages]).order_by("number"))
    return moved
