"""The demo Grand Prix championship (issue 15 item 7): the real 1981 calendar with six real teams.

Facts come from the project's own copies in ``fixtures/f1_1981/`` (``races.csv``,
``drivers.csv`` and ``constructors.csv`` in the layout of the real F1 data, ``entries.csv`` the
12 cars of the demo); each round's track is the shipped track file of its circuit
(``motor/tracks/grandprix/<circuit_id>.yaml``), stored through :mod:`motor.track_files`.

:func:`demo_championship_load` is idempotent: a second run finds every row as it is and writes
nothing. It creates no league season (the season app builds that on this championship).
"""

import csv
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path

from django.conf import settings
from django.db import transaction

from motor.models import (
    Championship,
    ChampionshipKind,
    Constructor,
    Driver,
    Entry,
    GrandPrix,
    PointsSystem,
    Track,
)
from motor.points_presets import presets_ensure
from motor.track_files import CIRCUIT_TRACKS, SHIPPED, TrackFaults, track_store

FIXTURES_DIR = Path(settings.BASE_DIR) / "fixtures" / "f1_1981"
TRACKS_DIR = SHIPPED / "grandprix"
DEMO_CHAMPIONSHIP_SLUG = "demo-1981"
DEMO_CHAMPIONSHIP_NAME = "Grand Prix 1981 (demo)"
DEMO_YEAR = 1981
#: The 9-6-4-3-2-1 era (motor/points_presets.py), without the 1981 best-11 rule.
DEMO_POINTS_SYSTEM = "f1-1961-1990"
#: Circuits whose track file is not named after the ``circuit_id`` of races.csv.
TRACK_FILES = {circuit: f"{track}.yaml" for circuit, track in CIRCUIT_TRACKS.items()}


class DemoChampionshipError(Exception):
    """A demo file is missing or wrong: the message names the file, line and field."""


@dataclass
class DemoChampionshipReport:
    """What a load did: rows created or updated per kind (all zero on a second run)."""

    championship: Championship
    created: dict[str, int] = field(default_factory=dict)
    updated: dict[str, int] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        return any(self.created.values()) or any(self.updated.values())

    def count(self, kind: str, created: bool, updated: bool) -> None:
        if created:
            self.created[kind] = self.created.get(kind, 0) + 1
        elif updated:
            self.updated[kind] = self.updated.get(kind, 0) + 1


def _rows(path: Path, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """(line, row) of a CSV file that has at least ``columns``."""
    if not path.is_file():
        raise DemoChampionshipError(f"{path.name}: file missing in {path.parent}")
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in columns if c not in (reader.fieldnames or ())]
        if missing:
            raise DemoChampionshipError(f"{path.name} line 1: missing column {missing[0]!r}")
        return [(line, row) for line, row in enumerate(reader, start=2)]


def _value(path: Path, line: int, row: dict[str, str], column: str, kind: type = str) -> object:
    text = (row.get(column) or "").strip()
    if not text:
        raise DemoChampionshipError(f"{path.name} line {line}, column {column}: empty")
    try:
        if kind is int:
            return int(text)
        if kind is Decimal:
            return Decimal(text)
        if kind is date:
            return date.fromisoformat(text)
    except (ValueError, InvalidOperation):
        raise DemoChampionshipError(
            f"{path.name} line {line}, column {column}: {text!r} is not a {kind.__name__}"
        ) from None
    return text


def _save(
    model: type, lookup: dict[str, object], fields: dict[str, object]
) -> tuple[object, bool, bool]:
    """(row, created, updated): like update_or_create, but saves only when a field differs."""
    row = model.objects.filter(**lookup).first()  # type: ignore[attr-defined]
    if row is None:
        return model.objects.create(**lookup, **fields), True, False  # type: ignore[attr-defined]
    changed = [name for name, value in fields.items() if getattr(row, name) != value]
    for name in changed:
        setattr(row, name, fields[name])
    if changed:
        row.save(update_fields=changed)
    return row, False, bool(changed)


def _track(circuit_id: str, where: str, tracks_dir: Path) -> tuple[Track, bool]:
    path = tracks_dir / TRACK_FILES.get(circuit_id, f"{circuit_id}.yaml")
    if not path.is_file():
        raise DemoChampionshipError(
            f"{where}: no track file {path.name} for circuit {circuit_id!r}"
        )
    try:
        return track_store(content=path.read_bytes(), file_name=path.name)
    except TrackFaults as faults:
        raise DemoChampionshipError(f"{where}: track file {path.name} refused: {faults}") from None


@transaction.atomic
def demo_championship_load(
    *, fixtures_dir: Path = FIXTURES_DIR, tracks_dir: Path = TRACKS_DIR
) -> DemoChampionshipReport:
    """Create (or find unchanged) the demo championship ``demo-1981``: 15 Grands Prix on the
    tracks of their circuits, and the 12 cars of six real 1981 teams. All or nothing."""
    presets_ensure()
    system = PointsSystem.objects.filter(slug=DEMO_POINTS_SYSTEM).first()
    if system is None:
        raise DemoChampionshipError(
            f"points system {DEMO_POINTS_SYSTEM!r} missing (run the migrations of motor)"
        )
    championship, created, updated = _save(
        Championship,
        {"slug": DEMO_CHAMPIONSHIP_SLUG},
        {
            "name": DEMO_CHAMPIONSHIP_NAME,
            "year": DEMO_YEAR,
            # The source a league's season is made from, as the real Tour is for cycling's
            # demo; the season's own copy is the "league" kind.
            "kind": ChampionshipKind.REAL,
            "points_system": system,
        },
    )
    assert isinstance(championship, Championship)
    report = DemoChampionshipReport(championship)
    report.count("championships", created, updated)

    races = fixtures_dir / "races.csv"
    columns: tuple[str, ...] = ("season", "round", "date", "grand_prix", "official_name")
    columns += ("circuit", "circuit_id", "country", "lap_km", "laps")
    for line, row in _rows(races, columns):
        if _value(races, line, row, "season", int) != DEMO_YEAR:
            raise DemoChampionshipError(f"races.csv line {line}, column season: not {DEMO_YEAR}")
        circuit_id = str(_value(races, line, row, "circuit_id"))
        track, track_created = _track(circuit_id, f"races.csv line {line}", tracks_dir)
        report.count("tracks", track_created, False)
        _row, created, updated = _save(
            GrandPrix,
            {"championship": championship, "round": _value(races, line, row, "round", int)},
            {
                "name": _value(races, line, row, "grand_prix"),
                "official_name": row.get("official_name", "").strip(),
                "date": _value(races, line, row, "date", date),
                "circuit": _value(races, line, row, "circuit"),
                "circuit_slug": circuit_id,
                "country": row.get("country", "").strip(),
                "track": track,
                "laps": _value(races, line, row, "laps", int),
                "lap_km": _value(races, line, row, "lap_km", Decimal),
            },
        )
        report.count("grands_prix", created, updated)

    drivers: dict[str, Driver] = {}
    path = fixtures_dir / "drivers.csv"
    for line, row in _rows(path, ("driver_id", "name", "abbreviation", "date_of_birth")):
        slug = str(_value(path, line, row, "driver_id"))
        driver, created, updated = _save(
            Driver,
            {"slug": slug},
            {
                "name": _value(path, line, row, "name"),
                "first_name": row.get("first_name", "").strip(),
                "last_name": row.get("last_name", "").strip(),
                "abbreviation": _value(path, line, row, "abbreviation"),
                "birth_date": _value(path, line, row, "date_of_birth", date),
                "nationality": row.get("nationality", "").strip(),
            },
        )
        assert isinstance(driver, Driver)
        drivers[slug] = driver
        report.count("drivers", created, updated)

    constructors: dict[str, Constructor] = {}
    path = fixtures_dir / "constructors.csv"
    for line, row in _rows(path, ("constructor_id", "name")):
        slug = str(_value(path, line, row, "constructor_id"))
        constructor, created, updated = _save(
            Constructor,
            {"slug": slug},
            {
                "name": _value(path, line, row, "name"),
                "full_name": row.get("full_name", "").strip(),
                "country": row.get("country", "").strip(),
            },
        )
        assert isinstance(constructor, Constructor)
        constructors[slug] = constructor
        report.count("constructors", created, updated)

    path = fixtures_dir / "entries.csv"
    for line, row in _rows(path, ("constructor_id", "engine", "number", "driver_id")):
        driver_id = str(_value(path, line, row, "driver_id"))
        constructor_id = str(_value(path, line, row, "constructor_id"))
        if driver_id not in drivers:
            raise DemoChampionshipError(
                f"entries.csv line {line}, column driver_id: {driver_id!r} not in drivers.csv"
            )
        if constructor_id not in constructors:
            raise DemoChampionshipError(
                f"entries.csv line {line}, column constructor_id: {constructor_id!r} not in"
                " constructors.csv"
            )
        _row, created, updated = _save(
            Entry,
            {
                "championship": championship,
                "driver": drivers[driver_id],
                "constructor": constructors[constructor_id],
                "engine": _value(path, line, row, "engine"),
            },
            {"number": _value(path, line, row, "number", int)},
        )
        report.count("entries", created, updated)
    return report
