"""Stage times from the engine's per-rider gaps (moreno.md §3.9 R-F4, §3.12 time cut, §4).

The engine ranks the riders and gives each a gap in seconds to the winner (R-F3, R-TT3). This
module turns that into what the results sheet shows: the winner's time from a reference speed,
the same-time rule for riders of one group, the time bonuses and the time cut. It is applied
after the engine so the engine stays pure Moréno (§4). Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

STAGE_TYPES: tuple[str, ...] = ("flat", "hilly", "mountain", "ITT", "TTT")
ROAD_STAGE_TYPES: frozenset[str] = frozenset({"flat", "hilly", "mountain"})

FINISHED = "finished"
ABANDONED = "abandoned"
CRASHED_OUT = "crashed_out"
OUTSIDE_TIME_LIMIT = "otl"
ENGINE_STATUSES: tuple[str, ...] = (FINISHED, ABANDONED, CRASHED_OUT)

#: The winner's average speed by stage type, km/h (R-F4): a season's default. R-F4 names no TTT
#: speed: 52 km/h is our choice, faster than an ITT as a team rides in its own draft
#: (docs/rules-choices.md).
REFERENCE_SPEED_KMH: Mapping[str, float] = MappingProxyType(
    {"flat": 44.0, "hilly": 41.0, "mountain": 37.0, "ITT": 48.0, "TTT": 52.0}
)

#: Time cut, % of the winner's time by stage type (close to the Tour de France's lower bands).
DEFAULT_TIME_CUT_PCT: Mapping[str, float] = MappingProxyType(
    {"flat": 15.0, "hilly": 20.0, "mountain": 30.0, "ITT": 30.0, "TTT": 30.0}
)


#: The jury's rule (the Grand Tours' regulations): when more than this share of a stage's
#: starters finish outside the time limit, the commissaires extend it and none of them is
#: eliminated. A share of the field, so it scales with a league's smaller field
#: (docs/rules-choices.md, "The time cut and the jury").
DEFAULT_TIME_CUT_MAX_OUT_PCT = 20.0


def _default_time_cut_pct() -> Mapping[str, float]:
    return DEFAULT_TIME_CUT_PCT


#: No scaling: the engine's gaps as the rules spec counts them (R-F3).
UNSCALED_GAPS: Mapping[str, float] = MappingProxyType({t: 1.0 for t in STAGE_TYPES})


def _default_gap_scale() -> Mapping[str, float]:
    return UNSCALED_GAPS


@dataclass(frozen=True, slots=True)
class TimingRules:
    """League settings that turn gaps into times (moreno.md §4, R-F4, §3.12).

    The mappings are copied into read-only mappings, so a caller's dict changing later cannot
    change a rule set already in use.
    """

    reference_speed_kmh: Mapping[str, float]
    same_group_same_time: bool = True
    finish_bonuses: tuple[int, ...] = (10, 6, 4)
    intermediate_sprint_bonuses: tuple[int, ...] = (3, 2, 1)
    time_cut_enabled: bool = True
    time_cut_pct: Mapping[str, float] = field(default_factory=_default_time_cut_pct)
    #: At most this % of the stage's starters outside the limit are eliminated; more, and the
    #: limit is extended for all of them (100: the limit always holds).
    time_cut_max_out_pct: float = DEFAULT_TIME_CUT_MAX_OUT_PCT
    gap_scale: Mapping[str, float] = field(default_factory=_default_gap_scale)
    #: Gaps up to this many seconds keep the engine's value; only the part beyond is scaled
    #: (0: the whole gap). The front of a race, what fans read first, is not stretched.
    gap_scale_after_s: int = 0

    def __post_init__(self) -> None:
        if type(self.gap_scale_after_s) is not int or self.gap_scale_after_s < 0:
            raise ValueError(
                f"gap_scale_after_s must be a whole number of seconds >= 0, "
                f"got {self.gap_scale_after_s!r}"
            )
        for name in ("reference_speed_kmh", "time_cut_pct", "gap_scale"):
            table: Mapping[str, float] = getattr(self, name)
            unknown = sorted(set(table) - set(STAGE_TYPES))
            if unknown:
                raise ValueError(
                    f"{name}: unknown stage type {unknown[0]!r} (known: {', '.join(STAGE_TYPES)})"
                )
            object.__setattr__(self, name, MappingProxyType(dict(table)))
        for stage_type, speed in self.reference_speed_kmh.items():
            if not speed > 0:
                raise ValueError(f"reference speed for {stage_type} must be > 0, got {speed!r}")
        for stage_type, scale in self.gap_scale.items():
            if not scale > 0:
                raise ValueError(f"gap scale for {stage_type} must be > 0, got {scale!r}")
        for stage_type, pct in self.time_cut_pct.items():
            if not pct >= 0:
                raise ValueError(f"time cut for {stage_type} must be >= 0 %, got {pct!r}")
        if not 0 <= self.time_cut_max_out_pct <= 100:
            raise ValueError(
                f"time_cut_max_out_pct must be 0 to 100 %, got {self.time_cut_max_out_pct!r}"
            )
        for name in ("finish_bonuses", "intermediate_sprint_bonuses"):
            bonuses: tuple[int, ...] = getattr(self, name)
            if any(b < 0 for b in bonuses):
                raise ValueError(f"{name} must be >= 0 seconds, got {bonuses!r}")


@dataclass(frozen=True, slots=True)
class EngineLine:
    """One rider as the engine ranked him.

    ``final_group`` 0 is the front group. Abandoned and crashed-out riders finished the stage,
    then leave the race (R-A5).
    """

    rider_id: int
    rank: int
    gap_seconds: int
    final_group: int
    status: str
    reinstated: bool = False


@dataclass(frozen=True, slots=True)
class TimedLine:
    """One rider's stage on the results sheet.

    ``time_seconds`` does not include the bonuses: they are reported in ``bonus_seconds`` and
    subtracted in the general classification.
    """

    rider_id: int
    rank: int
    time_seconds: int
    gap_seconds: int
    bonus_seconds: int
    status: str
    status_reason: str


def _round_half_up(x: float) -> int:
    return math.floor(x + 0.5)


def _check_stage_type(stage_type: str) -> None:
    if stage_type not in STAGE_TYPES:
        raise ValueError(f"unknown stage type {stage_type!r} (known: {', '.join(STAGE_TYPES)})")


def clock(seconds: int) -> str:
    """``41:12`` below an hour, ``4:05:10`` from an hour on."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def winner_time_seconds(*, distance_km: float, stage_type: str, rules: TimingRules) -> int:
    """The winner's time: ``3600 · km / v_ref(stage type)`` rounded half up (R-F4)."""
    _check_stage_type(stage_type)
    if stage_type not in rules.reference_speed_kmh:
        raise ValueError(f"no reference speed for {stage_type} stages")
    if not distance_km > 0:
        raise ValueError(f"the stage distance must be > 0 km, got {distance_km!r}")
    return _round_half_up(3600 * distance_km / rules.reference_speed_kmh[stage_type])


def _validate(lines: Sequence[EngineLine]) -> list[EngineLine]:
    """The lines in rank order; ValueError naming the rider at fault."""
    n = len(lines)
    seen_riders: set[int] = set()
    by_rank: dict[int, EngineLine] = {}
    for line in lines:
        who = f"rider {line.rider_id}"
        if line.rider_id in seen_riders:
            raise ValueError(f"{who} appears twice")
        seen_riders.add(line.rider_id)
        if not 1 <= line.rank <= n:
            raise ValueError(f"{who}: rank {line.rank} is outside 1..{n}")
        if line.rank in by_rank:
            raise ValueError(
                f"{who}: rank {line.rank} is already taken by rider {by_rank[line.rank].rider_id}"
            )
        by_rank[line.rank] = line
        if line.gap_seconds < 0:
            raise ValueError(f"{who}: gap {line.gap_seconds} s is negative")
        if line.status not in ENGINE_STATUSES:
            raise ValueError(
                f"{who}: unknown status {line.status!r} (known: {', '.join(ENGINE_STATUSES)})"
            )
    ordered = [by_rank[rank] for rank in range(1, n + 1)]
    if ordered and ordered[0].gap_seconds != 0:
        raise ValueError(
            f"rider {ordered[0].rider_id}: the winner's gap must be 0, got {ordered[0].gap_seconds}"
        )
    return ordered


def _official_gaps(
    ordered: Sequence[EngineLine], *, stage_type: str, rules: TimingRules
) -> list[int]:
    """Gaps after the league's scale by stage type (beyond ``gap_scale_after_s``) and the
    same-time rule (§4), never decreasing with rank.

    Same time applies to road stages only: in a time trial everyone rides alone, and a TTT's
    gaps already carry the team time (R-TT4), so grouping them would be wrong. Without it,
    a rider the engine timed slower than the one ahead is at least one second behind him.
    A rider ranked behind another never gets less time than him: the engine's order is the
    order of the results sheet (R-TT3 gaps, measured after the winner's turn, can dip).
    """
    same_time = rules.same_group_same_time and stage_type in ROAD_STAGE_TYPES
    scale = rules.gap_scale.get(stage_type, 1.0)
    after = rules.gap_scale_after_s
    group_gap: dict[int, int] = {}
    gaps: list[int] = []
    floor = 0
    last_raw = 0
    for line in ordered:
        raw = line.gap_seconds
        gap = raw if raw <= after else after + _round_half_up((raw - after) * scale)
        if same_time:
            gap = group_gap.setdefault(line.final_group, gap)
        elif gaps and raw > last_raw and gap <= floor:
            # Each rider his own time: a scale below 1 and its rounding must not give "s.t."
            # to a rider the engine timed slower (only true ties share a time).
            gap = floor + 1
        floor = max(floor, gap)
        last_raw = max(last_raw, raw)
        gaps.append(floor)
    return gaps


def _bonuses(
    ordered: Sequence[EngineLine],
    *,
    stage_type: str,
    rules: TimingRules,
    intermediate_sprints: Sequence[Sequence[int]],
) -> dict[int, int]:
    bonus = {line.rider_id: 0 for line in ordered}
    if stage_type in ROAD_STAGE_TYPES:
        for line, seconds in zip(ordered, rules.finish_bonuses, strict=False):
            bonus[line.rider_id] += seconds
    for number, crossing in enumerate(intermediate_sprints, start=1):
        seen: set[int] = set()
        for rider_id in crossing:
            if rider_id not in bonus:
                raise ValueError(
                    f"rider {rider_id} crossed sprint {number} but is not in the stage"
                )
            if rider_id in seen:
                raise ValueError(f"rider {rider_id} crossed sprint {number} twice")
            seen.add(rider_id)
        for rider_id, seconds in zip(crossing, rules.intermediate_sprint_bonuses, strict=False):
            bonus[rider_id] += seconds
    return bonus


def stage_times(
    *,
    lines: Sequence[EngineLine],
    stage_type: str,
    distance_km: float,
    rules: TimingRules,
    intermediate_sprints: Sequence[Sequence[int]] = (),
) -> list[TimedLine]:
    """Times, gaps, bonuses and time-cut statuses of a stage, in rank order.

    Time = winner's time (R-F4) + official gap. Finish bonuses go by rank on road stages only;
    intermediate sprint bonuses by crossing order (§4). A finished rider whose gap exceeds
    ``time_cut_pct`` % of the winner's time is ``otl`` unless the organiser reinstated him
    (§3.12), or more than ``time_cut_max_out_pct`` % of the starters are outside the limit (the
    jury extends it for them all); abandoned and crashed-out riders keep their status.
    """
    _check_stage_type(stage_type)
    winner = winner_time_seconds(distance_km=distance_km, stage_type=stage_type, rules=rules)
    ordered = _validate(lines)
    gaps = _official_gaps(ordered, stage_type=stage_type, rules=rules)
    bonus = _bonuses(
        ordered, stage_type=stage_type, rules=rules, intermediate_sprints=intermediate_sprints
    )
    cut_pct: float | None = None
    if rules.time_cut_enabled:
        if stage_type not in rules.time_cut_pct:
            raise ValueError(f"no time cut percentage for {stage_type} stages")
        cut_pct = rules.time_cut_pct[stage_type]

    def outside(line: EngineLine, gap: int) -> bool:
        # gap·100 > pct·winner rather than a division: a gap exactly at the limit stays in.
        return cut_pct is not None and line.status == FINISHED and gap * 100 > cut_pct * winner

    out = sum(
        1
        for line, gap in zip(ordered, gaps, strict=True)
        if outside(line, gap) and not line.reinstated
    )
    extended = out * 100 > rules.time_cut_max_out_pct * len(ordered)
    timed: list[TimedLine] = []
    for line, gap in zip(ordered, gaps, strict=True):
        status, reason = line.status, ""
        if outside(line, gap):
            limit = f"+{clock(gap)} > {cut_pct:g} % of {clock(winner)}"
            if line.reinstated:
                reason = f"reinstated by the organiser (outside the time limit: {limit})"
            elif extended:
                reason = (
                    f"kept by the jury (outside the time limit: {limit}; {out} of "
                    f"{len(ordered)} riders, more than {rules.time_cut_max_out_pct:g} %)"
                )
            else:
                status, reason = OUTSIDE_TIME_LIMIT, f"outside the time limit ({limit})"
        timed.append(
            TimedLine(
                rider_id=line.rider_id,
                rank=line.rank,
                time_seconds=winner + gap,
                gap_seconds=gap,
                bonus_seconds=bonus[line.rider_id],
                status=status,
                status_reason=reason,
            )
        )
    return timed
