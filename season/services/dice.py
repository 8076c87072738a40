"""The dice of a league's round, kept with the round whatever the game: every roll (and card) in
the ruleset's rows, their count and sha256 (the replay compares both)."""

from typing import Any

from plugins import GameAdapter
from season.models import DiceLog, Round


def dice_log_write(*, round: Round, adapter: GameAdapter, outcome: Any) -> DiceLog:
    """Store the outcome's dice log for ``round``; call inside the resolving transaction."""
    if round.seed is None:
        raise ValueError(f"round {round.number} has no seed: it has not been resolved")
    count, sha256 = adapter.dice_log(outcome)
    return DiceLog.objects.create(
        round=round,
        seed=round.seed,
        ruleset=round.season.ruleset,
        count=count,
        sha256=sha256,
        rolls=adapter.dice_rows(outcome),
    )
