from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from races.importing import import_files_read, results_import


class Command(BaseCommand):
    help = (
        "Import real start lists, stages, results and classifications (CSV or XLSX; our layout "
        "or ProCyclingStats'). All or nothing: any bad row and nothing is written (docs/import.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", type=Path, help="files, or folders of files")
        parser.add_argument(
            "--dry-run", action="store_true", help="check and report, write nothing"
        )
        parser.add_argument(
            "--valid-rows-only",
            action="store_true",
            help="write the valid rows even when some rows are bad",
        )

    def handle(self, *args: object, **options: object) -> None:
        paths: list[Path] = options["paths"]  # type: ignore[assignment]
        missing = [str(path) for path in paths if not path.exists()]
        if missing:
            raise CommandError(f"No such file or folder: {', '.join(missing)}")
        try:
            files = import_files_read(paths=paths)
        except OSError as error:  # unreadable file or folder: said, not a traceback
            raise CommandError(f"Cannot read {error.filename}: {error.strerror}") from None
        if not files:
            raise CommandError("No CSV or XLSX file found.")
        report = results_import(
            files=files,
            dry_run=bool(options["dry_run"]),
            valid_rows_only=bool(options["valid_rows_only"]),
        )
        for line in report.lines()[:-1]:
            self.stdout.write(line)
        if report.errors:
            if report.written:
                self.stdout.write(self.style.WARNING(report.outcome()))
            raise CommandError(
                f"{len(report.errors)} error(s) in {report.bad_rows} row(s). "
                + ("" if report.written else "Nothing written.")
            )
        self.stdout.write(self.style.SUCCESS(report.outcome()))
