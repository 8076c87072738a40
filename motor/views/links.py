"""Where the motor pages link to. A page takes a ``links`` object; the motor app's own URLs
are :class:`ChampionshipLinks`, and a league season passes a subclass naming its URLs."""

from __future__ import annotations

from django.urls import reverse
from django.utils.http import urlencode

from motor.models import Championship


class ChampionshipLinks:
    """The URLs of one championship's pages under ``/championships/<slug>/``."""

    def __init__(self, championship: Championship) -> None:
        self.championship = championship
        self.slug = championship.slug

    def _url(self, name: str, *args: object, query: dict[str, int] | None = None) -> str:
        url = reverse(name, args=[self.slug, *args])
        return f"{url}?{urlencode(query)}" if query else url

    def home(self) -> tuple[str, str]:
        """The page the crumbs lead back to: (url, label)."""
        return self._url("motor-championship"), self.championship.name

    def calendar(self) -> str:
        return self._url("motor-championship")

    def round(self, number: int) -> str:
        return self._url("motor-round", number)

    def standings(self, table: str = "drivers", after: int | None = None) -> str:
        return self._url("motor-standings", table, query={"after": after} if after else None)

    def what_if(self, table: str = "drivers") -> str:
        return self._url("motor-what-if", table)

    def driver(self, slug: str) -> str:
        return self._url("motor-driver", slug)

    def constructor(self, slug: str) -> str:
        return self._url("motor-constructor", slug)
