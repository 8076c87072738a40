"""Generated bad input: no input makes the import crash or write part of a file."""

import csv
import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from races.importing import ImportFile, results_import
from races.models import Race, RaceEntry, Stage, StageResult, Standing
from riders.models import Rider, RiderMatch, Team

pytestmark = pytest.mark.django_db

STAGES = [
    ["race", "year", "stage", "date", "start", "finish", "distance_km", "type"],
    ["tour-de-test", "2024", "1", "2024-07-01", "Florence", "Rimini", "206", "hilly"],
    ["tour-de-test", "2024", "2", "2024-07-02", "Cesenatico", "Bologna", "199.2", "ITT"],
]
RESULTS = [
    [
        "race",
        "year",
        "stage",
        "rank",
        "rider",
        "team",
        "nationality",
        "time_seconds",
        "gap_seconds",
        "status",
    ],
    [
        "tour-de-test",
        "2024",
        "1",
        "1",
        "Bardet Romain",
        "Team dsm-firmenich",
        "FRA",
        "18904",
        "0",
        "FIN",
    ],
    [
        "tour-de-test",
        "2024",
        "1",
        "2",
        "van den Broek Frank",
        "Team dsm-firmenich",
        "NED",
        "",
        "",
        "FIN",
    ],
    [
        "tour-de-test",
        "2024",
        "1",
        "3",
        "Pogačar Tadej",
        "UAE Team Emirates",
        "SLO",
        "18909",
        "5",
        "FIN",
    ],
    ["tour-de-test", "2024", "1", "", "Roglič Primož", "BORA - hansgrohe", "SI", "", "", "DNF"],
    ["tour-de-test", "2024", "2", "1", "Pogačar Tadej", "UAE Team Emirates", "SLO", "", "0", "FIN"],
]
GC = [
    [
        "race",
        "year",
        "rank",
        "rider",
        "team",
        "gap_seconds",
        "nationality",
        "time_seconds",
        "status",
    ],
    ["tour-de-test", "2024", "1", "Pogačar Tadej", "UAE Team Emirates", "0", "SLO", "40000", "FIN"],
    ["tour-de-test", "2024", "2", "Bardet Romain", "Team dsm-firmenich", "10", "FRA", "", "FIN"],
    ["tour-de-test", "2024", "", "Carapaz Richard", "EF Education", "", "ECU", "", "DSQ"],
]
TABLES = {"stages.csv": STAGES, "results.csv": RESULTS, "gc.csv": GC}

# Cells a spreadsheet or a scraper really produces, and some nobody should.
NASTY = st.sampled_from(
    [
        "",
        " ",
        "-",
        "0",
        "-1",
        "1.0",
        "1e3",
        "NaN",
        "99999999999999999999",
        "2:58:32",
        "+0:05",
        "61:61",
        "DNF",
        "DSQ",
        "OTL",
        "dq",
        "ABANDONED",
        "p9",
        "ITT",
        "BE",
        "ZZ",
        "BELG",
        "2024-02-30",
        "1/1/1",
        "tour-de-test",
        "Pogačar Tadej",
        "rider/",
        "rider/tadej-pogacar",
        "x" * 200,
        "\x00",
        '"',
        "'; DROP TABLE races_race; --",
        "Ω≈ç√",
        "\u200b",
    ]
)
CELL = st.one_of(NASTY, st.text(max_size=12), st.integers(-10, 100_000).map(str))


def _snapshot() -> tuple[int, ...]:
    models = (Race, Stage, Team, Rider, RaceEntry, StageResult, Standing, RiderMatch)
    return tuple(model.objects.count() for model in models)


def _csv(rows: list[list[str]]) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue().encode("utf-8", "surrogatepass")


@st.composite
def damaged_tables(draw: st.DrawFn) -> list[ImportFile]:
    """The three sample tables, with some cells replaced, rows dropped or doubled, columns cut."""
    files = []
    for name, table in TABLES.items():
        rows = [list(row) for row in table]
        for _ in range(draw(st.integers(0, 4))):
            line = draw(st.integers(0 if draw(st.booleans()) else 1, len(rows) - 1))
            column = draw(st.integers(0, len(rows[line]) - 1))
            rows[line][column] = draw(CELL)
        if draw(st.booleans()) and len(rows) > 2:
            rows.insert(1, list(rows[draw(st.integers(1, len(rows) - 1))]))  # a doubled row
        if draw(st.booleans()):
            line = draw(st.integers(0, len(rows) - 1))
            rows[line] = rows[line][: draw(st.integers(0, len(rows[line])))]
        files.append(ImportFile(name=name, content=_csv(rows)))
    return draw(st.permutations(files))


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(files=damaged_tables(), valid_rows_only=st.booleans())
def test_damaged_files_never_crash_and_a_bad_row_writes_nothing(files, valid_rows_only):
    before = _snapshot()
    report = results_import(files=files, valid_rows_only=valid_rows_only)
    names = {file.name for file in files}
    for error in report.errors:
        assert error.file in names
        assert 0 <= error.line <= 10  # 0: the file, 1: its header
        assert error.reason
    if report.errors and not valid_rows_only:
        assert not report.written
        assert _snapshot() == before
    # Once the valid rows are in, the same files again change nothing.
    results_import(files=files, valid_rows_only=True)
    again = results_import(files=files, valid_rows_only=True)
    assert not again.changed, again.lines()


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(content=st.binary(max_size=300), name=st.sampled_from(["a.csv", "a.xlsx", "a.txt", "a"]))
def test_any_bytes_are_an_error_or_an_import_never_a_crash(content, name):
    before = _snapshot()
    report = results_import(files=[ImportFile(name=name, content=content)])
    if report.errors:
        assert _snapshot() == before


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.text(max_size=400))
def test_any_text_after_a_real_header_never_crashes(text):
    before = _snapshot()
    header = ",".join(RESULTS[0]) + "\n"
    report = results_import(
        files=[ImportFile("results.csv", (header + text).encode("utf-8", "replace"))]
    )
    if report.errors:
        assert _snapshot() == before
