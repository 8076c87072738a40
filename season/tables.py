import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from races.models import Classification, Standing
from season.formatting import clock, gap

TIME_CLASSIFICATIONS = {Classification.GENERAL, Classification.YOUTH, Classification.TEAMS}


class StandingTable(tables.Table):
    rank = tables.Column(verbose_name="#", attrs={"td": {"class": "num"}})
    rider = tables.Column(verbose_name=_("Rider"), accessor="rider__name", order_by="rider__name")
    team = tables.Column(verbose_name=_("Team"), accessor="entry_team_id", orderable=False)
    value = tables.Column(verbose_name=_("Total"), attrs={"td": {"class": "num"}})
    gap = tables.Column(verbose_name=_("Gap"), attrs={"td": {"class": "num"}})

    class Meta:
        model = Standing
        fields = ("rank", "rider", "team", "value", "gap")
        attrs = {"class": "data"}
        empty_text = _("No standings yet: no stage has been resolved.")

    def __init__(self, *args, classification: str, team_names: dict[int, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.classification = classification
        self.team_names = team_names
        if classification == Classification.TEAMS:
            self.exclude = ("rider",)
        if classification not in TIME_CLASSIFICATIONS:
            self.columns["value"].column.verbose_name = _("Points")

    def render_team(self, value):
        return self.team_names.get(value, "")

    def render_value(self, value):
        return clock(value) if self.classification in TIME_CLASSIFICATIONS else value

    def render_gap(self, value):
        if self.classification in TIME_CLASSIFICATIONS:
            return gap(value)
        return f"−{value}" if value else ""

    def value_value(self, value):  # CSV export keeps raw numbers
        return value

    def value_gap(self, value):
        return value

    def value_team(self, value):
        return self.team_names.get(value, "")
