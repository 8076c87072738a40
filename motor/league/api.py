"""A Grand Prix's results, its drivers' and constructors' tables and its events as plain lines
for the read API (season/api): the same rows its pages read, in the shape the API gives every
game (place, competitor, name, team, value, gap, status, detail). Each function is one query;
the league teams of the cars come from the caller (``team_of``: entry id -> team id)."""

from collections.abc import Mapping
from typing import Any

from django.db.models import F
from django.utils.translation import gettext as _

from motor.models import Entry, GrandPrix, GrandPrixEvent, Result, Standing, StandingTable


def tables() -> list[tuple[str, str, str]]:
    """The tables after a Grand Prix as (key, label, unit)."""
    return [
        (StandingTable.DRIVERS.value, _("Drivers' championship"), "points"),
        (StandingTable.CONSTRUCTORS.value, _("Constructors' championship"), "points"),
    ]


def _number(value: Any) -> float | None:
    return None if value is None else float(value)


def results_lines(
    grand_prix: GrandPrix, *, team_names: Mapping[int, str], team_of: Mapping[int, int]
) -> list[dict[str, Any]]:
    """Every car's result of the Grand Prix: the classified by place, then the others (one
    query)."""
    rows = (
        Result.objects.filter(grand_prix=grand_prix)
        .select_related("entry__driver", "entry__constructor")
        # The classified by place, then the others by grid (NULL places last on every
        # database: SQLite sorts them first).
        .order_by(F("position").asc(nulls_last=True), F("grid").asc(nulls_last=True), "pk")
    )
    lines = []
    for result in rows:
        team_id = team_of.get(result.entry_id)
        team = team_names.get(team_id, "") if team_id is not None else ""
        lines.append(
            {
                "place": result.position,
                "competitor_id": result.entry_id,
                "name": result.entry.driver.name,
                "team_id": team_id,
                "team": team,
                "value": _number(result.points),
                "gap": None,
                "status": result.status,
                "detail": {
                    "number": result.number,
                    "constructor": result.entry.constructor.name,
                    "grid": result.grid,
                    "laps": result.laps,
                    "time_ms": result.time_ms,
                    "gap": result.gap,
                    "reason": result.reason,
                    "retired_lap": result.retired_lap,
                    "pit_stops": result.pit_stops,
                    "fastest_lap": result.fastest_lap,
                },
            }
        )
    return lines


def standing_lines(
    grand_prix: GrandPrix, table: str, *, team_names: Mapping[int, str], team_of: Mapping[int, int]
) -> list[dict[str, Any]] | None:
    """The drivers' or constructors' table after the Grand Prix, by place (two queries); None:
    no such table. A driver's line names his car (its entry, as the results do) and its league
    team; a constructor's, its engine."""
    if table not in StandingTable.values:
        return None
    cars = dict(
        Entry.objects.filter(championship_id=grand_prix.championship_id).values_list(
            "driver_id", "pk"
        )
    )
    rows = list(
        Standing.objects.filter(grand_prix=grand_prix, table=table)
        .select_related("driver", "constructor")
        .order_by("position", "pk")
    )
    leader = rows[0].points if rows else None
    lines = []
    for line in rows:
        car = cars.get(line.driver_id) if line.driver_id is not None else None
        team_id = team_of.get(car) if car is not None else None
        lines.append(
            {
                "place": line.position,
                "competitor_id": car,
                "name": _line_name(line),
                "team_id": team_id,
                "team": team_names.get(team_id, "") if team_id is not None else "",
                "value": _number(line.points),
                "gap": _number(leader - line.points) if leader is not None else None,
                "status": "",
                "detail": {
                    "engine": line.engine,
                    "wins": line.wins,
                    "countback": list(line.countback or []),
                },
            }
        )
    return lines


def _line_name(line: Standing) -> str:
    if line.driver is not None:
        return line.driver.name
    return line.constructor.name if line.constructor is not None else ""


def event_lines(grand_prix: GrandPrix) -> list[dict[str, Any]]:
    """What happened in qualifying and the race, in the engine's order (one query)."""
    return [
        {
            "seq": event.seq,
            "turn": event.round,
            "kind": event.kind,
            "competitor_ids": [event.entry_id] if event.entry_id else [],
            "detail": {"phase": event.phase, **(event.data or {})},
        }
        for event in GrandPrixEvent.objects.filter(grand_prix=grand_prix).order_by("seq")
    ]
