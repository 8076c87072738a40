"""Real classifications carry penalties (issue 11): negative points and riders without a rank
are imported as the source prints them, stored unranked, and listed after the ranked riders."""

import pytest
from django.db.models import F
from django.urls import reverse

from races.importing import results_import
from races.models import Race, Standing
from races.profile_derivation import profile_records_collect
from riders.models import Rider
from tests.factories import UserFactory
from tests.importing.files import BROKEN, csv_file, data_files

pytestmark = pytest.mark.django_db

OURS = """race,year,classification,rank,rider,team,value,unit
tour-de-test,2024,points,1,Girmay Biniam,Intermarché - Wanty,100,points
tour-de-test,2024,points,2,Philipsen Jasper,Alpecin - Deceuninck,25,points
tour-de-test,2024,points,-,Groenewegen Dylan,Team Jayco AlUla,-3,points
tour-de-test,2024,mountains,1,Carapaz Richard,EF Education - EasyPost,72,points
tour-de-test,2024,mountains,,Bardet Romain,Team dsm-firmenich PostNL,-2,points
"""

PCS_POINTS = """rank,prev_rank,rider_name,rider_url,team_name,nationality,age,points
1,1,GIRMAY Biniam,rider/biniam-girmay-hailu,Intermarché - Wanty,ER,24,100
2,2,PHILIPSEN Jasper,rider/jasper-philipsen,Alpecin - Deceuninck,BE,26,25
-,-,GROENEWEGEN Dylan,rider/dylan-groenewegen,Team Jayco AlUla,NL,31,-3
"""


def _lines(classification: str) -> list[tuple[int | None, str, int, int]]:
    return [
        (line.rank, line.rider.name, line.value, line.gap)
        for line in Standing.objects.filter(classification=classification)
        .select_related("rider")
        .order_by(F("rank").asc(nulls_last=True))
    ]


def test_negative_points_and_riders_without_a_rank_are_imported_as_written():
    report = results_import(
        files=[*data_files("stages.csv", folder=BROKEN), csv_file("classifications.csv", OURS)]
    )
    assert report.ok, report.lines()
    assert _lines("points") == [
        (1, "Girmay Biniam", 100, 0),
        (2, "Philipsen Jasper", 25, 75),
        (None, "Groenewegen Dylan", -3, 103),  # 3 points off: 103 behind the leader
    ]
    assert _lines("mountains") == [(1, "Carapaz Richard", 72, 0), (None, "Bardet Romain", -2, 74)]
    assert "classifications.csv:4: Groenewegen Dylan listed without a rank" in map(
        str, report.notes
    )
    again = results_import(
        files=[*data_files("stages.csv", folder=BROKEN), csv_file("classifications.csv", OURS)]
    )
    assert not again.changed  # unranked lines compare equal on a re-import


def test_a_procyclingstats_points_file_with_a_penalty_imports():
    report = results_import(
        files=[
            *data_files("stages.csv", folder=BROKEN),
            csv_file("tour-de-test-2024-points.csv", PCS_POINTS),
        ]
    )
    assert report.ok, report.lines()
    groenewegen = Standing.objects.get(rider__pcs_slug="dylan-groenewegen")
    assert (groenewegen.classification, groenewegen.rank, groenewegen.value) == ("points", None, -3)


@pytest.mark.parametrize(
    ("row", "column", "reason"),
    [
        # A time is never negative, even where points may be.
        (
            "tour-de-test,2024,youth,1,Girmay Biniam,Wanty,-3,time_seconds",
            "value",
            "value '-3' is not a time (H:MM:SS or seconds)",
        ),
        (
            "tour-de-test,2024,points,,Girmay Biniam,Wanty,200,points",
            "value",
            "200 points is more than the leader's 100",
        ),
        (
            "tour-de-test,2024,points,-,Girmay Biniam,Wanty,-999999,points",
            "value",
            "points -999999 is out of range (-100000 to 100000)",
        ),
    ],
)
def test_penalties_keep_their_bounds(row, column, reason):
    text = (
        "race,year,classification,rank,rider,team,value,unit\n"
        "tour-de-test,2024,points,1,Philipsen Jasper,Alpecin,100,points\n" + row + "\n"
    )
    report = results_import(
        files=[*data_files("stages.csv", folder=BROKEN), csv_file("classifications.csv", text)]
    )
    assert [(error.line, error.column, error.reason) for error in report.errors] == [
        (3, column, reason)
    ]
    assert not Standing.objects.exists()


def test_the_admin_lists_unranked_riders_after_the_ranked_ones(client):
    results_import(
        files=[*data_files("stages.csv", folder=BROKEN), csv_file("classifications.csv", OURS)]
    )
    client.force_login(UserFactory(username="admin", is_staff=True, is_superuser=True))
    response = client.get(reverse("admin:races_standing_changelist") + "?classification=points")
    html = response.content.decode()
    assert response.status_code == 200
    positions = [html.index(name) for name in ("Girmay", "Philipsen", "Groenewegen")]
    assert positions == sorted(positions)
    row = html[html.index("Groenewegen") - 600 : html.index("Groenewegen") + 600]
    assert '<td class="field-rank">-</td>' in row
    assert '<td class="field-value">-3</td>' in row
    unranked = Standing.objects.get(rider__name="Groenewegen Dylan")
    assert str(unranked).endswith("points #-")


def test_unranked_lines_are_no_final_place_for_the_profiles():
    results_import(
        files=[*data_files("stages.csv", folder=BROKEN), csv_file("classifications.csv", OURS)]
    )
    records = profile_records_collect(races=list(Race.objects.all()))
    groenewegen = Rider.objects.get(name="Groenewegen Dylan")
    girmay = Rider.objects.get(name="Girmay Biniam")
    assert records[girmay.pk].final_places[0].rank == 1
    assert records[girmay.pk].final_places[0].classified == 2  # the two ranked riders
    assert groenewegen.pk not in records or not records[groenewegen.pk].final_places
