"""The one import service: the admin and the `import_results` command both call it."""

from collections.abc import Sequence

from django.db import DataError, IntegrityError, transaction

from races.importing.foreign import foreign_import, importer_for
from races.importing.layouts import layout_detect
from races.importing.parsing import AnyRow, table_parse
from races.importing.plan import doubts_report, plan_build, plan_load
from races.importing.readers import ImportFile, size_errors, tables_read
from races.importing.report import WHOLE_FILE, FileSummary, ImportReport, RowError
from races.importing.writer import plan_write
from races.profile_derivation import profiles_suggest_for_import

HEADER_LINE = 1


def results_import(
    *, files: Sequence[ImportFile], dry_run: bool = False, valid_rows_only: bool = False
) -> ImportReport:
    """Import real start lists, stages, results and classifications, all or nothing.

    Every file is read and checked before anything is written. With any bad row nothing is
    written (unless `valid_rows_only`, which writes the valid rows and skips the bad ones);
    `dry_run` does the whole work in a transaction that is rolled back, so the report says
    exactly what an import would do. One call is one transaction.
    """
    report = ImportReport(dry_run=dry_run, valid_rows_only=valid_rows_only)
    rows: list[AnyRow] = []
    file_order: dict[str, int] = {}
    summaries: dict[str, FileSummary] = {}
    foreign: dict[int, tuple[object, list]] = {}  # another app's tables (motor's F1 files)
    refused = size_errors(files)
    report.errors.extend(refused)
    too_large = {error.file for error in refused}
    for file in files:
        if file.name in too_large or "(all files)" in too_large:
            summaries[file.name] = FileSummary(name=file.name, layout="too large: not read")
            continue
        tables, errors = tables_read(file=file)
        report.errors.extend(errors)
        if not tables:
            summaries[file.name] = FileSummary(name=file.name, layout="unreadable")
        for table in tables:
            file_order[table.name] = len(file_order)
            summary = FileSummary(
                name=table.name, layout="?", rows=len(table.rows) + table.unreadable_rows
            )
            summaries[table.name] = summary
            if not table.header:
                summary.layout = "unreadable header"
                continue
            other = importer_for(table.header)
            if other is not None:
                foreign.setdefault(id(other), (other, []))[1].append(table)
                continue
            try:
                layout = layout_detect(header=table.header, file_name=table.name)
            except ValueError as error:
                report.errors.append(RowError(table.name, WHOLE_FILE, "", str(error)))
                summary.layout = "unknown layout"
                continue
            summary.layout = layout.name
            parsed = table_parse(table=table, layout=layout)
            report.errors.extend(parsed.errors)
            report.notes.extend(parsed.notes)
            rows.extend(parsed.rows)
    if foreign and not rows:
        # A call of F1 files only: the other app checks and writes them, all or nothing.
        report.files = list(summaries.values())
        # After an unreadable file the tables are still checked, but nothing is written.
        check_only = dry_run or bool(report.errors)
        for other, tables in foreign.values():
            foreign_import(other, tables, report, summaries, dry_run=check_only)
        _count_bad_rows(report)
        report.valid_rows_only = False
        report.written = not dry_run and not report.errors and report.changed
        return report
    if foreign:
        report.errors.append(
            RowError(
                "(all files)",
                WHOLE_FILE,
                "",
                "motor and cycling files cannot be imported in one call: import them apart",
            )
        )
    plan = plan_load(rows=rows)
    report.errors.extend(plan_build(plan=plan, rows=rows, file_order=file_order))
    report.doubts.extend(doubts_report(plan))
    report.files = list(summaries.values())
    _count_bad_rows(report)
    if report.errors and not valid_rows_only:
        return report
    try:
        with transaction.atomic():
            plan_write(plan=plan, report=report)
            if dry_run:
                transaction.set_rollback(True)
            elif report.changed:
                # Suggested ratings, never ratings: an admin approves them (docs/profiles.md).
                # An import that changes nothing leaves the facts, so the suggestions, as
                # they were.
                report.suggested = profiles_suggest_for_import(
                    race_ids=[race.pk for race in plan.races.values() if race.pk],
                    rider_ids=[
                        rider.pk
                        for rider in [*plan.touched_riders.values(), *plan.new_riders]
                        if rider.pk
                    ],
                )
    # The checks above mirror every constraint; should one still refuse a row, the call is
    # rolled back and reported rather than raised, as for any other bad input.
    except (IntegrityError, DataError) as error:
        report.errors.append(
            RowError("(database)", WHOLE_FILE, "", f"the database refused the import: {error}")
        )
        report.created.clear()
        report.updated.clear()
        report.deleted.clear()
        report.unchanged.clear()
        report.valid_rows_only = False
        return report
    report.written = not dry_run and report.changed
    return report


def _count_bad_rows(report: ImportReport) -> None:
    bad: dict[str, set[int]] = {}
    for error in report.errors:
        bad.setdefault(error.file, set()).add(error.line)
    for summary in report.files:
        lines = bad.get(summary.name, set())
        whole = WHOLE_FILE in lines or HEADER_LINE in lines
        summary.bad_rows = summary.rows if whole else len(lines)
