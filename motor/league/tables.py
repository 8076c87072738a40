"""The tables of a league season's championship that the season's own pages show (the
organiser's calendar). Rows are the season's rounds (season.models.Round, read through their
attributes: motor imports no season); links are the season's URL names."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from motor.tables import NUM


class LeagueCalendarTable(tables.Table):
    """The season's Grands Prix with their orders deadlines and status, sortable and exported
    as CSV (the organiser's dashboard)."""

    number = tables.Column(verbose_name="#", attrs=NUM)
    date = tables.DateColumn(
        verbose_name=_("Date"), accessor="grand_prix__date", format="SHORT_DATE_FORMAT"
    )
    grand_prix = tables.Column(
        verbose_name=_("Grand Prix"), accessor="grand_prix__name", order_by="grand_prix__name"
    )
    circuit = tables.Column(verbose_name=_("Circuit"), accessor="grand_prix__circuit")
    laps = tables.Column(verbose_name=_("Laps"), accessor="grand_prix__laps", attrs=NUM)
    orders_deadline = tables.DateTimeColumn(
        verbose_name=_("Orders deadline"), format="SHORT_DATETIME_FORMAT"
    )
    status = tables.Column(verbose_name=_("Status"))

    class Meta:
        attrs = {"class": "data", "id": "calendar-table"}
        empty_text = _("No Grand Prix in this championship.")

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season

    def render_grand_prix(self, value, record):
        url = reverse("season-stage", args=[self.season.slug, record.number])
        return format_html('<a href="{}">{}</a>', url, value)

    def render_status(self, record):
        return format_html(
            '<span class="status status-{}">{}</span>',
            record.status,
            record.get_status_display().capitalize(),
        )

    def value_grand_prix(self, value):
        return value

    def value_status(self, record):
        return record.status
