"""The one module that knows both the engine's dataclasses and the ORM.

It turns rows into plain engine inputs (and back from their stored JSON for replays), and an
engine outcome into StageResult, RaceEvent and DiceLog rows.
"""

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from races.engine import simulate
from races.engine.course import Course, Segment
from races.engine.outcome import Entrant, MorenoSettings, Outcome, Profile, StageInputs
from races.models import DiceLog, RaceEvent, Stage, StageResult
from races.timing import TimedLine
from riders.models import RATING_AXES, Rider


@dataclass(frozen=True)
class EntrantSpec:
    """What the season knows of a starter: who, for which league team, with which orders."""

    rider_id: int
    team_id: int
    bib: int
    role: str = "domestique"
    no_breakaway: bool = False
    tour_crash_count: int = 0
    gc_rank_before: int | None = None
    gc_time_before: int = 0


def course_from_stage(stage: Stage) -> Course:
    return Course(
        name=f"{stage.start} – {stage.finish}" if stage.start else f"Stage {stage.number}",
        stage_type=stage.stage_type,
        distance_km=float(stage.distance_km),
        segments=tuple(
            Segment(terrain=s["terrain"], km=float(s["km"]), name=s.get("name", ""))
            for s in stage.segments
        ),
        intermediate_sprints_km=tuple(float(km) for km in stage.intermediate_sprints_km),
    )


def stage_inputs_build(
    *,
    stage: Stage,
    entrants: Sequence[EntrantSpec],
    settings: MorenoSettings,
    yellow_jersey: int | None = None,
    green_jersey: int | None = None,
) -> StageInputs:
    """Engine inputs for a stage; `entrants` come in start order (GC order, or bib order)."""
    riders = Rider.objects.in_bulk([spec.rider_id for spec in entrants])
    return StageInputs(
        course=course_from_stage(stage),
        entrants=tuple(
            Entrant(
                rider_id=spec.rider_id,
                team_id=spec.team_id,
                bib=spec.bib,
                profile=Profile(
                    **{axis: getattr(riders[spec.rider_id], axis) for axis in RATING_AXES}
                ),
                role=spec.role,
                no_breakaway=spec.no_breakaway,
                tour_crash_count=spec.tour_crash_count,
                gc_rank_before=spec.gc_rank_before,
                gc_time_before=spec.gc_time_before,
            )
            for spec in entrants
        ),
        settings=settings,
        yellow_jersey=yellow_jersey,
        green_jersey=green_jersey,
    )


def inputs_to_data(inputs: StageInputs) -> dict[str, Any]:
    """JSON-ready copy of the inputs, stored with the stage so that it can be replayed."""
    return asdict(inputs)


def inputs_from_data(data: Mapping[str, Any]) -> StageInputs:
    course = data["course"]
    settings = dict(data["settings"])
    settings["abandon_table"] = tuple(tuple(row) for row in settings["abandon_table"])
    return StageInputs(
        course=Course(
            name=course["name"],
            stage_type=course["stage_type"],
            distance_km=course["distance_km"],
            segments=tuple(Segment(**segment) for segment in course["segments"]),
            intermediate_sprints_km=tuple(course["intermediate_sprints_km"]),
        ),
        entrants=tuple(
            Entrant(**{**entrant, "profile": Profile(**entrant["profile"])})
            for entrant in data["entrants"]
        ),
        settings=MorenoSettings(**settings),
        yellow_jersey=data["yellow_jersey"],
        green_jersey=data["green_jersey"],
    )


def stage_simulate(*, ruleset: str, inputs: StageInputs, seed: int) -> Outcome:
    return simulate(ruleset, inputs, seed)


def dice_rows(outcome: Outcome) -> list[list[Any]]:
    return [[d.turn, d.unit, d.rider_id, d.rule_id, d.die, d.face] for d in outcome.dice]


def dice_sha256(rows: Iterable[Sequence[Any]]) -> str:
    text = json.dumps(list(rows), separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def outcome_write(
    *,
    stage: Stage,
    outcome: Outcome,
    timed: Sequence[TimedLine],
    team_of: Mapping[int, int],
) -> None:
    """Write an outcome's rows. Call inside the resolving transaction."""
    by_rider = {result.rider_id: result for result in outcome.results}
    rider_teams = dict(Rider.objects.filter(pk__in=by_rider).values_list("pk", "team_id"))
    StageResult.objects.bulk_create(
        StageResult(
            stage=stage,
            rider_id=line.rider_id,
            team_id=rider_teams.get(line.rider_id),
            entry_team_id=team_of[line.rider_id],
            rank=line.rank,
            status=line.status,
            status_reason=line.status_reason,
            time_seconds=line.time_seconds,
            gap_seconds=line.gap_seconds,
            bonus_seconds=line.bonus_seconds,
            final_case=by_rider[line.rider_id].final_case,
            squares_behind=by_rider[line.rider_id].squares_behind,
            final_group=by_rider[line.rider_id].final_group,
            crashes=[asdict(crash) for crash in by_rider[line.rider_id].crashes],
        )
        for line in timed
    )
    RaceEvent.objects.bulk_create(
        RaceEvent(
            stage=stage,
            seq=seq,
            turn=event.turn,
            kind=event.kind,
            rider_id=event.rider_ids[0] if event.rider_ids else None,
            rider_ids=list(event.rider_ids),
            case=event.case,
            detail=event.detail[:200],
        )
        for seq, event in enumerate(outcome.events, start=1)
    )
    rows = dice_rows(outcome)
    DiceLog.objects.create(
        stage=stage,
        seed=outcome.seed,
        ruleset=outcome.ruleset,
        count=len(rows),
        sha256=dice_sha256(rows),
        rolls=rows,
    )
