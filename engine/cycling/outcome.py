"""A simulated stage: per rider his place, gap and fate; the events; the dice log."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from engine.outcome import DiceLog, Event, JsonValue

#: Rider status in an :class:`RiderResult`.
FINISHED = "finished"
ABANDONED = "abandoned"
CRASHED_OUT = "crashed_out"

_NOTHING: Mapping[str, JsonValue] = MappingProxyType({})


def _nothing() -> Mapping[str, JsonValue]:
    return _NOTHING


@dataclass(frozen=True, slots=True)
class Crash:
    """A crash: when, where, and how many restart rolls (or turns out) it took (R-X6)."""

    turn: int
    case: int
    severity: int


@dataclass(frozen=True, slots=True)
class RiderResult:
    """One rider's stage: place, where he ended, his gap, and what happened to him.

    ``carried`` is the ruleset's state carried to the next stage (JSON values; Cyclo Sim:
    ``{"pe_consumed": n}``, the energy consumed at the finish, §2.3; Moréno: nothing); the
    ruleset reads it back into its per-rider extras of the next stage.
    """

    rider_id: int
    rank: int
    final_case: int
    squares_behind: int
    gap_seconds: int
    status: str
    crashes: tuple[Crash, ...]
    final_group: int
    abandon_reason: str | None = None
    carried: Mapping[str, JsonValue] = field(default_factory=_nothing)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A simulated stage: results in rank order, events in order (see
    :mod:`engine.cycling.events` for their kinds and data), the full dice log."""

    ruleset: str
    seed: int
    results: tuple[RiderResult, ...]
    events: tuple[Event, ...]
    dice: DiceLog
    turns: int
    n_cases: int
    rider_moves: int = 0
