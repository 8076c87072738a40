"""The motor pages on the imported 1981 championship (issue 15 item 6): every page answers in
a few queries whatever the number of rounds, in English and French, with its CSV export."""


import pytest
from django.urls import reverse

from motor.models import (
    Championship,
    Constructor,
    Driver,
    GrandPrix,
    Result,
    Standing,
    Track,
)
from motor.track_files import SHIPPED, track_store
from races.importing import results_import
from tests.motor.test_import_f1 import f1_files

SLUG = "formula-1-1981"
MAX_QUERIES = 15


@pytest.fixture(scope="module")
def imported(django_db_setup, django_db_blocker):
    """The 1981 championship imported once for the module (the import takes seconds), its
    Canadian Grand Prix (round 14) on the shipped Gilles-Villeneuve track file; removed after."""
    with django_db_blocker.unblock():
        report = results_import(files=f1_files())
        assert report.ok, report.lines()
        path = SHIPPED / "grandprix" / "gilles-villeneuve.yaml"
        track, _created = track_store(content=path.read_bytes(), file_name=path.name)
        GrandPrix.objects.filter(championship__slug=SLUG, round=14).update(track=track)
        yield
        Result.objects.all().delete()
        Standing.objects.all().delete()
        Championship.objects.all().delete()
        Track.objects.all().delete()
        Driver.objects.all().delete()
        Constructor.objects.all().delete()


@pytest.fixture
def season_1981(imported, db):
    return Championship.objects.get(slug=SLUG)


def urls() -> list[str]:
    return [
        reverse("motor-championships"),
        reverse("motor-championship", args=[SLUG]),
        reverse("motor-round", args=[SLUG, 1]),
        reverse("motor-round", args=[SLUG, 14]),
        reverse("motor-standings", args=[SLUG, "drivers"]),
        reverse("motor-standings", args=[SLUG, "constructors"]) + "?after=7",
        reverse("motor-what-if", args=[SLUG, "drivers"]),
        reverse("motor-what-if", args=[SLUG, "constructors"]),
        reverse("motor-driver", args=[SLUG, "nelson-piquet"]),
        reverse("motor-constructor", args=[SLUG, "lotus"]),
    ]


@pytest.mark.parametrize("index", range(10))
def test_every_page_answers_in_few_queries(
    client, season_1981, django_assert_max_num_queries, index
):
    url = urls()[index]
    with django_assert_max_num_queries(MAX_QUERIES):
        response = client.get(url)
    assert response.status_code == 200, url
