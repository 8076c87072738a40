"""Each layout is told apart by its header; ProCyclingStats files also by their name."""

import pytest

from races.importing.layouts import file_context, layout_detect


@pytest.mark.parametrize(
    ("header", "name", "layout"),
    [
        ("race,year,bib,rider,team,nationality", "riders.csv", "riders (start list)"),
        ("race,year,stage,date,start,finish,distance_km,type", "x.csv", "stages"),
        (
            "race,year,stage,rank,rider,team,time_seconds,gap_seconds,status",
            "x.csv",
            "results (stage results)",
        ),
        ("race,year,stage,rank,rider,rider_url,time_seconds", "x.csv", "results (stage results)"),
        (
            "race,year,rank,rider,team,gap_seconds,time_seconds,status",
            "x.csv",
            "gc (general classification)",
        ),
        (
            "race,year,classification,rank,rider,team,value,unit",
            "x.csv",
            "classifications (points, mountains, youth)",
        ),
        ("race,year,stage,rider,team,nationality", "x.csv", "stage winners"),
        (
            "rider_name,rider_url,nationality,rider_number,team_name",
            "x.csv",
            "ProCyclingStats start list",
        ),
        ("rank,status,rider_name,rider_url,time,bonus", "x.csv", "ProCyclingStats stage results"),
        (
            "rank,prev_rank,rider_name,rider_url,time",
            "x.csv",
            "ProCyclingStats general classification",
        ),
        (
            "rank,rider_name,rider_url,time",
            "giro-d-italia-2024-gc.csv",
            "ProCyclingStats general classification",
        ),
        (
            "rank,rider_name,rider_url,time",
            "giro-d-italia-2024-stage-3.csv",
            "ProCyclingStats stage results",
        ),
        (
            "rank,rider_name,rider_url,time",
            "giro-d-italia-2024-youth.csv",
            "ProCyclingStats youth classification",
        ),
        (
            "rank,rider_name,rider_url,points",
            "x-2024-kom.csv",
            "ProCyclingStats points or mountains classification",
        ),
        ("stage_url,date,distance,stage_type,profile_icon", "x.csv", "ProCyclingStats stages"),
    ],
)
def test_the_header_tells_the_layout(header, name, layout):
    assert layout_detect(header=header.split(","), file_name=name).name == layout


def test_a_header_missing_a_required_column_says_which():
    with pytest.raises(ValueError, match="looks like stages but lacks the column"):
        layout_detect(header=["race", "year", "distance_km", "type"], file_name="stages.csv")


def test_the_file_name_tells_race_year_stage_and_part():
    context = file_context("tour-de-france-2023-stage-5-gc.csv")
    assert (context.race, context.year, context.stage) == ("tour-de-france", "2023", "5")
    assert context.parts == {"gc"}
    prologue = file_context("giro_d_italia_2024_prologue.xlsx")
    assert (prologue.race, prologue.year, prologue.stage) == ("giro-d-italia", "2024", "0")
    assert file_context("results.csv").race == ""
