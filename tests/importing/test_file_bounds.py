"""Imports that cannot hurt (issue 11): cut files, workbook bombs, files past the bounds and
hostile cells are refused with a message naming file and line, and nothing is written."""

import io
import time
import tracemalloc
import zipfile

import pytest
from django.core.management import CommandError, call_command

from races.importing import ImportFile, limits, results_import
from races.models import Stage, StageResult
from riders.models import Rider, Team
from tests.importing.files import (
    BROKEN,
    TOUR,
    csv_file,
    data_files,
    xlsx_bytes,
    xlsx_dimension_bomb,
)

pytestmark = pytest.mark.django_db

HEADER = "race,year,stage,rank,rider,team,nationality,time_seconds,gap_seconds,status\n"


def _stage_21_cut_in_row_32() -> ImportFile:
    """The real results of stage 21, cut in the middle of Bettiol's row (line 32)."""
    lines = (TOUR / "results.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[31].startswith("tour-de-france,2022,21,30,Bettiol Alberto,EF Education")
    return csv_file(
        "results.csv", "".join(lines[:31]) + "tour-de-france,2022,21,30,Bettiol Alberto,EF Ed"
    )


def _stored_results() -> set[tuple[object, ...]]:
    return set(
        StageResult.objects.values_list(
            "stage__number", "rider__name", "team__name", "rank", "time_seconds"
        )
    )


# --- cut files --------------------------------------------------------------------------------


def test_a_csv_cut_mid_row_is_refused_and_the_stored_results_stay():
    assert results_import(files=data_files("stages.csv", "results.csv")).written
    before = _stored_results()
    report = results_import(files=[*data_files("stages.csv"), _stage_21_cut_in_row_32()])
    assert [str(error) for error in report.errors] == [
        "results.csv:32 [nationality]: 6 cells but the header names 10 columns: the row is cut "
        "short (is the file truncated?)"
    ]
    assert not report.written
    assert _stored_results() == before  # the stage's 138 results were not replaced by 30
    assert not Team.objects.filter(name="EF Ed").exists()


def test_the_command_refuses_a_cut_csv_naming_file_and_line(tmp_path):
    (tmp_path / "stages.csv").write_bytes((TOUR / "stages.csv").read_bytes())
    (tmp_path / "results.csv").write_bytes(_stage_21_cut_in_row_32().content)
    out = io.StringIO()
    with pytest.raises(CommandError, match="Nothing written"):
        call_command("import_results", str(tmp_path), stdout=out)
    assert "error: results.csv:32 [nationality]: 6 cells but the header names 10" in (
        out.getvalue()
    )
    assert not Stage.objects.exists()


def test_an_unterminated_quote_is_refused_naming_the_line_it_opens_on():
    text = (
        HEADER
        + "tour-de-test,2024,1,1,Bardet Romain,Team dsm,FRA,18904,0,FIN\n"
        + 'tour-de-test,2024,1,2,"van den Broek Frank,Team dsm,NED,18904,0,FIN\n'
        + "tour-de-test,2024,1,3,Pogačar Tadej,UAE,SLO,18925,21,FIN\n"
    )
    report = results_import(
        files=[*data_files("stages.csv", folder=BROKEN), csv_file("r.csv", text)]
    )
    assert [str(error) for error in report.errors] == [
        "r.csv:3: a quote opened on this line is never closed (is the file cut short?)"
    ]
    assert not Stage.objects.exists()


def test_a_stage_whose_finishers_have_no_time_is_refused():
    """A file cut after a stage's first row leaves a finisher without a time: not stored so."""
    text = HEADER + "tour-de-test,2024,2,1,Bardet Romain,Team dsm,FRA,,,FIN\n"
    report = results_import(
        files=[*data_files("stages.csv", folder=BROKEN), csv_file("r.csv", text)]
    )
    assert [str(error) for error in report.errors] == [
        "r.csv:2 [time_seconds]: time missing for a rider who finished"
    ]
    assert not StageResult.objects.exists()


def test_results_without_a_time_column_still_import_their_ranks():
    text = "race,year,stage,rank,rider\ntour-de-test,2024,1,1,Bardet Romain\n"
    report = results_import(
        files=[*data_files("stages.csv", folder=BROKEN), csv_file("r.csv", text)]
    )
    assert report.ok, report.lines()
    assert StageResult.objects.get().time_seconds is None


# --- workbooks that ask for more than they hold -----------------------------------------------


def _import_measured(files: list[ImportFile]):  # type: ignore[no-untyped-def]
    tracemalloc.start()
    started = time.perf_counter()
    try:
        report = results_import(files=files)
        seconds = time.perf_counter() - started
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return report, seconds, peak


@pytest.mark.parametrize(
    ("dimension", "reason"),
    [
        (
            True,
            "the sheet sheet1.xml declares the range A1:XFD1048576 (1,048,576 rows, 16,384 "
            "columns): at most 100,000 rows and 1,024 columns are read",
        ),
        (False, "the sheet sheet1.xml reaches row 1,048,576: at most 100,000 rows are read"),
    ],
)
def test_a_dimension_bomb_is_refused_before_it_is_read_under_200_mb(dimension, reason):
    bomb = xlsx_dimension_bomb(dimension=dimension)
    assert len(bomb) < 6000  # a few KB asking for 17 billion cells
    report, seconds, peak = _import_measured([ImportFile("bomb.xlsx", bomb)])
    assert [(error.file, error.line) for error in report.errors] == [("bomb.xlsx", 0)]
    assert report.errors[0].reason.startswith(reason)
    assert seconds < 30  # a guard against a spin, not a speed figure (bench/import.py is)
    assert peak < 200 * 1024 * 1024
    assert not report.written


def test_the_command_refuses_a_dimension_bomb_without_a_traceback(tmp_path):
    (tmp_path / "bomb.xlsx").write_bytes(xlsx_dimension_bomb())
    out = io.StringIO()
    with pytest.raises(CommandError, match="Nothing written"):
        call_command("import_results", str(tmp_path / "bomb.xlsx"), stdout=out)
    assert "error: bomb.xlsx: the sheet sheet1.xml declares the range A1:XFD1048576" in (
        out.getvalue()
    )


def _zip_with(parts: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_workbook_that_inflates_past_the_bound_is_refused_unread(monkeypatch):
    monkeypatch.setattr(limits, "MAX_UNZIPPED_BYTES", 4 * 1024 * 1024)
    # 8 MB of zeros compress to 8 KB: the zip's own sizes tell, nothing is inflated.
    bomb = _zip_with({"xl/worksheets/sheet1.xml": b"0" * (8 * 1024 * 1024)})
    assert len(bomb) < 20_000
    report, _seconds, peak = _import_measured([ImportFile("zip.xlsx", bomb)])
    assert [str(error) for error in report.errors] == [
        "zip.xlsx: the workbook inflates to 8 MB: at most 4 MB are read"
    ]
    assert peak < 2 * 1024 * 1024  # far less than the 8 MB it would inflate to


def test_a_row_of_too_many_cells_is_refused_before_openpyxl_builds_it():
    cells = b"".join(b"<c><v>1</v></c>" for _ in range(2000))  # no r=: only the count tells
    workbook = xlsx_bytes([["race", "year"]])
    from tests.importing.files import xlsx_sheet_rewritten

    bomb = xlsx_sheet_rewritten(
        workbook, lambda xml: xml.replace(b"</sheetData>", b"<row>" + cells + b"</row></sheetData>")
    )
    report = results_import(files=[ImportFile("wide.xlsx", bomb)])
    assert [str(error) for error in report.errors] == [
        "wide.xlsx: the sheet sheet1.xml has a row of more than 1,024 cells: at most 1,024 "
        "columns are read"
    ]


# --- bounds: size, rows, cells, time ----------------------------------------------------------


def test_a_file_past_the_size_bound_is_refused_unread(monkeypatch, tmp_path):
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 1000)
    big = tmp_path / "results.csv"
    big.write_text(HEADER + "tour-de-test,2024,1,1,Bardet Romain,Team dsm,FRA,18904,0,FIN\n" * 20)
    stages = tmp_path / "stages.csv"
    stages.write_bytes((BROKEN / "stages.csv").read_bytes())
    out = io.StringIO()
    with pytest.raises(CommandError, match="Nothing written"):
        call_command("import_results", str(tmp_path), stdout=out)
    assert (
        "error: results.csv: the file is 1.3 KB: files up to 1000 bytes are read; split it"
        in out.getvalue()
    )
    assert "results.csv: too large: not read, 0 row(s)" in out.getvalue()
    assert not Stage.objects.exists()


def test_files_past_the_bound_of_one_call_are_refused_together(monkeypatch):
    monkeypatch.setattr(limits, "MAX_CALL_BYTES", 1000)
    files = [ImportFile(path.name, path.read_bytes()) for path in sorted(BROKEN.iterdir())]
    assert all(len(file.content) < 1000 for file in files)
    report = results_import(files=files)
    assert len(report.errors) == 1
    assert report.errors[0].file == "(all files)"
    assert "at once; import them in parts" in report.errors[0].reason
    assert not Stage.objects.exists()


@pytest.mark.parametrize(
    ("bound", "value", "reason"),
    [
        ("MAX_ROWS", 5, "r.csv: more than 5 rows: split the file"),
        ("MAX_CELLS", 30, "r.csv: more than 30 cells: split the file"),
        ("MAX_COLUMNS", 8, "r.csv:1: 10 cells in the row: at most 8 columns are read"),
        ("MAX_READ_SECONDS", 0, "r.csv: reading took more than 0 s: split the file"),
    ],
)
def test_a_csv_past_a_bound_is_refused_with_the_bound_named(monkeypatch, bound, value, reason):
    monkeypatch.setattr(limits, bound, value)
    row = "tour-de-test,2024,1,{rank},Rider {rank},Team,FRA,18904,0,FIN\n"
    text = HEADER + "".join(row.format(rank=rank) for rank in range(1, 8))
    report = results_import(files=[csv_file("r.csv", text)])
    assert [str(error) for error in report.errors] == [reason]


def test_a_workbook_past_the_row_bound_is_refused(monkeypatch):
    monkeypatch.setattr(limits, "MAX_ROWS", 3)
    workbook = xlsx_bytes(
        [["race", "year", "bib", "rider"]] + [["t", 2024, n, f"R {n}"] for n in range(5)]
    )
    report = results_import(files=[ImportFile("list.xlsx", workbook)])
    assert [str(error) for error in report.errors] == [
        "list.xlsx: the sheet sheet1.xml declares the range A1:D6 (6 rows, 4 columns): at most 3 "
        "rows and 1,024 columns are read; save the sheet again, or as CSV UTF-8"
    ]


# --- hostile cells ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rider", "team", "column", "reason"),
    [
        (
            "Bardet\x1b[31m Romain",
            "Team dsm",
            "rider",
            "the cell holds the invisible character U+001B",
        ),
        ('"Bardet\nRomain"', "Team dsm", "rider", "the cell holds the invisible character U+000A"),
        (
            "Bardet \u202eRomain",
            "Team dsm",
            "rider",
            "the cell holds the invisible character U+202E",
        ),
        (
            "Bardet Romain",
            '"=HYPERLINK(""http://x/"",""click"")"',
            "team",
            "team starts with '=', as a spreadsheet formula does: not a name",
        ),
        ("@SUM(A1)", "Team dsm", "rider", "rider starts with '@', as a spreadsheet formula does"),
        ("-2+3", "Team dsm", "rider", "rider starts with '-', as a spreadsheet formula does"),
        ("Bardet Romain", "T" * 5000, "team", "the cell holds 5,000 characters: at most 1000"),
    ],
)
def test_a_hostile_name_is_refused_and_nothing_is_written(rider, team, column, reason):
    text = HEADER + f"tour-de-test,2024,1,1,{rider},{team},FRA,18904,0,FIN\n"
    report = results_import(
        files=[*data_files("stages.csv", folder=BROKEN), csv_file("r.csv", text)]
    )
    assert [(error.file, error.line, error.column) for error in report.errors] == [
        ("r.csv", 2, column)
    ]
    assert report.errors[0].reason.startswith(reason)
    assert len(str(report.errors[0])) < 200  # a hostile cell does not flood the report
    assert not Rider.objects.exists()
    assert not Team.objects.exists()


@pytest.mark.parametrize(
    ("cells", "column", "reason"),
    [
        ("99999999999999999999,Bardet Romain,Team,FRA,18904,0", "rank", "rank '9999999"),
        ("1,Bardet Romain,Team,FRA,1e400,0", "time_seconds", "time '1e400' is not a time"),
        ("1,Bardet Romain,Team,FRA," + "9" * 3000 + ",0", "time_seconds", "the cell holds"),
    ],
)
def test_huge_numbers_are_refused_with_a_short_message(cells, column, reason):
    text = HEADER + f"tour-de-test,2024,1,{cells},FIN\n"
    report = results_import(
        files=[*data_files("stages.csv", folder=BROKEN), csv_file("r.csv", text)]
    )
    assert [(error.line, error.column) for error in report.errors] == [(2, column)]
    assert report.errors[0].reason.startswith(reason)
    assert len(report.errors[0].reason) < 120
    assert not StageResult.objects.exists()


def test_a_bare_dash_in_a_place_is_not_taken_for_a_formula():
    text = (
        "race,year,stage,date,start,finish,distance_km,type\n"
        "tour-de-test,2024,1,2024-07-01,-,Rimini,206,hilly\n"
    )
    report = results_import(files=[csv_file("stages.csv", text)])
    assert report.ok, report.lines()
    assert Stage.objects.get().start == "-"


def test_the_command_says_which_file_it_cannot_read(tmp_path):
    dangling = tmp_path / "stages.csv"
    dangling.symlink_to(tmp_path / "gone.csv")
    with pytest.raises(CommandError, match="No such file or folder"):
        call_command("import_results", str(dangling))
    # A file that exists and cannot be read (reading it fails with EIO, even as root).
    with pytest.raises(CommandError, match=r"^Cannot read /proc/self/mem: Input/output error$"):
        call_command("import_results", "/proc/self/mem")
