"""The stage race's tables of a league season's pages (races.adapters.base.CyclingAdapter's
league parts): each sorts, paginates and exports CSV (django-tables2). Their links lead to the
season's pages by URL name; the season is a plain argument (races imports no season)."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from races.formatting import clock, gap
from races.league.reasons import reason_words
from races.models import StageResult

#: A column of numbers: cells and header right-aligned (site.css), so the figures line up under
#: their heading.
NUM = {"td": {"class": "num"}, "th": {"class": "num"}}
#: A minor column: hidden below 600 px (site.css), so that a phone shows the rank, the name, the
#: time or points and the gap of a results or standings table without scrolling it (issue 29).
MINOR = {"td": {"class": "minor"}, "th": {"class": "minor"}}
NUM_MINOR = {"td": {"class": "num minor"}, "th": {"class": "num minor"}}
#: A column of long names that may wrap, so a table fits its page on a desktop (the calendar's
#: "Status" was clipped at 1366 px).
WRAP = {"td": {"class": "wrap"}}


class SeasonLinksMixin:
    """Links to the season's rider and team pages, and team names from one dict."""

    def __init__(self, *args, season, team_names: dict[int, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season
        self.team_names = team_names

    def rider_link(self, rider) -> str:
        url = reverse("season-rider", args=[self.season.slug, rider.pk])
        return format_html('<a href="{}">{}</a>', url, rider.name)

    def team_link(self, team_id: int | None) -> str:
        if team_id is None or team_id not in self.team_names:
            return ""
        url = reverse("season-team", args=[self.season.slug, team_id])
        return format_html('<a href="{}">{}</a>', url, self.team_names[team_id])


class StageResultTable(SeasonLinksMixin, tables.Table):
    rank = tables.Column(verbose_name="#", attrs=NUM)
    rider = tables.Column(verbose_name=_("Rider"), order_by="rider__name")
    team = tables.Column(verbose_name=_("Team"), accessor="entry_team_id", attrs=MINOR)
    time_seconds = tables.Column(verbose_name=_("Time"), attrs=NUM)
    gap_seconds = tables.Column(verbose_name=_("Gap"), attrs=NUM)
    bonus_seconds = tables.Column(verbose_name=_("Bonus"), attrs=NUM_MINOR)
    status = tables.Column(verbose_name=_("Status"), attrs=MINOR)
    crash_count = tables.Column(
        verbose_name=_("Crashes"), accessor="crashes", orderable=False, attrs=NUM_MINOR
    )

    class Meta:
        model = StageResult
        fields = ("rank", "rider", "team", "time_seconds", "gap_seconds", "bonus_seconds", "status")
        attrs = {"class": "data"}
        empty_text = _("No results yet.")

    def __init__(self, *args, gaps_by_rank: dict[int, int], **kwargs):
        super().__init__(*args, **kwargs)
        self.gaps_by_rank = gaps_by_rank

    def render_rider(self, value):
        return self.rider_link(value)

    def render_team(self, value):
        return self.team_link(value)

    def render_time_seconds(self, value, record):
        return clock(value) if record.rank == 1 else ""

    def render_gap_seconds(self, value, record):
        # "s.t." (same time) when the rider has the time of the rider placed just ahead.
        previous = self.gaps_by_rank.get(record.rank - 1) if record.rank else None
        if record.rank == 1:
            return ""
        if previous is not None and previous == value:
            return _("s.t.")
        return gap(value) or _("s.t.")

    def render_bonus_seconds(self, value):
        return f"{value}″" if value else ""

    def render_status(self, value, record):
        if record.status == StageResult.Status.FINISHED:
            return ""
        label = record.get_status_display()
        reason = reason_words(status=record.status, reason=record.status_reason)
        if reason:
            return format_html('<span title="{}">{}</span>', reason, label)
        return label

    def render_crash_count(self, value):
        return len(value) if value else ""

    def value_rider(self, value):
        return value.name

    def value_team(self, value):
        return self.team_names.get(value, "")

    def value_time_seconds(self, value):
        return value

    def value_gap_seconds(self, value):
        return value

    def value_bonus_seconds(self, value):
        return value

    def value_status(self, value):
        return value

    def value_crash_count(self, value):
        return len(value) if value else 0


class DiceTable(tables.Table):
    turn = tables.Column(verbose_name=_("Turn"), attrs=NUM)
    unit = tables.Column(verbose_name=_("Unit"), attrs=NUM)
    rider = tables.Column(verbose_name=_("Rider"))
    rule = tables.Column(verbose_name=_("Rule"))
    die = tables.Column(verbose_name=_("Die"))
    face = tables.Column(verbose_name=_("Face"))

    class Meta:
        attrs = {"class": "data"}
        empty_text = _("No dice were rolled.")

    def __init__(self, *args, rule_link=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.rule_link = rule_link

    def render_rule(self, value):
        # The code explained on hover and linked to the ruleset's "How it works" page (the
        # season's link, given as a plain function: races names no page of the season's rules).
        return self.rule_link(value) if self.rule_link else value


class CalendarTable(tables.Table):
    number = tables.Column(verbose_name="#", attrs=NUM)
    date = tables.DateColumn(
        verbose_name=_("Date"), accessor="stage__date", format="SHORT_DATE_FORMAT"
    )
    route = tables.Column(
        verbose_name=_("Route"), accessor="stage__start", order_by="stage__start", attrs=WRAP
    )
    stage_type = tables.Column(verbose_name=_("Type"), accessor="stage__stage_type")
    distance = tables.Column(verbose_name="km", accessor="stage__distance_km", attrs=NUM)
    orders_deadline = tables.DateTimeColumn(
        verbose_name=_("Orders deadline"), format="SHORT_DATETIME_FORMAT"
    )
    status = tables.Column(verbose_name=_("Status"))

    class Meta:
        attrs = {"class": "data"}
        empty_text = _("No stage.")

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season

    def render_route(self, record):
        url = reverse("season-stage", args=[self.season.slug, record.number])
        return format_html('<a href="{}">{} → {}</a>', url, record.stage.start, record.stage.finish)

    def render_stage_type(self, record):
        return record.stage.get_stage_type_display().capitalize()

    def render_status(self, record):
        return format_html(
            '<span class="status status-{}">{}</span>',
            record.status,
            record.get_status_display().capitalize(),
        )

    def value_route(self, record):
        return f"{record.stage.start} – {record.stage.finish}"

    def value_status(self, record):
        return record.status


class RosterTable(tables.Table):
    bib = tables.Column(verbose_name=_("Bib"), attrs=NUM_MINOR)
    rider = tables.Column(verbose_name=_("Rider"), accessor="rider__name")
    role = tables.Column(verbose_name=_("Role"), attrs=MINOR)
    gc_rank = tables.Column(verbose_name=_("GC"), attrs=NUM)
    gc_gap = tables.Column(verbose_name=_("Gap"), attrs=NUM)

    class Meta:
        attrs = {"class": "data"}
        empty_text = _("No rider yet.")

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season

    def render_rider(self, value, record):
        url = reverse("season-rider", args=[self.season.slug, record["rider_id"]])
        return format_html('<a href="{}">{}</a>', url, value)

    def render_gc_gap(self, value):
        return gap(value)
