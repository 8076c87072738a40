"""The fixed bounds within which every file is read (docs/import.md, "Limits and choices").

A real file is far inside them: a Grand Tour's results are about 4,000 rows of 15 columns; ten
years of them fit. A file past any of them is refused with a message naming the bound, before
it can cost the server more than the bound allows (a workbook whose sheet declares a million
rows, a zip that inflates to gigabytes, a CSV of millions of empty cells).
"""

import time
from dataclasses import dataclass, field

MAX_FILE_BYTES = 10 * 1024 * 1024  # one uploaded file, as uploaded
MAX_CALL_BYTES = 50 * 1024 * 1024  # all the files of one call
MAX_UNZIPPED_BYTES = 50 * 1024 * 1024  # a workbook's parts once inflated, as the zip declares
MAX_SHEETS = 50
MAX_ROWS = 100_000  # per table, header and empty rows included
MAX_COLUMNS = 1024  # LibreOffice may write styled empty cells up to AMJ
MAX_CELLS = 1_000_000  # per file
MAX_CELL_CHARS = 1000  # no name, place or number is longer
MAX_READ_SECONDS = 30.0  # per file


def size_text(size: int) -> str:
    """Bytes as an admin reads them: 10 MB, 4.7 KB."""
    if size >= 1024 * 1024:
        return f"{size / 1024 / 1024:.1f} MB".replace(".0 ", " ")
    if size >= 1024:
        return f"{size / 1024:.1f} KB".replace(".0 ", " ")
    return f"{size} bytes"


class LimitExceeded(Exception):
    """A file past one of the bounds; the message says which, for the admin."""

    def __init__(self, reason: str, *, line: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line  # 0: the file as a whole


@dataclass
class ReadBudget:
    """Counts what one file has cost so far while it is read; raises past any bound.

    The bounds are read when the budget is made (module constants, so a test may lower them).
    """

    max_rows: int = field(default_factory=lambda: MAX_ROWS)
    max_columns: int = field(default_factory=lambda: MAX_COLUMNS)
    max_cells: int = field(default_factory=lambda: MAX_CELLS)
    max_seconds: float = field(default_factory=lambda: MAX_READ_SECONDS)
    rows: int = 0
    cells: int = 0
    started: float = field(default_factory=time.monotonic)

    def row(self, *, line: int, width: int) -> None:
        """One more row, on `line`, of `width` cells (trailing empty cells included)."""
        self.rows += 1
        self.cells += width
        if self.rows > self.max_rows:
            raise LimitExceeded(f"more than {self.max_rows:,} rows: split the file")
        if width > self.max_columns:
            raise LimitExceeded(
                f"{width:,} cells in the row: at most {self.max_columns} columns are read",
                line=line,
            )
        if self.cells > self.max_cells:
            raise LimitExceeded(f"more than {self.max_cells:,} cells: split the file")
        self.clock()

    def clock(self) -> None:
        if time.monotonic() - self.started > self.max_seconds:
            raise LimitExceeded(f"reading took more than {self.max_seconds:g} s: split the file")
