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
from engine.cycling.course import Course, Segment
from engine.cycling.inputs import Entrant, StageInputs
from engine.cycling.outcome import Outcome
from engine.cycling.profile import Profile
from engine.outcome import Event
from engine.registry import cycling_ruleset
from engine.rulesets.cyclosim.settings import CyclosimSettings
from engine.rulesets.cyclosim.sheet import consumed_at_start, pe_max_of
from engine.spec import Spec
from races.engine_settings import engine_settings as engine_settings  # re-exported
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
    #: The orders as the season stores them (the fields of the ruleset's orders spec; Moréno's
    #: no-breakaway order is `no_breakaway`), and the energy consumed at the end of the
    #: previous stage (Cyclo Sim's carried state).
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


def orders_spec(ruleset: str) -> Spec:
    """The orders a player gives each rider under ``ruleset``: fields, choices, bounds,
    defaults and help text, from the engine (the one source of the order defaults)."""
    return get_ruleset(ruleset).orders_spec


def order_defaults(ruleset: str) -> dict[str, Any]:
    """Every order field of ``ruleset`` at its default."""
    return orders_spec(ruleset).defaults()


def orders_errors(
    *, ruleset: str, orders: Mapping[int, Mapping[str, Any]], stage: Stage
) -> list[str]:
    """The engine's own check of a team's orders on the stage's course, as readable messages
    naming the rider and the field."""
    hooks = cycling_ruleset(ruleset).cycling
    assert hooks is not None
    errors = hooks.orders_errors(orders, course_from_stage(stage))
    names = {
        str(pk): name for pk, name in Rider.objects.filter(pk__in=orders).values_list("pk", "name")
    }
    return [
        f"{names.get(str(who), f'Rider {who}')}, {field}: {message}"
        for who, fields in sorted(errors.items())
        for field, message in sorted(fields.items())
    ]


def cyclosim_orders_errors(*, orders: Mapping[int, Mapping[str, Any]], stage: Stage) -> list[str]:
    """The engine's own check of a team's Cyclo Sim orders, as readable messages."""
    return orders_errors(ruleset="cyclosim", orders=orders, stage=stage)


def stage_inputs_build(
    *,
    stage: Stage,
    entrants: Sequence[EntrantSpec],
    ruleset: str,
    settings: Any = None,
    yellow_jersey: int | None = None,
    green_jersey: int | None = None,
) -> StageInputs[Any, Any]:
    """Engine inputs for a stage; `entrants` come in start order (GC order, or bib order).

    ``settings`` is the ruleset's own settings object (None: its defaults); each rider's
    ruleset-specific part is built by the ruleset from his orders and carried state."""
    hooks = cycling_ruleset(ruleset).cycling
    assert hooks is not None
    riders = Rider.objects.in_bulk([spec.rider_id for spec in entrants])
    course = course_from_stage(stage)
    extras = {}
    for spec in entrants:
        orders: dict[str, Any] = dict(spec.orders) if spec.orders is not None else {}
        if spec.no_breakaway:
            orders["no_breakaway"] = True
        own = hooks.rider_of(orders, {"pe_consumed": spec.pe_consumed}, course)
        if own != hooks.rider.default:
            extras[spec.rider_id] = own
    return StageInputs(
        course=course,
        entrants=tuple(
            Entrant(
                rider_id=spec.rider_id,
                team_id=spec.team_id,
                bib=spec.bib,
                profile=profile_of(riders[spec.rider_id]),
                role=spec.role,
                tour_crash_count=spec.tour_crash_count,
                gc_rank_before=spec.gc_rank_before,
                gc_time_before=spec.gc_time_before,
            )
            for spec in entrants
        ),
        settings=settings,
        extras=extras,
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


def inputs_to_data(inputs: StageInputs[Any, Any], *, ruleset: str) -> dict[str, Any]:
    """The inputs in the ruleset's one JSON form, stored with the stage so that it can be
    replayed, with the version of the ruleset that resolved it."""
    codec = cycling_ruleset(ruleset).inputs
    assert codec is not None
    return {**codec.to_data(inputs), ENGINE_VERSION_KEY: get_ruleset(ruleset).version}


def ruleset_version(ruleset: str) -> int:
    """The version of ``ruleset`` this engine runs."""
    return get_ruleset(ruleset).version


def stored_engine_version(data: Mapping[str, Any]) -> int | None:
    """The ruleset version stored with the inputs (None: stored before versions existed)."""
    version = data.get(ENGINE_VERSION_KEY)
    return int(version) if version is not None else None


def inputs_from_data(data: Mapping[str, Any], *, ruleset: str) -> StageInputs[Any, Any]:
    """Stored inputs back, through the ruleset's inputs codec; inputs stored before the
    ruleset owned its settings (format 1) are read too."""
    codec = cycling_ruleset(ruleset).inputs
    assert codec is not None
    return codec.from_data({k: v for k, v in data.items() if k != ENGINE_VERSION_KEY})


def stage_simulate(*, ruleset: str, inputs: StageInputs[Any, Any], seed: int) -> Outcome:
    return simulate(ruleset, inputs, seed)


def dice_rows(outcome: Outcome) -> list[list[Any]]:
    return [[d.turn, d.unit, d.rider_id, d.rule_id, d.die, d.face] for d in outcome.dice]


def dice_sha256(rows: Iterable[Sequence[Any]]) -> str:
    text = json.dumps(list(rows), separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _case_of(event: Event) -> int | None:
    case = event.data.get("case")
    return case if type(case) is int else None


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
            state=dict(by_rider[line.rider_id].carried),
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
            case=_case_of(event),
            detail=str(event.data.get("rule", "")),
            data=dict(event.data),
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
