"""Tables of the motor pages: each sorts, paginates and exports CSV (django-tables2). Rows are
plain dicts built by ``motor.views.data`` (one query a table), links come from the page's
``links`` (``motor.views.links``), so a league season can show the same tables under its URLs."""

from __future__ import annotations

from decimal import Decimal

import django_tables2 as tables
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

import tableexport

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}
#: A minor column: hidden below 600 px (site.css), so that a phone shows the place, the name,
#: the time or points and the gap without scrolling the table (issue 29).
MINOR = {"td": {"class": "minor"}, "th": {"class": "minor"}}
NUM_MINOR = {"td": {"class": "num minor"}, "th": {"class": "num minor"}}
#: A minor column of long words ("retired (out of fuel, lap 3)") that wraps on a desktop, so
#: the points stay on screen at 1366 px in French too.
MINOR_WRAP = {"td": {"class": "minor wrap"}, "th": {"class": "minor"}}
#: The motor tables hold at most a season's Grands Prix or a grid's cars: a page each.
PER_PAGE = 100


def table_configure(request: HttpRequest, table, filename: str) -> HttpResponse | None:
    """Sort and paginate a table; its CSV export (spreadsheet-safe) when asked for."""
    return tableexport.table_configure(request, table, filename, per_page=PER_PAGE)


def points_text(points: Decimal | float | int | None) -> str:
    """9 for 9.00, 4.5 for 4.50, '' for None."""
    if points is None:
        return ""
    return f"{Decimal(str(points)).normalize():f}"


def race_time(milliseconds: int | None) -> str:
    """1:50:41.330 for a race time in milliseconds."""
    if milliseconds is None:
        return ""
    seconds, ms = divmod(int(milliseconds), 1000)
    minutes, s = divmod(seconds, 60)
    h, m = divmod(minutes, 60)
    return f"{h}:{m:02d}:{s:02d}.{ms:03d}" if h else f"{m}:{s:02d}.{ms:03d}"


class LinkedTable(tables.Table):
    """A table whose driver / constructor / round cells link through ``links``; the CSV
    export has the plain names."""

    def __init__(self, *args, links, **kwargs):
        kwargs.setdefault("template_name", "motor/table.html")
        super().__init__(*args, **kwargs)
        self.links = links

    def render_driver(self, value, record):
        return format_html('<a href="{}">{}</a>', self.links.driver(record["driver_slug"]), value)

    def render_constructor(self, value, record):
        return format_html(
            '<a href="{}">{}</a>', self.links.constructor(record["constructor_slug"]), value
        )

    def render_grand_prix(self, value, record):
        return format_html('<a href="{}">{}</a>', self.links.round(record["round"]), value)

    def render_points(self, value):
        return points_text(value)

    def value_points(self, value):
        return points_text(value)

    # The CSV export has the names, not the links.
    def value_driver(self, value):
        return value

    def value_constructor(self, value):
        return value

    def value_grand_prix(self, value):
        return value

    def value_name(self, value):
        return value

    def value_winner(self, value):
        return value

    def value_winner_constructor(self, value):
        return value


class CalendarTable(LinkedTable):
    round = tables.Column(verbose_name=_("Round"), attrs=NUM)
    date = tables.DateColumn(verbose_name=_("Date"), format="j M Y")
    grand_prix = tables.Column(verbose_name=_("Grand Prix"))
    circuit = tables.Column(verbose_name=_("Circuit"))
    laps = tables.Column(verbose_name=_("Laps"), attrs=NUM)
    winner = tables.Column(verbose_name=_("Winner"), default="")
    winner_constructor = tables.Column(verbose_name=_("Constructor"), default="")

    class Meta:
        attrs = {"class": "data"}
        orderable = False
        empty_text = _("No Grand Prix in this championship.")

    def render_winner(self, value, record):
        return format_html('<a href="{}">{}</a>', self.links.driver(record["winner_slug"]), value)

    def render_winner_constructor(self, value, record):
        return format_html(
            '<a href="{}">{}</a>', self.links.constructor(record["winner_constructor_slug"]), value
        )


class ResultTable(LinkedTable):
    position = tables.Column(verbose_name=_("Pos."), attrs=NUM, default="")
    number = tables.Column(verbose_name=_("No."), attrs=NUM_MINOR, default="")
    driver = tables.Column(verbose_name=_("Driver"))
    constructor = tables.Column(verbose_name=_("Constructor"), attrs=MINOR)
    laps = tables.Column(verbose_name=_("Laps"), attrs=NUM_MINOR, default="")
    time = tables.Column(verbose_name=_("Time / gap"), attrs=NUM, default="")
    status = tables.Column(verbose_name=_("Status"), attrs=MINOR_WRAP, default="")
    grid = tables.Column(verbose_name=_("Grid"), attrs=NUM_MINOR, default="")
    pit_stops = tables.Column(verbose_name=_("Pit stops"), attrs=NUM_MINOR, default="")
    points = tables.Column(verbose_name=_("Points"), attrs=NUM)

    class Meta:
        attrs = {"class": "data"}
        orderable = False
        empty_text = _("No results yet.")


class GridTable(LinkedTable):
    grid = tables.Column(verbose_name=_("Grid"), attrs=NUM, default="")
    number = tables.Column(verbose_name=_("No."), attrs=NUM_MINOR, default="")
    driver = tables.Column(verbose_name=_("Driver"))
    constructor = tables.Column(verbose_name=_("Constructor"), attrs=MINOR)
    qualifying = tables.Column(verbose_name=_("Qualifying"), default="")

    class Meta:
        attrs = {"class": "data"}
        orderable = False
        empty_text = _("No grid.")


class RetirementTable(LinkedTable):
    number = tables.Column(verbose_name=_("No."), attrs=NUM_MINOR, default="")
    driver = tables.Column(verbose_name=_("Driver"))
    constructor = tables.Column(verbose_name=_("Constructor"), attrs=MINOR)
    lap = tables.Column(verbose_name=_("Lap"), attrs=NUM, default="")
    reason = tables.Column(verbose_name=_("Reason"), default="")
    classified = tables.Column(verbose_name=_("Classified"), default="")

    class Meta:
        attrs = {"class": "data"}
        orderable = False
        empty_text = _("No retirement.")


class PitStopTable(LinkedTable):
    number = tables.Column(verbose_name=_("No."), attrs=NUM_MINOR, default="")
    driver = tables.Column(verbose_name=_("Driver"))
    constructor = tables.Column(verbose_name=_("Constructor"), attrs=MINOR)
    stops = tables.Column(verbose_name=_("Pit stops"), attrs=NUM)
    laps = tables.Column(verbose_name=_("On laps"), default="")

    class Meta:
        attrs = {"class": "data"}
        orderable = False
        empty_text = _("No pit stop.")


class StandingTable(LinkedTable):
    position = tables.Column(verbose_name=_("Pos."), attrs=NUM)
    name = tables.Column(verbose_name=_("Name"))
    points = tables.Column(verbose_name=_("Points"), attrs=NUM)
    wins = tables.Column(verbose_name=_("Wins"), attrs=NUM_MINOR)
    gap = tables.Column(verbose_name=_("Gap"), attrs=NUM, default="")

    class Meta:
        attrs = {"class": "data"}
        orderable = False
        empty_text = _("No standings yet.")

    def __init__(self, *args, table: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.table_kind = table
        self.columns["name"].column.verbose_name = (
            _("Driver") if table == "drivers" else _("Constructor")
        )

    def render_name(self, value, record):
        url = (
            self.links.driver(record["slug"])
            if self.table_kind == "drivers"
            else self.links.constructor(record["slug"])
        )
        return format_html('<a href="{}">{}</a>', url, value)

    def render_gap(self, value):
        return f"−{points_text(value)}" if value else ""

    def value_gap(self, value):
        return points_text(value) if value else ""


class WhatIfTable(LinkedTable):
    """The final table under every points system, side by side; columns made per system."""

    name = tables.Column(verbose_name=_("Name"))

    class Meta:
        attrs = {"class": "data what-if"}
        orderable = False
        empty_text = _("No results to score.")

    def __init__(self, rows, *, systems: list[tuple[str, str]], table: str, **kwargs):
        extra = []
        for slug, label in systems:
            extra.append(
                (f"pos_{slug}", tables.Column(verbose_name=f"{label} #", attrs=NUM, default=""))
            )
            extra.append(
                (f"pts_{slug}", tables.Column(verbose_name=f"{label} pts", attrs=NUM, default=""))
            )
        super().__init__(rows, extra_columns=extra, **kwargs)
        self.table_kind = table
        self.columns["name"].column.verbose_name = (
            _("Driver") if table == "drivers" else _("Constructor")
        )

    def render_name(self, value, record):
        url = (
            self.links.driver(record["slug"])
            if self.table_kind == "drivers"
            else self.links.constructor(record["slug"])
        )
        return format_html('<a href="{}">{}</a>', url, value)


class DriverResultTable(LinkedTable):
    round = tables.Column(verbose_name=_("Round"), attrs=NUM)
    grand_prix = tables.Column(verbose_name=_("Grand Prix"))
    constructor = tables.Column(verbose_name=_("Constructor"), attrs=MINOR)
    grid = tables.Column(verbose_name=_("Grid"), attrs=NUM_MINOR, default="")
    result = tables.Column(verbose_name=_("Result"), default="")
    points = tables.Column(verbose_name=_("Points"), attrs=NUM)
    standing = tables.Column(verbose_name=_("Standing"), attrs=NUM_MINOR, default="")
    total = tables.Column(verbose_name=_("Total"), attrs=NUM, default="")

    class Meta:
        attrs = {"class": "data"}
        orderable = False
        empty_text = _("No results.")

    def render_total(self, value):
        return points_text(value)

    def value_total(self, value):
        return points_text(value)


class ConstructorResultTable(LinkedTable):
    round = tables.Column(verbose_name=_("Round"), attrs=NUM)
    grand_prix = tables.Column(verbose_name=_("Grand Prix"))
    cars = tables.Column(verbose_name=_("Cars"), attrs=MINOR, default="")
    points = tables.Column(verbose_name=_("Points"), attrs=NUM)
    standing = tables.Column(verbose_name=_("Standing"), attrs=MINOR, default="")

    class Meta:
        attrs = {"class": "data"}
        orderable = False
        empty_text = _("No results.")

    def render_cars(self, value):
        return format_html_join(
            ", ", '<a href="{}">{}</a> {}', ((self.links.driver(s), n, r) for s, n, r in value)
        )

    def value_cars(self, value):
        return ", ".join(f"{n} {r}" for _s, n, r in value)
