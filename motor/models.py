"""Motor racing data: who races (drivers, constructors), where (tracks), what (championships,
Grands Prix, entries), how it went (results) and the standings after each round."""

from decimal import Decimal

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from motor.championship import Scoring


class Driver(models.Model):
    """A real (or league) driver; ``slug`` is the external id of the data (``nelson-piquet``)."""

    slug = models.SlugField(_("external id"), max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=120)
    first_name = models.CharField(_("first name"), max_length=60, blank=True)
    last_name = models.CharField(_("last name"), max_length=60, blank=True)
    abbreviation = models.CharField(_("abbreviation"), max_length=3, blank=True)
    birth_date = models.DateField(_("birth date"), null=True, blank=True)
    nationality = models.CharField(_("nationality"), max_length=60, blank=True)

    class Meta:
        ordering = ["last_name", "name"]
        verbose_name = _("driver")
        verbose_name_plural = _("drivers")

    def __str__(self) -> str:
        return self.name


class Constructor(models.Model):
    """A real (or league) constructor; ``slug`` is the external id (``williams``)."""

    slug = models.SlugField(_("external id"), max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=120)
    full_name = models.CharField(_("full name"), max_length=200, blank=True)
    country = models.CharField(_("country"), max_length=60, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("constructor")
        verbose_name_plural = _("constructors")

    def __str__(self) -> str:
        return self.name


class Track(models.Model):
    """One version of a validated track file (the engine's loader checked it); a new upload
    of another content is a new version, so a resolved round keeps the track it raced on."""

    slug = models.SlugField(_("track"), max_length=80)
    version = models.PositiveIntegerField(_("version"), default=1)
    game = models.CharField(_("game"), max_length=40)
    name = models.CharField(_("name"), max_length=120)
    file_name = models.CharField(_("file name"), max_length=200)
    content = models.JSONField(_("content"))
    content_hash = models.CharField(_("content hash"), max_length=80)
    summary = models.CharField(_("summary"), max_length=300, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["slug", "-version"]
        verbose_name = _("track")
        verbose_name_plural = _("tracks")
        constraints = [
            models.UniqueConstraint(fields=["slug", "version"], name="track_unique_version"),
            models.UniqueConstraint(fields=["slug", "content_hash"], name="track_unique_content"),
            models.CheckConstraint(
                condition=models.Q(version__gte=1), name="track_version_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (v{self.version})"


class SharedDrives(models.TextChoices):
    SPLIT = "split", _("points split between the drivers")
    NONE = "none", _("no points")


class PointsSystem(models.Model):
    """A points system as data (issue 15 item 2); ``table`` is the points of places 1, 2, ..."""

    slug = models.SlugField(_("name"), max_length=40, unique=True)
    name = models.CharField(_("description"), max_length=200)
    table = models.JSONField(_("points table"))
    pole_points = models.DecimalField(
        _("pole points"), max_digits=5, decimal_places=2, default=Decimal(0)
    )
    fastest_lap_points = models.DecimalField(
        _("fastest-lap points"), max_digits=5, decimal_places=2, default=Decimal(0)
    )
    fastest_lap_top = models.PositiveIntegerField(
        _("fastest lap scores within the top"), null=True, blank=True
    )
    best_results = models.PositiveIntegerField(
        _("drivers' best results counted"), null=True, blank=True
    )
    constructors_best_results = models.PositiveIntegerField(
        _("constructors' best results counted"), null=True, blank=True
    )
    latest_result_tiebreak = models.BooleanField(
        _("latest result breaks a countback tie"),
        default=True,
        help_text=_("Off: equal points and countback share the position, as real F1 tables do."),
    )
    shared_drives = models.CharField(
        _("shared drives"), max_length=8, choices=SharedDrives.choices, default=SharedDrives.NONE
    )

    class Meta:
        ordering = ["slug"]
        verbose_name = _("points system")
        verbose_name_plural = _("points systems")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(shared_drives__in=[c.value for c in SharedDrives]),
                name="points_system_shared_drives_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(pole_points__gte=0) & models.Q(fastest_lap_points__gte=0),
                name="points_system_bonus_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def title(self) -> str:
        """The system's short name, what the pages call it: its description up to the colon,
        without a note in brackets ("Formula 1, 1950s", "Grand Prix")."""
        title = gettext(self.name).split(":", 1)[0].strip()
        if title.endswith(")") and " (" in title:
            title = title[: title.rindex(" (")].strip()
        return title or self.slug

    @property
    def details(self) -> str:
        """What the description says after the name ("9-6-4-3-2-1, drivers' best 11 results")."""
        name = gettext(self.name)  # a preset's name is in the catalogue (motor.points_presets)
        return name.split(":", 1)[1].strip() if ":" in name else ""

    def scoring(self) -> Scoring:
        return Scoring(
            table=tuple(Decimal(str(points)) for points in self.table),
            pole=self.pole_points,
            fastest_lap=self.fastest_lap_points,
            fastest_lap_top=self.fastest_lap_top,
            best_results=self.best_results,
            constructors_best_results=self.constructors_best_results,
            split_shared_drives=self.shared_drives == SharedDrives.SPLIT,
            latest_result_tiebreak=self.latest_result_tiebreak,
        )


class ChampionshipKind(models.TextChoices):
    REAL = "real", _("real (imported results)")
    LEAGUE = "league", _("a league's own copy")


class Championship(models.Model):
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=120)
    year = models.PositiveIntegerField(_("year"))
    kind = models.CharField(
        _("kind"), max_length=8, choices=ChampionshipKind.choices, default=ChampionshipKind.REAL
    )
    points_system = models.ForeignKey(
        PointsSystem, on_delete=models.PROTECT, related_name="+", verbose_name=_("points system")
    )
    copied_from = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="copies",
        verbose_name=_("copied from"),
    )

    class Meta:
        ordering = ["-year", "name"]
        verbose_name = _("championship")
        verbose_name_plural = _("championships")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=[c.value for c in ChampionshipKind]),
                name="championship_kind_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class GrandPrix(models.Model):
    championship = models.ForeignKey(
        Championship,
        on_delete=models.CASCADE,
        related_name="grands_prix",
        verbose_name=_("championship"),
    )
    round = models.PositiveIntegerField(_("round"))
    name = models.CharField(_("name"), max_length=120)
    official_name = models.CharField(_("official name"), max_length=200, blank=True)
    date = models.DateField(_("date"), null=True, blank=True)
    circuit = models.CharField(_("circuit"), max_length=120)
    circuit_slug = models.SlugField(_("circuit id"), max_length=80, blank=True)
    country = models.CharField(_("country"), max_length=60, blank=True)
    track = models.ForeignKey(
        Track, on_delete=models.PROTECT, null=True, blank=True, verbose_name=_("track")
    )
    laps = models.PositiveIntegerField(_("laps"))
    lap_km = models.DecimalField(
        _("lap length (km)"), max_digits=6, decimal_places=3, null=True, blank=True
    )
    # A league's Grand Prix raced by a motor ruleset: the outcome's position trace as the
    # engine gives it (cars by their car number as text), for the replay page; None for a
    # real Grand Prix or one not raced yet.
    trace = models.JSONField(_("position trace"), null=True, blank=True)

    class Meta:
        ordering = ["championship", "round"]
        verbose_name = _("Grand Prix")
        verbose_name_plural = _("Grands Prix")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "round"], name="grand_prix_unique_round"
            ),
            models.CheckConstraint(
                condition=models.Q(round__gte=1) & models.Q(laps__gte=1),
                name="grand_prix_round_and_laps_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.championship} R{self.round} {self.name}"


class Entry(models.Model):
    """A driver in a constructor's car with an engine, for a championship."""

    championship = models.ForeignKey(
        Championship,
        on_delete=models.CASCADE,
        related_name="entries",
        verbose_name=_("championship"),
    )
    driver = models.ForeignKey(
        Driver, on_delete=models.PROTECT, related_name="entries", verbose_name=_("driver")
    )
    constructor = models.ForeignKey(
        Constructor, on_delete=models.PROTECT, related_name="entries", verbose_name=_("constructor")
    )
    engine = models.CharField(_("engine"), max_length=60, blank=True)
    number = models.PositiveIntegerField(_("car number"), null=True, blank=True)

    class Meta:
        ordering = ["championship", "constructor", "number"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "driver", "constructor", "engine"],
                name="entry_unique_driver_car",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.driver} ({self.constructor})"


class ResultStatus(models.TextChoices):
    FINISHED = "finished", _("classified")
    DNF = "DNF", _("retired")
    NC = "NC", _("not classified")
    DSQ = "DSQ", _("disqualified")
    DNS = "DNS", _("did not start")
    DNQ = "DNQ", _("did not qualify")
    DNPQ = "DNPQ", _("did not pre-qualify")
    DNP = "DNP", _("did not practise")


class Result(models.Model):
    """One car in one Grand Prix. ``position`` is the classified place; a retired car may be
    classified (position with a reason), a car not classified has a status and no position."""

    grand_prix = models.ForeignKey(
        GrandPrix, on_delete=models.CASCADE, related_name="results", verbose_name=_("Grand Prix")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="results", verbose_name=_("entry")
    )
    number = models.PositiveIntegerField(_("car number"), null=True, blank=True)
    grid = models.PositiveIntegerField(_("grid"), null=True, blank=True)
    position = models.PositiveIntegerField(_("position"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=8, choices=ResultStatus.choices)
    reason = models.CharField(_("reason"), max_length=80, blank=True)
    retired_lap = models.PositiveIntegerField(_("lap of retirement"), null=True, blank=True)
    laps = models.PositiveIntegerField(_("laps"), null=True, blank=True)
    time_ms = models.PositiveBigIntegerField(_("time (ms)"), null=True, blank=True)
    gap = models.CharField(_("gap"), max_length=20, blank=True)
    pit_stops = models.PositiveIntegerField(_("pit stops"), null=True, blank=True)
    track_exits = models.PositiveIntegerField(_("track exits"), null=True, blank=True)
    fastest_lap = models.BooleanField(_("fastest lap"), default=False)
    points = models.DecimalField(_("points"), max_digits=6, decimal_places=2, default=Decimal(0))

    class Meta:
        ordering = ["grand_prix", "position", "grid"]
        verbose_name = _("result")
        verbose_name_plural = _("results")
        constraints = [
            models.UniqueConstraint(
                fields=["grand_prix", "entry"], name="motor_result_one_per_entry"
            ),
            models.UniqueConstraint(
                fields=["grand_prix", "position"],
                condition=models.Q(position__isnull=False),
                name="motor_result_unique_position",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=[c.value for c in ResultStatus]),
                name="motor_result_status_valid",
            ),
            models.CheckConstraint(
                # A classified place for a finisher and for a retired car that covered enough
                # laps; none for the other statuses.
                condition=models.Q(position__isnull=False, status__in=["finished", "DNF"])
                | models.Q(position__isnull=True) & ~models.Q(status="finished"),
                name="motor_result_position_matches_status",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.grand_prix}: {self.entry} {self.position or self.status}"


class StandingTable(models.TextChoices):
    DRIVERS = "drivers", _("drivers")
    CONSTRUCTORS = "constructors", _("constructors")


class Standing(models.Model):
    """One line of a table after a round: a driver's, or a constructor-and-engine's."""

    grand_prix = models.ForeignKey(
        GrandPrix, on_delete=models.CASCADE, related_name="standings", verbose_name=_("Grand Prix")
    )
    table = models.CharField(_("table"), max_length=12, choices=StandingTable.choices)
    position = models.PositiveIntegerField(_("position"))
    driver = models.ForeignKey(
        Driver, on_delete=models.PROTECT, null=True, blank=True, verbose_name=_("driver")
    )
    constructor = models.ForeignKey(
        Constructor, on_delete=models.PROTECT, null=True, blank=True, verbose_name=_("constructor")
    )
    engine = models.CharField(_("engine"), max_length=60, blank=True)
    points = models.DecimalField(_("points"), max_digits=7, decimal_places=2)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    countback = models.JSONField(_("countback (places 1, 2, ...)"), default=list)

    class Meta:
        ordering = ["grand_prix", "table", "position"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            # Positions may be shared (a tie on points and countback in a real table).
            models.UniqueConstraint(
                fields=["grand_prix", "driver"],
                condition=models.Q(driver__isnull=False),
                name="motor_standing_one_per_driver",
            ),
            models.UniqueConstraint(
                fields=["grand_prix", "constructor", "engine"],
                condition=models.Q(constructor__isnull=False),
                name="motor_standing_one_per_constructor_engine",
            ),
            models.CheckConstraint(
                condition=models.Q(table="drivers", driver__isnull=False, constructor__isnull=True)
                | models.Q(table="constructors", driver__isnull=True, constructor__isnull=False),
                name="motor_standing_driver_or_constructor",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.grand_prix} {self.table} {self.position}"


class EventPhase(models.TextChoices):
    QUALIFYING = "qualifying", _("qualifying")
    RACE = "race", _("race")


class GrandPrixEvent(models.Model):
    """One structured event of a Grand Prix raced by a motor ruleset (qualifying run, start,
    lead change, incident, pit stop, retirement, finish...), in the engine's order ``seq``;
    ``data`` holds the event's typed details as the engine gives them."""

    Phase = EventPhase

    grand_prix = models.ForeignKey(
        GrandPrix, on_delete=models.CASCADE, related_name="events", verbose_name=_("Grand Prix")
    )
    seq = models.PositiveIntegerField(_("order"))
    phase = models.CharField(_("phase"), max_length=12, choices=EventPhase.choices)
    round = models.PositiveIntegerField(_("game round"))
    kind = models.CharField(_("kind"), max_length=30)
    # CASCADE, not PROTECT as for results: an event means nothing without its car, and the
    # championship's deletion (entries, then Grands Prix) takes its events along.
    entry = models.ForeignKey(
        Entry,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("entry"),
    )
    data = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        ordering = ["grand_prix", "seq"]
        verbose_name = _("Grand Prix event")
        verbose_name_plural = _("Grand Prix events")
        constraints = [
            models.UniqueConstraint(fields=["grand_prix", "seq"], name="motor_event_unique_seq"),
            models.CheckConstraint(
                condition=models.Q(phase__in=[c.value for c in EventPhase]),
                name="motor_event_phase_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.grand_prix} #{self.seq} {self.kind}"
