"""Re-simulate a resolved stage from its stored seed and inputs and compare with what is stored."""

from collections.abc import Sequence
from typing import Any

from plugins import cycling_adapter
from races.adapters.base import REINSTATED_REASON
from races.models import RaceEvent, StageResult
from season.models import DONE_STATUSES, DiceLog, Round
from season.services.commitment import dice_seed_of


def stage_replay(*, round: Round) -> list[str]:
    """Differences between a fresh simulation and the stored stage; empty when identical."""
    if round.grand_prix_id is not None:
        from season.services.motor_rounds import motor_round_replay

        return motor_round_replay(round=round)
    if round.status not in DONE_STATUSES or round.engine_inputs is None or round.seed is None:
        return [f"Stage {round.number} is not resolved: nothing to replay."]
    adapter = cycling_adapter(round.season.ruleset)
    inputs = adapter.inputs_from_data(round.engine_inputs)
    outcome = adapter.simulate(inputs, seed=dice_seed_of(round))
    differences = []

    log = DiceLog.objects.get(round=round)
    replayed_log = adapter.dice_log(outcome)
    if (log.count, log.sha256, log.seed) != (*replayed_log, round.seed):
        differences.append(
            f"dice log: stored {log.count} rolls ({log.sha256[:12]}), replay "
            f"{replayed_log[0]} rolls ({replayed_log[1][:12]})"
        )

    engine = {r.rider_id: r for r in outcome.results}
    stored = {r.rider_id: r for r in StageResult.objects.filter(stage_id=round.stage_pk)}
    # The riders the organiser kept in the race after the time cut: the same timing as the
    # resolution, with them reinstated.
    reinstated = {
        rider_id for rider_id, row in stored.items() if row.status_reason == REINSTATED_REASON
    }
    timed = adapter.stage_times(
        stage=round.stage, outcome=outcome, rules=round.season.rules, reinstated=reinstated
    )
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
        replayed = (
            line.rank,
            line.status,
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
        RaceEvent.objects.filter(stage_id=round.stage_pk)
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
        why = _version_change(adapter, round.engine_inputs)
        if why:
            differences.insert(0, why)
    return differences


def _version_change(adapter: Any, stored_inputs: dict[str, object]) -> str:
    """Why a replay may differ: the stage was resolved by another version of its ruleset."""
    ruleset = adapter.name
    stored = adapter.stored_version(stored_inputs)
    current = adapter.version
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
