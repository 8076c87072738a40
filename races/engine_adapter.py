"""The one module that knows both the engine's dataclasses and the ORM.

It turns rows into plain engine inputs (and back from their stored JSON for replays), and an
engine outcome into StageResult, RaceEvent and DiceLog rows.
"""

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from engine import get_ruleset, simulate
from engine.course import Course, Segment, segment_cases
from engine.outcome import (
    CyclosimSettings,
    Entrant,
    MorenoSettings,
    Outcome,
    Profile,
    StageInputs,
)
from engine.rulesets.cyclosim.orders import (
    AttackWindow,
    FinalOrders,
    RiderOrders,
    orders_from_data,
    validate_orders,
)
from engine.rulesets.cyclosim.sheet import consumed_at_start, pe_max_of
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
    #: Cyclo Sim: the orders as the season stores them (see `cyclosim_engine_orders`), and the
    #: energy consumed at the end of the previous stage.
    orders: Mapping[str, Any] | None = None
    pe_consumed: int = 0


#: Key of the ruleset version in a stage's stored inputs.
ENGINE_VERSION_KEY = "engine_version"


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


def row_at_km(course: Course, km: float) -> int:
    """The board row (case) at `km` from the start, through each segment's own scale."""
    start_case, start_km = 0, 0.0
    for segment, cases in zip(course.segments, segment_cases(course), strict=True):
        if km <= start_km + segment.km:
            share = (km - start_km) / segment.km if segment.km else 0.0
            return start_case + round(share * cases)
        start_case += cases
        start_km += segment.km
    return start_case


def cyclosim_engine_orders(order: Mapping[str, Any], course: Course) -> dict[str, Any]:
    """A rider's orders as stored by the season (form fields, attack window in km) -> the
    engine's JSON shape (cyclosim.md §4.1, attack window in board rows)."""
    data: dict[str, Any] = {
        "role": order.get("role", "domestique"),
        "pace": {
            "flat": order.get("pace_flat", "tempo"),
            "climb": order.get("pace_climb", "tempo"),
            "descent": order.get("pace_descent", "safe"),
        },
        "floor_pct": int(order.get("floor_pct", 0)),
        "wheel": [order.get("wheel", "any")],
        "relay": order.get("relay", "team"),
        "attacks": [],
    }
    start, end = order.get("attack_from_km"), order.get("attack_to_km")
    if start is not None and end is not None:
        data["attacks"] = [
            {
                "from_row": row_at_km(course, float(start)),
                "to_row": max(row_at_km(course, float(end)), row_at_km(course, float(start)) + 1),
                "pace": "expected",
                "mode": "any",
            }
        ]
    return data


def cyclosim_orders_errors(*, orders: Mapping[int, Mapping[str, Any]], stage: Stage) -> list[str]:
    """The engine's own check of a team's Cyclo Sim orders, as readable messages."""
    course = course_from_stage(stage)
    data = {
        "riders": {
            str(rider_id): cyclosim_engine_orders(o, course) for rider_id, o in orders.items()
        }
    }
    n_rows = sum(segment_cases(course))
    errors = validate_orders(data, rider_ids=set(orders), n_rows=n_rows)
    names = {
        str(pk): name for pk, name in Rider.objects.filter(pk__in=orders).values_list("pk", "name")
    }
    return [
        f"{names.get(str(who), f'Rider {who}')}, {ORDER_FIELD_NAMES.get(field, field)}: {message}"
        for who, fields in sorted(errors.items())
        for field, message in sorted(fields.items())
    ]


#: The engine's names of the order fields (cyclosim.md §4.1) as the orders form shows them.
ORDER_FIELD_NAMES: Mapping[str, str] = {
    "pace.flat": "pace on the flat",
    "pace.climb": "pace climbing",
    "pace.descent": "pace descending",
    "floor_pct": "energy kept",
    "wheel": "takes the wheel of",
    "relay": "relays with",
    "attacks[0].from_row": "attack window (its start, in board rows)",
    "attacks[0].to_row": "attack window (its end, in board rows)",
}


def _engine_orders(spec: EntrantSpec, course: Course) -> RiderOrders | None:
    if spec.orders is None:
        return None
    data = {"riders": {str(spec.rider_id): cyclosim_engine_orders(spec.orders, course)}}
    return orders_from_data(data).riders[spec.rider_id]


def stage_inputs_build(
    *,
    stage: Stage,
    entrants: Sequence[EntrantSpec],
    settings: MorenoSettings,
    cyclosim: CyclosimSettings | None = None,
    yellow_jersey: int | None = None,
    green_jersey: int | None = None,
) -> StageInputs:
    """Engine inputs for a stage; `entrants` come in start order (GC order, or bib order)."""
    riders = Rider.objects.in_bulk([spec.rider_id for spec in entrants])
    course = course_from_stage(stage)
    return StageInputs(
        course=course,
        entrants=tuple(
            Entrant(
                rider_id=spec.rider_id,
                team_id=spec.team_id,
                bib=spec.bib,
                profile=profile_of(riders[spec.rider_id]),
                role=spec.role,
                no_breakaway=spec.no_breakaway,
                tour_crash_count=spec.tour_crash_count,
                gc_rank_before=spec.gc_rank_before,
                gc_time_before=spec.gc_time_before,
                orders=_engine_orders(spec, course) if cyclosim else None,
                pe_consumed=spec.pe_consumed,
            )
            for spec in entrants
        ),
        settings=settings,
        cyclosim=cyclosim,
        yellow_jersey=yellow_jersey,
        green_jersey=green_jersey,
    )


def profile_of(rider: Rider) -> Profile:
    """The engine's profile of a rider: his eight ratings."""
    return Profile(**{axis: getattr(rider, axis) for axis in RATING_AXES})


def cyclosim_energy(
    *, rider: Rider, pe_consumed: int, settings: CyclosimSettings
) -> tuple[int, int]:
    """A rider's energy at the start of a Cyclo Sim stage, ``(pe, pe_max)`` (cyclosim.md
    §2.3), from the points he had consumed at the previous finish, as the engine counts it."""
    pe_max = pe_max_of(
        profile_of(rider),
        profiles=settings.profiles,
        base=settings.pe_base,
        per_rouleur=settings.pe_per_rouleur,
    )
    return pe_max - consumed_at_start(pe_consumed, pe_max, settings.overnight_recovery), pe_max


def inputs_to_data(inputs: StageInputs, *, ruleset: str) -> dict[str, Any]:
    """JSON-ready copy of the inputs, stored with the stage so that it can be replayed, with
    the version of the ruleset that resolved it."""
    return {**asdict(inputs), ENGINE_VERSION_KEY: get_ruleset(ruleset).version}


def stored_engine_version(data: Mapping[str, Any]) -> int | None:
    """The ruleset version stored with the inputs (None: stored before versions existed)."""
    version = data.get(ENGINE_VERSION_KEY)
    return int(version) if version is not None else None


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
        entrants=tuple(_entrant_from_data(entrant) for entrant in data["entrants"]),
        settings=MorenoSettings(**settings),
        cyclosim=CyclosimSettings(**data["cyclosim"]) if data.get("cyclosim") else None,
        yellow_jersey=data["yellow_jersey"],
        green_jersey=data["green_jersey"],
    )


def _entrant_from_data(data: Mapping[str, Any]) -> Entrant:
    orders = data.get("orders")
    return Entrant(
        **{
            **data,
            "profile": Profile(**data["profile"]),
            "orders": _rider_orders_from_data(orders) if orders else None,
        }
    )


def _rider_orders_from_data(data: Mapping[str, Any]) -> RiderOrders:
    """The inverse of `asdict` on RiderOrders (stored inputs of a resolved stage)."""
    return RiderOrders(
        **{
            **data,
            "wheel": tuple(data["wheel"]),
            "attacks": tuple(AttackWindow(**a) for a in data["attacks"]),
            "final": FinalOrders(**data["final"]),
        }
    )


def stage_simulate(*, ruleset: str, inputs: StageInputs, seed: int) -> Outcome:
    return simulate(ruleset, inputs, seed)


def dice_rows(outcome: Outcome) -> list[list[Any]]:
    return [[d.turn, d.unit, d.rider_id, d.rule_id, d.die, d.face] for d in outcome.dice]


def dice_sha256(rows: Iterable[Sequence[Any]]) -> str:
    text = json.dumps(list(rows), separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _carried_state(result: Any) -> dict[str, Any]:
    pe_consumed = getattr(result, "pe_consumed", None)
    return {} if pe_consumed is None else {"pe_consumed": pe_consumed}


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
            state=_carried_state(by_rider[line.rider_id]),
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
