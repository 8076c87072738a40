"""Import of real results (start lists, stages, stage results, classifications): docs/import.md."""

from races.importing.readers import ImportFile, import_files_read
from races.importing.report import ImportReport, MatchDoubt, RowError, RowNote
from races.importing.service import results_import

__all__ = [
    "ImportFile",
    "ImportReport",
    "MatchDoubt",
    "RowError",
    "RowNote",
    "import_files_read",
    "results_import",
]
