"""Re-simulate a resolved stage from its stored seed and inputs and compare with what is stored."""

from collections.abc import Sequence

from races.engine_adapter import (
    dice_rows,
    dice_sha256,
    inputs_from_data,
    ruleset_version,
    stage_simulate,
    stored_engine_version,
)
from races.models import DiceLog, RaceEvent, StageResult
from races.timing import EngineLine, stage_times
from season.models import DONE_STATUSES, Round

REINSTATED = "reinstated by the organiser"


def stage_replay(*, round: Round) -> list[str]:
    """Differences between a fresh simulation and the stored stage; empty when identical."""
    if round.status not in DONE_STATUSES or round.engine_inputs is None or round.seed is None:
        return [f"Stage {round.number} is not resolved: nothing to replay."]
    inputs = inputs_from_data(round.engine_inputs, ruleset=round.season.ruleset)
    outcome = stage_simulate(ruleset=round.season.ruleset, inputs=inputs, seed=round.seed)
    differences = []

    log = DiceLog.objects.get(stage_id=round.stage_id)
    rows = dice_rows(outcome)
    if (log.count, log.sha256, log.seed) != (len(rows), dice_sha256(rows), round.seed):
        differences.append(
            f"dice log: stored {log.count} rolls ({log.sha256[:12]}), replay {len(rows)} rolls "
            f"({dice_sha256(rows)[:12]})"
        )

    timed = stage_times(
        lines=[
            EngineLine(r.rider_id, r.rank, r.gap_seconds, r.final_group, r.status)
            for r in outcome.results
        ],
        stage_type=round.stage.stage_type,
        distance_km=float(round.stage.distance_km),
        rules=round.season.rules.timing_rules(round.season.ruleset),
        intermediate_sprints=[
            e.rider_ids for e in outcome.events if e.kind == "intermediate_sprint"
        ],
    )
    engine = {r.rider_id: r for r in outcome.results}
    stored = {r.rider_id: r for r in StageResult.objects.filter(stage_id=round.stage_id)}
    if set(stored) != set(engine):
        differences.append(
            f"riders: {len(stored)} stored, {len(engine)} replayed "
            f"(only stored: {sorted(set(stored) - set(engine))[:10]}, "
            f"only replayed: {sorted(set(engine) - set(stored))[:10]})"
        )
    for line in timed:
        row = stored.get(line.rider_id)
        if row is None:
            continue
        result = engine[line.rider_id]
        status = line.status
        if row.status_reason == REINSTATED and status == StageResult.Status.OUTSIDE_TIME_LIMIT:
            status = StageResult.Status.FINISHED
        replayed = (
            line.rank,
            status,
            line.time_seconds,
            line.gap_seconds,
            line.bonus_seconds,
            result.final_case,
            result.squares_behind,
            result.final_group,
            [[c.turn, c.case, c.severity] for c in result.crashes],
        )
        kept = (
            row.rank,
            row.status,
            row.time_seconds,
            row.gap_seconds,
            row.bonus_seconds,
            row.final_case,
            row.squares_behind,
            row.final_group,
            [[c["turn"], c["case"], c["severity"]] for c in row.crashes],
        )
        if replayed != kept:
            differences.append(f"rider {line.rider_id}: stored {kept}, replayed {replayed}")

    stored_events = list(
        RaceEvent.objects.filter(stage_id=round.stage_id)
        .order_by("seq")
        .values_list("turn", "kind", "rider_ids", "case")
    )
    replayed_events = [
        (e.turn, e.kind, list(e.entrant_ids), e.data.get("case")) for e in outcome.events
    ]
    if stored_events != replayed_events:
        differences.append(
            f"events: {len(stored_events)} stored, {len(replayed_events)} replayed, first "
            f"difference at #{_first_difference(stored_events, replayed_events) + 1}"
        )
    if differences:
        why = _version_change(round.season.ruleset, round.engine_inputs)
        if why:
            differences.insert(0, why)
    return differences


def _version_change(ruleset: str, stored_inputs: dict[str, object]) -> str:
    """Why a replay may differ: the stage was resolved by another version of its ruleset."""
    stored = stored_engine_version(stored_inputs)
    current = ruleset_version(ruleset)
    if stored == current:
        return ""
    when = f"version {stored}" if stored is not None else "a version older than version numbers"
    return (
        f"resolved by {ruleset} {when}, replayed by {ruleset} version {current}: the rules or "
        f"the default AI changed since (docs/rules-choices.md), so differences are expected"
    )


def _first_difference(a: Sequence[object], b: Sequence[object]) -> int:
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return index
    return min(len(a), len(b))
