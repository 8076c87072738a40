"""The import of a real F1 championship from already-read tables (issue 15 item 3).

races' import reads the files within its bounds (``races/importing/limits.py``, the workbook
guard) and hands every table whose header :func:`~motor.importing.layouts.claims` to
:data:`IMPORTER`; motor never reads a file itself and never imports races. The outcome is plain
data (:class:`MotorOutcome`) that races turns into its report. All or nothing: any bad row and
nothing is written; a dry run is rolled back; re-importing the same files changes nothing.
"""

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, Protocol

from django.db import DataError, IntegrityError, transaction

from motor import standings
from motor.importing.layouts import LAYOUTS, claims, layout_for
from motor.models import (
    Championship,
    Constructor,
    Driver,
    Entry,
    GrandPrix,
    PointsSystem,
    Result,
    ResultStatus,
)
from motor.points_presets import presets_ensure, system_for_year

STATUSES = {"DNF", "NC", "DSQ", "DNS", "DNQ", "DNPQ", "DNP"}
_TIME = re.compile(r"^(?:(\d+):)?(?:(\d+):)?(\d+)(?:\.(\d{1,3}))?$")
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_DIGITS = re.compile(r"^[0-9]+$")  # ASCII only: str.isdigit() is also true for "²", int() fails
MAX_RACE_MS = 10 * 3600 * 1000  # no Grand Prix lasts ten hours


class TableLike(Protocol):
    name: str
    header: list[str]
    rows: list[tuple[int, list[str]]]


Error = tuple[str, int, str, str]  # file, line, column, reason


@dataclass
class MotorOutcome:
    """What the import did, as plain data for races' report."""

    layouts: dict[str, str] = field(default_factory=dict)
    errors: list[Error] = field(default_factory=list)
    notes: list[tuple[str, int, str]] = field(default_factory=list)
    doubts: list[tuple[str, str, int, str, str, str]] = field(default_factory=list)
    created: Counter[str] = field(default_factory=Counter)
    updated: Counter[str] = field(default_factory=Counter)
    unchanged: Counter[str] = field(default_factory=Counter)
    deleted: Counter[str] = field(default_factory=Counter)
    written: bool = False


class _Row:
    """One row as a dict with its file and line; ``bad`` collects the errors of its cells."""

    def __init__(self, table: TableLike, line: int, cells: list[str], errors: list[Error]):
        self.file, self.line = table.name, line
        self.values = dict(zip(table.header, cells, strict=False))
        self._errors = errors

    def error(self, column: str, reason: str) -> None:
        self._errors.append((self.file, self.line, column, reason))

    def text(self, column: str, *, required: bool = False, max_length: int = 200) -> str:
        value = self.values.get(column, "")
        if required and not value:
            self.error(column, "required")
        elif len(value) > max_length:
            self.error(column, f"longer than {max_length} characters")
            return ""
        return value

    def slug(self, column: str) -> str:
        value = self.text(column, required=True, max_length=80)
        if value and not _SLUG.match(value):
            self.error(column, f"{value!r} is not an id (lower-case letters, digits, dashes)")
            return ""
        return value

    def integer(self, column: str, *, required: bool = True, minimum: int = 0) -> int | None:
        value = self.values.get(column, "")
        if not value:
            if required:
                self.error(column, "required")
            return None
        if not _DIGITS.match(value) or int(value) < minimum or int(value) > 1_000_000:
            self.error(column, f"{value!r} is not a whole number from {minimum}")
            return None
        return int(value)

    def decimal(self, column: str) -> Decimal | None:
        value = self.values.get(column, "")
        if not value:
            return None
        try:
            number = Decimal(value)
        except InvalidOperation:
            number = Decimal(-1)
        if not number.is_finite() or number < 0 or number > 100_000:
            self.error(column, f"{value!r} is not a number of 0 or more")
            return None
        return number

    def day(self, column: str) -> date | None:
        value = self.values.get(column, "")
        if not value:
            return None
        try:
            return date.fromisoformat(value)
        except ValueError:
            self.error(column, f"{value!r} is not a date (YYYY-MM-DD)")
            return None


def time_ms(text: str) -> int | None:
    """``1:50:41.330`` -> milliseconds; None for anything else."""
    match = _TIME.match(text)
    if not match:
        return None
    a, b, seconds, fraction = match.groups()
    hours, minutes = (int(a), int(b)) if b is not None else (0, int(a or 0))
    if int(seconds) >= 60 or (b is not None and minutes >= 60):
        return None
    total = ((hours * 60 + minutes) * 60 + int(seconds)) * 1000 + int(
        (fraction or "0").ljust(3, "0")
    )
    return total if total <= MAX_RACE_MS else None


@dataclass
class _Plan:
    drivers: dict[str, dict[str, Any]] = field(default_factory=dict)
    constructors: dict[str, dict[str, Any]] = field(default_factory=dict)
    races: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    results: dict[tuple[int, int], list[dict[str, Any]]] = field(default_factory=dict)
    entries: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    official: dict[tuple[int, str], list[tuple[int, str, Decimal, str, int]]] = field(
        default_factory=lambda: defaultdict(list)
    )


def _parse(tables: Sequence[TableLike], outcome: MotorOutcome) -> _Plan:
    plan = _Plan()
    errors = outcome.errors
    by_layout = {layout.name: [] for layout in LAYOUTS}  # type: dict[str, list[TableLike]]
    for table in tables:
        layout = layout_for(table.header)
        assert layout is not None  # claimed tables only
        outcome.layouts[table.name] = layout.name
        by_layout[layout.name].append(table)
    fields: dict[str, Any]
    seen_places: dict[tuple[int, int, int], int] = {}
    seen_cars: dict[tuple[int, int, str], int] = {}
    for table in by_layout["f1 drivers"]:
        for line, cells in table.rows:
            row = _Row(table, line, cells, errors)
            slug = row.slug("driver_id")
            fields = {
                "name": row.text("name", required=True, max_length=120),
                "first_name": row.text("first_name", max_length=60),
                "last_name": row.text("last_name", max_length=60),
                "abbreviation": row.text("abbreviation", max_length=3),
                "birth_date": row.day("date_of_birth"),
                "nationality": row.text("nationality", max_length=60),
            }
            if slug in plan.drivers:
                row.error("driver_id", f"driver {slug!r} appears twice")
            elif slug:
                plan.drivers[slug] = fields | {"_where": (row.file, line)}
    for table in by_layout["f1 constructors"]:
        for line, cells in table.rows:
            row = _Row(table, line, cells, errors)
            slug = row.slug("constructor_id")
            fields = {
                "name": row.text("name", required=True, max_length=120),
                "full_name": row.text("full_name"),
                "country": row.text("country", max_length=60),
            }
            if slug in plan.constructors:
                row.error("constructor_id", f"constructor {slug!r} appears twice")
            elif slug:
                plan.constructors[slug] = fields
    for table in by_layout["f1 races"]:
        for line, cells in table.rows:
            row = _Row(table, line, cells, errors)
            season, number = row.integer("season", minimum=1950), row.integer("round", minimum=1)
            fields = {
                "date": row.day("date"),
                "name": row.text("grand_prix", required=True, max_length=120),
                "official_name": row.text("official_name"),
                "circuit": row.text("circuit", required=True, max_length=120),
                "circuit_slug": row.text("circuit_id", max_length=80),
                "country": row.text("country", max_length=60),
                "laps": row.integer("laps", minimum=1),
                "lap_km": row.decimal("lap_km"),
            }
            if season is None or number is None:
                continue
            if (season, number) in plan.races:
                row.error("round", f"round {number} of {season} appears twice")
            plan.races[(season, number)] = fields
    for table in by_layout["f1 results"]:
        for line, cells in table.rows:
            row = _Row(table, line, cells, errors)
            season, number = row.integer("season", minimum=1950), row.integer("round", minimum=1)
            driver, constructor = row.slug("driver_id"), row.slug("constructor_id")
            raw_position = row.text("position", required=True, max_length=8)
            position: int | None = None
            reason = row.text("reason_retired", max_length=80)
            if _DIGITS.match(raw_position) and int(raw_position) >= 1:
                position = int(raw_position)
                status = ResultStatus.DNF if reason else ResultStatus.FINISHED
            elif raw_position.upper() in STATUSES:
                status = ResultStatus(raw_position.upper())
            else:
                status = ResultStatus.FINISHED
                if raw_position:
                    row.error(
                        "position",
                        f"{raw_position!r} is neither a place nor one of "
                        + ", ".join(sorted(STATUSES)),
                    )
            time_text = row.text("time", max_length=20)
            milliseconds = time_ms(time_text) if time_text else None
            if time_text and milliseconds is None:
                row.error("time", f"{time_text!r} is not a race time (h:mm:ss.sss, under 10 hours)")
            fields = {
                "number": row.integer("number", required=False),
                "driver": driver,
                "constructor": constructor,
                "engine": row.text("engine", max_length=60),
                "grid": row.integer("grid", required=False, minimum=1),
                "position": position,
                "status": status,
                "reason": reason,
                "laps": row.integer("laps", required=False),
                "time_ms": milliseconds,
                "gap": row.text("gap", max_length=20),
                "points": row.decimal("points") or Decimal(0),
                "_where": (row.file, line),
            }
            if season is None or number is None or not driver or not constructor:
                continue
            _known(row, plan, driver, constructor)
            if (season, number) not in plan.races:
                row.error("round", f"round {number} of {season} is not in the races file")
            if position is not None:
                first = seen_places.setdefault((season, number, position), line)
                if first != line:
                    row.error("position", f"place {position} already given on line {first}")
            first = seen_cars.setdefault((season, number, driver), line)
            if first != line:
                row.error("driver_id", f"{driver} already has a result on line {first}")
            plan.results.setdefault((season, number), []).append(fields)
    _entries_parse(by_layout["f1 entries"], plan, errors)
    for kind, column in (("drivers", "driver_id"), ("constructors", "constructor_id")):
        for table in by_layout[f"f1 {kind[:-1]} standings"]:
            for line, cells in table.rows:
                row = _Row(table, line, cells, errors)
                season = row.integer("season", minimum=1950)
                position = row.integer("position", minimum=1)
                key, points = row.slug(column), row.decimal("points")
                if season is not None and position is not None and key and points is not None:
                    plan.official[(season, kind)].append(
                        (position, key, points, row.text("engine", max_length=60), line)
                    )
    return plan


def _known(row: _Row, plan: _Plan, driver: str, constructor: str) -> None:
    """A row error for a driver or constructor neither in the upload nor stored."""
    if driver not in plan.drivers and not Driver.objects.filter(slug=driver).exists():
        row.error("driver_id", f"unknown driver {driver!r}: not in the drivers file")
    if constructor not in plan.constructors and not (
        Constructor.objects.filter(slug=constructor).exists()
    ):
        row.error(
            "constructor_id", f"unknown constructor {constructor!r}: not in the constructors file"
        )


def _entries_parse(tables: Sequence[TableLike], plan: _Plan, errors: list[Error]) -> None:
    """The entry list of a season: each car (driver, constructor, engine) once, with its
    number; several drivers may share a number over a season (a replacement)."""
    seen: dict[tuple[int, str, str, str], int] = {}
    for table in tables:
        for line, cells in table.rows:
            row = _Row(table, line, cells, errors)
            season = row.integer("season", minimum=1950)
            driver, constructor = row.slug("driver_id"), row.slug("constructor_id")
            engine = row.text("engine", max_length=60)
            fields = {
                "driver": driver,
                "constructor": constructor,
                "engine": engine,
                "number": row.integer("number", minimum=1),
            }
            if season is None or not driver or not constructor:
                continue
            _known(row, plan, driver, constructor)
            first = seen.setdefault((season, driver, constructor, engine), line)
            if first != line:
                row.error("driver_id", f"{driver} in this car already on line {first}")
            plan.entries.setdefault(season, []).append(fields)


def _doubts(plan: _Plan, outcome: MotorOutcome) -> None:
    """New drivers whose name or (last name, birth date) is an existing one's: for the admin."""
    known = {
        slug for slug in Driver.objects.filter(slug__in=plan.drivers).values_list("slug", flat=True)
    }
    for slug, fields in plan.drivers.items():
        if slug in known:
            continue
        file, line = fields["_where"]
        same = Driver.objects.exclude(slug=slug).filter(name__iexact=fields["name"]).first()
        reason = "same name"
        if same is None and fields["last_name"] and fields["birth_date"]:
            same = (
                Driver.objects.exclude(slug=slug)
                .filter(last_name__iexact=fields["last_name"], birth_date=fields["birth_date"])
                .first()
            )
            reason = "same last name and birth date"
        if same is not None:
            outcome.doubts.append(("driver", file, line, fields["name"], same.name, reason))


def _upsert(model: Any, outcome: MotorOutcome, label: str, lookup: dict, fields: dict) -> Any:
    obj = model.objects.filter(**lookup).first()
    if obj is None:
        outcome.created[label] += 1
        return model.objects.create(**lookup, **fields)
    changed = [name for name, value in fields.items() if getattr(obj, name) != value]
    if changed:
        for name in changed:
            setattr(obj, name, fields[name])
        obj.save(update_fields=changed)
        outcome.updated[label] += 1
    else:
        outcome.unchanged[label] += 1
    return obj


def _write(plan: _Plan, outcome: MotorOutcome) -> None:
    drivers = {
        slug: _upsert(
            Driver,
            outcome,
            "drivers",
            {"slug": slug},
            {k: v for k, v in fields.items() if not k.startswith("_")},
        )
        for slug, fields in plan.drivers.items()
    }
    constructors = {
        slug: _upsert(Constructor, outcome, "constructors", {"slug": slug}, fields)
        for slug, fields in plan.constructors.items()
    }
    seasons = sorted(
        {season for season, _ in plan.races} | {s for s, _ in plan.results} | set(plan.entries)
    )
    presets_ensure()
    for season in seasons:
        system = PointsSystem.objects.get(slug=system_for_year(season))
        championship = _upsert(
            Championship,
            outcome,
            "championships",
            {"slug": f"formula-1-{season}"},
            {
                "name": f"Formula 1 World Championship {season}",
                "year": season,
                "kind": "real",
                "points_system": system,
            },
        )
        for car in plan.entries.get(season, []):
            _upsert(
                Entry,
                outcome,
                "entries",
                {
                    "championship": championship,
                    "driver": drivers.get(car["driver"]) or Driver.objects.get(slug=car["driver"]),
                    "constructor": constructors.get(car["constructor"])
                    or Constructor.objects.get(slug=car["constructor"]),
                    "engine": car["engine"],
                },
                {"number": car["number"]},
            )
        for (year, number), fields in sorted(plan.races.items()):
            if year != season:
                continue
            grand_prix = _upsert(
                GrandPrix,
                outcome,
                "grands prix",
                {"championship": championship, "round": number},
                fields,
            )
            rows = plan.results.get((year, number), [])
            kept: list[int] = []
            for result in rows:
                driver = drivers.get(result["driver"]) or Driver.objects.get(slug=result["driver"])
                constructor = constructors.get(result["constructor"]) or Constructor.objects.get(
                    slug=result["constructor"]
                )
                entry = Entry.objects.filter(
                    championship=championship,
                    driver=driver,
                    constructor=constructor,
                    engine=result["engine"],
                ).first()
                if entry is None:
                    entry = Entry.objects.create(
                        championship=championship,
                        driver=driver,
                        constructor=constructor,
                        engine=result["engine"],
                        number=result["number"],
                    )
                    outcome.created["entries"] += 1
                values = {
                    k: v
                    for k, v in result.items()
                    if k not in ("driver", "constructor", "engine", "_where")
                }
                kept.append(
                    _upsert(
                        Result,
                        outcome,
                        "results",
                        {"grand_prix": grand_prix, "entry": entry},
                        values,
                    ).pk
                )
            if (year, number) not in plan.results:
                continue  # no result of this race in the upload: its stored results stay
            stale = Result.objects.filter(grand_prix=grand_prix).exclude(pk__in=kept)
            if stale.exists():
                outcome.deleted["results"] += stale.count()
                stale.delete()
        if standings.championship_standings_write(championship):
            outcome.updated["standings"] += 1
        _official_check(championship, plan, outcome)


def _official_check(championship: Championship, plan: _Plan, outcome: MotorOutcome) -> None:
    """The standings the project computed against the official ones of the files: a note per
    difference (the import's own check that points system and countback are right)."""
    for kind in ("drivers", "constructors"):
        official = plan.official.get((championship.year, kind))
        if not official:
            continue
        computed = {
            (
                line.key if kind == "drivers" else line.key[0],
                line.key[1] if kind != "drivers" else "",
            ): (line.position, line.points)
            for line in standings.final_table(championship, kind)
        }
        for position, key, points, engine, line in official:
            mine = computed.get((key, engine if kind != "drivers" else ""))
            if mine != (position, points):
                outcome.notes.append(
                    (
                        f"{kind} standings",
                        line,
                        f"{key}: official {position}. with {points}, computed {mine}",
                    )
                )


def import_tables(
    tables: Sequence[TableLike], *, dry_run: bool = False, valid_rows_only: bool = False
) -> MotorOutcome:
    """Check every table, then write all or nothing (``valid_rows_only`` is not offered for a
    championship: a season with holes would score wrongly, so any bad row refuses the call)."""
    outcome = MotorOutcome()
    plan = _parse(tables, outcome)
    _doubts(plan, outcome)
    if outcome.errors:
        return outcome
    try:
        with transaction.atomic():
            _write(plan, outcome)
            if dry_run:
                transaction.set_rollback(True)
    except (IntegrityError, DataError) as error:
        outcome.errors.append(("(database)", 0, "", f"the database refused the import: {error}"))
        outcome.created.clear()
        outcome.updated.clear()
        outcome.unchanged.clear()
        return outcome
    outcome.written = not dry_run and bool(+outcome.created or +outcome.updated)
    return outcome


@dataclass(frozen=True)
class Importer:
    """What races' import looks up through ``MotorConfig.results_importer``."""

    name: str
    claims: Any
    import_tables: Any


IMPORTER = Importer(name="motor", claims=claims, import_tables=import_tables)
