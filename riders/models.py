from typing import TYPE_CHECKING

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from riders.names import name_key, team_key

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

RATING_AXES = (
    "rouleur",
    "sprinter",
    "baroudeur",
    "finisseur",
    "descender",
    "time_trialist",
    "puncheur",
    "climber",
)


class Rating(models.IntegerChoices):
    """A rating on one axis of the profile (rules/moreno.md §2.1): H < 0 < 1 < 2 < 3 < 4."""

    H = -1, "H"
    ZERO = 0, "0"
    ONE = 1, "1"
    TWO = 2, "2"
    THREE = 3, "3"
    FOUR = 4, "4"

    @classmethod
    def parse(cls, text: str) -> "Rating":
        """'H', 'h', '0'..'4' -> Rating; anything else is a ValueError naming the valid ones."""
        cleaned = str(text).strip().upper()
        if cleaned == "H":
            return cls.H
        if cleaned in {"0", "1", "2", "3", "4"}:
            return cls(int(cleaned))
        raise ValueError(f"{text!r} is not a rating (H, 0, 1, 2, 3 or 4)")


RATING_MESSAGE = _("Ratings go from H (handicap) to 4 (mythical).")
#: What each rating means (rules/moreno.md §1 and §2.1: H < 0 < 1 < 2 < 3 < 4), the legend
#: of every page that shows ratings (templates/_ratings_legend.html).
RATING_WORDS = {
    Rating.H: _("handicap"),
    Rating.ZERO: _("normal"),
    Rating.ONE: _("strong"),
    Rating.TWO: _("very strong"),
    Rating.THREE: _("champion"),
    Rating.FOUR: _("mythical"),
}
RATING_INVALID_CHOICE = _(
    "%(value)r is not a rating: ratings go from H (handicap) to 4 (mythical)."
)


def rating_field(verbose_name: "StrOrPromise") -> models.SmallIntegerField:
    return models.SmallIntegerField(
        verbose_name,
        choices=Rating.choices,
        default=Rating.ZERO,
        error_messages={"invalid_choice": RATING_INVALID_CHOICE},
        validators=[
            MinValueValidator(Rating.H, message=RATING_MESSAGE),
            MaxValueValidator(Rating.FOUR, message=RATING_MESSAGE),
        ],
    )


class Team(models.Model):
    """A real team in a given year (its riders are the ones of its start list)."""

    name = models.CharField(_("name"), max_length=120)
    code = models.CharField(_("code"), max_length=3, blank=True, help_text=_("UCI code, e.g. TJV"))
    nationality = models.CharField(_("nationality"), max_length=3, blank=True)
    year = models.PositiveSmallIntegerField(_("year"))
    aliases = models.JSONField(
        _("aliases"), default=list, blank=True, help_text=_("Other spellings of the name.")
    )
    name_key = models.CharField(max_length=120, editable=False, verbose_name=_("name key"))

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["-year", "name"]
        constraints = [
            models.UniqueConstraint(fields=["name", "year"], name="team_unique_name_per_year"),
        ]
        indexes = [
            # Matching an imported team name: Team.objects.filter(name_key=..., year=...).
            models.Index(fields=["name_key", "year"], name="team_name_key_year"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.year})"

    def save(self, *args: object, **kwargs: object) -> None:
        self.name_key = team_key(self.name)
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def all_keys(self) -> set[str]:
        return {team_key(self.name), *(team_key(alias) for alias in self.aliases)}


class Rider(models.Model):
    """A real rider and his 8-axis profile (rules/moreno.md §2.2)."""

    name = models.CharField(
        _("name"), max_length=120, help_text=_('As displayed: "Jonas Vingegaard"')
    )
    name_key = models.CharField(max_length=120, editable=False, verbose_name=_("name key"))
    birth_date = models.DateField(_("birth date"), null=True, blank=True)
    nationality = models.CharField(_("nationality"), max_length=3, blank=True)
    team = models.ForeignKey(
        Team,
        verbose_name=_("team"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="riders",
    )
    pcs_slug = models.CharField(
        _("ProCyclingStats id"),
        max_length=120,
        null=True,
        blank=True,
        help_text=_('e.g. "jonas-vingegaard"'),
    )
    rouleur = rating_field(_("rouleur"))
    sprinter = rating_field(_("sprinter"))
    baroudeur = rating_field(_("baroudeur"))
    finisseur = rating_field(_("finisseur"))
    descender = rating_field(_("descender"))
    time_trialist = rating_field(_("time trialist"))
    puncheur = rating_field(_("puncheur"))
    climber = rating_field(_("climber"))
    profile_flagged = models.BooleanField(
        _("profile needs review"),
        default=False,
        help_text=_("Set when too little data was found to derive the profile."),
    )
    aliases = models.JSONField(
        _("aliases"),
        default=list,
        blank=True,
        help_text=_("Other spellings of the name, as confirmed from imported files."),
    )
    suggested_ratings = models.JSONField(
        _("suggested ratings"),
        default=dict,
        blank=True,
        help_text=_("Derived from real results ({axis: -1..4}); applied only when approved."),
    )
    suggestion_reasons = models.JSONField(
        _("reasons of the suggestion"), default=dict, blank=True, help_text=_("{axis: why}")
    )
    suggested_at = models.DateTimeField(_("suggested at"), null=True, blank=True)
    ratings_reviewed_at = models.DateTimeField(
        _("ratings reviewed at"),
        null=True,
        blank=True,
        help_text=_(
            "When an admin last approved this rider's ratings; cleared when an import suggests "
            "other ratings (docs/profiles.md)."
        ),
    )

    class Meta:
        verbose_name = _("rider")
        verbose_name_plural = _("riders")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["pcs_slug"],
                condition=models.Q(pcs_slug__isnull=False),
                name="rider_unique_pcs_slug",
            ),
            *(
                models.CheckConstraint(
                    condition=models.Q(**{f"{axis}__gte": -1, f"{axis}__lte": 4}),
                    name=f"rider_{axis}_rating_in_range",
                    violation_error_message=f"{axis}: {RATING_MESSAGE}",
                )
                for axis in RATING_AXES
            ),
        ]
        indexes = [
            # Matching an imported name: Rider.objects.filter(name_key=...).
            models.Index(fields=["name_key"], name="rider_name_key"),
            # The review queue and a race's "not reviewed" count:
            # filter(ratings_reviewed_at__isnull=True).
            models.Index(
                fields=["id"],
                condition=models.Q(ratings_reviewed_at__isnull=True),
                name="rider_not_reviewed",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: object, **kwargs: object) -> None:
        self.name_key = name_key(self.name)
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def get_absolute_url(self) -> str:
        return reverse("admin:riders_rider_change", args=[self.pk])

    @property
    def ratings(self) -> dict[str, int]:
        return {axis: getattr(self, axis) for axis in RATING_AXES}

    @property
    def unrated(self) -> bool:
        """Never rated: every axis 0 and never reviewed (rider_unrated_q)."""
        return self.ratings_reviewed_at is None and not any(self.ratings.values())

    def all_keys(self) -> set[str]:
        return {name_key(self.name), *(name_key(alias) for alias in self.aliases)}


class RatingReview(Rider):
    """The admin's review queue (Riders > Ratings to review): riders whose ratings no admin
    has approved since the last differing suggestion."""

    class Meta:
        proxy = True
        verbose_name = _("rating to review")
        verbose_name_plural = _("ratings to review")


def rider_not_reviewed_q(prefix: str = "") -> models.Q:
    """Riders whose ratings no admin has approved since the last differing suggestion."""
    return models.Q(**{f"{prefix}ratings_reviewed_at__isnull": True})


def rider_unrated_q(prefix: str = "") -> models.Q:
    """Riders never rated: every axis 0 and never reviewed."""
    return rider_not_reviewed_q(prefix) & models.Q(**{f"{prefix}{axis}": 0 for axis in RATING_AXES})


class MatchStatus(models.TextChoices):
    PENDING = "pending", _("to confirm")
    CONFIRMED = "confirmed", _("confirmed: same")
    REJECTED = "rejected", _("rejected: different")


class DoubtfulMatch(models.Model):
    """A name from an imported file that may be an existing record under another spelling.

    The import never merges such names silently: it creates the new record and lists the pair
    here; an admin confirms (the new record is merged into the existing one) or rejects it.
    """

    Status = MatchStatus

    imported_name = models.CharField(_("imported name"), max_length=120)
    source = models.CharField(_("source"), max_length=200, help_text=_("file and line"))
    reason = models.CharField(_("reason"), max_length=200)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("listed at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.imported_name} ({self.get_status_display()})"


class RiderMatch(DoubtfulMatch):
    rider = models.ForeignKey(
        Rider,
        verbose_name=_("new rider"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="doubtful_matches",
        help_text=_("Created by the import; merged away when the match is confirmed."),
    )
    candidate = models.ForeignKey(
        Rider, verbose_name=_("may be"), on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        verbose_name = _("doubtful rider match")
        verbose_name_plural = _("doubtful rider matches")
        ordering = ["status", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["rider", "candidate"],
                condition=models.Q(rider__isnull=False),
                name="ridermatch_unique_pair",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=[c.value for c in MatchStatus]),
                name="ridermatch_status_valid",
            ),
        ]
        indexes = [
            # The admin's list of matches to confirm: filter(status="pending").
            models.Index(fields=["status"], name="ridermatch_status"),
        ]


class TeamMatch(DoubtfulMatch):
    team = models.ForeignKey(
        Team,
        verbose_name=_("new team"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="doubtful_matches",
        help_text=_("Created by the import; merged away when the match is confirmed."),
    )
    candidate = models.ForeignKey(
        Team, verbose_name=_("may be"), on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        verbose_name = _("doubtful team match")
        verbose_name_plural = _("doubtful team matches")
        ordering = ["status", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "candidate"],
                condition=models.Q(team__isnull=False),
                name="teammatch_unique_pair",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=[c.value for c in MatchStatus]),
                name="teammatch_status_valid",
            ),
        ]
