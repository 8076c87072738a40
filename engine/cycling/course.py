"""Courses and the board they become (moreno.md §2.6).

A :class:`Course` is what an organiser describes in km; :func:`build_board` turns it into a
:class:`Board` of cases (two per effective km), with the terrain, the seconds of each case, the
sprint zone, the race-phase split, the climbs and the intermediate sprint lines.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

TERRAINS: tuple[str, ...] = ("plain", "hill", "col3", "col2", "col1", "colhc", "descent")
CLIMB_TERRAINS: frozenset[str] = frozenset({"hill", "col3", "col2", "col1", "colhc"})
STAGE_TYPES: tuple[str, ...] = ("flat", "hilly", "mountain", "ITT", "TTT")
TIME_TRIALS: frozenset[str] = frozenset({"ITT", "TTT"})

#: Seconds per case by terrain (R-F3, moreno.md §4).
SECONDS_PER_CASE: dict[str, int] = {
    "plain": 2,
    "descent": 1,
    "hill": 3,
    "col3": 3,
    "col2": 4,
    "col1": 5,
    "colhc": 6,
}
SPRINT_ZONE_CASES = 12
SPRINT_ZONE_SECONDS = 1

#: Anchors of the km -> effective km curve (§2.6), beyond the last one the slope is 50/70.
_EFFECTIVE_KM_ANCHORS: tuple[tuple[float, float], ...] = (
    (0.0, 0.0),
    (120.0, 100.0),
    (170.0, 150.0),
    (240.0, 200.0),
)


def _round_half_up(x: float) -> int:
    return math.floor(x + 0.5)


@dataclass(frozen=True, slots=True)
class Segment:
    """A stretch of one terrain, ``km`` long."""

    terrain: str
    km: float
    name: str = ""

    def __post_init__(self) -> None:
        if self.terrain not in TERRAINS:
            raise ValueError(f"unknown terrain {self.terrain!r} (known: {', '.join(TERRAINS)})")
        if not self.km >= 0:
            raise ValueError(f"segment km must be >= 0, got {self.km!r}")


@dataclass(frozen=True, slots=True)
class Course:
    """A stage route: ordered segments and the km of its intermediate sprints."""

    name: str
    stage_type: str
    distance_km: float
    segments: tuple[Segment, ...]
    intermediate_sprints_km: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if self.stage_type not in STAGE_TYPES:
            raise ValueError(
                f"unknown stage type {self.stage_type!r} (known: {', '.join(STAGE_TYPES)})"
            )
        if not self.segments:
            raise ValueError("a course needs at least one segment")


@dataclass(frozen=True, slots=True)
class Climb:
    """A climb segment on the board: its summit line is crossed on reaching ``line``."""

    name: str
    terrain: str
    first_case: int
    last_case: int

    @property
    def line(self) -> int:
        """First case past the summit."""
        return self.last_case + 1


@dataclass(frozen=True, slots=True)
class Board:
    """The course in cases: ``0 .. n_cases-1``; the finish line is between ``n_cases-1`` and
    ``n_cases``. Cases below 0 are plain start grid, cases past the line repeat the last one."""

    n_cases: int
    terrain: tuple[str, ...]
    seconds: tuple[int, ...]
    sprint_zone_start: int | None
    phase_split: int
    segment_cases: tuple[int, ...]
    climbs: tuple[Climb, ...]
    intermediate_sprints: tuple[tuple[float, int], ...]

    def terrain_at(self, case: int) -> str:
        """Terrain of any case, virtual ones included (§2.6)."""
        if case < 0:
            return "plain"
        return self.terrain[min(case, self.n_cases - 1)]

    def seconds_at(self, case: int) -> int:
        """Seconds of one case (R-F3): plain before the start, case N-1's value past the line."""
        if case < 0:
            return SECONDS_PER_CASE["plain"]
        return self.seconds[min(case, self.n_cases - 1)]

    def gap_seconds(self, behind: int, ahead: int) -> int:
        """R-F3: sum of ``seconds_at(c)`` for ``behind <= c < ahead``."""
        return sum(self.seconds_at(c) for c in range(behind, ahead))


def effective_km(km: float) -> float:
    """§2.6: piece-wise linear through (0,0) (120,100) (170,150) (240,200), slope 50/70 after."""
    anchors = _EFFECTIVE_KM_ANCHORS
    for (x0, y0), (x1, y1) in pairwise(anchors):
        if km <= x1:
            return y0 + (km - x0) * (y1 - y0) / (x1 - x0)
    x_last, y_last = anchors[-1]
    return y_last + (km - x_last) * 50.0 / 70.0


def segment_cases(course: Course) -> tuple[int, ...]:
    """Cases of each segment (§2.6): climbs and descents keep ``round(2*km)``; the plain absorbs
    the compression, split in proportion to km by floor and largest remainder (ties: earlier
    segment). Time trials are not compressed."""
    full = [_round_half_up(2 * s.km) for s in course.segments]
    if course.stage_type in TIME_TRIALS:
        return tuple(full)
    total_km = sum(s.km for s in course.segments)
    target = _round_half_up(2 * effective_km(total_km))
    plain_idx = [i for i, s in enumerate(course.segments) if s.terrain == "plain"]
    if not plain_idx:
        return tuple(full)
    non_plain = sum(c for i, c in enumerate(full) if i not in plain_idx)
    plain_total = max(target - non_plain, len(plain_idx))
    plain_km = sum(course.segments[i].km for i in plain_idx)
    if plain_km > 0:
        shares = [plain_total * course.segments[i].km / plain_km for i in plain_idx]
    else:
        shares = [plain_total / len(plain_idx)] * len(plain_idx)
    floors = [math.floor(s) for s in shares]
    left = plain_total - sum(floors)
    by_remainder = sorted(range(len(shares)), key=lambda j: (-(shares[j] - floors[j]), j))
    for j in by_remainder[:left]:
        floors[j] += 1
    cases = list(full)
    for j, i in enumerate(plain_idx):
        cases[i] = floors[j]
    return tuple(cases)


def _case_of_km(course: Course, cases: Sequence[int], km: float) -> int:
    """The case at ``km`` along the course: start of the case that holds that point."""
    start_km = 0.0
    start_case = 0
    for seg, n in zip(course.segments, cases, strict=True):
        if km < start_km + seg.km and seg.km > 0:
            return start_case + math.floor((km - start_km) / seg.km * n)
        start_km += seg.km
        start_case += n
    return start_case


def _board(
    terrains: Sequence[tuple[str, int, str]],
    *,
    time_trial: bool,
    sprint_lines: Sequence[tuple[float, int]],
) -> Board:
    terrain: list[str] = []
    climbs: list[Climb] = []
    for kind, n, name in terrains:
        if kind not in TERRAINS:
            raise ValueError(f"unknown terrain {kind!r} (known: {', '.join(TERRAINS)})")
        if kind in CLIMB_TERRAINS and n > 0:
            label = name or f"{kind} at case {len(terrain) + n - 1}"
            climbs.append(Climb(label, kind, len(terrain), len(terrain) + n - 1))
        terrain.extend([kind] * n)
    n_cases = len(terrain)
    if n_cases < 1:
        raise ValueError("the course has no case: its distance is too short")
    zone: int | None = None
    last_kind, last_n, _ = terrains[-1]
    if not time_trial and last_kind == "plain" and last_n >= SPRINT_ZONE_CASES:
        zone = n_cases - SPRINT_ZONE_CASES
    seconds = [SECONDS_PER_CASE[t] for t in terrain]
    if zone is not None:
        for c in range(zone, n_cases):
            seconds[c] = SPRINT_ZONE_SECONDS
    lines = tuple((km, min(max(case, 1), n_cases)) for km, case in sprint_lines)
    return Board(
        n_cases=n_cases,
        terrain=tuple(terrain),
        seconds=tuple(seconds),
        sprint_zone_start=zone,
        phase_split=(2 * n_cases) // 3,
        segment_cases=tuple(n for _, n, _ in terrains),
        climbs=tuple(climbs),
        intermediate_sprints=lines,
    )


def build_board(course: Course) -> Board:
    """Turn a course into its board (§2.6, R-TT1: time trials have no sprint zone)."""
    cases = segment_cases(course)
    sprints = [(km, _case_of_km(course, cases, km)) for km in course.intermediate_sprints_km]
    return _board(
        [(s.terrain, n, s.name) for s, n in zip(course.segments, cases, strict=True)],
        time_trial=course.stage_type in TIME_TRIALS,
        sprint_lines=sprints,
    )


def board_from_cases(
    segments: Sequence[tuple[str, int] | tuple[str, int, str]],
    *,
    time_trial: bool = False,
    intermediate_sprint_cases: Sequence[int] = (),
) -> Board:
    """A board given directly in cases, for tests and tools: ``[("plain", 200), ("col1", 40)]``."""
    terrains = [(s[0], s[1], s[2] if len(s) > 2 else "") for s in segments]
    return _board(
        terrains,
        time_trial=time_trial,
        sprint_lines=[(float(c), c) for c in intermediate_sprint_cases],
    )
