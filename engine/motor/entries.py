"""The cars of a motor race (``id, driver, team`` CSV) and the per-car orders file."""

from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.motor.faults import TrackError
from engine.motor.trackfile import load_document

CAR_COLUMNS: tuple[str, ...] = ("id", "driver", "team")


class EntryError(ValueError):
    """A bad cars or orders file; the message names the file, the line and the field."""


@dataclass(frozen=True, slots=True)
class CarEntry:
    """One car of the field, in entry order."""

    car_id: str
    driver: str
    team: str


def read_cars(path: str | Path, *, max_cars: int = 12, team_size: int = 2) -> tuple[CarEntry, ...]:
    """Read the cars CSV (``id, driver, team``; extra columns ignored): at most ``max_cars``
    cars, unique ids, every team with exactly ``team_size`` cars; :class:`EntryError`."""
    name = str(path)
    try:
        with Path(path).open(encoding="utf-8-sig", newline="") as handle:
            reader = csv.DictReader(handle)
            header = {(c or "").strip() for c in reader.fieldnames or []}
            for col in CAR_COLUMNS:
                if col not in header:
                    raise EntryError(f"{name} line 1, field {col}: missing column")
            cars: list[CarEntry] = []
            seen: dict[str, int] = {}
            team_line: dict[str, int] = {}
            for raw in reader:
                line = reader.line_num
                row = {(k or "").strip(): (v or "").strip() for k, v in raw.items() if k}
                if not any(row.values()):
                    continue
                for col in CAR_COLUMNS:
                    if not row.get(col):
                        raise EntryError(f"{name} line {line}, field {col}: empty")
                car_id = row["id"]
                if car_id in seen:
                    raise EntryError(
                        f"{name} line {line}, field id: {car_id!r} already used on line "
                        f"{seen[car_id]}"
                    )
                seen[car_id] = line
                team_line.setdefault(row["team"], line)
                cars.append(CarEntry(car_id, row["driver"], row["team"]))
                if len(cars) > max_cars:
                    raise EntryError(f"{name} line {line}, field id: more than {max_cars} cars")
    except FileNotFoundError:
        raise EntryError(f"{name}: no such file") from None
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise EntryError(f"{name}: cannot be read ({exc})") from None
    if not cars:
        raise EntryError(f"{name}: no cars")
    for team, count in Counter(c.team for c in cars).items():
        if count != team_size:
            raise EntryError(
                f"{name} line {team_line[team]}, field team: team {team!r} has {count} "
                f"car{'s' if count != 1 else ''}, not {team_size}"
            )
    return tuple(cars)


def read_orders(path: str | Path, cars: tuple[CarEntry, ...]) -> dict[str, tuple[Any, int | None]]:
    """Read an orders file: a JSON (or YAML) list of objects, each with a ``car`` of ``cars``;
    returns ``{car_id: (object, line)}``. The ruleset validates the other fields."""
    try:
        doc = load_document(path)
    except TrackError as exc:
        raise EntryError(str(exc)) from None
    name = doc.name
    if not isinstance(doc.data, list):
        raise EntryError(f"{name} line {doc.line() or 1}: expected a list of orders objects")
    known = {c.car_id for c in cars}
    out: dict[str, tuple[Any, int | None]] = {}
    for i, item in enumerate(doc.data):
        line = doc.line(i)
        where = f"{name} line {line}" if line else name
        if not isinstance(item, dict):
            raise EntryError(f"{where}, field [{i}]: expected an object")
        car = item.get("car")
        car_id = str(car) if isinstance(car, str | int) and not isinstance(car, bool) else None
        if car_id is None or car_id not in known:
            raise EntryError(f"{where}, field [{i}].car: {car!r} is not a car of the cars file")
        if car_id in out:
            raise EntryError(f"{where}, field [{i}].car: second orders for car {car_id!r}")
        out[car_id] = (item, line)
    return out
