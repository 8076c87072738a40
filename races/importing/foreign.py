"""Tables for another app's importer (motor's F1 files), found through the app registry.

An app offers an importer by naming it in its AppConfig (``results_importer = "dotted.path"``):
an object with ``name``, ``claims(header) -> bool`` and ``import_tables(tables, dry_run=,
valid_rows_only=)`` returning plain data. races reads every file within its own bounds and
hands the claimed tables over; it never imports the other app (races and motor are independent
layers), and the other app never reads a file itself.
"""

from collections.abc import Sequence
from typing import Any

from django.apps import apps
from django.utils.module_loading import import_string

from races.importing.readers import Table
from races.importing.report import FileSummary, ImportReport, MatchDoubt, RowError, RowNote


def importers() -> list[Any]:
    """The importers the installed apps offer, in INSTALLED_APPS order."""
    return [
        import_string(config.results_importer)  # type: ignore[attr-defined]
        for config in apps.get_app_configs()
        if getattr(config, "results_importer", None)
    ]


def importer_for(header: Sequence[str]) -> Any | None:
    return next((importer for importer in importers() if importer.claims(header)), None)


def foreign_import(
    importer: Any,
    tables: list[Table],
    report: ImportReport,
    summaries: dict[str, FileSummary],
    *,
    dry_run: bool,
) -> None:
    """Run the importer over its tables and put what it says into the report."""
    outcome = importer.import_tables(tables, dry_run=dry_run, valid_rows_only=False)
    for table in tables:
        summaries[table.name].layout = outcome.layouts.get(table.name, importer.name)
    report.errors.extend(RowError(*error) for error in outcome.errors)
    report.notes.extend(RowNote(*note) for note in outcome.notes)
    report.doubts.extend(MatchDoubt(*doubt) for doubt in outcome.doubts)
    report.created.update(outcome.created)
    report.updated.update(outcome.updated)
    report.deleted.update(outcome.deleted)
    report.unchanged.update(outcome.unchanged)
