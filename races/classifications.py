"""General, points, mountains, youth and team classifications as pure functions.

Each function takes the stages raced so far (results, climbs, intermediate sprints) and returns
the standings after the last of them, ranked 1..n. A race forked after stage N of a real race
(docs/classifications.md "A race forked at a stage") gives its state after stage N as a
``Baseline``: the stages are then N+1.. only, and every classification is the baseline plus them.
The tables and tie-breaks follow the Tour de France 2023 regulations and the UCI;
docs/classifications.md lists them with their sources and the choices made where the game
differs. Standard library only.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from types import MappingProxyType

STAGE_TYPES: tuple[str, ...] = ("flat", "hilly", "mountain", "ITT", "TTT")
CLIMB_TERRAINS: tuple[str, ...] = ("colhc", "col1", "col2", "col3", "hill")
STATUSES: tuple[str, ...] = ("finished", "abandoned", "crashed_out", "otl", "dnf", "dns", "dsq")
#: Still in the race after the stage.
IN_RACE = "finished"
#: Crossed the line of the stage (abandoned and crashed-out riders leave the race afterwards).
STAGE_FINISHERS: frozenset[str] = frozenset({"finished", "abandoned", "crashed_out"})
#: Statuses of a rider who rode the stage: none of them may follow his leaving the race.
_RODE_THE_STAGE: frozenset[str] = STAGE_FINISHERS | {"otl"}

CLASSIFICATIONS: tuple[str, ...] = ("general", "points", "mountains", "youth", "teams")

_MOUNTAIN_AND_ITT = (20, 17, 15, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#: Green jersey, Tour de France 2023: points by stage rank, by stage type.
FINISH_POINTS: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {
        "flat": (50, 30, 20, 18, 16, 14, 12, 10, 8, 7, 6, 5, 4, 3, 2),
        "hilly": (30, 25, 22, 19, 17, 15, 13, 11, 9, 7, 6, 5, 4, 3, 2),
        "mountain": _MOUNTAIN_AND_ITT,
        "ITT": _MOUNTAIN_AND_ITT,
        "TTT": (),
    }
)
#: Green jersey, Tour de France 2023: each intermediate sprint.
SPRINT_POINTS: tuple[int, ...] = (20, 17, 15, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#: Polka-dot jersey, Tour de France 2023: points by summit crossing order, by category.
CLIMB_POINTS: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {
        "colhc": (20, 15, 12, 10, 8, 6, 4, 2),
        "col1": (10, 8, 6, 4, 2, 1),
        "col2": (5, 3, 2, 1),
        "col3": (2, 1),
        "hill": (1,),
    }
)
#: Tour de France 2023: points are doubled at summit finishes of these categories.
DOUBLED_AT_SUMMIT_FINISH: frozenset[str] = frozenset({"colhc", "col1", "col2"})
YOUTH_AGE_LIMIT = 26
TEAM_COUNTING_RIDERS = 3


@dataclass(frozen=True, slots=True)
class ResultRecord:
    """One rider's line in one stage. ``rank`` and ``time_seconds`` are None when not ranked."""

    rider_id: int
    team_id: int
    rank: int | None
    time_seconds: int | None
    bonus_seconds: int = 0
    penalty_seconds: int = 0
    status: str = "finished"


@dataclass(frozen=True, slots=True)
class ClimbRecord:
    """A categorised climb: ``hill`` (cat 4), ``col3``, ``col2``, ``col1``, ``colhc``."""

    terrain: str
    crossing_order: tuple[int, ...]
    summit_finish: bool = False


@dataclass(frozen=True, slots=True)
class StageRecord:
    """A stage's results, its climbs and its intermediate sprints (crossing orders)."""

    number: int
    stage_type: str
    results: tuple[ResultRecord, ...]
    climbs: tuple[ClimbRecord, ...] = ()
    intermediate_sprints: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class StandingLine:
    """One line of a classification.

    ``value`` is seconds (general, youth, teams) or points (points, mountains); ``gap`` is
    ``value - leader's value`` for times and ``leader's points - points`` for points.
    ``rider_id`` is None in the team classification.
    """

    rank: int
    rider_id: int | None
    team_id: int | None
    value: int
    gap: int


@dataclass(frozen=True, slots=True)
class Baseline:
    """The classifications after the given stages 1..``after_stage`` (a real race's), in their
    order: the stages of the fork start from them.

    The riders of ``general`` are the riders still in the race; ``youth`` names the riders
    eligible for it whatever their birth dates on record; ``teams`` keeps only the teams that
    race on (a league's teams, whose given stages races.standings.league_teams_given counts).
    """

    after_stage: int
    general: tuple[StandingLine, ...]
    points: tuple[StandingLine, ...] = ()
    mountains: tuple[StandingLine, ...] = ()
    youth: tuple[StandingLine, ...] = ()
    teams: tuple[StandingLine, ...] = ()

    def order(self, name: str) -> dict[int, int]:
        """Rider (team for ``teams``) -> place in that classification, 1..n."""
        lines: tuple[StandingLine, ...] = getattr(self, name)
        return {
            (line.rider_id if line.rider_id is not None else line.team_id or 0): i
            for i, line in enumerate(lines, start=1)
        }

    def values(self, name: str) -> dict[int, int]:
        lines: tuple[StandingLine, ...] = getattr(self, name)
        return {
            (line.rider_id if line.rider_id is not None else line.team_id or 0): line.value
            for line in lines
        }


@dataclass(frozen=True, slots=True)
class _GcRow:
    rider_id: int
    team_id: int
    time: int
    rank_sum: int
    last_rank: int
    #: Place in the baseline's general classification (0 without a baseline).
    base_rank: int = 0

    @property
    def key(self) -> tuple[int, int, int, int, int]:
        return (self.time, self.rank_sum, self.last_rank, self.base_rank, self.rider_id)


# --- validation ---------------------------------------------------------------------------


def _ordered(stages: Sequence[StageRecord], baseline: Baseline | None = None) -> list[StageRecord]:
    """The stages by number, checked; ValueError naming the stage and rider at fault."""
    ordered = sorted(stages, key=lambda s: s.number)
    repeated = [number for number, n in Counter(s.number for s in ordered).items() if n > 1]
    if repeated:
        raise ValueError(f"stage {repeated[0]} is given twice")
    left_in: dict[int, int] = {}
    still_in = {line.rider_id for line in baseline.general} if baseline else set()
    for stage in ordered:
        _check_stage(stage)
        if baseline is not None:
            if stage.number <= baseline.after_stage:
                raise ValueError(
                    f"stage {stage.number} is one of the given stages 1..{baseline.after_stage}"
                )
            for r in stage.results:
                if r.rider_id not in still_in and r.status in _RODE_THE_STAGE:
                    raise ValueError(
                        f"stage {stage.number}: rider {r.rider_id} is {r.status} but was out "
                        f"of the race after stage {baseline.after_stage}"
                    )
        for r in stage.results:
            if r.rider_id in left_in and r.status in _RODE_THE_STAGE:
                raise ValueError(
                    f"stage {stage.number}: rider {r.rider_id} is {r.status} but left the race "
                    f"in stage {left_in[r.rider_id]}"
                )
        for r in stage.results:
            if r.status != IN_RACE:
                left_in.setdefault(r.rider_id, stage.number)
    return ordered


def _check_stage(stage: StageRecord) -> None:
    where = f"stage {stage.number}"
    if stage.stage_type not in STAGE_TYPES:
        raise ValueError(
            f"{where}: unknown stage type {stage.stage_type!r} (known: {', '.join(STAGE_TYPES)})"
        )
    riders: set[int] = set()
    ranks: dict[int, int] = {}
    for r in stage.results:
        who = f"{where}: rider {r.rider_id}"
        if r.rider_id in riders:
            raise ValueError(f"{who} appears twice")
        riders.add(r.rider_id)
        if r.status not in STATUSES:
            raise ValueError(f"{who}: unknown status {r.status!r} (known: {', '.join(STATUSES)})")
        if r.status in STAGE_FINISHERS and (r.rank is None or r.time_seconds is None):
            raise ValueError(f"{who} is {r.status} but has no rank or no time")
        if r.rank is not None:
            if r.rank < 1:
                raise ValueError(f"{who}: rank {r.rank} must be >= 1")
            if r.rank in ranks:
                raise ValueError(f"{who}: rank {r.rank} is already taken by rider {ranks[r.rank]}")
            ranks[r.rank] = r.rider_id
        if r.time_seconds is not None and r.time_seconds < 0:
            raise ValueError(f"{who}: time {r.time_seconds} s is negative")
        if r.bonus_seconds < 0 or r.penalty_seconds < 0:
            raise ValueError(f"{who}: bonus and penalty must be >= 0 seconds")
    for climb in stage.climbs:
        if climb.terrain not in CLIMB_POINTS:
            raise ValueError(
                f"{where}: unknown climb {climb.terrain!r} (known: {', '.join(CLIMB_TERRAINS)})"
            )
        _check_crossing(climb.crossing_order, riders, f"{where}, {climb.terrain} climb")
    for number, crossing in enumerate(stage.intermediate_sprints, start=1):
        _check_crossing(crossing, riders, f"{where}, intermediate sprint {number}")


def _check_crossing(crossing: Iterable[int], riders: set[int], where: str) -> None:
    seen: set[int] = set()
    for rider_id in crossing:
        if rider_id not in riders:
            raise ValueError(f"{where}: rider {rider_id} crossed but has no result in the stage")
        if rider_id in seen:
            raise ValueError(f"{where}: rider {rider_id} crossed twice")
        seen.add(rider_id)


# --- helpers ------------------------------------------------------------------------------


def _riders_in_race(stages: Sequence[StageRecord], baseline: Baseline | None = None) -> set[int]:
    """Riders finished in every stage so far (and in the baseline's general classification):
    anyone else is out of every individual ranking."""
    if baseline is not None:
        in_race = {line.rider_id for line in baseline.general if line.rider_id is not None}
    elif not stages:
        return set()
    else:
        in_race = {r.rider_id for r in stages[0].results if r.status == IN_RACE}
    for stage in stages[0 if baseline is not None else 1 :]:
        in_race &= {r.rider_id for r in stage.results if r.status == IN_RACE}
    return in_race


def _rank_and_time(r: ResultRecord) -> tuple[int, int]:
    """Rank and time of a line that crossed the line (checked by ``_check_stage``)."""
    if r.rank is None or r.time_seconds is None:
        raise ValueError(f"rider {r.rider_id} is {r.status} but has no rank or no time")
    return r.rank, r.time_seconds


def _teams_of(stages: Sequence[StageRecord], baseline: Baseline | None = None) -> dict[int, int]:
    """Each rider's team, as in his latest line (the baseline's before any stage)."""
    teams = (
        {
            line.rider_id: line.team_id or 0
            for name in ("general", "points", "mountains")
            for line in getattr(baseline, name)
            if line.rider_id is not None
        }
        if baseline is not None
        else {}
    )
    return teams | {r.rider_id: r.team_id for stage in stages for r in stage.results}


def _ranked_by_time(rows: Sequence[tuple[int | None, int | None, int]]) -> list[StandingLine]:
    """``(rider, team, seconds)`` rows already in order -> lines with gaps to the leader."""
    if not rows:
        return []
    leader = rows[0][2]
    return [
        StandingLine(rank=i, rider_id=rider, team_id=team, value=value, gap=value - leader)
        for i, (rider, team, value) in enumerate(rows, start=1)
    ]


def _ranked_by_points(
    points: Mapping[int, int],
    teams_of: Mapping[int, int],
    tie_key: Callable[[int], tuple[int, ...]],
) -> list[StandingLine]:
    riders = sorted(
        (r for r, p in points.items() if p > 0), key=lambda r: (-points[r], *tie_key(r))
    )
    if not riders:
        return []
    leader = points[riders[0]]
    return [
        StandingLine(
            rank=i, rider_id=r, team_id=teams_of[r], value=points[r], gap=leader - points[r]
        )
        for i, r in enumerate(riders, start=1)
    ]


def _general_rows(stages: Sequence[StageRecord], baseline: Baseline | None = None) -> list[_GcRow]:
    """General classification rows in order (UCI tie-break: sum of places, last place, id;
    after a baseline, the places of the stages since, then the baseline's order)."""
    in_race = _riders_in_race(stages, baseline)
    if not in_race:
        return []
    time: Counter[int] = Counter(baseline.values("general") if baseline else {})
    base_rank = baseline.order("general") if baseline else {}
    rank_sum: Counter[int] = Counter()
    last_rank: dict[int, int] = {}
    for stage in stages:
        for r in stage.results:
            if r.rider_id in in_race:
                rank, seconds = _rank_and_time(r)
                time[r.rider_id] += seconds - r.bonus_seconds + r.penalty_seconds
                rank_sum[r.rider_id] += rank
                last_rank[r.rider_id] = rank
    teams_of = _teams_of(stages, baseline)
    rows = [
        _GcRow(
            rider_id=rider,
            team_id=teams_of[rider],
            time=time[rider],
            rank_sum=rank_sum[rider],
            last_rank=last_rank.get(rider, 0),
            base_rank=base_rank.get(rider, 0),
        )
        for rider in in_race
    ]
    return sorted(rows, key=lambda row: row.key)


def _gc_rank_of(rows: Sequence[_GcRow]) -> dict[int, int]:
    return {row.rider_id: i for i, row in enumerate(rows, start=1)}


# --- classifications ----------------------------------------------------------------------


def general(
    stages: Sequence[StageRecord], *, baseline: Baseline | None = None
) -> list[StandingLine]:
    """Yellow jersey: stage times - bonuses + penalties, summed (on the baseline's times).

    Ties: sum of stage places, then place in the last stage (UCI stage-race rules), then the
    baseline's order, then rider id so the order is always the same.
    """
    return _general_from_rows(_general_rows(_ordered(stages, baseline), baseline))


def _general_from_rows(rows: Sequence[_GcRow]) -> list[StandingLine]:
    return _ranked_by_time([(row.rider_id, row.team_id, row.time) for row in rows])


def points(
    stages: Sequence[StageRecord], *, baseline: Baseline | None = None
) -> list[StandingLine]:
    """Green jersey: finish points by stage type plus intermediate sprint points (TdF 2023),
    on the baseline's points.

    Riders out of the race lose their points; riders with 0 points are not listed.
    Ties: stage wins, then intermediate sprint wins, then GC rank.
    """
    ordered = _ordered(stages, baseline)
    return _points(ordered, _gc_rank_of(_general_rows(ordered, baseline)), baseline)


def _points(
    stages: Sequence[StageRecord], gc_rank: Mapping[int, int], baseline: Baseline | None = None
) -> list[StandingLine]:
    total: Counter[int] = Counter(baseline.values("points") if baseline else {})
    stage_wins: Counter[int] = Counter()
    sprint_wins: Counter[int] = Counter()
    for stage in stages:
        table = FINISH_POINTS[stage.stage_type]
        for r in stage.results:
            if r.rank is None:
                continue
            if r.rank <= len(table):
                total[r.rider_id] += table[r.rank - 1]
            if r.rank == 1:
                stage_wins[r.rider_id] += 1
        for crossing in stage.intermediate_sprints:
            for rider_id, pts in zip(crossing, SPRINT_POINTS, strict=False):
                total[rider_id] += pts
            if crossing:
                sprint_wins[crossing[0]] += 1
    in_race = {rider: pts for rider, pts in total.items() if rider in gc_rank}
    return _ranked_by_points(
        in_race,
        _teams_of(stages, baseline),
        lambda r: (-stage_wins[r], -sprint_wins[r], gc_rank[r], r),
    )


def mountains(
    stages: Sequence[StageRecord], *, baseline: Baseline | None = None
) -> list[StandingLine]:
    """Polka-dot jersey: points by summit crossing order and category (TdF 2023).

    Doubled at summit finishes of HC, cat 1 and cat 2 climbs. Riders out of the race lose their
    points; riders with 0 points are not listed. Ties: HC first places, then cat 1, cat 2,
    cat 3 and cat 4 first places, then GC rank. On the baseline's points.
    """
    ordered = _ordered(stages, baseline)
    return _mountains(ordered, _gc_rank_of(_general_rows(ordered, baseline)), baseline)


def _mountains(
    stages: Sequence[StageRecord], gc_rank: Mapping[int, int], baseline: Baseline | None = None
) -> list[StandingLine]:
    total: Counter[int] = Counter(baseline.values("mountains") if baseline else {})
    firsts: dict[str, Counter[int]] = {terrain: Counter() for terrain in CLIMB_TERRAINS}
    for stage in stages:
        for climb in stage.climbs:
            factor = 2 if climb.summit_finish and climb.terrain in DOUBLED_AT_SUMMIT_FINISH else 1
            for rider_id, pts in zip(
                climb.crossing_order, CLIMB_POINTS[climb.terrain], strict=False
            ):
                total[rider_id] += factor * pts
            if climb.crossing_order:
                firsts[climb.terrain][climb.crossing_order[0]] += 1
    in_race = {rider: pts for rider, pts in total.items() if rider in gc_rank}
    return _ranked_by_points(
        in_race,
        _teams_of(stages, baseline),
        lambda r: (*(-firsts[t][r] for t in CLIMB_TERRAINS), gc_rank[r], r),
    )


def is_youth(birth_date: date | None, *, season_year: int) -> bool:
    """Under 26 on 1 January of the season year; no birth date, not eligible."""
    return birth_date is not None and birth_date > date(season_year - YOUTH_AGE_LIMIT, 1, 1)


def youth(
    stages: Sequence[StageRecord],
    *,
    birth_dates: Mapping[int, date | None],
    season_year: int,
    baseline: Baseline | None = None,
) -> list[StandingLine]:
    """White jersey: the general classification of riders under 26 on 1 January (and of the
    riders of the baseline's youth classification)."""
    ordered = _ordered(stages, baseline)
    return _youth(_general_rows(ordered, baseline), birth_dates, season_year, baseline)


def _youth(
    rows: Sequence[_GcRow],
    birth_dates: Mapping[int, date | None],
    season_year: int,
    baseline: Baseline | None = None,
) -> list[StandingLine]:
    known = set(baseline.order("youth")) if baseline else set()
    young = [
        row
        for row in rows
        if row.rider_id in known or is_youth(birth_dates.get(row.rider_id), season_year=season_year)
    ]
    return _general_from_rows(young)


def teams(stages: Sequence[StageRecord], *, baseline: Baseline | None = None) -> list[StandingLine]:
    """Team classification: each stage, the sum of a team's three best stage times.

    Counted among its riders who finished the stage (finished, abandoned, crashed out; bonuses
    and penalties left out). A team with fewer than three such riders in any stage is out.
    Ties: daily team wins, then the team's best place in the last stage, then team id. On the
    baseline's team times when it gives any (then only its teams race on).
    """
    return _teams(_ordered(stages, baseline), baseline)


def _teams(ordered: Sequence[StageRecord], baseline: Baseline | None = None) -> list[StandingLine]:
    base = baseline.values("teams") if baseline else {}
    if not ordered and not base:
        return []
    base_order = baseline.order("teams") if baseline else {}
    total: Counter[int] = Counter(base)
    daily_wins: Counter[int] = Counter()
    still_in: set[int] | None = set(base) if base else None
    best_last_rank: dict[int, int] = {}
    for stage in ordered:
        finishers: defaultdict[int, list[tuple[int, int]]] = defaultdict(list)
        for r in stage.results:
            if r.status in STAGE_FINISHERS:
                rank, seconds = _rank_and_time(r)
                finishers[r.team_id].append((seconds, rank))
        # UCI daily team ranking: sum of the three times, then of their places, then best place.
        daily: dict[int, tuple[int, int, int]] = {}
        for team, lines in finishers.items():
            best = sorted(lines)[:TEAM_COUNTING_RIDERS]
            if len(best) == TEAM_COUNTING_RIDERS:
                best_place = min(p for _, p in lines)
                daily[team] = (sum(t for t, _ in best), sum(p for _, p in best), best_place)
        if daily:
            daily_wins[min(daily, key=lambda team: (*daily[team], team))] += 1
        still_in = set(daily) if still_in is None else still_in & set(daily)
        for team, (seconds, _, _) in daily.items():
            total[team] += seconds
        best_last_rank = {team: min(p for _, p in lines) for team, lines in finishers.items()}
    ranked = sorted(
        still_in or set(),
        key=lambda team: (
            total[team],
            -daily_wins[team],
            best_last_rank.get(team, 0),
            base_order.get(team, 0),
            team,
        ),
    )
    return _ranked_by_time([(None, team, total[team]) for team in ranked])


def all_classifications(
    stages: Sequence[StageRecord],
    *,
    birth_dates: Mapping[int, date | None],
    season_year: int,
    baseline: Baseline | None = None,
) -> dict[str, list[StandingLine]]:
    """Every classification after the last stage, keyed general, points, mountains, youth,
    teams (the values of ``races.models.Classification``); after a fork, the baseline plus
    the stages since."""
    ordered = _ordered(stages, baseline)
    rows = _general_rows(ordered, baseline)
    gc_rank = _gc_rank_of(rows)
    return {
        "general": _general_from_rows(rows),
        "points": _points(ordered, gc_rank, baseline),
        "mountains": _mountains(ordered, gc_rank, baseline),
        "youth": _youth(rows, birth_dates, season_year, baseline),
        "teams": _teams(ordered, baseline),
    }


def jersey_holders(standings: Mapping[str, list[StandingLine]]) -> dict[str, int | None]:
    """The leader of each classification: a rider id, a team id for teams, None when empty."""
    holders: dict[str, int | None] = {}
    for name, lines in standings.items():
        if not lines:
            holders[name] = None
        else:
            leader = min(lines, key=lambda line: line.rank)
            holders[name] = leader.rider_id if leader.rider_id is not None else leader.team_id
    return holders
