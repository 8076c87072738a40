from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from races.course_validation import course_errors
from riders.models import RATING_AXES, RATING_MESSAGE, Rider, Team


class RaceKind(models.TextChoices):
    REAL = "real", _("real race")
    LEAGUE = "league", _("league race")


class Race(models.Model):
    """One edition of a stage race: a real one (results imported) or a league's own copy."""

    Kind = RaceKind

    name = models.CharField(_("name"), max_length=120)
    year = models.PositiveSmallIntegerField(_("year"))
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    kind = models.CharField(_("kind"), max_length=6, choices=Kind.choices, default=Kind.REAL)
    template = models.ForeignKey(
        "self",
        verbose_name=_("copied from"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="copies",
    )
    #: A league copy forked after stage N of its real race: stages 1..N are given (the real
    #: results and the real classifications after N, copied), the league races N+1..
    #: (docs/league.md "A real race forked at a stage"). 0: from the start.
    start_after = models.PositiveSmallIntegerField(
        _("starts after stage"),
        default=0,
        help_text=_("The league races the stages after this one; 0: from the start."),
    )

    class Meta:
        verbose_name = _("race")
        verbose_name_plural = _("races")
        ordering = ["-year", "name"]
        constraints = [
            # Only a league's copy is forked; the real race is the one it starts from.
            models.CheckConstraint(
                condition=models.Q(start_after=0) | models.Q(kind="league"),
                name="race_start_after_league_only",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind})" if self.kind == self.Kind.LEAGUE else self.name


class StageType(models.TextChoices):
    FLAT = "flat", _("flat")
    HILLY = "hilly", _("hilly")
    MOUNTAIN = "mountain", _("mountain")
    ITT = "ITT", _("individual time trial")
    TTT = "TTT", _("team time trial")


class Stage(models.Model):
    StageType = StageType

    race = models.ForeignKey(
        Race, verbose_name=_("race"), on_delete=models.CASCADE, related_name="stages"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    date = models.DateField(_("date"), null=True, blank=True)
    start = models.CharField(_("start"), max_length=120, blank=True)
    finish = models.CharField(_("finish"), max_length=120, blank=True)
    distance_km = models.DecimalField(_("distance (km)"), max_digits=6, decimal_places=1)
    stage_type = models.CharField(_("type"), max_length=8, choices=StageType.choices)
    segments = models.JSONField(
        _("course"),
        default=list,
        blank=True,
        help_text=_(
            "Ordered segments: {terrain, km, name}; terrain plain, hill, col3, col2, "
            "col1, colhc or descent."
        ),
    )
    intermediate_sprints_km = models.JSONField(
        _("intermediate sprints (km)"), default=list, blank=True
    )
    profile_icon = models.CharField(
        _("profile icon"),
        max_length=2,
        blank=True,
        help_text=_("ProCyclingStats p1 (flat) to p5 (mountain-top finish), when imported."),
    )
    profile_score = models.PositiveSmallIntegerField(
        _("profile score"),
        null=True,
        blank=True,
        help_text=_("ProCyclingStats' profile score (how hard the stage is), when imported."),
    )
    vertical_meters = models.PositiveIntegerField(
        _("vertical metres"), null=True, blank=True, help_text=_("Total climbing, when imported.")
    )
    course_generated = models.BooleanField(
        _("generated course"),
        default=False,
        help_text=_(
            "The course was built from the stage's type, distance and profile "
            "(docs/import.md); cleared once an admin edits it."
        ),
    )

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["race", "number"]
        constraints = [
            models.UniqueConstraint(fields=["race", "number"], name="stage_unique_number_per_race"),
            models.CheckConstraint(
                condition=models.Q(distance_km__gt=0), name="stage_distance_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(stage_type__in=[c.value for c in StageType]),
                name="stage_type_valid",
            ),
        ]

    def __str__(self) -> str:
        return _("%(race)s – stage %(number)s") % {"race": self.race, "number": self.number}

    def clean(self) -> None:
        if self.segments:
            errors = course_errors(self.segments, self.distance_km)
            if errors:
                raise ValidationError({"segments": errors})


class ResultStatus(models.TextChoices):
    FINISHED = "finished", _("finished")
    ABANDONED = "abandoned", _("abandoned")
    CRASHED_OUT = "crashed_out", _("crashed out")
    OUTSIDE_TIME_LIMIT = "otl", _("outside time limit")
    DID_NOT_FINISH = "dnf", _("did not finish")
    DID_NOT_START = "dns", _("did not start")
    DISQUALIFIED = "dsq", _("disqualified")


class StageResult(models.Model):
    Status = ResultStatus

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="results", verbose_name=_("stage")
    )
    rider = models.ForeignKey(
        Rider, on_delete=models.PROTECT, related_name="stage_results", verbose_name=_("rider")
    )
    team = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("real team"),
    )
    entry_team_id = models.BigIntegerField(
        null=True,
        blank=True,
        help_text=_("The league team the rider rode for (league races)."),
        verbose_name=_("league team"),
    )
    rank = models.PositiveSmallIntegerField(_("rank"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.FINISHED
    )
    time_seconds = models.PositiveIntegerField(_("time (s)"), null=True, blank=True)
    gap_seconds = models.PositiveIntegerField(_("gap (s)"), null=True, blank=True)
    bonus_seconds = models.PositiveIntegerField(_("bonus (s)"), default=0)
    penalty_seconds = models.PositiveIntegerField(_("penalty (s)"), default=0)
    final_case = models.IntegerField(null=True, blank=True, verbose_name=_("final square"))
    squares_behind = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=_("squares behind")
    )
    final_group = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("final group"))
    crashes = models.JSONField(
        default=list,
        blank=True,
        help_text=_("[{turn, case, severity}] in this stage"),
        verbose_name=_("crashes"),
    )
    status_reason = models.CharField(max_length=120, blank=True, verbose_name=_("reason"))
    #: Kept in the race by the organiser after finishing outside the time limit
    #: (season.services.reinstate): the replay's timing keeps him too.
    reinstated = models.BooleanField(_("reinstated by the organiser"), default=False)
    state = models.JSONField(
        default=dict,
        blank=True,
        help_text=_("What the rider carries to the next stage, by ruleset (Cyclo Sim: energy)."),
        verbose_name=_("carried state"),
    )
    breakaway_km = models.PositiveSmallIntegerField(
        _("km in the breakaway"), null=True, blank=True, help_text=_("When the source tells.")
    )

    class Meta:
        verbose_name = _("stage result")
        verbose_name_plural = _("stage results")
        ordering = ["stage", "rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "rider"], name="result_one_per_rider_per_stage"
            ),
            models.UniqueConstraint(
                fields=["stage", "rank"],
                condition=models.Q(rank__isnull=False),
                name="result_unique_rank_per_stage",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=[c.value for c in ResultStatus]),
                name="result_status_valid",
            ),
            # A reinstated rider finished the stage: he is in the race.
            models.CheckConstraint(
                condition=models.Q(reinstated=False) | models.Q(status=ResultStatus.FINISHED),
                name="result_reinstated_finished",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stage}: {self.rank or self.status} {self.rider}"


class EventKind(models.TextChoices):
    CRASH = "crash", _("crash")
    ATTACK = "attack", _("attack")
    BREAKAWAY = "breakaway", _("breakaway")
    SUMMIT = "summit", _("summit")
    INTERMEDIATE_SPRINT = "intermediate_sprint", _("intermediate sprint")
    ABANDON = "abandon", _("abandon")
    ELIMINATED = "eliminated", _("eliminated")


class RaceEvent(models.Model):
    Kind = EventKind

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="events", verbose_name=_("stage")
    )
    seq = models.PositiveIntegerField(
        help_text=_("Order of the event within the stage."), verbose_name=_("order")
    )
    turn = models.PositiveIntegerField(verbose_name=_("turn"))
    kind = models.CharField(max_length=20, choices=Kind.choices, verbose_name=_("kind"))
    rider = models.ForeignKey(
        Rider,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="events",
        help_text=_("The first rider concerned."),
        verbose_name=_("rider"),
    )
    rider_ids = models.JSONField(default=list, blank=True, verbose_name=_("riders"))
    case = models.IntegerField(null=True, blank=True, verbose_name=_("square"))
    #: The rule id of the event (the ``rule`` of its data), for the admin's list and search.
    detail = models.CharField(max_length=200, blank=True, verbose_name=_("rule"))
    #: The event's typed data, the fields of its kind (engine.cycling.events): a summit's
    #: ``climb`` and ``terrain``, a sprint's ``km``, a crash's ``rule``...
    data = models.JSONField(default=dict, blank=True, verbose_name=_("details"))

    class Meta:
        verbose_name = _("race event")
        verbose_name_plural = _("race events")
        ordering = ["stage", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "seq"], name="event_unique_seq_per_stage"),
            models.CheckConstraint(
                condition=models.Q(kind__in=[c.value for c in EventKind]), name="event_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return _("%(stage)s turn %(turn)s: %(kind)s") % {
            "stage": self.stage,
            "turn": self.turn,
            "kind": self.kind,
        }


class Classification(models.TextChoices):
    GENERAL = "general", _("general")
    POINTS = "points", _("points")
    MOUNTAINS = "mountains", _("mountains")
    YOUTH = "youth", _("youth")
    TEAMS = "teams", _("teams")


class Standing(models.Model):
    """One line of a classification as it stood after a stage (a snapshot: history is kept).

    `value` is a time in seconds (general, youth, teams) or points (points, mountains).
    """

    Classification = Classification

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="standings", verbose_name=_("stage")
    )
    classification = models.CharField(
        max_length=10, choices=Classification.choices, verbose_name=_("classification")
    )
    # Empty for a rider a real source lists without a place (after a penalty): docs/import.md.
    rank = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("rank"))
    rider = models.ForeignKey(
        Rider,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="standings",
        verbose_name=_("rider"),
    )
    team = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("real team"),
    )
    entry_team_id = models.BigIntegerField(
        null=True,
        blank=True,
        help_text=_("The league team (league races)."),
        verbose_name=_("league team"),
    )
    value = models.BigIntegerField(verbose_name=_("value"))
    gap = models.BigIntegerField(default=0, verbose_name=_("gap"))

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        ordering = ["stage", "classification", "rank"]
        constraints = [
            # Also the index of the classification pages: filter(stage=, classification=)
            # ordered by rank.
            models.UniqueConstraint(
                fields=["stage", "classification", "rank"], name="standing_unique_rank"
            ),
            models.UniqueConstraint(
                fields=["stage", "classification", "rider"],
                condition=models.Q(rider__isnull=False),
                name="standing_one_line_per_rider",
            ),
            models.CheckConstraint(
                condition=models.Q(classification__in=[c.value for c in Classification]),
                name="standing_classification_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(gap__gte=0), name="standing_gap_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stage} {self.classification} #{self.rank or '-'}"


class RaceEntry(models.Model):
    """A rider on the start list of a race, with his team and bib (imported start lists)."""

    race = models.ForeignKey(
        Race, on_delete=models.CASCADE, related_name="entries", verbose_name=_("race")
    )
    rider = models.ForeignKey(
        Rider, on_delete=models.PROTECT, related_name="race_entries", verbose_name=_("rider")
    )
    team = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("team"),
    )
    bib = models.PositiveSmallIntegerField(_("bib"), null=True, blank=True)

    class Meta:
        verbose_name = _("start list entry")
        verbose_name_plural = _("start list")
        ordering = ["race", "bib"]
        constraints = [
            models.UniqueConstraint(fields=["race", "rider"], name="entry_one_per_rider_per_race"),
            models.UniqueConstraint(
                fields=["race", "bib"],
                condition=models.Q(bib__isnull=False),
                name="entry_unique_bib_per_race",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.race}: {self.bib or '-'} {self.rider}"


class LeagueRating(models.Model):
    """A rider's eight ratings and his price as a league copy races him: taken from his
    ratings when the season's team formation starts, so that an admin's later edit of the
    rider changes no running season unless applied to it (docs/league.md "A season keeps its
    ratings"). Every reader of a league's riders asks races.ratings, never the Rider."""

    race = models.ForeignKey(
        Race, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("race")
    )
    rider = models.ForeignKey(
        Rider, on_delete=models.PROTECT, related_name="league_ratings", verbose_name=_("rider")
    )
    rouleur = models.SmallIntegerField(_("rouleur"))
    sprinter = models.SmallIntegerField(_("sprinter"))
    baroudeur = models.SmallIntegerField(_("baroudeur"))
    finisseur = models.SmallIntegerField(_("finisseur"))
    descender = models.SmallIntegerField(_("descender"))
    time_trialist = models.SmallIntegerField(_("time trialist"))
    puncheur = models.SmallIntegerField(_("puncheur"))
    climber = models.SmallIntegerField(_("climber"))
    price = models.PositiveSmallIntegerField(_("price"))

    class Meta:
        verbose_name = _("rider's rating in a league")
        verbose_name_plural = _("riders' ratings in leagues")
        constraints = [
            # Also the index of the readers' query: LeagueRating.objects.filter(race=...).
            models.UniqueConstraint(fields=["race", "rider"], name="league_rating_one_per_rider"),
            *(
                models.CheckConstraint(
                    condition=models.Q(**{f"{axis}__gte": -1, f"{axis}__lte": 4}),
                    name=f"league_rating_{axis}_in_range",
                    violation_error_message=f"{axis}: {RATING_MESSAGE}",
                )
                for axis in RATING_AXES
            ),
        ]

    def __str__(self) -> str:
        return f"{self.race}: {self.rider}"

    @property
    def ratings(self) -> dict[str, int]:
        return {axis: getattr(self, axis) for axis in RATING_AXES}
