"""Tables of the public pages: each sorts, paginates and exports CSV (django-tables2). The
spreadsheet-safe export and `table_configure` come from `tableexport` (shared with the motor
pages) and are re-exported here for the season's views."""

from collections.abc import Mapping, Sequence
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from plugins.formation import PickColumn
from races.league.reasons import reason_words
from races.league.tables import MINOR as MINOR
from races.league.tables import NUM as NUM
from races.league.tables import NUM_MINOR as NUM_MINOR
from races.league.tables import WRAP as WRAP
from races.league.tables import CalendarTable as CalendarTable
from races.league.tables import DiceTable as DiceTable
from races.league.tables import RosterTable as RosterTable
from races.league.tables import SeasonLinksMixin as SeasonLinksMixin
from races.league.tables import StageResultTable as StageResultTable
from races.models import Classification, StageResult, Standing
from riders.templatetags.ratings import rating_html
from season.formatting import clock, gap
from season.round_names import round_name_start
from tableexport import SafeTableExport as SafeTableExport
from tableexport import spreadsheet_safe as spreadsheet_safe
from tableexport import table_configure as table_configure

TIME_CLASSIFICATIONS = {Classification.GENERAL, Classification.YOUTH, Classification.TEAMS}


class StandingTable(SeasonLinksMixin, tables.Table):
    rank = tables.Column(verbose_name="#", attrs=NUM)
    rider = tables.Column(verbose_name=_("Rider"), order_by="rider__name")
    # empty_values=(): a given line of a forked race (no league team) names its real team.
    team = tables.Column(
        verbose_name=_("Team"), accessor="entry_team_id", attrs=MINOR, empty_values=()
    )
    value = tables.Column(verbose_name=_("Total"), attrs=NUM)
    gap = tables.Column(verbose_name=_("Gap"), attrs=NUM)
    # Places gained or lost on the stage (the places after the stage before it, by rider or team).
    move = tables.Column(verbose_name="±", accessor="rank", orderable=False, attrs=NUM_MINOR)

    class Meta:
        model = Standing
        fields = ("rank", "move", "rider", "team", "value", "gap")
        attrs = {"class": "data"}
        empty_text = _("No standings yet: no stage has been resolved.")

    def __init__(self, *args, classification: str, places_before: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.classification = classification
        self.places_before = places_before or {}
        exclude = [] if self.places_before else ["move"]
        if classification == Classification.TEAMS:
            exclude.append("rider")
            # The team is the line's name here: a phone shows it too.
            self.columns["team"].column.attrs = {}
        self.exclude = tuple(exclude)
        if classification not in TIME_CLASSIFICATIONS:
            self.columns["value"].column.verbose_name = _("Points")

    def render_rider(self, value):
        return self.rider_link(value)

    def render_team(self, value, record):
        if value is None:
            return record.team.name if record.team_id else "—"
        return self.team_link(value)

    def _place_before(self, record):
        key = (
            record.entry_team_id if self.classification == Classification.TEAMS else record.rider_id
        )
        return self.places_before.get(key)

    def render_move(self, value, record):
        """Places gained ("▲ 2") or lost ("▼ 1") on the stage, "=" unchanged, "new" for a line the
        stage before did not have; the words for a screen reader, not the arrow alone."""
        before = self._place_before(record)
        if before is None or value is None:
            return format_html('<span class="move move-new">{}</span>', _("new"))
        change = before - value
        if change == 0:
            return format_html(
                '<span class="move" title="{}">=</span>', gettext("same place as before the stage")
            )
        words = (
            ngettext("%(count)d place gained", "%(count)d places gained", change)
            if change > 0
            else ngettext("%(count)d place lost", "%(count)d places lost", -change)
        ) % {"count": abs(change)}
        return format_html(
            '<span class="move move-{}" title="{}"><span aria-hidden="true">{}</span>'
            '<span class="visually-hidden">{}</span></span>',
            "up" if change > 0 else "down",
            words,
            f"▲ {change}" if change > 0 else f"▼ {-change}",
            words,
        )

    def value_move(self, value, record):
        before = self._place_before(record)
        return "" if before is None or value is None else before - value

    def render_value(self, value):
        return clock(value) if self.classification in TIME_CLASSIFICATIONS else value

    def render_gap(self, value):
        if self.classification in TIME_CLASSIFICATIONS:
            return gap(value)
        return f"−{value}" if value else ""

    def value_rider(self, value):
        return value.name

    def value_team(self, value, record):
        if value is None:
            return record.team.name if record.team_id else ""
        return self.team_names.get(value, "")

    def value_value(self, value):
        return value

    def value_gap(self, value):
        return value


class RiderResultTable(tables.Table):
    # The season's round number: a later race's stages run on after the earlier races'.
    stage = tables.Column(verbose_name=_("Stage"), accessor="stage__round__number", attrs=NUM)
    rank = tables.Column(verbose_name=_("Rank"), attrs=NUM)
    gap_seconds = tables.Column(verbose_name=_("Gap"), attrs=NUM)
    gc = tables.Column(
        verbose_name=_("GC after the stage"),
        accessor="stage__round__number",
        orderable=False,
        attrs=NUM,
    )
    status = tables.Column(verbose_name=_("Status"), attrs=MINOR)
    crashes = tables.Column(verbose_name=_("Crashes"), orderable=False, attrs=NUM_MINOR)

    class Meta:
        attrs = {"class": "data"}
        empty_text = _("No stage raced yet.")

    def __init__(self, *args, season, gc_places: dict[int, int | None] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season
        self.gc_places = gc_places or {}

    def render_gc(self, value):
        return self.gc_places.get(value) or "—"

    def value_gc(self, value):
        return self.gc_places.get(value) or ""

    def render_stage(self, value):
        url = reverse("season-stage", args=[self.season.slug, value])
        label = value if self.season.single_event else round_name_start(self.season, value)
        return format_html('<a href="{}">{}</a>', url, label)

    def render_gap_seconds(self, value, record):
        # "s.t." (same time as the winner) for a rider placed after him with no gap.
        if not value and record.rank and record.rank > 1:
            return _("s.t.")
        return gap(value)

    def render_status(self, record):
        if record.status == StageResult.Status.FINISHED:
            return ""
        # An abandon says why, as on the stage page.
        label = record.get_status_display()
        if record.status_reason:
            words = reason_words(status=record.status, reason=record.status_reason)
            return format_html("{} ({})", label, words)
        return label

    def render_crashes(self, value):
        return len(value) if value else ""

    def value_stage(self, value):
        return value

    def value_gap_seconds(self, value):
        return value

    def value_status(self, record):
        return record.status

    def value_crashes(self, value):
        return len(value) if value else 0


class MembersTable(tables.Table):
    user = tables.Column(verbose_name=_("Member"), accessor="user__username")
    role = tables.Column(verbose_name=_("Role"))
    team = tables.Column(verbose_name=_("Team"), accessor="team_name", order_by="team_name")
    seats = tables.Column(verbose_name=_("Riders"), attrs=NUM)
    joined_at = tables.DateColumn(verbose_name=_("Joined"), format="DATE_FORMAT")

    class Meta:
        attrs = {"class": "data"}
        empty_text = _("No member yet.")

    def __init__(self, *args, seats_label=None, **kwargs):
        """``seats_label``: what a team's seats hold ("Riders", "Cars": the game's noun)."""
        super().__init__(*args, **kwargs)
        if seats_label is not None:
            self.columns["seats"].column.verbose_name = seats_label


# --- the draft (issue 17: the board, the pick history and the player's roster, sortable) -----


def _abbr(label: str) -> str:
    return format_html('<abbr title="{}">{}</abbr>', label, label[:3])


class RatingColumn(tables.Column):
    """A rating H..4, sorted by its value (H is -1)."""

    def render(self, value):
        return rating_html(value)

    def value(self, value):
        return "H" if value == -1 else str(value)


def _pick_column(column: PickColumn) -> tables.Column:
    if column.rating:
        return RatingColumn(verbose_name=column.label, attrs=NUM)
    return tables.Column(verbose_name=column.label, attrs=NUM if column.numeric else {})


class DraftBoardTable(tables.Table):
    """What is still free (riders or cars), with the Pick button of the team on turn (disabled,
    with the reason, on those the roster rules forbid it: season.formation.pick_refusal) and
    the wish list's button; the game's own columns after them (plugins.formation.PickColumn).
    Rows are dicts (season.views.player._board_rows)."""

    name = tables.Column(verbose_name=_("Name"))
    pick = tables.Column(verbose_name="", accessor="id", orderable=False, exclude_from_export=True)
    price = tables.Column(verbose_name=_("Price"), attrs=NUM)
    real_team = tables.Column(verbose_name=_("Real team"))
    wish = tables.Column(verbose_name="", accessor="id", orderable=False, exclude_from_export=True)

    class Meta:
        attrs = {"class": "data draft-board"}
        order_by = ("-price", "name")
        # The buttons beside the name, so that a phone shows them without scrolling the table.
        sequence = ("name", "pick", "wish", "price", "real_team", "...")

    def __init__(
        self,
        *args,
        columns: Sequence[PickColumn],
        words: Mapping[str, Any],
        my_turn: bool,
        wish_open: bool,
        **kwargs,
    ):
        extra = [(column.key, _pick_column(column)) for column in columns]
        super().__init__(*args, extra_columns=extra, **kwargs)
        self.my_turn = my_turn
        self.wish_open = wish_open
        self.empty_text = words["board_empty"]
        self.columns["name"].column.verbose_name = words["name"]
        self.columns["real_team"].column.verbose_name = words["real_team"]
        self.columns["pick"].column.verbose_name = format_html(
            '<span class="visually-hidden">{}</span>', gettext("Pick")
        )
        self.columns["wish"].column.verbose_name = format_html(
            '<span class="visually-hidden">{}</span>', gettext("Wish list")
        )
        # The CSV export names each rating in full, the page abbreviates it.
        self.plain_headers = {}
        for column in columns:
            if column.rating:
                self.columns[column.key].column.verbose_name = _abbr(column.label)
                self.plain_headers[str(_abbr(column.label))] = column.label
        if not wish_open:
            self.exclude = ("wish",)

    def render_pick(self, value, record):
        refusal = record["refusal"]
        if refusal and not self.my_turn:
            return format_html('<span class="refusal">{}</span>', refusal)
        if refusal:
            # The reason in words beside the disabled button, not only in a tooltip.
            return format_html(
                '<button type="submit" class="button small" disabled aria-describedby="why-{}">'
                '{}</button> <span class="refusal" id="why-{}">{}</span>',
                value,
                gettext("Pick"),
                value,
                refusal,
            )
        if not self.my_turn:
            return ""
        return format_html(
            '<button type="submit" name="pick" value="{}" class="button small">{}'
            '<span class="visually-hidden"> {}</span></button>',
            value,
            gettext("Pick"),
            record["name"],
        )

    def as_values(self, exclude_columns=None):
        values = super().as_values(exclude_columns)
        header = next(values)
        yield [self.plain_headers.get(str(h), h) for h in header]
        yield from values

    def render_wish(self, value, record):
        if record["wished"]:
            return format_html('<span class="muted">{}</span>', gettext("On your wish list"))
        return format_html(
            '<button type="submit" name="add" value="{}" formaction="{}" '
            'class="button small secondary">{}<span class="visually-hidden"> {}</span></button>',
            value,
            record["wish_url"],
            gettext("Wish"),
            record["name"],
        )


class DraftHistoryTable(tables.Table):
    """Every pick of the draft: the automatic ones marked (the clock's, the organiser's)."""

    number = tables.Column(verbose_name=_("Pick"), attrs=NUM)
    round = tables.Column(verbose_name=_("Round"), attrs=NUM)
    team = tables.Column(verbose_name=_("Team"))
    player = tables.Column(verbose_name=_("Player"))
    name = tables.Column(verbose_name=_("Name"))
    real_team = tables.Column(verbose_name=_("Real team"))
    picked_at = tables.DateTimeColumn(verbose_name=_("Time"), format="SHORT_DATETIME_FORMAT")
    source = tables.Column(verbose_name=_("Made by"))

    class Meta:
        attrs = {"class": "data"}
        empty_text = _("No pick yet.")
        order_by = ("-number",)

    def __init__(self, *args, words: Mapping[str, Any], **kwargs):
        super().__init__(*args, **kwargs)
        self.columns["name"].column.verbose_name = words["name"]
        self.columns["real_team"].column.verbose_name = words["real_team"]

    def render_source(self, value, record):
        if value == "player":
            return record["source_label"]
        return format_html('<span class="badge auto">{}</span>', record["source_label"])

    def value_source(self, value, record):
        return record["source_label"]


class TeamRosterTable(tables.Table):
    """The player's own roster on his team page: riders or cars, with their roles where the
    game's seats have them (plugins.formation.TeamFormation.seat_roles)."""

    number = tables.Column(verbose_name=_("Number"), attrs=NUM)
    name = tables.Column(verbose_name=_("Name"))
    role = tables.Column(verbose_name=_("Role"))
    price = tables.Column(verbose_name=_("Price"), attrs=NUM)
    real_team = tables.Column(verbose_name=_("Real team"))

    class Meta:
        attrs = {"class": "data"}
        order_by = ("number", "name")

    def __init__(self, *args, words: Mapping[str, Any], roles: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.empty_text = words["none_yet"]
        for name in ("number", "name", "real_team"):
            self.columns[name].column.verbose_name = words[name]
        if not roles:
            self.exclude = ("role",)
