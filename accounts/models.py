from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

#: The lead times a member may be reminded at, in hours before a deadline (accounts.reminders).
REMINDER_HOURS = (1, 2, 6, 12, 24, 48)
#: Reminded 24 h and 2 h before each deadline unless the member chose otherwise.
REMINDER_HOURS_DEFAULT = (24, 2)


def reminder_mask(hours: tuple[int, ...] | list[int]) -> int:
    """The lead times as stored: one bit per entry of REMINDER_HOURS (ValueError: not one)."""
    return sum(1 << REMINDER_HOURS.index(h) for h in set(hours))


def reminder_hours(mask: int) -> tuple[int, ...]:
    """The stored lead times, the earliest (largest) first."""
    return tuple(sorted((h for i, h in enumerate(REMINDER_HOURS) if mask & (1 << i)), reverse=True))


class Profile(models.Model):
    """What the site remembers of a person beyond the login: the language of their emails, when
    and where they are reminded of the orders they have not given (accounts.reminders)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("user"),
    )
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    #: The member chose ``language`` with the language switch: it is theirs on every browser
    #: (accounts.language); until then each sign-in takes the browser's.
    language_chosen = models.BooleanField(_("language chosen by the member"), default=False)
    #: The hours before a deadline the member is reminded at, one bit per REMINDER_HOURS (0: no
    #: reminders); read and written through reminder_hours / reminder_mask.
    reminder_leads = models.PositiveSmallIntegerField(
        _("reminders before a deadline"), default=reminder_mask(REMINDER_HOURS_DEFAULT)
    )
    reminders_by_email = models.BooleanField(_("reminders by e-mail"), default=True)
    reminders_in_app = models.BooleanField(_("reminders in the app"), default=True)

    class Meta:
        verbose_name_plural = _("profiles")
        verbose_name = _("profile")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(reminder_leads__gte=0)
                & models.Q(reminder_leads__lt=1 << len(REMINDER_HOURS)),
                name="profile_reminder_leads_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.language})"

    @property
    def reminder_hours(self) -> tuple[int, ...]:
        return reminder_hours(self.reminder_leads)


class CalendarToken(models.Model):
    """The private address of a member's calendar feed (season.services.calendar_feed): a
    selector that finds the row and a secret compared in constant time
    (accounts.calendar_tokens). Renewing it replaces both: the old address stops working."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="calendar_token",
        verbose_name=_("user"),
    )
    # The feed's lookup: CalendarToken.objects.get(selector=...) (unique, so indexed).
    selector = models.CharField(_("selector"), max_length=16, unique=True)
    secret = models.CharField(_("secret"), max_length=64)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("calendar address")
        verbose_name_plural = _("calendar addresses")

    def __str__(self) -> str:
        return str(self.user)


class ApiToken(models.Model):
    """A member's key to the read API (season/api): one a member, renewed or revoked by him on
    /accounts/api/. Only the key's SHA-256 digest is kept (accounts.api_tokens): the key is
    shown once, when made, and a stolen database gives no working key."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_token",
        verbose_name=_("user"),
    )
    # The index of every API request's lookup: filter(digest=sha256(key)).
    digest = models.CharField(_("digest"), max_length=64, unique=True)
    #: The key's first characters, for the member to tell which key he holds.
    prefix = models.CharField(_("prefix"), max_length=8)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.user} ({self.prefix}…)"
