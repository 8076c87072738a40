"""The end of a stage race in a league (docs/league.md "The players' ranking"): the players'
teams ranked by the Teams classification among them, the podium of the GC and the final
jerseys, the riders out of the race. Each reads the race's own rows, with the season's players
and team names given as plain values (CyclingAdapter.league_ranking, league_end,
league_abandons)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from races.formatting import clock, gap
from races.league.jerseys import jersey_holders
from races.league.reasons import reason_words
from races.models import Classification, Race, Stage, StageResult, Standing

#: The statuses of a rider out of the race: every one but finished.
OUT_OF_RACE = [s for s in StageResult.Status.values if s != StageResult.Status.FINISHED]


def ranking(stage: Stage, *, players: Mapping[int, Any]) -> list[tuple[int, int, str, str]]:
    """The Teams classification after ``stage`` among the players' teams only (the computer's
    teams take no place in it): (place, team id, the team's time, its gap to the best player's
    team). A team the classification left out is not in it."""
    lines = (
        Standing.objects.filter(
            stage__race_id=stage.race_id,
            stage__number=stage.number,
            classification=Classification.TEAMS,
            entry_team_id__in=list(players),
        )
        .order_by("rank")
        .values_list("entry_team_id", "rank", "value")
    )
    ranked = [
        (team_id, value)
        for team_id, rank, value in lines
        if rank is not None and team_id is not None
    ]
    best = ranked[0][1] if ranked else 0
    return [
        (place, team_id, clock(value), gap(value - best))
        for place, (team_id, value) in enumerate(ranked, start=1)
    ]


def end(stage: Stage, *, team_names: Mapping[int, str]) -> dict[str, Any]:
    """The GC's podium after the last stage ``stage`` (rank, rider id, name, team, the winner's
    time or the others' gap) and the final jerseys but the yellow one."""
    lines = (
        Standing.objects.filter(
            stage__race_id=stage.race_id,
            stage__number=stage.number,
            classification=Classification.GENERAL,
            rank__lte=3,
        )
        .select_related("rider")
        .order_by("rank")
    )
    return {
        "podium": [
            (
                line.rank or 0,
                line.rider_id,
                line.rider.name if line.rider else "",
                team_names.get(line.entry_team_id or 0, ""),
                clock(line.value) if line.rank == 1 else gap(line.gap),
            )
            for line in lines
        ],
        "jerseys": [
            jersey
            # The final podium: every winner receives his classification's jersey.
            for jersey in jersey_holders(
                race_id=stage.race_id,
                number=stage.number,
                team_names=lambda: team_names,
                worn=False,
            )
            if jersey.classification != Classification.GENERAL
        ],
    }


def abandons(
    race: Race, *, numbers: Iterable[int], team_names: Mapping[int, str]
) -> list[dict[str, Any]]:
    """Every rider out of the race in the stages ``numbers``, in stage order, with the result's
    status and reason (one query)."""
    results = (
        StageResult.objects.filter(
            stage__race_id=race.pk, stage__number__in=list(numbers), status__in=OUT_OF_RACE
        )
        .select_related("rider", "stage")
        .order_by("stage__number", "rider__name")
    )
    return [
        {
            "stage": result.stage.number,
            "rider_id": result.rider_id,
            "rider": result.rider.name,
            "team_id": result.entry_team_id if result.entry_team_id in team_names else None,
            "team": team_names.get(result.entry_team_id or 0, ""),
            "status": result.get_status_display(),
            "reason": reason_words(status=result.status, reason=result.status_reason),
        }
        for result in results
    ]
