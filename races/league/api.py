"""A stage's results, classifications and events as plain lines for the read API (season/api):
the same rows the stage's pages read, in one shape for every game (place, competitor, name,
team, value, gap, status, detail). Each function is one query; the league teams' names come
from the caller (season ids it knows)."""

from collections.abc import Mapping
from typing import Any

from django.db.models import F

from races.models import Classification, RaceEvent, Stage, StageResult, Standing

#: The classifications of a stage race after a stage, in the pages' order.
TABLES = (
    Classification.GENERAL,
    Classification.POINTS,
    Classification.MOUNTAINS,
    Classification.YOUTH,
    Classification.TEAMS,
)

#: What a classification's value counts.
_UNITS = {
    Classification.GENERAL: "seconds",
    Classification.POINTS: "points",
    Classification.MOUNTAINS: "points",
    Classification.YOUTH: "seconds",
    Classification.TEAMS: "seconds",
}


def tables() -> list[tuple[str, str, str]]:
    """The classifications as (key, label, unit)."""
    return [(str(c.value), str(c.label), _UNITS[c]) for c in TABLES]


def results_lines(stage: Stage, *, team_names: Mapping[int, str]) -> list[dict[str, Any]]:
    """Every rider's result of the stage, by place (one query)."""
    rows = (
        StageResult.objects.filter(stage=stage)
        .select_related("rider")
        # The riders out of the race (no place) last on every database.
        .order_by(F("rank").asc(nulls_last=True), "pk")
    )
    return [
        {
            "place": result.rank,
            "competitor_id": result.rider_id,
            "name": result.rider.name,
            "team_id": result.entry_team_id,
            "team": team_names.get(result.entry_team_id or 0, ""),
            "value": result.time_seconds,
            "gap": result.gap_seconds,
            "status": result.status,
            "detail": {
                "bonus_seconds": result.bonus_seconds,
                "penalty_seconds": result.penalty_seconds,
                "crashes": len(result.crashes or []),
                "reason": result.status_reason,
            },
        }
        for result in rows
    ]


def standing_lines(
    stage: Stage, table: str, *, team_names: Mapping[int, str]
) -> list[dict[str, Any]] | None:
    """One classification after the stage, by place (one query); None: no such table."""
    if table not in {c.value for c in TABLES}:
        return None
    rows = (
        Standing.objects.filter(stage=stage, classification=table)
        .select_related("rider")
        .order_by(F("rank").asc(nulls_last=True), "pk")
    )
    teams = table == Classification.TEAMS
    return [
        {
            "place": line.rank,
            "competitor_id": None if teams else line.rider_id,
            "name": (
                team_names.get(line.entry_team_id or 0, "")
                if teams or line.rider is None
                else line.rider.name
            ),
            "team_id": line.entry_team_id,
            "team": team_names.get(line.entry_team_id or 0, ""),
            "value": line.value,
            "gap": line.gap,
            "status": "",
            "detail": {},
        }
        for line in rows
    ]


def event_lines(stage: Stage) -> list[dict[str, Any]]:
    """What happened in the stage, in the engine's order, as its page lists it (the attacks
    left out, as there; one query)."""
    return [
        {
            "seq": event.seq,
            "turn": event.turn,
            "kind": event.kind,
            "competitor_ids": list(event.rider_ids or ([event.rider_id] if event.rider_id else [])),
            "detail": {"rule": event.detail, "square": event.case, **(event.data or {})},
        }
        for event in RaceEvent.objects.filter(stage=stage)
        .exclude(kind=RaceEvent.Kind.ATTACK)
        .order_by("seq")
    ]
