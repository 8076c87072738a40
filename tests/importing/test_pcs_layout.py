"""The ProCyclingStats layout: absolute H:MM:SS times, DF/DNF/DNS/OTL/DSQ, 2-letter nations,
rider_url as the stable id, profile icons p0-p5; race, year and stage from the URL or file name."""

import pytest

from races.importing import results_import
from races.models import Stage, StageResult, Standing
from riders.models import Rider
from tests.importing.files import PCS, csv_file, data_files

pytestmark = pytest.mark.django_db


@pytest.fixture
def pcs(db):  # type: ignore[no-untyped-def]
    report = results_import(files=data_files(folder=PCS))
    assert report.ok, report.lines()
    return report


def test_each_file_is_told_apart_by_its_header_and_name(pcs):
    assert {summary.name: summary.layout for summary in pcs.files} == {
        "tour-de-france-2022-gc.csv": "ProCyclingStats general classification",
        "tour-de-france-2022-kom.csv": "ProCyclingStats points or mountains classification",
        "tour-de-france-2022-points.csv": "ProCyclingStats points or mountains classification",
        "tour-de-france-2022-stage-21.csv": "ProCyclingStats stage results",
        "tour-de-france-2022-stages.csv": "ProCyclingStats stages",
        "tour-de-france-2022-startlist.csv": "ProCyclingStats start list",
    }


def test_profile_icons_give_the_stage_types(pcs):
    stages = Stage.objects.filter(race__slug="tour-de-france-2022").order_by("number")
    assert [(s.number, s.stage_type, s.profile_icon) for s in stages] == [
        (18, "mountain", "p5"),
        (19, "flat", "p1"),
        (20, "ITT", "p2"),
        (21, "flat", "p1"),
    ]


def test_absolute_times_become_times_and_gaps(pcs):
    results = StageResult.objects.filter(stage__number=21).select_related("rider")
    assert {
        r.rider.pcs_slug: (r.rank, r.status, r.time_seconds, r.gap_seconds, r.bonus_seconds)
        for r in results
    } == {
        "jasper-philipsen": (1, "finished", 10712, 0, 10),
        "dylan-groenewegen": (2, "finished", 10712, 0, 6),
        "alexander-kristoff": (3, "finished", 10712, 0, 4),  # empty: same time as above
        "wout-van-aert": (4, "finished", 10720, 8, 0),
        "jonas-vingegaard-rasmussen": (5, "finished", 10712, 0, 0),  # 3 km rule
        "tadej-pogacar": (6, "finished", 10741, 29, 0),
        "caleb-ewan": (None, "otl", None, None, 0),
        "gorka-izagirre": (None, "dns", None, None, 0),
    }
    assert StageResult.objects.get(rider__pcs_slug="wout-van-aert").breakaway_km == 12


def test_two_letter_nations_become_three_letter_codes(pcs):
    nations = dict(Rider.objects.values_list("pcs_slug", "nationality"))
    assert nations["tadej-pogacar"] == "SLO"
    assert nations["jonas-vingegaard-rasmussen"] == "DEN"
    assert nations["dylan-groenewegen"] == "NED"


def test_the_class_suffix_does_not_make_another_team(pcs):
    pogacar = Rider.objects.get(pcs_slug="tadej-pogacar")
    assert pogacar.team.name == "UAE Team Emirates (WT)"
    result = StageResult.objects.get(rider=pogacar)
    assert result.team == pogacar.team  # written "UAE Team Emirates" in the results


def test_gc_times_and_gaps_and_the_classifications_by_file_name(pcs):
    last = Stage.objects.get(number=21)
    general = Standing.objects.filter(stage=last, classification="general").order_by("rank")
    assert [(line.rider.pcs_slug, line.value, line.gap) for line in general] == [
        ("jonas-vingegaard-rasmussen", 286400, 0),
        ("tadej-pogacar", 286563, 163),
        ("wout-van-aert", 286400 + 3930, 3930),  # "+1:05:30"
    ]
    points = Standing.objects.filter(stage=last, classification="points").order_by("rank")
    assert [(line.rider.pcs_slug, line.value, line.gap) for line in points] == [
        ("wout-van-aert", 480, 0),
        ("jasper-philipsen", 205, 275),
        ("tadej-pogacar", 168, 312),
    ]
    assert Standing.objects.filter(stage=last, classification="mountains").count() == 2


def test_the_procyclingstats_id_matches_whatever_the_name(pcs):
    text = "rider_name,rider_url,rank,time,status\nSOMEONE Else,rider/tadej-pogacar,1,3:00:00,DF\n"
    report = results_import(files=[csv_file("tour-de-france-2022-stage-19.csv", text)])
    assert report.ok, report.lines()
    assert StageResult.objects.get(stage__number=19).rider.name == "Tadej Pogačar"


def test_the_ids_learnt_from_procyclingstats_join_our_files(pcs):
    # Our layout has no id: the names match the riders the ProCyclingStats files created.
    report = results_import(files=data_files("stages.csv", "gc.csv"))
    assert report.ok, report.lines()
    assert Rider.objects.filter(name_key="jonas vingegaard").count() == 1
    vingegaard = Rider.objects.get(pcs_slug="jonas-vingegaard-rasmussen")
    assert vingegaard.standings.filter(classification="general", rank=1).count() == 1


def test_a_file_without_race_or_stage_is_refused_with_the_way_out():
    text = "rider_name,rider_url,rank,time,status\nPOGAČAR Tadej,rider/tadej-pogacar,1,3:00:00,DF\n"
    report = results_import(files=[csv_file("results.csv", text)])
    assert [str(error) for error in report.errors] == [
        "results.csv:2 [race]: race and year unknown: add race and year columns, or name the file "
        "<race>-<year>-....csv (e.g. tour-de-france-2023-stage-5.csv)",
        "results.csv:2 [stage]: stage unknown: add a stage column, or name the file "
        "<race>-<year>-stage-<n>.csv",
    ]


def test_results_and_gc_without_telling_columns_need_the_file_name():
    text = "rider_name,rider_url,rank,time\nPOGAČAR Tadej,rider/tadej-pogacar,1,3:00:00\n"
    report = results_import(files=[csv_file("export.csv", text)])
    assert report.errors[0].reason.startswith("cannot tell stage results from a general")
