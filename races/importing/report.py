"""What an import call tells its caller: plain dataclasses for the admin and the command."""

from collections import Counter
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

# Line 0 names the file as a whole (unreadable file, unknown layout) or the whole call.
WHOLE_FILE = 0


@dataclass(frozen=True, order=True)
class RowError:
    """A bad row: where (file, line with the header as line 1, column) and why."""

    file: str
    line: int
    column: str
    reason: str

    def __str__(self) -> str:
        where = self.file if self.line == WHOLE_FILE else f"{self.file}:{self.line}"
        column = f" [{self.column}]" if self.column else ""
        return f"{where}{column}: {self.reason}"


@dataclass(frozen=True)
class RowNote:
    """A valid row worth a word (a rider struck out, a rank dropped...)."""

    file: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.text}"


@dataclass(frozen=True)
class MatchDoubt:
    """A name that may be an existing rider or team under another spelling: for the admin."""

    kind: str  # "rider" or "team"
    file: str
    line: int
    imported_name: str
    candidate_name: str
    reason: str

    def __str__(self) -> str:
        return (
            f"{self.file}:{self.line}: {self.kind} {self.imported_name!r} may be "
            f"{self.candidate_name!r} ({self.reason}): created apart, to confirm in the admin"
        )


@dataclass
class FileSummary:
    name: str
    layout: str
    rows: int = 0
    bad_rows: int = 0


@dataclass
class ImportReport:
    dry_run: bool = False
    valid_rows_only: bool = False
    files: list[FileSummary] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)
    notes: list[RowNote] = field(default_factory=list)
    doubts: list[MatchDoubt] = field(default_factory=list)
    created: Counter[str] = field(default_factory=Counter)
    updated: Counter[str] = field(default_factory=Counter)
    deleted: Counter[str] = field(default_factory=Counter)
    unchanged: Counter[str] = field(default_factory=Counter)
    written: bool = False
    #: Riders given a suggested profile (or the "too little data" flag) by the import.
    suggested: int = 0

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def rows(self) -> int:
        return sum(summary.rows for summary in self.files)

    @property
    def bad_rows(self) -> int:
        return sum(summary.bad_rows for summary in self.files)

    @property
    def changed(self) -> bool:
        return bool(+self.created or +self.updated or +self.deleted)

    def outcome(self) -> str:
        """One sentence: what happened to the database."""
        if self.errors and not self.valid_rows_only:
            return _("Nothing written: %(bad)s bad row(s) in %(rows)s.") % {
                "bad": self.bad_rows,
                "rows": self.rows,
            }
        if not self.changed:
            return _("Nothing to change: the database already holds these facts.")
        values = {"valid": self.rows - self.bad_rows, "bad": self.bad_rows}
        if self.errors:
            if self.dry_run:
                return _("Would write %(valid)s valid row(s), %(bad)s bad row(s) skipped.") % values
            return _("Wrote %(valid)s valid row(s), %(bad)s bad row(s) skipped.") % values
        if self.dry_run:
            return _("Would write %(valid)s valid row(s).") % values
        return _("Wrote %(valid)s valid row(s).") % values

    def lines(self) -> list[str]:
        """The report as text lines (the command prints them)."""
        out = [
            f"{summary.name}: {summary.layout}, {summary.rows} row(s)"
            + (f", {summary.bad_rows} bad" if summary.bad_rows else "")
            for summary in self.files
        ]
        for title, counter in (
            ("created", self.created),
            ("updated", self.updated),
            ("deleted (replaced)", self.deleted),
            ("unchanged", self.unchanged),
        ):
            if +counter:
                out.append(
                    f"{title}: " + ", ".join(f"{n} {k}" for k, n in sorted(counter.items()) if n)
                )
        out.extend(f"error: {error}" for error in sorted(self.errors))
        out.extend(f"doubtful: {doubt}" for doubt in self.doubts)
        out.extend(f"note: {note}" for note in self.notes)
        if self.suggested:
            out.append(self.review_line())
        out.append(self.outcome())  # the last line (the command prints it styled)
        return out

    def review_line(self) -> str:
        return _(
            "Suggested ratings for %(riders)s rider(s): an admin approves them in "
            "Riders › Ratings to review."
        ) % {"riders": self.suggested}
