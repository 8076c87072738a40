"""The links of a championship's pages served under a league season (``/seasons/<slug>/``):
the motor pages (motor.views.pages) take them in place of a real championship's links. The
season is a plain argument (motor imports no season); the URLs are the season's, by name."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.http import urlencode

from motor.views.links import ChampionshipLinks


class SeasonLinks(ChampionshipLinks):
    """The championship pages of a league season of Grands Prix."""

    def __init__(self, season: Any) -> None:
        super().__init__(season.championship)
        self.season = season

    def _season_url(self, name: str, *args: object, query: dict[str, int] | None = None) -> str:
        url = reverse(name, args=[self.season.slug, *args])
        return f"{url}?{urlencode(query)}" if query else url

    def home(self) -> tuple[str, str]:
        return self._season_url("season-detail"), self.season.name

    def calendar(self) -> str:
        return self._season_url("season-detail")

    def round(self, number: int) -> str:
        return self._season_url("season-grand-prix", number)

    def standings(self, table: str = "drivers", after: int | None = None) -> str:
        return self._season_url(
            "season-motor-standings", table, query={"after": after} if after else None
        )

    def what_if(self, table: str = "drivers") -> str:
        return self._season_url("season-motor-what-if", table)

    def driver(self, slug: str) -> str:
        return self._season_url("season-motor-driver", slug)

    def constructor(self, slug: str) -> str:
        return self._season_url("season-motor-constructor", slug)
