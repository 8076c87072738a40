import secrets
import zoneinfo
from collections.abc import Iterable
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from motor.models import Championship, Entry, GrandPrix, PointsSystem
from plugins import adapter_for, adapter_names, ruleset_choices
from races.models import Race, Stage
from riders.models import Rider
from season.rule_settings import RuleSettings, default_rule_settings
from season.validators import validate_display_name

#: The largest squad of a league team (a WorldTeam's size: a season of several races starts
#: some of them in each, SeasonEvent.starters), and the largest budget: thirty of the dearest
#: riders cost well under it (season.formation.price_of), so no real league needs more.
ROSTER_MAX = 30
BUDGET_MAX = 10_000
#: The longest pick clock of a draft: a week per pick (a league that drafts by e-mail).
PICK_MINUTES_MAX = 7 * 24 * 60


def invite_code_new() -> str:
    """A fresh invitation code: 64 random bits, URL-safe (docs/league.md "Invitations")."""
    return secrets.token_urlsafe(8)


def default_time_zone() -> str:
    return settings.TIME_ZONE


def default_ruleset() -> str:
    """The first registered ruleset (the registry's order: races registers its own first)."""
    names = adapter_names()
    return names[0] if names else ""


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("%(value)s is not a time zone."), params={"value": value})


class FormationMode(models.TextChoices):
    DRAFT = "draft", _("draft in turns")
    BUDGET = "budget", _("picks within a budget")
    #: Each player takes a real team (its riders still in the race, up to the squad's size).
    REAL_TEAMS = "teams", _("players take over real teams")


class Peloton(models.TextChoices):
    """Who races a stage race's league (issue 16, docs/league.md "Computer teams")."""

    START_LIST = "start", _("the whole start list (computer teams ride the rest)")
    PLAYERS = "players", _("the players' riders only")


class PlayerRanking(models.TextChoices):
    """Which player wins the league (docs/league.md "The players' ranking"): a stage race's
    choice; a championship always ranks its players by points."""

    POINTS = "points", _("fantasy points (stage places, daily classifications, jerseys, finals)")
    TEAMS = "teams", _("the Teams classification among the players' teams")
    BEST_GC = "best_gc", _("each team's best rider on the general classification")


class SeasonPoints(models.TextChoices):
    """The points system of the standings across the season (docs/league.md "Standings across
    the season"): a stage race's presets (races.league.season_points.PRESETS, same keys); a
    championship scores with its own points system."""

    FANTASY = "fantasy", _("Fantasy: stage places, daily GC, jerseys, final classifications")
    UCI = "uci", _("UCI-like: final GC places, stage places, final jerseys")
    GRAND_PRIX = "grand_prix", _("Grand Prix: the final GC's top ten paid 25-18-15-12-10-8-6-4-2-1")


class Season(models.Model):
    """A league's season across weeks: a calendar of events (SeasonEvent: stage races, or a
    championship of Grands Prix) raced in rounds, by the teams of its players and the
    computer."""

    FormationMode = FormationMode
    Peloton = Peloton
    PlayerRanking = PlayerRanking
    SeasonPoints = SeasonPoints

    name = models.CharField(_("name"), max_length=120, validators=[validate_display_name])
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organiser"),
        on_delete=models.PROTECT,
        related_name="organised_seasons",
    )
    # The registered rulesets (plugins): a new game needs no migration of this field.
    ruleset = models.CharField(
        _("ruleset"), max_length=20, choices=ruleset_choices, default=default_ruleset
    )
    rule_settings = models.JSONField(_("rule settings"), default=default_rule_settings, blank=True)
    is_public = models.BooleanField(_("public"), default=True)
    roster_size = models.PositiveSmallIntegerField(_("riders per team"), default=8)
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    formation_mode = models.CharField(
        _("team formation"),
        max_length=6,
        choices=FormationMode.choices,
        default=FormationMode.DRAFT,
    )
    budget = models.PositiveIntegerField(
        _("budget"),
        default=180,
        validators=[MinValueValidator(1), MaxValueValidator(BUDGET_MAX)],
        help_text=_("Budget picks: the most a team's riders may cost."),
    )
    max_per_real_team = models.PositiveSmallIntegerField(
        _("riders from one real team"),
        null=True,
        blank=True,
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(ROSTER_MAX)],
        help_text=_("At most this many riders of one real team per league team; empty: no limit."),
    )
    peloton = models.CharField(
        _("peloton"),
        max_length=8,
        choices=Peloton.choices,
        default=Peloton.START_LIST,
        help_text=_(
            "Who races: every rider of the real start list, those no player took riding for "
            "computer teams, or a smaller field of the players' riders alone."
        ),
    )
    player_ranking = models.CharField(
        _("players' ranking"),
        max_length=8,
        choices=PlayerRanking.choices,
        default=PlayerRanking.POINTS,
        help_text=_("How the players' teams are ranked: who wins the league."),
    )
    season_points = models.CharField(
        _("season's points"),
        max_length=12,
        choices=SeasonPoints.choices,
        default=SeasonPoints.FANTASY,
        help_text=_("The points each race of the calendar gives for the standings of the season."),
    )
    invite_code = models.CharField(
        _("invitation code"), max_length=32, unique=True, default=invite_code_new, editable=False
    )
    time_zone = models.CharField(
        _("time zone"), max_length=64, default=default_time_zone, validators=[validate_time_zone]
    )
    draft_started_at = models.DateTimeField(_("draft started at"), null=True, blank=True)
    draft_pick_minutes = models.PositiveSmallIntegerField(
        _("minutes per pick"),
        default=0,
        validators=[MaxValueValidator(PICK_MINUTES_MAX)],
        help_text=_(
            "The draft's pick clock: when a team's time runs out, its pick is made for it "
            "(a rider from its wish list first; the dearest free car). 0: no clock."
        ),
    )
    auto_publish = models.BooleanField(
        _("auto-publish results"),
        default=False,
        help_text=_(
            "Results are public as soon as a stage is resolved; otherwise only the organiser "
            "sees them until they are published."
        ),
    )
    # The last change of what the season's pages show (season.cache.season_changed).
    changed_at = models.DateTimeField(
        null=True, blank=True, editable=False, verbose_name=_("changed at")
    )

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(roster_size__gte=1, roster_size__lte=ROSTER_MAX),
                name="season_roster_size_range",
            ),
            models.CheckConstraint(
                condition=models.Q(formation_mode__in=[c.value for c in FormationMode]),
                name="season_formation_mode_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(max_per_real_team__isnull=True)
                | models.Q(max_per_real_team__gte=1),
                name="season_max_per_real_team_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(max_per_real_team__isnull=True)
                | models.Q(max_per_real_team__lte=ROSTER_MAX),
                name="season_max_per_real_team_at_most_roster",
            ),
            models.CheckConstraint(
                condition=models.Q(peloton__in=[c.value for c in Peloton]),
                name="season_peloton_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(player_ranking__in=[c.value for c in PlayerRanking]),
                name="season_player_ranking_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(season_points__in=[c.value for c in SeasonPoints]),
                name="season_season_points_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(budget__gte=1, budget__lte=BUDGET_MAX),
                name="season_budget_range",
            ),
            models.CheckConstraint(
                condition=models.Q(draft_pick_minutes__lte=PICK_MINUTES_MAX),
                name="season_draft_pick_minutes_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def calendar(self) -> list["SeasonEvent"]:
        """The season's events in calendar order, each with its league copy (read once per
        season object: the pages and services of one request share it)."""
        cached: list[SeasonEvent] | None = self.__dict__.get("_calendar")
        if cached is None:
            cached = list(_calendar_of(self.events.all()).order_by("number"))
            self.__dict__["_calendar"] = cached
        return cached

    @staticmethod
    def calendars_read(seasons: "Iterable[Season]") -> None:
        """Read the calendar of every one of ``seasons`` in one query, as :meth:`calendar`
        reads one (a page listing several seasons, e.g. My seasons, asks each for its event)."""
        by_pk = {season.pk: season for season in seasons}
        calendars: dict[int, list[SeasonEvent]] = {pk: [] for pk in by_pk}
        for item in _calendar_of(SeasonEvent.objects.filter(season_id__in=by_pk)).order_by(
            "season_id", "number"
        ):
            calendars[item.season_id].append(item)
        for pk, calendar in calendars.items():
            by_pk[pk].__dict__["_calendar"] = calendar

    def calendar_from_rounds(self, rounds: "list[Round]") -> None:
        """Keep the calendar as read with the season's every round (each with its
        season_event and its copy joined): the pages that read the rounds read it so."""
        calendar: dict[int, SeasonEvent] = {}
        for round_ in rounds:
            if round_.season_event_id not in calendar:
                calendar[round_.season_event_id] = round_.season_event
                round_.season_event.first_pending = None
                round_.season_event.first_round = round_.number
            item = calendar[round_.season_event_id]
            if item.first_pending is None and round_.status not in DONE_STATUSES:
                item.first_pending = round_.number
        self.__dict__["_calendar"] = sorted(calendar.values(), key=lambda item: item.number)

    def event_of_round(self, number: int) -> "tuple[SeasonEvent | None, int]":
        """The calendar's event that holds round ``number`` of the season, and the round's
        number within it (a race's stage 1 is the season's round 22 after a 21-stage race);
        (None, number) for a number past the calendar."""
        held: SeasonEvent | None = None
        for item in self.calendar():
            if item.first_round is not None and item.first_round <= number:
                held = item
        if held is None or held.first_round is None:
            return None, number
        return held, number - held.first_round + 1

    def calendar_forget(self) -> None:
        """Forget the calendar read by :meth:`calendar` (after adding or moving an event), and
        the game bound to its current event (season.rated)."""
        self.__dict__.pop("_calendar", None)
        self.__dict__.pop("_rated_game", None)

    @property
    def championship(self) -> Championship | None:
        """A motor season's championship: the league copy its event races (None for a
        calendar of stage races)."""
        item = self.current_event()
        return item.championship if item.championship_id is not None else None

    @property
    def points_system(self) -> PointsSystem | None:
        """A motor season's points system: its championship's (None for stage races)."""
        championship = self.championship
        return championship.points_system if championship is not None else None

    def clean(self) -> None:
        # A stage race is raced by a cycling game, a championship by a motor one (on its
        # game's tracks): the ruleset's adapter says which events it races.
        if self.pk is not None:
            for item in self.calendar():
                mismatch = ruleset_mismatch(self.ruleset, item.event)
                if mismatch:
                    raise ValidationError({"ruleset": mismatch})
        try:
            rules = RuleSettings.from_data(self.rule_settings)
            if self.ruleset in adapter_names():
                # The ruleset's own settings, against its spec (the field and bound named).
                adapter_for(self.ruleset).engine_settings(rules)
        except (ValueError, TypeError) as error:
            raise ValidationError({"rule_settings": str(error)}) from error

    def current_event(self) -> "SeasonEvent":
        """The calendar's event being played: the first with a round not done yet (the last
        event once every round is done); read with the calendar."""
        calendar = self.calendar()
        assert calendar, f"season {self.slug!r} has no event (season_create writes one)"
        for item in calendar:
            if item.first_pending is not None:
                return item
        return calendar[-1]

    @property
    def event(self) -> Race | Championship:
        """What the season races now: the league copy of its current event (a stage race, or a
        championship of Grands Prix; the game's adapter knows which, the season layer hands it
        over as it is)."""
        return self.current_event().event

    @property
    def single_event(self) -> bool:
        """A calendar of one event (a stage race, a championship): its pages are the event's."""
        return len(self.calendar()) == 1

    @property
    def rules(self) -> RuleSettings:
        return RuleSettings.from_data(self.rule_settings)

    @property
    def tz(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.time_zone)


def _calendar_of(events: "models.QuerySet[SeasonEvent]") -> "models.QuerySet[SeasonEvent]":
    """Calendar events as Season.calendar keeps them: each with its league copy and the
    numbers of its first round and of its first round not done yet."""
    return events.select_related(  # type: ignore[no-redef]
        "race__template", "championship__copied_from", "championship__points_system"
    ).annotate(
        first_round=models.Min("rounds__number"),
        first_pending=models.Min(
            "rounds__number", filter=~models.Q(rounds__status__in=DONE_STATUSES)
        ),
    )


def ruleset_mismatch(ruleset: str, event: object) -> str:
    """Why ``ruleset`` cannot race ``event`` (a real event or a league's copy), naming both and
    the rulesets that can; "" when it can, or when there is no event or no such ruleset yet
    (the ruleset field's choices refuse an unknown one)."""
    if event is None or ruleset not in adapter_names():
        return ""
    adapter = adapter_for(ruleset)
    if adapter.league_event_fits(event):
        return ""
    fitting = [
        str(label)
        for name, label in ruleset_choices()
        if adapter_for(name).league_event_fits(event)
    ]
    return str(
        _("The ruleset %(ruleset)s does not race %(event)s: choose one of %(choices)s.")
        % {"ruleset": adapter.label, "event": event, "choices": ", ".join(fitting)}
    )


#: The most events in one season's calendar: a year of racing (PCM.daily's league races
#: about fifty; a championship is one event of its Grands Prix).
CALENDAR_MAX = 60


class SeasonEvent(models.Model):
    """One event of a season's calendar: the league's own copy of a stage race (``race``,
    cycling), raced in its stages, or of a championship of Grands Prix (``championship``,
    motor racing), raced in its Grands Prix; exactly one of them (docs/league.md "A season of
    several races"). ``number`` is its place in the calendar; its rounds follow the previous
    event's, numbered on across the season."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="events", verbose_name=_("season")
    )
    number = models.PositiveSmallIntegerField(_("place in the calendar"))
    # Typed as always set, as Round.stage is: the cycling code reads a stage race's event.
    race: "models.OneToOneField[Race | None, Race]" = models.OneToOneField(  # type: ignore[misc]
        Race,
        verbose_name=_("race"),
        on_delete=models.PROTECT,
        related_name="season_event",
        null=True,
        blank=True,
    )
    # The league's own copy of a championship (motor.Championship kind "league"): its Grands
    # Prix are the rounds, its points system the season's choice.
    championship = models.OneToOneField(
        Championship,
        verbose_name=_("championship"),
        on_delete=models.PROTECT,
        related_name="season_event",
        null=True,
        blank=True,
    )
    #: How many of its squad each team starts in this event (a stage race's team size); None:
    #: the whole squad (a championship's two cars, a season of one race).
    starters = models.PositiveSmallIntegerField(
        _("starters per team"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(ROSTER_MAX)],
        help_text=_("How many riders of its squad each team starts; empty: the whole squad."),
    )

    class Meta:
        verbose_name = _("event of the calendar")
        verbose_name_plural = _("events of the calendar")
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="season_event_unique_number"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1, number__lte=CALENDAR_MAX),
                name="season_event_number_range",
            ),
            models.CheckConstraint(
                condition=models.Q(race__isnull=False, championship__isnull=True)
                | models.Q(race__isnull=True, championship__isnull=False),
                name="season_event_race_or_championship",
            ),
            models.CheckConstraint(
                condition=models.Q(starters__isnull=True)
                | models.Q(starters__gte=1, starters__lte=ROSTER_MAX),
                name="season_event_starters_range",
            ),
        ]

    #: The number of its first round not done yet (None: every round done), as
    #: Season.calendar reads it.
    first_pending: int | None = None
    #: The season's number of its first round, as Season.calendar reads it.
    first_round: int | None = None

    def __str__(self) -> str:
        return f"{self.season} – {self.event}"

    @property
    def event(self) -> Race | Championship:
        """The league copy this event races (the game's adapter knows which)."""
        event = self.race if self.race_id is not None else self.championship
        assert event is not None, "an event races a stage race or a championship (CHECK)"
        return event

    def clean(self) -> None:
        if self.season_id is None:
            return
        mismatch = ruleset_mismatch(self.season.ruleset, self.race or self.championship)
        if mismatch:
            raise ValidationError({"race": mismatch})


class StandingsTable(models.TextChoices):
    PLAYERS = "players", _("players")
    RIDERS = "riders", _("riders")


class SeasonStanding(models.Model):
    """One line of the season's standings after a round (a snapshot: the history is kept),
    written with the round's results (season.services.season_standings): the players' teams'
    table (``team``) or the riders' (``competitor_id``: a rider's id, a driver's), with its
    points and what the page adds (``detail``: the points of each event of the calendar)."""

    Table = StandingsTable

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="standings", verbose_name=_("season")
    )
    round = models.PositiveIntegerField(_("after round"))
    table = models.CharField(_("table"), max_length=8, choices=StandingsTable.choices)
    rank = models.PositiveIntegerField(_("rank"))
    team = models.ForeignKey(
        "SeasonTeam",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("team"),
    )
    competitor_id = models.PositiveIntegerField(_("competitor"), null=True, blank=True)
    name = models.CharField(_("name"), max_length=120)
    points = models.DecimalField(_("points"), max_digits=9, decimal_places=2)
    wins = models.PositiveIntegerField(_("race wins"), default=0)
    detail = models.JSONField(_("detail"), default=dict, blank=True)

    class Meta:
        verbose_name = _("season standing")
        verbose_name_plural = _("season standings")
        ordering = ["season", "round", "table", "rank", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table=StandingsTable.PLAYERS, team__isnull=False)
                | models.Q(table=StandingsTable.RIDERS, competitor_id__isnull=False),
                name="season_standing_team_or_competitor",
            ),
            models.UniqueConstraint(
                fields=["season", "round", "team"],
                condition=models.Q(team__isnull=False),
                name="season_standing_unique_team",
            ),
            models.UniqueConstraint(
                fields=["season", "round", "table", "competitor_id"],
                condition=models.Q(competitor_id__isnull=False),
                name="season_standing_unique_competitor",
            ),
            models.CheckConstraint(
                condition=models.Q(rank__gte=1), name="season_standing_rank_positive"
            ),
        ]
        indexes = [models.Index(fields=["season", "table", "round"])]

    def __str__(self) -> str:
        return f"{self.season} {self.round} {self.table} {self.rank}. {self.name}"


class RoundStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("scheduled")
    OPEN = "open", _("open for orders")
    LOCKED = "locked", _("locked")
    RESOLVING = "resolving", _("resolving")
    RESOLVED = "resolved", _("resolved")
    PUBLISHED = "published", _("published")


#: A round with results: resolved, or resolved and published.
DONE_STATUSES = (RoundStatus.RESOLVED, RoundStatus.PUBLISHED)
#: A round that a resolution may start on (or take over after a worker was lost mid-way).
RESOLVABLE_STATUSES = (RoundStatus.OPEN, RoundStatus.LOCKED, RoundStatus.RESOLVING)


class Round(models.Model):
    """One round of a league: a stage of one of its stage races, or one Grand Prix of its
    championship (exactly one of ``stage`` and ``grand_prix``), numbered across the season.

    It carries what the league adds to the race: the orders deadline, the lifecycle (changed only
    by the services in season.services.lifecycle and season.services.resolution), the seed drawn
    once, the engine's inputs as resolved, and the dice log of its simulation (DiceLog).
    """

    Status = RoundStatus

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("season")
    )
    season_event = models.ForeignKey(
        SeasonEvent,
        on_delete=models.CASCADE,
        related_name="rounds",
        verbose_name=_("event of the calendar"),
    )
    # Typed as always set, as SeasonEvent.race is: a Grand Prix round has ``stage_id`` None.
    stage: "models.OneToOneField[Stage | None, Stage]" = models.OneToOneField(  # type: ignore[misc]
        Stage,
        on_delete=models.CASCADE,
        related_name="round",
        null=True,
        blank=True,
        verbose_name=_("stage"),
    )
    grand_prix = models.OneToOneField(
        GrandPrix,
        on_delete=models.CASCADE,
        related_name="league_round",
        null=True,
        blank=True,
        verbose_name=_("Grand Prix"),
    )
    number = models.PositiveSmallIntegerField(_("number"))
    orders_deadline = models.DateTimeField(_("orders deadline"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED
    )
    seed = models.BigIntegerField(_("seed"), null=True, blank=True)
    #: SHA-256 of the seed, published before any orders are taken (season.services.commitment);
    #: empty for a round resolved before commitments, whose dice are drawn from the seed itself.
    commitment = models.CharField(max_length=64, blank=True, verbose_name=_("commitment"))
    resolved_at = models.DateTimeField(null=True, blank=True, verbose_name=_("resolved at"))
    attempts = models.PositiveSmallIntegerField(default=0, verbose_name=_("attempts"))
    last_error = models.TextField(blank=True, verbose_name=_("last error"))
    engine_inputs = models.JSONField(
        null=True,
        blank=True,
        help_text=_("The engine's inputs as resolved, for replays."),
        verbose_name=_("engine inputs"),
    )
    # When each e-mail went out, so that a notification is sent once.
    orders_opened_notified_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("orders-open notice sent at")
    )
    # The reminders are claimed per player and lead time (Reminder); this is the notice of a
    # deadline passed without some players' orders.
    missed_notified_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("missed-orders notice sent at")
    )
    results_notified_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("results notice sent at")
    )
    #: How many times the orders deadline moved, and when it last did: the SEQUENCE and
    #: LAST-MODIFIED of the round's event in the calendar feeds (season.services.calendar_feed),
    #: so that a subscribed calendar moves its event instead of adding a second one.
    #: Written by leagues.calendar_update (the calendar edit and the shift of every deadline).
    deadline_sequence = models.PositiveIntegerField(_("deadline moves"), default=0, editable=False)
    deadline_moved_at = models.DateTimeField(
        _("deadline moved at"), null=True, blank=True, editable=False
    )

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="round_unique_number"),
            models.CheckConstraint(
                condition=models.Q(status__in=[c.value for c in RoundStatus]),
                name="round_status_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(stage__isnull=False, grand_prix__isnull=True)
                | models.Q(stage__isnull=True, grand_prix__isnull=False),
                name="round_stage_or_grand_prix",
            ),
        ]
        indexes = [
            # Celery beat: Round.objects.filter(status=OPEN, orders_deadline__lte=now).
            models.Index(fields=["status", "orders_deadline"], name="round_due"),
        ]

    def __str__(self) -> str:
        return _("%(season)s – stage %(number)s") % {"season": self.season, "number": self.number}

    @property
    def event(self) -> Stage | GrandPrix:
        """What the round races: a stage of the season's race, or a Grand Prix of its
        championship (the game's adapter knows which; the season layer hands it over)."""
        event = self.stage if self.stage_id is not None else self.grand_prix
        assert event is not None, "a round races a stage or a Grand Prix (CHECK)"
        return event

    @property
    def stage_pk(self) -> int:
        """The id of a stage round's stage, for the cycling code's lookups (a Grand Prix round
        has none: ValueError)."""
        if self.stage_id is None:
            raise ValueError(
                f"round {self.number} of {self.season_id} is a Grand Prix, not a stage"
            )
        return self.stage_id


class DiceLog(models.Model):
    """Every roll (and card) of one round's simulation, kept as one compact JSON document: the
    dice belong to the league's round, whatever game it plays."""

    round = models.OneToOneField(
        Round, on_delete=models.CASCADE, related_name="dice_log", verbose_name=_("round")
    )
    seed = models.BigIntegerField(_("seed"))
    ruleset = models.CharField(_("ruleset"), max_length=20)
    count = models.PositiveIntegerField(_("rolls"))
    sha256 = models.CharField(max_length=64, verbose_name=_("SHA-256"))
    rolls = models.JSONField(_("rolls"), help_text=_("The ruleset's rows, in the order drawn."))

    class Meta:
        verbose_name = _("dice log")
        verbose_name_plural = _("dice logs")

    def __str__(self) -> str:
        return _("%(round)s: %(count)s rolls") % {"round": self.round, "count": self.count}


class MembershipRole(models.TextChoices):
    ORGANISER = "organiser", _("organiser")
    PLAYER = "player", _("player")


class Membership(models.Model):
    Role = MembershipRole

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("season")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("user"),
    )
    role = models.CharField(
        max_length=10, choices=Role.choices, default=Role.PLAYER, verbose_name=_("role")
    )
    joined_at = models.DateTimeField(auto_now_add=True, verbose_name=_("joined at"))

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["season", "user"], name="membership_one_per_season"),
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.role} of {self.season}"


class SeasonTeam(models.Model):
    """A team in a league: a player's, or one the computer runs with default orders."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="teams", verbose_name=_("season")
    )
    name = models.CharField(_("name"), max_length=80, validators=[validate_display_name])
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="season_teams",
        help_text=_("Empty for a team run by the computer."),
    )
    riders: models.ManyToManyField = models.ManyToManyField(
        Rider,
        through="Seat",
        through_fields=("team", "rider"),
        related_name="season_teams",
        verbose_name=_("riders"),
    )
    draft_position = models.PositiveSmallIntegerField(
        _("draft position"), null=True, blank=True, help_text=_("1 picks first in round 1.")
    )

    class Meta:
        verbose_name = _("league team")
        verbose_name_plural = _("league teams")
        ordering = ["season", "name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="team_unique_name_per_season"),
            models.UniqueConstraint(
                fields=["season", "draft_position"],
                condition=models.Q(draft_position__isnull=False),
                name="team_unique_draft_position",
            ),
            models.UniqueConstraint(
                fields=["season", "owner"],
                condition=models.Q(owner__isnull=False),
                name="team_one_per_player_per_season",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("admin:season_seasonteam_change", args=[self.pk])


class RiderRole(models.TextChoices):
    GC_LEADER = "gc_leader", _("GC leader")
    SPRINTER = "sprinter", _("sprinter")
    BREAKAWAY = "breakaway", pgettext_lazy("rider role", "breakaway")
    DOMESTIQUE = "domestique", _("domestique")


#: The motor games' grid (their specs, docs/league.md): twelve cars, two per team.
CARS_PER_TEAM = 2
GRID_MAX = 12


class Seat(models.Model):
    """One place of a league team: a rider of its stage race, or a car of its championship (an
    entry: a driver in a constructor's car), exactly one of ``rider`` and ``entry``.

    ``number`` is what the seat races under (a rider's bib, a car's number); a car also has
    its ``slot`` in the team (1 or 2) and its ``grid`` place (1..12), so that the database holds
    the motor games' limits (two cars a team, twelve a season). A rider's ``role`` is his
    default order. One model for both, so that forming teams, the starters of a round and the
    pages read a team's seats one way (issue 27)."""

    Role = RiderRole

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="seats", verbose_name=_("season")
    )
    team = models.ForeignKey(
        SeasonTeam, on_delete=models.CASCADE, related_name="seats", verbose_name=_("team")
    )
    # Typed as always set, as Season.race is: the code that reads a rider's seat reads a
    # stage race's teams (the CHECK below holds exactly one of rider and entry).
    rider: "models.ForeignKey[Rider | None, Rider]" = models.ForeignKey(  # type: ignore[misc]
        Rider,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("rider"),
        null=True,
        blank=True,
    )
    entry: "models.ForeignKey[Entry | None, Entry]" = models.ForeignKey(  # type: ignore[misc]
        Entry,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("car"),
        null=True,
        blank=True,
    )
    number = models.PositiveSmallIntegerField(_("number"), null=True, blank=True)
    role = models.CharField(
        max_length=10, choices=Role.choices, default=Role.DOMESTIQUE, verbose_name=_("role")
    )
    slot = models.PositiveSmallIntegerField(_("car of the team"), null=True, blank=True)
    grid = models.PositiveSmallIntegerField(_("place on the grid"), null=True, blank=True)

    class Meta:
        verbose_name = _("team seat")
        verbose_name_plural = _("team seats")
        ordering = ["season", "grid", "team", "number"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rider__isnull=False, entry__isnull=True)
                | models.Q(rider__isnull=True, entry__isnull=False),
                name="seat_rider_or_car",
            ),
            models.UniqueConstraint(fields=["season", "rider"], name="seat_rider_once_per_season"),
            models.CheckConstraint(
                condition=models.Q(role__in=[c.value for c in RiderRole]),
                name="seat_role_valid",
            ),
            models.UniqueConstraint(fields=["season", "entry"], name="seat_entry_once_per_season"),
            models.UniqueConstraint(
                fields=["season", "number"],
                condition=models.Q(entry__isnull=False),
                name="seat_car_number_per_season",
            ),
            models.UniqueConstraint(fields=["season", "grid"], name="seat_grid_place_per_season"),
            models.UniqueConstraint(fields=["team", "slot"], name="seat_slot_per_team"),
            # A car has its slot, its grid place and its number; a rider none of the first two.
            models.CheckConstraint(
                condition=models.Q(entry__isnull=True)
                | models.Q(slot__isnull=False, grid__isnull=False, number__isnull=False),
                name="seat_car_complete",
            ),
            models.CheckConstraint(
                condition=models.Q(entry__isnull=False)
                | models.Q(slot__isnull=True, grid__isnull=True),
                name="seat_rider_no_grid",
            ),
            models.CheckConstraint(
                condition=models.Q(slot__isnull=True)
                | models.Q(slot__gte=1, slot__lte=CARS_PER_TEAM),
                name="seat_slot_range",
            ),
            models.CheckConstraint(
                condition=models.Q(grid__isnull=True) | models.Q(grid__gte=1, grid__lte=GRID_MAX),
                name="seat_grid_range",
            ),
            models.CheckConstraint(
                condition=models.Q(number__isnull=True) | models.Q(number__gte=1),
                name="seat_number_positive",
            ),
        ]

    def __str__(self) -> str:
        if self.entry is not None:
            return f"#{self.number} {self.entry} ({self.team})"
        return f"{self.rider} ({self.team})"

    @property
    def rider_pk(self) -> int:
        """The id of a rider's seat's rider (a car's seat has none: ValueError)."""
        if self.rider_id is None:
            raise ValueError(f"seat {self.pk} is a car, not a rider")
        return self.rider_id

    @property
    def entry_pk(self) -> int:
        """The id of a car's seat's entry (a rider's seat has none: ValueError)."""
        if self.entry_id is None:
            raise ValueError(f"seat {self.pk} is a rider, not a car")
        return self.entry_id

    @property
    def name(self) -> str:
        """The rider's name, or the driver's of the car."""
        if self.rider is not None:
            return self.rider.name
        return self.entry.driver.name if self.entry is not None else ""


class SelectionSource(models.TextChoices):
    """Who chose a rider's start in an event."""

    #: Chosen by the player on the selection page.
    PLAYER = "player", _("the player")
    #: The default selection, written for a team that chose none by the event's first deadline.
    DEFAULT = "default", _("the default selection")
    #: The default selection of a computer team.
    COMPUTER = "computer", _("the computer")


class Selection(models.Model):
    """One seat of a team's squad that starts an event of the calendar whose ``starters`` is
    smaller than the squad (docs/league.md "Squads and selections"). The seat's team is the
    team (season.services.selections checks it)."""

    Source = SelectionSource

    team = models.ForeignKey(
        SeasonTeam, on_delete=models.CASCADE, related_name="selections", verbose_name=_("team")
    )
    season_event = models.ForeignKey(
        SeasonEvent,
        on_delete=models.CASCADE,
        related_name="selections",
        verbose_name=_("event of the calendar"),
    )
    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="selections", verbose_name=_("seat")
    )
    source = models.CharField(
        _("chosen by"),
        max_length=8,
        choices=SelectionSource.choices,
        default=SelectionSource.PLAYER,
    )
    chosen_at = models.DateTimeField(_("chosen at"), default=timezone.now)

    class Meta:
        verbose_name = _("selection")
        verbose_name_plural = _("selections")
        ordering = ["season_event", "team", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["season_event", "seat"], name="selection_seat_once_per_event"
            ),
            models.CheckConstraint(
                condition=models.Q(source__in=[c.value for c in SelectionSource]),
                name="selection_source_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seat} – {self.season_event}"


class OrdersSource(models.TextChoices):
    """Who gave a round's orders."""

    #: Given by the player on the orders page (or through the service).
    PLAYER = "player", _("the player")
    #: Saved by the player from the orders carried over from an earlier round, unchanged.
    CARRIED = "carried", _("carried over")
    #: Written at resolution from the team's standing orders of an earlier round.
    STANDING = "standing", _("standing orders")


class Orders(models.Model):
    """A team's orders for one stage, in the shape its ruleset defines."""

    Source = OrdersSource

    team = models.ForeignKey(
        SeasonTeam, on_delete=models.CASCADE, related_name="orders", verbose_name=_("team")
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="orders", verbose_name=_("round")
    )
    data = models.JSONField(
        default=dict,
        help_text=_('Per rider id: {"role": ..., "no_breakaway": ...}'),
        verbose_name=_("orders"),
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("submitted by"),
    )
    #: A random number of the submission's own, drawn anew at every save: the round's dice come
    #: from its committed seed and the nonces of every team (season.services.commitment).
    nonce = models.CharField(max_length=32, blank=True, verbose_name=_("nonce"))
    #: Kept for every following round of the season until the player changes them (a copy is
    #: written as each round is claimed for resolution: season.services.carry).
    standing = models.BooleanField(
        default=False, verbose_name=_("keep these orders for the rest of the race")
    )
    source = models.CharField(
        max_length=8, choices=Source, default=Source.PLAYER, verbose_name=_("source")
    )
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("orders")
        verbose_name_plural = _("orders")
        constraints = [
            models.UniqueConstraint(fields=["team", "round"], name="orders_one_per_team_per_round"),
            models.CheckConstraint(
                condition=models.Q(source__in=[c.value for c in OrdersSource]),
                name="orders_source_valid",
            ),
        ]

    def __str__(self) -> str:
        return _("Orders of %(team)s for %(stage)s") % {
            "team": self.team,
            "stage": self.round,
        }


class PickSource(models.TextChoices):
    PLAYER = "player", _("the player")
    ORGANISER = "organiser", _("the organiser (automatic)")
    CLOCK = "clock", _("the clock (automatic)")


class DraftPick(models.Model):
    """One pick of a draft in turns: the n-th pick of the season, by the team on turn."""

    Source = PickSource

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="draft_picks", verbose_name=_("season")
    )
    number = models.PositiveSmallIntegerField(_("pick"))
    team = models.ForeignKey(
        SeasonTeam, on_delete=models.CASCADE, related_name="draft_picks", verbose_name=_("team")
    )
    # A pick is a rider (a stage race) or a car (a championship's entry), exactly one.
    rider = models.ForeignKey(
        Rider,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("rider"),
        null=True,
        blank=True,
    )
    entry = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("car"),
        null=True,
        blank=True,
    )
    picked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("picked by"),
    )
    # Set by the service from its clock (not auto_now_add): the next team's pick clock starts
    # at this instant, and a test's frozen clock must be the one written.
    picked_at = models.DateTimeField(_("picked at"), default=timezone.now)
    source = models.CharField(
        _("made by"), max_length=9, choices=PickSource.choices, default=PickSource.PLAYER
    )

    class Meta:
        verbose_name = _("draft pick")
        verbose_name_plural = _("draft picks")
        ordering = ["season", "number"]
        constraints = [
            # Two players pressing "pick" at once: only one can take the n-th pick.
            models.UniqueConstraint(fields=["season", "number"], name="draft_pick_unique_number"),
            models.UniqueConstraint(fields=["season", "rider"], name="draft_pick_rider_once"),
            models.UniqueConstraint(fields=["season", "entry"], name="draft_pick_car_once"),
            models.CheckConstraint(
                condition=models.Q(rider__isnull=False, entry__isnull=True)
                | models.Q(rider__isnull=True, entry__isnull=False),
                name="draft_pick_rider_or_car",
            ),
            models.CheckConstraint(
                condition=models.Q(source__in=[c.value for c in PickSource]),
                name="draft_pick_source_valid",
            ),
        ]

    def __str__(self) -> str:
        return _("%(season)s pick %(number)s: %(rider)s (%(team)s)") % {
            "season": self.season,
            "number": self.number,
            "rider": self.picked_name,
            "team": self.team,
        }

    @property
    def picked_name(self) -> str:
        """The rider's name, or the driver's of the car."""
        if self.rider is not None:
            return self.rider.name
        return self.entry.driver.name if self.entry is not None else ""


class JobStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class JobFailure(models.TextChoices):
    """Why a job failed, in the organiser's words; the technical detail is kept beside it."""

    WORKERS_UNREACHABLE = "workers", _("the workers cannot be reached")
    DATABASE_UNREACHABLE = "db_down", _("the database was out of reach or busy")
    DATABASE_REFUSED = "db_refused", _("the database refused the results")
    TIMEOUT = "timeout", _("the simulation ran out of time")
    STAGE = "stage", _("the stage cannot be resolved now")
    UNEXPECTED = "unexpected", _("an unexpected error")
    WORKER_LOST = "lost", _("the workers stopped answering while resolving the stage")


# What the organiser can do about each failure (the page shows it under the reason).
FAILURE_ADVICE = {
    JobFailure.WORKERS_UNREACHABLE: _(
        "Nothing changed. Check that the Celery worker and its broker (Redis) are running, "
        "then press “Resolve now” again."
    ),
    JobFailure.DATABASE_UNREACHABLE: _(
        "Nothing was saved. If no retry is scheduled, press “Resolve now” again once the "
        "database answers."
    ),
    JobFailure.DATABASE_REFUSED: _(
        "Nothing was saved. A value of the results is out of the database's range, which "
        "usually comes from a rule setting (bonuses, limits): check the season's rules, then "
        "press “Resolve now” again."
    ),
    JobFailure.TIMEOUT: _(
        "Nothing was saved. Press “Resolve now” to try again; if it happens again, the "
        "workers are overloaded or the stage's settings make it too long to simulate."
    ),
    JobFailure.STAGE: _("Nothing was saved. Do what the reason asks, then press “Resolve now”."),
    JobFailure.WORKER_LOST: _(
        "Nothing was saved. The stage was handed to a worker several times and none finished "
        "it: the worker's log says why (out of memory or time, or stopped). Fix that, then "
        "press “Resolve now”."
    ),
    JobFailure.UNEXPECTED: _(
        "Nothing was saved. The detail below is also in the worker's log: report it with the "
        "season and the stage number."
    ),
}


class Job(models.Model):
    """Progress of a background job (a stage resolution), polled by the stage page."""

    Status = JobStatus
    Failure = JobFailure

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="jobs", verbose_name=_("round")
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("requested by"),
    )
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.QUEUED, verbose_name=_("status")
    )
    progress = models.PositiveSmallIntegerField(default=0, verbose_name=_("progress"))
    message = models.CharField(max_length=200, blank=True, verbose_name=_("message"))
    failure = models.CharField(
        max_length=10, choices=Failure.choices, blank=True, verbose_name=_("failure")
    )
    # The exception as the worker saw it: for the organiser only, never on the public page.
    detail = models.TextField(blank=True, verbose_name=_("detail"))
    # Set while a retry of a failed job is really scheduled, to the time it will run.
    retry_at = models.DateTimeField(null=True, blank=True, verbose_name=_("retry at"))
    # The Celery worker that started it last (its --hostname, "name@host"): with workers on
    # several hosts, which one had a stage when it went silent, and which one resolved it.
    worker = models.CharField(max_length=200, blank=True, verbose_name=_("worker"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("resolution job")
        verbose_name_plural = _("resolution jobs")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(progress__lte=100), name="job_progress_max_100"
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=[c.value for c in JobStatus]), name="job_status_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(failure="") | models.Q(status=JobStatus.FAILED),
                name="job_failure_only_when_failed",
            ),
        ]
        indexes = [
            # The stage page: the latest job of a round, Job.objects.filter(round=).first().
            models.Index(fields=["round", "-created_at"], name="job_latest_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.status} {self.progress}%"

    @property
    def retry_scheduled(self) -> bool:
        return self.status == JobStatus.FAILED and self.retry_at is not None

    @property
    def active(self) -> bool:
        """Queued, running, or failed with a retry to come: a worker still owes a report."""
        return self.status in (JobStatus.QUEUED, JobStatus.RUNNING) or self.retry_scheduled

    @property
    def silent(self) -> bool:
        """Active, yet no worker has reported for longer than a resolution may take."""
        if not self.active:
            return False
        last_sign = max(self.updated_at, self.retry_at) if self.retry_at else self.updated_at
        limit = timedelta(seconds=settings.JOB_SILENT_AFTER_SECONDS)
        return timezone.now() - last_sign > limit

    @property
    def state(self) -> str:
        """What the stage page shows: working, waiting (for a worker), retrying, failed, done."""
        if self.round.status in DONE_STATUSES:
            return "done"
        if self.silent:
            return "waiting"
        if self.retry_scheduled:
            return "retrying"
        if self.status == JobStatus.FAILED:
            return "failed"
        if self.status == JobStatus.DONE:
            return "done"
        return "working"

    @property
    def advice(self) -> str:
        return str(FAILURE_ADVICE[JobFailure(self.failure)]) if self.failure else ""


# --- comments and notifications (issue 17, "What a league expects") --------------------------


#: The longest comment, in characters (season.services.comments says so when refused).
COMMENT_MAX_LENGTH = 2000


class Comment(models.Model):
    """A member's comment on a season (``round`` empty) or on one of its rounds. Never deleted
    from the page: hidden by the organiser (or withdrawn by its author), it shows as such."""

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.CASCADE, related_name="comments"
    )
    round = models.ForeignKey(
        Round,
        verbose_name=_("stage"),
        on_delete=models.CASCADE,
        related_name="comments",
        null=True,
        blank=True,
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("author"),
        on_delete=models.CASCADE,
        related_name="season_comments",
    )
    text = models.TextField(_("text"), max_length=COMMENT_MAX_LENGTH)
    created_at = models.DateTimeField(_("posted at"), auto_now_add=True)
    hidden_at = models.DateTimeField(_("hidden at"), null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("hidden by"),
        on_delete=models.SET_NULL,
        related_name="+",
        null=True,
        blank=True,
    )

    class Meta:
        verbose_name = _("comment")
        verbose_name_plural = _("comments")
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(text=""), name="comment_text_not_empty"),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("text"), COMMENT_MAX_LENGTH),
                name="comment_text_max_length",
            ),
            models.CheckConstraint(
                condition=models.Q(hidden_by__isnull=True) | models.Q(hidden_at__isnull=False),
                name="comment_hidden_by_when_hidden",
            ),
        ]
        indexes = [
            # The page's list: Comment.objects.filter(season=, round=).order_by("created_at").
            models.Index(fields=["season", "round", "created_at"], name="comment_list"),
        ]

    def __str__(self) -> str:
        return f"{self.author} on {self.season}: {self.text[:40]}"


class NotificationKind(models.TextChoices):
    ORDERS_OPEN = "open", _("orders open")
    REMINDER = "reminder", _("orders missing")
    MISSED = "missed", _("orders missed")
    RESULTS = "results", _("results out")
    INVITATION = "invite", _("invitation")


class Notification(models.Model):
    """What a player is told in the app, beside the e-mail (season.notifications writes both):
    its text is built in the reader's language from ``kind`` and ``params``."""

    Kind = NotificationKind

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.CASCADE, related_name="+"
    )
    #: None for an invitation, which is the season's, not a round's.
    round = models.ForeignKey(
        Round,
        verbose_name=_("stage"),
        on_delete=models.CASCADE,
        related_name="notifications",
        null=True,
        blank=True,
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    params = models.JSONField(_("details"), default=dict, blank=True)
    url = models.CharField(_("link"), max_length=200)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]
        constraints = [
            # A notice is sent once per round and kind (the round's claim), so once per user;
            # a reminder once per lead time the player chose (Reminder's claim).
            models.UniqueConstraint(
                fields=["user", "round", "kind"],
                condition=~models.Q(kind=NotificationKind.REMINDER),
                name="notification_once_per_round_and_kind",
            ),
            # An invitation repeated is the same notice, made unread again.
            models.UniqueConstraint(
                fields=["user", "season"],
                condition=models.Q(kind=NotificationKind.INVITATION),
                name="notification_one_invitation_per_season",
            ),
            # Only an invitation has no round.
            models.CheckConstraint(
                condition=models.Q(round__isnull=False)
                | models.Q(kind=NotificationKind.INVITATION),
                name="notification_round_unless_invitation",
            ),
            models.CheckConstraint(
                condition=models.Q(kind__in=[c.value for c in NotificationKind]),
                name="notification_kind_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(url__startswith="/"), name="notification_url_local"
            ),
        ]
        indexes = [
            # The bell on every page: Notification.objects.filter(user=, read_at=None).count().
            models.Index(
                fields=["user"],
                condition=models.Q(read_at__isnull=True),
                name="notification_unread",
            ),
            # The notifications page: Notification.objects.filter(user=).order_by("-created_at").
            models.Index(fields=["user", "-created_at"], name="notification_list"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.kind} {self.round or self.season}"


class Reminder(models.Model):
    """The claim of one reminder: player ``user`` reminded of his missing orders for ``round``
    ``hours`` before its deadline (season.notifications). Claimed before anything is sent, so
    two runs of the beat never send it twice; a deadline moved later drops the claims whose
    moment is to come again (season.notifications.reminders_reset)."""

    round = models.ForeignKey(
        Round, verbose_name=_("stage"), on_delete=models.CASCADE, related_name="reminders"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    hours = models.PositiveSmallIntegerField(_("hours before the deadline"))
    sent_at = models.DateTimeField(_("sent at"))

    class Meta:
        verbose_name = _("reminder")
        verbose_name_plural = _("reminders")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "user", "hours"], name="reminder_once_per_lead_time"
            ),
            models.CheckConstraint(condition=models.Q(hours__gt=0), name="reminder_hours_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.round} -{self.hours} h"


# --- the draft's wish lists (issue 17, "Draft") -------------------------------------------------


class WishListEntry(models.Model):
    """One rider (or car) on a team's wish list for the draft, in its owner's order: the
    automatic pick (the pick clock, the organiser's) takes the first one still free that the
    rules allow. What any team picks leaves every list (season.formation._add_pick)."""

    team = models.ForeignKey(
        SeasonTeam, verbose_name=_("team"), on_delete=models.CASCADE, related_name="wishes"
    )
    # A wish is a rider (a stage race's draft) or a car (a championship's), exactly one.
    rider: "models.ForeignKey[Rider | None, Rider]" = models.ForeignKey(  # type: ignore[misc]
        Rider,
        verbose_name=_("rider"),
        on_delete=models.CASCADE,
        related_name="+",
        null=True,
        blank=True,
    )
    entry: "models.ForeignKey[Entry | None, Entry]" = models.ForeignKey(  # type: ignore[misc]
        Entry,
        verbose_name=_("car"),
        on_delete=models.CASCADE,
        related_name="+",
        null=True,
        blank=True,
    )
    position = models.PositiveSmallIntegerField(_("position"))

    class Meta:
        verbose_name = _("wish list entry")
        verbose_name_plural = _("wish list entries")
        ordering = ["team", "position"]
        constraints = [
            models.UniqueConstraint(fields=["team", "rider"], name="wish_rider_once_per_team"),
            models.UniqueConstraint(fields=["team", "entry"], name="wish_car_once_per_team"),
            models.CheckConstraint(
                condition=models.Q(rider__isnull=False, entry__isnull=True)
                | models.Q(rider__isnull=True, entry__isnull=False),
                name="wish_rider_or_car",
            ),
            # Also the index of the list as shown: filter(team=).order_by("position").
            models.UniqueConstraint(fields=["team", "position"], name="wish_position_per_team"),
        ]

    def __str__(self) -> str:
        return f"{self.team} {self.position}: {self.rider or self.entry}"


class HistoryKind(models.TextChoices):
    RATINGS = "ratings", _("ratings applied")
    TRACK = "track", _("track version applied")


class HistoryEntry(models.Model):
    """What happened to a season outside its rounds, for its players to read on its page: an
    admin's edit of riders' ratings applied to it while it runs (docs/league.md "A season
    keeps its ratings"), or a track's new version its unraced Grands Prix race on
    (docs/grandprix.md "Editing a track"). ``params`` holds what the text says, built in the
    reader's language (season.services.ratings.history_rows)."""

    Kind = HistoryKind

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.CASCADE, related_name="history"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    #: The season's first round it applies to (the rounds before keep what they raced with).
    from_round = models.PositiveSmallIntegerField(_("from round"))
    #: ratings: {"riders": [{"name", "old_price", "new_price", "axes": [[axis, old, new]]}]};
    #: track: {"track": name, "version": n, "grands_prix": [name, ...]}.
    params = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("at"), auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.SET_NULL,
        related_name="+",
        null=True,
        blank=True,
    )

    class Meta:
        verbose_name = _("season history entry")
        verbose_name_plural = _("season history")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=HistoryKind.values), name="history_entry_kind_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(from_round__gte=1), name="history_entry_from_round_positive"
            ),
        ]
        indexes = [
            # The season page's list: HistoryEntry.objects.filter(season=).order_by("-created_at").
            models.Index(fields=["season", "-created_at"], name="history_entry_list"),
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.get_kind_display()} from round {self.from_round}"


# --- chat channels: webhooks to Discord and Slack (issue 34; docs/chat-channels.md) ------------


#: The most webhooks a season may have (each one's deliveries are work the workers do).
CHAT_HOOKS_MAX = 5
CHAT_URL_MAX = 500


class ChatHookKind(models.TextChoices):
    DISCORD = "discord", _("Discord")
    SLACK = "slack", _("Slack")


class ChatEvent(models.TextChoices):
    ROUND_OPEN = "open", _("a round opens for orders")
    REMINDER = "reminder", _("a reminder before the deadline")
    RESULTS = "results", _("results published")
    RACE_END = "end", _("the end of a race or of the season")
    COMMENT = "comment", _("comments")
    TEST = "test", _("test message")


def url_masked(url: str) -> str:
    """A webhook's address as lists and logs show it: its host and the last characters of its
    secret path, "https://discord.com/…x1Yz"."""
    scheme, _sep, rest = url.partition("://")
    host, _slash, path = rest.partition("/")
    return f"{scheme}://{host}/…{path[-4:]}" if path else f"{scheme}://{host}/"


class ChatHook(models.Model):
    """A season's webhook: a Discord or Slack channel that the workers post the season's news
    to (season.services.chat_hooks). Its address is a secret (whoever holds it posts to the
    channel): shown only to the organiser, masked everywhere else."""

    Kind = ChatHookKind

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.CASCADE, related_name="chat_hooks"
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    url = models.CharField(_("webhook address"), max_length=CHAT_URL_MAX)
    on_round_open = models.BooleanField(_("a round opens for orders"), default=True)
    on_reminder = models.BooleanField(_("a reminder before the deadline"), default=True)
    on_results = models.BooleanField(_("results published"), default=True)
    on_race_end = models.BooleanField(_("the end of a race or of the season"), default=True)
    on_comment = models.BooleanField(_("comments"), default=False)
    enabled = models.BooleanField(_("enabled"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        related_name="+",
        null=True,
        blank=True,
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_success_at = models.DateTimeField(_("last success"), null=True, blank=True)
    last_failure_at = models.DateTimeField(_("last failure"), null=True, blank=True)
    last_failure = models.CharField(_("last failure's reason"), max_length=300, blank=True)
    #: Failed attempts since the last success (many in a row disable the hook).
    failures = models.PositiveIntegerField(_("failures in a row"), default=0)

    class Meta:
        verbose_name = _("chat webhook")
        verbose_name_plural = _("chat webhooks")
        ordering = ["season", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["season", "url"], name="chat_hook_unique_url"),
            models.CheckConstraint(
                condition=models.Q(kind__in=ChatHookKind.values), name="chat_hook_kind_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(url__startswith="https://")
                | models.Q(url__startswith="http://"),
                name="chat_hook_url_http",
            ),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("url"), CHAT_URL_MAX),
                name="chat_hook_url_max_length",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {url_masked(self.url)}"

    def __repr__(self) -> str:
        return f"<ChatHook {self.pk}: {self}>"

    @property
    def url_masked(self) -> str:
        return url_masked(self.url)

    def posts(self, event: str) -> bool:
        """Whether this hook posts ``event`` (a ChatEvent; the test message always)."""
        field = {
            ChatEvent.ROUND_OPEN: "on_round_open",
            ChatEvent.REMINDER: "on_reminder",
            ChatEvent.RESULTS: "on_results",
            ChatEvent.RACE_END: "on_race_end",
            ChatEvent.COMMENT: "on_comment",
        }.get(ChatEvent(event))
        return field is None or bool(getattr(self, field))


class ChatDeliveryStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    SENT = "sent", _("sent")
    FAILED = "failed", _("failed")


class ChatDelivery(models.Model):
    """One message to one webhook, written with the news it announces (or at its claim) and
    posted by the workers with retries (season.services.chat_hooks.deliveries_send). ``key``
    names the news ("results:<round>"): each is posted once per hook."""

    Status = ChatDeliveryStatus

    hook = models.ForeignKey(
        ChatHook, verbose_name=_("webhook"), on_delete=models.CASCADE, related_name="deliveries"
    )
    event = models.CharField(_("what"), max_length=8, choices=ChatEvent.choices)
    key = models.CharField(_("key"), max_length=80)
    #: The message as posted (season.services.chat_hooks bounds it to PAYLOAD_MAX characters).
    payload = models.JSONField(_("message"))
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PENDING
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    #: When a worker may (try to) post it next; while one posts it, the end of its lease.
    next_attempt_at = models.DateTimeField(_("next attempt at"))
    last_error = models.CharField(_("last error"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("chat delivery")
        verbose_name_plural = _("chat deliveries")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["hook", "key"], name="chat_delivery_once_per_hook"),
            models.CheckConstraint(
                condition=models.Q(status__in=ChatDeliveryStatus.values),
                name="chat_delivery_status_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(event__in=ChatEvent.values), name="chat_delivery_event_valid"
            ),
            models.CheckConstraint(condition=~models.Q(key=""), name="chat_delivery_key_set"),
            models.CheckConstraint(
                condition=~models.Q(status=ChatDeliveryStatus.SENT)
                | models.Q(sent_at__isnull=False),
                name="chat_delivery_sent_at_when_sent",
            ),
        ]
        indexes = [
            # The workers' due query: filter(status=PENDING, next_attempt_at__lte=now).
            models.Index(
                fields=["next_attempt_at"],
                condition=models.Q(status=ChatDeliveryStatus.PENDING),
                name="chat_delivery_due",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key} → {self.hook} ({self.status})"
