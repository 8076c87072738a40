"""When and where a member is reminded of the orders he has not given (issue 29): the hours
before each deadline (REMINDER_HOURS, default 24 h and 2 h; none: no reminders) and the ways
(e-mail, the app). The same choice carries the notice of a deadline passed without his orders.
season.notifications reads it with `reminder_choice_from`."""

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from accounts.models import (
    REMINDER_HOURS,
    REMINDER_HOURS_DEFAULT,
    Profile,
    reminder_hours,
    reminder_mask,
)


@dataclass(frozen=True)
class ReminderChoice:
    #: The hours before a deadline, the earliest (largest) first; empty: no reminders.
    hours: tuple[int, ...] = REMINDER_HOURS_DEFAULT
    by_email: bool = True
    in_app: bool = True


class ReminderChoiceInvalid(Exception):
    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = errors


def reminder_choice_from(
    mask: int | None, by_email: bool | None, in_app: bool | None
) -> ReminderChoice:
    """The choice from a profile's stored fields (None: a member without a profile yet, who
    has the defaults)."""
    if mask is None:
        return ReminderChoice()
    return ReminderChoice(reminder_hours(mask), bool(by_email), bool(in_app))


def _pk(user: object) -> int:
    return int(getattr(user, "pk", None) or 0)


def reminder_choice_of(user: object) -> ReminderChoice:
    row = (
        Profile.objects.filter(user_id=_pk(user))
        .values_list("reminder_leads", "reminders_by_email", "reminders_in_app")
        .first()
    )
    return reminder_choice_from(*row) if row else ReminderChoice()


def reminder_choice_update(
    *, user: object, hours: Iterable[int], by_email: bool, in_app: bool
) -> ReminderChoice:
    """Keep the member's choice; ReminderChoiceInvalid says why nothing changed."""
    chosen = sorted(set(hours), reverse=True)
    errors = []
    unknown = [h for h in chosen if h not in REMINDER_HOURS]
    if unknown:
        errors.append(
            _("Reminders can be sent %(choices)s hours before a deadline, not %(hours)s.")
            % {
                "choices": ", ".join(str(h) for h in REMINDER_HOURS),
                "hours": ", ".join(str(h) for h in unknown),
            }
        )
    if chosen and not (by_email or in_app):
        errors.append(_("Choose how to be reminded (e-mail, the app, or both), or no reminders."))
    if errors:
        raise ReminderChoiceInvalid(errors)
    Profile.objects.update_or_create(
        user_id=_pk(user),
        defaults={
            "reminder_leads": reminder_mask(chosen),
            "reminders_by_email": by_email,
            "reminders_in_app": in_app,
        },
    )
    return ReminderChoice(tuple(chosen), by_email, in_app)
