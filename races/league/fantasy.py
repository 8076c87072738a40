"""Fantasy points of a stage race's league (docs/league.md "The players' ranking"), on the
scales the players of fantasy cycling games know (Velogames-like): each rider scores for his
stage place, his place on the GC after each stage, the jerseys he wears after it, the
intermediate sprints and summits he crossed first as the race awarded their points, and, after
the race's last stage, his places in the final classifications. A player's team scores the
points of its riders.

``stage_points`` is pure (one stage's facts in, each rider's points out); ``team_scores``
reads the race's own stored rows (results, standings snapshots, sprint and summit events) once
and adds them up for the players' teams.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from django.db.models import Q

from races.classifications import CLIMB_POINTS, DOUBLED_AT_SUMMIT_FINISH, SPRINT_POINTS, ClimbRecord
from races.models import Classification, Stage, StageResult, Standing
from races.standings import stage_climbs_and_sprints

#: A stage's first twenty riders.
STAGE_POINTS: tuple[int, ...] = (50, 30, 20, 18, 16, 14, 12, 10, 8, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1)
#: The GC's first ten after each stage.
DAILY_GC_POINTS: tuple[int, ...] = (15, 12, 10, 8, 6, 5, 4, 3, 2, 1)
#: Each jersey worn after a stage: the leader of each classification but the teams'.
JERSEY_POINTS: Mapping[str, int] = MappingProxyType(
    {
        Classification.GENERAL: 5,
        Classification.POINTS: 3,
        Classification.MOUNTAINS: 3,
        Classification.YOUTH: 3,
    }
)
#: The final classifications, after the race's last stage (on top of that stage's own points).
FINAL_POINTS: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {
        Classification.GENERAL: (
            *(100, 80, 65, 55, 45, 40, 35, 30, 25, 20),
            *(18, 16, 14, 12, 10, 8, 6, 4, 2, 1),
        ),
        Classification.POINTS: (40, 25, 15, 10, 5),
        Classification.MOUNTAINS: (40, 25, 15, 10, 5),
        Classification.YOUTH: (25, 15, 10, 6, 3),
    }
)
#: The kinds of points, in the order the docs' table lists them.
KINDS: tuple[str, ...] = ("stage", "gc", "jersey", "sprint", "summit", "final")
#: The deepest place any scale pays (a stage's, the final GC's).
DEEPEST = max(len(STAGE_POINTS), *(len(scale) for scale in FINAL_POINTS.values()))


def _paid(scale: Sequence[int], place: int) -> int:
    """The points of ``place`` (1 the first) on ``scale``; nothing beyond it."""
    return scale[place - 1] if 1 <= place <= len(scale) else 0


@dataclass(frozen=True)
class StageFacts:
    """What one stage gave, as the race stored it."""

    number: int
    #: rider id -> his place on the stage (the riders ranked).
    finish: Mapping[int, int]
    #: classification -> its riders in order after the stage (the first DEEPEST at least).
    standings: Mapping[str, Sequence[int]]
    #: Each intermediate sprint's crossing order.
    sprints: Sequence[Sequence[int]] = ()
    #: Each categorised climb's crossing order (a summit finish's points doubled, as the race's).
    climbs: Sequence[ClimbRecord] = ()
    #: The race's last stage: the final classifications score too.
    last: bool = False


def stage_points(facts: StageFacts) -> dict[int, dict[str, int]]:
    """Each rider's points of one stage, by kind (KINDS); a rider who scored nothing is not
    in it."""
    points: dict[int, dict[str, int]] = {}

    def add(rider: int, kind: str, value: int) -> None:
        if value:
            kinds = points.setdefault(rider, {})
            kinds[kind] = kinds.get(kind, 0) + value

    for rider, place in facts.finish.items():
        add(rider, "stage", _paid(STAGE_POINTS, place))
    for place, rider in enumerate(facts.standings.get(Classification.GENERAL, ()), start=1):
        add(rider, "gc", _paid(DAILY_GC_POINTS, place))
    for classification, value in JERSEY_POINTS.items():
        leaders = facts.standings.get(classification, ())
        if leaders:
            add(leaders[0], "jersey", value)
    for crossing in facts.sprints:
        for place, rider in enumerate(crossing, start=1):
            add(rider, "sprint", _paid(SPRINT_POINTS, place))
    for climb in facts.climbs:
        factor = 2 if climb.summit_finish and climb.terrain in DOUBLED_AT_SUMMIT_FINISH else 1
        scale = CLIMB_POINTS.get(climb.terrain, ())
        for place, rider in enumerate(climb.crossing_order, start=1):
            add(rider, "summit", factor * _paid(scale, place))
    if facts.last:
        for classification, scale in FINAL_POINTS.items():
            for place, rider in enumerate(facts.standings.get(classification, ()), start=1):
                add(rider, "final", _paid(scale, place))
    return points


@dataclass
class TeamScore:
    """A player's team's fantasy points after a round, and what the end of the race tells of
    it (its best moments)."""

    team_id: int
    points: int = 0
    stage_wins: int = 0
    #: stage number -> the team's points of that stage.
    by_stage: dict[int, int] = field(default_factory=dict)
    #: The team's best stage place: (place, stage number, rider's name).
    best_stage: tuple[int, int, str] | None = None
    #: Days a rider of the team wore a jersey (one per jersey per stage).
    jersey_days: int = 0
    #: The team's best rider on the GC after the round: (place, rider's name); None: none left.
    best_gc: tuple[int, str] | None = None

    @property
    def best_day(self) -> tuple[int, int] | None:
        """(points, stage number) of the team's biggest day; the earliest of equal days."""
        if not self.by_stage or max(self.by_stage.values()) <= 0:
            return None
        number = min(self.by_stage, key=lambda n: (-self.by_stage[n], n))
        return self.by_stage[number], number


@dataclass(frozen=True)
class StandingRow:
    """One stored standings line, as read once for the points, the ranking and the podium."""

    number: int
    classification: str
    rank: int
    rider_id: int | None
    name: str
    team_id: int | None
    value: int
    gap: int


@dataclass(frozen=True)
class RaceRows:
    """What the race stored up to a round that the players' ranking and the end of the race
    read (race_rows: four queries)."""

    #: The round's stage number, the race's last stage number.
    number: int
    last: int
    stages: list[Stage]
    #: The players' riders' results: (stage number, rider id, league team id, rank, name).
    results: list[tuple[int, int, int, int | None, str]]
    #: Every stage's first DEEPEST of the jerseys' classifications, and, after the round,
    #: every line of the players' teams and each classification's first.
    standings: list[StandingRow]
    climbs: Mapping[int, Sequence[ClimbRecord]]
    sprints: Mapping[int, Sequence[Sequence[int]]]

    def after(self, classification: str) -> list[StandingRow]:
        """The lines read of ``classification`` after the round, in order."""
        return [
            row
            for row in self.standings
            if row.number == self.number and row.classification == classification
        ]


def race_rows(stage: Stage, *, players: Iterable[int] | None) -> RaceRows:
    """The race's stored rows up to ``stage`` for the players' teams ``players`` (their ids),
    or for every rider of every team (None: the standings across the season count them all)."""
    teams = None if players is None else list(players)
    every = list(
        Stage.objects.filter(race_id=stage.race_id).select_related("race").order_by("number")
    )
    # A race forked after stage N counts its league's stages only: 1..N are the real race's.
    given = every[0].race.start_after if every else 0
    stages = [each for each in every if given < each.number <= stage.number]
    ridden = StageResult.objects.filter(stage__in=stages)
    if teams is not None:
        ridden = ridden.filter(entry_team_id__in=teams)
    results = [
        (number, rider_id, team_id, rank, name or "")
        for number, rider_id, team_id, rank, name in ridden.order_by(
            "stage__number", "rank"
        ).values_list("stage__number", "rider_id", "entry_team_id", "rank", "rider__name")
        if team_id is not None
    ]
    wanted = Q(stage__in=stages, classification__in=list(JERSEY_POINTS), rank__lte=DEEPEST) | Q(
        stage=stage, rank=1
    )
    if teams is not None:
        wanted |= Q(stage=stage, entry_team_id__in=teams)
    standings = [
        StandingRow(number, classification, rank or 0, rider_id, name or "", team_id, value, gap)
        for number, classification, rank, rider_id, name, team_id, value, gap in (
            Standing.objects.filter(wanted, rank__isnull=False)
            .order_by("stage__number", "classification", "rank")
            .values_list(
                "stage__number",
                "classification",
                "rank",
                "rider_id",
                "rider__name",
                "entry_team_id",
                "value",
                "gap",
            )
        )
    ]
    climbs, sprints = stage_climbs_and_sprints(stages)
    by_number = {each.pk: each.number for each in stages}
    return RaceRows(
        number=stage.number,
        last=every[-1].number if every else stage.number,
        stages=stages,
        results=results,
        standings=standings,
        climbs={by_number[pk]: lines for pk, lines in climbs.items()},
        sprints={by_number[pk]: lines for pk, lines in sprints.items()},
    )


def team_scores(stage: Stage, *, players: Iterable[int]) -> dict[int, TeamScore]:
    """The players' teams' (``players``: their ids) fantasy points after ``stage``, every
    stage of the race up to it counted, from the race's stored rows (four queries)."""
    teams = list(players)
    return scores_of(race_rows(stage, players=teams), players=teams)


def stage_facts_of(rows: RaceRows) -> list[StageFacts]:
    """Each stage of ``rows`` as fantasy points read it: the places of the riders read, the
    jerseys' classifications' first DEEPEST, its sprints and summits (no query)."""
    finish: dict[int, dict[int, int]] = {each.number: {} for each in rows.stages}
    for number, rider_id, _team_id, rank, _name in rows.results:
        if rank is not None:
            finish[number][rider_id] = rank
    standings: dict[int, dict[str, list[int]]] = {each.number: {} for each in rows.stages}
    for row in rows.standings:
        if row.classification in JERSEY_POINTS and row.rank <= DEEPEST and row.rider_id:
            standings[row.number].setdefault(row.classification, []).append(row.rider_id)
    return [
        StageFacts(
            number=each.number,
            finish=finish[each.number],
            standings=standings[each.number],
            sprints=rows.sprints.get(each.number, ()),
            climbs=rows.climbs.get(each.number, ()),
            last=each.number == rows.last,
        )
        for each in rows.stages
    ]


def scores_of(rows: RaceRows, *, players: Iterable[int]) -> dict[int, TeamScore]:
    """The players' teams' fantasy points from ``rows`` (no query)."""
    scores = {team_id: TeamScore(team_id) for team_id in players}
    team_of: dict[int, int] = {}
    for number, rider_id, team_id, rank, name in rows.results:
        team_of[rider_id] = team_id
        if rank is None or team_id not in scores:
            continue
        score = scores[team_id]
        if score.best_stage is None or rank < score.best_stage[0]:
            score.best_stage = (rank, number, name)
        if rank == 1:
            score.stage_wins += 1
    for facts in stage_facts_of(rows):
        number = facts.number
        for rider, kinds in stage_points(facts).items():
            owner = team_of.get(rider)
            if owner is None or owner not in scores:
                continue
            score = scores[owner]
            total = sum(kinds.values())
            score.points += total
            score.by_stage[number] = score.by_stage.get(number, 0) + total
        for classification in JERSEY_POINTS:
            leaders = facts.standings.get(classification, ())
            if leaders and team_of.get(leaders[0]) in scores:
                scores[team_of[leaders[0]]].jersey_days += 1
    for team_id, rank, name in best_gc_of(rows, players=scores):
        scores[team_id].best_gc = (rank, name)
    return scores


def best_gc_of(rows: RaceRows, *, players: Iterable[int]) -> list[tuple[int, int, str]]:
    """Each player's team's best-placed rider on the GC after the round: (team id, place,
    rider's name), best first; a team with no rider on it left is not in it (no query)."""
    wanted = set(players)
    seen: set[int] = set()
    lines: list[tuple[int, int, str]] = []
    for row in rows.after(Classification.GENERAL):
        if row.team_id is not None and row.team_id in wanted and row.team_id not in seen:
            seen.add(row.team_id)
            lines.append((row.team_id, row.rank, row.name))
    return lines


def best_gc(stage: Stage, *, players: Iterable[int]) -> list[tuple[int, int, str]]:
    """Each player's team's best-placed rider on the GC after ``stage``: (team id, place,
    rider's name), best first; a team with no rider on it left is not in it (one query)."""
    seen: set[int] = set()
    lines: list[tuple[int, int, str]] = []
    for team_id, rank, name in (
        Standing.objects.filter(
            stage__race_id=stage.race_id,
            stage__number=stage.number,
            classification=Classification.GENERAL,
            entry_team_id__in=list(players),
            rank__isnull=False,
        )
        .order_by("rank")
        .values_list("entry_team_id", "rank", "rider__name")
    ):
        if team_id is not None and rank is not None and team_id not in seen:
            seen.add(team_id)
            lines.append((team_id, rank, name or ""))
    return lines
