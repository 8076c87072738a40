"""Re-simulate a resolved round from its stored seed and inputs and compare with what is stored:
the dice log here (the season keeps it), the results and events by the game's adapter (its app
keeps them)."""

from collections.abc import Mapping

from plugins import GameAdapter, adapter_for
from season.models import DONE_STATUSES, DiceLog, Round
from season.round_names import round_name_start
from season.services.commitment import dice_seed_of


def stage_replay(*, round: Round) -> list[str]:
    """Differences between a fresh simulation and the stored round; empty when identical."""
    adapter = adapter_for(round.season.ruleset)
    event = adapter.round_event(round)
    if (
        round.status not in DONE_STATUSES
        or round.engine_inputs is None
        or round.seed is None
        or event is None
    ):
        return [
            f"{round_name_start(round.season, round.number)} is not resolved: nothing to replay."
        ]
    outcome, rows = adapter.round_replay(
        event=event,
        stored_inputs=round.engine_inputs,
        seed=dice_seed_of(round),
        rules=round.season.rules,
    )
    differences = []
    log = DiceLog.objects.filter(round=round).first()
    count, sha256 = adapter.dice_log(outcome)
    if log is None:
        differences.append(f"dice log: none stored, replay {count} rolls ({sha256[:12]})")
    elif (log.count, log.sha256, log.seed) != (count, sha256, round.seed):
        differences.append(
            f"dice log: stored {log.count} rolls ({log.sha256[:12]}), replay "
            f"{count} rolls ({sha256[:12]})"
        )
    differences += rows
    if differences:
        why = _version_change(adapter, round.engine_inputs)
        if why:
            differences.insert(0, why)
    return differences


def _version_change(adapter: GameAdapter, stored_inputs: Mapping[str, object]) -> str:
    """Why a replay may differ: the round was resolved by another version of its ruleset."""
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
