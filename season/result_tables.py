"""The tables of the end-of-race pages (season/views/results.py): the players' ranking and the
abandons, sortable and exported like the other tables (season/tables.py)."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from season.tables import NUM


class PlayersRankingTable(tables.Table):
    # The ranking is its own order (ties share a place): the place itself does not sort.
    rank = tables.Column(verbose_name="#", attrs=NUM, orderable=False)
    player = tables.Column(verbose_name=_("Player"))
    team = tables.Column(verbose_name=_("Team"))
    score = tables.Column(verbose_name=_("Time"), attrs=NUM, orderable=False)
    behind = tables.Column(verbose_name=_("Gap"), attrs=NUM, orderable=False)

    class Meta:
        attrs = {"class": "data"}
        empty_text = _("No player's team yet.")

    def __init__(self, *args, season, columns=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season
        # The headings this game says otherwise (the adapter's ranking_columns).
        for name, heading in (columns or {}).items():
            self.columns[name].column.verbose_name = heading

    def render_rank(self, value):
        return value if value is not None else "—"

    def value_rank(self, value):
        return value if value is not None else ""

    def render_team(self, value, record):
        url = reverse("season-team", args=[self.season.slug, record.team_id])
        return format_html('<a href="{}">{}</a>', url, value)


class AbandonTable(tables.Table):
    stage = tables.Column(verbose_name=_("Stage"), attrs=NUM)
    rider = tables.Column(verbose_name=_("Rider"))
    team = tables.Column(verbose_name=_("Team"))
    status = tables.Column(verbose_name=_("Status"))
    reason = tables.Column(verbose_name=_("Reason"), empty_values=())

    class Meta:
        attrs = {"class": "data"}
        empty_text = _("No rider has left the race.")

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season

    def render_stage(self, value):
        url = reverse("season-stage", args=[self.season.slug, value])
        return format_html('<a href="{}">{}</a>', url, value)

    def render_rider(self, value, record):
        url = reverse("season-rider", args=[self.season.slug, record.rider_id])
        return format_html('<a href="{}">{}</a>', url, value)

    def render_team(self, value, record):
        if record.team_id is None:
            return value
        url = reverse("season-team", args=[self.season.slug, record.team_id])
        return format_html('<a href="{}">{}</a>', url, value)

    def render_reason(self, value):
        # In words already (races.league.reasons), as the stage page tells them.
        return value or "—"

    def value_reason(self, value):
        return value or ""


class SeasonStandingsTable(tables.Table):
    """The standings across the season (season.services.season_standings): a players' team or
    a rider a line, its points, race wins and the points of each event of the calendar."""

    rank = tables.Column(verbose_name="#", attrs=NUM, orderable=False)
    name = tables.Column(verbose_name=_("Name"), orderable=False)
    points = tables.Column(verbose_name=_("Points"), attrs=NUM, orderable=False)
    wins = tables.Column(verbose_name=_("Race wins"), attrs=NUM, orderable=False)

    class Meta:
        attrs = {"class": "data"}
        empty_text = _("No standings yet: they start with the first results.")

    def __init__(self, lines, *, season, events, **kwargs):
        """``lines``: SeasonStanding rows; ``events``: the calendar's (number, name) raced."""
        records = [
            {
                "rank": line.rank,
                "name": line.name,
                "team_id": line.team_id,
                "points": f"{line.points.normalize():f}",
                "wins": line.wins,
            }
            | {f"event_{n}": line.detail.get("races", {}).get(str(n), "") for n, _ in events}
            for line in lines
        ]
        extra = [
            (f"event_{n}", tables.Column(verbose_name=name, attrs=NUM, orderable=False))
            for n, name in events
        ]
        super().__init__(records, extra_columns=extra, **kwargs)
        self.season = season

    def render_name(self, value, record):
        if record["team_id"] is None:
            return value
        url = reverse("season-team", args=[self.season.slug, record["team_id"]])
        return format_html('<a href="{}">{}</a>', url, value)
