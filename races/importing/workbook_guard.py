"""A workbook's raw parts checked against the read bounds before openpyxl opens it.

openpyxl trusts what a workbook says of itself: read-only mode pads every row to the sheet's
declared `<dimension>` (a 4.7 KB file declaring A1:XFD1048576 asks for 17 billion cells), builds
each row whole before yielding it, and loads the shared strings and styles at once. So the zip
is checked first, part by part, from the sizes it declares (zipfile never inflates a part past
its declared size) and by a streaming scan of each sheet's XML that counts rows, cells and
columns without building anything. Only a workbook inside every bound reaches openpyxl.
"""

import io
import re
import zipfile
from collections.abc import Iterator
from typing import IO

from races.importing import limits
from races.importing.limits import LimitExceeded, ReadBudget, size_text

MAX_PARTS = 1000
MAX_OTHER_XML_BYTES = 1024 * 1024  # styles, theme, workbook...: a few KB in real files
_CHUNK = 1024 * 1024
_ROW = re.compile(rb"<(?:\w+:)?row(?=[\s/>])(?:[^>]*?\sr=\"(\d+)\")?")
_CELL = re.compile(rb"<(?:\w+:)?c(?=[\s/>])(?:[^>]*?\sr=\"([A-Za-z]+)(\d+)\")?")
_SHARED_STRING = re.compile(rb"<(?:\w+:)?si[\s/>]")
_DIMENSION = re.compile(rb"<(?:\w+:)?dimension\s[^>]*?ref=\"([^\"]*)\"")
_REF = re.compile(r"([A-Za-z]{0,3})(\d{0,7})")
_TAIL = 4096  # bytes kept between chunks so that no tag is cut in two


def column_number(letters: str) -> int:
    """ "A" -> 1, "Z" -> 26, "AA" -> 27, "XFD" -> 16384."""
    number = 0
    for letter in letters.upper():
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


def workbook_check(content: bytes, *, budget: ReadBudget) -> None:
    """Raise LimitExceeded when the workbook is past a bound; zipfile errors pass through."""
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        parts = archive.infolist()
        if len(parts) > MAX_PARTS:
            raise LimitExceeded(f"the workbook holds {len(parts):,} parts: not a results file")
        inflated = sum(part.file_size for part in parts)
        if inflated > limits.MAX_UNZIPPED_BYTES:
            raise LimitExceeded(
                f"the workbook inflates to {size_text(inflated)}: at most "
                f"{size_text(limits.MAX_UNZIPPED_BYTES)} are read"
            )
        sheets = [part for part in parts if "worksheets/" in part.filename.lower()]
        if len(sheets) > limits.MAX_SHEETS:
            raise LimitExceeded(
                f"the workbook holds {len(sheets)} sheets: at most {limits.MAX_SHEETS} are read"
            )
        for part in parts:
            name = part.filename.lower()
            if part in sheets:
                with archive.open(part) as stream:
                    _sheet_scan(stream, part.filename, budget)
            elif name.endswith("sharedstrings.xml"):
                with archive.open(part) as stream:
                    _shared_strings_scan(stream, budget)
            elif name.endswith((".xml", ".rels")) and part.file_size > MAX_OTHER_XML_BYTES:
                raise LimitExceeded(
                    f"the part {part.filename} inflates to {size_text(part.file_size)}: "
                    "not a results file"
                )


def _scan(stream: IO[bytes], budget: ReadBudget) -> Iterator[bytes]:
    """The XML of a part in windows that never cut a tag in two (within _TAIL bytes)."""
    tail = b""
    while True:
        chunk = stream.read(_CHUNK)
        budget.clock()
        if not chunk:
            if tail:
                yield tail
            return
        window = tail + chunk
        # Keep the last bytes for the next window unless they hold no "<" (no tag to cut).
        cut = window.rfind(b"<", max(0, len(window) - _TAIL))
        if cut == -1:
            yield window
            tail = b""
        else:
            yield window[:cut]
            tail = window[cut:]


def _sheet_scan(stream: IO[bytes], name: str, budget: ReadBudget) -> None:
    where = f"the sheet {name.rsplit('/', 1)[-1]}"
    rows = cells = cells_in_row = 0
    max_row = max_column = 0
    dimension_seen = False
    for window in _scan(stream, budget):
        if not dimension_seen:
            found = _DIMENSION.search(window)
            if found:
                dimension_seen = True
                _dimension_check(found.group(1).decode("ascii", "replace"), where, budget)
        # Rows and cells in document order: merge both kinds of tag by position.
        tags = sorted(
            [(m.start(), 0, m) for m in _ROW.finditer(window)]
            + [(m.start(), 1, m) for m in _CELL.finditer(window)],
            key=lambda item: item[0],
        )
        for _position, kind, match in tags:
            if kind == 0:
                rows += 1
                cells_in_row = 0
                if match.group(1):
                    max_row = max(max_row, int(match.group(1)[:9]))
            else:
                cells += 1
                cells_in_row += 1
                if match.group(1):
                    max_column = max(max_column, column_number(match.group(1)[:4].decode()))
                if cells_in_row > budget.max_columns:
                    raise LimitExceeded(
                        f"{where} has a row of more than {budget.max_columns:,} cells: at most "
                        f"{budget.max_columns:,} columns are read"
                    )
        if max(rows, max_row) > budget.max_rows:
            raise LimitExceeded(
                f"{where} reaches row {max(rows, max_row):,}: at most {budget.max_rows:,} rows "
                "are read"
            )
        if max_column > budget.max_columns:
            raise LimitExceeded(
                f"{where} reaches column {max_column:,}: at most {budget.max_columns:,} "
                "columns are read"
            )
        if cells > budget.max_cells:
            raise LimitExceeded(f"{where} holds more than {budget.max_cells:,} cells: split it")


def _dimension_check(ref: str, where: str, budget: ReadBudget) -> None:
    """ "A1:XFD1048576" -> 1,048,576 rows x 16,384 columns: past the bounds, refused."""
    last = ref.split(":")[-1]
    match = _REF.fullmatch(last)
    if not match:
        return  # LibreOffice writes "1:49": nothing to check, the rows are counted anyway
    letters, digits = match.groups()
    rows = int(digits) if digits else 0
    columns = column_number(letters) if letters else 0
    if rows > budget.max_rows or columns > budget.max_columns:
        raise LimitExceeded(
            f"{where} declares the range {ref} ({rows:,} rows, {columns:,} columns): at most "
            f"{budget.max_rows:,} rows and {budget.max_columns:,} columns are read; save the "
            "sheet again, or as CSV UTF-8"
        )


def _shared_strings_scan(stream: IO[bytes], budget: ReadBudget) -> None:
    count = 0
    for window in _scan(stream, budget):
        count += len(_SHARED_STRING.findall(window))
        if count > budget.max_cells:
            raise LimitExceeded(
                f"the workbook holds more than {budget.max_cells:,} texts: split it"
            )
