"""Files broken on purpose (tests/data/broken), and the real edge cases that must pass."""

import io

import openpyxl
import pytest
from django.core.management import CommandError, call_command

from races.importing import ImportFile, RowError, results_import
from races.models import Race, Stage, StageResult
from riders.models import Rider
from tests.importing.files import BROKEN, csv_file, data_files

pytestmark = pytest.mark.django_db

HEADER = "race,year,stage,rank,rider,team,nationality,time_seconds,gap_seconds,status\n"


def _errors(report) -> list[tuple[str, int, str]]:
    return sorted((error.file, error.line, error.column) for error in report.errors)


def test_each_bad_row_is_named_by_file_line_column_and_reason():
    report = results_import(files=data_files("stages.csv", "results.csv", folder=BROKEN))
    assert sorted(report.errors) == [
        RowError(
            "results.csv",
            4,
            "status",
            "unknown status 'ABANDONED' (expected FIN or DF, DNF, DNS, OTL, DSQ)",
        ),
        RowError(
            "results.csv", 5, "time_seconds", 'time "5:15\'04" is not a time (H:MM:SS or seconds)'
        ),
        RowError("results.csv", 6, "rank", "rank 'fifth' is not a number"),
        RowError(
            "results.csv",
            7,
            "rider",
            "the same rider twice in stage 1 of tour-de-test-2024 (results.csv line 2)",
        ),
        RowError(
            "results.csv",
            8,
            "rank",
            "rank 2 twice in stage 1 of tour-de-test-2024 (results.csv line 3)",
        ),
        RowError(
            "results.csv",
            9,
            "stage",
            "stage 9 of tour-de-test-2024 is unknown: import its stages (stages.csv) first "
            "or in the same call",
        ),
    ]
    assert [(s.name, s.rows, s.bad_rows) for s in report.files] == [
        ("stages.csv", 2, 0),
        ("results.csv", 8, 6),
    ]


def test_a_bad_row_in_one_file_writes_nothing_from_any_file_of_the_call():
    report = results_import(files=data_files("stages.csv", "results.csv", folder=BROKEN))
    assert not report.written
    assert report.outcome() == "Nothing written: 6 bad row(s) in 10."
    assert not Race.objects.exists()
    assert not Stage.objects.exists()
    assert not Rider.objects.exists()


def test_the_admin_may_import_only_the_valid_rows():
    report = results_import(
        files=data_files("stages.csv", "results.csv", folder=BROKEN), valid_rows_only=True
    )
    assert report.written
    assert Stage.objects.count() == 2
    assert list(
        StageResult.objects.order_by("rank").values_list("rank", "rider__name", "gap_seconds")
    ) == [
        (1, "Bardet Romain", 0),
        (2, "van den Broek Frank", 0),
    ]


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("empty.csv", "the file is empty"),
        ("unknown_layout.csv", "cannot tell the layout from the header (coureur, equipe, temps)"),
        ("latin1.csv", "not UTF-8 text (byte 61): save it as 'CSV UTF-8' and try again"),
        ("damaged.xlsx", "not a readable XLSX workbook (BadZipFile)"),
    ],
)
def test_an_unreadable_file_is_one_error_naming_the_file(name, reason):
    report = results_import(files=data_files("stages.csv", name, folder=BROKEN))
    assert [(error.file, error.line) for error in report.errors] == [(name, 0)]
    assert report.errors[0].reason.startswith(reason)
    assert not Stage.objects.exists()


def test_a_file_with_a_header_only_is_valid_and_empty():
    report = results_import(files=data_files("header_only.csv", folder=BROKEN))
    assert report.ok
    assert report.rows == 0
    assert not report.written


def test_real_edge_cases_pass():
    """Same time as an empty cell, gap 0 after gaps (3 km rule), a DSQ, DNF and DNS on stage 1."""
    report = results_import(files=data_files("stages.csv", "edge_cases.csv", folder=BROKEN))
    assert report.ok, report.lines()
    results = StageResult.objects.filter(stage__number=1).select_related("rider")
    by_rider = {r.rider.name: (r.rank, r.status, r.time_seconds, r.gap_seconds) for r in results}
    # Names keep the order the file writes them in ("Surname Given", mixed case).
    assert by_rider == {
        "Bardet Romain": (1, "finished", 18904, 0),
        "van den Broek Frank": (2, "finished", 18904, 0),  # empty cells: same time as above
        "Pogačar Tadej": (3, "finished", 18925, 21),
        "Evenepoel Remco": (4, "finished", 18925, 21),  # same time as above
        "Girmay Biniam": (5, "finished", 18904, 0),  # 3 km rule: gap 0 after gaps
        "Vingegaard Jonas": (6, "finished", 18904, 0),
        "Carapaz Richard": (None, "dsq", None, None),  # struck out: no place, no time
        "Roglič Primož": (None, "dnf", None, None),
        "Vlasov Aleksandr": (None, "dns", None, None),
    }
    assert any("dsq: road place 7 not kept as a rank" in str(note) for note in report.notes)


def test_a_finisher_without_time_and_no_rider_above_is_refused():
    text = (
        HEADER
        + "tour-de-test,2024,1,1,A Rider,,FRA,,,FIN\ntour-de-test,2024,1,2,B Rider,,FRA,100,0,FIN\n"
    )
    report = results_import(
        files=[*data_files("stages.csv", folder=BROKEN), csv_file("r.csv", text)]
    )
    assert _errors(report) == [("r.csv", 2, "time_seconds")]


def test_a_rider_given_a_time_before_the_winners_is_refused():
    text = (
        HEADER
        + "tour-de-test,2024,1,1,A Rider,,FRA,100,,FIN\n"
        + "tour-de-test,2024,1,2,B Rider,,FRA,90,,FIN\n"
    )
    report = results_import(
        files=[*data_files("stages.csv", folder=BROKEN), csv_file("r.csv", text)]
    )
    assert [str(error) for error in report.errors] == [
        "r.csv:3 [time_seconds]: time 90 s is less than the leader's 100 s"
    ]


def test_a_finisher_without_rank_is_refused():
    text = HEADER + "tour-de-test,2024,1,,A Rider,,FRA,100,0,FIN\n"
    report = results_import(
        files=[*data_files("stages.csv", folder=BROKEN), csv_file("r.csv", text)]
    )
    assert [str(error) for error in report.errors] == [
        "r.csv:2 [rank]: rank missing for a rider who finished"
    ]


def test_a_row_with_more_cells_than_the_header_is_refused():
    text = HEADER + "tour-de-test,2024,1,1,A Rider,Team, A,FRA,100,0,FIN\n"
    report = results_import(
        files=[*data_files("stages.csv", folder=BROKEN), csv_file("r.csv", text)]
    )
    assert [str(error) for error in report.errors] == [
        "r.csv:2: 11 cells but the header names 10 columns"
    ]


def test_results_of_a_league_race_cannot_be_imported():
    Race.objects.create(name="League", year=2024, slug="tour-de-test-2024", kind=Race.Kind.LEAGUE)
    report = results_import(files=data_files("stages.csv", folder=BROKEN))
    assert {error.reason for error in report.errors} == {
        "tour-de-test-2024 is a league race: real results cannot go into it"
    }


def test_an_xlsx_workbook_reads_like_csv(db):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "stages"
    sheet.append(["race", "year", "stage", "date", "start", "finish", "distance_km", "type"])
    sheet.append(["tour-de-test", 2024, 1, "2024-07-01", "Florence", "Rimini", 206, "hilly"])
    results = book.create_sheet("results")
    results.append(
        ["race", "year", "stage", "rank", "rider", "team", "time_seconds", "gap_seconds"]
    )
    results.append(
        ["tour-de-test", 2024, 1, 1, "BARDET Romain", "Team dsm-firmenich PostNL", 18904.0, 0]
    )
    results.append(
        ["tour-de-test", 2024, 1, 2, "VAN DEN BROEK Frank", "Team dsm-firmenich PostNL", None, None]
    )
    buffer = io.BytesIO()
    book.save(buffer)
    report = results_import(files=[ImportFile("tour.xlsx", buffer.getvalue())])
    assert report.ok, report.lines()
    assert [summary.name for summary in report.files] == [
        "tour.xlsx [stages]",
        "tour.xlsx [results]",
    ]
    assert list(
        StageResult.objects.order_by("rank").values_list("rider__name", "time_seconds")
    ) == [
        ("Romain Bardet", 18904),
        ("Frank Van Den Broek", 18904),
    ]


def test_the_command_exits_non_zero_and_names_the_bad_rows(capsys):
    with pytest.raises(CommandError, match=r"6 error\(s\) in 6 row\(s\)\. Nothing written\."):
        call_command("import_results", str(BROKEN / "stages.csv"), str(BROKEN / "results.csv"))
    out = capsys.readouterr().out
    assert "error: results.csv:6 [rank]: rank 'fifth' is not a number" in out
    assert not Stage.objects.exists()


def test_the_command_imports_a_folder_and_a_dry_run_writes_nothing(capsys, tmp_path):
    for name in ("stages.csv", "edge_cases.csv"):
        (tmp_path / name).write_bytes((BROKEN / name).read_bytes())
    call_command("import_results", str(tmp_path), "--dry-run")
    assert "Would write 11 valid row(s)." in capsys.readouterr().out
    assert not Stage.objects.exists()
    call_command("import_results", str(tmp_path))
    assert "Wrote 11 valid row(s)." in capsys.readouterr().out
    assert StageResult.objects.count() == 9


def test_the_command_refuses_a_missing_path():
    with pytest.raises(CommandError, match=r"No such file or folder: nowhere\.csv"):
        call_command("import_results", "nowhere.csv")
