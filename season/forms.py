"""Forms of the organiser and player pages. They read and clean input; the rules live in
season.leagues, season.formation and season.services."""

import re
import zoneinfo
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, ClassVar

from django import forms
from django.core.validators import MaxValueValidator
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from plugins import GameAdapter, Starter, adapter_for, adapter_names, ruleset_choices
from season.formation import Candidate
from season.leagues import (
    FORMATION_FIELDS,
    START_FIELDS,
    CalendarInvalid,
    SeasonSettings,
    first_deadline_check,
    stage_deadlines,
)
from season.models import (
    BUDGET_MAX,
    CHAT_URL_MAX,
    PICK_MINUTES_MAX,
    ROSTER_MAX,
    ChatHook,
    Round,
    Season,
    Seat,
    ruleset_mismatch,
)
from season.rule_settings import (
    BONUS_SECONDS_MAX,
    BONUSES_MAX,
    ODDS_RUNS_DEFAULT,
    ODDS_RUNS_MAX,
    ODDS_RUNS_MIN,
    RuleSettings,
    bonuses_error,
)
from season.services import chat_hooks
from season.validators import validate_display_name

DATETIME_LOCAL = "%Y-%m-%dT%H:%M"


def _datetime_widget() -> forms.DateTimeInput:
    return forms.DateTimeInput(attrs={"type": "datetime-local"}, format=DATETIME_LOCAL)


class DeadlineField(forms.DateTimeField):
    """A deadline: a date and time of this century (a year such as 9999 cannot be moved to
    another time zone nor have days added without overflowing)."""

    def to_python(self, value: Any) -> datetime | None:
        result = super().to_python(value)
        if result is not None and not 2000 <= result.year <= 2099:
            raise forms.ValidationError(
                _("Give a date between the years 2000 and 2099."), code="out_of_range"
            )
        return result


class WallClockDateTimeField(DeadlineField):
    """A date and time as typed, without a time zone: the form applies the season's."""

    def to_python(self, value: Any) -> datetime | None:
        result = super().to_python(value)
        if result is not None and timezone.is_aware(result):
            result = timezone.make_naive(result)
        return result


def _bonuses(text: str) -> tuple[int, ...]:
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    if not all(p.isascii() and p.isdigit() and len(p) <= 6 for p in parts):
        raise forms.ValidationError(_("Give seconds as whole numbers, e.g. 10, 6, 4."))
    values = tuple(int(p) for p in parts)
    if len(values) > BONUSES_MAX:
        raise forms.ValidationError(
            _("At most %(count)d bonuses, one per place.") % {"count": BONUSES_MAX}
        )
    if bonuses_error(values):
        raise forms.ValidationError(
            _("A bonus is at most %(seconds)d seconds.") % {"seconds": BONUS_SECONDS_MAX}
        )
    return values


def first_deadline_problem(first: datetime) -> str:
    """The service's refusal of a first deadline (leagues.first_deadline_check), or ""."""
    try:
        first_deadline_check(first)
    except CalendarInvalid as error:
        return error.errors[0]
    return ""


def pick_minutes_field() -> forms.IntegerField:
    """The draft's pick clock, for riders and cars alike (season.services.draft_clock)."""
    return forms.IntegerField(
        label=_("Minutes per pick"),
        min_value=0,
        max_value=PICK_MINUTES_MAX,
        required=False,
        initial=0,
        help_text=Season._meta.get_field("draft_pick_minutes").help_text,
    )


def games() -> list[GameAdapter]:
    """One adapter per kind of league (the first registered of each discipline): the create
    form's groups of events and of rulesets."""
    first: dict[str, GameAdapter] = {}
    for name in adapter_names():
        adapter = adapter_for(name)
        first.setdefault(adapter.discipline, adapter)
    return list(first.values())


def grouped_rulesets() -> list[tuple[str, list[tuple[str, str]]]]:
    """Every ruleset, grouped under the heading of the events its kind of league runs."""
    headings = {game.discipline: str(game.league_events_label) for game in games()}
    groups: dict[str, tuple[str, list[tuple[str, str]]]] = {}
    for name in adapter_names():
        adapter = adapter_for(name)
        group = groups.setdefault(adapter.discipline, (headings[adapter.discipline], []))
        group[1].append((name, str(adapter.label)))
    return list(groups.values())


def fitting_rulesets(event: Any) -> list[tuple[str, str]]:
    """The rulesets that race ``event`` (a season's settings keep to them)."""
    return [
        (name, str(adapter_for(name).label))
        for name in adapter_names()
        if adapter_for(name).league_event_fits(event)
    ]


class SeasonSettingsForm(forms.Form):
    """The season's settings: the create form adds the slug, the route and the calendar."""

    name = forms.CharField(label=_("Name"), max_length=120, validators=[validate_display_name])
    ruleset = forms.ChoiceField(label=_("Ruleset"), choices=ruleset_choices)
    is_public = forms.BooleanField(
        label=_("Public"),
        required=False,
        initial=True,
        help_text=_("Anybody can read a public season; a private one only its members."),
    )
    auto_publish = forms.BooleanField(
        label=capfirst(Season._meta.get_field("auto_publish").verbose_name),
        required=False,
        help_text=Season._meta.get_field("auto_publish").help_text,
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"), help_text=_("Deadlines are entered and shown in this time zone.")
    )
    roster_size = forms.IntegerField(
        label=_("Riders per team"), min_value=1, max_value=ROSTER_MAX, initial=8
    )
    formation_mode = forms.ChoiceField(
        label=_("Team formation"), choices=Season.FormationMode.choices
    )
    budget = forms.IntegerField(
        label=_("Budget"),
        min_value=1,
        max_value=BUDGET_MAX,
        initial=180,
        help_text=_("Budget picks only: the most a team's riders may cost together."),
    )
    max_per_real_team = forms.IntegerField(
        label=_("At most this many riders from one real team"),
        min_value=1,
        max_value=ROSTER_MAX,
        required=False,
        initial=3,
        help_text=_("Leave empty for no limit."),
    )
    peloton = forms.ChoiceField(
        label=capfirst(Season._meta.get_field("peloton").verbose_name),
        choices=Season.Peloton.choices,
        initial=Season.Peloton.START_LIST,
        help_text=Season._meta.get_field("peloton").help_text,
    )
    draft_pick_minutes = pick_minutes_field()
    player_ranking = forms.ChoiceField(
        label=capfirst(Season._meta.get_field("player_ranking").verbose_name),
        choices=Season.PlayerRanking.choices,
        initial=Season.PlayerRanking.POINTS,
        # Not sent (a form of before the choice): the season's as it is, a new one's default.
        required=False,
        help_text=_(
            "How the players' teams are ranked, so who wins the league; fixed once the first "
            "round opens."
        ),
    )
    season_points = forms.ChoiceField(
        label=capfirst(Season._meta.get_field("season_points").verbose_name),
        choices=Season.SeasonPoints.choices,
        initial=Season.SeasonPoints.FANTASY,
        # Not sent (a form of before the choice, a game with its own points): as it is.
        required=False,
        help_text=_(
            "The points each race of the calendar gives for the standings of the season "
            "(riders and players' teams); fixed once the first round opens."
        ),
    )
    same_group_same_time = forms.BooleanField(
        label=_("Riders finishing in the same group get the same time"),
        required=False,
        initial=True,
    )
    finish_bonuses = forms.CharField(
        label=_("Finish bonuses (seconds)"), initial="10, 6, 4", required=False
    )
    intermediate_sprint_bonuses = forms.CharField(
        label=_("Intermediate sprint bonuses (seconds)"), initial="3, 2, 1", required=False
    )
    time_cut_enabled = forms.BooleanField(
        label=_("Time cut: riders too far behind the winner leave the race"),
        required=False,
        initial=True,
    )

    RULE_FIELDS: ClassVar = (
        "same_group_same_time",
        "finish_bonuses",
        "intermediate_sprint_bonuses",
        "time_cut_enabled",
    )
    # The fields the service fixes once teams start forming (season.leagues).
    FORMATION_FIELDS: ClassVar = FORMATION_FIELDS
    # The fields the service fixes once the first round opens (season.leagues).
    START_FIELDS: ClassVar = START_FIELDS

    FIELDSETS: ClassVar = (
        (_("The season"), ("name", "slug", "template", "ruleset", "is_public", "auto_publish")),
        (_("Calendar"), ("time_zone", "first_deadline", "hours_between")),
        (
            _("Teams"),
            (
                "peloton",
                "roster_size",
                "formation_mode",
                "budget",
                "max_per_real_team",
                "draft_pick_minutes",
            ),
        ),
        (_("Who wins the league"), ("player_ranking", "season_points")),
        (_("Race rules"), RULE_FIELDS),
    )

    def __init__(
        self,
        *args: Any,
        base_rules: RuleSettings | None = None,
        event: Any = None,
        game: GameAdapter | None = None,
        **kwargs: Any,
    ) -> None:
        """``event``: the season's, whose rulesets alone are offered; ``game``: the season's
        adapter, whose unused settings (GameAdapter.league_settings_unused) are left out and
        kept, and whose words say what a budget buys."""
        super().__init__(*args, **kwargs)
        self.base_rules = base_rules or RuleSettings()
        if game is not None:
            for name in game.league_settings_unused:
                self.fields.pop(name, None)
            if budget_help := game.page_words.get("budget_help"):
                self.fields["budget"].help_text = budget_help
            if "player_ranking" in self.fields:
                self.fields["player_ranking"].choices = list(  # type: ignore[attr-defined]
                    game.league_ranking_choices()
                )
            if "season_points" in self.fields:
                points = list(game.league_season_points_choices())
                if points:
                    self.fields["season_points"].choices = points  # type: ignore[attr-defined]
                else:
                    self.fields.pop("season_points")
        self.unused = set()
        if event is not None:
            ruleset = self.fields["ruleset"]
            ruleset.choices = fitting_rulesets(event)  # type: ignore[attr-defined]
            if len(ruleset.choices) == 1:  # type: ignore[attr-defined]
                ruleset.disabled = True
                ruleset.help_text = _("Fixed: no other game races this season's calendar.")
        zones = sorted(zoneinfo.available_timezones())
        self.fields["time_zone"].choices = [(z, z) for z in zones]  # type: ignore[attr-defined]
        self.fields["time_zone"].initial = timezone.get_default_timezone_name()

    def fieldsets(self) -> list[tuple[Any, list[forms.BoundField]]]:
        return [
            (title, [self[name] for name in names if name in self.fields])
            for title, names in self.FIELDSETS
        ]

    @classmethod
    def initial_for(cls, season: Season) -> dict[str, Any]:
        rules = season.rules
        return {
            "name": season.name,
            "ruleset": season.ruleset,
            "is_public": season.is_public,
            "auto_publish": season.auto_publish,
            "time_zone": season.time_zone,
            "roster_size": season.roster_size,
            "formation_mode": season.formation_mode,
            "budget": season.budget,
            "max_per_real_team": season.max_per_real_team,
            "draft_pick_minutes": season.draft_pick_minutes,
            "peloton": season.peloton,
            "player_ranking": season.player_ranking,
            "season_points": season.season_points,
            "same_group_same_time": rules.same_group_same_time,
            "finish_bonuses": ", ".join(str(b) for b in rules.finish_bonuses),
            "intermediate_sprint_bonuses": ", ".join(
                str(b) for b in rules.intermediate_sprint_bonuses
            ),
            "time_cut_enabled": rules.time_cut_enabled,
        }

    def freeze(self, names: Iterable[str], reason: str) -> None:
        """Show these fields without letting them change (the service refuses it anyway)."""
        for name in names:
            self.fields[name].disabled = True
            self.fields[name].help_text = reason

    def clean_player_ranking(self) -> str:
        chosen: str = self.cleaned_data.get("player_ranking") or ""
        return chosen or self.initial.get("player_ranking") or Season.PlayerRanking.POINTS

    def clean_season_points(self) -> str:
        chosen: str = self.cleaned_data.get("season_points") or ""
        return chosen or self.initial.get("season_points") or Season.SeasonPoints.FANTASY

    def clean_finish_bonuses(self) -> tuple[int, ...]:
        return _bonuses(self.cleaned_data["finish_bonuses"])

    def clean_intermediate_sprint_bonuses(self) -> tuple[int, ...]:
        return _bonuses(self.cleaned_data["intermediate_sprint_bonuses"])

    #: The settings the season's game does not use: kept as they are.
    unused: set[str]

    def _used(self, name: str) -> bool:
        return name in self.fields and name not in self.unused

    def _value(self, name: str) -> Any:
        """A setting as cleaned, or, for one the game does not use, as it is (its initial)."""
        if self._used(name):
            return self.cleaned_data[name]
        return self.initial.get(name, self.base_fields[name].initial)

    def season_settings(self) -> SeasonSettings:
        data = self.cleaned_data
        rules = RuleSettings.from_data(
            self.base_rules.to_data()
            | {name: data[name] for name in self.RULE_FIELDS if self._used(name)}
        )
        return SeasonSettings(
            name=data["name"].strip(),
            ruleset=data["ruleset"],
            is_public=data["is_public"],
            rule_settings=rules,
            roster_size=self._value("roster_size"),
            formation_mode=data["formation_mode"],
            budget=data["budget"],
            max_per_real_team=self._value("max_per_real_team"),
            time_zone=data["time_zone"],
            auto_publish=data["auto_publish"],
            draft_pick_minutes=data["draft_pick_minutes"] or 0,
            peloton=self._value("peloton"),
            player_ranking=self._value("player_ranking"),
            season_points=self._value("season_points"),
        )


class SeasonCreateForm(SeasonSettingsForm):
    """A new season of any game: the event it runs (every game's events, grouped), a ruleset
    (every one, grouped; one that does not race the event is refused, naming both), the
    calendar, the league's settings and the chosen game's own fields (a points system)."""

    slug = forms.SlugField(
        label=_("Address"),
        max_length=60,
        help_text=_("Letters, digits and hyphens; the season's pages live at /seasons/<address>/."),
    )
    event = forms.ChoiceField(
        label=_("Event"),
        help_text=_("The real event whose rounds this season runs, in a copy of its own."),
    )
    first_deadline = WallClockDateTimeField(
        label=_("Orders deadline of round 1"), widget=_datetime_widget()
    )
    hours_between = forms.IntegerField(
        label=_("Hours between two rounds' deadlines"),
        min_value=1,
        max_value=24 * 28,
        initial=24,
        help_text=_("24: a round a day; 168: a round a week. Each deadline can be moved later."),
    )

    FIELDSETS: ClassVar = (
        (_("The season"), ("name", "slug", "event", "ruleset", "is_public", "auto_publish")),
        *SeasonSettingsForm.FIELDSETS[1:],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.games = games()
        self.fields["event"].choices = [  # type: ignore[attr-defined]
            (str(game.league_events_label), game.league_events()) for game in self.games
        ]
        self.fields["ruleset"].choices = grouped_rulesets()  # type: ignore[attr-defined]
        #: Each game's own fields (GameAdapter.league_create_fields), by discipline.
        self.game_fields: dict[str, list[str]] = {}
        for game in self.games:
            own = game.league_create_fields()
            self.fields.update(own)
            self.game_fields[game.discipline] = list(own)
        # The settings the chosen game does not use are not asked for (the page shows them
        # for every game, saying which events do without them; a browser posts them anyway)
        # and keep their defaults.
        for name, headings in self._unused_by().items():
            note = _("Not used for %(events)s.") % {"events": ", ".join(headings)}
            field = self.fields[name]
            field.help_text = f"{field.help_text} {note}" if field.help_text else note
        chosen = self.data.get("ruleset") if self.is_bound else None
        if chosen in adapter_names():
            self.unused = set(adapter_for(chosen).league_settings_unused)
            for name in self.unused:
                self.fields[name].required = False

    def _unused_by(self) -> dict[str, list[str]]:
        """The settings some games do not use, each with the headings of those games' events."""
        unused: dict[str, list[str]] = {}
        for game in self.games:
            for name in game.league_settings_unused:
                unused.setdefault(name, []).append(str(game.league_events_label))
        return unused

    def fieldsets(self) -> list[tuple[Any, list[forms.BoundField]]]:
        sets = super().fieldsets()
        own = [
            (game.league_events_label, [self[n] for n in self.game_fields[game.discipline]])
            for game in self.games
            if self.game_fields[game.discipline]
        ]
        return sets[:1] + own + sets[1:]

    def event_kinds(self) -> list[tuple[Any, Any]]:
        """(heading, what choosing such an event gives), for the page's introduction."""
        return [(game.league_events_label, game.league_events_help) for game in self.games]

    def clean_event(self) -> Any:
        key = self.cleaned_data["event"]
        for game in self.games:
            event = game.league_event_get(key)
            if event is not None:
                return event
        raise forms.ValidationError(_("Choose one of the events offered."))

    def clean_slug(self) -> str:
        slug = str(self.cleaned_data["slug"]).lower()
        if Season.objects.filter(slug=slug).exists():
            raise forms.ValidationError(_("Another season already uses this address."))
        return slug

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in self.unused:
            # Whatever the page posted for a setting the chosen game does not use is ignored.
            self.errors.pop(name, None)
        slug, event, ruleset = data.get("slug"), data.get("event"), data.get("ruleset")
        adapter = None
        if event is not None and ruleset:
            mismatch = ruleset_mismatch(ruleset, event)
            if mismatch:
                self.add_error("ruleset", mismatch)
            else:
                adapter = adapter_for(ruleset)
        if adapter is not None:
            problems = adapter.league_event_problems(event)
            if problems:
                lead = _("This event cannot be raced with this game; an admin must fix it first:")
                self.add_error("event", forms.ValidationError([lead, *problems]))
                adapter = None
            elif slug and adapter.league_copy_taken(slug=slug, event=event):
                self.add_error("slug", _("Another season already uses this address."))
            if adapter is not None and "peloton" not in self.unused:
                for problem in adapter.peloton_problems(event, peloton=data.get("peloton", "")):
                    self.add_error("peloton", problem)
            if adapter is not None:
                own = self.game_fields[adapter.discipline]
                options = {name: data.get(name) for name in own}
                for problem in adapter.league_options_problems(event, options=options):
                    self.add_error(own[0] if own else None, problem)
        first, zone = data.get("first_deadline"), data.get("time_zone")
        if first and zone:
            aware = timezone.make_aware(first, zoneinfo.ZoneInfo(zone))
            if past := first_deadline_problem(aware):
                self.add_error("first_deadline", past)
            elif adapter is not None and not self._calendar_fits(
                aware, data, adapter.league_round_count(event)
            ):
                self.add_error("first_deadline", CALENDAR_TOO_LONG)
            data["first_deadline"] = aware
        return data

    @staticmethod
    def _calendar_fits(first: datetime, data: dict[str, Any], count: int) -> bool:
        try:
            hours = data.get("hours_between") or 0
            stage_deadlines(first=first, hours_between=hours, count=count)
        except CalendarInvalid:
            return False
        return True

    def options(self) -> dict[str, Any]:
        """The chosen game's own fields, as season.leagues.season_create takes them."""
        game = adapter_for(self.cleaned_data["ruleset"])
        return {name: self.cleaned_data.get(name) for name in self.game_fields[game.discipline]}


CALENDAR_TOO_LONG = _("The season must end within two years: choose an earlier first deadline.")


class CalendarForm(forms.Form):
    """One deadline per stage; the stages already locked or resolved are shown, not editable.
    Build and validate it under timezone.override(season.tz)."""

    def __init__(self, *args: Any, stages: Sequence[Round], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stages = list(stages)
        for stage in self.stages:
            editable = stage.status in (Round.Status.SCHEDULED, Round.Status.OPEN)
            if stage.grand_prix is not None:
                label = _("Round %(number)d: %(name)s") % {
                    "number": stage.number,
                    "name": stage.grand_prix.name,
                }
            else:
                label = _("Stage %(number)d") % {"number": stage.number}
            widget = _datetime_widget()
            widget.attrs["aria-label"] = label
            self.fields[self.field_name(stage)] = DeadlineField(
                label=label,
                initial=stage.orders_deadline,
                widget=widget,
                disabled=not editable,
                required=editable,
            )

    @staticmethod
    def field_name(stage: Round) -> str:
        return f"stage_{stage.number}"

    def rows(self) -> list[tuple[Round, forms.BoundField]]:
        return [(stage, self[self.field_name(stage)]) for stage in self.stages]

    def deadlines(self) -> dict[int, datetime]:
        return {
            stage.number: self.cleaned_data[self.field_name(stage)]
            for stage in self.stages
            if not self.fields[self.field_name(stage)].disabled
        }


class RaceAddForm(forms.Form):
    """A race to add at the end of a season's calendar (season.leagues.calendar_event_add):
    one of the races the season's game offers, its first deadline in the season's time zone,
    the hours between its rounds and, optionally, how many of its squad each team starts."""

    event = forms.ChoiceField(label=_("Race"))
    first_deadline = WallClockDateTimeField(
        label=_("Orders deadline of its first round"), widget=_datetime_widget()
    )
    hours_between = forms.IntegerField(
        label=_("Hours between two rounds' deadlines"), min_value=1, max_value=24 * 28, initial=24
    )
    starters = forms.IntegerField(
        label=_("Starters per team"),
        required=False,
        min_value=1,
        help_text=_("How many riders of its squad each team starts; empty: the whole squad."),
    )

    def __init__(self, *args: Any, game: GameAdapter, season: Season, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game, self.season = game, season
        self.fields["event"].choices = game.league_events()  # type: ignore[attr-defined]
        starters = self.fields["starters"]
        starters.max_value = season.roster_size  # type: ignore[attr-defined]
        starters.validators.append(MaxValueValidator(season.roster_size))
        starters.widget.attrs["max"] = season.roster_size
        #: The game's own fields (a stage to start after), as on the create form.
        self.game_fields = list(game.league_create_fields())
        self.fields.update(game.league_create_fields())

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        event = data.get("event")
        if event is not None:
            for problem in self.game.league_options_problems(event, options=self.options()):
                self.add_error(self.game_fields[0] if self.game_fields else None, problem)
        return data

    def options(self) -> dict[str, Any]:
        """The game's own fields, as season.leagues.calendar_event_add takes them."""
        return {name: self.cleaned_data.get(name) for name in self.game_fields}

    def clean_event(self) -> Any:
        event = self.game.league_event_get(self.cleaned_data["event"])
        if event is None:
            raise forms.ValidationError(_("Choose one of the races offered."))
        return event

    def clean_first_deadline(self) -> datetime:
        aware = timezone.make_aware(self.cleaned_data["first_deadline"], self.season.tz)
        if past := first_deadline_problem(aware):
            raise forms.ValidationError(past)
        return aware


class JoinForm(forms.Form):
    team_name = forms.CharField(
        label=_("Your team's name"),
        max_length=80,
        validators=[validate_display_name],
        help_text=_("Unique in this season; the other players will see it."),
    )


class InviteCodeForm(forms.Form):
    code = forms.CharField(label=_("Invitation code"), max_length=32)


class BudgetTeamForm(forms.Form):
    """A budget pick: tick roster_size riders or cars among the free ones (``picks``: their
    ids)."""

    picks = forms.TypedMultipleChoiceField(
        label=_("Chosen"),
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        error_messages={
            "invalid_choice": _("One you ticked is no longer free: choose again."),
        },
    )

    def __init__(self, *args: Any, candidates: Iterable[Candidate], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.candidates = list(candidates)
        self.fields["picks"].choices = [  # type: ignore[attr-defined]
            (c.id, c.name) for c in self.candidates
        ]

    def chosen(self) -> list[int]:
        return list(self.cleaned_data.get("picks") or [])


# --- orders ------------------------------------------------------------------------------


class SeatOrdersForm(forms.Form):
    """A team's orders for one round, whatever the game: a row of the ruleset's fields per
    starter seat (a rider, a car), generated by the season's adapter from the engine's orders
    spec and named ``<seat key>-<field>`` (the adapter's ``seat_key``: a rider's id, a car's
    number); the adapter checks across one seat's fields (``seat_clean``). ``orders()`` gives
    ``{seat key: fields}`` as season.services.orders_submit takes them."""

    stage = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=99)
    standing = forms.BooleanField(
        required=False,
        label=_("Keep these orders for the rest of the race"),
        help_text=_(
            "Standing orders: they are used for every following round you give no orders for, "
            "as far as they still apply, until you change them."
        ),
    )

    def __init__(
        self,
        *args: Any,
        adapter: GameAdapter,
        seats: Sequence[Seat],
        current: dict[str, dict[str, Any]],
        round: Round,
        standing: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.adapter = adapter
        self.round = round
        self.fields["standing"].initial = standing
        #: Each starter seat and its key, in the game's start order.
        self.seats = [(seat, seat_key(adapter, seat)) for seat in seats]
        hidden = self.fields["stage"]
        hidden.initial = round.number
        missing = adapter.orders_round_missing
        hidden.error_messages.update(
            {"required": missing, "invalid": missing, "min_value": missing, "max_value": missing}
        )
        for seat, key in self.seats:
            given = current.get(key) or ({"role": seat.role} if adapter.seat_roles else {})
            for name, field in adapter.order_fields(given).items():
                self.fields[f"{key}-{name}"] = field

    def clean(self) -> dict[str, Any]:
        """The ruleset's checks across one seat's fields (e.g. an attack window's ends)."""
        cleaned = super().clean() or {}
        for _seat, key in self.seats:
            prefix = f"{key}-"
            values = {
                name.removeprefix(prefix): value
                for name, value in cleaned.items()
                if name.startswith(prefix)
            }
            for name, message in self.adapter.seat_clean(values, round=self.round).items():
                self.add_error(prefix + name, message)
        return cleaned

    def rows(self) -> list[tuple[Seat, list[forms.BoundField]]]:
        return [
            (seat, [self[name] for name in self.fields if name.startswith(f"{key}-")])
            for seat, key in self.seats
        ]

    def error_lines(self) -> list[str]:
        """Every error of the form, for the summary above the fields: a field's error names
        its seat and field (next to the field, its row already says it)."""
        names = {key: seat_name(self.adapter, seat) for seat, key in self.seats}
        lines = [str(error) for error in self.non_field_errors()]
        # The round is a hidden field: its error has no place next to a field.
        lines += [str(error) for error in self.errors.get("stage", [])]
        for name, errors in self.errors.items():
            key, _sep, _field = name.partition("-")
            if name not in self.fields or key not in names:
                continue
            label = self.fields[name].label
            lines += [
                _("%(rider)s, %(field)s: %(error)s")
                % {"rider": names[key], "field": label, "error": error}
                for error in errors
            ]
        return lines

    def summary(self) -> list[tuple[Seat, list[tuple[str, str]]]]:
        """Each starter's orders as given (``current``), as (label, value) pairs in this
        ruleset's own fields: a choice shows its label, a ticked box a tick."""
        return [
            (seat, [(str(bound.label), _shown(bound.field, bound.initial)) for bound in fields])
            for seat, fields in self.rows()
        ]

    def orders(self) -> dict[str, dict[str, Any]]:
        result: dict[str, dict[str, Any]] = {}
        for name, value in self.cleaned_data.items():
            key, _sep, field = name.partition("-")
            if field:
                result.setdefault(key, {})[field] = value
        return result


def seat_key(adapter: GameAdapter, seat: Seat) -> str:
    """How the game's orders name a seat (a rider's id, a car's number)."""
    return adapter.seat_key(
        competitor_id=getattr(seat, f"{adapter.seat_field}_id"), number=seat.number
    )


def seat_name(adapter: GameAdapter, seat: Seat) -> str:
    """How a message names a seat: the rider, or the car's number and driver ("#44 Name")."""
    return adapter.seat_label(
        Starter(
            team_id=seat.team_id,
            team="",
            competitor_id=getattr(seat, f"{adapter.seat_field}_id"),
            key=seat_key(adapter, seat),
            number=seat.number or seat.pk,
            name=seat.name,
        )
    )


def _shown(field: forms.Field, value: Any) -> str:
    """A stored order's value as the orders form words it."""
    if isinstance(field, forms.BooleanField):
        return "✓" if value else ""
    if value is None or value == "":
        return ""
    if isinstance(field, forms.ChoiceField):
        # After the form's __init__ a ChoiceField's choices are a plain list of pairs.
        labels: dict[Any, Any] = dict(field.choices)  # type: ignore[arg-type]
        return str(labels.get(value, value))
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def orders_summary(
    *,
    adapter: GameAdapter,
    seats: Sequence[Seat],
    stored: dict[str, dict[str, Any]],
    round: Round,
) -> list[tuple[Seat, list[tuple[str, str]]]]:
    """The stored orders of a team (Orders.data) for the page that shows them: per starter
    seat that has orders, (label, value) pairs in the fields of the season's ruleset."""
    form = SeatOrdersForm(adapter=adapter, seats=seats, current=stored, round=round)
    keys = [key for _seat, key in form.seats]
    return [row for row, key in zip(form.summary(), keys, strict=True) if key in stored]


class GameSettingsForm(forms.Form):
    """Every setting of the season's ruleset, generated from its settings spec by its adapter
    (bounds, defaults and help text from the engine)."""

    #: The runs of the odds (docs/odds.md): the league's, not the game's, and never frozen (the
    #: results do not depend on it).
    ODDS_FIELD = "odds_runs"

    def __init__(
        self,
        *args: Any,
        adapter: Any,
        values: dict[str, Any],
        odds_runs: int = ODDS_RUNS_DEFAULT,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields.update(adapter.settings_fields(values))
        bounds = _("The odds take %(low)s to %(high)s runs.") % {
            "low": ODDS_RUNS_MIN,
            "high": f"{ODDS_RUNS_MAX:,}",
        }
        self.fields[self.ODDS_FIELD] = forms.IntegerField(
            label=_("Runs of the odds"),
            min_value=ODDS_RUNS_MIN,
            max_value=ODDS_RUNS_MAX,
            # Left empty: unchanged (a form posted without it keeps the league's number).
            required=False,
            initial=odds_runs,
            help_text=_(
                "How many times a round is simulated when a member asks for its odds "
                "(%(low)s to %(high)s; more runs, steadier chances, longer to count)."
            )
            % {"low": ODDS_RUNS_MIN, "high": f"{ODDS_RUNS_MAX:,}"},
            error_messages={"min_value": bounds, "max_value": bounds},
        )

    def fieldsets(self) -> list[tuple[Any, list[forms.BoundField]]]:
        game = [self[name] for name in self.fields if name != self.ODDS_FIELD]
        return [(_("Game settings"), game), (_("Odds"), [self[self.ODDS_FIELD]])]

    def freeze(self, reason: str) -> None:
        for name, field in self.fields.items():
            if name != self.ODDS_FIELD:
                field.disabled = True
                field.help_text = reason


class ChatHookForm(forms.Form):
    """A season's new chat webhook (season.services.chat_hooks checks the address again, and
    at every post)."""

    kind = forms.ChoiceField(label=_("Kind"), choices=ChatHook.Kind.choices)
    url = forms.CharField(
        label=_("Webhook address"),
        max_length=CHAT_URL_MAX,
        widget=forms.URLInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
        help_text=_(
            "Discord: the channel's settings, Integrations, Webhooks, “Copy Webhook URL” "
            "(https://discord.com/api/webhooks/…). Slack: an app's Incoming Webhooks "
            "(https://hooks.slack.com/services/…). Keep it secret: whoever has it can post to "
            "the channel."
        ),
    )
    on_round_open = forms.BooleanField(
        label=_("A round opens for orders"), required=False, initial=True
    )
    on_reminder = forms.BooleanField(
        label=_("A reminder, two hours before the deadline"), required=False, initial=True
    )
    on_results = forms.BooleanField(label=_("Results published"), required=False, initial=True)
    on_race_end = forms.BooleanField(
        label=_("The end of a race or of the season"), required=False, initial=True
    )
    on_comment = forms.BooleanField(label=_("Comments"), required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        kind, url = cleaned.get("kind"), cleaned.get("url")
        if kind and url:
            try:
                cleaned["url"] = chat_hooks.hook_url_check(kind=kind, url=url)
            except chat_hooks.HookRefused as refused:
                self.add_error(refused.field or None, refused.message)
        return cleaned

    def events(self) -> dict[str, bool]:
        return {name: bool(self.cleaned_data.get(name)) for name in chat_hooks.EVENT_FIELDS}
