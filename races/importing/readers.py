"""Files in, tables of text out: CSV (comma, semicolon or tab) and XLSX (every sheet).

Every cell becomes stripped text, so the parsers see the same thing whatever the format. A file
that cannot be read is one error naming the file; it never raises.
"""

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path

from races.importing.report import WHOLE_FILE, RowError

SUFFIXES = (".csv", ".tsv", ".txt", ".xlsx", ".xlsm")
_XLSX_MAGIC = b"PK\x03\x04"
_HEADER_JUNK = re.compile(r"[\ufeff\u200b]")
_HEADER_SEPARATORS = re.compile(r"[\s\-]+")


@dataclass(frozen=True)
class ImportFile:
    """One uploaded or read file: its name (for the report) and its bytes."""

    name: str
    content: bytes


@dataclass
class Table:
    """One sheet of data: a normalised header and the rows with their line numbers."""

    name: str
    header: list[str]
    rows: list[tuple[int, list[str]]] = field(default_factory=list)
    unreadable_rows: int = 0


def import_files_read(*, paths: Iterable[Path]) -> list[ImportFile]:
    """The files named, and the data files directly inside the folders named (sorted)."""
    files: list[ImportFile] = []
    for path in paths:
        if path.is_dir():
            children = sorted(
                child
                for child in path.iterdir()
                if child.is_file()
                and not child.name.startswith(".")
                and child.suffix.lower() in SUFFIXES
            )
            files.extend(
                ImportFile(name=child.name, content=child.read_bytes()) for child in children
            )
        else:
            files.append(ImportFile(name=path.name, content=path.read_bytes()))
    return files


def header_normalise(cell: str) -> str:
    """ "Time (s)" stays itself, " Rider Name" -> "rider_name", "distance-km" -> "distance_km"."""
    return _HEADER_SEPARATORS.sub("_", _HEADER_JUNK.sub("", cell).strip().lower())


def tables_read(*, file: ImportFile) -> tuple[list[Table], list[RowError]]:
    if file.name.lower().endswith((".xlsx", ".xlsm")) or file.content.startswith(_XLSX_MAGIC):
        return _xlsx_tables(file)
    if file.name.lower().endswith(".xls"):
        return [], [_file_error(file.name, "old .xls workbooks are not read: save it as .xlsx")]
    return _csv_tables(file)


def _file_error(name: str, reason: str) -> RowError:
    return RowError(file=name, line=WHOLE_FILE, column="", reason=reason)


def _csv_tables(file: ImportFile) -> tuple[list[Table], list[RowError]]:
    try:
        text = file.content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return [], [
            _file_error(
                file.name,
                f"not UTF-8 text (byte {error.start}): save it as 'CSV UTF-8' and try again",
            )
        ]
    first_line = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first_line.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    records: list[tuple[int, list[str]]] = []
    try:
        for cells in reader:
            records.append((reader.line_num, [cell.strip() for cell in cells]))
    except csv.Error as error:
        return [], [
            RowError(file=file.name, line=reader.line_num, column="", reason=f"bad CSV: {error}")
        ]
    return _table_from_records(file.name, records)


def _xlsx_tables(file: ImportFile) -> tuple[list[Table], list[RowError]]:
    import openpyxl

    try:
        book = openpyxl.load_workbook(io.BytesIO(file.content), read_only=True, data_only=True)
        sheets = [
            (sheet.title, list(enumerate(sheet.iter_rows(values_only=True), start=1)))
            for sheet in book.worksheets
        ]
    # openpyxl raises many kinds of error on a damaged workbook (zip, XML, KeyError...); each
    # one means the same to the admin, and the file is named in the report.
    except Exception as error:
        return [], [
            _file_error(file.name, f"not a readable XLSX workbook ({type(error).__name__})")
        ]
    tables: list[Table] = []
    errors: list[RowError] = []
    non_empty = [(title, rows) for title, rows in sheets if any(_filled(row) for _, row in rows)]
    for title, rows in non_empty:
        name = file.name if len(non_empty) == 1 else f"{file.name} [{title}]"
        records = [(line, [_cell_text(value) for value in row]) for line, row in rows]
        sheet_tables, sheet_errors = _table_from_records(name, records)
        tables.extend(sheet_tables)
        errors.extend(sheet_errors)
    if not non_empty:
        errors.append(_file_error(file.name, "the workbook holds no data"))
    return tables, errors


def _filled(row: Sequence[object]) -> bool:
    return any(value not in (None, "") for value in row)


def _cell_text(value: object) -> str:
    """An XLSX cell as the text a CSV would hold."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime):
        if value.time() == time(0):
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, time):
        return f"{value.hour}:{value.minute:02d}:{value.second:02d}"
    if isinstance(value, timedelta):
        seconds = int(value.total_seconds())
        return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
    return str(value).strip()


def _table_from_records(
    name: str, records: list[tuple[int, list[str]]]
) -> tuple[list[Table], list[RowError]]:
    records = [(line, cells) for line, cells in records if any(cells)]
    if not records:
        return [], [_file_error(name, "the file is empty")]
    header_line, raw_header = records[0]
    while raw_header and not raw_header[-1]:
        raw_header = raw_header[:-1]
    header = [header_normalise(cell) for cell in raw_header]
    errors = []
    seen: set[str] = set()
    for column in header:
        if "\x00" in column:
            errors.append(
                RowError(file=name, line=header_line, column="", reason="a column name holds NUL")
            )
        elif not column:
            errors.append(
                RowError(file=name, line=header_line, column="", reason="a column has no name")
            )
        elif column in seen:
            errors.append(
                RowError(
                    file=name, line=header_line, column=column, reason="the column appears twice"
                )
            )
        seen.add(column)
    if errors:
        return [Table(name=name, header=[], unreadable_rows=len(records) - 1)], errors
    table = Table(name=name, header=header)
    width = len(header)
    for line, cells in records[1:]:
        if len(cells) > width and any(cells[width:]):
            errors.append(
                RowError(
                    file=name,
                    line=line,
                    column="",
                    reason=f"{len(cells)} cells but the header names {width} columns",
                )
            )
            table.unreadable_rows += 1
            continue
        table.rows.append((line, (cells + [""] * width)[:width]))
    return [table], errors
