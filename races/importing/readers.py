"""Files in, tables of text out: CSV (comma, semicolon or tab) and XLSX (every sheet).

Every cell becomes stripped text, so the parsers see the same thing whatever the format. A file
that cannot be read is one error naming the file; it never raises. Every file is read within
the bounds of `limits` (size, rows, columns, cells, time): past one, it is refused, unread.
"""

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path

from races.importing import limits
from races.importing.limits import LimitExceeded, ReadBudget, size_text
from races.importing.report import WHOLE_FILE, RowError
from races.importing.workbook_guard import workbook_check

SUFFIXES = (".csv", ".tsv", ".txt", ".xlsx", ".xlsm")
_XLSX_MAGIC = b"PK\x03\x04"
_HEADER_JUNK = re.compile(r"[\ufeff\u200b]")
_HEADER_SEPARATORS = re.compile(r"[\s\-]+")


@dataclass(frozen=True)
class ImportFile:
    """One uploaded or read file: its name (for the report) and its bytes.

    `size` is the file's real size when its content was not read because it is too large
    (the content is then empty); by default the size of the content.
    """

    name: str
    content: bytes
    size: int | None = None

    @property
    def real_size(self) -> int:
        return len(self.content) if self.size is None else self.size


def import_file_open(path: Path, *, budget_left: int) -> ImportFile:
    """A file from disk, read only when it is within the bounds (else its size, no content)."""
    try:
        size = path.stat().st_size
        if size > min(limits.MAX_FILE_BYTES, budget_left):
            return ImportFile(name=path.name, content=b"", size=size)
        return ImportFile(name=path.name, content=path.read_bytes())
    except OSError as error:  # the path named, whichever call failed
        raise OSError(error.errno, error.strerror, str(path)) from error


@dataclass
class Table:
    """One sheet of data: a normalised header and the rows with their line numbers."""

    name: str
    header: list[str]
    rows: list[tuple[int, list[str]]] = field(default_factory=list)
    unreadable_rows: int = 0


def import_files_read(*, paths: Iterable[Path]) -> list[ImportFile]:
    """The files named, and the data files directly inside the folders named (sorted)."""
    chosen: list[Path] = []
    for path in paths:
        if path.is_dir():
            chosen.extend(
                sorted(
                    child
                    for child in path.iterdir()
                    if child.is_file()
                    and not child.name.startswith(".")
                    and child.suffix.lower() in SUFFIXES
                )
            )
        else:
            chosen.append(path)
    files: list[ImportFile] = []
    left = limits.MAX_CALL_BYTES
    for path in chosen:
        file = import_file_open(path, budget_left=left)
        left -= len(file.content)
        files.append(file)
    return files


def size_errors(files: Sequence[ImportFile]) -> list[RowError]:
    """The files too large to be read, and the call as a whole when the files together are."""
    errors = [
        _file_error(
            file.name,
            f"the file is {size_text(file.real_size)}: files up to "
            f"{size_text(limits.MAX_FILE_BYTES)} are read; split it",
        )
        for file in files
        if file.real_size > limits.MAX_FILE_BYTES
    ]
    total = sum(file.real_size for file in files)
    if not errors and total > limits.MAX_CALL_BYTES:
        errors.append(
            _file_error(
                "(all files)",
                f"the files come to {size_text(total)}: up to "
                f"{size_text(limits.MAX_CALL_BYTES)} are read at once; import them in parts",
            )
        )
    return errors


def header_normalise(cell: str) -> str:
    """ "Time (s)" stays itself, " Rider Name" -> "rider_name", "distance-km" -> "distance_km"."""
    return _HEADER_SEPARATORS.sub("_", _HEADER_JUNK.sub("", cell).strip().lower())


def tables_read(*, file: ImportFile) -> tuple[list[Table], list[RowError]]:
    if file.real_size > limits.MAX_FILE_BYTES or len(file.content) != file.real_size:
        return [], []  # too large: refused by size_errors, never read
    try:
        if file.name.lower().endswith((".xlsx", ".xlsm")) or file.content.startswith(_XLSX_MAGIC):
            return _xlsx_tables(file)
        if file.name.lower().endswith(".xls"):
            return [], [_file_error(file.name, "old .xls workbooks are not read: save it as .xlsx")]
        return _csv_tables(file)
    except LimitExceeded as error:
        return [], [RowError(file=file.name, line=error.line, column="", reason=error.reason)]


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
    # strict: a quote opened and never closed is an error, not a cell swallowing the rest.
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    budget = ReadBudget()
    records: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for cells in reader:
            # A row is named by the line it starts on (a quoted cell may hold line breaks).
            budget.row(line=start, width=len(cells))
            records.append((start, [cell.strip() for cell in cells]))
            start = reader.line_num + 1
    except csv.Error as error:
        if str(error) == "unexpected end of data":
            reason = "a quote opened on this line is never closed (is the file cut short?)"
        else:
            reason = f"bad CSV: {error}"
        return [], [RowError(file=file.name, line=start, column="", reason=reason)]
    return _table_from_records(file.name, records, complete_rows=True)


def _xlsx_tables(file: ImportFile) -> tuple[list[Table], list[RowError]]:
    import openpyxl

    budget = ReadBudget()
    try:
        workbook_check(file.content, budget=budget)
        book = openpyxl.load_workbook(io.BytesIO(file.content), read_only=True, data_only=True)
        sheets = [(sheet.title, _sheet_records(sheet, budget)) for sheet in book.worksheets]
    except LimitExceeded:
        raise
    # openpyxl raises many kinds of error on a damaged workbook (zip, XML, KeyError...); each
    # one means the same to the admin, and the file is named in the report.
    except Exception as error:
        return [], [
            _file_error(file.name, f"not a readable XLSX workbook ({type(error).__name__})")
        ]
    tables: list[Table] = []
    errors: list[RowError] = []
    non_empty = [(title, rows) for title, rows in sheets if rows]
    for title, rows in non_empty:
        name = file.name if len(non_empty) == 1 else f"{file.name} [{title}]"
        sheet_tables, sheet_errors = _table_from_records(name, rows)
        tables.extend(sheet_tables)
        errors.extend(sheet_errors)
    if not non_empty:
        errors.append(_file_error(file.name, "the workbook holds no data"))
    return tables, errors


def _sheet_records(sheet: object, budget: ReadBudget) -> list[tuple[int, list[str]]]:
    """The filled rows of a sheet as text, with their line numbers, within the budget.

    The sheet's declared dimension is not trusted (openpyxl would pad every row to it): each
    row is as wide as its last cell, and workbook_check has bounded both already.
    """
    sheet.reset_dimensions()  # type: ignore[attr-defined]
    budget.rows = budget.cells = 0  # the scan counted the XML; now the rows as read
    records = []
    for line, row in enumerate(sheet.iter_rows(values_only=True), start=1):  # type: ignore[attr-defined]
        budget.row(line=line, width=len(row))
        if _filled(row):
            records.append((line, [_cell_text(value) for value in row]))
    return records


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
    name: str, records: list[tuple[int, list[str]]], *, complete_rows: bool = False
) -> tuple[list[Table], list[RowError]]:
    """The header and the rows; `complete_rows` (CSV): a row with fewer cells is an error.

    A CSV writes every cell of every row, so a shorter row is a cut one (a truncated file,
    a lost delimiter); a workbook leaves trailing empty cells out, so its rows are padded.
    """
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
        if complete_rows and len(cells) < width:
            errors.append(
                RowError(
                    file=name,
                    line=line,
                    column=header[len(cells)],
                    reason=f"{len(cells)} cells but the header names {width} columns: "
                    "the row is cut short (is the file truncated?)",
                )
            )
            table.unreadable_rows += 1
            continue
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
