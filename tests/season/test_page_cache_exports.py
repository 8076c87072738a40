"""The CSV exports of the cached pages (issue 18): an export is answered by the page's own
build on every request, never kept, and never answered in place of the page or the page in its
place, for the cycling and the motor season pages alike."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from season.demo import MOTOR_DEMO_SLUG, demo_load, motor_demo_load
from season.models import Round
from season.services import lifecycle
from season.services.resolution import round_resolve

pytestmark = pytest.mark.django_db


def _resolve(season, number):
    round = Round.objects.get(season=season, number=number)
    lifecycle.rounds_force_lock(season=season, numbers=[number])
    round_resolve(round_id=round.pk)


@pytest.fixture
def both_seasons(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()
    _resolve(demo_load(), 1)
    _resolve(motor_demo_load(), 1)


CACHED_TABLE_PAGES = [
    reverse("season-detail", args=["demo"]),
    reverse("season-standings", args=["demo", "general"]),
    reverse("season-players", args=["demo"]),
    reverse("season-table", args=["demo", "players"]),
    reverse("season-motor-standings", args=[MOTOR_DEMO_SLUG, "drivers"]),
    reverse("season-grand-prix", args=[MOTOR_DEMO_SLUG, 1]) + "?_table=results-",
]
TABLE_PAGES = [
    *CACHED_TABLE_PAGES,
    reverse("season-stage", args=["demo", 1]),
    reverse("season-abandons", args=["demo"]),
    reverse("season-table", args=["demo", "riders"]),
    reverse("season-standings", args=["demo", "points"]),
    reverse("season-motor-standings", args=[MOTOR_DEMO_SLUG, "constructors"]),
    reverse("season-grand-prix", args=[MOTOR_DEMO_SLUG, 1]) + "?_table=grid-",
]


@pytest.mark.parametrize("url", TABLE_PAGES)
def test_a_table_exports_as_csv_or_json_in_plain_text_and_refuses_other_formats(
    client, both_seasons, url
):
    joiner = "&" if "?" in url else "?"
    for unknown in ("ods", "xls", "yaml", "xlsx", "xyz", ""):
        refused = client.get(f"{url}{joiner}_export={unknown}")
        assert refused.status_code == 400, (url, unknown)
        assert b"csv or json" in refused.content
    for offered in ("csv", "json"):
        export = client.get(f"{url}{joiner}_export={offered}")
        assert export.status_code == 200, (url, offered)
        assert offered in export["Content-Type"], (url, export["Content-Type"])
        assert b"<a" not in export.content
        assert b"href" not in export.content


@pytest.mark.parametrize("url", CACHED_TABLE_PAGES)
def test_an_export_is_never_the_cached_page_nor_the_page_an_export(client, both_seasons, url):
    joiner = "&" if "?" in url else "?"
    for _ in range(2):  # a miss, then what would be a hit
        page = client.get(url)
        assert page["Content-Type"].startswith("text/html")
        export = client.get(url + joiner + "_export=csv")
        assert export["Content-Type"].startswith("text/csv"), url
        assert b"<html" not in export.content
        assert export.content.count(b"\n") > 1
